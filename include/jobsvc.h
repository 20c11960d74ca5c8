/*
 * jobsvc.h - the jobs service: the one interface the /v1/jobs routes,
 * the event streams, /metrics and the server's start and shutdown use,
 * with two backends, the way the store has two (store.h):
 *   embedded  the in-memory registry of this process (jobs.h), the
 *             default;
 *   shared    the jobs every instance naming one Redis shares (jobq.h),
 *             when redis_url is set.
 * Above this header nobody knows which one runs: a job is its request's
 * bytes, submitted with an owner, an owner's cap and an optional
 * Idempotency-Key; it is read back as a struct jobs_view.
 *
 * What a job runs is the caller's (the API's): a jobsvc_run_fn handed
 * the request's bytes on a job worker, as both backends keep them.
 *
 * Errors are values: PUZ_OK, or a puz_err with msg (JOBSVC_MSG_MAX)
 * holding the whole sentence a client is told, except for PUZ_ELIMITED
 * (an owner's cap: the caller words it). PUZ_EIO means the backend
 * cannot be reached now (the shared store is down or full): a 503.
 */
#ifndef JOBSVC_H
#define JOBSVC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobq.h"
#include "jobs.h"
#include "puz_err.h"
#include "puz_solve.h"
#include "puz_tables.h"

typedef struct jobsvc jobsvc;

/* A refusal's sentence: a backend's reason (PUZ_MSG_MAX) and the words
 * around it. */
#define JOBSVC_MSG_MAX (2 * PUZ_MSG_MAX)

/* What a running job sees: its cancel flag and its id; the rest is the
 * backend's (for jobsvc_run_progress and jobsvc_run_units). */
struct jobsvc_run {
    const atomic_int *cancel;
    const char *job;
    jobsvc *svc;
    const void *impl;
    const char *trace;      /* the job's W3C trace-id; NULL or "": none
                             * (the units it sends elsewhere name it) */
};

/* A job's work: decode body (len bytes, the request as submitted) and
 * run it, filling *out as a jobs_task's run does (jobs.h). */
typedef void (*jobsvc_run_fn)(void *user, const char *body, size_t len,
                              const struct jobsvc_run *run,
                              struct jobs_outcome *out);

/* Start the embedded backend (cfg as jobs_create takes it) or the
 * shared one (cfg as jobq_create takes it, its run and user replaced by
 * these). PUZ_EINVAL, PUZ_ENOMEM; *out NULL on failure. */
puz_err jobsvc_create_embedded(const struct jobs_config *cfg,
                               jobsvc_run_fn run, void *user, jobsvc **out);
puz_err jobsvc_create_shared(const struct jobq_config *cfg,
                             jobsvc_run_fn run, void *user, jobsvc **out);

/* "embedded" or "shared". */
const char *jobsvc_backend(const jobsvc *s);

/* Whether its calls may wait on the network (the shared backend: up to
 * redis_timeout_ms): such calls must not run on a network thread. */
bool jobsvc_may_block(const jobsvc *s);

/*
 * Refuse new jobs and stop the running ones: embedded jobs end
 * cancelled with reason; shared ones give their lease back (another
 * instance runs them again). Joins the workers. Idempotent.
 */
void jobsvc_shutdown(jobsvc *s, const char *reason);
/* jobsvc_shutdown, then free. NULL is a no-op. */
void jobsvc_destroy(jobsvc *s);

/* A job as read: its view, whose body (the answer, when asked for)
 * stays valid until jobsvc_job_release. */
struct jobsvc_job {
    struct jobs_view v;
    void *held;             /* the backend's: a reference, or bytes */
};
/* Give j's hold back (a zeroed or released j: no-op). */
void jobsvc_job_release(jobsvc *s, struct jobsvc_job *j);

/* A submission: the request's bytes and who makes it. */
struct jobsvc_submit {
    const char *body;
    size_t len;
    const char *owner;          /* "" = nobody */
    unsigned owner_cap;         /* owner's jobs queued or running at
                                 * most; 0 = no cap */
    const struct jobs_idem *idem;   /* NULL or key "": none */
    const char *trace;          /* the W3C trace-id the job keeps (32
                                 * hex digits); NULL or "": none */
};

/*
 * Queue a job. *found as jobs_submit_idem's: NEW (out the new job as it
 * is now, without its answer), REPLAY (out the key's job as it is now,
 * its answer too; nothing made, no cap applied) or MISMATCH (nothing
 * made, out empty). Refusals: PUZ_EFULL (queue or job_max full),
 * PUZ_ELIMITED (owner at owner_cap), PUZ_ECLOSED, PUZ_ENOMEM, PUZ_EIO.
 * Release out on PUZ_OK.
 */
