/*
 * jobq_run.c - an instance's share of the shared jobs (jobq.h): its job
 * workers, each with a connection of its own, take entries of the queue
 * (new ones with XREADGROUP, and, every second, ones idle a lease with
 * XAUTOCLAIM: their runner died), take the job's lease (SET NX PX, in
 * the take script) and run it; its keeper renews the leases of the jobs
 * running here every KEEP_MS, posts their progress and passes cancel
 * requests (and lost leases) to the searches' flags. With tables, an
 * idle worker also takes other jobs' work units (jobq_units.c) from
 * the same XREADGROUP, and the keeper re-claims the units running here.
 *
 * A worker that cannot reach Redis waits with backoff and tries again;
 * a run whose final write fails is retried a few times, then left to
 * the lease: another instance runs the job again (at least once).
 */
#include "jobq_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define KEEP_MS 100u            /* lease renewal and cancel check */
#define EVENT_GAP_US 250000u    /* at most 4 progress events a second */
#define BLOCK_MS 1000u          /* XREADGROUP's wait */
#define BACKOFF_MAX_MS 2000u
#define FINISH_TRIES 3
#define MEM_EVERY_US 1000000u   /* Redis's memory read by the keeper */
#define SHED_MAX 4u             /* finished jobs forgotten a second, full */

void jobq_run_progress(const struct jobq_run *run,
                       const struct puz_progress *p)
{
    struct jobq_slot *sl = run->slot;

    pthread_mutex_lock(&sl->lock);
    sl->progress = *p;
    sl->dirty = true;
    pthread_mutex_unlock(&sl->lock);
}

/* Sleep ms unless stopping. */
static void nap(jobq_t *q, unsigned ms)
{
    for (unsigned t = 0; t < ms && !atomic_load(&q->stop); t += 20)
        usleep(20000);
}

/* What is wrong with the jobs' keys now, for /readyz ("" nothing). */
static void set_trouble(jobq_t *q, const char *why)
{
    pthread_mutex_lock(&q->trouble_lock);
    snprintf(q->trouble, sizeof(q->trouble), "%s", why);
    pthread_mutex_unlock(&q->trouble_lock);
}

/* The consumer groups (jobs, and units with tables) exist afterwards,
 * made by whoever is first. The one who makes the jobs' group again
 * after it was lost (FLUSHALL, the stream deleted) queues again the
 * jobs whose records are left, so none waits for an entry that is
 * gone. */
static puz_err groups(jobq_t *q, redisContext *c, char *msg)
{
    bool made = false;
    long long n;

    if (jobq__group(c, q->k_queue, &made, msg) != PUZ_OK
        || (q->cfg.tables != NULL
            && jobq__group(c, q->k_units, NULL, msg) != PUZ_OK))
        return PUZ_EIO;
    if (!made)
        return PUZ_OK;
    atomic_fetch_add(&q->groups_made, 1);
    n = jobq__requeue(q, c, msg);
    if (n > 0)
        atomic_fetch_add(&q->requeued, (uint64_t)n);
    return PUZ_OK;
}

/* A worker's connection: the command timeout covers its blocking read;
 * the groups exist afterwards. */
static redisContext *worker_connect(jobq_t *q, char *msg)
{
    redisContext *c = jobq__connect(q, BLOCK_MS + q->cfg.timeout_ms, msg);

    if (c != NULL && groups(q, c, msg) != PUZ_OK) {
        redisFree(c);
        return NULL;
    }
    return c;
}

/* A read answered with an error (not a lost connection). The group
 * gone (NOGROUP: FLUSHALL, a DEL of the stream) is made again at once;
 * anything else is only reported. The caller backs off either way:
 * an error answered at once must not turn the loop into a spin. */
static void heal(jobq_t *q, redisContext *c, const char *err)
{
    char msg[PUZ_MSG_MAX], why[PUZ_MSG_MAX];

    snprintf(why, sizeof(why), "jobs queue: %.200s", err);
    set_trouble(q, why);
    if (strstr(err, "NOGROUP") != NULL && groups(q, c, msg) != PUZ_OK) {
        snprintf(why, sizeof(why), "jobs queue lost, not made again: "
                 "%.200s", msg);
        set_trouble(q, why);
    }
}

