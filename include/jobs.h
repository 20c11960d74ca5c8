/*
 * jobs.h - long solves as jobs: a registry of submitted solves, the
 * worker threads that run them (their own pool, apart from the quick
 * solves'), their life cycle and the state a watcher sees.
 *
 * A job is queued, then running, then ends done, cancelled or failed;
 * nothing else moves it. Its id is 128 random bits (32 hex digits).
 * Finished jobs are kept ttl_s seconds and at most `max` jobs are held,
 * the oldest finished forgotten first. Everything here is thread-safe:
 * one mutex guards the registry and the jobs in it; the solver thread
 * takes it only in the progress callback (every ~100 ms) and at the
 * end. Nothing here knows HTTP: the server's routes and the tests call
 * the same functions.
 *
 * References: jobs_submit and jobs_find hand out a reference the caller
 * gives back with jobs_release; a job stays readable while referenced
 * even after the registry forgot it.
 */
#ifndef JOBS_H
#define JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "api_decode.h"
#include "puz_pdb.h"
#include "puz_solve.h"

#define JOBS_ID_LEN 32      /* hex digits */

typedef struct jobs jobs_t;
typedef struct jobs_job jobs_job;

enum jobs_state {
    JOBS_QUEUED = 0,
    JOBS_RUNNING,
    JOBS_DONE,          /* result holds the solve's answer, any status */
    JOBS_CANCELLED,     /* by DELETE or by shutdown; reason says which */
    JOBS_FAILED,        /* error holds the problem */
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

typedef enum {
    JOBS_OK = 0,
    JOBS_EFULL,         /* job_queue waiting, or job_max held and none
                         * finished to forget */
    JOBS_ECLOSED,       /* shutting down */
    JOBS_ENOMEM,
    JOBS_EFINISHED,     /* cancel: the job had already finished */
} jobs_err;

struct jobs_config {
    unsigned workers;       /* threads running jobs, >= 1 */
    unsigned queue;         /* jobs allowed to wait, >= 1 */
    unsigned ttl_s;         /* finished jobs are kept this long */
    unsigned max;           /* jobs held at most (any state) */
    size_t max_bytes;       /* arena bytes one job's solve may use */
    const puz_tables *tables;   /* handed to every solve; may be NULL */
};

/* Start cfg->workers threads. *out is NULL on failure. */
jobs_err jobs_create(const struct jobs_config *cfg, jobs_t **out);

/* jobs_shutdown if not done yet, then free. NULL is a no-op. The caller
 * must hold no references any more. */
void jobs_destroy(jobs_t *j);

/*
 * Queue a solve (q is copied; its timeout_ms counts from the start of
 * the run, not from the submission). *out is a new reference to the
 * queued job, NULL on failure. accepted (may be NULL) gets the job
 * object as accepted, always `queued` (a new reference).
 */
jobs_err jobs_submit(jobs_t *j, const struct http_solve_request *q,
                     jobs_job **out, json_t **accepted);

/* A new reference to the job with this id, or NULL (unknown, expired,
 * forgotten or not an id at all). */
jobs_job *jobs_find(jobs_t *j, const char *id);

/* Give back a reference. NULL is a no-op. */
void jobs_release(jobs_t *j, jobs_job *job);

/*
 * Cancel a queued or running job with a reason ("cancelled by the
 * client"), then wait at most wait_ms for its worker to let go of it.
 * JOBS_EFINISHED when it had already ended (nothing changes).
 */
jobs_err jobs_cancel(jobs_t *j, jobs_job *job, const char *reason,
                     unsigned wait_ms);

/* Drop a job from the registry (DELETE of a finished job). */
void jobs_forget(jobs_t *j, jobs_job *job);

const char *jobs_id(const jobs_job *job);   /* fixed for its life */

/* What a watcher needs to decide whether to send something. */
struct jobs_snap {
    enum jobs_state state;
    uint64_t version;       /* grows with every change of the job */
};
void jobs_snapshot(jobs_t *j, jobs_job *job, struct jobs_snap *out);

/* New references (NULL on ENOMEM). The job object: id, state, times,
 * progress, result (done) or error (failed), reason (cancelled). The
 * progress object adds id and state to the progress numbers. *version
 * (may be NULL) is the version the object shows. */
json_t *jobs_job_json(jobs_t *j, jobs_job *job, uint64_t *version);
json_t *jobs_progress_json(jobs_t *j, jobs_job *job, uint64_t *version);

/* {"jobs": [...newest first...], "count", "limit"}; state < 0 = all. */
json_t *jobs_list_json(jobs_t *j, int state, unsigned limit);

/*
 * Wait until something changed anywhere since *seen (a counter every
 * change bumps) or timeout_ms passed; *seen is updated. Watchers poll
 * their jobs after it returns.
 */
void jobs_wait_change(jobs_t *j, uint64_t *seen, unsigned timeout_ms);

/* Forget finished jobs older than ttl_s; the registry also does this on
 * every submit and lookup. Returns how many went. */
unsigned jobs_expire(jobs_t *j);

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
};
void jobs_get_stats(jobs_t *j, struct jobs_stats *out);

/* The jobs' lines of /metrics (Prometheus text), heap, *len bytes;
 * NULL on ENOMEM. open_streams: event streams open now. */
char *jobs_metrics_render(jobs_t *j, unsigned open_streams, size_t *len);

#endif
