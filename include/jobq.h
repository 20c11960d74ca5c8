/*
 * jobq.h - jobs shared by every instance naming the same Redis (the
 * shared mode of /v1/jobs, redis_url set): the job records, the queue,
 * the leases, the cancel requests and the progress events live in
 * Redis; this module is an instance's share of the work. The embedded
 * registry (jobs.h) stays the default and knows nothing of this.
 *
 * Keys (P = redis_prefix):
 *   P job:ID          hash: body (the request's bytes, until it ends),
 *                     owner, trace (the submission's trace id),
 *                     state, created_ms, started_ms, finished_ms,
 *                     attempts, version, reason, cancel, the progress
 *                     numbers, result (the answer's bytes, or the
 *                     problem of a failed job); EXPIRE job_ttl_s once
 *                     finished
 *   P job:ID:lease    the runner's token, PX job_lease_ms, renewed
 *   P job:ID:events   stream of the job's events (MAXLEN ~ cap), the
 *                     SSE ids of GET /v1/jobs/{id}/events
 *   P jobs:queue      stream + consumer group "workers": one entry a
 *                     job, XACKed and XDELed when it ends
 *   P jobs:all        zset id -> created_ms (job_max, the list)
 *   P jobs:finished   zset id -> finished_ms (expiry, the oldest first)
 *   P jobs:queued     set of ids waiting (job_queue)
 *   P jobs:active     hash owner -> jobs queued or running (key caps)
 *   P idem:DIGEST     string "BODYDIGEST:ID": an Idempotency-Key's job
 *                     (jobq_submit_idem), as long as the job is kept
 *                     and at most 24 h
 * Every change of state is one Lua script, atomic across instances.
 *
 * Running: job_workers threads each with their own connection read the
 * queue (XREADGROUP) and, idle, claim entries pending longer than a
 * lease (XAUTOCLAIM); a job is run only after SET NX PX of its lease.
 * One keeper thread renews the leases of the jobs running here every
 * 100 ms, posts their progress as events (at most 4 a second) and
 * turns a cancel request into the search's cancel flag. The finishing
 * write checks the lease is still this runner's, so a job whose lease
 * was lost (its runner stalled past the lease, another took it over)
 * never ends twice. A job runs at least once while any instance lives;
 * its final state and result are written exactly once.
 *
 * It is the shared backend of the jobs service (jobsvc.h,
 * jobsvc_shared.c). Routes call jobq on the server's waiting threads
 * (never a network thread) through a small pool of connections; every
 * command has redis_timeout_ms. While the store is
 * down (store_ready false) every call fails at once with PUZ_EIO.
 */
#ifndef JOBQ_H
#define JOBQ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "jobs.h"
#include "puz_err.h"
#include "puz_solve.h"
#include "puz_tables.h"
#include "store.h"

typedef struct jobq jobq_t;

/* What a running job sees: its cancel flag, and its slot for
 * jobq_run_progress. */
struct jobq_run {
    const atomic_int *cancel;
    struct jobq_slot *slot;
    const char *job;        /* its id */
    const char *trace;      /* its W3C trace-id; "": none */
};

/* A job's work: decode body (len bytes, the request as submitted) and
 * run it, filling *out as a jobs_task's run does (jobs.h). */
typedef void (*jobq_run_fn)(void *user, const char *body, size_t len,
                            const struct jobq_run *run,
                            struct jobs_outcome *out);

/* One work unit this instance ran to its end, for its log: the job and
 * trace it was run for ("" when its entry did not say), the round and
 * the unit's index in it, and what it did. */
struct jobq_unit_report {
    const char *job, *trace, *round;
    unsigned index;
    bool found;
    uint64_t expanded, generated, elapsed_us;
};

