/*
 * pdb_bg.c - pattern database sets built in the background (see
 * http_pdb_bg.h): a detached-from-readiness thread at nice 19 whose
 * build threads (pool_run_pieces) inherit that priority, its progress
 * kept in atomics for /readyz and /v1/catalog, each set published into
 * the live bundle as soon as it is complete.
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
    enum puz_pdb_partition parts[PUZ_PDB_PARTITION_COUNT_];
    unsigned nparts;
    unsigned at;                /* the index in parts being built */
    const char *name;           /* what /readyz calls it */
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
    unsigned lo, span, pm;
    double part;

    if (p->kind == PUZ_PDB_EV_NOTE) {
        http__log_line("puzzled: pdb: %s", p->msg);
        return;
    }
    if (p->groups == 0 || p->group == 0)
        return;
    /* each set of the list its share, a pair's two sets half of it */
    span = 1000 / b->nparts;
    lo = b->at * span;
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
        span /= 2;
        lo += strcmp(p->partition, b->second) == 0 ? span : 0;
    }
    pm = lo + (unsigned)(span * (b->groups_done + part) / p->groups);
    /* 100 % is said by build() once the tables serve: after the last
       group come the file's write and the load (seconds on 5x5), and a
       /readyz reading 100 % while "building" misled operators. */
    if (pm > atomic_load(&b->permille))
        atomic_store(&b->permille, pm < 999 ? pm : 999);
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
    uint64_t t0 = puz_clock_mono_us();
    puz_err rc = PUZ_OK;

    /* this thread only; the build's threads inherit it */
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
    for (b->at = 0; b->at < b->nparts && rc == PUZ_OK; b->at++) {
        enum puz_pdb_partition part = b->parts[b->at], second;
        puz_pdb *d = NULL;

        b->second = puz_pdb_partition_pair(part, NULL, &second)
                  ? puz_pdb_partition_name(second) : NULL;
        b->set = NULL;
        rc = puz_pdb_open(b->dir[0] ? b->dir : NULL, part, NULL, &po, &d,
                          why);
        if (rc == PUZ_OK)
            rc = puz_tables_add_pdb(b->tables, d);
        if (rc != PUZ_OK)
            http__log_line("puzzled: pdb %s (background) failed: %s",
                           puz_pdb_partition_name(part),
                           why[0] ? why : puz_strerror(rc));
    }
    if (rc == PUZ_OK) {
        http__log_line("puzzled: pdb %s ready (background) in %.1f s",
                       b->name, (double)(puz_clock_mono_us() - t0) / 1e6);
        atomic_store(&b->permille, 1000);
        atomic_store(&b->state, HTTP_PDB_BG_READY);
    } else {
        atomic_store(&b->state, HTTP_PDB_BG_FAILED);
    }
    atomic_store(&b->ended, true);
    return NULL;
}

puz_err http_pdb_bg_start(puz_tables *t, const char *dir,
                          const enum puz_pdb_partition *parts,
                          unsigned nparts, const char *name,
                          unsigned threads, http_pdb_bg **out)
{
    struct http_pdb_bg *b;

    *out = NULL;
    if (nparts == 0 || nparts > PUZ_PDB_PARTITION_COUNT_)
        return PUZ_EINVAL;
    b = calloc(1, sizeof(*b));
    if (b == NULL)
        return PUZ_ENOMEM;
    b->tables = t;
    memcpy(b->parts, parts, nparts * sizeof(parts[0]));
    b->nparts = nparts;
    b->name = name != NULL ? name : puz_pdb_partition_name(parts[0]);
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
    return b->name;
}

bool http_pdb_bg_destroy(http_pdb_bg *b)
{
    if (b == NULL)
        return true;
    if (!atomic_load(&b->ended)) {
        http__log_line("puzzled: pdb %s still building at exit: left "
                       "unfinished (a later start builds it again)",
                       b->name);
        pthread_detach(b->th);
        return false;
    }
    pthread_join(b->th, NULL);
    free(b);
    return true;
}
