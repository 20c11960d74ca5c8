/*
 * puz_trace.h - "watch A* think": an optional record of a best-first
 * search's first expansions, in order. Each step is the board taken off
 * the open list (with its g, h and f), the children it put on the open
 * list, and the open list's size at that moment.
 *
 * The search calls the hooks only when puz_solve_opts.trace is non-NULL,
 * so a solve without a trace pays one NULL test per expansion and per
 * child. Only the best-first searches (astar, greedy, wastar, bnb) call
 * them; other algorithms leave the trace empty.
 */
#ifndef PUZ_TRACE_H
#define PUZ_TRACE_H

#include <stdint.h>

#include "puz_arena.h"
#include "puz_board.h"

/* Most expansions one trace may hold (the HTTP cap is the same). */
#define PUZ_TRACE_MAX 200

struct puz_trace_node {
    uint8_t cells[PUZ_MAX_CELLS];
    uint16_t g, h;
};

struct puz_trace_step {
    struct puz_trace_node node;     /* the board expanded */
    uint64_t open_size;             /* open list size when it was taken */
    unsigned nchildren;             /* children pushed (0..4) */
    struct puz_trace_node children[4];
};

typedef struct puz_trace puz_trace;

/* A recorder for the first `max` expansions (1..PUZ_TRACE_MAX), in the
 * arena; NULL when out of memory or max is out of range. */
puz_trace *puz_trace_create(puz_arena *a, unsigned max);

/* Steps recorded so far, and step i (0 <= i < count). */
unsigned puz_trace_count(const puz_trace *t);
const struct puz_trace_step *puz_trace_step(const puz_trace *t, unsigned i);

/* The search's hooks. expand: a board is taken off the open list to be
 * expanded; child: that board's child was put on the open list. Both
 * ignore calls past the recorder's `max`. */
void puz_trace_expand(puz_trace *t, const uint8_t *cells, unsigned cells_n,
                      unsigned g, unsigned h, uint64_t open_size);
void puz_trace_child(puz_trace *t, const uint8_t *cells, unsigned cells_n,
                     unsigned g, unsigned h);

#endif
