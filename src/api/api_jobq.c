/*
 * api_jobq.c - the /v1/jobs routes when jobs are shared through Redis
 * (redis_url set: ctx->jobq, jobq.h): the same requests, checks and
 * JSON as api_jobs.c's, with the job kept in Redis so any instance can
 * answer for it and any instance's job workers run it. The request is
 * decoded and checked here before it is stored, and decoded again by
 * the worker that runs it (api_jobq_run), by the same decoder, so a
 * job's result is byte for byte /v1/solve's answer on every instance.
 *
 * A job with "threads" shares its IDA* iterations' work units with
 * every instance's job workers (units_via, jobq_units_run).
 *
 * Redis down: every route answers 503 (unavailable, with Retry-After)
 * at once; /v1/solve never touches Redis.
 */
#include "api_int.h"

#include <stdlib.h>
#include <string.h>

#include "jobq.h"

#define API_JOBQ_CANCEL_WAIT_MS 1000

/* A job's request as its worker decoded it, and where its parallel
 * IDA*'s units go. */
struct jobq_solve {
    struct api_solve_request q;
    bool decoded;
    const struct jobq_run *run;
    struct puz_board goal;
    struct jobq_units units;
};

static void jobq_progress(const struct puz_progress *p, void *user)
{
    jobq_run_progress(user, p);
}

/* A job with "threads": its units go to every instance's workers
 * through the shared queue (jobq.h), when the tables serve its goal. */
static void units_via(const struct api_call *c,
                      const struct api_solve_request *q,
                      struct puz_solve_opts *o)
{
    struct jobq_solve *js = c->units_user;
    const char *tables;

    if (q->has_goal)
        js->goal = q->goal;
    else if (puz_board_goal_of(&q->board, &js->goal) != PUZ_OK)
        return;
    tables = jobq_units_tables(c->ctx->tables, &js->goal);
    if (tables[0] == '\0')
        return;
    js->units = (struct jobq_units){ c->ctx->jobq, js->run->job,
                                     js->run->cancel, &q->board, &js->goal,
                                     "", q->threads };
    snprintf(js->units.tables, sizeof(js->units.tables), "%s", tables);
    o->run = jobq_units_run;
    o->run_user = &js->units;
}

/* Decode (the problem answered when the stored body is bad: the job
 * fails with it), then /v1/solve's work. */
static void jobq_work(struct api_call *c)
{
    struct jobq_solve *js = c->state;

    c->units_via = units_via;
    c->units_user = js;
    if (api__jobs_decode(c, &js->q))
        api__jobs_work(c, &js->q);
}

static const struct api_route jobq_route = {
    "POST", "/v1/jobs", true, NULL, jobq_work,
};

void api_jobq_run(void *user, const char *body, size_t len,
                  const struct jobq_run *run, struct jobs_outcome *out)
{
    const struct api_ctx *ctx = user;
    const struct api_request rq = { .path = "/v1/jobs", .id = "-",
                                    .body = body, .len = len };
    struct jobq_solve js;

    memset(&js, 0, sizeof(js));
    js.run = run;
    api__jobs_run(ctx, &jobq_route, &rq, &js, run->cancel, jobq_progress,
                  (void *)run, out);
}

/* Redis failed: 503 with Retry-After (api.c adds it to every 503). */
static void unavailable(struct api_call *c, const char *msg)
{
    api_answer_problemf(c, API_PROBLEM_UNAVAILABLE, "jobs are kept in the "
                        "shared store, which cannot be reached now (%s); "
                        "retry after the delay in Retry-After", msg);
}

/* Why a submission was refused: 503 (Redis full or away, the queue
 * full) or 429 (the key's cap). */
static void refused(struct api_call *c, puz_err rc, const char *msg)
{
    const struct api_limits *lim = c->ctx->lim;

    if (rc == PUZ_EFULL && msg[0] != '\0')      /* Redis itself */
        api_answer_problemf(c, API_PROBLEM_UNAVAILABLE, "no job is taken "
                            "now: %s; retry after the delay in "
                            "Retry-After", msg);
    else if (rc == PUZ_EFULL)
        api_answer_problemf(c, API_PROBLEM_OVERLOADED, "%u jobs are "
                            "waiting across the instances (or %u are "
                            "held); retry after the delay in Retry-After",
                            lim->job_queue, lim->job_max);
    else if (rc == PUZ_ELIMITED)
        api_answer_problemf(c, API_PROBLEM_RATE_LIMITED, "the key %s has "
                            "%u jobs queued or running, its limit; wait "
                            "for one to end or cancel one", c->key->name,
                            c->key->jobs);
    else
        unavailable(c, msg);
}

