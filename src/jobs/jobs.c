/*
 * jobs.c - the job registry and its runners. One mutex guards the list
 * of jobs (newest first), every job's fields and the counters; `change`
 * wakes watchers whenever any job changes, `ended` wakes jobs_cancel()
 * when a job's worker lets go of it. Jobs run on a pool of their own
 * (src/pool), so long solves never hold up the quick ones.
 *
 * A job is freed when its last reference goes: the registry holds one
 * while the job is listed, the pool one from submit to done(), and
 * every caller of jobs_submit/jobs_find one until jobs_release.
 */
#include "jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "codec.h"
#include "api_problem.h"
#include "pool.h"

struct jobs_job {
    struct pool_job pj;             /* first: the pool hands this back */
    jobs_t *reg;
    struct jobs_job *prev, *next;   /* the registry's list */
    unsigned refs;
    bool listed;
    char id[JOBS_ID_LEN + 1];
    struct http_solve_request req;
    enum jobs_state state;
    uint64_t version;
    int64_t created_ms, started_ms, finished_ms;    /* wall clock */
    uint64_t started_us, finished_us;               /* monotonic */
    struct puz_progress progress;
    bool has_progress;
    json_t *result;                 /* done; heap, never arena */
    struct api_problem error;      /* failed */
    char reason[PUZ_MSG_MAX];       /* cancelled: why */
};

struct jobs {
    struct jobs_config cfg;
    pthread_mutex_t lock;
    pthread_cond_t change;
    pthread_cond_t ended;
    jobs_job *head, *tail;          /* newest first */
    unsigned count;
    uint64_t changes;
    bool closed;
    pool_t *pool;
    struct jobs_stats st;
};

const double jobs_hist_bounds[JOBS_HIST_BUCKETS] = {
    0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800, 3600,
};

static const char *const state_names[JOBS_STATE_COUNT_] = {
    "queued", "running", "done", "cancelled", "failed",
};

const char *jobs_state_name(enum jobs_state s)
{
    return (unsigned)s < JOBS_STATE_COUNT_ ? state_names[s] : "unknown";
}

int jobs_state_parse(const char *s)
{
    for (int i = 0; i < JOBS_STATE_COUNT_; i++)
        if (strcmp(s, state_names[i]) == 0)
            return i;
    return -1;
}

static int64_t wall_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Every change of a job: its version, the global counter, the watchers.
 * Called with the lock held. */
static void touched(jobs_t *j, jobs_job *job)
{
    job->version++;
    j->changes++;
    pthread_cond_broadcast(&j->change);
}

static void unlink_job(jobs_t *j, jobs_job *job)
{
    if (job->prev != NULL)
        job->prev->next = job->next;
    else
        j->head = job->next;
    if (job->next != NULL)
        job->next->prev = job->prev;
    else
        j->tail = job->prev;
    job->prev = job->next = NULL;
    job->listed = false;
    j->st.by_state[job->state]--;
    j->count--;
}

/* Drop one reference with the lock held; frees on the last. */
static void unref_locked(jobs_job *job)
{
    if (--job->refs > 0)
        return;
    json_decref(job->result);
    free(job);
}

static void forget_locked(jobs_t *j, jobs_job *job)
{
    if (!job->listed)
        return;
    unlink_job(j, job);
    j->changes++;
    unref_locked(job);
}

static void set_state(jobs_t *j, jobs_job *job, enum jobs_state s)
{
    double secs;
    unsigned b = 0;

    j->st.by_state[job->state]--;
    j->st.by_state[s]++;
    job->state = s;
    if (s == JOBS_RUNNING) {
        job->started_ms = wall_ms();
        job->started_us = puz_now_us();
    }
    if (jobs_state_final(s)) {
        job->finished_ms = wall_ms();
        job->finished_us = puz_now_us();
        j->st.finished[s]++;
        secs = job->started_us != 0
               ? (double)(job->finished_us - job->started_us) / 1e6 : 0;
        while (b < JOBS_HIST_BUCKETS && secs > jobs_hist_bounds[b])
            b++;
        j->st.hist[b]++;
        j->st.duration_sum_s += secs;
        pthread_cond_broadcast(&j->ended);
    }
    touched(j, job);
}

