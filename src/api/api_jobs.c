/*
 * api_jobs.c - the JSON routes of /v1/jobs: submit (POST /v1/jobs), list
 * (GET /v1/jobs), read (GET /v1/jobs/{id}) and cancel or forget (DELETE
 * /v1/jobs/{id}). All answer on the calling thread: the search runs on
 * the jobs' own workers (src/jobs/), and a DELETE waits at most
 * API_JOBS_CANCEL_WAIT_MS for the worker to stop. The event stream
 * (GET /v1/jobs/{id}/events) streams, so it stays in the glue
 * (src/http/jobs_stream.c); it finds its job with api_jobs_find.
 */
#include "api_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

#define API_JOBS_CANCEL_WAIT_MS 1000
#define API_JOBS_PAGE_DEFAULT 20
#define API_JOBS_PAGE_MAX 100

/* The body of POST /v1/solve, with the job caps in place of the solve
 * caps: a job may ask for up to job_timeout_ms and job_max_nodes. */
static bool decode_job(struct api_call *c, struct http_solve_request *q)
{
    struct http_config caps = *c->ctx->cfg;
    struct api_problem p;
    json_t *root = NULL;
    puz_err rc;

    if (!api__parse_body(c, &root))
        return false;
    caps.solve_timeout_ms = caps.job_timeout_ms;
    caps.solve_max_nodes = caps.job_max_nodes;
    rc = api_decode_solve(root, &caps, q, &p);
    json_decref(root);
    if (rc != PUZ_OK)
        api_answer_problem(c, &p);
    return rc == PUZ_OK;
}

/* The job (body NULL: as it is now), with Location on a 202. */
static void answer_job(struct api_call *c, unsigned status, jobs_job *job,
                       json_t *body)
{
    char loc[64];

    if (body == NULL)
        body = jobs_job_json(c->ctx->jobs, job, NULL);
    api_answer_json(c, status, body);
    if (status == 202 && c->answer.status == 202) {
        snprintf(loc, sizeof(loc), "/v1/jobs/%s", jobs_id(job));
        api_answer_header(c, "Location", loc);
    }
}

void api__jobs_submit(struct api_call *c)
{
    const struct http_config *cfg = c->ctx->cfg;
    struct http_solve_request q;
    jobs_job *job = NULL;
    json_t *accepted = NULL;
    jobs_err rc;

    if (api__refuse_when_draining(c) || !decode_job(c, &q))
        return;
    rc = jobs_submit(c->ctx->jobs, &q, &job, &accepted);
    if (rc == JOBS_OK)
        answer_job(c, 202, job, accepted);
    else if (rc == JOBS_EFULL)
        api_answer_problemf(c, API_PROBLEM_OVERLOADED, "%u job workers "
                            "are busy and %u jobs are waiting (or %u are "
                            "held); retry after the delay in Retry-After",
                            cfg->job_workers, cfg->job_queue, cfg->job_max);
    else if (rc == JOBS_ECLOSED)
        api_answer_problemf(c, API_PROBLEM_SHUTTING_DOWN, "the server "
                            "is shutting down and takes no new jobs");
    else
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
    jobs_release(c->ctx->jobs, job);
}

/* The value of the first query parameter key, or NULL (also for a key
 * without '='). */
static const char *query_value(const struct api_call *c, const char *key)
{
    for (size_t i = 0; i < c->rq.nquery; i++)
        if (strcmp(c->rq.query[i].key, key) == 0)
            return c->rq.query[i].value;
    return NULL;
}

/* ?state= and ?limit= of the list; false with the 400 answered. */
static bool list_query(struct api_call *c, int *state, unsigned *limit)
{
    const char *s = query_value(c, "state");
    const char *l = query_value(c, "limit");
    char *end;
    unsigned long n;

    *state = s != NULL ? jobs_state_parse(s) : -1;
    if (s != NULL && *state < 0) {
        api_answer_problemf(c, API_PROBLEM_INVALID_QUERY, "state must "
                            "be queued, running, done, cancelled or "
                            "failed, not '%.40s'", s);
        return false;
    }
    *limit = API_JOBS_PAGE_DEFAULT;
    if (l == NULL)
        return true;
    n = strtoul(l, &end, 10);
    if (*l < '0' || *l > '9' || *end != '\0' || n < 1
        || n > API_JOBS_PAGE_MAX) {
        api_answer_problemf(c, API_PROBLEM_INVALID_QUERY, "limit must "
                            "be a whole number from 1 to %d, not '%.40s'",
                            API_JOBS_PAGE_MAX, l);
        return false;
    }
    *limit = (unsigned)n;
    return true;
}

void api__jobs_list(struct api_call *c)
{
    int state;
    unsigned limit;

    if (list_query(c, &state, &limit))
        api_answer_json(c, 200, jobs_list_json(c->ctx->jobs, state, limit));
}

jobs_job *api_jobs_find(struct api_call *c)
{
    const char *id = api_path_param(c, "id");
    jobs_job *job = NULL;

    if (id == NULL || strlen(id) > JOBS_ID_LEN)
        id = "";        /* too long to be an id: unknown, nothing more */
    if (id[0] != '\0' && c->ctx->jobs != NULL)
        job = jobs_find(c->ctx->jobs, id);
    if (job == NULL)
        api_answer_problemf(c, API_PROBLEM_NOT_FOUND, "no job %s: "
                            "unknown, or finished more than %u s ago and "
                            "forgotten", id[0] ? id : "with this id",
                            c->ctx->cfg->job_ttl_s);
    return job;
}

void api__jobs_get(struct api_call *c)
{
    jobs_job *job = api_jobs_find(c);

    if (job != NULL)
        answer_job(c, 200, job, NULL);
    jobs_release(c->ctx->jobs, job);
}

void api__jobs_delete(struct api_call *c)
{
    jobs_job *job = api_jobs_find(c);
    jobs_err rc;

    if (job == NULL)
        return;
    rc = jobs_cancel(c->ctx->jobs, job, "cancelled by the client",
                     API_JOBS_CANCEL_WAIT_MS);
    if (rc == JOBS_EFINISHED) {
        jobs_forget(c->ctx->jobs, job);
        api_answer_bytes(c, 204, NULL, NULL, 0);
    } else {
        answer_job(c, 200, job, NULL);
    }
    jobs_release(c->ctx->jobs, job);
}
