/*
 * jobs_routes.c - the routes of /v1/jobs: submit (POST), list (GET),
 * read (GET /v1/jobs/{id}), cancel or forget (DELETE /v1/jobs/{id}) and
 * the event stream (GET /v1/jobs/{id}/events). Everything answers on the
 * network thread: the search runs on the jobs' own workers, and a
 * DELETE waits at most JOBS_CANCEL_WAIT_MS for the worker to stop.
 */
#include "http_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_decode.h"
#include "http_jobs.h"
#include "jobs.h"

#define JOBS_CANCEL_WAIT_MS 1000
#define JOBS_PAGE_DEFAULT 20
#define JOBS_PAGE_MAX 100

static bool refuse_when_draining(struct http_req *r)
{
    if (!atomic_load(&r->srv->draining))
        return false;
    http__reply_problemf(r, HTTP_PROBLEM_SHUTTING_DOWN, "the server is "
                         "shutting down; retry on another instance or "
                         "after the restart");
    return true;
}

/* The body of POST /v1/solve, with the job caps in place of the solve
 * caps: a job may ask for up to job_timeout_ms and job_max_nodes. */
static bool decode_job(struct http_req *r, struct http_solve_request *q)
{
    struct http_config caps = r->srv->cfg;
    struct http_problem p;
    json_t *root = NULL;

    caps.solve_timeout_ms = caps.job_timeout_ms;
    caps.solve_max_nodes = caps.job_max_nodes;
    if (http_decode_json(r->body, r->body_len, caps.json_max_depth, &root,
                         &p) == PUZ_OK
        && http_decode_solve(root, &caps, q, &p) == PUZ_OK) {
        json_decref(root);
        return true;
    }
    json_decref(root);
    http__reply_problem(r, &p);
    return false;
}

/* The job (body NULL: as it is now), with Location on a 202. */
static void reply_job(struct http_req *r, unsigned status, jobs_job *job,
                      json_t *body)
{
    char loc[64];

    if (body == NULL)
        body = jobs_job_json(r->srv->jobs, job, NULL);
    http__reply_json(r, status, body);
    if (status == 202 && r->response != NULL) {
        snprintf(loc, sizeof(loc), "/v1/jobs/%s", jobs_id(job));
        MHD_add_response_header(r->response, "Location", loc);
    }
}

bool http__handle_jobs_submit(struct http_req *r)
{
    struct http_solve_request q;
    jobs_job *job = NULL;
    json_t *accepted = NULL;
    jobs_err rc;

    if (refuse_when_draining(r) || !decode_job(r, &q))
        return false;
    rc = jobs_submit(r->srv->jobs, &q, &job, &accepted);
    if (rc == JOBS_OK)
        reply_job(r, 202, job, accepted);
    else if (rc == JOBS_EFULL)
        http__reply_problemf(r, HTTP_PROBLEM_OVERLOADED, "%u job workers "
                             "are busy and %u jobs are waiting (or %u are "
                             "held); retry after the delay in Retry-After",
                             r->srv->cfg.job_workers, r->srv->cfg.job_queue,
                             r->srv->cfg.job_max);
    else if (rc == JOBS_ECLOSED)
        http__reply_problemf(r, HTTP_PROBLEM_SHUTTING_DOWN, "the server "
                             "is shutting down and takes no new jobs");
    else
        http__reply_problemf(r, HTTP_PROBLEM_INTERNAL, "out of memory");
    jobs_release(r->srv->jobs, job);
    return false;
}

