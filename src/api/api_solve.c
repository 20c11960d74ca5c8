/*
 * api_solve.c - POST /v1/solve and POST /v1/solve/batch, and the steps
 * every route that searches shares (options, problems, counting).
 *
 * The route functions decode and check the body; the work functions
 * search (on a worker in the server) and encode the result.
 */
#include "api_int.h"

#include <stdio.h>
#include <string.h>

#include "api_jalloc.h"
#include "codec.h"
#include "codec_trace.h"
#include "pool_pieces.h"

/* The options every search of a call starts from: the server's tables
 * and memory cap, the call's cancel flag, this deadline. */
static void common_opts(const struct api_call *c, uint64_t deadline_us,
                        struct puz_solve_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->tables = c->ctx->tables;
    o->limits.max_bytes = c->ctx->lim->solve_max_bytes;
    o->limits.deadline_us = deadline_us;
    o->limits.cancel = c->cancel;
}

size_t api__budget_left(const struct api_call *c)
{
    size_t budget = puz_arena_budget(c->arena);
    size_t used = puz_arena_used(c->arena);

    if (budget == 0)
        return 0;
    return budget > used ? budget - used : 1;   /* 1: nothing fits */
}

/* res becomes limit_memory with what the search found but no path. */
static void no_path(struct puz_result *res, const char *why)
{
    res->status = PUZ_LIMIT_MEMORY;
    res->optimal = false;
    res->length = 0;
    res->moves = res->tiles = NULL;
    res->gap = 0;
    snprintf(res->reason, sizeof(res->reason), "%s", why);
}

/* Keep res's path in the call's arena (the scratch is emptied next). */
static void keep_path(struct api_call *c, struct puz_result *res)
{
    uint8_t *moves = NULL, *tiles = NULL;

    if (res->length == 0)
        return;
    moves = puz_arena_alloc(c->arena, res->length);
    tiles = moves != NULL ? puz_arena_alloc(c->arena, res->length) : NULL;
    if (tiles == NULL) {
        no_path(res, "the path does not fit in the memory one request may "
                "use (solve_max_bytes)");
        return;
    }
    memcpy(moves, res->moves, res->length);
    memcpy(tiles, res->tiles, res->length);
    res->moves = moves;
    res->tiles = tiles;
}

/* api__search when the caller already knows puz_solve_instant(b, o). */
static puz_err search(struct api_call *c, const struct puz_board *b,
                      struct puz_solve_opts *o, bool instant,
                      struct puz_result *res)
{
    size_t left = api__budget_left(c);
    puz_err rc;

    /* A table walk holds a few hundred bytes: in the call's own arena,
     * with no scratch arena to create (and no path to copy out). */
    if (instant) {
        rc = puz_solve(b, o, c->arena, res);
        if (rc == PUZ_OK && res->stats.arena_peak > c->scratch_peak)
            c->scratch_peak = res->stats.arena_peak;
        return rc;
    }
    if (c->scratch == NULL)
        c->scratch = puz_arena_create(c->ctx->lim->arena_chunk_bytes);
    if (c->scratch == NULL)
        return PUZ_ENOMEM;
    puz_arena_set_budget(c->scratch, left);
    if (left != 0 && (o->limits.max_bytes == 0 || o->limits.max_bytes > left))
        o->limits.max_bytes = left;
    rc = puz_solve(b, o, c->scratch, res);
    /* stats.arena_peak also counts what weighted A* held outside the
     * arena (wsearch.c, capped by what the budget left). */
    if (puz_arena_peak(c->scratch) > c->scratch_peak)
        c->scratch_peak = puz_arena_peak(c->scratch);
    if (rc == PUZ_OK && res->stats.arena_peak > c->scratch_peak)
        c->scratch_peak = res->stats.arena_peak;
    if (rc == PUZ_OK)
        keep_path(c, res);
    puz_arena_reset(c->scratch);
    puz_arena_set_budget(c->scratch, 0);
    return rc;
}

