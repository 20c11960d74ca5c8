/*
 * api_solve.c - POST /v1/solve and POST /v1/solve/batch, and the steps
 * every route that searches shares (options, problems, counting).
 *
 * The route functions decode and check the body; the work functions
 * search (on a worker in the server) and encode the result.
 */
#include "api_int.h"

#include <string.h>

#include "codec.h"
#include "codec_trace.h"

void api__solve_opts(const struct api_call *c, uint64_t deadline_us,
                     struct puz_solve_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->tables = c->ctx->tables;
    o->limits.max_bytes = c->ctx->cfg->solve_max_bytes;
    o->limits.deadline_us = deadline_us;
    o->limits.cancel = c->cancel;
}

/* The client's options on top of the common ones. */
static void request_opts(const struct api_call *c,
                         const struct http_solve_request *q,
                         uint64_t deadline_us, struct puz_solve_opts *o)
{
    api__solve_opts(c, deadline_us, o);
    o->algorithm = q->algorithm;
    o->heuristic = q->heuristic;
    o->goal = q->has_goal ? &q->goal : NULL;
    /* every board reaching a search passed http_decode_solvable */
    o->solvable_known = true;
    o->limits.max_nodes = q->max_nodes;
    o->limits.max_depth = q->max_depth;
    o->weight = q->weight;
}

bool api__solve_problem(puz_err rc, const struct puz_result *res,
                        struct http_problem *p)
{
    if (rc == PUZ_EINVAL)
        http_problem_set(p, HTTP_PROBLEM_INVALID_OPTION, "%s",
                         res->reason[0] ? res->reason
                         : "these options do not fit this board");
    else if (rc != PUZ_OK)
        http_problem_set(p, HTTP_PROBLEM_INTERNAL, "the solver failed: %s",
                         puz_strerror(rc));
    else if (res->status == PUZ_CANCELLED)
        http_problem_set(p, HTTP_PROBLEM_SHUTTING_DOWN, "the server is "
                         "shutting down; this solve was cancelled");
    else if (res->status == PUZ_UNSOLVABLE)
        http_problem_set(p, HTTP_PROBLEM_UNSOLVABLE, "%s", res->reason);
    else
        return false;
    return true;
}

void api__record(struct api_call *c, const struct puz_result *res)
{
    c->answer.expanded += res->stats.expanded;
    if (c->ctx->on_search != NULL)
        c->ctx->on_search(c->ctx->user, res);
}

/* Adds "trace" and "effort" to a /v1/solve answer when the request
 * asked for them. */
static json_t *with_trace(json_t *reply, const struct http_solve_request *q,
                          const puz_trace *t)
{
    if (reply != NULL && q->trace)
        json_object_set_new(reply, "trace",
                            t != NULL ? codec_trace_json(t, q->board.n)
                                      : json_array());
    if (reply != NULL && q->effort)
        json_object_set_new(reply, "effort", codec_effort_json(t));
    return reply;
}

/* The answer's bytes written directly into the arena (no JSON tree:
 * the same bytes as api_answer_json of codec_result_json). */
static void answer_result(struct api_call *c, const struct puz_board *b,
                          const struct puz_result *res, bool include_path)
{
    char *buf;
    size_t len;

    if (codec_result_bytes(b, res, include_path, 6, 0, c->arena, &buf,
                           &len) != PUZ_OK)
        api_answer_problemf(c, HTTP_PROBLEM_INTERNAL, "out of memory for "
                            "the answer (%zu bytes)", len);
    else
        api_answer_bytes(c, 200, "application/json", buf, len);
}

/* What the solve route hands its work. */
struct solve_state {
    struct http_solve_request q;
    uint64_t deadline_us;       /* absolute; the queue wait counts */
};

void api__solve(struct api_call *c)
{
    struct solve_state *s;
    struct http_problem p;
    json_t *root;
    puz_err rc;

    if (!api__open(c, sizeof(*s), (void **)&s, &root))
        return;
    rc = http_decode_solve(root, c->ctx->cfg, &s->q, &p);
    if (rc == PUZ_OK)
        rc = http_decode_solvable(&s->q.board, s->q.has_goal ? &s->q.goal
                                  : NULL, &p);
    if (!api__decoded(c, root, rc, &p))
        return;
    s->deadline_us = api__deadline_in(s->q.timeout_ms);
    c->state = s;
}

