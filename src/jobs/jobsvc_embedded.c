/*
 * jobsvc_embedded.c - the jobs service's embedded backend: this
 * process's registry (jobs.h). A job's task is its request's bytes,
 * handed to the service's run function on a job worker, as the shared
 * backend hands them; a read holds a reference, so a finished job's
 * answer is read where it lies, never copied. With the embedded store
 * the jobs are kept in its SQLite file too (jobsvc_db.c).
 */
#include "jobsvc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A job's task: the request's bytes, and the service that runs them. */
struct task {
    jobsvc *svc;
    size_t len;
    char body[];
};

static void task_run(void *arg, const struct jobs_run *run,
                     struct jobs_outcome *out)
{
    struct task *t = arg;
    const struct jobsvc_run r = { run->cancel, jobs_id(run->job), t->svc,
                                  run, "" };

    jobsvc__db_checkpoint(t->svc->db);
    t->svc->run(t->svc->user, t->body, t->len, &r, out);
}

/* out holds job (our reference), as it is now. */
static void hold(jobsvc *s, jobs_job *job, bool answer,
                 struct jobsvc_job *out)
{
    jobs_view_get(s->jobs, job, &out->v);
    if (!answer) {
        out->v.body = NULL;
        out->v.len = 0;
    }
    out->held = job;
}

puz_err jobsvc__task_make(jobsvc *s, const void *body, size_t len,
                          const char *owner, const char *trace,
                          struct jobs_task *out)
{
    struct task *t = malloc(sizeof(*t) + len);

    *out = (struct jobs_task){ task_run, free, t, "", "" };
    if (t == NULL)
        return PUZ_ENOMEM;
    t->svc = s;
    t->len = len;
    if (len != 0)
        memcpy(t->body, body, len);
    snprintf(out->owner, sizeof(out->owner), "%s", owner);
    snprintf(out->trace, sizeof(out->trace), "%s",
             trace != NULL ? trace : "");
    return PUZ_OK;
}

const char *jobsvc__task_body(const struct jobs_task *t, size_t *len)
{
    const struct task *k = t->arg;

    *len = k->len;
    return k->body;
}

static puz_err emb_submit(jobsvc *s, const struct jobsvc_submit *a,
                          struct jobsvc_job *out,
                          enum jobs_idem_found *found, char *msg)
{
    struct jobs_task task;
    jobs_job *job = NULL;
    puz_err rc;

    /* A replay makes nothing: the owner's cap does not apply to it. */
    if (a->idem != NULL && a->idem->key[0] != '\0')
        *found = jobs_find_idem(s->jobs, a->idem, &job);
    if (*found == JOBS_IDEM_REPLAY)
        hold(s, job, true, out);
    if (*found != JOBS_IDEM_NEW)
        return PUZ_OK;
    if (a->owner_cap != 0
        && jobs_count_active(s->jobs, a->owner) >= a->owner_cap)
        return PUZ_ELIMITED;
    rc = jobsvc__task_make(s, a->body, a->len, a->owner, a->trace, &task);
    if (rc == PUZ_OK)   /* looked up again under the registry's lock */
        rc = jobs_submit_idem(s->jobs, &task, a->idem, &job, found);
    if (rc != PUZ_OK || *found != JOBS_IDEM_NEW)
        free(task.arg);
    if (rc == PUZ_EFULL)
        snprintf(msg, JOBSVC_MSG_MAX, "%u job workers are busy and %u "
                 "jobs are waiting (or %u are held); retry after the "
                 "delay in Retry-After", s->workers, s->queue, s->max);
    else if (rc == PUZ_EIO)
        snprintf(msg, JOBSVC_MSG_MAX, "the job could not be written to "
                 "the store (state_dir), so it was not taken; retry "
                 "after the delay in Retry-After");
    else if (rc != PUZ_OK)
        snprintf(msg, JOBSVC_MSG_MAX, "no new jobs are taken: %s",
                 puz_strerror(rc));
    else if (*found != JOBS_IDEM_MISMATCH)
        hold(s, job, *found == JOBS_IDEM_REPLAY, out);
    return rc;
}

