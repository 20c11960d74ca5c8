/*
 * anytime.c - `anytime` (and `auto` on 5x5 and up): a first answer at
 * once, then shorter ones until the budget ends; the shortest wins.
 *
 *   1. constructive: the hand method, a path in microseconds;
 *   2. 5x5 (and rectangles below 28 cells): weighted A* tries with
 *      falling weights (restarting weighted A*), each shortened by
 *      post-optimisation;
 *      6x6 and up (and larger rectangles): reduction - the first row and
 *      column together by a weighted A* over just those tiles, recursing
 *      down to 5x5 (a rectangle's longer side alone once the other is
 *      5), which step 2's 5x5 search finishes;
 *   3. windows: every stretch of k moves replaced by an optimal path
 *      between its end boards, k growing while time is left.
 * docs/large.md gives the policy and the measurements behind it. The
 * budget is the caller's deadline (PUZ_ANYTIME_DEFAULT_US when none);
 * once a path exists the answer is `solved`, never a timeout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "large/large.h"
#include "puz_pdb.h"

void puz__method_add(struct puz__anytime *at, const char *stage)
{
    size_t len = strlen(at->method);

    if (strstr(at->method, stage) != NULL)
        return;
    snprintf(at->method + len, sizeof(at->method) - len, "%s%s",
             len ? "+" : "", stage);
}

uint64_t puz__nodes_left(const struct puz__anytime *at)
{
    uint64_t max = at->s->limits->max_nodes;

    if (max == 0)
        return 0;
    return at->nodes < max ? max - at->nodes : 1;
}

/* Progress for a watcher (solve options' callback): the counts so far,
 * and at once when the answer got shorter. */
static void sync_stats(const struct puz__anytime *at)
{
    at->s->out->stats.expanded = at->base_expanded + at->nodes;
}

static void report(const struct puz__anytime *at, const struct puz__lpath *p)
{
    struct puz__search *s = at->s;

    if (s->watch == NULL || p != at->top ||
        s->watch->best_length == p->len)
        return;
    s->watch->best_length = p->len;
    sync_stats(at);
    puz__progress(s, true);
}

static int time_left(const struct puz__anytime *at)
{
    const struct puz_limits *l = at->s->limits;

    if (at->s->watch != NULL) {
        sync_stats(at);
        puz__progress(at->s, false);
    }

    if (l->cancel != NULL &&
        atomic_load_explicit(l->cancel, memory_order_relaxed))
        return 0;
    if (l->max_nodes != 0 && at->nodes >= l->max_nodes)
        return 0;
    return puz__now(at->s->limits) < at->deadline_us;
}

/* Bytes a weighted A* try may hold outside the arena: what the arena's
 * budget (limits.max_bytes, or the server's) has left, less a reserve
 * for the paths being improved and the answer; 256 MiB without a
 * budget. 0 means none (the try fails at once). */
size_t puz__store_bytes(const struct puz__anytime *at)
{
    const puz_arena *a = at->s->arena;
    size_t budget = puz_arena_budget(a), used = puz_arena_used(a);
    size_t reserve = PUZ__PATH_RESERVE;

    if (budget == 0)
        return (size_t)256u << 20;
    return budget > used + reserve ? budget - used - reserve : 0;
}

/* A store's peak counted with the arena's bytes so far (the result's
 * arena_peak; solve.c keeps the larger of the two). */
void puz__store_peak(struct puz__anytime *at, size_t peak)
{
    size_t used = puz_arena_used(at->s->arena);
    size_t total = (used > at->arena_base ? used - at->arena_base : 0) +
                   peak + PUZ__PATH_RESERVE;

    if (total > at->s->out->stats.arena_peak)
        at->s->out->stats.arena_peak = total;
}

static void keep_shorter(const struct puz__anytime *at,
                         struct puz__lpath *best, struct puz__lpath *cand)
{
    if (cand->dirs != NULL && cand->len < best->len) {
        free(best->dirs);
        *best = *cand;
    } else {
        free(cand->dirs);
    }
    memset(cand, 0, sizeof(*cand));
    report(at, best);
}

/* After a window pass over p from b (method names it) that saved `saved`
 * moves: nothing saved, the windows grow by step (*k); else the shorter
 * path may now hold loops to take out. The path is reported either way. */
static void pass_done(struct puz__anytime *at, const struct puz_board *b,
                      struct puz__lpath *p, const char *method,
                      unsigned saved, unsigned *k, unsigned step)
{
    puz__method_add(at, method);
    if (saved == 0)
        *k += step;
    else
        puz__pathopt_loops(b, p);
    report(at, p);
}

/* Window passes over p from b until `until`: k grows when a pass
 * saves nothing. */
