/*
 * jobsvc.c - the jobs service's interface (jobsvc.h): checks what every
 * backend would check, then hands each call to the backend's ops.
 */
#include "jobsvc_int.h"

#include <stdlib.h>
#include <string.h>

/* A service on ops, its sizes as configured (for refusals). */
static jobsvc *svc_new(const struct jobsvc__ops *ops, jobsvc_run_fn run,
                       void *user, unsigned workers, unsigned queue,
                       unsigned max)
{
    jobsvc *s = calloc(1, sizeof(*s));

    if (s != NULL)
        *s = (struct jobsvc){ .ops = ops, .run = run, .user = user,
                              .workers = workers, .queue = queue,
                              .max = max };
    return s;
}

/* Hand s out when its backend started, else free it. */
static puz_err svc_started(jobsvc *s, puz_err rc, jobsvc **out)
{
    if (rc != PUZ_OK)
        free(s);
    *out = rc == PUZ_OK ? s : NULL;
    return rc;
}

puz_err jobsvc_create_embedded(const struct jobs_config *cfg,
                               jobsvc_run_fn run, void *user, jobsvc **out)
{
    jobsvc *s = svc_new(&jobsvc__embedded, run, user, cfg->workers,
                        cfg->queue, cfg->max);
    struct jobs_config jc = *cfg;
    puz_err rc;

    *out = NULL;
    if (s == NULL)
        return PUZ_ENOMEM;
    s->db = jobsvc__db_open(cfg);
    if (s->db != NULL)
        jc.journal = jobsvc__db_journal(s->db);
    rc = jobs_create(&jc, &s->jobs);
    if (rc == PUZ_OK && s->db != NULL)
        jobsvc__db_load(s->db, s);     /* before any submission */
    if (rc != PUZ_OK)
        jobsvc__db_close(s->db);
    return svc_started(s, rc, out);
}

/* The shared backend's run function hands its job to ours. */
static void shared_run(void *user, const char *body, size_t len,
                       const struct jobq_run *run, struct jobs_outcome *out)
{
    jobsvc *s = user;
    const struct jobsvc_run r = { run->cancel, run->job, s, run,
                                  run->trace };

    s->run(s->user, body, len, &r, out);
}

puz_err jobsvc_create_shared(const struct jobq_config *cfg,
                             jobsvc_run_fn run, void *user, jobsvc **out)
{
    jobsvc *s = svc_new(&jobsvc__shared, run, user, cfg->workers,
                        cfg->queue, cfg->max);
    struct jobq_config qc = *cfg;

    *out = NULL;
    if (s == NULL)
        return PUZ_ENOMEM;
    qc.run = shared_run;
    qc.user = s;
    return svc_started(s, jobq_create(&qc, &s->q), out);
}

const char *jobsvc_backend(const jobsvc *s)
{
    return s->ops->name;
}

bool jobsvc_may_block(const jobsvc *s)
{
    return s->ops->may_block;
}

void jobsvc_shutdown(jobsvc *s, const char *reason)
{
    if (s != NULL)
        s->ops->shutdown(s, reason);
}

void jobsvc_destroy(jobsvc *s)
{
    if (s == NULL)
        return;
    jobs_destroy(s->jobs);      /* each NULL-safe: one of them is */
    jobq_destroy(s->q);
    jobsvc__db_close(s->db);    /* after the workers' last writes */
    free(s);
}

void jobsvc_job_release(jobsvc *s, struct jobsvc_job *j)
{
    if (j->held != NULL)
        s->ops->release(s, j);
    j->held = NULL;
}

puz_err jobsvc_submit(jobsvc *s, const struct jobsvc_submit *a,
                      struct jobsvc_job *out, enum jobs_idem_found *found,
                      char *msg)
{
    memset(out, 0, sizeof(*out));
    *found = JOBS_IDEM_NEW;
    msg[0] = '\0';
    return s->ops->submit(s, a, out, found, msg);
}

/* Whether id can be a job's: 32 lowercase hex digits. */
static bool id_ok(const char *id)
{
    return strlen(id) == JOBS_ID_LEN
           && strspn(id, "0123456789abcdef") == JOBS_ID_LEN;
}

puz_err jobsvc_find(jobsvc *s, const char *id, bool answer,
                    struct jobsvc_job *out, bool *found, char *msg)
{
    memset(out, 0, sizeof(*out));
    *found = false;
    msg[0] = '\0';
    if (!id_ok(id))
        return PUZ_OK;      /* cannot be an id: unknown, nothing asked */
    return s->ops->find(s, id, answer, out, found, msg);
}

puz_err jobsvc_list(jobsvc *s, int state, const char *owner,
                    struct jobs_view *out, size_t max, size_t *n,
                    char *msg)
{
    *n = 0;
    msg[0] = '\0';
    return s->ops->list(s, state, owner, out, max, n, msg);
}

puz_err jobsvc_cancel(jobsvc *s, const char *id, const char *reason,
                      unsigned wait_ms, enum jobsvc_cancelled *what,
                      char *msg)
{
    *what = JOBSVC_NO_JOB;
    msg[0] = '\0';
    if (!id_ok(id))
        return PUZ_OK;
    return s->ops->cancel(s, id, reason, wait_ms, what, msg);
}

void jobsvc_run_progress(const struct jobsvc_run *run,
                         const struct puz_progress *p)
{
    run->svc->ops->progress(run, p);
}

bool jobsvc_run_units(const struct jobsvc_run *run, const puz_tables *t,
                      const struct puz_board *start,
                      const struct puz_board *goal, unsigned threads,
                      struct jobq_units *u, struct puz_solve_opts *o)
{
    return run->svc->ops->units != NULL
           && run->svc->ops->units(run, t, start, goal, threads, u, o);
}

bool jobsvc_event_id_ok(const jobsvc *s, const char *id)
{
    return id != NULL && s->ops->event_id_ok(id);
}

puz_err jobsvc_events(jobsvc *s, const char *job, const char *after,
                      struct jobsvc_event *out, size_t max, size_t *n,
                      bool *gone, char *msg)
{
    *n = 0;
    *gone = false;
    msg[0] = '\0';
    if (!id_ok(job)) {
        *gone = true;
        return PUZ_OK;
    }
    return s->ops->events(s, job, after, out, max, n, gone, msg);
}

void jobsvc_wait_change(jobsvc *s, uint64_t *seen, unsigned timeout_ms)
{
    s->ops->wait_change(s, seen, timeout_ms);
}

bool jobsvc_ready(jobsvc *s, char *why)
{
    why[0] = '\0';
    return s->ops->ready(s, why);
}

void jobsvc_get_stats(jobsvc *s, struct jobsvc_stats *out)
{
    memset(out, 0, sizeof(*out));
    s->ops->stats(s, out);
}
