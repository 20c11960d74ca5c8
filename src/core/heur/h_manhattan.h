/*
 * h_manhattan.h - the Manhattan distance tables, shared with the
 * heuristics that build on it (linear conflict, pattern databases' tests).
 */
#ifndef PUZ_H_MANHATTAN_H
#define PUZ_H_MANHATTAN_H

#include "heur/heuristic_impl.h"

struct puz__manhattan {
    struct puz__goalpos goal;
    uint8_t dist[PUZ_MAX_CELLS][PUZ_MAX_CELLS];  /* [tile][cell] */
};

void puz__manhattan_init(struct puz__manhattan *m,
                         const struct puz_board *goal);
/* Tiles of one line that must step aside so the rest are in goal order:
 * k minus the longest increasing run of the k goal keys (h_linear_conflict.c;
 * mlc.c counts the same against any goal). */
unsigned puz__lc_line_cost(const uint8_t *keys, unsigned k);
unsigned puz__manhattan_eval(const struct puz__manhattan *m,
                             const uint8_t *cells);
/* The distances as a heuristic's tile_cost (no line part); false above
 * 16 cells. */
bool puz__manhattan_tables(const struct puz__manhattan *m,
                           struct puz__htables *t);

#endif
