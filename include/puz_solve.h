/*
 * puz_solve.h - one entry point for every search puzzled offers.
 *
 * puz_solve() checks solvability first (instant, with an explanation),
 * then runs the chosen algorithm within the caller's limits. All memory a
 * solve needs, including the returned move arrays, comes from the arena
 * passed in; the caller releases it by resetting or destroying the arena.
 * No globals, no threads, no I/O: safe to call from many threads at once
 * with distinct arenas.
 */
#ifndef PUZ_SOLVE_H
#define PUZ_SOLVE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "puz_algorithm.h"
#include "puz_arena.h"
#include "puz_board.h"
#include "puz_clock.h"
#include "puz_err.h"
#include "puz_heuristic.h"
#include "puz_trace.h"

/* Weight of wastar when opts.weight is 0, and the range callers accept
 * (the server and the CLI refuse others: past 100 wastar is greedy). */
#define PUZ_WASTAR_DEFAULT_WEIGHT 3u
#define PUZ_WASTAR_WEIGHT_MIN 1u
#define PUZ_WASTAR_WEIGHT_MAX 100u

/* Default depth limit of dfs when limits.max_depth is 0, and the most
 * any caller may ask for (a path of that many moves fits the result's
 * unsigned length and the search's uint16_t depths). */
#define PUZ_DFS_DEFAULT_DEPTH 80u
#define PUZ_DFS_MAX_DEPTH 65534u

enum puz_status {
    PUZ_SOLVED = 0,
    PUZ_UNSOLVABLE,
    PUZ_LIMIT_NODES,
    PUZ_LIMIT_MEMORY,
    PUZ_LIMIT_DEPTH,    /* dfs exhausted its depth limit without a path */
    PUZ_TIMEOUT,
    PUZ_CANCELLED,
};
/* "solved", "unsolvable", "limit_nodes", "limit_memory", "limit_depth",
 * "timeout", "cancelled". */
const char *puz_status_name(enum puz_status s);

struct puz_limits {
    uint64_t max_nodes;        /* nodes expanded; 0 = unlimited */
    size_t max_bytes;          /* arena bytes for this solve; 0 = unlimited */
    uint64_t deadline_us;      /* absolute puz_clock_mono_us(); 0 = none */
    const atomic_int *cancel;  /* solve stops soon after *cancel != 0 */
    unsigned max_depth;        /* dfs only; 0 = PUZ_DFS_DEFAULT_DEPTH */
    /* The clock deadline_us is read on: NULL = puz_clock_mono_us (wall
     * time, monotonic). A
     * benchmark passes the solving thread's CPU time so that a budget
     * means "one core for this long" on a loaded machine; the server
     * keeps wall time. */
    uint64_t (*clock_us)(void);
};

/*
 * What a running search has done so far, for whoever watches it. Numbers
 * are 0 when the algorithm has none to give.
 */
struct puz_progress {
    enum puz_algorithm algorithm;   /* the one running now */
    uint64_t expanded;
    uint64_t generated;
    uint64_t elapsed_us;
    unsigned bound;         /* IDA*: this iteration's f-bound; A* family:
                             * g + h of the node being expanded */
    unsigned lower_bound;   /* no solution is shorter (optimal searches) */
    unsigned best_length;   /* shortest path found so far (anytime) */
};

/* Called on the solving thread at the searches' limit checks, at most
 * once per PUZ_PROGRESS_US, and when an anytime search finds a shorter
 * path. Keep it short and lock-light; p lives only during the call. */
typedef void (*puz_progress_fn)(const struct puz_progress *p, void *user);
#define PUZ_PROGRESS_US 100000u

/*
 * Parallel IDA* (4x4 and 5x5 with `pdb`): each iteration's tree is cut
 * at a frontier depth into independent work units, at least
 * PUZ_UNITS_PER_THREAD per thread. A unit is a path from the start; it
 * can run on any thread, in any order, any number of times (its result
 * overwrites its own slot), so a unit whose run was lost is simply given
 * out again.
 *
 * The runner runs piece(work, i) for every i < n on any threads and
 * returns when those it ran have finished (with the memory effects of a
 * join); puz_pdb_run_fn has the same shape. A piece it skipped (a worker
 * lost) is handed to it again in a further call; after a call that
 * finished none of its pieces the calling thread runs the rest itself.
 * The core starts no threads.
 */