/* Forget finished jobs past their time (lock held). */
static unsigned expire_locked(jobs_t *j)
{
    uint64_t now = puz_now_us(), ttl = (uint64_t)j->cfg.ttl_s * 1000000u;
    unsigned n = 0;

    for (jobs_job *job = j->tail, *prev; job != NULL; job = prev) {
        prev = job->prev;
        if (jobs_state_final(job->state) && now - job->finished_us >= ttl) {
            forget_locked(j, job);
            n++;
        }
    }
    j->st.expired += n;
    return n;
}

/* Make room for one more job: forget the oldest finished one. */
static bool make_room(jobs_t *j)
{
    if (j->count < j->cfg.max)
        return true;
    for (jobs_job *job = j->tail; job != NULL; job = job->prev) {
        if (jobs_state_final(job->state)) {
            forget_locked(j, job);
            return true;
        }
    }
    return false;
}

/* --- running a job (worker thread) -------------------------------------- */

static void on_progress(const struct puz_progress *p, void *user)
{
    jobs_job *job = user;
    jobs_t *j = job->reg;

    pthread_mutex_lock(&j->lock);
    job->progress = *p;
    job->has_progress = true;
    touched(j, job);
    pthread_mutex_unlock(&j->lock);
}

static void solve_opts(const jobs_job *job, puz_arena *a,
                       struct puz_solve_opts *o)
{
    const struct http_solve_request *q = &job->req;

    (void)a;
    memset(o, 0, sizeof(*o));
    o->algorithm = q->algorithm;
    o->heuristic = q->heuristic;
    o->goal = q->has_goal ? &q->goal : NULL;
    o->tables = job->reg->cfg.tables;
    o->limits.max_nodes = q->max_nodes;
    o->limits.max_bytes = job->reg->cfg.max_bytes;
    o->limits.deadline_us = q->timeout_ms != 0
        ? puz_now_us() + (uint64_t)q->timeout_ms * 1000u : 0;
    o->limits.cancel = &job->pj.cancel;
    o->limits.max_depth = q->max_depth;
    o->weight = q->weight;
    o->progress = on_progress;
    o->progress_user = (void *)job;
}

/* The final numbers become the last progress the job shows. */
static void final_progress(jobs_job *job, const struct puz_result *r)
{
    struct puz_progress *p = &job->progress;

    p->algorithm = r->algorithm;
    p->expanded = r->stats.expanded;
    p->generated = r->stats.generated;
    p->elapsed_us = r->stats.time_us;
    if (r->status == PUZ_SOLVED) {
        p->best_length = r->length;
        if (r->optimal)
            p->lower_bound = p->bound = r->length;
    }
    job->has_progress = true;
}

/* Settle a job after its solve (lock held). */
static void settle(jobs_t *j, jobs_job *job, puz_err rc,
                   const struct puz_result *r, json_t *result)
{
    final_progress(job, r);
    if (job->state == JOBS_CANCELLED) {
        json_decref(result);        /* cancelled while it ran: keep why */
        return;
    }
    if (rc == PUZ_OK && r->status == PUZ_CANCELLED) {
        if (job->reason[0] == '\0')
            snprintf(job->reason, sizeof(job->reason), "cancelled");
        json_decref(result);
        set_state(j, job, JOBS_CANCELLED);
        return;
    }
    if (rc == PUZ_EINVAL)
        api_problem_set(&job->error, API_PROBLEM_INVALID_OPTION, "%s",
                         r->reason[0] ? r->reason
                         : "these options do not fit this board");
    else if (rc != PUZ_OK)
        api_problem_set(&job->error, API_PROBLEM_INTERNAL, "the solver "
                         "failed: %s", puz_strerror(rc));
    else if (r->status == PUZ_UNSOLVABLE)
        api_problem_set(&job->error, API_PROBLEM_UNSOLVABLE, "%s",
                         r->reason);
    else if (result == NULL)
        api_problem_set(&job->error, API_PROBLEM_INTERNAL, "out of "
                         "memory encoding the result");
    if (rc != PUZ_OK || r->status == PUZ_UNSOLVABLE || result == NULL) {
        json_decref(result);
        set_state(j, job, JOBS_FAILED);
        return;
    }
    job->result = result;
    set_state(j, job, JOBS_DONE);
}