struct jobq_config {
    store *store;           /* the shared store: connections, prefix */
    unsigned workers;       /* job threads of this instance, >= 1 */
    unsigned queue;         /* jobs waiting, cluster-wide */
    unsigned max;           /* jobs held, cluster-wide */
    unsigned ttl_s;         /* finished jobs are kept this long */
    unsigned lease_ms;      /* a runner not heard of this long is dead */
    unsigned timeout_ms;    /* of every command (redis_timeout_ms) */
    unsigned events_max;    /* events kept per job (MAXLEN ~) */
    /* Answer bytes all finished jobs keep, cluster-wide (counted in
     * Redis; the oldest finished forgotten first); 0: no cap. */
    size_t results_max_bytes;
    /* Runs a job gets (a run ends when its runner dies or stalls past
     * its lease); past them it ends failed, "gave up after N attempts:
     * <the last reason>". 0: 3. Between two, retry_ms doubled each
     * time (0: 1000 ms). */
    unsigned max_attempts, retry_ms;
    int nice;               /* the workers' niceness (pool.h) */
    /* The tables this instance's searches read: with them its workers
     * also run other jobs' work units (jobq_units_run); NULL: none. */
    const puz_tables *tables;
    jobq_run_fn run;
    void *user;
    /* Told of each unit run and filed here, on the thread that ran it
     * (after the units_run count); NULL: not. */
    void (*unit_ran)(void *user, const struct jobq_unit_report *r);
    void *unit_user;
};

/* Start the workers and the keeper (they connect by themselves, now or
 * when Redis is back). PUZ_EINVAL without a shared store, PUZ_ENOMEM. */
puz_err jobq_create(const struct jobq_config *cfg, jobq_t **out);

/* Stop taking jobs; running ones stop and give their lease back, so
 * another instance takes them over. Joins the threads. Idempotent. */
void jobq_shutdown(jobq_t *q);
/* jobq_shutdown, then free. NULL is a no-op. */
void jobq_destroy(jobq_t *q);

/* Called by a running job: its search's progress. */
void jobq_run_progress(const struct jobq_run *run,
                       const struct puz_progress *p);

/*
 * Store a job (len bytes of its request body, owner "" = nobody) and
 * queue it; its id in id (JOBS_ID_LEN + 1). PUZ_EFULL (job_queue
 * waiting, or job_max held and none finished to forget: msg ""; Redis
 * near its maxmemory: msg says so, and no command was sent), PUZ_ELIMITED
 * (owner has owner_cap jobs queued or running; 0 = no cap), PUZ_EIO
 * (Redis: msg says why), PUZ_ENOMEM.
 */
puz_err jobq_submit(jobq_t *q, const char *body, size_t len,
                    const char *owner, unsigned owner_cap, char *id,
                    char *msg);

/*
 * jobq_submit with an Idempotency-Key (idem NULL or idem->key "":
 * none). The key is looked up and bound to the new job in the submit
 * script itself (P idem:DIGEST = "BODYDIGEST:ID", EX JOBS_IDEM_TTL_S,
 * cut to the job's own expiry when it ends, deleted when the job is
 * forgotten), so two submissions with one key, through any instances,
 * never make two jobs. *found: NEW (as jobq_submit), REPLAY (the key's
 * job, same body: its id in id, nothing made, no cap applied) or
 * MISMATCH (another body: nothing made). A replay is refused like a
 * submission while Redis is near its maxmemory (PUZ_EFULL, no command
 * sent).
 */
puz_err jobq_submit_idem(jobq_t *q, const char *body, size_t len,
                         const char *owner, unsigned owner_cap,
                         const struct jobs_idem *idem, char *id,
                         enum jobs_idem_found *found, char *msg);

/* jobq_submit_idem, the job keeping trace (a W3C trace-id, 32 hex
 * digits; "": none) in its hash's "trace" for whoever reads it. */
puz_err jobq_submit_traced(jobq_t *q, const char *body, size_t len,
                           const char *owner, unsigned owner_cap,
                           const struct jobs_idem *idem, const char *trace,
                           char *id, enum jobs_idem_found *found, char *msg);

/*
 * The job id as it is now into *v (body NULL); *found false when there
 * is none. With result not NULL, a finished job's answer (done) or
 * problem (failed) is copied to *result (malloc, the caller frees; NULL
 * when none) and v->body/len point at it.
 */
puz_err jobq_find(jobq_t *q, const char *id, struct jobs_view *v,
                  char **result, bool *found, char *msg);

/* Up to max views (newest first, no answers) of jobs in state (< 0:
 * all) of owner (NULL: anyone's); *n of them. */
