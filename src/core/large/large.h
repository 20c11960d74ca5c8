/*
 * large.h - the room of large boards (src/core/large/): the pieces of
 * the anytime search for boards of 5x5 and up (private to the core;
 * docs/large.md says how they fit together). Below it are the searches
 * (search/searches.h, whose IDA* with the tables solves its windows and
 * last squares), the heuristics and the base; nothing here calls
 * solve/.
 *
 *   constructive.c  row by row by hand method: the first answer, on
 *              any size.
 *   mlc.c      Manhattan + linear conflict against any goal, counting
 *              only the tiles one cares about (the others are "don't
 *              care" and so are interchangeable).
 *   tilecost.c what one tile costs to bring home alone (the blank going
 *              round it), the strip searches' guide.
 *   wsearch.c  weighted A* over those abstract boards, with the blank
 *              kept inside a square region; its own store, freed after
 *              each try, so restarts with falling weights cost no arena.
 *   pathopt.c  path post-optimisation: cut loops, then replace windows
 *              of k moves by optimal paths between their end boards
 *              (IDA*), sliding the window along the path.
 *   reduce.c   6x6 and up: solve the first row and column together,
 *              recurse on the smaller square down to 5x5.
 *   anytime.c  the policy per size and the budget.
 */
#ifndef PUZ_LARGE_H
#define PUZ_LARGE_H

#include <stdbool.h>
#include <stdint.h>

#include "search/searches.h"

/* Now on the clock the caller's deadline is read on (wall by default;
 * a benchmark's thread CPU time: puz_limits.clock_us). */
static inline uint64_t puz__now(const struct puz_limits *l)
{
    return l != NULL && l->clock_us != NULL ? l->clock_us()
                                            : puz_clock_mono_us();
}

/* A tile value no real tile has: "some tile we do not care about". */
#define PUZ__DONT_CARE 255u
#define PUZ__NOT_CARED 255u

struct puz__mlc {
    unsigned n;             /* columns (the row stride) */
    unsigned rows;          /* rows (n on a square) */
    uint8_t row[256];       /* goal row of tile t; NOT_CARED if ignored */
    uint8_t col[256];
};

/* Estimate towards goal counting the tiles of goal listed in care
 * (care == NULL: every tile). Tiles absent from care are ignored. */
void puz__mlc_init(struct puz__mlc *m, const struct puz_board *goal,
                   const uint8_t *care, unsigned ncare);
unsigned puz__mlc_eval(const struct puz__mlc *m, const uint8_t *cells);
/* h after the tile now in cell `to` came from `from` (the blank moved
 * from `to` to `from`); cells is the board after the move. */
unsigned puz__mlc_update(const struct puz__mlc *m, uint8_t *cells,
                         unsigned h_before, unsigned from, unsigned to);

/* Per tile and cell: the moves bringing that tile home alone, the
 * blank starting next to it, inside the region of rows >= top and
 * columns >= left (tilecost.c). 0 for tiles not cared about. Not admissible.
 * puz__tcost_pairs adds, for the cared tiles taken two by two in order,
 * what bringing both home together costs (one blank, both moving): a
 * paired tile whose mate is in the search counts the pair's cost, once;
 * one whose mate is not counts its own. */
#define PUZ__TC_PAIRS 8u
struct puz__tcost {
    unsigned n, rows, cells;    /* columns (the stride), rows, both */
    uint8_t cost[PUZ_MAX_CELLS][PUZ_MAX_CELLS];
    uint8_t pair[256];          /* 0, or pair number + 1 */
    uint8_t mate[256];          /* the other tile of t's pair */
    uint8_t first[256];         /* t indexes pcost's first dimension */
    uint8_t pcost[PUZ__TC_PAIRS][PUZ_MAX_CELLS][PUZ_MAX_CELLS];
};
void puz__tcost_init(struct puz__tcost *tc, const struct puz_board *goal,
                     unsigned top, unsigned left, const uint8_t *care,
                     unsigned ncare);
/* PUZ_ENOMEM leaves tc without pairs (still a valid guide). */
puz_err puz__tcost_pairs(struct puz__tcost *tc, const struct puz_board *goal,
                         unsigned top, unsigned left, const uint8_t *care,
                         unsigned ncare);
