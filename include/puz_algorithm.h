/*
 * puz_algorithm.h - the registry of search algorithms puz_solve() runs:
 * their names, one-line descriptions, whether they are optimal, which
 * board sizes they run on, and the two decisions every caller must take
 * the same way: which algorithm AUTO means for a size, and which
 * heuristic a solve runs with. The server's /v1/catalog, the CLI's
 * --help and its choice of tables to load all read them from here.
 */
#ifndef PUZ_ALGORITHM_H
#define PUZ_ALGORITHM_H

#include <stdbool.h>

#include "puz_err.h"
#include "puz_heuristic.h"

enum puz_algorithm {
    PUZ_ALG_AUTO = 0,   /* pick by board size (astar for N<=3, ...) */
    PUZ_ALG_ASTAR,      /* optimal; goal tested when popped */
    PUZ_ALG_IDASTAR,    /* optimal; memory O(depth) */
    PUZ_ALG_BFS,        /* optimal; no heuristic */
    PUZ_ALG_DFS,        /* depth-limited; not optimal */
    PUZ_ALG_BNB,        /* branch and bound: min-heap on g + misplaced */
    PUZ_ALG_GREEDY,     /* best-first on h alone; fast, not optimal */
    PUZ_ALG_CONSTRUCTIVE, /* row/column placement by hand method; any N */
    PUZ_ALG_WASTAR,     /* weighted A*: f = g + w*h; at most w x optimal */
    PUZ_ALG_ANYTIME,    /* N >= 5: shorter and shorter paths until the
                         * deadline (docs/large.md); below 5x5 the
                         * optimal default */
    PUZ_ALG_COUNT_
};

/* Its name, as the registry's row says it ("auto", "astar", ...);
 * "unknown" out of range. */
const char *puz_algorithm_name(enum puz_algorithm a);
/* By name, "auto" included; PUZ_EINVAL (and *out = AUTO) if unknown. */
puz_err puz_algorithm_parse(const char *s, enum puz_algorithm *out);
/* One line for people, for every algorithm AUTO included; "" out of
 * range. */
const char *puz_algorithm_description(enum puz_algorithm a);
/* Whether the algorithm returns optimal paths given an admissible h. */
bool puz_algorithm_optimal(enum puz_algorithm a);
/* Whether it records its expansions in a trace (the best-first ones:
 * astar, bnb, greedy, wastar); AUTO is resolved by the caller first. */
bool puz_algorithm_traces(enum puz_algorithm a);
/* Whether it looks at a heuristic (bfs, dfs, constructive and anytime
 * choose their own or none: an asked-for heuristic is ignored). */
bool puz_algorithm_uses_heuristic(enum puz_algorithm a);
/* The board sizes it runs on itself; on sizes below min_size puz_solve
 * runs the size's default instead (anytime below 5x5). */
void puz_algorithm_sizes(enum puz_algorithm a, unsigned *min_size,
                         unsigned *max_size);

/* What runs when a is asked for on an n x n board: AUTO is astar for
 * N <= 3, idastar for 4x4 and anytime for N >= 5; anytime below 5x5 is
 * the optimal default. */
enum puz_algorithm puz_algorithm_resolve(enum puz_algorithm a, unsigned n);

/* The same for a board of rows x cols: on a square, the above. On a
 * rectangle AUTO is optimal where puz_algorithm_rect_optimal says so
 * (astar up to 9 cells, idastar with linear conflict beyond) and
 * anytime elsewhere; anytime asked for where AUTO is optimal runs the
 * optimal default, as below 5x5. */
enum puz_algorithm puz_algorithm_resolve_shape(enum puz_algorithm a,
                                               unsigned rows, unsigned cols);
/* The same, knowing whether loaded tables serve the solve's goal: a
 * rectangle of 10 to 16 cells whose pattern databases are loaded
 * (puz_tables_serves) gets idastar (with them) for AUTO and anytime. */
enum puz_algorithm puz_algorithm_resolve_tables(enum puz_algorithm a,
                                                unsigned rows, unsigned cols,
                                                bool tables_serve);
/* Whether AUTO solves a rows x cols rectangle optimally: up to 12 cells
 * (2x6, 3x4), and 3x5 / 5x3. */
bool puz_algorithm_rect_optimal(unsigned rows, unsigned cols);

/*
 * The one choice of heuristic: the one a solve of an n x n board with
 * algorithm a (AUTO allowed) runs when the caller asked for `asked`
 * (NULL: the default), given whether loaded tables serve its goal. An
 * asked heuristic wins; else bnb counts misplaced tiles, loaded tables
 * beat any formula, and linear conflict is the rest's default; anytime
 * uses the tables when they serve its goal. NULL when the algorithm
 * uses none (bfs, dfs, constructive).
 */
const puz_heuristic *puz_algorithm_heuristic(enum puz_algorithm a,
                                             const puz_heuristic *asked,
                                             unsigned n, bool tables_serve);

/* Whether a solve of an n x n board with algorithm a and heuristic asked
 * reads pattern databases when they are loaded: whether loading them is
 * worth it (the CLI asks before it loads any). */
bool puz_algorithm_uses_tables(enum puz_algorithm a,
                               const puz_heuristic *asked, unsigned n);

#endif