puz_err api__search(struct api_call *c, const struct puz_board *b,
                    struct puz_solve_opts *o, struct puz_result *res)
{
    return search(c, b, o, puz_solve_instant(b, o), res);
}

void api__request_opts(const struct api_call *c,
                       const struct api_solve_request *q,
                       uint64_t deadline_us, struct puz_solve_opts *o)
{
    common_opts(c, deadline_us, o);
    o->algorithm = q->algorithm;
    o->heuristic = q->heuristic;
    o->goal = q->has_goal ? &q->goal : NULL;
    /* every board reaching a search passed api_decode_solvable */
    o->solvable_known = true;
    o->limits.max_nodes = q->max_nodes;
    o->limits.max_depth = q->max_depth;
    o->weight = q->weight;
    if (q->threads > 1) {       /* jobs only (decode refuses it else) */
        o->threads = q->threads;
        o->run = pool_run_units;
        o->run_user = (void *)&q->threads;
        if (c->units_via != NULL)
            c->units_via(c, q, o);
    }
    o->progress = c->progress;
    o->progress_user = c->progress_user;
}

void api__cancelled(const struct api_call *c, struct api_problem *p)
{
    if (c->ctx->draining != NULL && atomic_load(c->ctx->draining))
        api_problem_set(p, API_PROBLEM_SHUTTING_DOWN, "the server is "
                         "shutting down; this request was cancelled");
    else
        api_problem_set(p, API_PROBLEM_CLIENT_CLOSED, "the client closed "
                         "its connection; the work was stopped");
}

bool api__solve_problem(const struct api_call *c, puz_err rc,
                        const struct puz_result *res, struct api_problem *p)
{
    if (rc == PUZ_EINVAL)
        api_problem_set(p, API_PROBLEM_INVALID_OPTION, "%s",
                         res->reason[0] ? res->reason
                         : "these options do not fit this board");
    else if (rc != PUZ_OK)
        api_problem_set(p, API_PROBLEM_INTERNAL, "the solver failed: %s",
                         puz_strerror(rc));
    else if (res->status == PUZ_CANCELLED)
        api__cancelled(c, p);
    else if (res->status == PUZ_UNSOLVABLE)
        api_problem_set(p, API_PROBLEM_UNSOLVABLE, "%s", res->reason);
    else
        return false;
    return true;
}

/* The final numbers of a search as its last progress report. */
static void final_progress(struct api_call *c, const struct puz_result *r)
{
    struct puz_progress p = { 0 };

    p.algorithm = r->algorithm;
    p.expanded = r->stats.expanded;
    p.generated = r->stats.generated;
    p.elapsed_us = r->stats.time_us;
    p.lower_bound = r->lower_bound;
    if (r->status == PUZ_SOLVED) {
        p.best_length = r->length;
        if (r->optimal)
            p.lower_bound = p.bound = r->length;
    }
    c->progress(&p, c->progress_user);
}

void api__record(struct api_call *c, const struct puz_result *res)
{
    c->answer.expanded += res->stats.expanded;
    if (c->ctx->on_search != NULL)
        c->ctx->on_search(c->ctx->user, res);
    if (c->progress != NULL)
        final_progress(c, res);
}

/*
 * "pdb" asked for a board whose tables are still being built in the
 * background (pdb_background; they serve goals with the blank in a
 * corner): a 503 with Retry-After that says how far the build is, rather
 * than a search without them (on 4x4 a 422, on 5x5 linear conflict,
 * which takes hours on a 24-puzzle) or a wait of minutes.
 */
static bool tables_building(const struct api_call *c,
                            const struct api_solve_request *q,
                            struct api_problem *p)
{
    struct puz_board def;
    const struct puz_board *goal = &q->goal;
    unsigned rows, cols, last;
    const char *st;
    json_t *bg;
    bool building;

