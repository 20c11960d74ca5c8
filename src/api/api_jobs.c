/*
 * api_jobs.c - the JSON routes of /v1/jobs: submit (POST /v1/jobs), list
 * (GET /v1/jobs), read (GET /v1/jobs/{id}) and cancel or forget (DELETE
 * /v1/jobs/{id}), the JSON of a job for the glue's event stream, and
 * what a job runs. Written once over the jobs service (jobsvc.h), so
 * the same requests, checks and JSON serve both of its backends: this
 * process's registry, or the jobs every instance shares through Redis.
 *
 * A job is a /v1/solve request run later: the body is decoded by the
 * same decoder (with the job caps) and checked for solvability by the
 * same check before it is submitted, then decoded again by the job
 * worker that runs it (api_jobs_run: both backends keep the request's
 * bytes) and run by the same work function (api__solve_run), in an
 * arena of its own under solve_max_bytes; the service keeps the
 * answer's bytes, so a job's result is byte for byte what /v1/solve
 * answers, on every instance. A job with "threads" may share its IDA*
 * iterations' units with other instances (jobsvc_run_units).
 *
 * The routes answer on the calling thread, unless the service may wait
 * on the network (the shared backend): then their work does, on the
 * server's waiting threads (here_or_later). A DELETE waits at most
 * API_JOBS_CANCEL_WAIT_MS for the job's worker to stop.
 */
#include "api_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "jobsvc.h"

#define API_JOBS_CANCEL_WAIT_MS 1000
#define API_JOBS_PAGE_DEFAULT 20
#define API_JOBS_PAGE_MAX 100

/* --- running a job (a job worker) ---------------------------------------- */

/* A job's request as its worker decoded it, and where its parallel
 * IDA*'s units go. */
struct job_solve {
    struct api_solve_request q;
    const struct jobsvc_run *run;
    struct puz_board goal;
    struct jobq_units units;
};

static void job_progress(const struct puz_progress *p, void *user)
{
    jobsvc_run_progress(user, p);
}

/* A job with "threads": the service may send its units elsewhere (the
 * shared backend: every instance's workers). */
static void units_via(const struct api_call *c,
                      const struct api_solve_request *q,
                      struct puz_solve_opts *o)
{
    struct job_solve *js = c->units_user;

    if (q->has_goal)
        js->goal = q->goal;
    else if (puz_board_goal_of(&q->board, &js->goal) != PUZ_OK)
        return;
    jobsvc_run_units(js->run, c->ctx->tables, &q->board, &js->goal,
                     q->threads, &js->units, o);
}

/* Decode (the problem answered when the stored body is bad: the job
 * fails with it), then /v1/solve's work, then the check that the
 * answer fits what finished jobs may hold. */
static void job_work(struct api_call *c)
{
    struct job_solve *js = c->state;
    const struct api_limits *lim = c->ctx->lim;
    struct api_problem p;

    c->units_via = units_via;
    c->units_user = js;
    if (!api__jobs_decode(c, &js->q))
        return;
    api__solve_run(c, &js->q);
    if (c->answer.status == 200 && c->answer.len > lim->job_results_max_bytes) {
        api_problem_set(&p, API_PROBLEM_ANSWER_TOO_LARGE, "the answer "
                         "(%zu bytes) is larger than all finished jobs may "
                         "hold (job_results_max_bytes, %zu); ask without "
                         "include_path", c->answer.len,
                         lim->job_results_max_bytes);
        api_answer_problem(c, &p);
    }
}

static const struct api_route job_route = {
    "POST", "/v1/jobs", true, NULL, job_work, false,
};

/* Where no arena could be had: the one problem that needs no memory. */
static const char job_oom[] = "{\"type\":\"about:blank\",\"title\":"
                              "\"Internal Server Error\",\"status\":500,"
                              "\"detail\":\"out of memory\"}";

static char *copy_bytes(const char *buf, size_t len)
{
    char *out = malloc(len != 0 ? len : 1);

    if (out != NULL && len != 0)
        memcpy(out, buf, len);
    return out;
}

