/*
 * rect.c - rectangular boards drawn uniformly from the solvable ones
 * (puz_random_solvable, fixed seeds), solved on one core: the time of
 * each optimal solve on 3x4 and 4x3 (IDA* with linear conflict, what
 * auto runs there) and 3x5, and on 4x5 and 5x6 the length of the path
 * auto finds (weighted A*) divided by the proven lower bound, and the
 * constructive method's beside it. Every path is replayed onto the goal.
 * Not part of make test.
 *
 * usage: rect [--count N]   (default 10 boards per shape)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puz_random.h"
#include "puz_solve.h"

struct shape {
    unsigned rows, cols;
    enum puz_algorithm alg;
    uint64_t timeout_us;
};

/* One solve; 0 when its path does not reach the goal. */
static int solve_one(const struct puz_board *b, enum puz_algorithm alg,
                     uint64_t timeout_us, struct puz_result *r)
{
    struct puz_solve_opts o = { 0 };
    struct puz_board end, goal;
    puz_arena *a = puz_arena_create(0);
    int ok;

    o.algorithm = alg;
    o.limits.deadline_us = puz_now_us() + timeout_us;
    ok = a != NULL && puz_solve(b, &o, a, r) == PUZ_OK &&
         r->status == PUZ_SOLVED &&
         puz_replay(b, r->moves, r->length, &end) == PUZ_OK &&
         puz_board_goal_of(b, &goal) == PUZ_OK &&
         puz_board_equal(&end, &goal);
    puz_arena_destroy(a);   /* r's path is gone; its numbers stay */
    return ok;
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

    if (argc == 3 && strcmp(argv[1], "--count") == 0)
        count = (unsigned)atoi(argv[2]);
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
