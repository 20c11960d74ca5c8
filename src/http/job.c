/*
 * job.c - the one job the server hands its pools: finish a request's
 * API call (api_work) on a worker, or the rest of one of the server's
 * own routes, then resume the connection so the network thread queues
 * the answer. Work that searches goes to the solvers' pool; work that
 * waits on the network (api_route.waits: the shared jobs' Redis) to the
 * waiting threads' pool, when the server has one, so that no network
 * thread and no solve ever waits behind a slow Redis.
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
    void (*own)(struct http_req *r);    /* a server route's rest, or
                                         * NULL: the API call's work */
};

static void job_run(struct pool_job *pj, unsigned worker)
{
    struct http_job *j = (struct http_job *)pj;
    struct http_req *r = j->req;
    struct puz_arena_mark m = puz_arena_mark(r->arena);

    (void)worker;
    if (j->own != NULL) {       /* it makes its own response */
        j->own(r);
        return;
    }
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

/* A full or closed pool's answer, at once. */
static void refused(struct http_req *r, puz_err rc, bool waiting)
{
    const struct http_server *s = r->srv;

    if (rc == PUZ_EFULL && waiting)
        http__reply_problemf(r, API_PROBLEM_OVERLOADED, "all %u threads "
                             "that wait on the jobs' store are busy and %u "
                             "requests are waiting; retry after the delay "
                             "in Retry-After", HTTP__WAIT_THREADS,
                             s->cfg.queue);
    else if (rc == PUZ_EFULL)
        http__reply_problemf(r, API_PROBLEM_OVERLOADED, "all %u solver "
                             "threads are busy and %u solves are waiting; "
                             "retry after the delay in Retry-After",
                             s->workers, s->cfg.queue);
    else
        http__reply_problemf(r, API_PROBLEM_SHUTTING_DOWN, "the server "
                             "is shutting down and takes no new solves");
}

/*
 * True when the connection was suspended: the worker resumes it, or,
 * when the queue refuses, the 503 goes out at once (resume, and MHD
 * calls the handler again to queue it). False: answered inline.
 */
static bool submit(struct http_req *r, bool waits,
                   void (*own)(struct http_req *r))
{
    struct http_job *j = puz_arena_calloc(r->arena, 1, sizeof(*j));
    pool_t *p = waits && r->srv->wait_pool != NULL ? r->srv->wait_pool
                : r->srv->pool;
    puz_err rc;

    if (j == NULL) {
        http__reply_problemf(r, API_PROBLEM_INTERNAL, "out of memory");
        return false;
    }
    j->base.run = job_run;
    j->base.done = job_done;
    j->req = r;
    j->own = own;
    r->call.cancel = &j->base.cancel;
    /* MHD does not look at a suspended connection: the watchdog polls it
     * and sets the flag when the client hangs up, so an abandoned solve
     * stops (queued: before it starts) and is logged 499. */
    http__conn_watch(r, &j->base.cancel);
    MHD_suspend_connection(r->conn);
    rc = pool_submit(p, &j->base);
    if (rc == PUZ_OK)
        return true;
    refused(r, rc, p == r->srv->wait_pool);
    MHD_resume_connection(r->conn);
    return true;
}

bool http__submit(struct http_req *r)
{
    return submit(r, r->api->waits, NULL);
}

bool http__submit_waiting(struct http_req *r, void (*own)(struct http_req *r))
{
    return submit(r, true, own);
}
