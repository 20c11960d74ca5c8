/*
 * jobs_events.c - GET /v1/jobs/{id}/events, the one job route that stays
 * in the glue: its answer is not bytes but a stream (jobs_stream.c) that
 * outlives the call. The JSON routes of /v1/jobs are API functions
 * (src/api/api_jobs.c); this one finds its job the same way.
 */
#include "http_int.h"

bool http__handle_jobs_events(struct http_req *r)
{
    jobs_job *job = api_jobs_find(&r->call);
    const char *last;

    if (job == NULL) {
        http__reply_answer(r);      /* the 404 */
        return false;
    }
    last = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                       "Last-Event-ID");
    /* The stream takes our reference. */
    http__reply(r, 200, http_streams_open(r->srv->streams, r->conn, job,
                                          last));
    return false;
}