void api_jobs_run(void *user, const char *body, size_t len,
                  const struct jobsvc_run *run, struct jobs_outcome *out)
{
    const struct api_ctx *ctx = user;
    const struct api_request rq = { .path = "/v1/jobs", .id = "-",
                                    .body = body, .len = len };
    puz_arena *a = puz_arena_create(ctx->lim->arena_chunk_bytes);
    struct job_solve js;
    struct api_call c;

    out->state = JOBS_FAILED;
    if (a == NULL) {
        out->body = copy_bytes(job_oom, sizeof(job_oom) - 1);
        out->len = out->body != NULL ? sizeof(job_oom) - 1 : 0;
        return;
    }
    memset(&js, 0, sizeof(js));
    js.run = run;
    api_call_init(&c, ctx, &rq, a);
    c.cancel = run->cancel;
    c.progress = job_progress;
    c.progress_user = (void *)run;
    c.state = &js;
    api_work(&job_route, &c);
    if (c.answer.status == 200)
        out->state = JOBS_DONE;
    else if (atomic_load(run->cancel))
        out->state = JOBS_CANCELLED;
    if (out->state != JOBS_CANCELLED) {
        out->body = copy_bytes(c.answer.body, c.answer.len);
        out->len = out->body != NULL ? c.answer.len : 0;
    }
    puz_arena_destroy(a);
}

/* --- a job as JSON -------------------------------------------------------- */

/* RFC 3339 in UTC with milliseconds; null when not yet. */
static json_t *time_json(int64_t ms)
{
    char buf[80];
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;

    if (ms == 0 || gmtime_r(&secs, &tm) == NULL)
        return json_null();
    snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
             tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
             tm.tm_min, tm.tm_sec, (int)(ms % 1000));
    return json_string(buf);
}

static json_t *uint_or_null(unsigned v)
{
    return v != 0 ? json_integer((json_int_t)v) : json_null();
}

/* The progress numbers. */
static json_t *progress_json(const struct jobs_view *v)
{
    const struct puz_progress *p = &v->progress;
    double rate = p->elapsed_us > 0 ? (double)p->expanded * 1e6
                                      / (double)p->elapsed_us : 0;

    return json_pack("{s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
                     "expanded", (json_int_t)p->expanded,
                     "generated", (json_int_t)p->generated,
                     "nodes_per_s", (json_int_t)rate,
                     "elapsed_ms", (json_int_t)(v->elapsed_us / 1000),
                     "bound", uint_or_null(p->bound),
                     "lower_bound", uint_or_null(p->lower_bound),
                     "best_length", uint_or_null(p->best_length));
}

/* The job's fields but its answer. */
static json_t *job_json(const struct jobs_view *v)
{
    json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}",
                          "id", v->id, "state", jobs_state_name(v->state),
                          "created_at", time_json(v->created_ms),
                          "started_at", time_json(v->started_ms),
                          "finished_at", time_json(v->finished_ms),
                          "progress", progress_json(v));

    /* A failed job with no problem kept (a shared job that gave up
     * after its attempts, or whose answer Redis refused) says why here
     * only. */
    if (o != NULL && (v->state == JOBS_CANCELLED
                      || (v->state == JOBS_FAILED && v->reason[0] != '\0')))
        json_object_set_new(o, "reason", json_string(v->reason));
    if (o != NULL && v->attempts != 0)      /* once started */
        json_object_set_new(o, "attempts", json_integer(v->attempts));
    return o;
}

/*
 * o's bytes, with the job's answer spliced in as "result" (done) or
 * "error" (failed) when v has one: the answer is kept as bytes and
 * never parsed again. From the arena a, or from malloc when a is NULL.
 */
static bool encode(const json_t *o, const struct jobs_view *v, puz_arena *a,
                   char **buf, size_t *len)
{
    const char *key = v->state == JOBS_DONE ? ",\"result\":" : ",\"error\":";
    size_t n = o != NULL ? json_dumpb(o, NULL, 0, CODEC_JSON_FLAGS) : 0;
    size_t extra = v->body != NULL ? strlen(key) + v->len : 0;
    char *out;

    *buf = NULL;
    if (n < 2)
        return false;
    out = a != NULL ? puz_arena_alloc(a, n + extra) : malloc(n + extra);
    if (out == NULL)
        return false;
    json_dumpb(o, out, n, CODEC_JSON_FLAGS);
    if (extra != 0) {       /* ...} -> ...,"result":<answer>} */
        memcpy(out + n - 1, key, strlen(key));
        memcpy(out + n - 1 + strlen(key), v->body, v->len);
        out[n + extra - 1] = '}';
    }
    *buf = out;
    *len = n + extra;
    return true;
}

