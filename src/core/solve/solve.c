/*
 * solve.c - puz_solve(): validates the request, decides solvability by
 * parity before any search, resolves defaults (algorithm and heuristic,
 * as the registry in algorithm.c decides them), arms the limits and hands
 * over to the algorithm's row of that registry. Also the names of statuses and puz_replay. The
 * helpers every search shares (limits, progress, the path) are in
 * search.c, below the searches: no search calls back into this file.
 */
#include <stdio.h>
#include <string.h>

#include "heur/heuristic_impl.h"
#include "puz_pdb.h"
#include "solve/registry.h"

const char *puz_status_name(enum puz_status s)
{
    static const char *const names[] = {
        "solved", "unsolvable", "limit_nodes", "limit_memory",
        "limit_depth", "timeout", "cancelled",
    };
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s]
                                                          : "unknown";
}

puz_err puz_replay(const struct puz_board *start, const uint8_t *moves,
                   unsigned count, struct puz_board *end)
{
    *end = *start;
    for (unsigned i = 0; i < count; i++)
        if (moves[i] > PUZ_RIGHT ||
            puz_board_move(end, (enum puz_dir)moves[i]) == 0)
            return PUZ_EINVAL;
    return PUZ_OK;
}

/* Parity first: an unsolvable board costs no search at all. Once per
 * solve: not again when the caller has checked (opts.solvable_known). */
static puz_err check_inputs(const struct puz_board *start,
                            const struct puz_board *goal, bool known,
                            struct puz_result *out, bool *solvable)
{
    unsigned rows = puz_board_rows(start);

    if (start->n < PUZ_MIN_SIZE || start->n > PUZ_MAX_SIZE ||
        rows < PUZ_MIN_SIZE || rows > PUZ_MAX_SIZE) {
        snprintf(out->reason, sizeof(out->reason), "board size %ux%u is not "
                 "supported (%d..%d each)", rows, start->n, PUZ_MIN_SIZE,
                 PUZ_MAX_SIZE);
        return PUZ_EINVAL;
    }
    *solvable = true;
    if (known && puz_board_same_shape(goal, start))
        return PUZ_OK;
    /* The explanation (a formatted string) only when it is shown. */
    if (puz_board_solvable(start, goal, solvable, NULL) != PUZ_OK ||
        !*solvable)
        return puz_board_solvable(start, goal, solvable, out->reason);
    return PUZ_OK;
}

static puz_err prepare(struct puz__search *s, const struct puz_solve_opts *o,
                       enum puz_algorithm alg)
{
    struct puz__hargs args = { s->goal, o->tables, s->arena };
    struct puz_result *r = s->out;

    if (!puz_algorithm_uses_heuristic(alg))
        return PUZ_OK;
    s->h = puz_algorithm_heuristic(alg, o->heuristic, s->n,
                                   puz_tables_serves(o->tables, s->goal));
    r->heuristic = s->h;
    if (s->h->prepare(&args, &s->hctx, r->reason) == PUZ_ENOMEM) {
        r->status = PUZ_LIMIT_MEMORY;
        return PUZ_ENOMEM;
    }
    /* 5x5 tables serve the corner goals only, and only when loaded:
     * other 5x5 solves asking for pdb get linear conflict, and the
     * answer's heuristic says so. */
    if (s->hctx == NULL && s->n == 5 && s->h == puz_heuristic_find("pdb")) {
        s->h = puz_heuristic_find("linear-conflict");
        r->heuristic = s->h;
        r->reason[0] = '\0';
        if (s->h->prepare(&args, &s->hctx, r->reason) == PUZ_ENOMEM) {
            r->status = PUZ_LIMIT_MEMORY;
            return PUZ_ENOMEM;
        }
    }
    if (s->hctx != NULL && s->h == puz_heuristic_find("pdb"))
        r->tables = puz_tables_name(o->tables, s->goal);
    return s->hctx != NULL ? PUZ_OK : PUZ_EINVAL;
}