bool jobq_ready(jobq_t *q, char *why)
{
    char full[PUZ_MSG_MAX];
    bool ok;

    if (jobq__full(q, full)) {
        if (why != NULL)
            snprintf(why, PUZ_MSG_MAX, "%s", full);
        return false;
    }
    pthread_mutex_lock(&q->trouble_lock);
    ok = q->trouble[0] == '\0';
    if (!ok && why != NULL)
        snprintf(why, PUZ_MSG_MAX, "%s", q->trouble);
    pthread_mutex_unlock(&q->trouble_lock);
    return ok;
}

/* The first entry [id, [ "id", JOB ]] of a list of entries. */
static bool entry_of(const redisReply *list, char *entry, char *id)
{
    for (size_t i = 0; list->type == REDIS_REPLY_ARRAY
                       && i < list->elements; i++) {
        const redisReply *e = list->element[i], *kv;

        if (e->type != REDIS_REPLY_ARRAY || e->elements != 2
            || e->element[0]->type != REDIS_REPLY_STRING)
            continue;
        kv = e->element[1];
        if (kv->type != REDIS_REPLY_ARRAY || kv->elements != 2
            || kv->element[1]->type != REDIS_REPLY_STRING
            || kv->element[1]->len != JOBS_ID_LEN)
            continue;
        snprintf(entry, JOBQ_EVENT_ID_MAX, "%s", e->element[0]->str);
        snprintf(id, JOBS_ID_LEN + 1, "%s", kv->element[1]->str);
        return true;
    }
    return false;
}

/* An entry idle a while (its runner may be dead: the take script checks
 * its lease). */
static bool claim(jobq_t *q, redisContext *c, const char *consumer,
                  char *entry, char *id, bool *broken, char *msg)
{
    char idle[16];
    const char *argv[] = { "XAUTOCLAIM", q->k_queue, JOBQ_GROUP, consumer,
                           idle, "0-0", "COUNT", "1" };
    redisReply *r;
    bool got;

    /* A quarter lease: an entry whose runner lives is claimed now and
     * then for nothing (its lease is held: the take script leaves it),
     * but a dead runner's job is taken within ~1 s of its lease. */
    snprintf(idle, sizeof(idle), "%u", q->cfg.lease_ms / 4);
    r = jobq__cmd(c, 8, argv, NULL, broken, msg);
    if (r == NULL)
        return false;
    got = r->type == REDIS_REPLY_ARRAY && r->elements >= 2
          && entry_of(r->element[1], entry, id);
    freeReplyObject(r);
    return got;
}

/* A new job entry, waiting at most BLOCK_MS; with units (this
 * instance has tables and has not just refused one) a new work unit
 * of another job too, which is run here at once (*refused: it had to
 * be given back). */
static bool read_new(jobq_t *q, redisContext *c, const char *consumer,
                     bool units, char *entry, char *id, bool *refused,
                     bool *broken, char *msg)
{
    char block[16];
    const char *argv[13] = { "XREADGROUP", "GROUP", JOBQ_GROUP, consumer,
                             "COUNT", "1", "BLOCK", block, "STREAMS",
                             q->k_queue };
    int n = 10;
    redisReply *r;
    bool got = false;

    snprintf(block, sizeof(block), "%u", BLOCK_MS);
    if (units)              /* STREAMS jobs:queue units:queue > > */
        argv[n++] = q->k_units;
    argv[n++] = ">";
    if (units)
        argv[n++] = ">";
    r = jobq__cmd(c, n, argv, NULL, broken, msg);
    if (r == NULL)
        return false;
    for (size_t i = 0; r->type == REDIS_REPLY_ARRAY && i < r->elements;
         i++) {
        const redisReply *st = r->element[i];

        if (st->type == REDIS_REPLY_ARRAY && st->elements == 2
            && st->element[0]->type == REDIS_REPLY_STRING
            && strcmp(st->element[0]->str, q->k_queue) == 0)
            got = entry_of(st->element[1], entry, id);
    }
    /* a unit first (it is part of a running job), then the job */
    if (units && !jobq__units_from_read(q, c, consumer, r, broken))
        *refused = true;
    freeReplyObject(r);
    return got;
}

static void slot_set(struct jobq_slot *sl, const char *id,
                     const char *token, bool active)
{
    pthread_mutex_lock(&sl->lock);
    sl->active = active;
    sl->dirty = sl->lost = false;
    snprintf(sl->id, sizeof(sl->id), "%s", id);
    snprintf(sl->token, sizeof(sl->token), "%s", token);
    memset(&sl->progress, 0, sizeof(sl->progress));
    sl->started_us = sl->posted_us = sl->renewed_us = puz_clock_mono_us();
    pthread_mutex_unlock(&sl->lock);
}

