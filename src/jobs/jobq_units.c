/*
 * jobq_units.c - one job's parallel IDA* shared by every instance's job
 * workers (issue 30, "across instances"): the job's runner hands each
 * iteration's work units to the shared queue, whoever is idle takes
 * one, runs it with the core's puz_solve_unit and sends its numbers
 * back; the runner files them (puz_units_store) as if its own threads
 * had run them. An instance that dies loses only the units it held:
 * they are pending in the consumer group, and once idle past a lease
 * any worker claims them again (XAUTOCLAIM).
 *
 * Keys (P = redis_prefix; ROUND = job.instance.seq, one run callback):
 *   P units:queue        stream + group "workers": one entry a unit:
 *                        r ROUND, i index, s start, g goal, t the
 *                        table set's name, u "bound cut moves", j the
 *                        job's id and x its trace id (for the log of
 *                        whoever runs it: jobq_config's unit_ran)
 *   P units:ROUND:live   PX job_lease_ms, renewed by the runner while
 *                        it waits; gone = the round is over (a unit
 *                        found the goal, the job ended or its runner
 *                        died): workers skip its entries and stop
 *                        running them
 *   P units:ROUND:done   list of "i found next expanded generated len
 *                        path", one per unit run, read by the runner
 * A worker running a unit re-claims its entry (XCLAIM JUSTID) every
 * quarter lease through the keeper, so only a dead worker's entries go
 * idle. The runner's own threads (the job's `threads`) take units from
 * the same queue, its own and other jobs' alike; its calling thread
 * waits for the results. Without Redis the round runs on this
 * instance's threads (pool_run_units), as in the embedded mode.
 */
#include "jobq_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pool_pieces.h"
#include "puz_pdb.h"
#include "puz_tables.h"

#define UNITS_BLOCK_MS 20u          /* a local thread's wait for a unit: the
                                     * round ends at most this late */
#define DONE_TTL_MS 600000u         /* results nobody reads expire */
#define UNIT_ARENA_BYTES (1u << 20) /* one unit's search: its path */
#define GIVE_BACK_MS 2000u          /* no units after refusing one */
#define LOCAL_MAX 64u

/* A unit entry of the stream, read. */
struct unit_entry {
    char id[JOBQ_EVENT_ID_MAX];
    char round[JOBQ_ROUND_MAX];
    unsigned index;
    struct puz_board start, goal;
    char tables[24];
    char job[JOBS_ID_LEN + 1], trace[JOBS_TRACE_LEN + 1];
    struct puz_unit unit;
    const redisReply *fields;       /* the entry's field list, as read */
};

/* The key P units:ROUND:what. */
static void units_key(const jobq_t *q, const char *round, const char *what,
                      char *out)
{
    snprintf(out, JOBQ_KEY_MAX, "%sunits:%s:%s", q->prefix, round, what);
}

/* --- a unit as text ------------------------------------------------------ */

/* len blank directions as digits after buf's first n characters. */
static void dirs_format(char *buf, size_t size, int n, const uint8_t *dirs,
                        unsigned len)
{
    for (unsigned k = 0; k < len && n >= 0 && (size_t)n + 1 < size; k++)
        buf[n++] = (char)('0' + dirs[k]);
    if (n >= 0 && (size_t)n < size)
        buf[n] = '\0';
}

/* s is exactly len directions as digits 0-3: into dirs. */
static bool dirs_parse(const char *s, unsigned len, uint8_t *dirs)
{
    if (strlen(s) != len)
        return false;
    for (unsigned k = 0; k < len; k++) {
        if (s[k] < '0' || s[k] > '3')
            return false;
        dirs[k] = (uint8_t)(s[k] - '0');
    }
    return true;
}

/* "bound cut moves". */
static void unit_format(const struct puz_unit *u, char *buf, size_t size)
{
    dirs_format(buf, size, snprintf(buf, size, "%u %u ", u->bound, u->cut),
                u->moves, u->cut);
}