/* h of the start by one admissible heuristic; 0 when it cannot run. */
static unsigned start_estimate(const struct puz__search *s, const char *name)
{
    const puz_heuristic *h = puz_heuristic_find(name);
    unsigned v = 0;

    if (h == NULL || puz_heuristic_eval(h, s->start, s->goal, s->tables,
                                        s->arena, &v, NULL) != PUZ_OK)
        return 0;
    return v;
}

/*
 * The proven lower bound: the strongest admissible estimate of the start
 * (linear conflict, or the loaded tables when they serve this goal),
 * raised by whatever a search proved (s->lower_bound); the length itself
 * when the path is optimal. Then gap = length / lower_bound.
 */
static void set_bound(struct puz__search *s)
{
    struct puz_result *r = s->out;
    unsigned lb = s->lower_bound, v;

    if (r->status == PUZ_UNSOLVABLE)
        return;
    if (r->optimal) {   /* proven: no estimate to build (the 3x3 hot path) */
        r->lower_bound = r->length;
        r->gap = 1.0;
        return;
    }
    v = start_estimate(s, "linear-conflict");
    lb = v > lb ? v : lb;
    if (puz_tables_serves(s->tables, s->goal)) {
        v = start_estimate(s, "pdb");
        lb = v > lb ? v : lb;
    }
    if (r->status == PUZ_SOLVED && lb > r->length)
        lb = r->length;     /* cannot happen with admissible estimates */
    r->lower_bound = lb;
    if (r->status == PUZ_SOLVED)
        r->gap = lb > 0 ? (double)r->length / lb : 1.0;
}

static void finish_result(struct puz__search *s, size_t used_before)
{
    struct puz_result *r = s->out;
    size_t peak;

    r->optimal = r->status == PUZ_SOLVED && puz_algorithm_optimal(r->algorithm)
                 && (r->heuristic == NULL ||
                     puz_heuristic_admissible(r->heuristic));
    if (r->status != PUZ_SOLVED) {
        r->length = 0;
        r->moves = r->tiles = NULL;
        if (r->reason[0] == '\0')
            snprintf(r->reason, sizeof(r->reason), "stopped: %s",
                     puz_status_name(r->status));
    }
    if (r->method[0] == '\0') {   /* a copy, not snprintf: every solve */
        const char *name = puz_algorithm_name(r->algorithm);
        size_t len = strlen(name);
        if (len >= sizeof(r->method))
            len = sizeof(r->method) - 1;
        memcpy(r->method, name, len);
        r->method[len] = '\0';
    }
    set_bound(s);
    /* any search's path is proven optimal when it is as short as a
     * proven bound (greedy finding a 31-move 3x3 path whose bound is 31) */
    if (r->status == PUZ_SOLVED && !r->optimal &&
        r->lower_bound == r->length)
        r->optimal = true;
    peak = puz_arena_peak(s->arena);
    r->stats.time_us = puz_clock_mono_us() - s->started_us;
    peak = peak > used_before ? peak - used_before : 0;
    /* anytime's stores live outside the arena and report their peak */
    if (peak > r->stats.arena_peak)
        r->stats.arena_peak = peak;
}

bool puz_solve_instant(const struct puz_board *start,
                       const struct puz_solve_opts *opts)
{
    struct puz_board dflt;
    const struct puz_board *goal = opts->goal;
    bool serves;

    if (start->n != 3 || !puz_board_square(start) || opts->trace != NULL ||
        puz_algorithm_resolve(opts->algorithm, 3) != PUZ_ALG_ASTAR)
        return false;
    if (goal == NULL && puz_board_goal(3, &dflt) != PUZ_OK)
        return false;
    goal = goal != NULL ? goal : &dflt;
    serves = puz_tables_serves(opts->tables, goal);
    if (puz_algorithm_heuristic(PUZ_ALG_ASTAR, opts->heuristic, 3, serves)
        != puz_heuristic_find("pdb"))
        return false;
    /* No 3x3 path is longer than 31 moves (the walk expands one node per
     * move), so a node limit of 31 or more never turns the walk into a
     * search; the table itself is not read here. */
    return serves && (opts->limits.max_nodes == 0 ||
                      opts->limits.max_nodes >= PUZ_TABLE3_MAX_DEPTH);
}

