/*
 * solve.c - the routes that search: /v1/solve, /v1/solve/batch and the
 * optimal count of /v1/score, plus /v1/puzzles/random.
 *
 * Decoding and validation run on the network thread (cheap, and a bad
 * request is answered without ever queueing). The search runs on a
 * worker: the handler builds a job in the request's arena, suspends the
 * connection and submits; the worker solves, builds the reply and
 * resumes the connection, after which it never touches the request.
 */
#include "http_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codec_trace.h"
#include "http_decode.h"
#include "http_jalloc.h"
#include "puz_random.h"
#include "puz_solve.h"

enum job_kind { JOB_SOLVE, JOB_BATCH, JOB_SCORE };

/* /v1/score: the replay is done on the network thread, the optimal
 * count (when no table knows it) on a worker. */
struct score_state {
    struct http_score_request req;
    bool legal, solved;
    size_t player_moves;
    size_t illegal_index;
    char illegal_reason[160];
};

struct http_job {
    struct pool_job base;       /* first: the pool hands this back */
    struct http_req *req;
    enum job_kind kind;
    uint64_t deadline_us;       /* absolute; queue wait counts */
    union {
        struct http_solve_request solve;
        struct http_batch_request batch;
        struct score_state score;
    } u;
};

static bool refuse_when_draining(struct http_req *r)
{
    if (!atomic_load(&r->srv->draining))
        return false;
    http__reply_problemf(r, HTTP_PROBLEM_SHUTTING_DOWN, "the server is "
                         "shutting down; retry on another instance or "
                         "after the restart");
    return true;
}

static bool parse_body(struct http_req *r, json_t **root)
{
    struct http_problem p;

    if (http_decode_json(r->body, r->body_len, r->srv->cfg.json_max_depth,
                         root, &p) == PUZ_OK)
        return true;
    http__reply_problem(r, &p);
    return false;
}

static void job_run(struct pool_job *pj, unsigned worker);
static void job_done(struct pool_job *pj);

static struct http_job *job_new(struct http_req *r, enum job_kind kind)
{
    struct http_job *j = puz_arena_calloc(r->arena, 1, sizeof(*j));

    if (j == NULL) {
        http__reply_problemf(r, HTTP_PROBLEM_INTERNAL, "out of memory");
        return NULL;
    }
    j->base.run = job_run;
    j->base.done = job_done;
    j->req = r;
    j->kind = kind;
    return j;
}

/*
 * Hand the request to a worker. The connection is suspended before the
 * job is visible to any worker, so a resume can never come first. When
 * the queue refuses, the 503 goes out at once: resume, and MHD calls
 * the handler again to queue it. Either way the caller must not touch r.
 */
static bool submit(struct http_req *r, struct http_job *j)
{
    pool_err rc;

    MHD_suspend_connection(r->conn);
    rc = pool_submit(r->srv->pool, &j->base);
    if (rc == POOL_OK)
        return true;
    if (rc == POOL_EFULL)
        http__reply_problemf(r, HTTP_PROBLEM_OVERLOADED, "all %u solver "
                             "threads are busy and %u solves are waiting; "
                             "retry after the delay in Retry-After",
                             r->srv->workers, r->srv->cfg.queue);
    else
        http__reply_problemf(r, HTTP_PROBLEM_SHUTTING_DOWN, "the server "
                             "is shutting down and takes no new solves");
    MHD_resume_connection(r->conn);
    return true;
}

static void solve_opts(const struct http_job *j,
                       const struct http_solve_request *q,
                       uint64_t deadline, struct puz_solve_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->algorithm = q->algorithm;
    o->heuristic = q->heuristic;
    o->goal = q->has_goal ? &q->goal : NULL;
    o->tables = j->req->srv->tables;
    o->limits.max_nodes = q->max_nodes;
    o->limits.max_bytes = j->req->srv->cfg.solve_max_bytes;
    o->limits.deadline_us = deadline;
    o->limits.cancel = &j->base.cancel;
    o->limits.max_depth = q->max_depth;
    o->weight = q->weight;
}