static bool unit_parse(const char *s, struct puz_unit *u)
{
    int used = 0;

    memset(u, 0, sizeof(*u));
    return sscanf(s, "%u %u %n", &u->bound, &u->cut, &used) == 2
           && u->cut > 0 && u->cut <= PUZ_UNIT_CUT_MAX
           && dirs_parse(s + used, u->cut, u->moves);
}

/* "i found next expanded generated len path". */
static void result_format(unsigned i, const struct puz_unit_result *r,
                          char *buf, size_t size)
{
    int n = snprintf(buf, size, "%u %d %u %llu %llu %u ", i, r->found ? 1 : 0,
                     r->next_bound, (unsigned long long)r->expanded,
                     (unsigned long long)r->generated, r->length);

    dirs_format(buf, size, n, r->path, r->length);
}

static bool result_parse(const char *s, unsigned *i, struct puz_unit_result *r)
{
    unsigned long long e, g;
    int found, used = 0;

    memset(r, 0, sizeof(*r));
    if (sscanf(s, "%u %d %u %llu %llu %u %n", i, &found, &r->next_bound, &e,
               &g, &r->length, &used) != 6
        || r->length > PUZ_UNIT_PATH_MAX
        || !dirs_parse(s + used, r->length, r->path))
        return false;
    r->status = PUZ_SOLVED;
    r->found = found != 0;
    r->expanded = e;
    r->generated = g;
    return true;
}

/* One field's value of an entry's list [k, v, k, v, ...]. */
static const char *field(const redisReply *kv, const char *name)
{
    for (size_t i = 0; i + 1 < kv->elements; i += 2)
        if (kv->element[i]->type == REDIS_REPLY_STRING
            && kv->element[i + 1]->type == REDIS_REPLY_STRING
            && strcmp(kv->element[i]->str, name) == 0)
            return kv->element[i + 1]->str;
    return NULL;
}

/* e = [id, [fields]]; false when it is not a unit this build can read
 * (it is acknowledged and dropped: nobody could run it). */
static bool entry_parse(const redisReply *e, struct unit_entry *u,
                        bool *is_entry)
{
    const redisReply *kv;
    const char *r, *i, *s, *g, *t, *w, *j, *x;
    char msg[PUZ_MSG_MAX];

    *is_entry = false;
    if (e->type != REDIS_REPLY_ARRAY || e->elements != 2
        || e->element[0]->type != REDIS_REPLY_STRING)
        return false;
    snprintf(u->id, sizeof(u->id), "%s", e->element[0]->str);
    *is_entry = true;
    kv = e->element[1];
    if (kv->type != REDIS_REPLY_ARRAY)
        return false;       /* deleted meanwhile (XAUTOCLAIM says nil) */
    u->fields = kv;
    r = field(kv, "r");
    i = field(kv, "i");
    s = field(kv, "s");
    g = field(kv, "g");
    t = field(kv, "t");
    w = field(kv, "u");
    if (r == NULL || i == NULL || s == NULL || g == NULL || t == NULL
        || w == NULL || strlen(r) >= sizeof(u->round)
        || strlen(t) >= sizeof(u->tables))
        return false;
    snprintf(u->round, sizeof(u->round), "%s", r);
    snprintf(u->tables, sizeof(u->tables), "%s", t);
    j = field(kv, "j");     /* not in entries of older builds */
    x = field(kv, "x");
    snprintf(u->job, sizeof(u->job), "%s", j != NULL ? j : "");
    snprintf(u->trace, sizeof(u->trace), "%s", x != NULL ? x : "");
    u->index = (unsigned)strtoul(i, NULL, 10);
    return puz_board_parse(s, &u->start, msg) == PUZ_OK
           && puz_board_parse(g, &u->goal, msg) == PUZ_OK
           && unit_parse(w, &u->unit);
}

/* --- taking and running a unit (any worker, any instance) ----------------- */

/* Acknowledge and delete entry id: it will not be run again. */
static void drop(jobq_t *q, redisContext *c, const char *id, bool *broken)
{
    const char *ack[] = { "XACK", q->k_units, JOBQ_GROUP, id };
    const char *del[] = { "XDEL", q->k_units, id };
    char msg[PUZ_MSG_MAX];
    redisReply *r;

    if ((r = jobq__cmd(c, 4, ack, NULL, broken, msg)) != NULL)
        freeReplyObject(r);
    if (!*broken && (r = jobq__cmd(c, 3, del, NULL, broken, msg)) != NULL)
        freeReplyObject(r);
}

