/*
 * rect.c - rectangular boards drawn uniformly from the solvable ones
 * (puz_random_solvable, fixed seeds), solved on one core: the time of
 * each optimal solve on 3x4 and 4x3 (IDA* with linear conflict, what
 * auto runs there) and 3x5, and on 4x5 and 5x6 the length of the path
 * auto finds (weighted A*) divided by the proven lower bound, and the
 * constructive method's beside it. Every path is replayed onto the goal.
 * Not part of make test.
 *
 * With --pdb: the rectangles' pattern databases instead. Each set is
 * built (both cores; time and size printed), then the same random
 * boards of 3x4, 4x3, 2x6, 2x7, 2x8, 3x5 and 5x3 are solved optimally by
 * auto with the tables (IDA* + pdb) and by IDA* with linear conflict
 * (capped at --cap seconds a board; a capped solve counts its cap).
 *
 * usage: rect [--count N]               (default 10 boards per shape)
 *        rect --pdb [--count N] [--cap S]   (default 10 boards, 60 s)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool_pieces.h"
#include "puz_pdb.h"
#include "puz_random.h"
#include "puz_solve.h"

struct shape {
    unsigned rows, cols;
    enum puz_algorithm alg;
    uint64_t timeout_us;
};

/* One solve; 0 when its path does not reach the goal. */
static int solve_with(const struct puz_board *b, enum puz_algorithm alg,
                      const char *heuristic, const puz_tables *t,
                      uint64_t timeout_us, struct puz_result *r)
{
    struct puz_solve_opts o = { 0 };
    struct puz_board end, goal;
    puz_arena *a = puz_arena_create(0);
    int ok;

    o.algorithm = alg;
    o.tables = t;
    o.heuristic = heuristic != NULL ? puz_heuristic_find(heuristic) : NULL;
    o.limits.deadline_us = puz_clock_mono_us() + timeout_us;
    ok = a != NULL && puz_solve(b, &o, a, r) == PUZ_OK &&
         r->status == PUZ_SOLVED &&
         puz_replay(b, r->moves, r->length, &end) == PUZ_OK &&
         puz_board_goal_of(b, &goal) == PUZ_OK &&
         puz_board_equal(&end, &goal);
    puz_arena_destroy(a);   /* r's path is gone; its numbers stay */
    return ok;
}

static int solve_one(const struct puz_board *b, enum puz_algorithm alg,
                     uint64_t timeout_us, struct puz_result *r)
{
    return solve_with(b, alg, NULL, NULL, timeout_us, r);
}

/* --pdb: build every rectangle's set, then tables against IDA* + LC. */
static int bench_pdb(unsigned count, double cap_s)
{
    static const unsigned shapes[][2] = {
        { 3, 4 }, { 4, 3 }, { 2, 6 }, { 2, 7 }, { 2, 8 }, { 3, 5 }, { 5, 3 },
    };
    struct puz_pdb_opts po = { 0 };
    puz_tables *t = NULL;
    int bad = 0;

    po.threads = 2;
    po.run = pool_run_pieces;
    if (puz_tables_create(&t) != PUZ_OK)
        return 1;
    printf("| tables | build s | MB |\n|---|---:|---:|\n");
    for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++) {
        char msg[PUZ_MSG_MAX] = "";
        puz_pdb *d = NULL;
        if (!puz_pdb_partition_rect((enum puz_pdb_partition)p))
            continue;
        if (puz_pdb_build((enum puz_pdb_partition)p, NULL, &po, &d, msg)
            != PUZ_OK) {
            fprintf(stderr, "rect: %s\n", msg);
            return 1;
        }
        printf("| %s | %.2f | %.2f |\n",
               puz_pdb_partition_name((enum puz_pdb_partition)p),
               puz_pdb_build_seconds(d), (double)puz_pdb_bytes(d) / 1e6);
        fflush(stdout);
        puz_tables_add_pdb(t, d);
    }
    printf("\n| shape | boards | mean length | pdb mean s | pdb max s | "
           "pdb mean nodes | LC mean s | LC max s | LC mean nodes | "
           "LC capped |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
           "---:|\n");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        struct puz_rng rng;
        double ps = 0, pmax = 0, ls = 0, lmax = 0, pn = 0, ln = 0, len = 0;
        unsigned capped = 0;

        puz_rng_seed(&rng, 1000u * shapes[i][0] + shapes[i][1]);
        for (unsigned k = 0; k < count; k++) {
            struct puz_board b;
            struct puz_result r, q;
            double s;
            puz_random_solvable(shapes[i][0], shapes[i][1], &rng, &b);
            if (!solve_with(&b, PUZ_ALG_AUTO, NULL, t, 600000000, &r) ||
                r.algorithm != PUZ_ALG_IDASTAR || !r.optimal) {
                fprintf(stderr, "rect: %ux%u board %u not solved with "
                        "the tables\n", shapes[i][0], shapes[i][1], k);
                bad = 1;
                continue;
            }
            s = (double)r.stats.time_us / 1e6;
            ps += s;
            pmax = s > pmax ? s : pmax;
            pn += (double)r.stats.generated;
            len += r.length;
            if (!solve_with(&b, PUZ_ALG_IDASTAR, "linear-conflict", NULL,
                            (uint64_t)(cap_s * 1e6), &q)) {
                capped++;
                s = cap_s;
            } else {
                s = (double)q.stats.time_us / 1e6;
                if (q.length != r.length) {
                    fprintf(stderr, "rect: %ux%u board %u: pdb %u, LC %u "
                            "moves\n", shapes[i][0], shapes[i][1], k,
                            r.length, q.length);
                    bad = 1;
                }
            }
            ls += s;
            lmax = s > lmax ? s : lmax;
            ln += (double)q.stats.generated;
        }
        printf("| %ux%u | %u | %.1f | %.4f | %.3f | %.0f | %.3f | %.3f | "
               "%.0f | %u |\n", shapes[i][0], shapes[i][1], count,
               len / count, ps / count, pmax, pn / count, ls / count, lmax,
               ln / count, capped);
        fflush(stdout);
    }
    puz_tables_destroy(t);
    return bad;
}

