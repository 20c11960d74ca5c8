/*
 * korf100.c - Korf's 100 random 15-puzzle instances (Korf 1985) solved
 * optimally with IDA* and the additive pattern databases, once with
 * 6-6-3 and once with 7-8 plus the reflected lookup, on one core. Prints
 * per instance the length (checked against the published one and by
 * replaying the path), nodes and seconds, then totals, nodes per second
 * and the table build (or load) times. Exit status 1 if any length or
 * path is wrong.
 *
 * usage: korf100 [--data FILE] [--cache DIR] [--partition 6-6-3|7-8|both]
 *                [--first N] [--quiet] [--progress]
 * --progress hands the solver a progress callback that only counts its
 * calls, to measure what watching a search costs.
 * Tables are loaded from DIR (default pdb-cache) or built there; a 7-8
 * build takes a few minutes on two cores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool_pieces.h"
#include "puz_pdb.h"
#include "puz_solve.h"

#define MAX_INSTANCES 100

struct instance {
    unsigned id, want;
    struct puz_board board;
};

struct args {
    const char *data, *cache;
    int parts[PUZ_PDB_PARTITION_COUNT_];
    unsigned first;
    int quiet;
    int progress;
};

struct totals {
    double seconds;
    uint64_t generated, expanded;
    unsigned length, bad;
};

static void progress(const struct puz_pdb_progress *p, void *user)
{
    (void)user;
    if (p->kind == PUZ_PDB_EV_NOTE)
        fprintf(stderr, "%s\n", p->msg);
    else if (p->kind == PUZ_PDB_EV_GROUP_DONE)
        fprintf(stderr, "  built %s group %u/%u (%u tiles) in %.1f s\n",
                p->partition, p->group, p->groups, p->tiles, p->seconds);
}

static unsigned long progress_calls;

static void count_progress(const struct puz_progress *p, void *user)
{
    (void)p;
    (void)user;
    progress_calls++;
}

static unsigned load_instances(const char *path, struct instance *in)
{
    FILE *f = fopen(path, "r");
    char line[512], msg[PUZ_MSG_MAX];
    unsigned n = 0;

    if (f == NULL) {
        perror(path);
        return 0;
    }
    while (n < MAX_INSTANCES && fgets(line, sizeof(line), f) != NULL) {
        char *tiles = strchr(line, '\t'), *len;
        if (tiles == NULL || atoi(line) <= 0)
            continue;
        len = strchr(tiles + 1, '\t');
        if (len == NULL)
            continue;
        *len = '\0';
        if (puz_board_parse(tiles + 1, &in[n].board, msg) != PUZ_OK) {
            fprintf(stderr, "%s: bad board: %s\n", path, msg);
            continue;
        }
        in[n].id = (unsigned)atoi(line);
        in[n].want = (unsigned)atoi(len + 1);
        n++;
    }
    fclose(f);
    return n;
}

/* Solve one instance and check it; returns 1 when something is wrong. */
static int run_one(const struct instance *in, const struct puz_solve_opts *o,
                   puz_arena *a, struct totals *t, int quiet)
{
    struct puz_result r;
    struct puz_board end;
    int bad;

    puz_arena_reset(a);
    if (puz_solve(&in->board, o, a, &r) != PUZ_OK) {
        printf("%3u  error: %s\n", in->id, r.reason);
        return 1;
    }
    bad = r.status != PUZ_SOLVED || r.length != in->want ||
          puz_replay(&in->board, r.moves, r.length, &end) != PUZ_OK ||
          !puz_board_equal(&end, o->goal);
    t->seconds += (double)r.stats.time_us / 1e6;
    t->generated += r.stats.generated;
    t->expanded += r.stats.expanded;
    t->length += r.length;
    if (!quiet || bad)
        printf("%3u  %2u%s  %12llu  %12llu  %8.3f\n", in->id, r.length,
               bad ? " WRONG" : "", (unsigned long long)r.stats.generated,
               (unsigned long long)r.stats.expanded,
               (double)r.stats.time_us / 1e6);
    return bad;
}

