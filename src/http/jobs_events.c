/*
 * jobs_events.c - GET /v1/jobs/{id}/events, the one job route that stays
 * in the glue: its answer is not bytes but a stream (jobs_stream.c) that
 * outlives the call. Finding a shared job waits on Redis, so that part
 * runs on a waiting thread, never on the network thread. The JSON routes of /v1/jobs are API functions
 * (src/api/api_jobs.c); this one finds its job the same way. Streams
 * are capped (in all, per job, per client: jobs_stream.c's limits) so
 * they never hold every connection.
 */
#include "http_int.h"

#include <stdio.h>

/* A stream a limit refused: 503 when the server's or the job's streams
 * are all taken, 429 when this client's or key's share is open (the one
 * table of api_problem_kind_of), with Retry-After either way. */
static void refuse(struct http_req *r, puz_err rc,
                   const struct http_streams_refusal *limit)
{
    char secs[16];

    if (rc == PUZ_ENOMEM)
        api_answer_problemf(&r->call, API_PROBLEM_INTERNAL, "out of "
                            "memory");
    else
        api_answer_problemf(&r->call, api_problem_kind_of(rc), "%u event "
                            "streams are open (%s); poll GET /v1/jobs/{id} "
                            "or retry later", limit->cap, limit->setting);
    if (rc == PUZ_ELIMITED) {
        snprintf(secs, sizeof(secs), "%u", r->srv->cfg.api.retry_after_s);
        api_answer_header(&r->call, "Retry-After", secs);
    }
    http__reply_answer(r);
}

/* The rest of the route: find the job and open its stream. With the
 * shared jobs the finding waits on Redis: then this runs on a waiting
 * thread (job.c), which makes the response as a handler would. The
 * client's Last-Event-ID was read on the network thread (call.state). */
static void open_stream(struct http_req *r)
{
    const struct api_key *key = r->call.key;
    struct http_streams_refusal limit;
    struct MHD_Response *resp;
    struct jobsvc_job j;
    puz_err rc;

    if (!api_jobs_find(&r->call, false, &j)) {
        http__reply_answer(r);
        return;
    }
    jobsvc_job_release(r->srv->jobs, &j);
    resp = http_streams_open(r->srv->streams, r->conn, j.v.id,
                             r->call.state, r->remote,
                             key != NULL ? key->name : "",
                             key != NULL ? key->streams : 0, &rc, &limit);
    if (resp != NULL)
        http__reply(r, 200, resp);
    else
        refuse(r, rc, &limit);
}

bool http__handle_jobs_events(struct http_req *r)
{
    if (!api_call_authorize(&r->call)) {
        http__reply_answer(r);
        return false;
    }
    r->call.state = (void *)MHD_lookup_connection_value(
        r->conn, MHD_HEADER_KIND, "Last-Event-ID");
    if (jobsvc_may_block(r->srv->jobs))
        return http__submit_waiting(r, open_stream);
    open_stream(r);
    return false;
}