static void job_run(struct pool_job *pj, unsigned worker)
{
    jobs_job *job = (jobs_job *)pj;
    jobs_t *j = job->reg;
    struct puz_solve_opts o;
    struct puz_result r;
    json_t *result = NULL;
    puz_arena *a;
    puz_err rc = PUZ_ENOMEM;

    (void)worker;
    pthread_mutex_lock(&j->lock);
    if (job->state != JOBS_QUEUED) {    /* cancelled while it waited */
        pthread_mutex_unlock(&j->lock);
        return;
    }
    set_state(j, job, JOBS_RUNNING);
    pthread_mutex_unlock(&j->lock);
    memset(&r, 0, sizeof(r));
    a = puz_arena_create(256 * 1024);
    if (a != NULL) {
        solve_opts(job, a, &o);
        rc = puz_solve(&job->req.board, &o, a, &r);
    }
    /* Encoded before the arena (which holds the moves) goes. */
    if (rc == PUZ_OK && r.status != PUZ_CANCELLED
        && r.status != PUZ_UNSOLVABLE)
        result = codec_result_json(&job->req.board, &r,
                                   job->req.include_path);
    pthread_mutex_lock(&j->lock);
    settle(j, job, rc, &r, result);
    pthread_mutex_unlock(&j->lock);
    puz_arena_destroy(a);
}

static void job_done(struct pool_job *pj)
{
    jobs_job *job = (jobs_job *)pj;
    jobs_t *j = job->reg;

    pthread_mutex_lock(&j->lock);
    if (job->state == JOBS_QUEUED) {    /* the pool was stopping */
        snprintf(job->reason, sizeof(job->reason), "the server is "
                 "shutting down");
        set_state(j, job, JOBS_CANCELLED);
    }
    unref_locked(job);
    pthread_mutex_unlock(&j->lock);
}

/* --- the registry ------------------------------------------------------- */

jobs_err jobs_create(const struct jobs_config *cfg, jobs_t **out)
{
    struct pool_config pc = { cfg->workers, cfg->queue };
    jobs_t *j;

    *out = NULL;
    if (cfg->workers == 0 || cfg->queue == 0 || cfg->max == 0)
        return JOBS_ENOMEM;
    j = calloc(1, sizeof(*j));
    if (j == NULL)
        return JOBS_ENOMEM;
    j->cfg = *cfg;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->change, NULL);
    pthread_cond_init(&j->ended, NULL);
    if (pool_create(&pc, &j->pool) != POOL_OK) {
        jobs_destroy(j);
        return JOBS_ENOMEM;
    }
    j->st.workers = cfg->workers;
    j->st.queue = cfg->queue;
    *out = j;
    return JOBS_OK;
}

/* 128 bits from the kernel; a failing getrandom is not worth guessable
 * ids, so the caller refuses the job instead. */
static bool make_id(char *id)
{
    unsigned char raw[JOBS_ID_LEN / 2];

    if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
        return false;
    for (size_t i = 0; i < sizeof(raw); i++)
        snprintf(id + 2 * i, 3, "%02x", raw[i]);
    return true;
}

static jobs_job *job_new(jobs_t *j, const struct http_solve_request *q)
{
    jobs_job *job = calloc(1, sizeof(*job));

    if (job == NULL)
        return NULL;
    if (!make_id(job->id)) {
        free(job);
        return NULL;
    }
    job->reg = j;
    job->req = *q;
    job->pj.run = job_run;
    job->pj.done = job_done;
    job->state = JOBS_QUEUED;
    job->created_ms = wall_ms();
    job->refs = 3;              /* registry, pool, caller */
    return job;
}

static void link_front(jobs_t *j, jobs_job *job)
{
    job->next = j->head;
    if (j->head != NULL)
        j->head->prev = job;
    j->head = job;
    if (j->tail == NULL)
        j->tail = job;
    job->listed = true;
    j->count++;
    j->st.by_state[JOBS_QUEUED]++;
    j->st.submitted++;
    touched(j, job);
}

static json_t *job_locked(jobs_job *job);