int main(int argc, char **argv)
{
    static const struct shape shapes[] = {
        { 3, 4, PUZ_ALG_AUTO, 600000000 }, { 4, 3, PUZ_ALG_AUTO, 600000000 },
        { 3, 5, PUZ_ALG_AUTO, 600000000 },
        { 4, 5, PUZ_ALG_AUTO, 1000000 }, { 5, 6, PUZ_ALG_AUTO, 1000000 },
        { 4, 5, PUZ_ALG_CONSTRUCTIVE, 1000000 },
        { 5, 6, PUZ_ALG_CONSTRUCTIVE, 1000000 },
    };
    unsigned count = 10;
    int bad = 0;

    bool pdb = false;
    double cap_s = 60;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--pdb") == 0)
            pdb = true;
        else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc)
            count = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--cap") == 0 && i + 1 < argc)
            cap_s = atof(argv[++i]);
        else {
            fprintf(stderr, "usage: rect [--count N]\n"
                    "       rect --pdb [--count N] [--cap SECONDS]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (pdb)
        return bench_pdb(count, cap_s);
    printf("| shape | algorithm | boards | optimal | mean length | mean "
           "length / lower bound | mean s | max s |\n|---|---|---:|---:|"
           "---:|---:|---:|---:|\n");
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        const struct shape *sh = &shapes[i];
        struct puz_rng rng;
        double sum_s = 0, max_s = 0, sum_len = 0, sum_ratio = 0;
        unsigned optimal = 0;

        puz_rng_seed(&rng, 1000u * sh->rows + sh->cols);
        for (unsigned k = 0; k < count; k++) {
            struct puz_board b;
            struct puz_result r;
            double s;
            puz_random_solvable(sh->rows, sh->cols, &rng, &b);
            if (!solve_one(&b, sh->alg, sh->timeout_us, &r)) {
                fprintf(stderr, "rect: %ux%u board %u not solved\n",
                        sh->rows, sh->cols, k);
                bad = 1;
                continue;
            }
            s = (double)r.stats.time_us / 1e6;
            sum_s += s;
            max_s = s > max_s ? s : max_s;
            sum_len += r.length;
            sum_ratio += r.lower_bound ? (double)r.length / r.lower_bound
                                       : 1.0;
            optimal += r.optimal;
        }
        printf("| %ux%u | %s | %u | %u | %.1f | %.3f | %.3f | %.3f |\n",
               sh->rows, sh->cols, puz_algorithm_name(sh->alg), count,
               optimal, sum_len / count, sum_ratio / count, sum_s / count,
               max_s);
        fflush(stdout);
    }
    return bad;
}