/* A unit this instance cannot run (its tables differ or are not ready):
 * queued again for someone else, the entry dropped. */
static void give_back(jobq_t *q, redisContext *c, const struct unit_entry *u,
                      bool *broken)
{
    const redisReply *kv = u->fields;
    const char *argv[32] = { "XADD", q->k_units, "*" };
    int n = 3;
    char msg[PUZ_MSG_MAX];
    redisReply *r;

    for (size_t i = 0; i < kv->elements && n < 32; i++)
        argv[n++] = kv->element[i]->str;
    if ((r = jobq__cmd(c, n, argv, NULL, broken, msg)) != NULL)
        freeReplyObject(r);
    if (!*broken)
        drop(q, c, u->id, broken);
}

static bool round_live(jobq_t *q, redisContext *c, const char *round,
                       bool *broken)
{
    char key[JOBQ_KEY_MAX], msg[PUZ_MSG_MAX];
    const char *argv[] = { "EXISTS", key };
    redisReply *r;
    bool live;

    units_key(q, round, "live", key);
    r = jobq__cmd(c, 2, argv, NULL, broken, msg);
    live = r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer == 1;
    if (r != NULL)
        freeReplyObject(r);
    return live;
}

const char *jobq_units_tables(const puz_tables *t,
                              const struct puz_board *goal)
{
    const puz_pdb *d = t != NULL ? puz_tables_pdb(t, goal) : NULL;

    return d != NULL ? puz_pdb_partition_name(puz_pdb_partition(d)) : "";
}

static void running_add(jobq_t *q, struct jobq_unit_run *ur)
{
    pthread_mutex_lock(&q->units_lock);
    ur->next = q->units_running;
    q->units_running = ur;
    pthread_mutex_unlock(&q->units_lock);
}

static void running_remove(jobq_t *q, struct jobq_unit_run *ur)
{
    pthread_mutex_lock(&q->units_lock);
    for (struct jobq_unit_run **p = &q->units_running; *p != NULL;
         p = &(*p)->next)
        if (*p == ur) {
            *p = ur->next;
            break;
        }
    pthread_mutex_unlock(&q->units_lock);
}

/* A unit's result posted and its entry acknowledged and deleted, in
 * one transaction: a unit is either still held or its result is in. */
static bool post(jobq_t *q, redisContext *c, const char *key,
                 const char *line, const char *ttl, const char *id,
                 char *msg)
{
    const char *multi[] = { "MULTI" }, *exec[] = { "EXEC" };
    const char *push[] = { "LPUSH", key, line };
    const char *exp[] = { "PEXPIRE", key, ttl };
    const char *ack[] = { "XACK", q->k_units, JOBQ_GROUP, id };
    const char *del[] = { "XDEL", q->k_units, id };
    const char **cmd[] = { multi, push, exp, ack, del, exec };
    const int argc[] = { 1, 3, 3, 4, 3, 1 };
    bool ok = true;

    for (int i = 0; i < 6; i++)
        if (redisAppendCommandArgv(c, argc[i], cmd[i], NULL) != REDIS_OK)
            return false;
    for (int i = 0; i < 6; i++) {
        redisReply *r;

        if (redisGetReply(c, (void **)&r) != REDIS_OK || r == NULL) {
            snprintf(msg, PUZ_MSG_MAX, "redis: %.200s",
                     c->err ? c->errstr : "no answer");
            return false;
        }
        if (i == 5 && r->type != REDIS_REPLY_ARRAY)
            ok = false;     /* the transaction did not run */
        freeReplyObject(r);
    }
    return ok;
}

/* Run the unit of entry e (as read by consumer) and post its numbers.
 * Returns false when this instance had to give it back (no tables). */