/* h of the cared tiles on cells (PUZ__DONT_CARE elsewhere). */
unsigned puz__tcost_eval(const struct puz__tcost *tc, const uint8_t *cells);
/* h after tile t moved from `from` to `to`, its mate (if paired and in
 * the search) at cell q, or q = PUZ__NOT_CARED. */
static inline unsigned puz__tcost_update(const struct puz__tcost *tc,
                                         unsigned h, unsigned t,
                                         unsigned from, unsigned to,
                                         unsigned q)
{
    if (tc->pair[t] != 0 && q != PUZ__NOT_CARED) {
        const uint8_t (*pc)[PUZ_MAX_CELLS] = tc->pcost[tc->pair[t] - 1];
        return tc->first[t] ? h - pc[from][q] + pc[to][q]
                            : h - pc[q][from] + pc[q][to];
    }
    return h - tc->cost[t][from] + tc->cost[t][to];
}

/* Where a search may move the blank: the cells with row >= top and
 * column >= left (both 0: the whole board). */
struct puz__wsearch {
    unsigned n;                 /* columns (the row stride) */
    unsigned rows;              /* 0 = n (a square) */
    unsigned top, left;
    const struct puz__mlc *mlc;
    /* optional: a registry heuristic for whole boards (the 5x5 pattern
     * databases when loaded); used instead of mlc when set */
    const struct puz_heuristic *h;
    const void *hctx;
    /* optional: the tile costs instead of mlc (strips; inadmissible, so
     * no prune_at) */
    const struct puz__tcost *tcost;
    unsigned weight100;         /* f = 100 g + weight100 h */
    bool blank_term;            /* h adds the blank's distance to the
                                 * nearest cared tile not home, less 1 */
    uint64_t max_nodes;         /* stored boards */
    uint64_t max_expanded;      /* 0 = no limit (besides the deadline) */
    uint64_t deadline_us;       /* on limits' clock */
    const struct puz_limits *limits;    /* clock and cancel; may be NULL */
    size_t max_bytes;           /* malloc'd store; 0 = max_nodes alone */
    /* 0, or the length of a path already known: boards with g + h at
     * least this are not stored (no shorter path goes through them),
     * which needs h admissible and no blank_term. A try that finds
     * nothing shorter fails (PUZ_ERANGE) like one out of room. */
    unsigned prune_at;
    /* out */
    size_t peak_bytes;          /* the most it held at once */
    uint64_t expanded;
    uint64_t generated;
    bool exhausted;             /* failed with nothing left to expand */
};

/* Weighted A* from cells (tiles outside care may be anything: they are
 * masked) until every cared tile is home. On success *path (malloc'd;
 * caller frees) holds *len blank directions and PUZ_OK is returned;
 * PUZ_ETIMEOUT-like failures return PUZ_ERANGE (out of nodes, time or
 * memory), and nothing is allocated. */
puz_err puz__wsearch_run(struct puz__wsearch *w, const uint8_t *cells,
                         uint8_t **path, unsigned *len);

/* A path being improved: blank directions from a start board. */
struct puz__lpath {
    uint8_t *dirs;      /* malloc'd */
    unsigned len, cap;
};

/* Cut loops (a board seen twice) out of p. Returns moves removed. */
unsigned puz__pathopt_loops(const struct puz_board *start,
                            struct puz__lpath *p);
/* One pass of window optimisation with windows of k moves over p,
 * spending at most node_cap nodes per window and stopping at
 * deadline_us or when *nodes reaches node_limit (0 = none). Returns
 * moves saved; *nodes grows by the nodes used. */
unsigned puz__pathopt_windows(const struct puz_board *start,
                              struct puz__lpath *p, unsigned k,
                              uint64_t node_cap, uint64_t deadline_us,
                              const struct puz_limits *l, uint64_t *nodes,
                              uint64_t node_limit);

/* As puz__pathopt_windows, on 5x5 with the pattern databases of t:
 * only windows ending on a board t serves as a goal (IDA* with pdb). */
unsigned puz__pathopt_pdb(const struct puz_board *start,
                          struct puz__lpath *p, unsigned k,
                          const struct puz_tables *t, uint64_t node_cap,
                          uint64_t deadline_us, const struct puz_limits *l,
                          uint64_t *nodes, uint64_t node_limit);

