/*
 * heuristic_impl.h - what a heuristic module implements (private to the
 * core). To add a heuristic: write src/core/heur/h_<name>.c defining one
 * `const struct puz_heuristic puz__h_<name>` and list it in heuristic.c.
 */
#ifndef PUZ_HEURISTIC_IMPL_H
#define PUZ_HEURISTIC_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "puz_arena.h"
#include "puz_board.h"
#include "puz_err.h"
#include "puz_heuristic.h"

/* What prepare() gets: the goal, shared tables and the solve's arena. */
struct puz__hargs {
    const struct puz_board *goal;
    const struct puz_tables *tables;   /* may be NULL */
    puz_arena *arena;
};

/*
 * A heuristic as tables, for boards of at most 16 cells: h is the sum
 * over tiles t != 0 of tile_cost[t][cell of t], plus, when line_cost is
 * not NULL, twice line_cost[code] summed over every row and column, where
 * a row's code is the sum of row_digit[tile][cell] over its cells (a
 * column's of col_digit). A search that knows this shape can update h
 * per move without calling the heuristic (idastar_packed.c).
 */
#define PUZ__HT_CELLS 16
struct puz__htables {
    uint8_t tile_cost[PUZ__HT_CELLS][PUZ__HT_CELLS];    /* [tile][cell] */
    const uint16_t (*row_digit)[PUZ__HT_CELLS];         /* [tile][cell] */
    const uint16_t (*col_digit)[PUZ__HT_CELLS];
    const uint8_t *line_cost;                           /* by code */
};

/* Precomputed per-goal facts most heuristics need. */
struct puz__goalpos {
    unsigned n;                   /* columns */
    unsigned rows;
    unsigned cells;               /* rows * n */
    uint8_t row[PUZ_MAX_CELLS];   /* goal row of tile t */
    uint8_t col[PUZ_MAX_CELLS];   /* goal column of tile t */
    uint8_t pos[PUZ_MAX_CELLS];   /* goal cell of tile t */
};

struct puz_heuristic {
    const char *name;
    const char *description;
    bool admissible;
    bool tables;        /* reads loaded tables: serves only their goals */
    unsigned min_size, max_size;    /* sizes it can serve; 0: any */
    /* Build the per-solve context in args->arena. On PUZ_EINVAL write a
     * reason into msg (PUZ_MSG_MAX). */
    puz_err (*prepare)(const struct puz__hargs *args, void **ctx, char *msg);
    /* h of a board given as n*n cells (blank = 0). */
    unsigned (*eval)(const void *ctx, const uint8_t *cells);
    /* Optional: h after `tile` slid from cell `from` into cell `to`
     * (cells is the board after the move, h_before the value before).
     * NULL means the searches call eval. */
    unsigned (*update)(const void *ctx, const uint8_t *cells,
                       unsigned h_before, unsigned tile, unsigned from,
                       unsigned to);
    /* Optional, for boards of at most 16 cells held packed in one word
     * (cell i in bits 4i..4i+3, as A* keeps them): update() given the
     * packed board after the move, so the search need not unpack it.
     * NULL means the search unpacks and calls update (or eval). */
    unsigned (*update_packed)(const void *ctx, uint64_t board,
                              unsigned h_before, unsigned tile,
                              unsigned from, unsigned to);
    /* Optional, for searches that keep state per node on their path
     * (IDA*): state_size bytes (at most PUZ__HSTATE_MAX) that make an
     * update cheaper than update() can be. state_init fills the state of
     * a board and returns its h; state_update derives the child's state
     * from the parent's and returns the child's h. state_size 0 = none. */
    size_t state_size;
    unsigned (*state_init)(const void *ctx, const uint8_t *cells,
                           void *state);
    unsigned (*state_update)(const void *ctx, const uint8_t *cells,
                             const void *parent, void *child,
                             unsigned h_before, unsigned tile,
                             unsigned from, unsigned to);
    /* Optional: fill *t with this context's h as tables and return true;
     * false (or NULL) when h has no such form here (more than 16 cells).
     * The tables point into ctx and live as long as it does. */
    bool (*as_tables)(const void *ctx, struct puz__htables *t);
};

/* The members every heuristic that is a sum over cells shares: it is
 * admissible, updates per move (also packed, for A*'s 64-bit boards)
 * and hands its tables to the packed searches. Such a module names its
 * functions prepare, eval, update, update_packed and as_tables, and
 * defines itself as { .name = ..., .description = ...,
 * PUZ__HEURISTIC_CELLWISE }. */
#define PUZ__HEURISTIC_CELLWISE \
    .admissible = true, .prepare = prepare, .eval = eval, \
    .update = update, .update_packed = update_packed, \
    .as_tables = as_tables


#define PUZ__HSTATE_MAX 64

void puz__goalpos_init(struct puz__goalpos *g, const struct puz_board *goal);
/* Allocate a puz__goalpos for goal in a; NULL on budget exhaustion. */
struct puz__goalpos *puz__goalpos_new(puz_arena *a,
                                      const struct puz_board *goal);

#endif