/* The slot's last progress as the scripts' arguments: expanded,
 * generated, p_elapsed_us, bound, lower_bound, best_length. */
static void progress_args(struct jobq_slot *sl, char num[6][24])
{
    struct puz_progress p;

    pthread_mutex_lock(&sl->lock);
    p = sl->progress;
    pthread_mutex_unlock(&sl->lock);
    snprintf(num[0], 24, "%llu", (unsigned long long)p.expanded);
    snprintf(num[1], 24, "%llu", (unsigned long long)p.generated);
    snprintf(num[2], 24, "%llu", (unsigned long long)p.elapsed_us);
    snprintf(num[3], 24, "%u", p.bound);
    snprintf(num[4], 24, "%u", p.lower_bound);
    snprintf(num[5], 24, "%u", p.best_length);
}

/* Redis refused the answer (OOM: over maxmemory): the job ends failed
 * with why, written past maxmemory without an answer (finish_lua's
 * ARGV 19), instead of being left to its lease and run again and
 * again into the same wall. */
static void finish_failed_full(const char **extra, size_t *lens,
                               char *reason, const char *err, size_t len)
{
    snprintf(reason, PUZ_MSG_MAX, "the shared store (Redis) is full: the "
             "answer (%zu bytes) could not be kept (%.120s)", len, err);
    extra[0] = "failed";
    lens[0] = strlen(extra[0]);
    extra[1] = reason;
    lens[1] = strlen(reason);
    extra[2] = "";
    lens[2] = 0;
    extra[11] = "1";
    lens[11] = 1;
}

/* The end of a run written, if the lease is still ours; on a lost
 * connection again on a new one, a few times. */
static void finish(struct jobq_slot *sl, redisContext **c, const char *entry,
                   const struct jobs_outcome *o)
{
    jobq_t *q = sl->q;
    /* Stopped by our shutdown, not by its client: give it back. */
    bool stopping = atomic_load(&q->stop) != 0
                    && o->state == JOBS_CANCELLED;
    char msg[PUZ_MSG_MAX], num[6][24], budget[24], reason[PUZ_MSG_MAX];
    const char *extra[12] = { jobs_state_name(o->state), "",
                              o->body != NULL ? o->body : "", entry };
    size_t lens[12] = { strlen(extra[0]), 0, o->body != NULL ? o->len : 0,
                        strlen(entry) };
    redisReply *r = NULL;
    bool broken = false, full = false;

    progress_args(sl, num);
    for (int i = 0; i < 6; i++) {
        extra[4 + i] = num[i];
        lens[4 + i] = strlen(num[i]);
    }
    snprintf(budget, sizeof(budget), "%zu", q->cfg.results_max_bytes);
    extra[10] = budget;
    lens[10] = strlen(budget);
    extra[11] = "0";
    lens[11] = 1;

    for (int i = 0; i < FINISH_TRIES && r == NULL; i++) {
        if (*c == NULL)
            *c = worker_connect(q, msg);
        if (*c != NULL)
            r = stopping ? jobq__script(q, *c, JOBQ_RELEASE, sl->id,
                                        sl->token, 0, NULL, NULL, &broken,
                                        msg)
                         : jobq__script(q, *c, JOBQ_FINISH, sl->id,
                                        sl->token, 12, extra, lens, &broken,
                                        msg);
        if (broken && *c != NULL) {
            redisFree(*c);
            *c = NULL;
        }
        if (r == NULL && !broken && !full && !stopping
            && strstr(msg, "OOM") != NULL) {
            finish_failed_full(extra, lens, reason, msg, lens[2]);
            full = true;
            i--;            /* once more, as a failure */
            continue;
        }
        if (r == NULL && !broken)
            break;          /* an error reply: trying again won't help */
        if (r == NULL)
            usleep(200000);
    }
    if (r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer == 1
        && !stopping)
        atomic_fetch_add(&q->finished, 1);
    if (r != NULL)
        freeReplyObject(r);
}

