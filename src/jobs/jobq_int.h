/*
 * jobq_int.h - what jobq.c (the connections, the scripts, the routes'
 * calls) and jobq_run.c (the workers and the keeper) share.
 */
#ifndef JOBQ_INT_H
#define JOBQ_INT_H

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdint.h>

#include "jobq.h"

#include <stdatomic.h>

#define JOBQ_POOL 4             /* connections the routes share */
#define JOBQ_GROUP "workers"
#define JOBQ_KEY_MAX 256
#define JOBQ_ROUND_MAX 80       /* job.instance.seq */

/* A work unit running here, as the keeper sees it (jobq_units.c). */
struct jobq_unit_run {
    char entry[JOBQ_EVENT_ID_MAX];  /* its stream entry */
    char round[JOBQ_ROUND_MAX];
    char consumer[48];              /* who holds the entry */
    uint64_t touched_us;            /* last re-claim */
    atomic_int cancel;              /* the unit's search flag */
    struct jobq_unit_run *next;
};

/* A job running here, as the keeper sees it. */
struct jobq_slot {
    jobq_t *q;
    pthread_mutex_t lock;       /* the fields below */
    bool active;                /* a job runs (or is being finished) */
    bool dirty;                 /* progress not posted yet */
    bool lost;                  /* the lease went to another runner */
    char id[JOBS_ID_LEN + 1];
    char token[64];             /* this run's lease value */
    struct puz_progress progress;
    uint64_t started_us, posted_us;
    uint64_t renewed_us;        /* the lease's last renewal */
    atomic_int cancel;          /* the search's flag */
};

struct jobq {
    struct jobq_config cfg;
    char prefix[128];
    char inst[17];              /* this instance: random hex */
    char k_queue[JOBQ_KEY_MAX], k_all[JOBQ_KEY_MAX],
         k_finished[JOBQ_KEY_MAX], k_queued[JOBQ_KEY_MAX],
         k_active[JOBQ_KEY_MAX], k_units[JOBQ_KEY_MAX],
         k_rbytes[JOBQ_KEY_MAX], k_rtotal[JOBQ_KEY_MAX];
    pthread_mutex_t lock;       /* the pool */
    pthread_cond_t freed;
    redisContext *conns[JOBQ_POOL];
    uint64_t conn_gen[JOBQ_POOL];   /* the store's reconnects when made */
    bool busy[JOBQ_POOL];
    atomic_int stop;            /* workers: take nothing more */
    atomic_int workers_done;    /* the keeper: every run has ended */
    atomic_uint_fast64_t taken, retaken, finished, lost;
    atomic_uint_fast64_t units_published, units_run, units_claimed,
                         units_republished;
    atomic_uint_fast64_t groups_made, requeued;   /* self-healing */
    pthread_mutex_t trouble_lock;
    char trouble[PUZ_MSG_MAX];  /* why the jobs are not ready ("" ok) */
    /* Redis's memory as the keeper last read it (INFO, every second):
     * the routes look here, never at Redis, before taking a job. */
    atomic_uint_fast64_t mem_used, mem_max;
    atomic_uint_fast64_t shed;  /* finished jobs forgotten: Redis full */
    atomic_uint_fast64_t gave_up;   /* jobs ended failed: attempts spent */
    atomic_uint round_seq;
    pthread_mutex_t units_lock;     /* units_running */
    struct jobq_unit_run *units_running;
    struct jobq_slot *slots;    /* one a worker */
    pthread_t *workers;
    unsigned started;           /* workers started */
    pthread_t keeper;
    bool keeper_started, shut;
};

/* The keys of job id: its hash, lease and events. */
struct jobq_keys {
    char hash[JOBQ_KEY_MAX], lease[JOBQ_KEY_MAX], events[JOBQ_KEY_MAX];
};
void jobq__keys(const jobq_t *q, const char *id, struct jobq_keys *k);

/* A connection of its own (worker, keeper) with command timeout ms;
 * NULL + msg while the store is down or Redis cannot be reached. */
redisContext *jobq__connect(jobq_t *q, unsigned timeout_ms, char *msg);

/* One command (argv with lengths; lens NULL: strlen): the reply, or
 * NULL with msg set and *broken when the connection is lost. An error
 * reply is NULL too (not broken). */
redisReply *jobq__cmd(redisContext *c, int argc, const char **argv,
                      const size_t *lens, bool *broken, char *msg);

/* The consumer group "workers" on stream (made with it when missing;
 * one that exists already is fine); *made (may be NULL) true when this
 * call made it. PUZ_EIO with msg otherwise. */
puz_err jobq__group(redisContext *c, const char *stream, bool *made,
                    char *msg);

/* After the queue's group was made again (FLUSHALL, the stream
 * deleted): the jobs still waiting, and the running ones whose runner
 * is gone, queued again from their records. How many; -1 + msg. */
long long jobq__requeue(jobq_t *q, redisContext *c, char *msg);

/*
 * A state script (Lua in jobq.c) on job id: KEYS are the job's hash,
 * lease and events and the shared queued, finished, active, queue and
 * all; ARGV id, token, now_ms, lease_ms, ttl_s, events cap, group, then
 * extra[0..nextra). The reply, or NULL as jobq__cmd.
 */
enum jobq_script {
    JOBQ_TAKE, JOBQ_RENEW, JOBQ_FINISH, JOBQ_CANCEL, JOBQ_RELEASE,
    JOBQ_SHED, JOBQ_SCRIPT_COUNT_
};
redisReply *jobq__script(jobq_t *q, redisContext *c, enum jobq_script s,
                         const char *id, const char *token, int nextra,
                         const char **extra, const size_t *extra_lens,
                         bool *broken, char *msg);

/* Whether Redis is too full to take a job (used >= JOBQ_FULL_PCT % of
 * maxmemory as last read); true with msg saying so. */
#define JOBQ_FULL_PCT 90u
bool jobq__full(jobq_t *q, char *msg);

/* jobq_units.c: the units among the streams of an XREADGROUP reply
 * run, and one unit idle past a lease claimed and run (both false when
 * one was given back: this instance lacks its tables); the keeper's
 * pass over the units running here. */
bool jobq__units_from_read(jobq_t *q, redisContext *c, const char *consumer,
                           const redisReply *streams, bool *broken);
bool jobq__units_claim(jobq_t *q, redisContext *c, const char *consumer,
                       bool *broken);
void jobq__units_keep(jobq_t *q, redisContext **c);

/* jobq_run.c: start / stop the workers and the keeper. */
puz_err jobq__start_threads(jobq_t *q);
void jobq__stop_threads(jobq_t *q);

#endif
