/*
 * jobs.h - long work as jobs: a registry of submitted tasks, the worker
 * threads that run them (their own pool, apart from the quick solves'),
 * their life cycle and the state a watcher sees. A service of plain
 * structs: it knows neither JSON nor HTTP. It is the embedded backend of
 * the jobs service (jobsvc.h, jobsvc_embedded.c), which hands it a task
 * (a request's bytes, run by the API: the same solve work /v1/solve
 * does) and reads the job back as a struct jobs_view.
 *
 * A job is queued, then running, then ends done, cancelled or failed;
 * nothing else moves it. Its id is 128 random bits (32 hex digits).
 * Finished jobs are kept ttl_s seconds; at most `max` jobs are held and
 * at most results_max_bytes of answers, the oldest finished forgotten
 * first. Everything here is thread-safe: one mutex guards the registry
 * and the jobs in it; a running task takes it only to report progress
 * (every ~100 ms) and at the end.
 *
 * References: jobs_submit and jobs_find hand out a reference the caller
 * gives back with jobs_release; a job stays readable while referenced
 * even after the registry forgot it, and a finished job's answer bytes
 * never change, so a holder reads them without the lock.
 */
#ifndef JOBS_H
#define JOBS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puz_err.h"
#include "puz_solve.h"

#define JOBS_ID_LEN 32      /* hex digits */
#define JOBS_OWNER_MAX 32   /* bytes of an owner's name; "" = nobody */
#define JOBS_TRACE_LEN 32   /* hex digits of a W3C trace-id */

/*
 * An Idempotency-Key submission (POST /v1/jobs, the IETF draft
 * httpapi-idempotency-key-header): the caller's key, scoped to the
 * caller, and the body it came with, each as a SHA-256 in hex (the API
 * makes them, api_jobs.c). key "" = no Idempotency-Key. A key is bound
 * to the job its first submission made for as long as that job is kept
 * and at most JOBS_IDEM_TTL_S: a second submission with the same key
 * finds the job (the same body) or is refused (another body).
 */
#define JOBS_IDEM_LEN 64            /* hex digits of a SHA-256 */
#define JOBS_IDEM_TTL_S 86400u      /* 24 h, the longest a key binds */

struct jobs_idem {
    char key[JOBS_IDEM_LEN + 1];    /* of scope and key; "" = none */
    char body[JOBS_IDEM_LEN + 1];   /* of the request's bytes */
};

/* What a keyed submission found (jobs_submit_idem, jobq_submit_idem). */
enum jobs_idem_found {
    JOBS_IDEM_NEW = 0,      /* no job had the key: a new one is made */
    JOBS_IDEM_REPLAY,       /* the key's job, made from the same body */
    JOBS_IDEM_MISMATCH,     /* the key's job came from another body */
};

typedef struct jobs jobs_t;
struct store;
typedef struct jobs_job jobs_job;

enum jobs_state {
    JOBS_QUEUED = 0,
    JOBS_RUNNING,
    JOBS_DONE,          /* body holds the task's answer */
    JOBS_CANCELLED,     /* by a cancel or by shutdown; reason says which */
    JOBS_FAILED,        /* body holds the problem */
    JOBS_STATE_COUNT_
};
/* "queued", "running", "done", "cancelled", "failed". */
const char *jobs_state_name(enum jobs_state s);
/* -1 when s names no state. */
int jobs_state_parse(const char *s);
static inline bool jobs_state_final(enum jobs_state s)
{
    return s >= JOBS_DONE;
}

/* What a running task sees: its cancel flag, and where it reports. */
struct jobs_run {
    const atomic_int *cancel;   /* nonzero: stop soon */
    jobs_job *job;              /* for jobs_run_progress */
};

/* How a task ended: its state (DONE, FAILED or CANCELLED) and, for the
 * first two, its answer's bytes: body from malloc, the registry's once
 * run() returns (NULL when len is 0). */
struct jobs_outcome {
    enum jobs_state state;
    char *body;
    size_t len;
};

/*
 * A task: run() on a job worker with arg, filling *out; arg (heap) is
 * the registry's from a successful jobs_submit on, given to free_arg
 * (may be NULL) when the job goes. On a failed submit the caller keeps
 * it.
 */
struct jobs_task {
    void (*run)(void *arg, const struct jobs_run *run,
                struct jobs_outcome *out);
    void (*free_arg)(void *arg);
    void *arg;
    char owner[JOBS_OWNER_MAX + 1];     /* who submitted it; "" = nobody */
    char trace[JOBS_TRACE_LEN + 1];     /* the submission's trace id
                                         * (W3C trace context); "" none */
};