    if (q->heuristic != puz_heuristic_find("pdb") ||
        c->ctx->tables_state == NULL ||
        !puz_algorithm_uses_heuristic(q->algorithm))
        return false;
    if (!q->has_goal) {
        puz_board_goal_of(&q->board, &def);
        goal = &def;
    }
    rows = puz_board_rows(goal);
    cols = goal->n;
    last = rows * cols - 1;
    if ((goal->blank != 0 && goal->blank != cols - 1 &&
         goal->blank != last - (cols - 1) && goal->blank != last) ||
        puz_tables_serves(c->ctx->tables, goal))
        return false;
    bg = c->ctx->tables_state(c->ctx->user, rows, cols);
    st = json_string_value(json_object_get(bg, "state"));
    building = st != NULL && strcmp(st, "building") == 0;
    if (building)
        api_problem_set(p, API_PROBLEM_UNAVAILABLE, "the %ux%u pattern "
                         "databases (%s) are being built in the background "
                         "(%.1f%%); ask again when /readyz says them ready, "
                         "or for another heuristic", rows, cols,
                         json_string_value(json_object_get(bg, "partition")),
                         json_number_value(json_object_get(bg, "percent")));
    json_decref(bg);
    return building;
}

bool api__solve_check(struct api_call *c, const struct api_solve_request *q)
{
    struct api_problem p;

    if (api_decode_solvable(&q->board, q->has_goal ? &q->goal : NULL,
                            &p) == PUZ_OK && !tables_building(c, q, &p))
        return true;
    api_answer_problem(c, &p);
    return false;
}

/* "trace" and "effort" of a /v1/solve answer, when asked for, as one
 * object whose members join the result's (NULL when neither was). */
static json_t *trace_json(const struct api_solve_request *q,
                          const puz_trace *t)
{
    json_t *o = q->trace || q->effort ? json_object() : NULL;

    if (o != NULL && q->trace)
        json_object_set_new(o, "trace", t != NULL
                            ? codec_trace_json(t, &q->board)
                            : json_array());
    if (o != NULL && q->effort)
        json_object_set_new(o, "effort", codec_effort_json(t));
    return o;
}

/*
 * The answer's bytes written directly into the arena (codec_result_bytes,
 * the one encoder of a result); a trace's members are encoded apart and
 * spliced in before the closing brace.
 */
static void answer_result(struct api_call *c, const struct puz_board *b,
                          const struct puz_result *res, bool include_path,
                          const json_t *extra)
{
    size_t max = c->ctx->lim->max_response_bytes, len = 0, n = 0;
    struct api_problem p;
    char *buf = NULL, *all = NULL, *more = NULL;
    puz_err rc = PUZ_OK;

    n = extra != NULL ? json_dumpb(extra, NULL, 0, CODEC_JSON_FLAGS) : 0;
    if (extra != NULL && api_jalloc_failed())
        rc = PUZ_ENOMEM;    /* part of the trace's tree is missing */
    else if (n > 2) {            /* the result's room shrinks by the extra's */
        more = puz_arena_alloc(c->arena, n);
        rc = more == NULL ? PUZ_ENOMEM : n - 2 >= max ? PUZ_ERANGE : PUZ_OK;
        if (rc == PUZ_OK) {
            json_dumpb(extra, more, n, CODEC_JSON_FLAGS);
            max -= n - 2;
        }
    }
    if (rc == PUZ_OK)
        rc = codec_result_bytes(b, res, include_path, CODEC_REAL_DIGITS, max,
                                c->arena, &buf, &len);
    if (rc == PUZ_OK && more != NULL) {     /* {R} + {E} = {R,E} */
        all = puz_arena_alloc(c->arena, len + n - 1);
        rc = all != NULL ? PUZ_OK : PUZ_ENOMEM;
    }
    if (all != NULL) {
        memcpy(all, buf, len - 1);
        all[len - 1] = ',';
        memcpy(all + len, more + 1, n - 2);
        all[len + n - 2] = '}';
        buf = all;
        len += n - 1;
    }
    /* The bytes count twice: here, and the copy that is sent. */
    if (rc == PUZ_OK && api__budget_left(c) != 0
        && len > api__budget_left(c))
        rc = PUZ_ENOMEM;
    if (rc == PUZ_OK) {
        api_answer_bytes(c, 200, "application/json", buf, len);
        return;
    }
    api__too_large(c, rc == PUZ_ERANGE ? len + n : 0, &p);
    api_answer_problem(c, &p);
}