/* Take the job of entry and run it when its lease is ours. */
static void run_entry(struct jobq_slot *sl, redisContext **c,
                      const char *entry, const char *id, unsigned *runs)
{
    jobq_t *q = sl->q;
    char token[64], msg[PUZ_MSG_MAX];
    char max[16], delay[16];
    const char *extra[] = { entry, max, delay };
    struct jobq_run run = { &sl->cancel, sl, sl->id, "" };
    struct jobs_outcome o = { JOBS_CANCELLED, NULL, 0 };
    bool broken = false, lost;
    redisReply *r;

    snprintf(token, sizeof(token), "%s-%u-%u", q->inst,
             (unsigned)(sl - q->slots), ++*runs);
    snprintf(max, sizeof(max), "%u", q->cfg.max_attempts);
    snprintf(delay, sizeof(delay), "%u", q->cfg.retry_ms);
    r = jobq__script(q, *c, JOBQ_TAKE, id, token, 3, extra, NULL, &broken,
                     msg);
    if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 1
        && r->element[0]->integer == -2)
        atomic_fetch_add(&q->gave_up, 1);
    if (r == NULL || r->type != REDIS_REPLY_ARRAY || r->elements != 4
        || r->element[0]->integer != 1
        || r->element[1]->type != REDIS_REPLY_STRING
        || r->element[3]->type != REDIS_REPLY_STRING) {
        if (broken) {
            redisFree(*c);
            *c = NULL;
        }
        if (r != NULL)
            freeReplyObject(r);
        return;
    }
    atomic_fetch_add(&q->taken, 1);
    run.trace = r->element[3]->str;
    if (r->element[2]->integer > 1)
        atomic_fetch_add(&q->retaken, 1);
    atomic_store(&sl->cancel, 0);
    slot_set(sl, id, token, true);
    if (atomic_load(&q->stop))      /* shutting down since it was taken */
        atomic_store(&sl->cancel, 1);
    q->cfg.run(q->cfg.user, r->element[1]->str, r->element[1]->len, &run,
               &o);
    freeReplyObject(r);
    pthread_mutex_lock(&sl->lock);
    lost = sl->lost;
    pthread_mutex_unlock(&sl->lock);
    if (!lost)
        finish(sl, c, entry, &o);
    else
        atomic_fetch_add(&q->lost, 1);
    free(o.body);
    slot_set(sl, "", "", false);
}

static void *worker(void *arg)
{
    struct jobq_slot *sl = arg;
    jobq_t *q = sl->q;
    redisContext *c = NULL;
    char consumer[48], entry[JOBQ_EVENT_ID_MAX], id[JOBS_ID_LEN + 1],
         msg[PUZ_MSG_MAX];
    unsigned backoff = 100, runs = 0;
    uint64_t last_claim = 0, units_after = 0;
    bool broken, got, refused;

    snprintf(consumer, sizeof(consumer), "%s-%u", q->inst,
             (unsigned)(sl - q->slots));
    /* Best effort, as the pool's workers: searches yield to the network
     * threads. */
    if (q->cfg.nice != 0)
        (void)!setpriority(PRIO_PROCESS, (id_t)gettid(),
                           getpriority(PRIO_PROCESS, (id_t)gettid())
                           + q->cfg.nice);
    while (!atomic_load(&q->stop)) {
        if (c == NULL && (c = worker_connect(q, msg)) == NULL) {
            nap(q, backoff);
            backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
                      : backoff * 2;
            continue;
        }
        broken = got = refused = false;
        msg[0] = '\0';
        if (puz_clock_mono_us() - last_claim >= 1000000u) {
            last_claim = puz_clock_mono_us();
            got = claim(q, c, consumer, entry, id, &broken, msg);
            if (!got && !broken && msg[0] == '\0' && q->cfg.tables != NULL
                && puz_clock_mono_us() >= units_after
                && !jobq__units_claim(q, c, consumer, &broken))
                refused = true;
        }
        if (!got && !broken && msg[0] == '\0')
            got = read_new(q, c, consumer, q->cfg.tables != NULL
                           && puz_clock_mono_us() >= units_after, entry, id,
                           &refused, &broken, msg);
        if (!got && !broken && msg[0] != '\0') {
            heal(q, c, msg);
            nap(q, backoff);
            backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
                      : backoff * 2;
            continue;
        }
        if (!broken) {
            backoff = 100;
            set_trouble(q, "");
        }
        /* no tables for a unit: leave units to others a while */
        if (refused)
            units_after = puz_clock_mono_us() + 2000000u;
        if (got && !broken && !atomic_load(&q->stop))
            run_entry(sl, &c, entry, id, &runs);
        if (broken && c != NULL) {
            redisFree(c);
            c = NULL;
        }
    }
    if (c != NULL)
        redisFree(c);
    return NULL;
}

/* --- the keeper ----------------------------------------------------------- */