typedef void (*puz_run_fn)(void (*piece)(void *work, unsigned i),
                           void *work, unsigned n, void *user);
#define PUZ_UNITS_PER_THREAD 16u
#define PUZ_THREADS_MAX 256u

/* After each iteration cut into units: its bound, the frontier depth,
 * the nodes the frontier walk expanded, each unit's expansions (as
 * counted by the run that finished it; in the order the units were
 * handed out), and how many units had to be given out again. The
 * iteration's expansions are frontier + the sum. */
struct puz_units_report {
    unsigned bound;
    unsigned depth;
    unsigned n;
    unsigned rerun;
    uint64_t frontier_expanded;
    const uint64_t *expanded;   /* n of them; lives during the call */
};
typedef void (*puz_units_fn)(const struct puz_units_report *r, void *user);

/*
 * A unit as data, for a runner that hands units to other processes (the
 * shared job queue, jobq.h): inside run(piece, work, n, user),
 * puz_units_describe says what piece i is; any process holding the same
 * tables runs it with puz_solve_unit (the same start, goal and tables
 * as the solve that cut it: the plug-in's frame follows from them) and
 * the runner files what came back with puz_units_store, exactly as if
 * piece(work, i) had run here. A piece nobody filed is a lost one: the
 * core hands it to run again (puz_run_fn). The path of a result is in
 * the search's own frame: meaningful only to puz_units_store.
 */
#define PUZ_UNIT_CUT_MAX 32u
#define PUZ_UNIT_PATH_MAX 256u
struct puz_unit {
    unsigned bound;             /* the iteration's f bound */
    unsigned cut;               /* moves from the start, <= CUT_MAX */
    uint8_t moves[PUZ_UNIT_CUT_MAX];   /* blank directions */
};
struct puz_unit_result {
    /* PUZ_SOLVED: the unit ran to its end (found or not); else the
     * limit that stopped it, and the result must not be filed. */
    enum puz_status status;
    bool found;
    unsigned next_bound;        /* smallest f over the bound; UINT32_MAX */
    uint64_t expanded, generated;
    unsigned length;            /* path length when found */
    uint8_t path[PUZ_UNIT_PATH_MAX];
};
/* Piece i of the work a run callback was handed. */
void puz_units_describe(const void *work, unsigned i, struct puz_unit *out);
/* File piece i's result computed elsewhere (status PUZ_SOLVED only;
 * others are ignored). Safe beside pieces running on other threads; a
 * piece filed twice keeps its first result. */
void puz_units_store(void *work, unsigned i, const struct puz_unit_result *r);
/* Whether work needs no more pieces: a unit reached the goal or a limit
 * (nodes, time, cancel) stopped them. */
bool puz_units_over(const void *work);

struct puz_solve_opts {
    enum puz_algorithm algorithm;
    const puz_heuristic *heuristic;   /* NULL = default for the size */
    const struct puz_board *goal;     /* NULL = default goal */
    const struct puz_tables *tables;  /* shared tables; may be NULL */
    struct puz_limits limits;
    unsigned weight;    /* wastar: f = g + weight * h; 0 = default (3) */
    puz_progress_fn progress;   /* NULL = nobody watches (no cost) */
    void *progress_user;        /* handed to progress */
    puz_trace *trace;   /* records the first expansions; NULL = none */
    /* The caller has already found start solvable towards goal (the
     * server checks parity when it reads the request, to answer an
     * unsolvable board at once): puz_solve does not check it again. A
     * wrong true only costs a search that ends at a limit. */
    bool solvable_known;
    /* Threads for one IDA* with `pdb` (0 or 1: the plain serial
     * search). Over 1 the iterations are cut into units and handed to
     * run (NULL: the units one after another on this thread). Then
     * progress may be called from any of run's threads, never two at
     * once, and limits.max_nodes is checked every few thousand nodes
     * per thread rather than exactly. Other searches ignore it. */
    unsigned threads;
    puz_run_fn run;
    void *run_user;             /* handed to run */
    puz_units_fn units;         /* measurements; NULL = none */
    void *units_user;
    /* Hand an iteration's units out in the order the frontier walk met
     * them, as one thread would probe them, rather than nearest the goal
     * first (the default: the last iteration then stops sooner; see
     * idastar_units.c). For measurements that compare the two. */
    bool units_walk_order;
};