/* What the solve route hands its work. */
struct solve_state {
    struct api_solve_request q;
    uint64_t deadline_us;       /* absolute; the queue wait counts */
};

/* The body into (*sp)->q: the fast way when it is the common {"board":
 * "..."}, else parsed and checked in full. False when answered (the
 * server draining, a problem). */
static bool solve_decode(struct api_call *c, struct solve_state **sp)
{
    struct api_solve_request q;
    struct api_problem p;
    json_t *root;
    puz_err rc;

    struct api_solve_caps caps = api_limits_solve_caps(c->ctx->lim, false);

    if (!api_decode_solve_fast(c->rq.body, c->rq.len, &caps, &q)) {
        if (!api__open(c, sizeof(**sp), (void **)sp, &root))
            return false;
        rc = api_decode_solve(root, &caps, &(*sp)->q, &p);
        return api__decoded(c, root, rc, &p);
    }
    if (api__refuse_when_draining(c))
        return false;
    *sp = puz_arena_calloc(c->arena, 1, sizeof(**sp));
    if (*sp == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return false;
    }
    (*sp)->q = q;
    return true;
}

/* Search with o (api__request_opts of c's state) and answer. */
static void solve_answer(struct api_call *c, struct puz_solve_opts *o,
                         bool instant)
{
    const struct solve_state *s = c->state;
    struct puz_result res;
    struct api_problem p;
    json_t *extra;
    puz_err rc;

    memset(&res, 0, sizeof(res));
    rc = search(c, &s->q.board, o, instant, &res);
    if (rc == PUZ_OK)
        api__record(c, &res);
    if (api__solve_problem(c, rc, &res, &p)) {
        api_answer_problem(c, &p);
        return;
    }
    extra = trace_json(&s->q, o->trace);
    answer_result(c, &s->q.board, &res, s->q.include_path, extra);
    json_decref(extra);
}

/*
 * When one solve of q must end: its timeout_ms from now, or, when the
 * request named none and the search that will run is the anytime one
 * (auto on 5x5 and up, and on the rectangles no table serves), which
 * spends its whole budget shortening its path, API_ANYTIME_DEFAULT_MS
 * (docs/large.md). The loaded tables decide which search that is: a
 * 2x8 they serve is an optimal IDA* and keeps the whole timeout.
 */
uint64_t api__solve_deadline(const struct api_call *c,
                             const struct api_solve_request *q)
{
    unsigned ms = q->timeout_ms;
    struct puz_board goal;

    if (!q->timeout_set && ms > API_ANYTIME_DEFAULT_MS &&
        (q->has_goal || puz_board_goal_of(&q->board, &goal) == PUZ_OK) &&
        puz_algorithm_resolve_tables(
            q->algorithm, puz_board_rows(&q->board), q->board.n,
            puz_tables_serves(c->ctx->tables,
                              q->has_goal ? &q->goal : &goal)) ==
            PUZ_ALG_ANYTIME)
        ms = API_ANYTIME_DEFAULT_MS;
    return api__deadline_in(ms);
}

void api__solve(struct api_call *c)
{
    struct solve_state *s = NULL;
    struct puz_solve_opts o;

    if (!solve_decode(c, &s) || !api__solve_check(c, &s->q))
        return;
    s->deadline_us = api__solve_deadline(c, &s->q);
    c->state = s;
    /* A walk down the exact 3x3 table costs less than handing it to a
     * worker and back (two thread wake-ups): answered here. */
    if (s->q.trace || s->q.effort)
        return;
    api__request_opts(c, &s->q, s->deadline_us, &o);
    if (puz_solve_instant(&s->q.board, &o))
        solve_answer(c, &o, true);
}