/* puz_solve, or with unit set puz_solve_unit's one unit into uout. */
static puz_err solve(const struct puz_board *start,
                     const struct puz_solve_opts *opts,
                     const struct puz_unit *unit,
                     struct puz_unit_result *uout, puz_arena *a,
                     struct puz_result *out)
{
    uint64_t started_us = puz_clock_mono_us();
    struct puz_board default_goal;
    const struct puz_board *goal;
    struct puz__search s;
    struct puz__watch watch = { 0 };
    size_t used_before = puz_arena_used(a);
    size_t budget_before = puz_arena_budget(a);
    bool solvable;
    puz_err rc;

    memset(out, 0, sizeof(*out));
    if (opts->goal == NULL && puz_board_goal_of(start, &default_goal)) {
        snprintf(out->reason, sizeof(out->reason), "unsupported size");
        return PUZ_EINVAL;
    }
    goal = opts->goal ? opts->goal : &default_goal;
    rc = check_inputs(start, goal, opts->solvable_known, out, &solvable);
    if (rc != PUZ_OK)
        return rc;
    out->algorithm = puz_algorithm_resolve_tables(
        opts->algorithm, puz_board_rows(start), start->n,
        puz_tables_serves(opts->tables, goal));
    if ((unsigned)out->algorithm >= PUZ_ALG_COUNT_)
        return PUZ_EINVAL;
    if (!solvable) {
        out->status = PUZ_UNSOLVABLE;
        snprintf(out->method, sizeof(out->method), "parity");
        out->stats.time_us = puz_clock_mono_us() - started_us;
        return PUZ_OK;
    }
    out->reason[0] = '\0';
    puz__search_init(&s, start, goal, &opts->limits, opts->tables, a, out);
    s.started_us = started_us;
    if (opts->progress != NULL) {
        watch.fn = opts->progress;
        watch.user = opts->progress_user;
        watch.next_us = s.started_us + PUZ_PROGRESS_US;
        s.watch = &watch;
    }
    puz__arena_cap(a, opts->limits.max_bytes);
    rc = prepare(&s, opts, out->algorithm);
    /* An optimal search with an admissible h rules out every path
     * shorter than its current bound: progress reports it. */
    watch.proves_bound = puz_algorithm_optimal(out->algorithm) &&
                         s.h != NULL && puz_heuristic_admissible(s.h);
    s.weight = opts->weight ? opts->weight : PUZ_WASTAR_DEFAULT_WEIGHT;
    s.trace = opts->trace;
    s.opts = opts;
    s.unit = unit;
    s.unit_out = uout;
    if (rc == PUZ_OK)
        rc = puz__algorithm_run(out->algorithm, &s);
    puz_arena_set_budget(a, budget_before);
    if (rc == PUZ_ENOMEM)
        rc = PUZ_OK;        /* reported as limit_memory */
    finish_result(&s, used_before);
    return rc;
}

puz_err puz_solve(const struct puz_board *start,
                  const struct puz_solve_opts *opts, puz_arena *a,
                  struct puz_result *out)
{
    return solve(start, opts, NULL, NULL, a, out);
}

puz_err puz_solve_unit(const struct puz_board *start,
                       const struct puz_solve_opts *opts,
                       const struct puz_unit *unit, puz_arena *a,
                       struct puz_unit_result *out)
{
    struct puz_solve_opts o = *opts;
    struct puz_result res;
    puz_err rc;

    memset(out, 0, sizeof(*out));
    /* not a result until the unit has run (puz__ida_one_unit sets it) */
    out->status = PUZ_CANCELLED;
    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    o.threads = 0;
    o.run = NULL;
    o.units = NULL;
    o.progress = NULL;
    o.trace = NULL;
    rc = solve(start, &o, unit, out, a, &res);
    if (rc == PUZ_OK && out->status == PUZ_CANCELLED && res.reason[0] != '\0')
        rc = PUZ_EINVAL;    /* it could not be this search's unit */
    return rc;
}
