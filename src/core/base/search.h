/*
 * search.h - what every search algorithm shares (private to the core):
 * the prepared problem, limit checks and writing the answer (search.c).
 * puz_solve() in solve.c fills a puz__search and calls one algorithm.
 */
#ifndef PUZ_SEARCH_H
#define PUZ_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "puz_arena.h"
#include "puz_heuristic.h"
#include "puz_solve.h"

struct puz__search {
    const struct puz_board *start;
    const struct puz_board *goal;
    unsigned n;                       /* columns (the side of a square) */
    unsigned rows;                    /* rows (n on a square) */
    unsigned cells;                   /* rows * n */
    const struct puz_heuristic *h;    /* NULL for bfs/dfs */
    void *hctx;                       /* h's prepared context */
    const struct puz_limits *limits;
    const struct puz_tables *tables;
    puz_arena *arena;
    struct puz_result *out;           /* status, moves, stats to fill */
    unsigned weight;                  /* PUZ__PRIO_WEIGHTED only */
    puz_trace *trace;                 /* best-first searches; NULL = none */
    unsigned lower_bound;             /* proven by a search; 0 = none */
    uint64_t started_us;
    unsigned bound;                   /* current f-bound, for progress */
    struct puz__watch *watch;         /* NULL = no progress callback */
    const struct puz_solve_opts *opts; /* threads, run; NULL = serial */
    /* puz_solve_unit: run this one unit of the search, no iterations */
    const struct puz_unit *unit;
    struct puz_unit_result *unit_out;
};

/* The progress callback's state; mutable behind a const search. */
struct puz__watch {
    puz_progress_fn fn;
    void *user;
    uint64_t next_us;                 /* no call before this time */
    unsigned best_length;             /* anytime searches' best so far */
    bool proves_bound;                /* optimal search, admissible h:
                                       * the bound is a lower bound */
};

/* Report progress now (force) or if PUZ_PROGRESS_US has passed since the
 * last report. No-op without a callback. puz__check_limits calls it. */
void puz__progress(const struct puz__search *s, bool force);

/* Status to stop with (PUZ_TIMEOUT, PUZ_CANCELLED, PUZ_LIMIT_NODES) or
 * PUZ_SOLVED meaning "keep going". Cheap: call every few thousand nodes
 * (nodes limit is checked against out->stats.expanded). */
enum puz_status puz__check_limits(const struct puz__search *s);
/* The same check for `expanded` nodes in all, without progress (the
 * parallel units count their nodes apart from out->stats). */
enum puz_status puz__limits_hit(const struct puz_limits *l,
                                uint64_t expanded);

/* Store a found path of len blank moves (copied into the arena) and
 * derive the tiles that slid. Returns PUZ_ENOMEM when the arena budget
 * cannot hold it (the caller reports limit_memory). */
puz_err puz__set_path(struct puz__search *s, const uint8_t *dirs,
                      unsigned len);

/* Set s up for a search from start to goal: the boards, their shape
 * (n, rows, cells), its limits, tables, arena and answer; every other
 * field zero (the caller adds the heuristic, the clock and the rest). */
void puz__search_init(struct puz__search *s, const struct puz_board *start,
                      const struct puz_board *goal,
                      const struct puz_limits *l, const struct puz_tables *t,
                      puz_arena *a, struct puz_result *out);
/* Point s at other boards of the same search (a part of its board, a
 * window of its path): start, goal and their shape; the rest stays. */
void puz__search_set_boards(struct puz__search *s,
                            const struct puz_board *start,
                            const struct puz_board *goal);

/* Narrow a's budget to max_bytes beyond what it holds now (0 = leave
 * it); never widens it. The caller restores the budget it had. */
void puz__arena_cap(puz_arena *a, size_t max_bytes);

/* puz__moves.to of a direction that leaves the board. */
#define PUZ__WALL 255u

/*
 * The searches look at the clock, the cancel flag and the progress
 * callback (puz__check_limits) once per PUZ__CHECK_MASK + 1 expansions:
 * rare enough to cost nothing measurable, often enough (well under a
 * millisecond apart) to stop within the 100 ms a cancel promises.
 * IDA*'s expansions are cheaper, so it counts PUZ__IDA_CHECK_MASK + 1.
 */
#define PUZ__CHECK_MASK 1023u
#define PUZ__IDA_CHECK_MASK 4095u

/* Cell the blank reaches from each cell in each direction, or
 * PUZ__WALL. */
struct puz__moves {
    uint8_t to[PUZ_MAX_CELLS][4];
};
void puz__moves_init(struct puz__moves *m, unsigned n);
/* The same for rows x cols. */
void puz__moves_init_shape(struct puz__moves *m, unsigned rows,
                           unsigned cols);
/* The same as lists, for searches that loop over a cell's moves rather
 * than test for walls: from cell c, nmoves[c] moves in direction order,
 * the k-th in direction dir[c][k] to cell to[c][k]. */
void puz__moves_lists(unsigned rows, unsigned cols, uint8_t *nmoves,
                      uint8_t (*dir)[4], uint8_t (*to)[4]);

#endif
