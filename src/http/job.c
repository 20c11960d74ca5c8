/*
 * job.c - the one job the server hands its pool: finish a request's
 * API call (api_work) on a worker, then resume the connection so the
 * network thread queues the answer.
 *
 * A client that hangs up meanwhile cancels the job (conns.c watches the
 * suspended socket). The connection is suspended before the job is
 * visible to any worker, so a resume can never come first. The worker
 * touches the call (its arena included), makes the MHD response from the
 * answer's bytes (creating a response touches no daemon state) and, last,
 * resumes the connection; nothing else of MHD.
 */
#include "http_int.h"

struct http_job {
    struct pool_job base;       /* first: the pool hands this back */
    struct http_req *req;
};

static void job_run(struct pool_job *pj, unsigned worker)
{
    struct http_job *j = (struct http_job *)pj;
    struct http_req *r = j->req;
    struct puz_arena_mark m = puz_arena_mark(r->arena);

    (void)worker;
    api_work(r->api, &r->call);
    /* The response (a copy of the answer's bytes) is made here, and
     * what the work allocated (its JSON, the answer's bytes) goes back
     * at once: a client slow to read holds the bytes it is sent, not
     * the request's whole budget. Making a response touches no daemon
     * state. */
    http__reply_answer(r);
    r->call.answer.body = NULL;
    r->call.answer.nheaders = 0;
    puz_arena_release(r->arena, m);
}

static void job_done(struct pool_job *pj)
{
    struct http_job *j = (struct http_job *)pj;

    /* The last touch: from here the request (and j, in its arena)
     * belongs to the network thread again. */
    MHD_resume_connection(j->req->conn);
}

/*
 * True when the connection was suspended: the worker resumes it, or,
 * when the queue refuses, the 503 goes out at once (resume, and MHD
 * calls the handler again to queue it). False: answered inline.
 */
bool http__submit(struct http_req *r)
{
    struct http_job *j = puz_arena_calloc(r->arena, 1, sizeof(*j));
    puz_err rc;

    if (j == NULL) {
        http__reply_problemf(r, API_PROBLEM_INTERNAL, "out of memory");
        return false;
    }
    j->base.run = job_run;
    j->base.done = job_done;
    j->req = r;
    r->call.cancel = &j->base.cancel;
    /* MHD does not look at a suspended connection: the watchdog polls it
     * and sets the flag when the client hangs up, so an abandoned solve
     * stops (queued: before it starts) and is logged 499. */
    http__conn_watch(r, &j->base.cancel);
    MHD_suspend_connection(r->conn);
    rc = pool_submit(r->srv->pool, &j->base);
    if (rc == PUZ_OK)
        return true;
    if (rc == PUZ_EFULL)
        http__reply_problemf(r, API_PROBLEM_OVERLOADED, "all %u solver "
                             "threads are busy and %u solves are waiting; "
                             "retry after the delay in Retry-After",
                             r->srv->workers, r->srv->cfg.queue);
    else
        http__reply_problemf(r, API_PROBLEM_SHUTTING_DOWN, "the server "
                             "is shutting down and takes no new solves");
    MHD_resume_connection(r->conn);
    return true;
}