/* One running job's renewal (and progress, when due). */
static void keep(struct jobq_slot *sl, redisContext **c)
{
    jobq_t *q = sl->q;
    char id[JOBS_ID_LEN + 1], token[64], msg[PUZ_MSG_MAX], num[6][24],
         flag[4], since[24];
    const char *extra[8] = { flag, num[0], num[1], num[2], num[3], num[4],
                             num[5], since };
    uint64_t now = puz_clock_mono_us(), elapsed;
    bool have, broken = false;
    redisReply *r;

    pthread_mutex_lock(&sl->lock);
    if (!sl->active || sl->lost) {
        pthread_mutex_unlock(&sl->lock);
        return;
    }
    have = sl->dirty && now - sl->posted_us >= EVENT_GAP_US;
    if (have) {
        sl->dirty = false;
        sl->posted_us = now;
    }
    snprintf(id, sizeof(id), "%s", sl->id);
    snprintf(token, sizeof(token), "%s", sl->token);
    elapsed = now - sl->started_us;
    pthread_mutex_unlock(&sl->lock);
    progress_args(sl, num);
    snprintf(flag, sizeof(flag), "%d", have ? 1 : 0);
    snprintf(since, sizeof(since), "%llu", (unsigned long long)elapsed);
    r = jobq__script(q, *c, JOBQ_RENEW, id, token, 8, extra, NULL, &broken,
                     msg);
    if (broken) {
        redisFree(*c);
        *c = NULL;
    }
    if (r == NULL)
        return;         /* Redis away: the run goes on; its lease decides */
    if (r->type == REDIS_REPLY_INTEGER && r->integer >= 0) {
        pthread_mutex_lock(&sl->lock);
        sl->renewed_us = now;
        pthread_mutex_unlock(&sl->lock);
    }
    if (r->type == REDIS_REPLY_INTEGER && r->integer == -1) {
        pthread_mutex_lock(&sl->lock);
        sl->lost = strcmp(sl->token, token) == 0;
        pthread_mutex_unlock(&sl->lock);
        atomic_store(&sl->cancel, 1);
    } else if (r->type == REDIS_REPLY_INTEGER && r->integer == 1) {
        atomic_store(&sl->cancel, 1);
    }
    freeReplyObject(r);
}

/* A run not renewed for a lease (Redis away or too slow): its lease has
 * gone by now and another instance may run the job; stop searching, and
 * write nothing. */
static void give_up_stale(struct jobq_slot *sl)
{
    uint64_t lease_us = (uint64_t)sl->q->cfg.lease_ms * 1000u;
    bool stale;

    pthread_mutex_lock(&sl->lock);
    stale = sl->active && !sl->lost
            && puz_clock_mono_us() - sl->renewed_us > lease_us;
    if (stale)
        sl->lost = true;
    pthread_mutex_unlock(&sl->lock);
    if (stale)
        atomic_store(&sl->cancel, 1);
}

/* A number after "name:" in an INFO answer (0 when absent). */
static uint64_t info_num(const char *info, const char *name)
{
    const char *p = strstr(info, name);

    return p != NULL ? strtoull(p + strlen(name), NULL, 10) : 0;
}

bool jobq__full(jobq_t *q, char *msg)
{
    uint64_t used = atomic_load(&q->mem_used), max = atomic_load(&q->mem_max);

    if (max == 0 || used < max / 100u * JOBQ_FULL_PCT)
        return false;
    snprintf(msg, PUZ_MSG_MAX, "the shared store (Redis) is full: %llu of "
             "its maxmemory %llu bytes used (jobs are refused from %u %%; "
             "old answers are being forgotten)", (unsigned long long)used,
             (unsigned long long)max, JOBQ_FULL_PCT);
    return true;
}

/* Redis's memory read (every MEM_EVERY_US, on the keeper's connection,
 * never on a route's); full, the oldest finished jobs are forgotten a
 * few at a time until there is room again, and /readyz says why. */
static void watch_memory(jobq_t *q, redisContext **c)
{
    const char *argv[] = { "INFO", "memory" };
    char msg[PUZ_MSG_MAX], n[8];
    const char *extra[] = { n };
    bool broken = false;
    redisReply *r = jobq__cmd(*c, 2, argv, NULL, &broken, msg);

    if (r != NULL && r->type == REDIS_REPLY_STRING) {
        atomic_store(&q->mem_used, info_num(r->str, "\nused_memory:"));
        atomic_store(&q->mem_max, info_num(r->str, "\nmaxmemory:"));
    }
    if (r != NULL)
        freeReplyObject(r);
    if (!broken && jobq__full(q, msg)) {
        snprintf(n, sizeof(n), "%u", SHED_MAX);
        r = jobq__script(q, *c, JOBQ_SHED, "-", "", 1, extra, NULL,
                         &broken, msg);
        if (r != NULL && r->type == REDIS_REPLY_INTEGER)
            atomic_fetch_add(&q->shed, (uint64_t)r->integer);
        if (r != NULL)
            freeReplyObject(r);
    }
    if (broken) {
        redisFree(*c);
        *c = NULL;
    }
}