void api__jobq_submit(struct api_call *c)
{
    const struct api_key *key = c->key;
    struct api_solve_request q;
    struct jobs_idem idem;
    enum jobs_idem_found how = JOBS_IDEM_NEW;
    struct jobs_view v;
    char id[JOBS_ID_LEN + 1], msg[PUZ_MSG_MAX] = "", *result = NULL;
    bool found = false;
    puz_err rc;

    if (api__refuse_when_draining(c) || !api__jobs_idem(c, &idem)
        || !api__jobs_decode(c, &q))
        return;
    rc = jobq_submit_idem(c->ctx->jobq, c->rq.body, c->rq.len,
                          key != NULL ? key->name : "",
                          key != NULL ? key->jobs : 0, &idem, id, &how,
                          msg);
    if (rc == PUZ_OK && how == JOBS_IDEM_MISMATCH) {
        api__jobs_idem_reused(c);
        return;
    }
    /* A replay shows the key's job as it is now, its answer too. */
    if (rc == PUZ_OK)
        rc = jobq_find(c->ctx->jobq, id, &v, how == JOBS_IDEM_REPLAY
                       ? &result : NULL, &found, msg);
    if (rc != PUZ_OK || !found) {
        free(result);
        refused(c, rc, rc == PUZ_OK ? "the job vanished" : msg);
        return;
    }
    if (how == JOBS_IDEM_REPLAY) {
        api__jobs_answer(c, 202, NULL, &v);
        if (c->answer.status == 202)
            api__jobs_replayed(c);
        free(result);
        return;
    }
    /* Shown as accepted: queued, whatever a worker did since. */
    if (v.state != JOBS_QUEUED) {
        memset(&v.progress, 0, sizeof(v.progress));
        v.state = JOBS_QUEUED;
        v.started_ms = v.finished_ms = 0;
        v.elapsed_us = 0;
        v.attempts = 0;
    }
    api__jobs_answer(c, 202, NULL, &v);
}

/* The job of the call's "{id}" (v; its answer in *result when result
 * is not NULL), the caller allowed to see it; else false with the 404
 * or 503 answered. */
static bool find(struct api_call *c, struct jobs_view *v, char **result)
{
    const char *id = api_path_param(c, "id");
    char msg[PUZ_MSG_MAX] = "";
    bool found = false;
    puz_err rc = PUZ_OK;

    if (result != NULL)
        *result = NULL;
    if (id == NULL || strlen(id) != JOBS_ID_LEN
        || strspn(id, "0123456789abcdef") != JOBS_ID_LEN)
        id = "";        /* cannot be an id: unknown, nothing more */
    if (id[0] != '\0')
        rc = jobq_find(c->ctx->jobq, id, v, result, &found, msg);
    if (rc != PUZ_OK) {
        unavailable(c, msg);
        return false;
    }
    if (found && !api__jobs_may_see(c, v->owner)) {
        free(result != NULL ? *result : NULL);
        if (result != NULL)
            *result = NULL;
        found = false;  /* another key's: as if it did not exist */
    }
    if (!found)
        api_answer_problemf(c, API_PROBLEM_NOT_FOUND, "no job %s: "
                            "unknown, or finished more than %u s ago and "
                            "forgotten", id[0] ? id : "with this id",
                            c->ctx->lim->job_ttl_s);
    return found;
}

bool api_jobq_find(struct api_call *c, char *id)
{
    struct jobs_view v;

    if (!find(c, &v, NULL))
        return false;
    memcpy(id, v.id, JOBS_ID_LEN + 1);
    return true;
}

void api__jobq_get(struct api_call *c)
{
    struct jobs_view v;
    char *result;

    if (!find(c, &v, &result))
        return;
    /* The answer is copied into the call's arena, under its budget. */
    api__jobs_answer(c, 200, NULL, &v);
    free(result);
}

void api__jobq_delete(struct api_call *c)
{
    struct jobs_view v;
    char msg[PUZ_MSG_MAX] = "";
    int what = 0;

    if (!find(c, &v, NULL))
        return;
    if (jobq_cancel(c->ctx->jobq, v.id, "cancelled by the client",
                    API_JOBQ_CANCEL_WAIT_MS, &what, msg) != PUZ_OK) {
        unavailable(c, msg);
        return;
    }
    if (what == 2)
        api_answer_bytes(c, 204, NULL, NULL, 0);
    else if (find(c, &v, NULL))     /* else gone meanwhile: the 404 */
        api__jobs_answer(c, 200, NULL, &v);
}

void api__jobq_list(struct api_call *c)
{
    const char *owner;
    struct jobs_view *v;
    char msg[PUZ_MSG_MAX] = "";
    json_t *list;
    size_t n = 0;
    int state;
    unsigned limit;

    if (!api__jobs_list_query(c, &state, &limit)
        || !api__jobs_list_owner(c, &owner))
        return;
    v = puz_arena_alloc(c->arena, limit * sizeof(*v));
    if (v == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    if (jobq_list(c->ctx->jobq, state, owner, v, limit, &n, msg)
        != PUZ_OK) {
        unavailable(c, msg);
        return;
    }
    list = json_array();
    for (size_t i = 0; list != NULL && i < n; i++)
        json_array_append_new(list, api__job_json(&v[i]));
    if (list == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    api_answer_json(c, 200, json_pack("{s:o, s:I, s:I}", "jobs", list,
                                      "count", (json_int_t)n, "limit",
                                      (json_int_t)limit));
}