static void windows(struct puz__anytime *at, const struct puz_board *b,
                    struct puz__lpath *p, unsigned k0, unsigned kmax,
                    uint64_t until)
{
    const struct puz_limits *l = at->s->limits;
    unsigned k = k0;

    puz__pathopt_loops(b, p);
    while (k <= kmax && puz__now(at->s->limits) < until && time_left(at)) {
        uint64_t cap = 2000u << (k > 16 ? (k - 16) / 2 : 0);
        unsigned saved;
        if (cap > 2000000u)
            cap = 2000000u;
        saved = puz__pathopt_windows(b, p, k, cap, until, l,
                                     &at->nodes, l->max_nodes);
        pass_done(at, b, p, "window", saved, &k, 2);
    }
    report(at, p);
}

/* Windows ending on boards the pattern databases serve (pathopt.c), k
 * from 24 up to the whole path, a larger node cap per window as k
 * grows, until `until`. */
static void pdb_windows(struct puz__anytime *at, const struct puz_board *b,
                        struct puz__lpath *p, uint64_t until)
{
    const struct puz_limits *l = at->s->limits;
    unsigned k = PUZ__PDBWIN_K0;

    while (p->len > 1 && puz__now(l) < until && time_left(at)) {
        unsigned kk = k < p->len ? k : p->len, saved;
        uint64_t cap = PUZ__PDBWIN_CAPMAX;
        if (kk < k && k > PUZ__PDBWIN_K0 + 4 * 12)
            break;              /* the whole path tried at the top cap */
        /* a path shorter than K0 is tried whole at the top cap */
        if (kk >= PUZ__PDBWIN_K0 && (kk - PUZ__PDBWIN_K0) / 4 < 12)
            cap = (uint64_t)PUZ__PDBWIN_CAP0 << ((kk - PUZ__PDBWIN_K0) / 4);
        if (cap > PUZ__PDBWIN_CAPMAX)
            cap = PUZ__PDBWIN_CAPMAX;
        saved = puz__pathopt_pdb(b, p, kk, at->s->tables, cap, until, l,
                                 &at->nodes, l->max_nodes);
        pass_done(at, b, p, "pdbwindow", saved, &k, 4);
    }
}

/* One weighted A* try on the 5x5 b; PUZ_OK with cand filled, or empty
 * when no path shorter than prune_at (the best so far) exists in the
 * space it searched. Boards that cannot lead to a shorter path by the
 * admissible h (g + h >= prune_at) are not stored: that is what lets
 * the low weights finish within the store's budget. */
static puz_err try_5x5(struct puz__anytime *at, const struct puz_board *b,
                       const struct puz__mlc *m, const void *pdb_ctx,
                       unsigned w100, unsigned prune_at, uint64_t until,
                       struct puz__lpath *cand)
{
    struct puz__wsearch w = { 0 };
    uint8_t *dirs;
    unsigned len;
    puz_err rc;

    w.n = b->n;
    w.rows = b->rows;
    w.mlc = m;
    if (pdb_ctx != NULL) {
        w.h = puz_heuristic_find("pdb");
        w.hctx = pdb_ctx;
    }
    w.weight100 = w100;
    w.max_nodes = UINT32_MAX / 2;
    w.max_bytes = puz__store_bytes(at);
    if (w.max_bytes == 0)
        return PUZ_ERANGE;
    w.deadline_us = until;
    w.limits = at->s->limits;
    w.max_expanded = puz__nodes_left(at);
    w.prune_at = prune_at;
    rc = puz__wsearch_run(&w, b->cells, &dirs, &len);
    puz__store_peak(at, w.peak_bytes);
    at->nodes += w.expanded;
    at->s->out->stats.generated += w.generated;
    if (rc != PUZ_OK && w.exhausted)
        return PUZ_OK;          /* nothing shorter than prune_at: cand empty */
    if (rc != PUZ_OK)
        return rc;
    cand->dirs = dirs;
    cand->len = cand->cap = len;
    return PUZ_OK;
}

/* The registry's pattern databases for this goal when the loaded
 * tables serve it (the 5x5 6-6-6-6 set once built), else NULL. */
static const void *pdb_context(struct puz__anytime *at,
                               const struct puz_board *goal)
{
    const struct puz_heuristic *h = puz_heuristic_find("pdb");
    struct puz__hargs args = { goal, at->s->tables, at->s->arena };
    void *ctx = NULL;
    char msg[PUZ_MSG_MAX];

    if (h == NULL || goal->n != 5 || !puz_board_square(goal) ||
        !puz_tables_serves(at->s->tables, goal) ||
        h->prepare(&args, &ctx, msg) != PUZ_OK)
        return NULL;
    return ctx;
}

void puz__anytime_5x5(struct puz__anytime *at, const struct puz_board *b,
                      const struct puz_board *goal, uint64_t until,
                      struct puz__lpath *p)
{
    static const unsigned weights[] = { 300, 200, 160, 140, 125, 115 };
    const void *pdb = pdb_context(at, goal);
    struct puz__mlc m;
    unsigned w100 = weights[0], ok = 0, failed = 0;

