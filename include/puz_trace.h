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
 *
 * The same recorder also measures effort by layer, for every expansion
 * (not only the first K): the best-first searches count expansions per
 * f = g + h, IDA* per iteration (by its bound). The pattern-database
 * IDA* of 4x4 does not report layers.
 */
#ifndef PUZ_TRACE_H
#define PUZ_TRACE_H

#include <stdint.h>

#include "puz_arena.h"
#include "puz_board.h"

/* Most expansions one trace may hold (the HTTP cap is the same). */
#define PUZ_TRACE_MAX 200
/* f values (or IDA* bounds) told apart; larger ones count in the last. */
#define PUZ_TRACE_LAYERS 256

struct puz_trace_layer {
    unsigned f;             /* f = g + h, or the IDA* iteration's bound */
    uint64_t expanded;      /* expansions in that layer */
};

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

/* A recorder for the first `max` expansions (0..PUZ_TRACE_MAX; 0 keeps
 * only the layers), in the arena; NULL when out of memory or max is out
 * of range. */
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
/* IDA*'s hook: an iteration with this bound ended; expanded is the
 * search's running total. */
void puz_trace_iteration(puz_trace *t, unsigned bound, uint64_t expanded);

/* The layers with any expansions, in increasing f, into out (at most
 * max); returns how many were written. */
unsigned puz_trace_layers(const puz_trace *t, struct puz_trace_layer *out,
                          unsigned max);

#endif