static puz_err emb_find(jobsvc *s, const char *id, bool answer,
                        struct jobsvc_job *out, bool *found, char *msg)
{
    jobs_job *job = jobs_find(s->jobs, id);

    (void)msg;
    *found = job != NULL;
    if (job != NULL)
        hold(s, job, answer, out);
    return PUZ_OK;
}

static void emb_release(jobsvc *s, struct jobsvc_job *j)
{
    jobs_release(s->jobs, j->held);
}

static puz_err emb_list(jobsvc *s, int state, const char *owner,
                        struct jobs_view *out, size_t max, size_t *n,
                        char *msg)
{
    (void)msg;
    *n = jobs_list(s->jobs, state, owner, out, max);
    return PUZ_OK;
}

static puz_err emb_cancel(jobsvc *s, const char *id, const char *reason,
                          unsigned wait_ms, enum jobsvc_cancelled *what,
                          char *msg)
{
    jobs_job *job = jobs_find(s->jobs, id);

    (void)msg;
    if (job == NULL)
        return PUZ_OK;
    *what = JOBSVC_STOPPED;
    if (jobs_cancel(s->jobs, job, reason, wait_ms) == PUZ_EFINISHED) {
        jobs_forget(s->jobs, job);
        *what = JOBSVC_FORGOTTEN;
    }
    jobs_release(s->jobs, job);
    return PUZ_OK;
}

static void emb_progress(const struct jobsvc_run *run,
                         const struct puz_progress *p)
{
    jobs_run_progress(run->impl, p);
}

/* Digits: a version (below 2^63), as emb_events hands it out. */
static bool version_ok(const char *id)
{
    size_t n = strspn(id, "0123456789");

    return n > 0 && n <= 18 && id[n] == '\0';
}

/* Snapshots have no ids a client resumes from. */
static bool emb_event_id_ok(const char *id)
{
    (void)id;
    return false;
}

/* No history: the job as it is now, when its version is past after. */
static puz_err emb_events(jobsvc *s, const char *job, const char *after,
                          struct jobsvc_event *out, size_t max, size_t *n,
                          bool *gone, char *msg)
{
    jobs_job *j = jobs_find(s->jobs, job);
    struct jobs_view v;

    (void)msg;
    *gone = j == NULL;
    if (j == NULL)
        return PUZ_OK;
    jobs_view_get(s->jobs, j, &v);
    jobs_release(s->jobs, j);
    v.body = NULL;      /* gone with the reference */
    v.len = 0;
    if (max == 0 || (after != NULL && version_ok(after)
                     && v.version <= strtoull(after, NULL, 10)))
        return PUZ_OK;
    out->v = v;
    out->snapshot = true;
    snprintf(out->id, sizeof(out->id), "%llu",
             (unsigned long long)v.version);
    snprintf(out->type, sizeof(out->type), "%s", jobs_state_final(v.state)
             ? jobs_state_name(v.state) : "progress");
    *n = 1;
    return PUZ_OK;
}

static void emb_wait_change(jobsvc *s, uint64_t *seen, unsigned timeout_ms)
{
    jobs_wait_change(s->jobs, seen, timeout_ms);
}

static bool emb_ready(jobsvc *s, char *why)
{
    (void)s;
    (void)why;
    return true;
}

static void emb_stats(jobsvc *s, struct jobsvc_stats *out)
{
    jobs_get_stats(s->jobs, &out->local);
}

static void emb_shutdown(jobsvc *s, const char *reason)
{
    jobs_shutdown(s->jobs, reason);
}

/* In jobsvc_int.h's order; no units of its own: this instance's
 * threads run them (pool_run_units). */
const struct jobsvc__ops jobsvc__embedded = {
    "embedded", false, emb_submit, emb_find, emb_release, emb_list,
    emb_cancel, emb_progress, NULL, emb_event_id_ok, emb_events,
    emb_wait_change, emb_ready, emb_stats,
    emb_shutdown,
};