struct puz_stats {
    uint64_t expanded;      /* nodes whose children were generated */
    uint64_t generated;     /* children created */
    uint64_t duplicates;    /* children dropped as already seen */
    uint64_t max_frontier;  /* peak open-list size */
    size_t arena_peak;      /* peak bytes during the solve: the arena's,
                             * with the search stores anytime mallocs
                             * (counted against limits.max_bytes too) */
    uint64_t time_us;       /* wall clock */
};

/* Room for puz_result.method ("constructive+wastar+window", ...). */
#define PUZ_METHOD_MAX 96

struct puz_result {
    enum puz_status status;
    enum puz_algorithm algorithm;     /* the one that ran (AUTO resolved) */
    const puz_heuristic *heuristic;   /* the one used; NULL for bfs/dfs */
    /* The tables the pdb heuristic read: a partition's name ("6-6-3",
     * "6-6-6-6z2", "3x4"...) or "exact" (the 3x3 table); NULL when no
     * table was read. Static storage. */
    const char *tables;
    bool optimal;       /* guaranteed shortest and search completed */
    unsigned length;
    uint8_t *moves;     /* length blank directions (enum puz_dir) */
    uint8_t *tiles;     /* length numbers of the tiles that slid */
    struct puz_stats stats;
    char reason[PUZ_MSG_MAX];  /* why unsolvable / which limit; or "" */
    /* The best proven lower bound on the optimal length: the strongest
     * admissible estimate of the start, raised by any completed search
     * bound; = length when optimal. 0 when unsolvable. */
    unsigned lower_bound;
    /* length / lower_bound when solved (1 when both are 0), else 0: the
     * path is at most (gap - 1) * 100 % longer than an optimal one. */
    double gap;
    /* The stages that ran, joined by '+' ("idastar",
     * "constructive+reduce+window", ...). */
    char method[PUZ_METHOD_MAX];
};

/* Deprecated (CHANGELOG.md), kept for programs built against 0.1.0:
 * puz_clock_mono_us (puz_clock.h), which it returns. */
uint64_t puz_now_us(void);

/*
 * Solve start towards opts->goal. Returns PUZ_OK whenever a result was
 * produced (solved, unsolvable or a limit hit: see out->status), and
 * PUZ_EINVAL with out->reason set when the options do not fit the board
 * (size mismatch, unknown heuristic for this size, ...).
 */
puz_err puz_solve(const struct puz_board *start,
                  const struct puz_solve_opts *opts, puz_arena *a,
                  struct puz_result *out);

/*
 * Run one unit of the parallel IDA* that puz_solve(start, opts) would
 * run (opts: its goal, tables and limits; the algorithm is IDA* and the
 * heuristic `pdb`, whatever opts says). PUZ_EINVAL (out->status unset)
 * when the tables do not serve the goal or the unit cannot be one of
 * that search's; else PUZ_OK with *out filled.
 */
puz_err puz_solve_unit(const struct puz_board *start,
                       const struct puz_solve_opts *opts,
                       const struct puz_unit *unit, puz_arena *a,
                       struct puz_unit_result *out);

/*
 * Whether puz_solve(start, opts) is a walk down the exact 3x3 table
 * rather than a search: A* (asked for, or what auto means on 3x3) with
 * the exact table as its heuristic, no trace, and a path within
 * limits.max_nodes. Such a solve costs O(path) and no node store, so the
 * server answers it on the thread that read the request.
 */
bool puz_solve_instant(const struct puz_board *start,
                       const struct puz_solve_opts *opts);

/* Replay moves from start; PUZ_EINVAL if one is illegal. Used by the
 * scorer and the tests to check a path honestly. */
puz_err puz_replay(const struct puz_board *start, const uint8_t *moves,
                   unsigned count, struct puz_board *end);

#endif