jobs_err jobs_submit(jobs_t *j, const struct http_solve_request *q,
                     jobs_job **out, json_t **accepted)
{
    jobs_job *job = job_new(j, q);
    jobs_err rc = JOBS_OK;
    pool_err pr;

    *out = NULL;
    if (accepted != NULL)
        *accepted = NULL;
    if (job == NULL)
        return JOBS_ENOMEM;
    pthread_mutex_lock(&j->lock);
    expire_locked(j);
    if (j->closed)
        rc = JOBS_ECLOSED;
    else if (!make_room(j))
        rc = JOBS_EFULL;
    if (rc != JOBS_OK)
        goto out_refuse;
    /* Submitted under the lock: a worker that picks it up at once waits
     * for the lock before it looks at the job, by then listed. */
    pr = pool_submit(j->pool, &job->pj);
    if (pr != POOL_OK) {
        rc = pr == POOL_EFULL ? JOBS_EFULL : JOBS_ECLOSED;
        goto out_refuse;
    }
    link_front(j, job);
    /* Before any worker can move it on: the answer to the submit. */
    if (accepted != NULL)
        *accepted = job_locked(job);
    pthread_mutex_unlock(&j->lock);
    *out = job;
    return JOBS_OK;
out_refuse:
    j->st.rejected++;
    pthread_mutex_unlock(&j->lock);
    free(job);
    return rc;
}

static bool id_well_formed(const char *id)
{
    return id != NULL && strlen(id) == JOBS_ID_LEN
           && strspn(id, "0123456789abcdef") == JOBS_ID_LEN;
}

jobs_job *jobs_find(jobs_t *j, const char *id)
{
    jobs_job *found = NULL;

    if (!id_well_formed(id))
        return NULL;
    pthread_mutex_lock(&j->lock);
    expire_locked(j);
    for (jobs_job *job = j->head; job != NULL; job = job->next) {
        if (memcmp(job->id, id, JOBS_ID_LEN) == 0) {
            found = job;
            found->refs++;
            break;
        }
    }
    pthread_mutex_unlock(&j->lock);
    return found;
}

void jobs_release(jobs_t *j, jobs_job *job)
{
    if (job == NULL)
        return;
    pthread_mutex_lock(&j->lock);
    unref_locked(job);
    pthread_mutex_unlock(&j->lock);
}

const char *jobs_id(const jobs_job *job)
{
    return job->id;
}

/* Wait (lock held) until the job's worker has let go, at most ms. */
static void wait_ended(jobs_t *j, jobs_job *job, unsigned ms)
{
    struct timespec until;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (job->state == JOBS_RUNNING)
        if (pthread_cond_timedwait(&j->ended, &j->lock, &until) != 0)
            break;
}

jobs_err jobs_cancel(jobs_t *j, jobs_job *job, const char *reason,
                     unsigned wait_ms)
{
    jobs_err rc = JOBS_OK;

    pthread_mutex_lock(&j->lock);
    if (jobs_state_final(job->state)) {
        rc = JOBS_EFINISHED;
    } else {
        snprintf(job->reason, sizeof(job->reason), "%s", reason);
        atomic_store(&job->pj.cancel, 1);
        if (job->state == JOBS_QUEUED)
            set_state(j, job, JOBS_CANCELLED);
        else
            wait_ended(j, job, wait_ms);
    }
    pthread_mutex_unlock(&j->lock);
    return rc;
}

void jobs_forget(jobs_t *j, jobs_job *job)
{
    pthread_mutex_lock(&j->lock);
    forget_locked(j, job);
    pthread_mutex_unlock(&j->lock);
}

void jobs_snapshot(jobs_t *j, jobs_job *job, struct jobs_snap *out)
{
    pthread_mutex_lock(&j->lock);
    out->state = job->state;
    out->version = job->version;
    pthread_mutex_unlock(&j->lock);
}

/* --- JSON --------------------------------------------------------------- */

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

/* The progress numbers (lock held). */
static json_t *progress_locked(const jobs_job *job)
{
    const struct puz_progress *p = &job->progress;
    uint64_t elapsed = p->elapsed_us;
    double rate;

    if (job->state == JOBS_RUNNING)
        elapsed = puz_now_us() - job->started_us;
    else if (job->state == JOBS_QUEUED)
        elapsed = 0;
    rate = p->elapsed_us > 0 ? (double)p->expanded * 1e6
                               / (double)p->elapsed_us : 0;
    return json_pack("{s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
                     "expanded", (json_int_t)p->expanded,
                     "generated", (json_int_t)p->generated,
                     "nodes_per_s", (json_int_t)rate,
                     "elapsed_ms", (json_int_t)(elapsed / 1000),
                     "bound", uint_or_null(p->bound),
                     "lower_bound", uint_or_null(p->lower_bound),
                     "best_length", uint_or_null(p->best_length));
}

