/*
 * pool.h - a bounded job queue served by a fixed set of worker threads.
 *
 * The pool knows nothing of HTTP or puzzles: a job is a struct the caller
 * embeds in its own, with a run() callback. The queue holds at most
 * `queue` waiting jobs; pool_submit() refuses more at once (PUZ_EFULL) so
 * the caller can shed load instead of piling it up.
 *
 * Guarantee: every job accepted by pool_submit() has run() (then done())
 * called exactly once, on a worker thread, even while the pool shuts
 * down. A job cancelled before it started still runs, with job->cancel
 * set, so whoever waits on it (a suspended HTTP connection) always hears
 * back. The one exception to "on a worker": pool_flush_waiting() runs
 * the waiting jobs on the calling thread (worker = POOL_NO_WORKER).
 *
 * Capacity: `queue` counts jobs waiting beyond the idle workers, so
 * workers + queue jobs are accepted at once from an idle pool.
 */
#ifndef POOL_H
#define POOL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puz_err.h"

/* Functions return puz_err (puz_err.h): PUZ_EINVAL for a bad
 * configuration, PUZ_ENOMEM, PUZ_EIO when a thread cannot start,
 * PUZ_EFULL, PUZ_ECLOSED and PUZ_ETIMEDOUT as each says. */

typedef struct pool pool_t;

/* The `worker` argument of run() when pool_flush_waiting() runs it. */
#define POOL_NO_WORKER ((unsigned)-1)

struct pool_job {
    /* Called once on a worker; `worker` is 0..workers-1. */
    void (*run)(struct pool_job *job, unsigned worker);
    /* Optional; called on the same worker after run(), once the pool has
     * forgotten the job (pool_cancel_all can no longer reach it), so
     * done() may free the job or hand it back to its owner. */
    void (*done)(struct pool_job *job);
    /* Nonzero once the job should stop early; hand &job->cancel to the
     * solver as its cancel flag. The pool sets it, callers may too. */
    atomic_int cancel;
    uint64_t enqueued_us;   /* set by pool_submit: puz_clock_mono_us */
    struct pool_job *next;  /* private to the pool */
};

struct pool_config {
    unsigned workers;   /* threads, >= 1 */
    unsigned queue;     /* waiting jobs allowed, >= 1 */
    int nice;           /* added to each worker's niceness (Linux keeps
                         * it per thread); 0 = the process's */
};

struct pool_stats {
    unsigned workers;       /* threads started */
    unsigned busy;          /* threads running a job now */
    unsigned queued;        /* jobs waiting */
    unsigned capacity;      /* queue capacity */
    bool closed;            /* pool_close() was called */
    uint64_t submitted;     /* jobs accepted */
    uint64_t rejected;      /* jobs refused because the queue was full */
    uint64_t completed;     /* jobs whose run() returned */
};

/* Start cfg->workers threads. *out is NULL on failure. */
puz_err pool_create(const struct pool_config *cfg, pool_t **out);

/* Queue a job (its cancel flag is cleared). PUZ_EFULL when the queue is
 * at capacity, PUZ_ECLOSED after pool_close(); the job is untouched then
 * and stays the caller's. */
puz_err pool_submit(pool_t *p, struct pool_job *job);

/* Refuse further submissions; queued and running jobs carry on. */
void pool_close(pool_t *p);

/* Set the cancel flag of every job still waiting in the queue. */
void pool_cancel_waiting(pool_t *p);

/* Take every waiting job off the queue, set its cancel flag, and call
 * its run() then done() on this thread, at once (shutdown: queued
 * requests get their answer without waiting for a worker). Returns how
 * many. Running jobs are untouched. */
unsigned pool_flush_waiting(pool_t *p);

/* Set the cancel flag of every waiting and every running job. */
void pool_cancel_all(pool_t *p);

/* Wait until no job is queued or running, at most timeout_ms
 * (PUZ_ETIMEDOUT then). */
puz_err pool_drain(pool_t *p, unsigned timeout_ms);

/* Snapshot of the counters; consistent under the pool's lock. */
void pool_get_stats(pool_t *p, struct pool_stats *out);

/* Close, cancel everything, let the workers finish every queued job (each
 * sees its cancel flag), join them and free the pool. NULL is a no-op. */
void pool_destroy(pool_t *p);

#endif
