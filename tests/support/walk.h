/*
 * walk.h - a random board for tests of any size: a random walk from a
 * goal that never undoes its last step (puz_random_board walks like this
 * too, but on 3x3 it wants the exact table).
 */
#ifndef TEST_WALK_H
#define TEST_WALK_H

#include "puz_random.h"

/* out = goal after `moves` random steps. */
void test_walk(const struct puz_board *goal, unsigned moves,
               struct puz_rng *rng, struct puz_board *out);

/* The blank's cell after a move in d (enum puz_dir) from cell b of an
 * n x n board, or -1 at a wall: the step of the tests' own reference
 * searches, which use nothing of the core's boards. */
int test_walk_step(unsigned n, unsigned b, unsigned d);

#endif