static bool run_entry(jobq_t *q, redisContext *c, const char *consumer,
                      const redisReply *e, bool *broken)
{
    struct unit_entry u;
    struct jobq_unit_run ur;
    struct puz_solve_opts o;
    struct puz_unit_result res;
    char key[JOBQ_KEY_MAX], line[PUZ_UNIT_PATH_MAX + 96], ttl[16],
         msg[PUZ_MSG_MAX];
    puz_arena *a;
    bool is_entry;
    puz_err rc;
    uint64_t t0;

    memset(&u, 0, sizeof(u));
    if (!entry_parse(e, &u, &is_entry)) {
        if (is_entry)
            drop(q, c, u.id, broken);
        return true;
    }
    if (!round_live(q, c, u.round, broken)) {
        if (!*broken)
            drop(q, c, u.id, broken);
        return true;
    }
    if (strcmp(jobq_units_tables(q->cfg.tables, &u.goal), u.tables) != 0) {
        give_back(q, c, &u, broken);
        return false;
    }
    memset(&ur, 0, sizeof(ur));
    snprintf(ur.entry, sizeof(ur.entry), "%s", u.id);
    snprintf(ur.round, sizeof(ur.round), "%s", u.round);
    snprintf(ur.consumer, sizeof(ur.consumer), "%s", consumer);
    ur.touched_us = puz_clock_mono_us();
    atomic_init(&ur.cancel, 0);
    running_add(q, &ur);
    if (atomic_load(&q->stop))      /* shutting down since it was read */
        atomic_store(&ur.cancel, 1);
    memset(&o, 0, sizeof(o));
    o.goal = &u.goal;
    o.tables = q->cfg.tables;
    o.solvable_known = true;
    o.limits.cancel = &ur.cancel;
    o.limits.max_bytes = UNIT_ARENA_BYTES;
    a = puz_arena_create(1u << 14);
    t0 = puz_clock_mono_us();
    rc = a != NULL ? puz_solve_unit(&u.start, &o, &u.unit, a, &res)
                   : PUZ_ENOMEM;
    puz_arena_destroy(a);
    running_remove(q, &ur);
    if (rc == PUZ_OK && res.status == PUZ_SOLVED) {
        units_key(q, u.round, "done", key);
        result_format(u.index, &res, line, sizeof(line));
        snprintf(ttl, sizeof(ttl), "%u", DONE_TTL_MS);
        if (post(q, c, key, line, ttl, u.id, msg)) {
            const struct jobq_unit_report rep = {
                u.job, u.trace, u.round, u.index, res.found, res.expanded,
                res.generated, puz_clock_mono_us() - t0 };

            atomic_fetch_add(&q->units_run, 1);
            if (q->cfg.unit_ran != NULL)
                q->cfg.unit_ran(q->cfg.unit_user, &rep);
        } else {
            *broken = true;
        }
    } else if (rc != PUZ_OK || !atomic_load(&q->stop)) {
        /* not a unit of any search, or its round is over */
        drop(q, c, u.id, broken);
    }
    /* stopped by our shutdown: left pending, claimed after a lease */
    return true;
}

/* The entries of a reply to XREADGROUP over the units stream alone or
 * with others: each of k_units's run. */
bool jobq__units_from_read(jobq_t *q, redisContext *c, const char *consumer,
                           const redisReply *streams, bool *broken)
{
    bool ok = true;

    for (size_t s = 0; streams->type == REDIS_REPLY_ARRAY
                       && s < streams->elements; s++) {
        const redisReply *st = streams->element[s];

        if (st->type != REDIS_REPLY_ARRAY || st->elements != 2
            || st->element[0]->type != REDIS_REPLY_STRING
            || strcmp(st->element[0]->str, q->k_units) != 0
            || st->element[1]->type != REDIS_REPLY_ARRAY)
            continue;
        for (size_t i = 0; i < st->element[1]->elements && !*broken; i++)
            ok = run_entry(q, c, consumer, st->element[1]->element[i],
                           broken) && ok;
    }
    return ok;
}