/*
 * A job as a journal keeps it (struct jobs_journal) and gives it back
 * at the next start (jobs_restore): what it was made with and how far
 * it got. Times are wall-clock ms (0: not yet).
 */
struct jobs_record {
    char id[JOBS_ID_LEN + 1];
    char owner[JOBS_OWNER_MAX + 1];
    char trace[JOBS_TRACE_LEN + 1];
    struct jobs_idem idem;          /* key "": none */
    int64_t idem_until_ms;          /* the key binds until */
    enum jobs_state state;
    unsigned attempts;              /* runs started */
    int64_t created_ms, started_ms, finished_ms;
    uint64_t elapsed_us;            /* of the run that ended it */
    struct puz_progress progress;   /* its last, as a watcher saw it */
    const char *body;               /* done: the answer; failed: the */
    size_t len;                     /* problem (NULL, 0: none) */
    char reason[PUZ_MSG_MAX];
};

/*
 * Where a registry writes its jobs down so that they outlive it (the
 * embedded backend's SQLite table, jobsvc_db.c). Called with the
 * registry's lock held, in the order things happen: put when a job is
 * made (made true; task is what it runs), started and ended; drop when
 * it is forgotten (expired, pushed out, deleted). A nonzero put of a
 * made job refuses it (PUZ_EIO: not accepted, nothing kept); later ones
 * are the journal's to report. A job ended by jobs_shutdown is not
 * written: its row stays queued or running, for the next start.
 */
struct jobs_journal {
    int (*put)(void *user, const struct jobs_record *r,
               const struct jobs_task *task, bool made);
    void (*drop)(void *user, const char *id);
    void *user;
};

struct jobs_config {
    unsigned workers;       /* threads running jobs, >= 1 */
    unsigned queue;         /* jobs allowed to wait, >= 1 */
    unsigned ttl_s;         /* finished jobs are kept this long */
    unsigned max;           /* jobs held at most (any state), >= 1 */
    size_t results_max_bytes;   /* answer bytes finished jobs hold in
                                 * all; 0 = no cap */
    int nice;                   /* the workers' niceness (pool.h) */
    /* Runs a restored job gets (jobs_restore: it was running when the
     * process stopped): past them it ends failed, "gave up after N
     * attempts". 0: 3 (job_max_attempts, as the shared backend's). */
    unsigned max_attempts;
    const struct jobs_journal *journal;     /* NULL: memory only */
    /* The jobs service's (jobsvc_create_embedded), not the registry's:
     * the store whose SQLite file keeps the jobs (NULL, or a shared
     * store: memory only), the largest request it keeps (0: any), and
     * where it says what it could not keep or load. */
    struct store *store;
    size_t body_max_bytes;
    void (*log)(void *user, const char *line);
    void *log_user;
};

/* Start cfg->workers threads. PUZ_EINVAL for a zero count, PUZ_ENOMEM
 * when memory or threads run out; *out is NULL on failure. */
puz_err jobs_create(const struct jobs_config *cfg, jobs_t **out);

/* jobs_shutdown if not done yet, then free. NULL is a no-op. The caller
 * must hold no references any more. */
void jobs_destroy(jobs_t *j);

/*
 * Queue a task. *out is a new reference to the queued job, NULL on
 * failure: PUZ_EFULL (job_queue waiting, or `max` held and none
 * finished to forget), PUZ_ECLOSED (shutting down), PUZ_ENOMEM.
 */
puz_err jobs_submit(jobs_t *j, const struct jobs_task *task,
                    jobs_job **out);

/*
 * jobs_submit with an Idempotency-Key (idem NULL or idem->key "": none,
 * as jobs_submit). Looking for the key's job and making the new one is
 * one step under the registry's lock, so two submissions with one key
 * never make two jobs. *found says what it found: NEW (then as
 * jobs_submit), REPLAY (*out a new reference to the key's job, nothing
 * made; the task stays the caller's) or MISMATCH (*out NULL, nothing
 * made). A key binds while its job is kept (ttl_s after it ends; a
 * forgotten job frees its key) and at most JOBS_IDEM_TTL_S after the
 * job was made.
 */
puz_err jobs_submit_idem(jobs_t *j, const struct jobs_task *task,
                         const struct jobs_idem *idem, jobs_job **out,
                         enum jobs_idem_found *found);

/* Only the lookup of jobs_submit_idem: the key's job (a new reference,
 * REPLAY) or MISMATCH or NEW (*out NULL); makes nothing. For a check
 * that must come before a submission (an API key's cap). */
enum jobs_idem_found jobs_find_idem(jobs_t *j, const struct jobs_idem *idem,
                                    jobs_job **out);

/* A new reference to the job with this id, or NULL (unknown, expired,
 * forgotten or not an id at all). */
