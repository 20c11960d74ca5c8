/*
 * jobs.c - the job registry and its runners. One mutex guards the list
 * of jobs (newest first), every job's fields and the counters; `change`
 * wakes watchers whenever any job changes, `ended` wakes jobs_cancel()
 * when a job's worker lets go of it. Jobs run on a pool of their own
 * (src/pool), so long solves never hold up the quick ones.
 *
 * A job is freed when its last reference goes: the registry holds one
 * while the job is listed, the pool one from submit to done(), and
 * every caller of jobs_submit/jobs_find one until jobs_release. What a
 * job runs is the API's business (struct jobs_task); the registry keeps
 * the answer's bytes it hands back, counted against results_max_bytes.
 *
 * With a journal (jobs.h) every job is written down when it is made,
 * started and ended, and forgotten there when it is forgotten here, all
 * under the lock, so the journal sees the same order the watchers do;
 * jobs_restore takes its rows back at the next start.
 */
#include "jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "pool.h"
#include "puz_clock.h"

struct jobs_job {
    struct pool_job pj;             /* first: the pool hands this back */
    jobs_t *reg;
    struct jobs_job *prev, *next;   /* the registry's list */
    unsigned refs;
    bool listed;
    char id[JOBS_ID_LEN + 1];
    struct jobs_task task;
    struct jobs_idem idem;          /* its Idempotency-Key; key "" none */
    uint64_t idem_until_us;         /* monotonic: the key binds until */
    enum jobs_state state;
    uint64_t version;
    unsigned attempts;              /* runs started */
    bool by_shutdown;               /* ended by jobs_shutdown: its row
                                     * stays as it was (jobs_journal) */
    int64_t created_ms, started_ms, finished_ms;    /* wall clock */
    uint64_t started_us, finished_us;               /* monotonic */
    struct puz_progress progress;
    char *body;                     /* done/failed: heap, never arena */
    size_t len;
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
    j->st.results_bytes -= job->len;
    j->count--;
}

/* The journal's copy of job (lock held): made, started or ended. A job
 * ended by shutdown keeps its row as it was, to run at the next start.
 * Nonzero when the journal could not write it. */
static int journal_put(jobs_t *j, const jobs_job *job, bool made)
{
    const struct jobs_journal *jn = j->cfg.journal;
    struct jobs_record r = { .state = job->state };

    if (jn == NULL || job->by_shutdown)
        return 0;
    memcpy(r.id, job->id, sizeof(r.id));
    memcpy(r.owner, job->task.owner, sizeof(r.owner));
    memcpy(r.trace, job->task.trace, sizeof(r.trace));
    r.idem = job->idem;
    if (job->idem.key[0] != '\0')
        r.idem_until_ms = job->created_ms + (int64_t)JOBS_IDEM_TTL_S * 1000;
    r.attempts = job->attempts;
    r.created_ms = job->created_ms;
    r.started_ms = job->started_ms;
    r.finished_ms = job->finished_ms;
    if (jobs_state_final(job->state) && job->started_us != 0)
        r.elapsed_us = job->finished_us - job->started_us;
    r.progress = job->progress;
    r.body = job->body;
    r.len = job->len;
    memcpy(r.reason, job->reason, sizeof(r.reason));
    return jn->put(jn->user, &r, &job->task, made);
}

/* Drop one reference with the lock held; frees on the last. */
static void unref_locked(jobs_job *job)
{
    if (--job->refs > 0)
        return;
    if (job->task.free_arg != NULL)
        job->task.free_arg(job->task.arg);
    free(job->body);
    free(job);
}

/* Forget job here and, when drop, in the journal too (lock held). */
static void unlist_locked(jobs_t *j, jobs_job *job, bool drop)
{
    if (!job->listed)
        return;
    if (drop && j->cfg.journal != NULL)
        j->cfg.journal->drop(j->cfg.journal->user, job->id);
    unlink_job(j, job);
    j->changes++;
    unref_locked(job);
}

static void forget_locked(jobs_t *j, jobs_job *job)
{
    unlist_locked(j, job, true);
}