static json_t *job_locked(jobs_job *job)
{
    json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}",
                          "id", job->id,
                          "state", jobs_state_name(job->state),
                          "created_at", time_json(job->created_ms),
                          "started_at", time_json(job->started_ms),
                          "finished_at", time_json(job->finished_ms),
                          "progress", progress_locked(job));

    if (o == NULL)
        return NULL;
    if (job->state == JOBS_DONE && job->result != NULL)
        json_object_set_new(o, "result", json_deep_copy(job->result));
    if (job->state == JOBS_FAILED)
        json_object_set_new(o, "error", api_problem_json(&job->error,
                                                          NULL, NULL));
    if (job->state == JOBS_CANCELLED)
        json_object_set_new(o, "reason", json_string(job->reason));
    return o;
}

json_t *jobs_job_json(jobs_t *j, jobs_job *job, uint64_t *version)
{
    json_t *o;

    pthread_mutex_lock(&j->lock);
    o = job_locked(job);
    if (version != NULL)
        *version = job->version;
    pthread_mutex_unlock(&j->lock);
    return o;
}

json_t *jobs_progress_json(jobs_t *j, jobs_job *job, uint64_t *version)
{
    json_t *o;

    pthread_mutex_lock(&j->lock);
    o = progress_locked(job);
    if (o != NULL) {
        json_object_set_new(o, "id", json_string(job->id));
        json_object_set_new(o, "state", json_string(
                                jobs_state_name(job->state)));
    }
    if (version != NULL)
        *version = job->version;
    pthread_mutex_unlock(&j->lock);
    return o;
}

/* The list shows each job without its result (a page of 5x5 paths
 * would be large); GET /v1/jobs/{id} has it. */
json_t *jobs_list_json(jobs_t *j, int state, unsigned limit)
{
    json_t *list = json_array(), *o;
    unsigned n = 0;

    if (list == NULL)
        return NULL;
    pthread_mutex_lock(&j->lock);
    expire_locked(j);
    for (jobs_job *job = j->head; job != NULL && n < limit;
         job = job->next) {
        if (state >= 0 && job->state != (enum jobs_state)state)
            continue;
        o = job_locked(job);
        if (o != NULL) {
            json_object_del(o, "result");
            json_array_append_new(list, o);
            n++;
        }
    }
    pthread_mutex_unlock(&j->lock);
    return json_pack("{s:o, s:I, s:I}", "jobs", list, "count",
                     (json_int_t)n, "limit", (json_int_t)limit);
}

void jobs_wait_change(jobs_t *j, uint64_t *seen, unsigned timeout_ms)
{
    struct timespec until;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)timeout_ms * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&j->lock);
    while (j->changes == *seen)
        if (pthread_cond_timedwait(&j->change, &j->lock, &until) != 0)
            break;
    *seen = j->changes;
    pthread_mutex_unlock(&j->lock);
}

unsigned jobs_expire(jobs_t *j)
{
    unsigned n;

    pthread_mutex_lock(&j->lock);
    n = expire_locked(j);
    pthread_mutex_unlock(&j->lock);
    return n;
}

void jobs_shutdown(jobs_t *j, const char *reason)
{
    pool_t *pool;

    pthread_mutex_lock(&j->lock);
    j->closed = true;
    pool = j->pool;
    j->pool = NULL;
    for (jobs_job *job = j->head; job != NULL; job = job->next) {
        if (jobs_state_final(job->state))
            continue;
        snprintf(job->reason, sizeof(job->reason), "%s", reason);
        atomic_store(&job->pj.cancel, 1);
        if (job->state == JOBS_QUEUED)
            set_state(j, job, JOBS_CANCELLED);
    }
    pthread_mutex_unlock(&j->lock);
    /* Joins the workers: each running search sees its flag and ends. */
    pool_destroy(pool);
}

void jobs_get_stats(jobs_t *j, struct jobs_stats *out)
{
    pthread_mutex_lock(&j->lock);
    *out = j->st;
    pthread_mutex_unlock(&j->lock);
}

void jobs_destroy(jobs_t *j)
{
    if (j == NULL)
        return;
    jobs_shutdown(j, "the server is shutting down");
    pthread_mutex_lock(&j->lock);
    while (j->head != NULL)
        forget_locked(j, j->head);
    pthread_mutex_unlock(&j->lock);
    pthread_cond_destroy(&j->change);
    pthread_cond_destroy(&j->ended);
    pthread_mutex_destroy(&j->lock);
    free(j);
}
