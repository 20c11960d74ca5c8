/*
 * puz_table3.h - the exact distance of every 3x3 board to one goal.
 *
 * One breadth-first search from the goal over the 181,440 reachable
 * states (9!/2); boards are indexed by their permutation rank halved
 * (the last two cells follow from parity). Built once, read-only after,
 * so any number of threads may share one table. Used for random boards
 * of an exact optimal distance and as the perfect 3x3 heuristic.
 */
#ifndef PUZ_TABLE3_H
#define PUZ_TABLE3_H

#include <stdint.h>

#include "puz_board.h"
#include "puz_err.h"

#define PUZ_TABLE3_STATES 181440u
#define PUZ_TABLE3_UNREACHABLE 255u

typedef struct puz_table3 puz_table3;

/* Build the table for a 3x3 goal (NULL = default goal). Heap-allocated:
 * free with puz_table3_destroy. */
puz_err puz_table3_create(const struct puz_board *goal, puz_table3 **out);
void puz_table3_destroy(puz_table3 *t);

const struct puz_board *puz_table3_goal(const puz_table3 *t);
/* Optimal distance of b (3x3) to the goal, or PUZ_TABLE3_UNREACHABLE. */
unsigned puz_table3_distance(const puz_table3 *t, const struct puz_board *b);
/* Largest distance in the table (31 for the default goal). */
unsigned puz_table3_max_distance(const puz_table3 *t);
/* Number of states at distance d. */
uint32_t puz_table3_count_at(const puz_table3 *t, unsigned d);
/* The k-th state (0 <= k < count_at(d)) at distance d. */
puz_err puz_table3_state_at(const puz_table3 *t, unsigned d, uint32_t k,
                            struct puz_board *out);

#endif