bool api_jobs_view_event(const struct jobs_view *view, bool final,
                         char **buf, size_t *len)
{
    struct jobs_view v = *view;
    json_t *o = final ? job_json(&v) : progress_json(&v);
    bool ok;

    if (o != NULL && !final) {
        json_object_set_new(o, "id", json_string(v.id));
        json_object_set_new(o, "state", json_string(
                                jobs_state_name(v.state)));
    }
    if (!final)
        v.body = NULL;
    ok = encode(o, &v, NULL, buf, len);
    json_decref(o);
    return ok;
}

/* The job as v shows it, with Location on a 202. */
static void answer_job(struct api_call *c, unsigned status,
                       const struct jobs_view *v)
{
    struct api_problem p;
    char loc[64], *buf;
    size_t len;
    json_t *o = job_json(v);

    if (!encode(o, v, c->arena, &buf, &len)) {
        json_decref(o);
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    json_decref(o);
    if (!api__answer_fits(c, len, &p)) {
        api_answer_problem(c, &p);
        return;
    }
    api_answer_bytes(c, status, "application/json", buf, len);
    if (status == 202) {
        snprintf(loc, sizeof(loc), "/v1/jobs/%s", v->id);
        api_answer_header(c, "Location", loc);
    }
    api__trace_header(c, v->trace, v->id);
}

/* --- the routes ----------------------------------------------------------- */

/* The body of POST /v1/solve, decoded against the job caps (a job may
 * ask for up to job_timeout_ms and job_max_nodes) and checked as
 * /v1/solve checks it. */
bool api__jobs_decode(struct api_call *c, struct api_solve_request *q)
{
    struct api_solve_caps caps = api_limits_solve_caps(c->ctx->lim, true);
    struct api_problem p;
    json_t *root = NULL;
    puz_err rc;

    if (!api__parse_body(c, &root))
        return false;
    rc = api_decode_solve(root, &caps, q, &p);
    json_decref(root);
    if (rc != PUZ_OK)
        api_answer_problem(c, &p);
    return rc == PUZ_OK && api__solve_check(c, q);
}

/* What the service refused, worded by it (jobsvc.h) but for an owner's
 * cap: PUZ_EIO is a 503 (its store cannot be reached or is full), the
 * rest as the one table maps them. */
static void refused(struct api_call *c, puz_err rc, const char *msg)
{
    if (rc == PUZ_ELIMITED)
        api_answer_problemf(c, API_PROBLEM_RATE_LIMITED, "the key %s has "
                            "%u jobs queued or running, its limit; wait "
                            "for one to end or cancel one", c->key->name,
                            c->key->jobs);
    else
        api_answer_problemf(c, rc == PUZ_EIO ? API_PROBLEM_UNAVAILABLE
                            : api_problem_kind_of(rc), "%s", msg);
}

/* The new job as accepted: queued, whatever a worker did since. */
static void answer_accepted(struct api_call *c, struct jobs_view *v)
{
    if (v->state != JOBS_QUEUED) {
        memset(&v->progress, 0, sizeof(v->progress));
        v->state = JOBS_QUEUED;
        v->started_ms = v->finished_ms = 0;
        v->elapsed_us = 0;
        v->attempts = 0;
        v->body = NULL;
        v->len = 0;
    }
    answer_job(c, 202, v);
}

/*
 * The rest of a job route, here or later: when the service may wait on
 * the network (the shared backend) it is left to the route's work,
 * which the server runs on threads that may wait (api_route.waits), so
 * no network thread ever waits on Redis; the embedded registry answers
 * at once, here.
 */
static void here_or_later(struct api_call *c, api_fn work)
{
    if (c->ctx->jobs == NULL || !jobsvc_may_block(c->ctx->jobs))
        work(c);
}

/* What a submission's checks hand its work. */
struct submit_state {
    struct jobs_idem idem;
    char trace[JOBS_TRACE_LEN + 1];
};

/* Checks that need nothing but the request: draining, the
 * Idempotency-Key, the body decoded and solvable. */
void api__jobs_submit(struct api_call *c)
{
    struct submit_state *st;
    struct api_solve_request q;

    st = puz_arena_alloc(c->arena, sizeof(*st));
    if (st == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    c->state = st;
    if (api__refuse_when_draining(c) || !api__jobs_idem(c, &st->idem)
        || !api__jobs_decode(c, &q))
        return;
    api__trace_id(c, st->trace);
    here_or_later(c, api__jobs_submit_work);
}

/*
 * A keyed submission may find the key's job: the same body gets the
 * job as the first submission did (202, Location; as it is now) marked
 * as a replay, another body 422. A replay makes nothing, so the key's
 * cap does not apply to it (the service sees to that).
 */
void api__jobs_submit_work(struct api_call *c)
{
    const struct api_key *key = c->key;
    const struct submit_state *st = c->state;
    struct jobsvc_submit a;
    struct jobsvc_job job;
    enum jobs_idem_found found;
    char msg[JOBSVC_MSG_MAX];
    puz_err rc;

    a = (struct jobsvc_submit){ c->rq.body, c->rq.len,
                                key != NULL ? key->name : "",
                                key != NULL ? key->jobs : 0, &st->idem,
                                st->trace };
    rc = jobsvc_submit(c->ctx->jobs, &a, &job, &found, msg);
    if (rc != PUZ_OK) {
        refused(c, rc, msg);
        return;
    }
    if (found == JOBS_IDEM_MISMATCH) {
        api__jobs_idem_reused(c);
    } else if (found == JOBS_IDEM_REPLAY) {
        answer_job(c, 202, &job.v);
        if (c->answer.status == 202)
            api__jobs_replayed(c);
    } else {
        answer_accepted(c, &job.v);
    }
    jobsvc_job_release(c->ctx->jobs, &job);
}

/* The value of the query parameter key, or NULL; a key without '='
 * reads as "" (api_start refused repeated keys already). */
static const char *query_value(const struct api_call *c, const char *key)
{
    for (size_t i = 0; i < c->rq.nquery; i++)
        if (strcmp(c->rq.query[i].key, key) == 0)
            return c->rq.query[i].value != NULL ? c->rq.query[i].value : "";
    return NULL;
}

/* ?state= and ?limit= of the list; false with the 400 answered. */
static bool list_query(struct api_call *c, int *state, unsigned *limit)
{
    const char *s = query_value(c, "state"), *l = query_value(c, "limit");
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

/* Whose jobs the caller lists: an operator everyone's, a key its own,
 * anyone the anonymous jobs when jobs_list_anonymous is on. False with
 * the 401 (keys exist: use one) or 403 answered. */
static bool list_owner(struct api_call *c, const char **owner)
{
    *owner = c->key == NULL ? "" : c->key->operator ? NULL : c->key->name;
    if (c->key != NULL || c->ctx->jobs_list_anonymous)
        return true;
    if (api_keys_count(c->ctx->keys) > 0) {
        api_answer_problemf(c, API_PROBLEM_UNAUTHORIZED, "listing jobs "
                            "needs an API key (Authorization: Bearer KEY); "
                            "a job you made without one is reachable by "
                            "its id");
        api_answer_header(c, "WWW-Authenticate", "Bearer realm=\"puzzled\"");
    } else {
        api_answer_problemf(c, API_PROBLEM_FORBIDDEN, "listing jobs is "
                            "off for anonymous callers (jobs_list_anonymous)"
                            "; a job is reachable by its id");
    }
    return false;
}

/* What the list's checks hand its work. */
struct list_state {
    const char *owner;
    int state;
    unsigned limit;
};

/* The list's query and whose jobs it shows: nothing but the request. */
void api__jobs_list(struct api_call *c)
{
    struct list_state *st = puz_arena_alloc(c->arena, sizeof(*st));

    if (st == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    c->state = st;
    if (list_query(c, &st->state, &st->limit) && list_owner(c, &st->owner))
        here_or_later(c, api__jobs_list_work);
}

/* The list: each job's summary, never its answer (a page of 5x5 paths
 * would be large); GET /v1/jobs/{id} has it. */
void api__jobs_list_work(struct api_call *c)
{
    const struct list_state *st = c->state;
    struct jobs_view *v;
    char msg[JOBSVC_MSG_MAX];
    json_t *list;
    size_t n = 0;
    puz_err rc;

    v = puz_arena_alloc(c->arena, st->limit * sizeof(*v));
    if (v == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    rc = jobsvc_list(c->ctx->jobs, st->state, st->owner, v, st->limit, &n,
                     msg);
    if (rc != PUZ_OK) {
        refused(c, rc, msg);
        return;
    }
    list = json_array();
    for (size_t i = 0; list != NULL && i < n; i++)
        json_array_append_new(list, job_json(&v[i]));
    if (list == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return;
    }
    api_answer_json(c, 200, json_pack("{s:o, s:I, s:I}", "jobs", list,
                                      "count", (json_int_t)n, "limit",
                                      (json_int_t)st->limit));
}

/* Whether the caller may read, stream or cancel job: an anonymous job
 * anyone who has its id, a key's job that key or an operator. */
static bool may_see(const struct api_call *c, const char *owner)
{
    return owner[0] == '\0'
           || (c->key != NULL && (c->key->operator
                                  || strcmp(owner, c->key->name) == 0));
}

bool api_jobs_find(struct api_call *c, bool answer, struct jobsvc_job *job)
{
    const char *id = api_path_param(c, "id");
    char msg[JOBSVC_MSG_MAX];
    bool found = false;
    puz_err rc = PUZ_OK;

    memset(job, 0, sizeof(*job));
    if (id == NULL || strlen(id) > JOBS_ID_LEN)
        id = "";        /* too long to be an id: unknown, nothing more */
    if (id[0] != '\0' && c->ctx->jobs != NULL)
        rc = jobsvc_find(c->ctx->jobs, id, answer, job, &found, msg);
    if (rc != PUZ_OK) {
        refused(c, rc, msg);
        return false;
    }
    if (found && !may_see(c, job->v.owner)) {
        jobsvc_job_release(c->ctx->jobs, job);
        found = false;      /* another key's: as if it did not exist */
    }
    if (!found)
        api_answer_problemf(c, API_PROBLEM_NOT_FOUND, "no job %s: "
                            "unknown, or finished more than %u s ago and "
                            "forgotten", id[0] ? id : "with this id",
                            c->ctx->lim->job_ttl_s);
    return found;
}

void api__jobs_get(struct api_call *c)
{
    here_or_later(c, api__jobs_get_work);
}

void api__jobs_get_work(struct api_call *c)
{
    struct jobsvc_job job;

    if (!api_jobs_find(c, true, &job))
        return;
    /* The answer is copied into the call's arena, under its budget. */
    answer_job(c, 200, &job.v);
    jobsvc_job_release(c->ctx->jobs, &job);
}

void api__jobs_delete(struct api_call *c)
{
    here_or_later(c, api__jobs_delete_work);
}

void api__jobs_delete_work(struct api_call *c)
{
    struct jobsvc_job job;
    enum jobsvc_cancelled what;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];
    puz_err rc;

    if (!api_jobs_find(c, false, &job))
        return;
    memcpy(id, job.v.id, sizeof(id));
    jobsvc_job_release(c->ctx->jobs, &job);
    rc = jobsvc_cancel(c->ctx->jobs, id, "cancelled by the client",
                       API_JOBS_CANCEL_WAIT_MS, &what, msg);
    if (rc != PUZ_OK) {
        refused(c, rc, msg);
    } else if (what == JOBSVC_FORGOTTEN) {
        api_answer_bytes(c, 204, NULL, NULL, 0);
    } else if (api_jobs_find(c, true, &job)) {  /* else gone: the 404 */
        answer_job(c, 200, &job.v);
        jobsvc_job_release(c->ctx->jobs, &job);
    }
}
