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
/* The longest shortest path between two 3x3 boards, whatever the goal
 * (31 from a corner blank; 30 from the centre). */
#define PUZ_TABLE3_MAX_DEPTH 31u

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

/*
 * A shortest path from b to the goal read off the table, one lookup per
 * move and no search: its blank directions into dirs (room for
 * puz_table3_max_distance(t) entries, at most 31), and
 * the length as the result (PUZ_TABLE3_UNREACHABLE when b cannot reach
 * the goal). b may be seen through a symmetry frame: cell[i] is the
 * table's cell for b's cell i and tile[v] the table's tile for b's tile
 * v (both NULL: b is in the table's own frame); dirs are in b's frame.
 * Where several moves are optimal the last in the order up, down, left,
 * right is taken, which is the path A* (ties to larger g, children
 * pushed in that order) returns with the exact distance as heuristic.
 * *generated (may be NULL) gets the children that A* would generate
 * along the way: every legal move at each node but the one back.
 */
unsigned puz_table3_walk(const puz_table3 *t, const struct puz_board *b,
                         const uint8_t *cell, const uint8_t *tile,
                         uint8_t *dirs, unsigned *generated);

#endif