static void report(const char *name, const struct totals *t, unsigned n,
                   double table_s, int built, size_t bytes)
{
    printf("%s: %u instances, total length %u, %u wrong\n", name, n,
           t->length, t->bad);
    printf("%s: %.2f s total, %.4f s per instance\n", name, t->seconds,
           t->seconds / n);
    printf("%s: generated %llu (%.0f per instance), expanded %llu "
           "(%.0f per instance)\n", name,
           (unsigned long long)t->generated, (double)t->generated / n,
           (unsigned long long)t->expanded, (double)t->expanded / n);
    printf("%s: %.2f M generated nodes/s\n", name,
           t->seconds > 0 ? (double)t->generated / t->seconds / 1e6 : 0.0);
    printf("%s: tables %s in %.1f s, %.1f MB\n\n", name,
           built ? "built" : "loaded", table_s, (double)bytes / 1e6);
}

static int bench(enum puz_pdb_partition part, const struct args *ar,
                 const struct instance *in, unsigned n)
{
    struct puz_pdb_opts po = { 2, progress, NULL, pool_run_pieces, NULL };
    struct puz_solve_opts o = { 0 };
    struct puz_board goal;
    struct totals t = { 0 };
    puz_tables *tables;
    puz_pdb *d;
    puz_arena *a;
    char msg[PUZ_MSG_MAX];
    uint64_t t0 = puz_clock_mono_us();
    const char *name = puz_pdb_partition_name(part);

    puz_board_parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &goal, msg);
    if (puz_pdb_open(ar->cache, part, &goal, &po, &d, msg) != PUZ_OK) {
        fprintf(stderr, "korf100: %s tables: %s\n", name, msg);
        return 1;
    }
    double table_s = (double)(puz_clock_mono_us() - t0) / 1e6;
    int built = puz_pdb_build_seconds(d) > 0;
    size_t bytes = puz_pdb_bytes(d);
    puz_tables_create(&tables);
    puz_tables_add_pdb(tables, d);
    a = puz_arena_create(1 << 16);
    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    o.goal = &goal;
    o.tables = tables;
    if (ar->progress)
        o.progress = count_progress;
    printf("== %s%s\n id  len  %12s  %12s  %8s\n", name,
           part == PUZ_PDB_78 ? " + reflection" : "", "generated",
           "expanded", "seconds");
    for (unsigned i = 0; i < n; i++)
        t.bad += (unsigned)run_one(&in[i], &o, a, &t, ar->quiet);
    report(name, &t, n, table_s, built, bytes);
    if (ar->progress)
        printf("%s: %lu progress calls\n\n", name, progress_calls);
    puz_arena_destroy(a);
    puz_tables_destroy(tables);
    return t.bad != 0;
}

static int parse(int argc, char **argv, struct args *ar)
{
    enum puz_pdb_partition p;

    ar->data = "tests/data/korf100.tsv";
    ar->cache = "pdb-cache";
    ar->parts[PUZ_PDB_663] = ar->parts[PUZ_PDB_78] = 1;
    ar->first = MAX_INSTANCES;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--quiet") == 0) {
            ar->quiet = 1;
            continue;
        }
        if (strcmp(argv[i], "--progress") == 0) {
            ar->progress = 1;
            continue;
        }
        if (v == NULL)
            return -1;
        if (strcmp(argv[i], "--data") == 0)
            ar->data = v;
        else if (strcmp(argv[i], "--cache") == 0)
            ar->cache = v;
        else if (strcmp(argv[i], "--first") == 0)
            ar->first = (unsigned)atoi(v);
        else if (strcmp(argv[i], "--partition") == 0 &&
                 strcmp(v, "both") != 0) {
            if (puz_pdb_partition_parse(v, &p) != PUZ_OK)
                return -1;
            ar->parts[PUZ_PDB_663] = ar->parts[PUZ_PDB_78] = 0;
            ar->parts[p] = 1;
        } else if (strcmp(argv[i], "--partition") != 0)
            return -1;
        i++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static struct instance in[MAX_INSTANCES];
    struct args ar = { 0 };
    unsigned n;
    int bad = 0;

    if (parse(argc, argv, &ar) != 0) {
        fprintf(stderr, "usage: korf100 [--data FILE] [--cache DIR] "
                "[--partition 6-6-3|7-8|both] [--first N] [--quiet] "
                "[--progress]\n");
        return 2;
    }
    n = load_instances(ar.data, in);
    if (n == 0)
        return 2;
    if (ar.first < n)
        n = ar.first;
    for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++)
        if (ar.parts[p])
            bad |= bench((enum puz_pdb_partition)p, &ar, in, n);
    return bad;
}