bool jobq__units_claim(jobq_t *q, redisContext *c, const char *consumer,
                       bool *broken)
{
    char idle[16], msg[PUZ_MSG_MAX];
    const char *argv[] = { "XAUTOCLAIM", q->k_units, JOBQ_GROUP, consumer,
                           idle, "0-0", "COUNT", "1" };
    redisReply *r;
    bool ok = true;

    /* a live worker re-claims its entries every quarter lease */
    snprintf(idle, sizeof(idle), "%u", q->cfg.lease_ms);
    r = jobq__cmd(c, 8, argv, NULL, broken, msg);
    if (r == NULL)
        return true;
    if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2
        && r->element[1]->type == REDIS_REPLY_ARRAY) {
        for (size_t i = 0; i < r->element[1]->elements && !*broken; i++) {
            atomic_fetch_add(&q->units_claimed, 1);
            ok = run_entry(q, c, consumer, r->element[1]->element[i],
                           broken) && ok;
        }
    }
    freeReplyObject(r);
    return ok;
}

/* --- the keeper's share ---------------------------------------------------- */

void jobq__units_keep(jobq_t *q, redisContext **c)
{
    uint64_t now = puz_clock_mono_us(),
             quarter = (uint64_t)q->cfg.lease_ms * 250u;
    char msg[PUZ_MSG_MAX];
    bool broken = false;

    pthread_mutex_lock(&q->units_lock);
    for (struct jobq_unit_run *ur = q->units_running; ur != NULL && !broken;
         ur = ur->next) {
        if (!round_live(q, *c, ur->round, &broken)) {
            if (!broken)
                atomic_store(&ur->cancel, 1);
            continue;
        }
        if (now - ur->touched_us >= quarter) {
            const char *argv[] = { "XCLAIM", q->k_units, JOBQ_GROUP,
                                   ur->consumer, "0", ur->entry, "JUSTID" };
            redisReply *r = jobq__cmd(*c, 7, argv, NULL, &broken, msg);

            if (r != NULL)
                freeReplyObject(r);
            ur->touched_us = now;
        }
    }
    pthread_mutex_unlock(&q->units_lock);
    if (broken) {
        redisFree(*c);
        *c = NULL;
    }
}

/* --- the runner ------------------------------------------------------------ */

/* A local thread of the runner: a worker of the queue until the round
 * ends. */
struct local {
    jobq_t *q;
    atomic_int *over;
    unsigned k;
};

static void *local_worker(void *arg)
{
    struct local *l = arg;
    jobq_t *q = l->q;
    char consumer[48], block[16], msg[PUZ_MSG_MAX];
    const char *argv[] = { "XREADGROUP", "GROUP", JOBQ_GROUP, consumer,
                           "COUNT", "1", "BLOCK", block, "STREAMS",
                           q->k_units, ">" };
    redisContext *c = jobq__connect(q, UNITS_BLOCK_MS + q->cfg.timeout_ms,
                                    msg);
    uint64_t last_claim = puz_clock_mono_us(), refused_until = 0;

    snprintf(consumer, sizeof(consumer), "%s-u%u", q->inst, l->k);
    snprintf(block, sizeof(block), "%u", UNITS_BLOCK_MS);
    while (c != NULL && !atomic_load(l->over) && !atomic_load(&q->stop)) {
        bool broken = false, ok = true;
        redisReply *r;

        if (puz_clock_mono_us() < refused_until) {
            usleep(UNITS_BLOCK_MS * 1000u);
            continue;
        }
        if (puz_clock_mono_us() - last_claim >= 1000000u) {
            last_claim = puz_clock_mono_us();
            ok = jobq__units_claim(q, c, consumer, &broken);
        }
        if (!broken && (r = jobq__cmd(c, 11, argv, NULL, &broken, msg))
            != NULL) {
            ok = jobq__units_from_read(q, c, consumer, r, &broken) && ok;
            freeReplyObject(r);
        }
        if (!ok)
            refused_until = puz_clock_mono_us() + GIVE_BACK_MS * 1000u;
        if (broken)
            break;
    }
    if (c != NULL)
        redisFree(c);
    return NULL;
}

/* Publish the n units of work as one round: its live key, then one
 * entry each (their ids in ids) but for those filed already (filed NULL:
 * none is). False when Redis fails. */