/* ?state= and ?limit= of the list; false with the 400 answered. */
static bool list_query(struct http_req *r, int *state, unsigned *limit)
{
    const char *s = MHD_lookup_connection_value(r->conn,
                                                MHD_GET_ARGUMENT_KIND,
                                                "state");
    const char *l = MHD_lookup_connection_value(r->conn,
                                                MHD_GET_ARGUMENT_KIND,
                                                "limit");
    char *end;
    unsigned long n;

    *state = s != NULL ? jobs_state_parse(s) : -1;
    if (s != NULL && *state < 0) {
        http__reply_problemf(r, HTTP_PROBLEM_INVALID_QUERY, "state must "
                             "be queued, running, done, cancelled or "
                             "failed, not '%.40s'", s);
        return false;
    }
    *limit = JOBS_PAGE_DEFAULT;
    if (l == NULL)
        return true;
    n = strtoul(l, &end, 10);
    if (*l < '0' || *l > '9' || *end != '\0' || n < 1
        || n > JOBS_PAGE_MAX) {
        http__reply_problemf(r, HTTP_PROBLEM_INVALID_QUERY, "limit must "
                             "be a whole number from 1 to %d, not '%.40s'",
                             JOBS_PAGE_MAX, l);
        return false;
    }
    *limit = (unsigned)n;
    return true;
}

bool http__handle_jobs_list(struct http_req *r)
{
    int state;
    unsigned limit;

    if (list_query(r, &state, &limit))
        http__reply_json(r, 200, jobs_list_json(r->srv->jobs, state,
                                                limit));
    return false;
}

/*
 * "/v1/jobs/{id}" or "/v1/jobs/{id}/events": the id (copied into id,
 * JOBS_ID_LEN + 1 bytes; "" when it cannot be one) and whether it is the
 * events path. False when the path is neither shape.
 */
bool http__jobs_path(const char *path, char *id, bool *events)
{
    const char *rest;
    size_t n;

    if (strncmp(path, "/v1/jobs/", 9) != 0)
        return false;
    rest = path + 9;
    n = strcspn(rest, "/");
    if (rest[n] != '\0' && strcmp(rest + n, "/events") != 0)
        return false;
    *events = rest[n] != '\0';
    if (n == 0)
        return false;
    if (n > JOBS_ID_LEN)
        n = 0;          /* too long to be an id: unknown, nothing more */
    memcpy(id, rest, n);
    id[n] = '\0';
    return true;
}

static jobs_job *find_or_404(struct http_req *r, const char *id)
{
    jobs_job *job = id[0] != '\0' ? jobs_find(r->srv->jobs, id) : NULL;

    if (job == NULL)
        http__reply_problemf(r, HTTP_PROBLEM_NOT_FOUND, "no job %.40s%s: "
                             "unknown, or finished more than %u s ago and "
                             "forgotten", id[0] ? id : "with this id",
                             strlen(id) >= 40 ? "..." : "",
                             r->srv->cfg.job_ttl_s);
    return job;
}

static bool handle_get(struct http_req *r, const char *id)
{
    jobs_job *job = find_or_404(r, id);

    if (job != NULL)
        reply_job(r, 200, job, NULL);
    jobs_release(r->srv->jobs, job);
    return false;
}

static bool handle_delete(struct http_req *r, const char *id)
{
    jobs_job *job = find_or_404(r, id);
    jobs_err rc;

    if (job == NULL)
        return false;
    rc = jobs_cancel(r->srv->jobs, job, "cancelled by the client",
                     JOBS_CANCEL_WAIT_MS);
    if (rc == JOBS_EFINISHED) {
        jobs_forget(r->srv->jobs, job);
        http__reply(r, 204, MHD_create_response_from_buffer(
                                0, NULL, MHD_RESPMEM_PERSISTENT));
    } else {
        reply_job(r, 200, job, NULL);
    }
    jobs_release(r->srv->jobs, job);
    return false;
}

static bool handle_events(struct http_req *r, const char *id)
{
    jobs_job *job = find_or_404(r, id);
    const char *last;

    if (job == NULL)
        return false;
    last = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                       "Last-Event-ID");
    /* The stream takes our reference. */
    http__reply(r, 200, http_streams_open(r->srv->streams, r->conn, job,
                                          last));
    return false;
}

bool http__handle_jobs_item(struct http_req *r)
{
    char id[JOBS_ID_LEN + 1];
    bool events = false;

    if (!http__jobs_path(r->path, id, &events)) {
        http__reply_problemf(r, HTTP_PROBLEM_NOT_FOUND, "nothing at "
                             "%.200s", r->path);
        return false;
    }
    if (events)
        return handle_events(r, id);
    if (strcmp(r->method, "DELETE") == 0)
        return handle_delete(r, id);
    return handle_get(r, id);
}
