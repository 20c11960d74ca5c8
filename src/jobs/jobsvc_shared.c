/*
 * jobsvc_shared.c - the jobs service's shared backend: the jobs every
 * instance naming one Redis shares (jobq.h). Its refusals are worded
 * here, where it is known that the store is Redis; a read copies the
 * answer out of Redis (the hold is those bytes).
 */
#include "jobsvc_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Redis failed (or is away): PUZ_EIO, a 503 with Retry-After. */
static puz_err unavailable(char *msg, const char *why)
{
    char tmp[PUZ_MSG_MAX];

    snprintf(tmp, sizeof(tmp), "%s", why);
    snprintf(msg, JOBSVC_MSG_MAX, "jobs are kept in the shared store, "
             "which cannot be reached now (%s); retry after the delay in "
             "Retry-After", tmp);
    return PUZ_EIO;
}

static puz_err sh_find(jobsvc *s, const char *id, bool answer,
                       struct jobsvc_job *out, bool *found, char *msg)
{
    char m[PUZ_MSG_MAX] = "", *result = NULL;
    puz_err rc = jobq_find(s->q, id, &out->v, answer ? &result : NULL,
                           found, m);

    if (rc != PUZ_OK)
        return unavailable(msg, m);
    out->held = result;     /* NULL: nothing to give back */
    return PUZ_OK;
}

/* Why a submission was refused: Redis full or away (PUZ_EIO), the queue
 * full (PUZ_EFULL) or the owner's cap (PUZ_ELIMITED, worded above). */
static puz_err refused(jobsvc *s, puz_err rc, const char *m, char *msg)
{
    if (rc == PUZ_EFULL && m[0] != '\0') {      /* Redis itself */
        snprintf(msg, JOBSVC_MSG_MAX, "no job is taken now: %s; retry "
                 "after the delay in Retry-After", m);
        return PUZ_EIO;
    }
    if (rc == PUZ_EFULL) {
        snprintf(msg, JOBSVC_MSG_MAX, "%u jobs are waiting across the "
                 "instances (or %u are held); retry after the delay in "
                 "Retry-After", s->queue, s->max);
        return PUZ_EFULL;
    }
    if (rc == PUZ_ELIMITED)
        return rc;
    return unavailable(msg, m);
}

static puz_err sh_submit(jobsvc *s, const struct jobsvc_submit *a,
                         struct jobsvc_job *out,
                         enum jobs_idem_found *found, char *msg)
{
    char id[JOBS_ID_LEN + 1], m[PUZ_MSG_MAX] = "";
    bool there = false;
    puz_err rc;

    rc = jobq_submit_traced(s->q, a->body, a->len, a->owner,
                            a->owner_cap, a->idem,
                            a->trace != NULL ? a->trace : "", id, found, m);
    if (rc != PUZ_OK)
        return refused(s, rc, m, msg);
    if (*found == JOBS_IDEM_MISMATCH)
        return PUZ_OK;
    /* A replay shows the key's job as it is now, its answer too. */
    rc = sh_find(s, id, *found == JOBS_IDEM_REPLAY, out, &there, msg);
    if (rc == PUZ_OK && !there) {
        jobsvc_job_release(s, out);
        return unavailable(msg, "the job vanished");
    }
    return rc;
}

static void sh_release(jobsvc *s, struct jobsvc_job *j)
{
    (void)s;
    free(j->held);
}

static puz_err sh_list(jobsvc *s, int state, const char *owner,
                       struct jobs_view *out, size_t max, size_t *n,
                       char *msg)
{
    char m[PUZ_MSG_MAX] = "";

    if (jobq_list(s->q, state, owner, out, max, n, m) != PUZ_OK)
        return unavailable(msg, m);
    return PUZ_OK;
}

static puz_err sh_cancel(jobsvc *s, const char *id, const char *reason,
                         unsigned wait_ms, enum jobsvc_cancelled *what,
                         char *msg)
{
    char m[PUZ_MSG_MAX] = "";
    int how = 0;

    if (jobq_cancel(s->q, id, reason, wait_ms, &how, m) != PUZ_OK)
        return unavailable(msg, m);
    *what = how == 2 ? JOBSVC_FORGOTTEN : how == 1 ? JOBSVC_STOPPED
            : JOBSVC_NO_JOB;
    return PUZ_OK;
}

static void sh_progress(const struct jobsvc_run *run,
                        const struct puz_progress *p)
{
    jobq_run_progress(run->impl, p);
}

/* The units go to every instance's job workers when the tables serve
 * the goal (each instance must read the same set). */
static bool sh_units(const struct jobsvc_run *run, const puz_tables *t,
                     const struct puz_board *start,
                     const struct puz_board *goal, unsigned threads,
                     struct jobq_units *u, struct puz_solve_opts *o)
{
    const char *tables = jobq_units_tables(t, goal);

    if (tables[0] == '\0')
        return false;
    *u = (struct jobq_units){ run->svc->q, run->job, run->cancel, start,
                              goal, "", threads,
                              run->trace != NULL ? run->trace : "" };
    snprintf(u->tables, sizeof(u->tables), "%s", tables);
    o->run = jobq_units_run;
    o->run_user = u;
    return true;
}

#define EVENTS_A_CALL 16

static puz_err sh_events(jobsvc *s, const char *job, const char *after,
                         struct jobsvc_event *out, size_t max, size_t *n,
                         bool *gone, char *msg)
{
    struct jobq_event ev[EVENTS_A_CALL];
    char m[PUZ_MSG_MAX] = "";

    if (max > EVENTS_A_CALL)
        max = EVENTS_A_CALL;
    if (jobq_events(s->q, job, after, ev, max, n, gone, m) != PUZ_OK)
        return unavailable(msg, m);
    for (size_t i = 0; i < *n; i++) {
        memcpy(out[i].id, ev[i].id, sizeof(out[i].id));
        memcpy(out[i].type, ev[i].type, sizeof(out[i].type));
        out[i].snapshot = false;
        out[i].v = ev[i].v;
    }
    return PUZ_OK;
}

/* Another instance may change a job: nothing here tells; a poll. */
static void sh_wait_change(jobsvc *s, uint64_t *seen, unsigned timeout_ms)
{
    (void)s;
    (void)seen;
    usleep(timeout_ms * 1000u);
}

static bool sh_ready(jobsvc *s, char *why)
{
    return jobq_ready(s->q, why);
}

/* No job is held in this process: the registry's counters are zero but
 * for its size as configured. */
static void sh_stats(jobsvc *s, struct jobsvc_stats *out)
{
    out->local.workers = s->workers;
    out->local.queue = s->queue;
    out->shared = true;
    jobq_get_stats(s->q, &out->q);
    out->queued = jobq_queued(s->q);
}

static void sh_shutdown(jobsvc *s, const char *reason)
{
    (void)reason;       /* running jobs give their lease back instead */
    jobq_shutdown(s->q);
}

/* In jobsvc_int.h's order. */
const struct jobsvc__ops jobsvc__shared = {
    "shared", true, sh_submit, sh_find, sh_release, sh_list,
    sh_cancel, sh_progress, sh_units, jobq_event_id_ok, sh_events,
    sh_wait_change, sh_ready, sh_stats,
    sh_shutdown,
};
