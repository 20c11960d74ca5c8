/*
 * h_manhattan.h - the Manhattan distance tables, shared with the
 * heuristics that build on it (linear conflict, pattern databases' tests).
 */
#ifndef PUZ_H_MANHATTAN_H
#define PUZ_H_MANHATTAN_H

#include "heuristic_impl.h"

struct puz__manhattan {
    struct puz__goalpos goal;
    uint8_t dist[PUZ_MAX_CELLS][PUZ_MAX_CELLS];  /* [tile][cell] */
};

void puz__manhattan_init(struct puz__manhattan *m,
                         const struct puz_board *goal);
unsigned puz__manhattan_eval(const struct puz__manhattan *m,
                             const uint8_t *cells);

#endif