puz_err jobq_list(jobq_t *q, int state, const char *owner,
                  struct jobs_view *out, size_t max, size_t *n, char *msg);

/*
 * DELETE: a queued job (or one whose runner is gone) ends cancelled at
 * once; a running one is asked to stop and waited for at most wait_ms.
 * *what: 0 no such job, 1 cancelled or asked to, 2 it had finished and
 * is forgotten now.
 */
puz_err jobq_cancel(jobq_t *q, const char *id, const char *reason,
                    unsigned wait_ms, int *what, char *msg);

/* One event of a job's stream: its stream id (the SSE id), its type
 * ("progress" or the final state's name) and the job as it showed. */
#define JOBQ_EVENT_ID_MAX 48
struct jobq_event {
    char id[JOBQ_EVENT_ID_MAX];
    char type[16];
    struct jobs_view v;
};

/* Whether s can be an event id (digits '-' digits), for Last-Event-ID. */
bool jobq_event_id_ok(const char *s);

/*
 * The events of job after the event `after` (NULL: only its latest
 * one), at most max, oldest first; *n of them. *gone when the job no
 * longer exists (and no event is left).
 */
puz_err jobq_events(jobq_t *q, const char *job, const char *after,
                    struct jobq_event *out, size_t max, size_t *n,
                    bool *gone, char *msg);

/* Whether the shared jobs can take work, as this instance's workers
 * last found (no I/O here): false with why (PUZ_MSG_MAX) while the
 * queue's consumer group is lost and not made again yet. */
bool jobq_ready(jobq_t *q, char *why);

/* Jobs waiting in the queue, cluster-wide; 0 when Redis is down. */
unsigned jobq_queued(jobq_t *q);

/* This instance's share, for /metrics. */
struct jobq_stats {
    unsigned running;       /* jobs running here now */
    uint64_t taken;         /* runs started here */
    uint64_t retaken;       /* of them a job's second or later attempt */
    uint64_t finished;      /* final states written by this instance */
    uint64_t lost;          /* runs that lost their lease (not written) */
    uint64_t units_published;   /* work units this instance's jobs gave */
    uint64_t units_run;     /* units run here to their end (any job's) */
    uint64_t units_claimed; /* units taken over from a silent worker */
    uint64_t units_republished; /* rounds whose live key lapsed (the
                                 * runner held off Redis past a lease):
                                 * their unfiled units published again */
    uint64_t groups_made;   /* queue groups made here (again: healed) */
    uint64_t requeued;      /* jobs queued again after a lost queue */
    uint64_t shed;          /* finished jobs forgotten: Redis was full */
    uint64_t gave_up;       /* jobs this instance ended failed after
                               job_max_attempts runs (dead letters) */
    uint64_t mem_used, mem_max;     /* Redis's, as last read (0: none) */
};
void jobq_get_stats(jobq_t *q, struct jobq_stats *out);

/*
 * A job's parallel IDA* across the instances (jobq_units.c): used as
 * puz_solve_opts.run (run_user a struct jobq_units), each iteration's
 * units go to the shared queue (P units:queue) where every instance's
 * idle job workers, and `threads` threads of this one, take them; a
 * unit held by an instance that dies is claimed again after a lease.
 * Returns when every unit's result is in, a unit found the goal, the
 * job is cancelled or Redis fails (the core then gives the rest again;
 * with Redis away they run on this instance's threads).
 */
struct jobq_units {
    jobq_t *q;
    const char *job;                /* the job's id */
    const atomic_int *cancel;       /* the job's flag; may be NULL */
    const struct puz_board *start;
    const struct puz_board *goal;   /* never NULL */
    char tables[24];                /* the set the search reads (its name) */
    unsigned threads;               /* this instance's threads for it */
    const char *trace;              /* the job's trace-id ("": none): each
                                     * unit names it, and so does the line
                                     * logged where it runs */
};
void jobq_units_run(void (*piece)(void *work, unsigned i), void *work,
                    unsigned n, void *user);
/* The name of the table set in t that serves goal (what a unit's
 * runner and its workers must agree on), or "" when none does. */
const char *jobq_units_tables(const puz_tables *t,
                              const struct puz_board *goal);

#endif