static void *keeper(void *arg)
{
    jobq_t *q = arg;
    redisContext *c = NULL;
    char msg[PUZ_MSG_MAX];
    uint64_t mem_at = 0;

    while (!atomic_load(&q->workers_done)) {
        if (c == NULL)
            c = jobq__connect(q, q->cfg.timeout_ms, msg);
        if (c != NULL && puz_clock_mono_us() - mem_at >= MEM_EVERY_US) {
            mem_at = puz_clock_mono_us();
            watch_memory(q, &c);
        }
        for (unsigned i = 0; i < q->cfg.workers; i++) {
            if (c != NULL)
                keep(&q->slots[i], &c);
            give_up_stale(&q->slots[i]);
        }
        if (c != NULL)
            jobq__units_keep(q, &c);
        usleep(KEEP_MS * 1000);
    }
    if (c != NULL)
        redisFree(c);
    return NULL;
}

void jobq_get_stats(jobq_t *q, struct jobq_stats *out)
{
    memset(out, 0, sizeof(*out));
    for (unsigned i = 0; q->slots != NULL && i < q->cfg.workers; i++) {
        pthread_mutex_lock(&q->slots[i].lock);
        out->running += q->slots[i].active;
        pthread_mutex_unlock(&q->slots[i].lock);
    }
    out->taken = atomic_load(&q->taken);
    out->retaken = atomic_load(&q->retaken);
    out->finished = atomic_load(&q->finished);
    out->lost = atomic_load(&q->lost);
    out->units_published = atomic_load(&q->units_published);
    out->units_run = atomic_load(&q->units_run);
    out->units_claimed = atomic_load(&q->units_claimed);
    out->units_republished = atomic_load(&q->units_republished);
    out->groups_made = atomic_load(&q->groups_made);
    out->requeued = atomic_load(&q->requeued);
    out->shed = atomic_load(&q->shed);
    out->gave_up = atomic_load(&q->gave_up);
    out->mem_used = atomic_load(&q->mem_used);
    out->mem_max = atomic_load(&q->mem_max);
}

puz_err jobq__start_threads(jobq_t *q)
{
    q->slots = calloc(q->cfg.workers, sizeof(*q->slots));
    q->workers = calloc(q->cfg.workers, sizeof(*q->workers));
    if (q->slots == NULL || q->workers == NULL)
        return PUZ_ENOMEM;
    for (unsigned i = 0; i < q->cfg.workers; i++) {
        q->slots[i].q = q;
        pthread_mutex_init(&q->slots[i].lock, NULL);
    }
    q->keeper_started = pthread_create(&q->keeper, NULL, keeper, q) == 0;
    if (!q->keeper_started)
        return PUZ_ENOMEM;
    for (; q->started < q->cfg.workers; q->started++)
        if (pthread_create(&q->workers[q->started], NULL, worker,
                           &q->slots[q->started]) != 0)
            return PUZ_ENOMEM;
    return PUZ_OK;
}

void jobq__stop_threads(jobq_t *q)
{
    atomic_store(&q->stop, 1);
    for (unsigned i = 0; i < q->started; i++)
        atomic_store(&q->slots[i].cancel, 1);
    /* units running here stop too (left pending: another instance
     * claims them after a lease) */
    pthread_mutex_lock(&q->units_lock);
    for (struct jobq_unit_run *ur = q->units_running; ur != NULL;
         ur = ur->next)
        atomic_store(&ur->cancel, 1);
    pthread_mutex_unlock(&q->units_lock);
    for (unsigned i = 0; i < q->started; i++)
        pthread_join(q->workers[i], NULL);
    atomic_store(&q->workers_done, 1);
    if (q->keeper_started)
        pthread_join(q->keeper, NULL);
    for (unsigned i = 0; q->slots != NULL && i < q->cfg.workers; i++)
        pthread_mutex_destroy(&q->slots[i].lock);
    free(q->slots);
    free(q->workers);
    q->slots = NULL;
    q->workers = NULL;
    q->started = 0;
    q->keeper_started = false;
}