static bool publish(jobq_t *q, redisContext *c, const struct jobq_units *ju,
                    const char *round, void *work, unsigned n, char **ids,
                    const unsigned char *filed)
{
    char key[JOBQ_KEY_MAX], lease[16], start[3 * PUZ_MAX_CELLS],
         goal[3 * PUZ_MAX_CELLS], idx[16], ustr[PUZ_UNIT_CUT_MAX + 32],
         msg[PUZ_MSG_MAX];
    const char *set[] = { "SET", key, "1", "PX", lease };
    bool broken = false, ok = true;
    redisReply *r;

    units_key(q, round, "live", key);
    snprintf(lease, sizeof(lease), "%u", q->cfg.lease_ms);
    if ((r = jobq__cmd(c, 5, set, NULL, &broken, msg)) == NULL)
        return false;
    freeReplyObject(r);
    puz_board_format(ju->start, start, sizeof(start));
    puz_board_format(ju->goal, goal, sizeof(goal));
    unsigned sent = 0;

    for (unsigned i = 0; i < n; i++) {
        struct puz_unit un;
        const char *add[] = { "XADD", q->k_units, "*", "r", round, "i", idx,
                              "s", start, "g", goal, "t", ju->tables, "u",
                              ustr, "j", ju->job,
                              "x", ju->trace != NULL ? ju->trace : "" };

        if (filed != NULL && filed[i])
            continue;
        sent++;
        puz_units_describe(work, i, &un);
        unit_format(&un, ustr, sizeof(ustr));
        snprintf(idx, sizeof(idx), "%u", i);
        if (redisAppendCommandArgv(c, 19, add, NULL) != REDIS_OK)
            return false;
    }
    for (unsigned i = 0; i < n; i++) {
        if (filed != NULL && filed[i])
            continue;
        if (redisGetReply(c, (void **)&r) != REDIS_OK || r == NULL)
            return false;
        free(ids[i]);
        ids[i] = NULL;
        if (r->type == REDIS_REPLY_STRING)
            ids[i] = strdup(r->str);
        else
            ok = false;
        freeReplyObject(r);
    }
    atomic_fetch_add(&q->units_published, sent);
    return ok;
}

/* Wait for the round's results and file them, until every unit is in,
 * the work is over, the job is cancelled or Redis fails. A live key found
 * gone at a renewal (this thread held off Redis past a lease: a stalled
 * Redis, a starved CPU) means the workers dropped the round's entries as
 * ended: the units not filed yet are published again, else the round
 * would wait for them forever. */
static void collect(jobq_t *q, redisContext *c, const struct jobq_units *ju,
                    const char *round, void *work, unsigned n,
                    unsigned char *filed, char **ids)
{
    char done[JOBQ_KEY_MAX], live[JOBQ_KEY_MAX], lease[16], msg[PUZ_MSG_MAX];
    const char *pop[] = { "BRPOP", done, "0.1" };
    const char *renew[] = { "PEXPIRE", live, lease };
    uint64_t renewed = puz_clock_mono_us(),
             quarter = (uint64_t)q->cfg.lease_ms * 250u;
    unsigned got = 0;

    units_key(q, round, "done", done);
    units_key(q, round, "live", live);
    snprintf(lease, sizeof(lease), "%u", q->cfg.lease_ms);
    while (got < n && !puz_units_over(work)
           && !(ju->cancel != NULL && atomic_load(ju->cancel))) {
        bool broken = false;
        redisReply *r = jobq__cmd(c, 3, pop, NULL, &broken, msg);
        struct puz_unit_result res;
        unsigned i;

        if (broken)
            return;
        if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2
            && r->element[1]->type == REDIS_REPLY_STRING
            && result_parse(r->element[1]->str, &i, &res) && i < n
            && !filed[i]) {
            filed[i] = 1;
            got++;
            puz_units_store(work, i, &res);
        }
        if (r != NULL)
            freeReplyObject(r);
        if (puz_clock_mono_us() - renewed >= quarter) {
            bool lost = false;

            renewed = puz_clock_mono_us();
            if ((r = jobq__cmd(c, 3, renew, NULL, &broken, msg)) != NULL) {
                lost = r->type == REDIS_REPLY_INTEGER && r->integer == 0;
                freeReplyObject(r);
            }
            if (broken)
                return;
            if (lost) {
                atomic_fetch_add(&q->units_republished, 1);
                if (!publish(q, c, ju, round, work, n, ids, filed))
                    return;
            }
        }
    }
}

