/*
 * algorithm.c - the registry of search algorithms: one row per
 * algorithm (name, description, optimality, sizes, heuristic use, and
 * the function that runs it) and the defaults every caller shares (AUTO
 * by size, the heuristic of a solve). puz_solve() runs a row's run.
 *
 * A new algorithm is its file (src/core/search/ or large/, its run
 * declared in that room's header), its constant in puz_algorithm.h's
 * enum and its row here; openapi.yaml's list of names tells clients.
 */
#include <string.h>

#include "large/large.h"
#include "puz_algorithm.h"
#include "puz_board.h"
#include "search/searches.h"
#include "solve/registry.h"

struct algorithm {
    const char *name;
    const char *description;
    bool optimal;           /* given an admissible heuristic */
    bool heuristic;         /* looks at the solve's heuristic */
    unsigned min_size;      /* 0: PUZ_MIN_SIZE */
    bool traces;            /* records its expansions (puz_trace.h) */
    puz_err (*run)(struct puz__search *s);  /* NULL: AUTO, resolved
                                             * before anything runs */
};

static const struct algorithm registry[PUZ_ALG_COUNT_] = {
    [PUZ_ALG_AUTO] = {
        .name = "auto",
        .description = "the default for the size: A* up to 3x3, IDA* on "
            "4x4, anytime from 5x5 (rectangles: optimal up to 12 cells and "
            "on 3x5, and up to 16 cells with their pattern databases "
            "loaded; anytime beyond)",
        .heuristic = true,
    },
    [PUZ_ALG_ASTAR] = {
        .name = "astar",
        .description = "A*: best-first on moves so far plus the "
            "heuristic; optimal",
        .optimal = true, .heuristic = true, .traces = true,
        .run = puz__astar,
    },
    [PUZ_ALG_IDASTAR] = {
        .name = "idastar",
        .description = "IDA*: A* as iterative deepening; optimal in tiny "
            "memory",
        .optimal = true, .heuristic = true,
        .run = puz__idastar,
    },
    [PUZ_ALG_BFS] = {
        .name = "bfs",
        .description = "breadth-first: every board at distance 1, then "
            "2...; optimal, no heuristic",
        .optimal = true,
        .run = puz__bfs,
    },
    [PUZ_ALG_DFS] = {
        .name = "dfs",
        .description = "depth-first to a depth limit: finds a path, "
            "rarely a short one",
        .run = puz__dfs,
    },
    [PUZ_ALG_BNB] = {
        .name = "bnb",
        .description = "branch and bound: least cost first on moves plus "
            "misplaced tiles; optimal",
        .optimal = true, .heuristic = true, .traces = true,
        .run = puz__bnb,
    },
    [PUZ_ALG_GREEDY] = {
        .name = "greedy",
        .description = "greedy best-first on the heuristic alone: fast, "
            "not optimal",
        .heuristic = true, .traces = true,
        .run = puz__greedy,
    },
    [PUZ_ALG_CONSTRUCTIVE] = {
        .name = "constructive",
        .description = "places rows and columns one by one as people do: "
            "any size, not optimal",
        .run = puz__constructive,
    },
    [PUZ_ALG_WASTAR] = {
        .name = "wastar",
        .description = "weighted A*: f = g + w*h, at most w times optimal "
            "with far fewer nodes",
        .heuristic = true, .traces = true,
        .run = puz__wastar,
    },
    [PUZ_ALG_ANYTIME] = {
        .name = "anytime",
        .description = "large boards: a constructive answer at once, then "
            "shorter ones until the deadline",
        .min_size = 5,
        .run = puz__anytime,
    },
};

puz_err puz__algorithm_run(enum puz_algorithm a, struct puz__search *s)
{
    if ((unsigned)a >= PUZ_ALG_COUNT_ || registry[a].run == NULL)
        return PUZ_EINVAL;
    return registry[a].run(s);
}

bool puz_algorithm_traces(enum puz_algorithm a)
{
    return (unsigned)a < PUZ_ALG_COUNT_ && registry[a].traces;
}

const char *puz_algorithm_name(enum puz_algorithm a)
{
    return (unsigned)a < PUZ_ALG_COUNT_ ? registry[a].name : "unknown";
}