void api__solve_work(struct api_call *c)
{
    const struct solve_state *s = c->state;
    struct puz_solve_opts o;
    struct puz_result res;
    struct http_problem p;
    puz_err rc;

    request_opts(c, &s->q, s->deadline_us, &o);
    if (s->q.trace || s->q.effort)
        o.trace = puz_trace_create(c->arena, s->q.trace);
    memset(&res, 0, sizeof(res));
    rc = puz_solve(&s->q.board, &o, c->arena, &res);
    if (rc == PUZ_OK)
        api__record(c, &res);
    if (api__solve_problem(rc, &res, &p)) {
        api_answer_problem(c, &p);
        return;
    }
    if (s->q.trace || s->q.effort)
        api_answer_json(c, 200, with_trace(codec_result_json(&s->q.board,
                                                             &res,
                                                             s->q.include_path),
                                           &s->q, o.trace));
    else
        answer_result(c, &s->q.board, &res, s->q.include_path);
}

struct batch_state {
    struct http_batch_request b;
    uint64_t deadline_us;       /* the whole batch's */
    puz_arena *scratch;         /* one board's search at a time */
    unsigned solved, failed;
};

void api__batch(struct api_call *c)
{
    struct batch_state *s;
    struct http_problem p;
    json_t *root;
    puz_err rc;

    if (!api__open(c, sizeof(*s), (void **)&s, &root))
        return;
    rc = http_decode_batch(root, c->ctx->cfg, c->arena, &s->b, &p);
    if (!api__decoded(c, root, rc, &p))
        return;
    s->deadline_us = api__deadline_in(c->ctx->cfg->batch_timeout_ms);
    c->state = s;
}

/* One board of a batch, solved in the scratch arena (reset after each
 * board) so the batch's memory is one board's, not the sum of all. */
static json_t *batch_item(struct api_call *c, struct batch_state *s,
                          size_t i)
{
    struct http_batch_entry *e = &s->b.entries[i];
    const struct http_solve_request *q = &s->b.opts;
    uint64_t deadline = api__deadline_in(q->timeout_ms);
    struct puz_solve_opts o;
    struct puz_result res;
    json_t *item;
    puz_err rc;

    memset(&res, 0, sizeof(res));
    if (e->ok) {
        request_opts(c, q, deadline < s->deadline_us ? deadline
                     : s->deadline_us, &o);
        rc = s->scratch != NULL ? puz_solve(&e->board, &o, s->scratch, &res)
                                : PUZ_ENOMEM;
        if (rc == PUZ_OK)
            api__record(c, &res);
        e->ok = !api__solve_problem(rc, &res, &e->problem);
        if (!e->ok)
            http_problem_point(&e->problem, "/boards/%zu", i);
    }
    if (e->ok) {
        item = codec_result_json(&e->board, &res, q->include_path);
        s->solved += res.status == PUZ_SOLVED;
    } else {
        item = http_problem_json(&e->problem, NULL, NULL);
        s->failed++;
    }
    if (s->scratch != NULL) {
        puz_arena_reset(s->scratch);
        puz_arena_set_budget(s->scratch, 0);
    }
    return item != NULL ? item : json_null();
}

void api__batch_work(struct api_call *c)
{
    struct batch_state *s = c->state;
    json_t *results = json_array();

    s->scratch = puz_arena_create(c->ctx->cfg->arena_chunk_bytes);
    for (size_t i = 0; results != NULL && i < s->b.count; i++)
        json_array_append_new(results, batch_item(c, s, i));
    puz_arena_destroy(s->scratch);
    s->scratch = NULL;
    if (c->cancel != NULL && atomic_load(c->cancel)) {
        json_decref(results);
        api_answer_problemf(c, HTTP_PROBLEM_SHUTTING_DOWN, "the server is "
                            "shutting down; this batch was cancelled");
        return;
    }
    api_answer_json(c, 200, json_pack("{s:I, s:I, s:I, s:o}",
                    "count", (json_int_t)s->b.count, "solved",
                    (json_int_t)s->solved, "failed", (json_int_t)s->failed,
                    "results", results));
}