/* The round is over: workers skip its entries and stop its units. */
static void end_round(jobq_t *q, redisContext *c, const char *round)
{
    char live[JOBQ_KEY_MAX], msg[PUZ_MSG_MAX];
    const char *del[] = { "DEL", live };
    bool broken = false;
    redisReply *r;

    units_key(q, round, "live", live);
    if ((r = jobq__cmd(c, 2, del, NULL, &broken, msg)) != NULL)
        freeReplyObject(r);
}

/* What is left of an ended round gone: its results and its n entries
 * (ids, NULL where publishing failed). */
static void forget_round(jobq_t *q, redisContext *c, const char *round,
                         char **ids, unsigned n)
{
    char done[JOBQ_KEY_MAX], msg[PUZ_MSG_MAX];
    const char *del[] = { "DEL", done };
    const char **argv;
    bool broken = false;
    redisReply *r;
    unsigned k = 0;

    units_key(q, round, "done", done);
    if ((r = jobq__cmd(c, 2, del, NULL, &broken, msg)) != NULL)
        freeReplyObject(r);
    if (broken || (argv = malloc((n + 3) * sizeof(*argv))) == NULL)
        return;
    for (unsigned i = 0; i < n; i++)
        if (ids[i] != NULL)
            argv[3 + k++] = ids[i];
    if (k > 0) {
        argv[0] = "XACK";
        argv[1] = q->k_units;
        argv[2] = JOBQ_GROUP;
        if ((r = jobq__cmd(c, 3 + (int)k, argv, NULL, &broken, msg)) != NULL)
            freeReplyObject(r);
        argv[1] = "XDEL";
        argv[2] = q->k_units;
        if (!broken && (r = jobq__cmd(c, 2 + (int)k, argv + 1, NULL, &broken,
                                      msg)) != NULL)
            freeReplyObject(r);
    }
    free(argv);
}

void jobq_units_run(void (*piece)(void *work, unsigned i), void *work,
                    unsigned n, void *user)
{
    struct jobq_units *ju = user;
    jobq_t *q = ju->q;
    char round[JOBQ_ROUND_MAX], msg[PUZ_MSG_MAX];
    unsigned t = ju->threads > 0 ? ju->threads : 1;
    pthread_t th[LOCAL_MAX];
    struct local loc[LOCAL_MAX];
    bool started[LOCAL_MAX] = { false };
    atomic_int over;
    redisContext *c = NULL;
    char **ids = calloc(n, sizeof(*ids));
    unsigned char *filed = calloc(n, 1);

    if (t > LOCAL_MAX)
        t = LOCAL_MAX;
    if (ids != NULL && filed != NULL)
        c = jobq__connect(q, q->cfg.timeout_ms + 200u, msg);
    if (c == NULL || jobq__group(c, q->k_units, NULL, msg) != PUZ_OK) {
        /* Redis away: this instance's threads, as without it */
        if (c != NULL)
            redisFree(c);
        free(ids);
        free(filed);
        pool_run_units(piece, work, n, &t);
        return;
    }
    snprintf(round, sizeof(round), "%s.%s.%u", ju->job, q->inst,
             atomic_fetch_add(&q->round_seq, 1));
    atomic_init(&over, 0);
    if (publish(q, c, ju, round, work, n, ids, NULL)) {
        for (unsigned k = 0; k < t; k++) {
            loc[k] = (struct local){ q, &over, k };
            started[k] = pthread_create(&th[k], NULL, local_worker, &loc[k])
                         == 0;
        }
        collect(q, c, ju, round, work, n, filed, ids);
    }
    end_round(q, c, round);
    atomic_store(&over, 1);
    for (unsigned k = 0; k < t; k++)
        if (started[k])
            pthread_join(th[k], NULL);
    forget_round(q, c, round, ids, n);
    redisFree(c);
    for (unsigned i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
    free(filed);
}