puz_err puz_algorithm_parse(const char *s, enum puz_algorithm *out)
{
    *out = PUZ_ALG_AUTO;
    for (unsigned i = 0; i < PUZ_ALG_COUNT_; i++) {
        if (strcmp(s, registry[i].name) == 0) {
            *out = (enum puz_algorithm)i;
            return PUZ_OK;
        }
    }
    return PUZ_EINVAL;
}

const char *puz_algorithm_description(enum puz_algorithm a)
{
    return (unsigned)a < PUZ_ALG_COUNT_ ? registry[a].description : "";
}

bool puz_algorithm_optimal(enum puz_algorithm a)
{
    return (unsigned)a < PUZ_ALG_COUNT_ && a != PUZ_ALG_AUTO
           && registry[a].optimal;
}

bool puz_algorithm_uses_heuristic(enum puz_algorithm a)
{
    return (unsigned)a < PUZ_ALG_COUNT_ && registry[a].heuristic;
}

void puz_algorithm_sizes(enum puz_algorithm a, unsigned *min_size,
                         unsigned *max_size)
{
    unsigned lo = (unsigned)a < PUZ_ALG_COUNT_ ? registry[a].min_size : 0;

    *min_size = lo != 0 ? lo : PUZ_MIN_SIZE;
    *max_size = PUZ_MAX_SIZE;
}

enum puz_algorithm puz_algorithm_resolve(enum puz_algorithm a, unsigned n)
{
    unsigned lo, hi;

    if (a == PUZ_ALG_AUTO)
        return n <= 3 ? PUZ_ALG_ASTAR
               : n == 4 ? PUZ_ALG_IDASTAR : PUZ_ALG_ANYTIME;
    puz_algorithm_sizes(a, &lo, &hi);
    /* anytime is the large-board method; on 4x4 and less the optimal
     * default answers within any budget worth having */
    return n < lo ? puz_algorithm_resolve(PUZ_ALG_AUTO, n) : a;
}

enum puz_algorithm puz_algorithm_resolve_shape(enum puz_algorithm a,
                                               unsigned rows, unsigned cols)
{
    if (rows == cols)
        return puz_algorithm_resolve(a, cols);
    if (a != PUZ_ALG_AUTO && a != PUZ_ALG_ANYTIME)
        return a;
    return puz_algorithm_rect_optimal(rows, cols)
           ? (rows * cols <= 9 ? PUZ_ALG_ASTAR : PUZ_ALG_IDASTAR)
           : PUZ_ALG_ANYTIME;
}

enum puz_algorithm puz_algorithm_resolve_tables(enum puz_algorithm a,
                                                unsigned rows, unsigned cols,
                                                bool tables_serve)
{
    /* With a rectangle's pattern databases loaded (up to 16 cells),
     * IDA* with them is optimal and fast: 2x7 and 2x8 too. */
    if (rows != cols && tables_serve && rows * cols <= 16 &&
        rows * cols > 9 && (a == PUZ_ALG_AUTO || a == PUZ_ALG_ANYTIME))
        return PUZ_ALG_IDASTAR;
    return puz_algorithm_resolve_shape(a, rows, cols);
}

bool puz_algorithm_rect_optimal(unsigned rows, unsigned cols)
{
    unsigned cells = rows * cols, side = rows < cols ? rows : cols;

    /* Measured with IDA* and linear conflict on random boards: 3x4 and
     * 2x6 in milliseconds, 3x5 in up to a few seconds; a thin 2x7 runs
     * 60-move paths that take 5 to over 20 s, a 4x5 far longer: the
     * anytime search answers those near-optimally with a proven lower
     * bound instead. */
    return cells <= 12 || (side >= 3 && cells <= 15);
}

const puz_heuristic *puz_algorithm_heuristic(enum puz_algorithm a,
                                             const puz_heuristic *asked,
                                             unsigned n, bool tables_serve)
{
    a = puz_algorithm_resolve(a, n);
    if (a == PUZ_ALG_ANYTIME)
        return puz_heuristic_find(tables_serve ? "pdb" : "linear-conflict");
    if (!puz_algorithm_uses_heuristic(a))
        return NULL;
    if (asked != NULL)
        return asked;
    if (a == PUZ_ALG_BNB)
        return puz_heuristic_find("misplaced");
    return puz_heuristic_find(tables_serve ? "pdb" : "linear-conflict");
}

bool puz_algorithm_uses_tables(enum puz_algorithm a,
                               const puz_heuristic *asked, unsigned n)
{
    return puz_algorithm_heuristic(a, asked, n, true)
           == puz_heuristic_find("pdb");
}
