/*
 * pdb_bg.c - one pattern database set built in the background (see
 * http_pdb_bg.h): a detached-from-readiness thread at nice 19 whose
 * build threads (pool_run_pieces) inherit that priority, its progress
 * kept in atomics for /readyz and /v1/catalog, the set published into
 * the live bundle at the end.
 */
#include "http_int.h"
#include "http_pdb_bg.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pool_pieces.h"

struct http_pdb_bg {
    pthread_t th;
    puz_tables *tables;
    enum puz_pdb_partition part;
    const char *second;         /* a pair's second set's name, or NULL */
    const char *set;            /* the set being built (its name) */
    unsigned groups_done;       /* of that set */
    unsigned threads;
    char dir[HTTP_CONFIG_STR];
    atomic_int state;
    atomic_uint permille;
    atomic_bool ended;
};

/*
 * Progress as groups finished plus the share of the one being searched:
 * a zero-aware set builds its groups out of number order (those with
 * their own plain table first), so the group's number would make the
 * percentage go back. Only this build's thread calls it (puz_pdb_opts).
 */
static void on_progress(const struct puz_pdb_progress *p, void *user)
{
    struct http_pdb_bg *b = user;
    unsigned lo = 0, span = 1000, pm;
    double part;

    if (p->kind == PUZ_PDB_EV_NOTE) {
        http__log_line("puzzled: pdb: %s", p->msg);
        return;
    }
    if (p->groups == 0 || p->group == 0)
        return;
    if (b->set == NULL || strcmp(b->set, p->partition) != 0) {
        b->set = p->partition;          /* a pair's second set begins */
        b->groups_done = 0;
    }
    if (p->kind == PUZ_PDB_EV_GROUP_DONE) {
        b->groups_done++;
        part = 0.0;
    } else {
        part = p->placements == 0 ? 0.0
             : (double)p->placed / (double)p->placements;
    }
    /* a pair's two sets are built one after the other: half each */
    if (b->second != NULL) {
        span = 500;
        lo = strcmp(p->partition, b->second) == 0 ? 500 : 0;
    }
    pm = lo + (unsigned)(span * (b->groups_done + part) / p->groups);
    if (pm > atomic_load(&b->permille))
        atomic_store(&b->permille, pm < 1000 ? pm : 1000);
    if (p->kind == PUZ_PDB_EV_GROUP_DONE)
        http__log_line("puzzled: pdb %s (background): group %u/%u built, "
                       "%.1f s", p->partition, p->group, p->groups,
                       p->seconds);
}

static void *build(void *arg)
{
    struct http_pdb_bg *b = arg;
    struct puz_pdb_opts po = { .threads = b->threads,
                               .progress = on_progress, .user = b,
                               .run = pool_run_pieces };
    char why[PUZ_MSG_MAX] = "";
    uint64_t t0 = puz_now_us();
    puz_pdb *d = NULL;
    puz_err rc;

    /* this thread only; the build's threads inherit it */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
    rc = puz_pdb_open(b->dir[0] ? b->dir : NULL, b->part, NULL, &po, &d,
                      why);
    if (rc == PUZ_OK)
        rc = puz_tables_add_pdb(b->tables, d);
    if (rc == PUZ_OK) {
        http__log_line("puzzled: pdb %s ready (background) in %.1f s",
                       puz_pdb_partition_name(b->part),
                       (double)(puz_now_us() - t0) / 1e6);
        atomic_store(&b->permille, 1000);
        atomic_store(&b->state, HTTP_PDB_BG_READY);
    } else {
        http__log_line("puzzled: pdb %s (background) failed: %s",
                       puz_pdb_partition_name(b->part),
                       why[0] ? why : puz_strerror(rc));
        atomic_store(&b->state, HTTP_PDB_BG_FAILED);
    }
    atomic_store(&b->ended, true);
    return NULL;
}

puz_err http_pdb_bg_start(puz_tables *t, const char *dir,
                          enum puz_pdb_partition part, unsigned threads,
                          http_pdb_bg **out)
{
    struct http_pdb_bg *b = calloc(1, sizeof(*b));
    enum puz_pdb_partition second;

    *out = NULL;
    if (b == NULL)
        return PUZ_ENOMEM;
    b->tables = t;
    b->part = part;
    if (puz_pdb_partition_pair(part, NULL, &second))
        b->second = puz_pdb_partition_name(second);
    b->threads = threads;
    snprintf(b->dir, sizeof(b->dir), "%s", dir != NULL ? dir : "");
    atomic_init(&b->state, HTTP_PDB_BG_BUILDING);
    atomic_init(&b->permille, 0);
    atomic_init(&b->ended, false);
    if (pthread_create(&b->th, NULL, build, b) != 0) {
        free(b);
        return PUZ_ENOMEM;
    }
    *out = b;
    return PUZ_OK;
}

enum http_pdb_bg_state http_pdb_bg_state(const http_pdb_bg *b,
                                         unsigned *permille)
{
    if (permille != NULL)
        *permille = atomic_load(&b->permille);
    return (enum http_pdb_bg_state)atomic_load(&b->state);
}

const char *http_pdb_bg_name(const http_pdb_bg *b)
{
    return puz_pdb_partition_name(b->part);
}

bool http_pdb_bg_destroy(http_pdb_bg *b)
{
    if (b == NULL)
        return true;
    if (!atomic_load(&b->ended)) {
        http__log_line("puzzled: pdb %s still building at exit: left "
                       "unfinished (a later start builds it again)",
                       puz_pdb_partition_name(b->part));
        pthread_detach(b->th);
        return false;
    }
    pthread_join(b->th, NULL);
    free(b);
    return true;
}
