/*
 * puz_random.h - seeded random numbers and random solvable boards.
 *
 * The generator state is a value the caller owns (no globals), so a test
 * with a fixed seed sees the same boards on every machine.
 */
#ifndef PUZ_RANDOM_H
#define PUZ_RANDOM_H

#include <stdint.h>

#include "puz_board.h"
#include "puz_err.h"
#include "puz_table3.h"

struct puz_rng {
    uint64_t state;
};

void puz_rng_seed(struct puz_rng *r, uint64_t seed);
uint64_t puz_rng_next(struct puz_rng *r);
/* Uniform integer in [0, bound); bound > 0. */
uint64_t puz_rng_below(struct puz_rng *r, uint64_t bound);

/*
 * A random board of side n reachable from goal (NULL = default goal).
 * For n == 3 its optimal distance is exactly moves (needs table, built
 * for the same goal; PUZ_ERANGE if no state is that far). For other n it
 * is the end of a random walk of moves steps that never undoes its last
 * step, so its distance is at most moves.
 */
puz_err puz_random_board(unsigned n, unsigned moves,
                         const struct puz_board *goal,
                         const puz_table3 *table, struct puz_rng *r,
                         struct puz_board *out);
/* The same for rows x cols (a square of side n when rows == cols == n;
 * goal, when not NULL, must have this shape). */
puz_err puz_random_board_shape(unsigned rows, unsigned cols, unsigned moves,
                               const struct puz_board *goal,
                               const puz_table3 *table, struct puz_rng *r,
                               struct puz_board *out);
/* A board drawn uniformly from all the solvable boards of rows x cols
 * (the default goal's half of the permutations): what benchmarks and
 * tests need, where a random walk stays near the goal. */
puz_err puz_random_solvable(unsigned rows, unsigned cols, struct puz_rng *r,
                            struct puz_board *out);

#endif