void api__solve_work(struct api_call *c)
{
    const struct solve_state *s = c->state;
    struct puz_solve_opts o;

    api__request_opts(c, &s->q, s->deadline_us, &o);
    if (s->q.trace || s->q.effort)
        o.trace = puz_trace_create(c->arena, s->q.trace);
    solve_answer(c, &o, puz_solve_instant(&s->q.board, &o));
}

void api__solve_run(struct api_call *c, const struct api_solve_request *q)
{
    struct solve_state *s = puz_arena_calloc(c->arena, 1, sizeof(*s));

    if (s == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    s->q = *q;
    s->deadline_us = api__solve_deadline(c, q);
    c->state = s;
    api__solve_work(c);
}

struct batch_state {
    struct api_batch_request b;
    uint64_t deadline_us;       /* the whole batch's */
    unsigned solved, failed;
    char *buf;                  /* the answer: HEAD_ROOM bytes for the
                                 * counts, then the entries so far */
    size_t len, cap;
    size_t least_path;          /* bytes of the smallest entry with a
                                 * path so far, sent or not; 0: none */
};

void api__batch(struct api_call *c)
{
    struct batch_state *s;
    struct api_problem p;
    json_t *root;
    puz_err rc;

    if (!api__open(c, sizeof(*s), (void **)&s, &root))
        return;
    rc = api_decode_batch(root, c->ctx->lim, c->arena, &s->b, &p);
    if (!api__decoded(c, root, rc, &p))
        return;
    s->deadline_us = api__deadline_in(c->ctx->lim->batch_timeout_ms);
    c->state = s;
}

#define ENCODE_FLAGS CODEC_JSON_FLAGS
/* {"count":N,"solved":N,"failed":N,"results":[ with 10-digit counts. */
#define HEAD_ROOM 96
/* Room kept for each entry still to come: a limit_memory entry's. */
#define ENTRY_ROOM 768

/* The answer's buffer holds at least need bytes, if they fit under
 * max_response_bytes and the call's budget, with room in the budget
 * for the whole answer once more (the copy the server sends). */
static bool reserve(struct api_call *c, struct batch_state *s, size_t need)
{
    size_t limit = c->ctx->lim->max_response_bytes + HEAD_ROOM;
    size_t cap = s->cap ? s->cap : 16384, left = api__budget_left(c);
    char *grown;

    if (need <= s->cap)
        return true;
    if (need > limit)
        return false;
    while (cap < need)
        cap *= 2;
    cap = cap < limit ? cap : limit;
    if (left != 0 && (cap > left || cap > left - cap))
        return false;
    grown = puz_arena_alloc(c->arena, cap);
    if (grown == NULL)
        return false;
    if (s->buf != NULL)
        memcpy(grown, s->buf, s->len);
    s->buf = grown;
    s->cap = cap;
    return true;
}

/* Append item's bytes to the answer (after a comma unless it is the
 * first), keeping room under max_response_bytes for the entries still
 * to come; false when they do not fit. */
static bool append_item(struct api_call *c, struct batch_state *s,
                        const json_t *item, size_t later)
{
    size_t n = json_dumpb(item, NULL, 0, ENCODE_FLAGS);
    size_t need = s->len + 1 + n + 2;
    size_t limit = c->ctx->lim->max_response_bytes + HEAD_ROOM;

    if (n == 0 || need > limit || later * ENTRY_ROOM > limit - need
        || !reserve(c, s, need))
        return false;
    if (s->len > HEAD_ROOM)
        s->buf[s->len++] = ',';
    json_dumpb(item, s->buf + s->len, n, ENCODE_FLAGS);
    s->len += n;
    return true;
}

/* Whether the boards of res's path cannot fit in the room left (each
 * cell takes a digit and a comma at least): then its JSON is not even
 * built. */
static bool path_cannot_fit(const struct api_call *c,
                            const struct batch_state *s,
                            const struct puz_board *b, bool include_path,
                            const struct puz_result *res, size_t later)
{
    size_t limit = c->ctx->lim->max_response_bytes + HEAD_ROOM;
    size_t used = s->len + later * ENTRY_ROOM;
    size_t cells = puz_board_cells(b);

    if (!include_path || res->status != PUZ_SOLVED)
        return false;
    return used >= limit
           || ((size_t)res->length + 1) * cells * 2 > limit - used;
}

/* Append res's answer like append_item, written straight into the
 * buffer (codec_result_write): into the room there is, or, when it is
 * longer, again after the buffer has grown to its measured length. */
static bool append_result(struct api_call *c, struct batch_state *s,
                          const struct puz_board *b,
                          const struct puz_result *res, bool include_path,
                          size_t later)
{
    size_t at = s->len + (s->len > HEAD_ROOM), n;
    size_t room = s->cap >= at + 2 ? s->cap - at - 2 : 0;
    size_t limit = c->ctx->lim->max_response_bytes + HEAD_ROOM, need;
    puz_err rc = codec_result_write(b, res, include_path, CODEC_REAL_DIGITS, s->buf + at,
                                    room, &n);

    need = at + n + 2;
    if (need > limit || later * ENTRY_ROOM > limit - need)
        return false;
    if (rc == PUZ_ERANGE) {
        if (!reserve(c, s, need))
            return false;
        codec_result_write(b, res, include_path, CODEC_REAL_DIGITS, s->buf + at, n, &n);
    }
    if (at > s->len)
        s->buf[s->len] = ',';
    s->len = at + n;
    return true;
}

/* At least the bytes of res's path in an entry: a digit and a comma a
 * cell, per board of it. */
static size_t path_bytes(const struct puz_board *b,
                         const struct puz_result *res)
{
    return ((size_t)res->length + 1) * puz_board_cells(b) * 2;
}

static void note_path(struct batch_state *s, size_t bytes)
{
    if (s->least_path == 0 || bytes < s->least_path)
        s->least_path = bytes;
}

/*
 * Whether no entry with a path fits any more: the room left, beyond
 * what the boards still to come keep for themselves, is below the
 * smallest path entry of this batch so far (its boards are alike; an
 * estimate, said in the entries it skips). Then searching the rest would
 * only find paths to drop.
 */
static bool no_room_for_paths(const struct api_call *c,
                              const struct batch_state *s, bool include_path,
                              size_t later)
{
    size_t limit = c->ctx->lim->max_response_bytes + HEAD_ROOM;
    size_t used = s->len + (later + 1) * ENTRY_ROOM;

    return include_path && s->least_path != 0
           && (used >= limit || limit - used < s->least_path);
}

/* What an entry says when its whole answer does not fit: limit_memory,
 * with what the search found but no path. */
static void too_large(const struct puz_result *res, struct puz_result *lim)
{
    *lim = *res;
    no_path(lim, "this board's answer does not fit in the response "
            "(max_response_bytes) or in the memory one request may use "
            "(solve_max_bytes); ask for it alone or without include_path");
}

/* One board of a batch: its search in the scratch arena, then its
 * answer written onto the batch's (a problem's JSON tree in the scratch
 * too), so the batch holds one board's search at a time, and the
 * answer's bytes. */
static bool batch_item(struct api_call *c, struct batch_state *s, size_t i)
{
    struct api_batch_entry *e = &s->b.entries[i];
    const struct api_solve_request *q = &s->b.opts;
    uint64_t deadline = api__deadline_in(q->timeout_ms);
    size_t later = s->b.count - i - 1;
    unsigned long failures;
    struct puz_solve_opts o;
    struct puz_result res;
    puz_arena *prev;
    json_t *item;
    bool ok;
    puz_err rc;

    memset(&res, 0, sizeof(res));
    if (e->ok && no_room_for_paths(c, s, q->include_path, later)) {
        /* Nothing with a path can be sent any more: not searched. */
        no_path(&res, "not searched: the answer has no room left for "
                "another path (max_response_bytes); ask for this board "
                "alone or without include_path");
        ok = append_result(c, s, &e->board, &res, false, later);
        return ok;
    }
    if (e->ok) {
        api__request_opts(c, q, deadline < s->deadline_us ? deadline
                     : s->deadline_us, &o);
        rc = api__search(c, &e->board, &o, &res);
        if (rc == PUZ_OK)
            api__record(c, &res);
        e->ok = !api__solve_problem(c, rc, &res, &e->problem);
        if (!e->ok)
            api_problem_point(&e->problem, "/boards/%zu", i);
    }
    puz_arena_set_budget(c->scratch, api__budget_left(c));
    prev = api_jalloc_bind(c->scratch);
    failures = api_jalloc_failures();
    if (!e->ok) {
        item = api_problem_json(&e->problem, NULL, NULL);
        ok = item != NULL && api_jalloc_failures() == failures
             && append_item(c, s, item, later);
    } else {
        size_t before = s->len;
        ok = !path_cannot_fit(c, s, &e->board, q->include_path, &res,
                              later)
             && append_result(c, s, &e->board, &res, q->include_path,
                              later);
        if (q->include_path && res.status == PUZ_SOLVED)
            note_path(s, ok ? s->len - before
                            : path_bytes(&e->board, &res));
    }
    if (!ok && e->ok) {
        struct puz_result lim;
        too_large(&res, &lim);
        ok = append_result(c, s, &e->board, &lim, false, later);
        res.status = PUZ_LIMIT_MEMORY;
    }
    api_jalloc_unbind(prev);
    s->solved += ok && e->ok && res.status == PUZ_SOLVED;
    s->failed += ok && !e->ok;
    puz_arena_reset(c->scratch);
    puz_arena_set_budget(c->scratch, 0);
    return ok;
}

/* The counts go in front of the entries, in the room kept for them. */
static void answer_batch(struct api_call *c, struct batch_state *s)
{
    char head[HEAD_ROOM];
    int n = snprintf(head, sizeof(head), "{\"count\":%zu,\"solved\":%u,"
                     "\"failed\":%u,\"results\":[", s->b.count, s->solved,
                     s->failed);
    char *at = s->buf + HEAD_ROOM - n;

    memcpy(at, head, (size_t)n);
    memcpy(s->buf + s->len, "]}", 2);
    api_answer_bytes(c, 200, "application/json", at,
                     s->len + 2 - (HEAD_ROOM - (size_t)n));
}

void api__batch_work(struct api_call *c)
{
    struct batch_state *s = c->state;
    struct api_problem p;
    bool ok = true;

    s->len = HEAD_ROOM;
    if (c->scratch == NULL)
        c->scratch = puz_arena_create(c->ctx->lim->arena_chunk_bytes);
    ok = c->scratch != NULL && reserve(c, s, HEAD_ROOM + 2);
    for (size_t i = 0; ok && i < s->b.count; i++)
        ok = batch_item(c, s, i);
    if (c->cancel != NULL && atomic_load(c->cancel)) {
        api__cancelled(c, &p);
        api_answer_problem(c, &p);
        return;
    }
    if (!ok) {
        api_problem_set(&p, API_PROBLEM_ANSWER_TOO_LARGE, "the answer "
                         "does not fit in max_response_bytes (%zu) or in "
                         "the memory one request may use (solve_max_bytes, "
                         "%zu); send fewer boards",
                         c->ctx->lim->max_response_bytes,
                         c->ctx->lim->solve_max_bytes);
        api_answer_problem(c, &p);
        return;
    }
    answer_batch(c, s);
}