jobs_job *jobs_find(jobs_t *j, const char *id);

/* Give back a reference. NULL is a no-op. */
void jobs_release(jobs_t *j, jobs_job *job);

/*
 * Cancel a queued or running job with a reason ("cancelled by the
 * client"), then wait at most wait_ms for its worker to let go of it.
 * PUZ_EFINISHED when it had already ended (nothing changes).
 */
puz_err jobs_cancel(jobs_t *j, jobs_job *job, const char *reason,
                    unsigned wait_ms);

/*
 * Add a job the journal kept (at start, before any submission): a
 * queued one is queued again, after those restored before it; a running
 * one too, as its next attempt (or, past max_attempts, it ends failed);
 * a finished one is kept with its answer for what is left of its ttl_s.
 * task is as jobs_submit's (the registry's on PUZ_OK). PUZ_EFINISHED: a
 * finished job past its time (dropped from the journal); PUZ_EFULL: no
 * room for it (job_max, the answers' bytes or the queue); PUZ_EINVAL:
 * r is no job (a bad id or state); PUZ_ENOMEM. On an error nothing is
 * kept, and the caller drops the row.
 */
puz_err jobs_restore(jobs_t *j, const struct jobs_task *task,
                     const struct jobs_record *r);

/* Drop a job from the registry (DELETE of a finished job). */
void jobs_forget(jobs_t *j, jobs_job *job);

const char *jobs_id(const jobs_job *job);   /* fixed for its life */

/* Called by a running task: the search's progress, at most every
 * ~100 ms (puz_solve's own pace). */
void jobs_run_progress(const struct jobs_run *run,
                       const struct puz_progress *p);

/* What a watcher needs to decide whether to send something. */
struct jobs_snap {
    enum jobs_state state;
    uint64_t version;       /* grows with every change of the job */
};
void jobs_snapshot(jobs_t *j, jobs_job *job, struct jobs_snap *out);

/* A job as a watcher sees it at one moment. */
struct jobs_view {
    char id[JOBS_ID_LEN + 1];
    char owner[JOBS_OWNER_MAX + 1];
    char trace[JOBS_TRACE_LEN + 1];     /* as submitted; "" none */
    enum jobs_state state;
    uint64_t version;           /* grows with every change of the job */
    unsigned attempts;          /* runs started: more than one when
                                 * its runner died (shared jobs, jobq.h)
                                 * or its process stopped while it ran
                                 * (embedded jobs kept in SQLite) */
    int64_t created_ms, started_ms, finished_ms;   /* wall; 0 = not yet */
    uint64_t elapsed_us;        /* of the run: so far, or in all */
    struct puz_progress progress;
    char reason[PUZ_MSG_MAX];   /* cancelled: why */
    /* done: the answer; failed: the problem. Read-only bytes that live
     * as long as the caller's reference; NULL before the end. */
    const char *body;
    size_t len;
};
void jobs_view_get(jobs_t *j, jobs_job *job, struct jobs_view *out);

/* Up to max views (newest first) of jobs in `state` (< 0: all) of
 * `owner` (NULL: anyone's) into out; returns how many. Cheap: no answer
 * is copied. */
size_t jobs_list(jobs_t *j, int state, const char *owner,
                 struct jobs_view *out, size_t max);

/* Jobs of owner queued or running now. */
unsigned jobs_count_active(jobs_t *j, const char *owner);

/*
 * Wait until something changed anywhere since *seen (a counter every
 * change bumps) or timeout_ms passed; *seen is updated. Watchers poll
 * their jobs after it returns.
 */
void jobs_wait_change(jobs_t *j, uint64_t *seen, unsigned timeout_ms);

/*
 * Refuse new jobs, end queued and running ones `cancelled` with this
 * reason, and join the workers (a running search stops within ~100 ms).
 * Watchers see the final states. Idempotent.
 */
void jobs_shutdown(jobs_t *j, const char *reason);

#define JOBS_HIST_BUCKETS 10
/* Upper bounds (seconds) of the duration histogram's buckets. */
extern const double jobs_hist_bounds[JOBS_HIST_BUCKETS];

struct jobs_stats {
    unsigned by_state[JOBS_STATE_COUNT_];   /* jobs held now */
    uint64_t finished[JOBS_STATE_COUNT_];   /* ended since start */
    uint64_t submitted, rejected, expired;
    /* durations (start of run to end) of ended jobs, cumulative */
    uint64_t hist[JOBS_HIST_BUCKETS + 1];   /* last: +Inf */
    double duration_sum_s;
    unsigned workers, queue;
    size_t results_bytes;                   /* answer bytes held now */
};
void jobs_get_stats(jobs_t *j, struct jobs_stats *out);

#endif