static void set_state(jobs_t *j, jobs_job *job, enum jobs_state s)
{
    double secs;
    unsigned b = 0;

    j->st.by_state[job->state]--;
    j->st.by_state[s]++;
    job->state = s;
    if (s == JOBS_RUNNING) {
        job->attempts++;
        job->started_ms = puz_clock_wall_ms();
        job->started_us = puz_clock_mono_us();
    }
    if (jobs_state_final(s)) {
        job->finished_ms = puz_clock_wall_ms();
        job->finished_us = puz_clock_mono_us();
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
    journal_put(j, job, false);     /* a failed write: the journal says */
}

/* Forget finished jobs past their time (lock held). */
static unsigned expire_locked(jobs_t *j)
{
    uint64_t now = puz_clock_mono_us(), ttl = (uint64_t)j->cfg.ttl_s * 1000000u;
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

/* Forget the oldest finished job other than keep; false when none. */
static bool forget_oldest(jobs_t *j, const jobs_job *keep)
{
    for (jobs_job *job = j->tail; job != NULL; job = job->prev) {
        if (job != keep && jobs_state_final(job->state)) {
            forget_locked(j, job);
            return true;
        }
    }
    return false;
}

/* Make room for one more job: forget the oldest finished one. */
static bool make_room(jobs_t *j)
{
    return j->count < j->cfg.max || forget_oldest(j, NULL);
}

/* Make room for len more answer bytes (lock held): the oldest finished
 * go first. False when even then they do not fit. */
static bool make_room_bytes(jobs_t *j, const jobs_job *keep, size_t len)
{
    size_t cap = j->cfg.results_max_bytes;

    if (cap == 0)
        return true;
    if (len > cap)
        return false;
    while (j->st.results_bytes > cap - len)
        if (!forget_oldest(j, keep))
            return false;
    return true;
}

/* --- running a job (worker thread) -------------------------------------- */

void jobs_run_progress(const struct jobs_run *run,
                       const struct puz_progress *p)
{
    jobs_job *job = run->job;
    jobs_t *j = job->reg;

    pthread_mutex_lock(&j->lock);
    job->progress = *p;
    touched(j, job);
    pthread_mutex_unlock(&j->lock);
}

/* Settle a job after its task (lock held): keep its answer, within
 * the registry's byte budget (the oldest finished jobs go first). */
static void settle(jobs_t *j, jobs_job *job, struct jobs_outcome *o)
{
    enum jobs_state s = o->state;

    if (job->state == JOBS_CANCELLED)
        s = JOBS_CANCELLED;     /* cancelled while it ran: keep why */
    else if (!jobs_state_final(s))
        s = JOBS_CANCELLED;
    if (s != JOBS_CANCELLED && !make_room_bytes(j, job, o->len)) {
        snprintf(job->reason, sizeof(job->reason), "the answer (%zu "
                 "bytes) is larger than all finished jobs may hold "
                 "(job_results_max_bytes)", o->len);
        s = JOBS_CANCELLED;
    }
    if (s == JOBS_CANCELLED) {
        free(o->body);
        if (job->reason[0] == '\0')
            snprintf(job->reason, sizeof(job->reason), "cancelled");
        if (job->state != JOBS_CANCELLED)
            set_state(j, job, JOBS_CANCELLED);
        return;
    }
    job->body = o->body;
    job->len = o->len;
    j->st.results_bytes += o->len;
    set_state(j, job, s);
}

static void job_run(struct pool_job *pj, unsigned worker)
{
    jobs_job *job = (jobs_job *)pj;
    jobs_t *j = job->reg;
    struct jobs_run run = { &job->pj.cancel, job };
    struct jobs_outcome o = { JOBS_CANCELLED, NULL, 0 };

    (void)worker;
    pthread_mutex_lock(&j->lock);
    if (job->state != JOBS_QUEUED) {    /* cancelled while it waited */
        pthread_mutex_unlock(&j->lock);
        return;
    }
    set_state(j, job, JOBS_RUNNING);
    pthread_mutex_unlock(&j->lock);
    job->task.run(job->task.arg, &run, &o);
    pthread_mutex_lock(&j->lock);
    settle(j, job, &o);
    pthread_mutex_unlock(&j->lock);
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

puz_err jobs_create(const struct jobs_config *cfg, jobs_t **out)
{
    struct pool_config pc = { cfg->workers, cfg->queue, cfg->nice };
    jobs_t *j;
    puz_err rc;

    *out = NULL;
    if (cfg->workers == 0 || cfg->queue == 0 || cfg->max == 0)
        return PUZ_EINVAL;
    j = calloc(1, sizeof(*j));
    if (j == NULL)
        return PUZ_ENOMEM;
    j->cfg = *cfg;
    if (j->cfg.max_attempts == 0)
        j->cfg.max_attempts = 3;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->change, NULL);
    pthread_cond_init(&j->ended, NULL);
    rc = pool_create(&pc, &j->pool);
    if (rc != PUZ_OK) {
        jobs_destroy(j);
        return rc;
    }
    j->st.workers = cfg->workers;
    j->st.queue = cfg->queue;
    *out = j;
    return PUZ_OK;
}

static bool id_well_formed(const char *id)
{
    return id != NULL && strlen(id) == JOBS_ID_LEN
           && strspn(id, "0123456789abcdef") == JOBS_ID_LEN;
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

static jobs_job *job_new(jobs_t *j, const struct jobs_task *task)
{
    jobs_job *job = calloc(1, sizeof(*job));

    if (job == NULL)
        return NULL;
    if (!make_id(job->id)) {
        free(job);
        return NULL;
    }
    job->reg = j;
    job->task = *task;
    job->pj.run = job_run;
    job->pj.done = job_done;
    job->state = JOBS_QUEUED;
    job->created_ms = puz_clock_wall_ms();
    job->refs = 3;              /* registry, pool, caller */
    return job;
}

/* List job as the newest (lock held), in the state it has. */
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
    j->st.by_state[job->state]++;
    j->st.results_bytes += job->len;
    touched(j, job);
}

/* The job bound to idem's key (lock held), or NULL: a listed job whose
 * key it is, within JOBS_IDEM_TTL_S of its making. A job no longer
 * listed (expired, forgotten) frees its key. */
static jobs_job *idem_job_locked(jobs_t *j, const struct jobs_idem *idem)
{
    uint64_t now = puz_clock_mono_us();

    if (idem == NULL || idem->key[0] == '\0')
        return NULL;
    for (jobs_job *job = j->head; job != NULL; job = job->next)
        if (now < job->idem_until_us
            && strcmp(job->idem.key, idem->key) == 0)
            return job;
    return NULL;
}

/* What idem's key finds (lock held); the job, referenced, on REPLAY. */
static enum jobs_idem_found idem_find_locked(jobs_t *j,
                                             const struct jobs_idem *idem,
                                             jobs_job **out)
{
    jobs_job *job = idem_job_locked(j, idem);

    *out = NULL;
    if (job == NULL)
        return JOBS_IDEM_NEW;
    if (strcmp(job->idem.body, idem->body) != 0)
        return JOBS_IDEM_MISMATCH;
    job->refs++;
    *out = job;
    return JOBS_IDEM_REPLAY;
}

enum jobs_idem_found jobs_find_idem(jobs_t *j, const struct jobs_idem *idem,
                                    jobs_job **out)
{
    enum jobs_idem_found found;

    pthread_mutex_lock(&j->lock);
    expire_locked(j);
    found = idem_find_locked(j, idem, out);
    pthread_mutex_unlock(&j->lock);
    return found;
}

puz_err jobs_submit(jobs_t *j, const struct jobs_task *task,
                    jobs_job **out)
{
    enum jobs_idem_found found;

    return jobs_submit_idem(j, task, NULL, out, &found);
}

puz_err jobs_submit_idem(jobs_t *j, const struct jobs_task *task,
                         const struct jobs_idem *idem, jobs_job **out,
                         enum jobs_idem_found *found)
{
    jobs_job *job = job_new(j, task);
    puz_err rc = PUZ_OK;

    *out = NULL;
    *found = JOBS_IDEM_NEW;
    if (job == NULL)
        return PUZ_ENOMEM;
    if (idem != NULL && idem->key[0] != '\0') {
        job->idem = *idem;
        job->idem_until_us = puz_clock_mono_us()
                             + (uint64_t)JOBS_IDEM_TTL_S * 1000000u;
    }
    pthread_mutex_lock(&j->lock);
    expire_locked(j);
    *found = idem_find_locked(j, idem, out);
    if (*found != JOBS_IDEM_NEW) {
        pthread_mutex_unlock(&j->lock);
        free(job);          /* the task's arg stays the caller's */
        return PUZ_OK;
    }
    if (j->closed)
        rc = PUZ_ECLOSED;
    else if (!make_room(j))
        rc = PUZ_EFULL;
    /* Written down before it can run, and before its answer goes out: an
     * accepted job outlives the process. */
    if (rc == PUZ_OK && journal_put(j, job, true) != 0)
        rc = PUZ_EIO;
    /* Submitted under the lock: a worker that picks it up at once waits
     * for the lock before it looks at the job, by then listed. */
    if (rc == PUZ_OK) {
        rc = pool_submit(j->pool, &job->pj);
        if (rc != PUZ_OK && j->cfg.journal != NULL)
            j->cfg.journal->drop(j->cfg.journal->user, job->id);
    }
    if (rc != PUZ_OK) {
        j->st.rejected++;
        pthread_mutex_unlock(&j->lock);
        free(job);          /* the task's arg stays the caller's */
        return rc;
    }
    link_front(j, job);
    j->st.submitted++;
    pthread_mutex_unlock(&j->lock);
    *out = job;
    return PUZ_OK;
}


/* --- restoring what the journal kept ------------------------------------ */

/* The monotonic time (µs) of a wall-clock ms: now's, moved by the
 * difference; 0 when that is before the monotonic clock's start. */
static uint64_t mono_of(int64_t wall_ms)
{
    int64_t d = wall_ms - puz_clock_wall_ms();
    uint64_t now = puz_clock_mono_us();

    if (d >= 0)
        return now + (uint64_t)d * 1000u;
    return (uint64_t)-d * 1000u < now ? now - (uint64_t)-d * 1000u : 0;
}

/* A restored job as its record says (not listed yet). */
static jobs_job *job_of_record(jobs_t *j, const struct jobs_task *task,
                               const struct jobs_record *r)
{
    jobs_job *job = calloc(1, sizeof(*job));

    if (job == NULL)
        return NULL;
    memcpy(job->id, r->id, sizeof(job->id));
    job->reg = j;
    job->task = *task;
    job->pj.run = job_run;
    job->pj.done = job_done;
    job->state = r->state;
    job->attempts = r->attempts;
    job->created_ms = r->created_ms;
    job->started_ms = r->started_ms;
    job->finished_ms = r->finished_ms;
    memcpy(job->reason, r->reason, sizeof(job->reason));
    job->reason[sizeof(job->reason) - 1] = '\0';
    if (r->idem.key[0] != '\0') {
        job->idem = r->idem;
        job->idem_until_us = mono_of(r->idem_until_ms);
    }
    job->refs = 1;              /* registry */
    return job;
}

/* A finished job kept for the rest of its time (lock held). */
static puz_err restore_finished(jobs_t *j, jobs_job *job,
                                const struct jobs_record *r)
{
    int64_t age_ms = puz_clock_wall_ms() - r->finished_ms;

    if (age_ms >= (int64_t)j->cfg.ttl_s * 1000)
        return PUZ_EFINISHED;
    if (!make_room(j) || !make_room_bytes(j, NULL, r->len))
        return PUZ_EFULL;
    if (r->len != 0) {
        job->body = malloc(r->len);
        if (job->body == NULL)
            return PUZ_ENOMEM;
        memcpy(job->body, r->body, r->len);
        job->len = r->len;
    }
    job->finished_us = mono_of(r->finished_ms);
    job->progress = r->progress;
    if (r->started_ms != 0 && job->finished_us > r->elapsed_us)
        job->started_us = job->finished_us - r->elapsed_us;
    link_front(j, job);
    return PUZ_OK;
}

/* A job that was queued or running, queued again; one that had its
 * runs ends failed (lock held). */
static puz_err restore_unfinished(jobs_t *j, jobs_job *job)
{
    bool was_running = job->state == JOBS_RUNNING;
    puz_err rc;

    if (!make_room(j))
        return PUZ_EFULL;
    job->state = JOBS_QUEUED;
    job->started_ms = 0;
    if (was_running && job->attempts >= j->cfg.max_attempts) {
        snprintf(job->reason, sizeof(job->reason), "gave up after %u "
                 "attempts: the server stopped while it ran",
                 job->attempts);
        link_front(j, job);
        set_state(j, job, JOBS_FAILED);     /* written down there */
        return PUZ_OK;
    }
    job->refs++;                /* the pool's */
    rc = pool_submit(j->pool, &job->pj);
    if (rc != PUZ_OK) {
        job->refs--;
        return rc;
    }
    link_front(j, job);
    if (was_running)            /* its row says queued again */
        journal_put(j, job, false);
    return PUZ_OK;
}

puz_err jobs_restore(jobs_t *j, const struct jobs_task *task,
                     const struct jobs_record *r)
{
    jobs_job *job;
    puz_err rc;

    if (!id_well_formed(r->id) || (unsigned)r->state >= JOBS_STATE_COUNT_)
        return PUZ_EINVAL;
    job = job_of_record(j, task, r);
    if (job == NULL)
        return PUZ_ENOMEM;
    pthread_mutex_lock(&j->lock);
    if (j->closed)
        rc = PUZ_ECLOSED;
    else if (jobs_state_final(r->state))
        rc = restore_finished(j, job, r);
    else
        rc = restore_unfinished(j, job);
    pthread_mutex_unlock(&j->lock);
    if (rc != PUZ_OK) {
        free(job->body);
        free(job);              /* the task's arg stays the caller's */
    }
    return rc;
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
    struct timespec until = puz_clock_timespec_in(PUZ_CLOCK_WALL, ms);

    while (job->state == JOBS_RUNNING)
        if (pthread_cond_timedwait(&j->ended, &j->lock, &until) != 0)
            break;
}

puz_err jobs_cancel(jobs_t *j, jobs_job *job, const char *reason,
                    unsigned wait_ms)
{
    puz_err rc = PUZ_OK;

    pthread_mutex_lock(&j->lock);
    if (jobs_state_final(job->state)) {
        rc = PUZ_EFINISHED;
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

unsigned jobs_count_active(jobs_t *j, const char *owner)
{
    unsigned n = 0;

    pthread_mutex_lock(&j->lock);
    for (jobs_job *job = j->head; job != NULL; job = job->next)
        n += !jobs_state_final(job->state)
             && strcmp(job->task.owner, owner) == 0;
    pthread_mutex_unlock(&j->lock);
    return n;
}

/* The view of a job (lock held). */
static void view_locked(const jobs_job *job, struct jobs_view *v)
{
    memcpy(v->id, job->id, sizeof(v->id));
    memcpy(v->owner, job->task.owner, sizeof(v->owner));
    memcpy(v->trace, job->task.trace, sizeof(v->trace));
    v->state = job->state;
    v->version = job->version;
    v->attempts = job->attempts;
    v->created_ms = job->created_ms;
    v->started_ms = job->started_ms;
    v->finished_ms = job->finished_ms;
    v->progress = job->progress;
    v->elapsed_us = 0;
    if (job->state == JOBS_RUNNING)
        v->elapsed_us = puz_clock_mono_us() - job->started_us;
    else if (jobs_state_final(job->state) && job->started_us != 0)
        v->elapsed_us = job->finished_us - job->started_us;
    memcpy(v->reason, job->reason, sizeof(v->reason));
    v->body = job->body;
    v->len = job->len;
}

void jobs_view_get(jobs_t *j, jobs_job *job, struct jobs_view *out)
{
    pthread_mutex_lock(&j->lock);
    view_locked(job, out);
    pthread_mutex_unlock(&j->lock);
}

size_t jobs_list(jobs_t *j, int state, const char *owner,
                 struct jobs_view *out, size_t max)
{
    size_t n = 0;

    pthread_mutex_lock(&j->lock);
    expire_locked(j);
    for (jobs_job *job = j->head; job != NULL && n < max; job = job->next)
        if ((state < 0 || job->state == (enum jobs_state)state)
            && (owner == NULL || strcmp(job->task.owner, owner) == 0))
            view_locked(job, &out[n++]);
    pthread_mutex_unlock(&j->lock);
    /* A list is summaries: no answer's bytes outlive the lock here. */
    for (size_t i = 0; i < n; i++) {
        out[i].body = NULL;
        out[i].len = 0;
    }
    return n;
}

void jobs_wait_change(jobs_t *j, uint64_t *seen, unsigned timeout_ms)
{
    struct timespec until = puz_clock_timespec_in(PUZ_CLOCK_WALL,
                                                  timeout_ms);

    pthread_mutex_lock(&j->lock);
    while (j->changes == *seen)
        if (pthread_cond_timedwait(&j->change, &j->lock, &until) != 0)
            break;
    *seen = j->changes;
    pthread_mutex_unlock(&j->lock);
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
        /* Not asked to stop before (by a DELETE): its row stays. */
        job->by_shutdown = atomic_load(&job->pj.cancel) == 0;
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
    while (j->head != NULL)     /* the journal keeps its rows */
        unlist_locked(j, j->head, false);
    pthread_mutex_unlock(&j->lock);
    pthread_cond_destroy(&j->change);
    pthread_cond_destroy(&j->ended);
    pthread_mutex_destroy(&j->lock);
    free(j);
}