puz_err jobsvc_submit(jobsvc *s, const struct jobsvc_submit *a,
                      struct jobsvc_job *out, enum jobs_idem_found *found,
                      char *msg);

/* The job id (*found false: none, or id cannot be one); with answer,
 * its answer or problem too. Release out when found. */
puz_err jobsvc_find(jobsvc *s, const char *id, bool answer,
                    struct jobsvc_job *out, bool *found, char *msg);

/* Up to max views (newest first, no answers) of jobs in state (< 0:
 * all) of owner (NULL: anyone's); *n of them. */
puz_err jobsvc_list(jobsvc *s, int state, const char *owner,
                    struct jobs_view *out, size_t max, size_t *n,
                    char *msg);

/* What a cancel did (jobsvc_cancel's *what). */
enum jobsvc_cancelled {
    JOBSVC_NO_JOB = 0,      /* no such job */
    JOBSVC_STOPPED,         /* cancelled, or asked to stop */
    JOBSVC_FORGOTTEN,       /* it had finished: forgotten now */
};

/* DELETE: a queued or running job ends cancelled with reason (a running
 * one is waited for at most wait_ms); a finished one is forgotten. */
puz_err jobsvc_cancel(jobsvc *s, const char *id, const char *reason,
                      unsigned wait_ms, enum jobsvc_cancelled *what,
                      char *msg);

/* Called by a running job: its search's progress. */
void jobsvc_run_progress(const struct jobsvc_run *run,
                         const struct puz_progress *p);

/*
 * A parallel IDA*'s units of a running job: with the shared backend
 * they go to every instance's workers (jobq_units_run) when tables
 * serve goal; then o->run and o->run_user are set, and u (the caller's,
 * alive for the search) holds what they need. Otherwise o is left as
 * it is (this instance's threads) and false is returned.
 */
bool jobsvc_run_units(const struct jobsvc_run *run, const puz_tables *t,
                      const struct puz_board *start,
                      const struct puz_board *goal, unsigned threads,
                      struct jobq_units *u, struct puz_solve_opts *o);

/*
 * A job's events, for its event streams: its id (where the next
 * jobsvc_events call goes on from), its type ("progress" or the final
 * state's name) and the job as it showed, without its answer (read that
 * with jobsvc_find). The shared backend keeps each job's events in
 * Redis (job_events_max of them): an event's id is its stream id, one a
 * client can resume from (Last-Event-ID, through any instance). The
 * embedded one keeps no history: its one event is the job as it is
 * now (snapshot true, id its version), so a reader that falls behind
 * gets the latest state, not every step, and the stream numbers what
 * it sends itself.
 */
#define JOBSVC_EVENT_ID_MAX JOBQ_EVENT_ID_MAX
struct jobsvc_event {
    char id[JOBSVC_EVENT_ID_MAX];
    char type[16];
    bool snapshot;
    struct jobs_view v;
};

/* Whether id can be an event id of s's jobs that a client resumes from
 * (a Last-Event-ID); never for snapshots. */
bool jobsvc_event_id_ok(const jobsvc *s, const char *id);

/* The events of job after the event `after` (NULL: only its latest
 * one), at most max, oldest first; *n of them. *gone when the job no
 * longer exists (and no event is left). */
puz_err jobsvc_events(jobsvc *s, const char *job, const char *after,
                      struct jobsvc_event *out, size_t max, size_t *n,
                      bool *gone, char *msg);

/* Wait until some job may have changed since *seen (a counter every
 * change bumps, updated) or timeout_ms passed. The shared backend
 * cannot tell (another instance runs the job): it just waits. */
void jobsvc_wait_change(jobsvc *s, uint64_t *seen, unsigned timeout_ms);

/* Whether the service can take work, as its workers last found it (no
 * I/O): false with why (PUZ_MSG_MAX) while the shared queue is lost or
 * Redis is full. Always true for the embedded backend. */
bool jobsvc_ready(jobsvc *s, char *why);

/* The counters of /metrics: the registry's (embedded: its jobs; shared:
 * none held here, the workers and the queue's size), and with shared
 * true this instance's share of the shared jobs and the queue's length
 * across instances (asks Redis, at most redis_timeout_ms). */
struct jobsvc_stats {
    struct jobs_stats local;
    bool shared;
    struct jobq_stats q;
    unsigned queued;
};
void jobsvc_get_stats(jobsvc *s, struct jobsvc_stats *out);

#endif