/* A solve that produced no answer to show; false when res is good. */
static bool solve_problem(puz_err rc, const struct puz_result *res,
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

static void record(struct http_req *r, const struct puz_result *res)
{
    r->expanded += res->stats.expanded;
    http_metrics_solve(r->srv->metrics, res->status, res->stats.time_us,
                       res->stats.expanded);
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

static void run_solve(struct http_job *j)
{
    struct http_req *r = j->req;
    const struct http_solve_request *q = &j->u.solve;
    struct puz_solve_opts o;
    struct puz_result res;
    struct http_problem p;
    puz_err rc;

    solve_opts(j, q, j->deadline_us, &o);
    if (q->trace || q->effort)
        o.trace = puz_trace_create(r->arena, q->trace);
    memset(&res, 0, sizeof(res));
    rc = puz_solve(&q->board, &o, r->arena, &res);
    if (rc == PUZ_OK)
        record(r, &res);
    if (solve_problem(rc, &res, &p)) {
        http__reply_problem(r, &p);
        return;
    }
    http__reply_json(r, 200, with_trace(codec_result_json(&q->board, &res,
                                                          q->include_path),
                                        q, o.trace));
}

/* One board of a batch, solved in a scratch arena so the batch's
 * memory is one board's, not the sum of all. */
static json_t *batch_item(struct http_job *j, struct http_batch_entry *e,
                          size_t i, unsigned *solved, unsigned *failed)
{
    struct http_solve_request q = j->u.batch.opts;
    uint64_t deadline = puz_now_us() + (uint64_t)q.timeout_ms * 1000u;
    puz_arena *a = NULL;
    struct puz_solve_opts o;
    struct puz_result res;
    json_t *item = NULL;
    puz_err rc = PUZ_ENOMEM;

    memset(&res, 0, sizeof(res));
    if (e->ok) {
        a = http__arena_get(j->req->srv);
        solve_opts(j, &q, deadline < j->deadline_us ? deadline
                   : j->deadline_us, &o);
        rc = a != NULL ? puz_solve(&e->board, &o, a, &res) : PUZ_ENOMEM;
        if (rc == PUZ_OK)
            record(j->req, &res);
        e->ok = !solve_problem(rc, &res, &e->problem);
        if (!e->ok)
            http_problem_point(&e->problem, "/boards/%zu", i);
    }
    if (e->ok) {
        item = codec_result_json(&e->board, &res, q.include_path);
        *solved += res.status == PUZ_SOLVED;
    } else {
        item = http_problem_json(&e->problem, NULL, NULL);
        (*failed)++;
    }
    http__arena_put(j->req->srv, a);
    return item != NULL ? item : json_null();
}

static void run_batch(struct http_job *j)
{
    struct http_batch_request *b = &j->u.batch;
    unsigned solved = 0, failed = 0;
    json_t *results = json_array();

    for (size_t i = 0; results != NULL && i < b->count; i++)
        json_array_append_new(results, batch_item(j, &b->entries[i], i,
                                                  &solved, &failed));
    if (atomic_load(&j->base.cancel)) {
        json_decref(results);
        http__reply_problemf(j->req, HTTP_PROBLEM_SHUTTING_DOWN, "the "
                             "server is shutting down; this batch was "
                             "cancelled");
        return;
    }
    http__reply_json(j->req, 200, json_pack("{s:I, s:I, s:I, s:o}",
                     "count", (json_int_t)b->count, "solved",
                     (json_int_t)solved, "failed", (json_int_t)failed,
                     "results", results));
}

static void reply_score(struct http_req *r, const struct score_state *s,
                        bool known, unsigned optimal)
{
    json_t *o, *score = json_null();

    if (known && (!s->legal || !s->solved))
        score = json_real(0.0);
    else if (known)
        score = json_real(s->player_moves == 0 ? 1.0
                          : (double)optimal / (double)s->player_moves);
    o = json_pack("{s:b, s:b, s:I, s:o, s:o}", "legal", s->legal,
                  "solved", s->solved, "player_moves",
                  (json_int_t)s->player_moves, "optimal_moves",
                  known ? json_integer(optimal) : json_null(),
                  "score", score);
    if (o != NULL && !s->legal)
        json_object_set_new(o, "illegal_move", json_pack("{s:I, s:s}",
                            "index", (json_int_t)s->illegal_index,
                            "reason", s->illegal_reason));
    http__reply_json(r, 200, o);
}

static void run_score(struct http_job *j)
{
    struct score_state *s = &j->u.score;
    struct http_solve_request q;
    struct puz_solve_opts o;
    struct puz_result res;
    struct http_problem p;
    puz_err rc;

    memset(&q, 0, sizeof(q));
    q.has_goal = s->req.has_goal;
    q.goal = s->req.goal;
    q.max_nodes = j->req->srv->cfg.solve_max_nodes;
    solve_opts(j, &q, j->deadline_us, &o);
    memset(&res, 0, sizeof(res));
    rc = puz_solve(&s->req.board, &o, j->req->arena, &res);
    if (rc == PUZ_OK)
        record(j->req, &res);
    if (solve_problem(rc, &res, &p)) {
        http__reply_problem(j->req, &p);
        return;
    }
    reply_score(j->req, s, res.status == PUZ_SOLVED && res.optimal,
                res.length);
}

static void job_run(struct pool_job *pj, unsigned worker)
{
    struct http_job *j = (struct http_job *)pj;
    puz_arena *prev = http_jalloc_bind(j->req->arena);

    (void)worker;
    if (atomic_load(&j->base.cancel))
        http__reply_problemf(j->req, HTTP_PROBLEM_SHUTTING_DOWN, "the "
                             "server is shutting down; this request was "
                             "cancelled before it started");
    else if (j->kind == JOB_SOLVE)
        run_solve(j);
    else if (j->kind == JOB_BATCH)
        run_batch(j);
    else
        run_score(j);
    http_jalloc_unbind(prev);
}

static void job_done(struct pool_job *pj)
{
    struct http_job *j = (struct http_job *)pj;

    /* The last touch: from here the request (and j, in its arena)
     * belongs to the network thread again. */
    MHD_resume_connection(j->req->conn);
}

static uint64_t deadline_in(unsigned ms)
{
    return puz_now_us() + (uint64_t)ms * 1000u;
}

bool http__handle_solve(struct http_req *r)
{
    struct http_solve_request *q;
    struct http_problem p;
    struct http_job *j;
    json_t *root;
    puz_err rc;

    if (refuse_when_draining(r) || !parse_body(r, &root))
        return false;
    j = job_new(r, JOB_SOLVE);
    q = j != NULL ? &j->u.solve : NULL;
    rc = q != NULL ? http_decode_solve(root, &r->srv->cfg, q, &p)
                   : PUZ_ENOMEM;
    json_decref(root);
    if (rc == PUZ_OK)
        rc = http_decode_solvable(&q->board, q->has_goal ? &q->goal : NULL,
                                  &p);
    if (rc != PUZ_OK) {
        if (j != NULL)
            http__reply_problem(r, &p);
        return false;
    }
    j->deadline_us = deadline_in(q->timeout_ms);
    return submit(r, j);
}

bool http__handle_batch(struct http_req *r)
{
    struct http_problem p;
    struct http_job *j;
    json_t *root;
    puz_err rc;

    if (refuse_when_draining(r) || !parse_body(r, &root))
        return false;
    j = job_new(r, JOB_BATCH);
    rc = j != NULL ? http_decode_batch(root, &r->srv->cfg, r->arena,
                                       &j->u.batch, &p)
                   : PUZ_ENOMEM;
    json_decref(root);
    if (rc != PUZ_OK) {
        if (j != NULL)
            http__reply_problem(r, &p);
        return false;
    }
    j->deadline_us = deadline_in(r->srv->cfg.batch_timeout_ms);
    return submit(r, j);
}

static void illegal(struct score_state *s, size_t i,
                    const struct http_move *m)
{
    s->legal = false;
    s->illegal_index = i;
    if (m->is_tile)
        snprintf(s->illegal_reason, sizeof(s->illegal_reason), "moves[%zu]: "
                 "tile %u is not next to the blank", i, m->tile);
    else
        snprintf(s->illegal_reason, sizeof(s->illegal_reason), "moves[%zu]: "
                 "the blank cannot move %s from where it is", i,
                 puz_dir_name(m->dir));
}

/* Play the moves; the first illegal one ends the replay. */
static void replay(struct score_state *s)
{
    struct puz_board b = s->req.board, goal;
    enum puz_dir d;
    size_t i;

    s->legal = true;
    for (i = 0; i < s->req.count; i++) {
        const struct http_move *m = &s->req.moves[i];

        d = m->dir;
        if ((m->is_tile && puz_board_dir_of_tile(&b, m->tile, &d) != PUZ_OK)
            || !puz_board_can_move(&b, d)) {
            illegal(s, i, m);
            break;
        }
        puz_board_move(&b, d);
    }
    s->player_moves = i;
    if (s->req.has_goal)
        goal = s->req.goal;
    else
        puz_board_goal(b.n, &goal);
    s->solved = s->legal && puz_board_equal(&b, &goal);
}

bool http__handle_score(struct http_req *r)
{
    struct score_state *s;
    struct puz_board goal;
    struct http_problem p;
    struct http_job *j;
    unsigned d;
    json_t *root;
    puz_err rc;

    if (refuse_when_draining(r) || !parse_body(r, &root))
        return false;
    j = job_new(r, JOB_SCORE);
    s = j != NULL ? &j->u.score : NULL;
    rc = s != NULL ? http_decode_score(root, &r->srv->cfg, r->arena,
                                       &s->req, &p)
                   : PUZ_ENOMEM;
    json_decref(root);
    if (rc == PUZ_OK)
        rc = http_decode_solvable(&s->req.board, s->req.has_goal
                                  ? &s->req.goal : NULL, &p);
    if (rc != PUZ_OK) {
        if (j != NULL)
            http__reply_problem(r, &p);
        return false;
    }
    replay(s);
    if (s->req.has_goal)
        goal = s->req.goal;
    else
        puz_board_goal(s->req.board.n, &goal);
    /* 3x3: the exact table answers at once, no worker needed. */
    if (puz_tables_distance3(r->srv->tables, &s->req.board, &goal, &d)
        == PUZ_OK) {
        reply_score(r, s, true, d);
        return false;
    }
    j->deadline_us = deadline_in(r->srv->cfg.solve_timeout_ms);
    return submit(r, j);
}