/* Row by row, column by column (constructive.c): a first answer on any
 * size, in time linear in the moves. */
puz_err puz__constructive(struct puz__search *s);

/* 6x6 and up (and large rectangles): reduce to at most f x f by strips,
 * solve the remainder with the 5x5 method and join. On success p holds
 * a full path from start. */
struct puz__anytime;
puz_err puz__anytime(struct puz__search *s);
puz_err puz__reduce_solve(struct puz__anytime *at, unsigned strip_w100,
                          unsigned f, uint64_t until,
                          struct puz__lpath *p);

/* The budget and stages of one anytime solve (anytime.c). */
struct puz__anytime {
    struct puz__search *s;
    uint64_t deadline_us;       /* stop for good */
    uint64_t nodes;             /* all stages together */
    uint64_t base_expanded;     /* the constructive method's count */
    const struct puz__lpath *top;   /* the answer being improved */
    char method[PUZ_METHOD_MAX];
    size_t arena_base;          /* arena bytes in use when it began */
};
/* Held back from a search store's byte budget for the paths being
 * improved (malloc'd, a few KB), the window searches (the pdb windows'
 * arena, PUZ__PDBWIN_BYTES) and the answer. */
#define PUZ__PATH_RESERVE ((size_t)1u << 20)
/* Arena budget of one pdb window search (pathopt.c). */
#define PUZ__PDBWIN_BYTES ((size_t)256u << 10)
size_t puz__store_bytes(const struct puz__anytime *at);
void puz__store_peak(struct puz__anytime *at, size_t peak);
/* Reduction: strip tiles placed PUZ__STRIP_STEP more at a time
 * (PUZ__STRIP_STEP_LONG on strips of more than 11 tiles) by weighted A*
 * restarted with falling weights, those guided by linear conflict down
 * to PUZ__STRIP_W100 / 100 (bench/large, docs/large.md). */
#ifndef PUZ__STRIP_W100
#define PUZ__STRIP_W100 120u
#endif
#ifndef PUZ__STRIP_STEP
#define PUZ__STRIP_STEP 6u
#endif
/* The strips' third guide, the tile costs in pairs, from this size up
 * (bench/large, docs/large.md). */
#ifndef PUZ__PAIRS_MIN_N
#define PUZ__PAIRS_MIN_N 7u
#endif
#ifndef PUZ__STRIP_STEP_LONG
#define PUZ__STRIP_STEP_LONG 8u
#endif

/* Rectangles of this many cells and more (with a side over 5) are
 * reduced by strips like the squares from 6x6; smaller ones get the 5x5
 * method over the whole board (bench/rect, docs/rectangles.md). */
#ifndef PUZ__RECT_REDUCE_CELLS
#define PUZ__RECT_REDUCE_CELLS 28u
#endif

/* 5x5 with pattern databases: windows of PUZ__PDBWIN_K0 moves and up,
 * PUZ__PDBWIN_CAP0 expansions each, doubling every 4 moves more, at
 * most PUZ__PDBWIN_CAPMAX (bench/large). */
#ifndef PUZ__PDBWIN_K0
#define PUZ__PDBWIN_K0 24u
#endif
#ifndef PUZ__PDBWIN_CAP0
#define PUZ__PDBWIN_CAP0 20000u
#endif
#ifndef PUZ__PDBWIN_CAPMAX
#define PUZ__PDBWIN_CAPMAX 50000000u
#endif

/* Budget when the caller set no deadline. */
#define PUZ_ANYTIME_DEFAULT_US 1000000u

/* Near-optimal 5x5 (the remainder of a reduction or the board itself):
 * weighted A* tries with falling weights until until_us; improves p
 * (a path from b) when it finds shorter. */
void puz__anytime_5x5(struct puz__anytime *at, const struct puz_board *b,
                      const struct puz_board *goal, uint64_t until_us,
                      struct puz__lpath *p);
/* Append dirs to p (grows it). PUZ_ENOMEM on failure. */
puz_err puz__lpath_append(struct puz__lpath *p, const uint8_t *dirs,
                          unsigned len);
void puz__method_add(struct puz__anytime *at, const char *stage);
/* Expansions left under limits.max_nodes; 0 when there is no limit. */
uint64_t puz__nodes_left(const struct puz__anytime *at);

#endif