    puz__mlc_init(&m, goal, NULL, 0);
    if (pdb != NULL) {
        at->s->out->heuristic = puz_heuristic_find("pdb");
        at->s->out->tables = puz_tables_name(at->s->tables, goal);
    }
    /*
     * Falling weights; a try that runs out of room (not of time) is
     * followed by the weights halfway between it and the last that
     * finished, while they differ by 0.05 or more: on the hard boards
     * 1.25 fills 512 MiB, and 1.3 still finishes shorter than 1.4.
     */
    for (size_t i = 0; i < sizeof(weights) / sizeof(weights[0]);) {
        struct puz__lpath cand = { 0 };
        uint64_t now = puz__now(at->s->limits);
        uint64_t try_until = now + (until - now) * 2 / 3;
        if (now >= until || !time_left(at))
            break;
        /* leave time for the windows after the last try that ends */
        if (try_5x5(at, b, &m, pdb, w100, p->len, try_until,
                    &cand) != PUZ_OK) {
            if (puz__now(at->s->limits) >= try_until || ok == 0)
                break;
            failed = w100;
        } else {
            ok = w100;
            puz__method_add(at, "wastar");
            if (cand.dirs != NULL) {
                windows(at, b, &cand, 12, 20, now + (until - now) * 3 / 4);
                keep_shorter(at, p, &cand);
            }
        }
        if (failed == 0) {
            if (++i < sizeof(weights) / sizeof(weights[0]))
                w100 = weights[i];
        } else if (ok - failed >= 10) {
            w100 = (ok + failed) / 2;
        } else {
            break;
        }
    }
    if (pdb != NULL)
        pdb_windows(at, b, p, until);
    windows(at, b, p, 12, 40, until);
}

/* The constructive answer, copied out of the arena into best. */
static puz_err first_answer(struct puz__search *s, struct puz__lpath *best)
{
    struct puz_result *r = s->out;
    puz_err rc = puz__constructive(s);

    if (rc != PUZ_OK || r->status != PUZ_SOLVED)
        return rc != PUZ_OK ? rc : PUZ_EINVAL;
    return puz__lpath_append(best, r->moves, r->length);
}

static uint64_t budget_end(const struct puz__search *s)
{
    uint64_t end = s->limits->deadline_us, b;
    uint64_t started = s->limits->clock_us != NULL ? puz__now(s->limits)
                                                   : s->started_us;

    if (end == 0)
        end = started + PUZ_ANYTIME_DEFAULT_US;
    /* keep a tenth back (at most 50 ms) for writing the answer and for
     * a busy machine's scheduling delays */
    b = end > started ? end - started : 0;
    b = b / 10 < 50000 ? b / 10 : 50000;
    return end - b;
}

/*
 * The policy per size (docs/large.md, docs/rectangles.md): 5x5 and the
 * rectangles under PUZ__RECT_REDUCE_CELLS (or of both sides <= 5) -
 * weighted A* tries over the whole board with falling weights, each
 * post-optimised; 6x6 and up and the larger rectangles - the reduction
 * by strips down to the 5x5 search, then windows over the whole path.
 */
static void improve(struct puz__anytime *at, struct puz__lpath *best)
{
    struct puz__search *s = at->s;
    struct puz__lpath cand = { 0 };
    uint64_t now = puz__now(at->s->limits);

    if ((s->n == 5 && s->rows == 5) ||
        (s->rows != s->n && (s->cells < PUZ__RECT_REDUCE_CELLS ||
                             (s->rows <= 5 && s->n <= 5)))) {
        puz__anytime_5x5(at, s->start, s->goal, at->deadline_us, best);
        return;
    }
    if (puz__reduce_solve(at, PUZ__STRIP_W100, 5,
                          now + (at->deadline_us - now) * 9 / 10,
                          &cand) == PUZ_OK) {
        puz__method_add(at, "reduce");
        keep_shorter(at, best, &cand);
    }
    free(cand.dirs);
    windows(at, s->start, best, 12, 40, at->deadline_us);
}

puz_err puz__anytime(struct puz__search *s)
{
    struct puz__anytime at;
    struct puz__lpath best = { 0 };
    struct puz_result *r = s->out;
    puz_err rc;

    memset(&at, 0, sizeof(at));
    at.s = s;
    at.arena_base = puz_arena_used(s->arena);
    at.deadline_us = budget_end(s);
    rc = first_answer(s, &best);
    if (rc != PUZ_OK || r->status != PUZ_SOLVED) {
        free(best.dirs);
        return rc == PUZ_EINVAL ? PUZ_OK : rc;
    }
    puz__method_add(&at, "constructive");
    at.base_expanded = r->stats.expanded;
    at.top = &best;
    report(&at, &best);
    r->heuristic = puz_heuristic_find("linear-conflict");
    if (s->n >= 5 || s->rows != s->n)
        improve(&at, &best);
    report(&at, &best);
    sync_stats(&at);
    if (puz__set_path(s, best.dirs, best.len) != PUZ_OK)
        r->status = PUZ_LIMIT_MEMORY;
    free(best.dirs);
    snprintf(r->method, sizeof(r->method), "%s", at.method);
    return PUZ_OK;
}
