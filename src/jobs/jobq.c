/*
 * jobq.c - shared jobs in Redis (jobq.h): the keys, the Lua scripts
 * that move a job from state to state atomically across instances, the
 * routes' calls (submit, find, list, cancel, events) over a small pool
 * of connections, and the module's start and stop. The threads that
 * take and run jobs are jobq_run.c's.
 *
 * Every script that ends a job goes through fin(): the final state and
 * event, the job's expiry, the counters; a job's record is read with
 * one HMGET of FIELDS, in that order.
 */
#include "jobq_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "puz_clock.h"

#define CANCEL_POLL_MS 20

/* The fields of a job's hash a view reads, in this order. */
#define FIELDS "'owner', 'state', 'created_ms', 'started_ms', " \
    "'finished_ms', 'attempts', 'version', 'reason', 'expanded', " \
    "'generated', 'p_elapsed_us', 'bound', 'lower_bound', 'best_length', " \
    "'elapsed_us', 'trace'"
enum {
    F_OWNER, F_STATE, F_CREATED, F_STARTED, F_FINISHED, F_ATTEMPTS,
    F_VERSION, F_REASON, F_EXPANDED, F_GENERATED, F_PELAPSED, F_BOUND,
    F_LOWER, F_BEST, F_ELAPSED, F_TRACE, F_COUNT, F_RESULT = F_COUNT
};
static const char *const field_names[F_COUNT + 1] = {
    "owner", "state", "created_ms", "started_ms", "finished_ms",
    "attempts", "version", "reason", "expanded", "generated",
    "p_elapsed_us", "bound", "lower_bound", "best_length", "elapsed_us",
    "trace", "result",
};

/* A job forgotten frees its Idempotency-Key (the job's hash names it in
 * "idem"; the key's value ends with the job's id unless another job has
 * it since). Lua in forget(id), the job's hash the expression h. */
#define IDEM_FREE(h) \
    "  local ik = redis.call('HGET', " h ", 'idem')\n" \
    "  if ik and string.sub(redis.call('GET', ik) or '', -#id) == id then\n" \
    "    redis.call('DEL', ik) end\n"

/* KEYS: 1 hash, 2 lease, 3 events, 4 queued, 5 finished, 6 active,
 * 7 queue, 8 all, 9 rbytes (id -> bytes of its kept answer), 10 rtotal
 * (their sum: the cluster-wide count job_results_max_bytes caps);
 * ARGV: 1 id, 2 token, 3 now_ms, 4 lease_ms, 5 ttl_s, 6 events cap,
 * 7 group, then the script's own. The prefix P is KEYS[8] without its
 * "jobs:all". forget() drops a finished job and its count, HDEL first:
 * a write that frees, after which Redis lets a script write even when
 * over maxmemory (so the forgetting itself is never refused). */
#define FORGET \
    "local P = string.sub(KEYS[8], 1, #KEYS[8] - 8)\n" \
    "local function forget(id)\n" \
    "  local n = tonumber(redis.call('HGET', KEYS[9], id) or '0')\n" \
    "  redis.call('HDEL', KEYS[9], id)\n" \
    "  if n > 0 then redis.call('DECRBY', KEYS[10], n) end\n" \
    "  redis.call('ZREM', KEYS[8], id) redis.call('ZREM', KEYS[5], id)\n" \
    IDEM_FREE("P .. 'job:' .. id") \
    "  redis.call('DEL', P .. 'job:' .. id, P .. 'job:' .. id .. ':events')\n" \
    "end\n"
/* fin() files a finished job at its finish time (ms) plus a thousandth
 * per finish counted in Redis, so that jobs finishing within one
 * millisecond are forgotten in the order they finished, not by their
 * ids' order (which made the answers' budget forget a newer answer). */
#define PRELUDE FORGET \
    "local function fin(state, reason)\n" \
    "  local v = redis.call('HINCRBY', KEYS[1], 'version', 1)\n" \
    "  redis.call('HSET', KEYS[1], 'state', state, 'finished_ms', ARGV[3])\n" \
    "  if reason ~= '' then redis.call('HSET', KEYS[1], 'reason', reason)" \
    " end\n" \
    "  redis.call('HDEL', KEYS[1], 'body', 'cancel')\n" \
    "  local o = redis.call('HGET', KEYS[1], 'owner') or ''\n" \
    "  if redis.call('HINCRBY', KEYS[6], o, -1) <= 0 then\n" \
    "    redis.call('HDEL', KEYS[6], o) end\n" \
    "  redis.call('SREM', KEYS[4], ARGV[1])\n" \
    "  local seq = redis.call('INCR', P .. 'jobs:finish_seq') % 1000\n" \
    "  redis.call('ZADD', KEYS[5], tonumber(ARGV[3]) + seq / 1000," \
    " ARGV[1])\n" \
    "  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 't', state," \
    " 'state', state, 'version', v)\n" \
    "  redis.call('EXPIRE', KEYS[1], ARGV[5])\n" \
    "  redis.call('EXPIRE', KEYS[3], ARGV[5])\n" \
    "  local ik = redis.call('HGET', KEYS[1], 'idem')\n" \
    "  if ik and redis.call('TTL', ik) > tonumber(ARGV[5]) then\n" \
    "    redis.call('EXPIRE', ik, ARGV[5]) end\n" \
    "  redis.call('DEL', KEYS[2])\n" \
    "end\n" \
    "local function ack(e)\n" \
    "  redis.call('XACK', KEYS[7], ARGV[7], e)\n" \
    "  redis.call('XDEL', KEYS[7], e)\n" \
    "end\n" \
    "local function final(s)\n" \
    "  return s == 'done' or s == 'cancelled' or s == 'failed'\n" \
    "end\n"

/* ARGV 8: the queue entry, 9 job_max_attempts, 10 the first retry's
 * delay (ms; doubled each attempt, at most 32 times it). {1, body,
 * attempts, trace}: run it; {0}: another runner holds it, or its next attempt
 * is not due yet (left pending: claimed again later); {-1}: it had
 * ended (acknowledged now); {-2}: it had had its attempts and ends
 * failed now ("gave up after N attempts: <the last reason>"). */
static const char take_lua[] = PRELUDE
    "local st = redis.call('HGET', KEYS[1], 'state')\n"
    "if not st or final(st) then ack(ARGV[8]) return {-1} end\n"
    "if not redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[4]) then\n"
    "  return {0} end\n"
    "if redis.call('HGET', KEYS[1], 'cancel') == '1' then\n"
    "  fin('cancelled', '') ack(ARGV[8]) return {-1} end\n"
    "local had = tonumber(redis.call('HGET', KEYS[1], 'attempts') or '0')\n"
    "if had > 0 then\n"
    "  local why = redis.call('HGET', KEYS[1], 'last_error') or"
    " 'its runner stopped renewing its lease (the instance died or"
    " stalled)'\n"
    "  if had >= tonumber(ARGV[9]) then\n"
    "    fin('failed', 'gave up after ' .. had .. ' attempts: ' .. why)\n"
    "    ack(ARGV[8]) return {-2} end\n"
    "  local due = tonumber(redis.call('HGET', KEYS[1], 'retry_at') or '0')\n"
    "  if due == 0 then\n"
    "    due = tonumber(ARGV[3]) + tonumber(ARGV[10])"
    " * 2 ^ math.min(had - 1, 5)\n"
    "    redis.call('HSET', KEYS[1], 'retry_at', string.format('%d', due))"
    " end\n"
    "  if tonumber(ARGV[3]) < due then redis.call('DEL', KEYS[2])"
    " return {0} end\n"
    "  redis.call('HDEL', KEYS[1], 'retry_at')\n"
    "end\n"
    "local a = redis.call('HINCRBY', KEYS[1], 'attempts', 1)\n"
    "local v = redis.call('HINCRBY', KEYS[1], 'version', 1)\n"
    "redis.call('HSET', KEYS[1], 'state', 'running', 'started_ms', ARGV[3],"
    " 'expanded', 0, 'generated', 0, 'p_elapsed_us', 0, 'bound', 0,"
    " 'lower_bound', 0, 'best_length', 0, 'elapsed_us', 0)\n"
    "redis.call('SREM', KEYS[4], ARGV[1])\n"
    "redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 't',"
    " 'progress', 'state', 'running', 'version', v, 'attempts', a)\n"
    "return {1, redis.call('HGET', KEYS[1], 'body') or '', a,"
    " redis.call('HGET', KEYS[1], 'trace') or ''}\n";

/* ARGV 8 "1": progress in 9..15 (expanded, generated, p_elapsed_us,
 * bound, lower_bound, best_length, elapsed_us). -1: the lease is not
 * ours; 1: a cancel was asked; 0: go on. */
static const char renew_lua[] =
    "if redis.call('GET', KEYS[2]) ~= ARGV[2] then return -1 end\n"
    "redis.call('PEXPIRE', KEYS[2], ARGV[4])\n"
    "if ARGV[8] == '1' then\n"
    "  local v = redis.call('HINCRBY', KEYS[1], 'version', 1)\n"
    "  local f = {'expanded', ARGV[9], 'generated', ARGV[10],"
    " 'p_elapsed_us', ARGV[11], 'bound', ARGV[12], 'lower_bound', ARGV[13],"
    " 'best_length', ARGV[14], 'elapsed_us', ARGV[15]}\n"
    "  redis.call('HSET', KEYS[1], unpack(f))\n"
    "  redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[6], '*', 't',"
    " 'progress', 'state', 'running', 'version', v, 'attempts',"
    " redis.call('HGET', KEYS[1], 'attempts'), unpack(f))\n"
    "end\n"
    "if redis.call('HGET', KEYS[1], 'cancel') == '1' then return 1 end\n"
    "return 0\n";

/* ARGV 8 state, 9 reason, 10 result, 11 queue entry, 12..17 the last
 * progress (expanded, generated, p_elapsed_us, bound, lower_bound,
 * best_length), 18 the answers' budget (bytes, 0 none), 19 "1": Redis
 * was full, write even so (the body's HDEL first lets the rest past
 * maxmemory: a failure with no answer must be written, or the job
 * runs again and again). An answer kept makes room in the budget: the
 * oldest finished jobs are forgotten first, as the embedded registry
 * does. 1: written; -1: the lease is not ours (nothing written). */
static const char finish_lua[] = PRELUDE
    "if redis.call('GET', KEYS[2]) ~= ARGV[2] then return -1 end\n"
    "if redis.call('HGET', KEYS[1], 'state') ~= 'running' then\n"
    "  redis.call('DEL', KEYS[2]) return -1 end\n"
    "if ARGV[19] == '1' then redis.call('HDEL', KEYS[1], 'body') end\n"
    "local len, cap = #ARGV[10], tonumber(ARGV[18])\n"
    "while len > 0 and cap > 0 and tonumber(redis.call('GET', KEYS[10])"
    " or '0') + len > cap do\n"
    "  local o = redis.call('ZRANGE', KEYS[5], 0, 0)\n"
    "  if #o == 0 then break end\n"
    "  forget(o[1])\n"
    "end\n"
    "if len > 0 then redis.call('HSET', KEYS[9], ARGV[1], len)\n"
    "  redis.call('INCRBY', KEYS[10], len) end\n"
    "redis.call('HSET', KEYS[1], 'expanded', ARGV[12], 'generated',"
    " ARGV[13], 'p_elapsed_us', ARGV[14], 'bound', ARGV[15],"
    " 'lower_bound', ARGV[16], 'best_length', ARGV[17])\n"
    "if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'result', ARGV[10])"
    " end\n"
    "local r = ARGV[9]\n"
    "if ARGV[8] == 'cancelled' and r == '' then\n"
    "  r = redis.call('HGET', KEYS[1], 'reason') or 'cancelled' end\n"
    "fin(ARGV[8], r)\n"
    "ack(ARGV[11])\n"
    "return 1\n";

/* ARGV 8 reason. 0 no such job; 1 cancelled now; 2 it had ended and is
 * forgotten now; 3 its runner is asked to stop. */
static const char cancel_lua[] = PRELUDE
    "local st = redis.call('HGET', KEYS[1], 'state')\n"
    "if not st then return 0 end\n"
    "if final(st) then forget(ARGV[1]) return 2 end\n"
    "if st == 'queued' or redis.call('EXISTS', KEYS[2]) == 0 then\n"
    "  fin('cancelled', ARGV[8]) return 1 end\n"
    "redis.call('HSET', KEYS[1], 'cancel', '1', 'reason', ARGV[8])\n"
    "redis.call('HINCRBY', KEYS[1], 'version', 1)\n"
    "return 3\n";

/* The lease given back (shutdown): another instance takes the job over
 * once its queue entry has been idle a lease. */
static const char release_lua[] =
    "if redis.call('GET', KEYS[2]) == ARGV[2] then\n"
    "  redis.call('DEL', KEYS[2]) return 1 end\n"
    "return 0\n";

/* Redis full (the keeper): ARGV 8 finished jobs that keep an answer
 * forgotten at most, the oldest first (the small records of the others
 * stay: a failure's reason is what its client needs). How many. */
static const char shed_lua[] = FORGET
    "local n = 0\n"
    "for _, id in ipairs(redis.call('ZRANGE', KEYS[5], 0, 255)) do\n"
    "  if n >= tonumber(ARGV[8]) then break end\n"
    "  if redis.call('HEXISTS', KEYS[9], id) == 1 then\n"
    "    forget(id) n = n + 1 end\n"
    "end\n"
    "return n\n";

static const char *const scripts[JOBQ_SCRIPT_COUNT_] = {
    take_lua, renew_lua, finish_lua, cancel_lua, release_lua, shed_lua,
};

/* KEYS 1 all, 2 finished, 3 queued, 4 queue, 5 hash, 6 events, 7 active,
 * 8 rbytes, 9 rtotal, 10 the Idempotency-Key's (P idem:DIGEST); ARGV 1
 * id, 2 body, 3 owner, 4 now_ms, 5 max, 6 queue cap, 7 ttl_ms, 8 events
 * cap, 9 owner cap, 10 prefix, 11 the body's digest ("": no key), 12
 * the key's life (s), 13 the trace id ("": none). 0 queued; -1 queue full; -2 job_max held, none
 * finished; -3 the owner's cap; -5 the key's job came from another
 * body; a string: the key's job (same body), nothing made. Finished
 * jobs past their ttl leave the indexes (and the answers' count)
 * first. The key is looked up and bound in this one script, so two
 * submissions with one key never make two jobs: there is no window in
 * which the key is taken and its job not yet made. */
static const char submit_lua[] =
    "local function forget(id)\n"
    "  local n = tonumber(redis.call('HGET', KEYS[8], id) or '0')\n"
    "  redis.call('HDEL', KEYS[8], id)\n"
    "  if n > 0 then redis.call('DECRBY', KEYS[9], n) end\n"
    "  redis.call('ZREM', KEYS[1], id) redis.call('ZREM', KEYS[2], id)\n"
    IDEM_FREE("ARGV[10] .. 'job:' .. id")
    "  redis.call('DEL', ARGV[10] .. 'job:' .. id,"
    " ARGV[10] .. 'job:' .. id .. ':events')\n"
    "end\n"
    "local old = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf',"
    " tonumber(ARGV[4]) - tonumber(ARGV[7]), 'LIMIT', 0, 100)\n"
    "for _, id in ipairs(old) do forget(id) end\n"
    "if ARGV[11] ~= '' then\n"
    "  local fp, jid = string.match(redis.call('GET', KEYS[10]) or '',"
    " '^(%x+):(%x+)$')\n"
    "  if jid and redis.call('EXISTS', ARGV[10] .. 'job:' .. jid) == 1"
    " then\n"
    "    if fp ~= ARGV[11] then return -5 end\n"
    "    return jid\n"
    "  end\n"
    "end\n"
    "if tonumber(ARGV[9]) > 0 and tonumber(redis.call('HGET', KEYS[7],"
    " ARGV[3]) or '0') >= tonumber(ARGV[9]) then return -3 end\n"
    "if redis.call('SCARD', KEYS[3]) >= tonumber(ARGV[6]) then return -1"
    " end\n"
    "if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then\n"
    "  local o = redis.call('ZRANGE', KEYS[2], 0, 0)\n"
    "  if #o == 0 then return -2 end\n"
    "  forget(o[1])\n"
    "end\n"
    "redis.call('HSET', KEYS[5], 'body', ARGV[2], 'owner', ARGV[3],"
    " 'state', 'queued', 'created_ms', ARGV[4], 'attempts', 0,"
    " 'version', 1)\n"
    "if ARGV[13] ~= '' then redis.call('HSET', KEYS[5], 'trace', ARGV[13])"
    " end\n"
    "if ARGV[11] ~= '' then\n"
    "  redis.call('SET', KEYS[10], ARGV[11] .. ':' .. ARGV[1], 'EX',"
    " ARGV[12])\n"
    "  redis.call('HSET', KEYS[5], 'idem', KEYS[10])\n"
    "end\n"
    "redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])\n"
    "redis.call('SADD', KEYS[3], ARGV[1])\n"
    "redis.call('HINCRBY', KEYS[7], ARGV[3], 1)\n"
    "redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[8], '*', 't',"
    " 'progress', 'state', 'queued', 'version', 1)\n"
    "redis.call('XADD', KEYS[4], '*', 'id', ARGV[1])\n"
    "return 0\n";

/* KEYS 1 all; ARGV 1 prefix, 2 state ("" any), 3 owner, 4 "1" filter by
 * owner, 5 ids looked at at most, 6 rows at most: id, fields, ... */
static const char list_lua[] =
    "local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[5]) - 1)\n"
    "local out, n = {}, 0\n"
    "for _, id in ipairs(ids) do\n"
    "  local f = redis.call('HMGET', ARGV[1] .. 'job:' .. id, " FIELDS ")\n"
    "  if f[2] and (ARGV[2] == '' or f[2] == ARGV[2]) and\n"
    "     (ARGV[4] == '0' or f[1] == ARGV[3]) then\n"
    "    out[#out + 1] = id out[#out + 1] = f n = n + 1\n"
    "    if n >= tonumber(ARGV[6]) then break end\n"
    "  end\n"
    "end\n"
    "return out\n";

void jobq__keys(const jobq_t *q, const char *id, struct jobq_keys *k)
{
    snprintf(k->hash, sizeof(k->hash), "%sjob:%s", q->prefix, id);
    snprintf(k->lease, sizeof(k->lease), "%sjob:%s:lease", q->prefix, id);
    snprintf(k->events, sizeof(k->events), "%sjob:%s:events", q->prefix,
             id);
}

redisContext *jobq__connect(jobq_t *q, unsigned timeout_ms, char *msg)
{
    struct timeval tv = { (time_t)(timeout_ms / 1000),
                          (suseconds_t)(timeout_ms % 1000) * 1000 };
    redisContext *c;

    if (!store_ready(q->cfg.store, msg))
        return NULL;
    c = store_redis_connect(q->cfg.store, msg);
    if (c != NULL && redisSetTimeout(c, tv) != REDIS_OK) {
        snprintf(msg, PUZ_MSG_MAX, "redis: cannot set a timeout");
        redisFree(c);
        c = NULL;
    }
    return c;
}

redisReply *jobq__cmd(redisContext *c, int argc, const char **argv,
                      const size_t *lens, bool *broken, char *msg)
{
    redisReply *r = redisCommandArgv(c, argc, argv, lens);

    *broken = r == NULL;
    if (r == NULL) {
        snprintf(msg, PUZ_MSG_MAX, "redis: %.200s", c->err ? c->errstr
                 : "no answer");
        return NULL;
    }
    if (r->type == REDIS_REPLY_ERROR) {
        snprintf(msg, PUZ_MSG_MAX, "redis: %.200s", r->str);
        freeReplyObject(r);
        return NULL;
    }
    return r;
}

puz_err jobq__group(redisContext *c, const char *stream, bool *made,
                    char *msg)
{
    const char *argv[] = { "XGROUP", "CREATE", stream, JOBQ_GROUP, "0",
                           "MKSTREAM" };
    bool broken = false;
    redisReply *r = jobq__cmd(c, 6, argv, NULL, &broken, msg);

    if (made != NULL)
        *made = r != NULL;
    if (r != NULL)
        freeReplyObject(r);
    return r != NULL || (!broken && strstr(msg, "BUSYGROUP") != NULL)
           ? PUZ_OK : PUZ_EIO;
}

/* KEYS 1 all, 2 queued, 3 queue, 4 finished; ARGV 1 prefix. The jobs
 * still waiting (in the list or the waiting set) and the running ones
 * whose runner is gone get a new queue entry (a second entry of a job
 * is harmless: the take script leaves or acknowledges it); ids whose
 * record is gone leave the indexes. The number re-queued. */
static const char requeue_lua[] =
    "local seen, n = {}, 0\n"
    "local ids = redis.call('ZRANGE', KEYS[1], 0, -1)\n"
    "for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do\n"
    "  ids[#ids + 1] = id end\n"
    "for _, id in ipairs(ids) do\n"
    "  local h = ARGV[1] .. 'job:' .. id\n"
    "  local f = redis.call('HMGET', h, 'state', 'created_ms')\n"
    "  if seen[id] then\n"
    "  elseif not f[1] then\n"
    "    redis.call('ZREM', KEYS[1], id) redis.call('ZREM', KEYS[4], id)\n"
    "    redis.call('SREM', KEYS[2], id)\n"
    "  elseif f[1] == 'queued' or (f[1] == 'running'\n"
    "      and redis.call('EXISTS', h .. ':lease') == 0) then\n"
    "    if f[1] == 'queued' then redis.call('SADD', KEYS[2], id) end\n"
    "    redis.call('ZADD', KEYS[1], 'NX', f[2] or 0, id)\n"
    "    redis.call('XADD', KEYS[3], '*', 'id', id)\n"
    "    n = n + 1\n"
    "  end\n"
    "  seen[id] = true\n"
    "end\n"
    "return n\n";

long long jobq__requeue(jobq_t *q, redisContext *c, char *msg)
{
    const char *argv[] = { "EVAL", requeue_lua, "4", q->k_all, q->k_queued,
                           q->k_queue, q->k_finished, q->prefix };
    bool broken = false;
    redisReply *r = jobq__cmd(c, 8, argv, NULL, &broken, msg);
    long long n = r != NULL && r->type == REDIS_REPLY_INTEGER
                  ? r->integer : -1;

    if (r != NULL)
        freeReplyObject(r);
    return n;
}

redisReply *jobq__script(jobq_t *q, redisContext *c, enum jobq_script s,
                         const char *id, const char *token, int nextra,
                         const char **extra, const size_t *extra_lens,
                         bool *broken, char *msg)
{
    struct jobq_keys k;
    char now[24], lease[16], ttl[16], cap[16];
    const char *argv[32];
    size_t lens[32];
    int n = 0;

    jobq__keys(q, id, &k);
    snprintf(now, sizeof(now), "%lld", (long long)puz_clock_wall_ms());
    snprintf(lease, sizeof(lease), "%u", q->cfg.lease_ms);
    snprintf(ttl, sizeof(ttl), "%u", q->cfg.ttl_s);
    snprintf(cap, sizeof(cap), "%u", q->cfg.events_max);
    const char *fixed[] = {
        "EVAL", scripts[s], "10", k.hash, k.lease, k.events, q->k_queued,
        q->k_finished, q->k_active, q->k_queue, q->k_all, q->k_rbytes,
        q->k_rtotal, id, token, now, lease, ttl, cap, JOBQ_GROUP,
    };
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        argv[n] = fixed[i];
        lens[n++] = strlen(fixed[i]);
    }
    for (int i = 0; i < nextra && n < 32; i++) {
        argv[n] = extra[i];
        lens[n++] = extra_lens != NULL ? extra_lens[i] : strlen(extra[i]);
    }
    return jobq__cmd(c, n, argv, lens, broken, msg);
}

/* --- the routes' connections ------------------------------------------- */

/* A connection of the pool (its index), waiting at most a command's
 * timeout for one; -1 with msg when the store is down or none frees. */
static int conn_take(jobq_t *q, char *msg)
{
    char why[PUZ_MSG_MAX];
    struct timespec until = puz_clock_timespec_in(PUZ_CLOCK_WALL,
                                                  q->cfg.timeout_ms);
    struct store_stats st;
    int i = -1;

    if (!store_ready(q->cfg.store, why)) {
        snprintf(msg, PUZ_MSG_MAX, "the store is unavailable: %.200s", why);
        return -1;
    }
    pthread_mutex_lock(&q->lock);
    while (i < 0) {
        for (int k = 0; k < JOBQ_POOL && i < 0; k++)
            if (!q->busy[k])
                i = k;
        if (i < 0 && pthread_cond_timedwait(&q->freed, &q->lock, &until))
            break;
    }
    if (i >= 0)
        q->busy[i] = true;
    pthread_mutex_unlock(&q->lock);
    if (i < 0) {
        snprintf(msg, PUZ_MSG_MAX, "the store is unavailable: every "
                 "connection busy past %u ms", q->cfg.timeout_ms);
        return -1;
    }
    /* Made before Redis went away and came back: dead, though nothing
     * told it yet. Dropped unused, so no command is ever sent twice. */
    store_get_stats(q->cfg.store, &st);
    if (q->conns[i] != NULL && q->conn_gen[i] != st.reconnects) {
        redisFree(q->conns[i]);
        q->conns[i] = NULL;
    }
    if (q->conns[i] == NULL) {
        q->conn_gen[i] = st.reconnects;
        q->conns[i] = jobq__connect(q, q->cfg.timeout_ms, why);
        if (q->conns[i] == NULL) {
            snprintf(msg, PUZ_MSG_MAX, "the store is unavailable: %.200s",
                     why);
            pthread_mutex_lock(&q->lock);
            q->busy[i] = false;
            pthread_cond_signal(&q->freed);
            pthread_mutex_unlock(&q->lock);
            return -1;
        }
    }
    return i;
}

static void conn_give(jobq_t *q, int i, bool broken)
{
    if (broken) {
        redisFree(q->conns[i]);
        q->conns[i] = NULL;
    }
    pthread_mutex_lock(&q->lock);
    q->busy[i] = false;
    pthread_cond_signal(&q->freed);
    pthread_mutex_unlock(&q->lock);
}

/* One command on a pooled connection: the reply, or NULL + msg (as
 * PUZ_EIO: Redis failed or is down). */
static redisReply *pooled(jobq_t *q, int argc, const char **argv,
                          const size_t *lens, char *msg)
{
    int i = conn_take(q, msg);
    bool broken = false;
    redisReply *r;

    if (i < 0)
        return NULL;
    r = jobq__cmd(q->conns[i], argc, argv, lens, &broken, msg);
    conn_give(q, i, broken);
    return r;
}

/* A state script on a pooled connection (jobq__script). */
static redisReply *pooled_script(jobq_t *q, enum jobq_script s,
                                 const char *id, int nextra,
                                 const char **extra, char *msg)
{
    int i = conn_take(q, msg);
    bool broken = false;
    redisReply *r;

    if (i < 0)
        return NULL;
    r = jobq__script(q, q->conns[i], s, id, "", nextra, extra, NULL,
                     &broken, msg);
    conn_give(q, i, broken);
    return r;
}

/* --- a job's record as a view ------------------------------------------- */

static uint64_t num_of(const redisReply *r)
{
    return r != NULL && r->type == REDIS_REPLY_STRING
           ? strtoull(r->str, NULL, 10) : 0;
}

/* The F_COUNT fields (an HMGET's elements, in FIELDS order) into v;
 * false when the job is not there (no state). */
static bool view_of(redisReply **f, const char *id, struct jobs_view *v)
{
    int st;
    int64_t now = puz_clock_wall_ms();

    memset(v, 0, sizeof(*v));
    if (f[F_STATE]->type != REDIS_REPLY_STRING)
        return false;
    st = jobs_state_parse(f[F_STATE]->str);
    v->state = st >= 0 ? (enum jobs_state)st : JOBS_FAILED;
    snprintf(v->id, sizeof(v->id), "%s", id);
    if (f[F_OWNER]->type == REDIS_REPLY_STRING)
        snprintf(v->owner, sizeof(v->owner), "%s", f[F_OWNER]->str);
    if (f[F_REASON]->type == REDIS_REPLY_STRING)
        snprintf(v->reason, sizeof(v->reason), "%s", f[F_REASON]->str);
    if (f[F_TRACE]->type == REDIS_REPLY_STRING)
        snprintf(v->trace, sizeof(v->trace), "%s", f[F_TRACE]->str);
    v->created_ms = (int64_t)num_of(f[F_CREATED]);
    v->started_ms = (int64_t)num_of(f[F_STARTED]);
    v->finished_ms = (int64_t)num_of(f[F_FINISHED]);
    v->attempts = (unsigned)num_of(f[F_ATTEMPTS]);
    v->version = num_of(f[F_VERSION]);
    v->progress.expanded = num_of(f[F_EXPANDED]);
    v->progress.generated = num_of(f[F_GENERATED]);
    v->progress.elapsed_us = num_of(f[F_PELAPSED]);
    v->progress.bound = (unsigned)num_of(f[F_BOUND]);
    v->progress.lower_bound = (unsigned)num_of(f[F_LOWER]);
    v->progress.best_length = (unsigned)num_of(f[F_BEST]);
    if (v->state == JOBS_RUNNING && v->started_ms != 0)
        v->elapsed_us = (uint64_t)(now > v->started_ms
                                   ? now - v->started_ms : 0) * 1000u;
    else if (jobs_state_final(v->state) && v->started_ms != 0)
        v->elapsed_us = (uint64_t)(v->finished_ms - v->started_ms) * 1000u;
    return true;
}

puz_err jobq_find(jobq_t *q, const char *id, struct jobs_view *v,
                  char **result, bool *found, char *msg)
{
    struct jobq_keys k;
    const char *argv[2 + F_COUNT + 1] = { "HMGET", k.hash };
    int argc = 2 + F_COUNT + (result != NULL);
    redisReply *r;

    *found = false;
    if (result != NULL)
        *result = NULL;
    jobq__keys(q, id, &k);
    for (int i = 0; i <= F_COUNT; i++)
        argv[2 + i] = field_names[i];
    r = pooled(q, argc, argv, NULL, msg);
    if (r == NULL)
        return PUZ_EIO;
    if (r->type != REDIS_REPLY_ARRAY || r->elements != (size_t)argc - 2) {
        freeReplyObject(r);
        snprintf(msg, PUZ_MSG_MAX, "redis: an answer of an unexpected kind");
        return PUZ_EIO;
    }
    *found = view_of(r->element, id, v);
    if (*found && result != NULL
        && r->element[F_RESULT]->type == REDIS_REPLY_STRING) {
        redisReply *b = r->element[F_RESULT];

        *result = malloc(b->len ? b->len : 1);
        if (*result == NULL) {
            freeReplyObject(r);
            return PUZ_ENOMEM;
        }
        memcpy(*result, b->str, b->len);
        v->body = *result;
        v->len = b->len;
    }
    freeReplyObject(r);
    return PUZ_OK;
}

/* 128 random bits as hex (false: getrandom failed; no guessable ids). */
static bool new_id(char *id, size_t bytes)
{
    unsigned char raw[16];

    if (bytes > sizeof(raw)
        || getrandom(raw, bytes, 0) != (ssize_t)bytes)
        return false;
    for (size_t i = 0; i < bytes; i++)
        sprintf(id + 2 * i, "%02x", raw[i]);
    return true;
}

puz_err jobq_submit(jobq_t *q, const char *body, size_t len,
                    const char *owner, unsigned owner_cap, char *id,
                    char *msg)
{
    enum jobs_idem_found found;

    return jobq_submit_idem(q, body, len, owner, owner_cap, NULL, id,
                            &found, msg);
}

/* The submit script's answer: 0 or a refusal (PUZ_*), or the key's job
 * (a string: its id into id, *found REPLAY; -5: MISMATCH). */
static puz_err submitted(const redisReply *r, char *id,
                         enum jobs_idem_found *found, char *msg)
{
    long long got = r->type == REDIS_REPLY_INTEGER ? r->integer : -9;

    if (r->type == REDIS_REPLY_STRING && r->len == JOBS_ID_LEN) {
        memcpy(id, r->str, JOBS_ID_LEN + 1);
        *found = JOBS_IDEM_REPLAY;
        return PUZ_OK;
    }
    if (got == -5) {
        id[0] = '\0';
        *found = JOBS_IDEM_MISMATCH;
        return PUZ_OK;
    }
    if (got == -9 || got == -4 || got < -5 || got > 0) {
        snprintf(msg, PUZ_MSG_MAX, "redis: an answer of an unexpected kind");
        return PUZ_EIO;
    }
    return got == 0 ? PUZ_OK : got == -3 ? PUZ_ELIMITED : PUZ_EFULL;
}

puz_err jobq_submit_idem(jobq_t *q, const char *body, size_t len,
                         const char *owner, unsigned owner_cap,
                         const struct jobs_idem *idem, char *id,
                         enum jobs_idem_found *found, char *msg)
{
    return jobq_submit_traced(q, body, len, owner, owner_cap, idem, "", id,
                              found, msg);
}

puz_err jobq_submit_traced(jobq_t *q, const char *body, size_t len,
                           const char *owner, unsigned owner_cap,
                           const struct jobs_idem *idem, const char *trace,
                           char *id, enum jobs_idem_found *found, char *msg)
{
    struct jobq_keys k;
    char now[24], max[16], qcap[16], ttl[24], ecap[16], ocap[16], life[16];
    char ikey[JOBQ_KEY_MAX];
    const char *argv[] = {
        "EVAL", submit_lua, "10", q->k_all, q->k_finished, q->k_queued,
        q->k_queue, k.hash, k.events, q->k_active, q->k_rbytes,
        q->k_rtotal, ikey, id, body, owner, now, max, qcap, ttl, ecap,
        ocap, q->prefix, idem != NULL ? idem->body : "", life, trace,
    };
    size_t lens[sizeof(argv) / sizeof(argv[0])];
    redisReply *r;
    puz_err rc;

    msg[0] = '\0';
    *found = JOBS_IDEM_NEW;
    if (jobq__full(q, msg))
        return PUZ_EFULL;       /* msg says so: Redis, not the queue */
    if (!new_id(id, JOBS_ID_LEN / 2))
        return PUZ_ENOMEM;
    if (idem == NULL || idem->key[0] == '\0')
        argv[sizeof(argv) / sizeof(argv[0]) - 3] = "";
    jobq__keys(q, id, &k);
    snprintf(ikey, sizeof(ikey), "%sidem:%s", q->prefix,
             idem != NULL ? idem->key : "");
    snprintf(now, sizeof(now), "%lld", (long long)puz_clock_wall_ms());
    snprintf(max, sizeof(max), "%u", q->cfg.max);
    snprintf(qcap, sizeof(qcap), "%u", q->cfg.queue);
    snprintf(ttl, sizeof(ttl), "%llu", (unsigned long long)q->cfg.ttl_s
             * 1000u);
    snprintf(ecap, sizeof(ecap), "%u", q->cfg.events_max);
    snprintf(ocap, sizeof(ocap), "%u", owner_cap);
    snprintf(life, sizeof(life), "%u", JOBS_IDEM_TTL_S);
    for (size_t i = 0; i < sizeof(argv) / sizeof(argv[0]); i++)
        lens[i] = argv[i] == body ? len : strlen(argv[i]);
    r = pooled(q, (int)(sizeof(argv) / sizeof(argv[0])), argv, lens, msg);
    if (r == NULL && strstr(msg, "OOM") != NULL) {
        /* Full before the keeper's next look: full from now on (until
         * that look), and the same refusal. */
        atomic_store(&q->mem_used, atomic_load(&q->mem_max));
        if (!jobq__full(q, msg))
            snprintf(msg, PUZ_MSG_MAX, "the shared store (Redis) is "
                     "full: it refused the job (OOM)");
        return PUZ_EFULL;
    }
    if (r == NULL)
        return PUZ_EIO;
    rc = submitted(r, id, found, msg);
    freeReplyObject(r);
    return rc;
}

puz_err jobq_list(jobq_t *q, int state, const char *owner,
                  struct jobs_view *out, size_t max, size_t *n, char *msg)
{
    char scan[16], rows[24];
    const char *argv[] = {
        "EVAL", list_lua, "1", q->k_all, q->prefix,
        state >= 0 ? jobs_state_name((enum jobs_state)state) : "",
        owner != NULL ? owner : "", owner != NULL ? "1" : "0", scan, rows,
    };
    redisReply *r;

    *n = 0;
    if (max == 0)
        return PUZ_OK;
    snprintf(scan, sizeof(scan), "%u", q->cfg.max);
    snprintf(rows, sizeof(rows), "%zu", max);
    r = pooled(q, (int)(sizeof(argv) / sizeof(argv[0])), argv, NULL, msg);
    if (r == NULL)
        return PUZ_EIO;
    for (size_t i = 0; r->type == REDIS_REPLY_ARRAY
                       && i + 1 < r->elements && *n < max; i += 2) {
        redisReply *f = r->element[i + 1];

        if (r->element[i]->type == REDIS_REPLY_STRING
            && f->type == REDIS_REPLY_ARRAY && f->elements == F_COUNT
            && view_of(f->element, r->element[i]->str, &out[*n]))
            (*n)++;
    }
    freeReplyObject(r);
    return PUZ_OK;
}

/* The job's state, for a DELETE waiting on its runner: true when it
 * has ended (or is gone). */
static bool ended(jobq_t *q, const char *id, char *msg)
{
    struct jobq_keys k;
    const char *argv[] = { "HGET", k.hash, "state" };
    redisReply *r;
    bool done;
    int st;

    jobq__keys(q, id, &k);
    r = pooled(q, 3, argv, NULL, msg);
    if (r == NULL)
        return false;
    st = r->type == REDIS_REPLY_STRING ? jobs_state_parse(r->str) : -1;
    done = st < 0 || jobs_state_final((enum jobs_state)st);
    freeReplyObject(r);
    return done;
}

puz_err jobq_cancel(jobq_t *q, const char *id, const char *reason,
                    unsigned wait_ms, int *what, char *msg)
{
    const char *extra[] = { reason };
    redisReply *r = pooled_script(q, JOBQ_CANCEL, id, 1, extra, msg);
    long long got;

    *what = 0;
    if (r == NULL)
        return PUZ_EIO;
    got = r->type == REDIS_REPLY_INTEGER ? r->integer : 0;
    freeReplyObject(r);
    *what = got == 2 ? 2 : got == 0 ? 0 : 1;
    /* The runner's keeper sees the request within ~100 ms and the
     * search stops within ~100 ms more: wait for its final write. */
    for (unsigned waited = 0; got == 3 && waited < wait_ms;
         waited += CANCEL_POLL_MS) {
        if (ended(q, id, msg))
            break;
        usleep(CANCEL_POLL_MS * 1000);
    }
    return PUZ_OK;
}

/* --- events -------------------------------------------------------------- */

bool jobq_event_id_ok(const char *s)
{
    size_t a = s != NULL ? strspn(s, "0123456789") : 0;

    return a > 0 && a < 21 && s[a] == '-' && strspn(s + a + 1, "0123456789")
           == strlen(s + a + 1) && strlen(s + a + 1) > 0
           && strlen(s + a + 1) < 21;
}

/* A stream entry [id, [field, value, ...]] into e. */
static bool event_of(const redisReply *x, const char *job,
                     struct jobq_event *e)
{
    const redisReply *kv;

    memset(e, 0, sizeof(*e));
    if (x->type != REDIS_REPLY_ARRAY || x->elements != 2
        || x->element[0]->type != REDIS_REPLY_STRING
        || x->element[1]->type != REDIS_REPLY_ARRAY)
        return false;
    snprintf(e->id, sizeof(e->id), "%s", x->element[0]->str);
    snprintf(e->v.id, sizeof(e->v.id), "%s", job);
    kv = x->element[1];
    for (size_t i = 0; i + 1 < kv->elements; i += 2) {
        const char *f = kv->element[i]->str, *val = kv->element[i + 1]->str;
        uint64_t n = strtoull(val, NULL, 10);

        if (strcmp(f, "t") == 0)
            snprintf(e->type, sizeof(e->type), "%s", val);
        else if (strcmp(f, "state") == 0 && jobs_state_parse(val) >= 0)
            e->v.state = (enum jobs_state)jobs_state_parse(val);
        else if (strcmp(f, "version") == 0)
            e->v.version = n;
        else if (strcmp(f, "attempts") == 0)
            e->v.attempts = (unsigned)n;
        else if (strcmp(f, "expanded") == 0)
            e->v.progress.expanded = n;
        else if (strcmp(f, "generated") == 0)
            e->v.progress.generated = n;
        else if (strcmp(f, "p_elapsed_us") == 0)
            e->v.progress.elapsed_us = n;
        else if (strcmp(f, "bound") == 0)
            e->v.progress.bound = (unsigned)n;
        else if (strcmp(f, "lower_bound") == 0)
            e->v.progress.lower_bound = (unsigned)n;
        else if (strcmp(f, "best_length") == 0)
            e->v.progress.best_length = (unsigned)n;
        else if (strcmp(f, "elapsed_us") == 0)
            e->v.elapsed_us = n;
    }
    return e->type[0] != '\0';
}

/* Whether job's record is still there. */
static puz_err exists(jobq_t *q, const char *job, bool *yes, char *msg)
{
    struct jobq_keys k;
    const char *argv[] = { "EXISTS", k.hash };
    redisReply *r;

    jobq__keys(q, job, &k);
    r = pooled(q, 2, argv, NULL, msg);
    if (r == NULL)
        return PUZ_EIO;
    *yes = r->type == REDIS_REPLY_INTEGER && r->integer > 0;
    freeReplyObject(r);
    return PUZ_OK;
}

puz_err jobq_events(jobq_t *q, const char *job, const char *after,
                    struct jobq_event *out, size_t max, size_t *n,
                    bool *gone, char *msg)
{
    struct jobq_keys k;
    char from[JOBQ_EVENT_ID_MAX + 2], count[24];
    const char *range[] = { "XRANGE", k.events, from, "+", "COUNT", count };
    const char *last[] = { "XREVRANGE", k.events, "+", "-", "COUNT", "1" };
    redisReply *r;
    bool there = true;

    *n = 0;
    *gone = false;
    jobq__keys(q, job, &k);
    snprintf(from, sizeof(from), "(%s", after != NULL ? after : "");
    snprintf(count, sizeof(count), "%zu", max);
    r = pooled(q, 6, after != NULL ? range : last, NULL, msg);
    if (r == NULL)
        return PUZ_EIO;
    for (size_t i = 0; r->type == REDIS_REPLY_ARRAY && i < r->elements
                       && *n < max; i++)
        if (event_of(r->element[i], job, &out[*n]))
            (*n)++;
    freeReplyObject(r);
    if (*n == 0 && exists(q, job, &there, msg) != PUZ_OK)
        return PUZ_EIO;
    *gone = !there;
    return PUZ_OK;
}

unsigned jobq_queued(jobq_t *q)
{
    const char *argv[] = { "SCARD", q->k_queued };
    char msg[PUZ_MSG_MAX];
    redisReply *r = pooled(q, 2, argv, NULL, msg);
    unsigned n = 0;

    if (r != NULL && r->type == REDIS_REPLY_INTEGER)
        n = (unsigned)r->integer;
    if (r != NULL)
        freeReplyObject(r);
    return n;
}

/* --- start and stop ------------------------------------------------------ */

puz_err jobq_create(const struct jobq_config *cfg, jobq_t **out)
{
    jobq_t *q;
    const char *p;

    *out = NULL;
    if (cfg->store == NULL || strcmp(store_backend(cfg->store), "shared")
        != 0 || cfg->workers == 0 || cfg->run == NULL)
        return PUZ_EINVAL;
    q = calloc(1, sizeof(*q));
    if (q == NULL)
        return PUZ_ENOMEM;
    q->cfg = *cfg;
    if (q->cfg.lease_ms < 300)
        q->cfg.lease_ms = 300;
    if (q->cfg.events_max == 0)
        q->cfg.events_max = 1000;
    if (q->cfg.max_attempts == 0)
        q->cfg.max_attempts = 3;
    if (q->cfg.retry_ms == 0)
        q->cfg.retry_ms = 1000;
    p = store_redis_prefix(cfg->store);
    snprintf(q->prefix, sizeof(q->prefix), "%s", p);
    snprintf(q->k_queue, sizeof(q->k_queue), "%sjobs:queue", p);
    snprintf(q->k_all, sizeof(q->k_all), "%sjobs:all", p);
    snprintf(q->k_finished, sizeof(q->k_finished), "%sjobs:finished", p);
    snprintf(q->k_queued, sizeof(q->k_queued), "%sjobs:queued", p);
    snprintf(q->k_active, sizeof(q->k_active), "%sjobs:active", p);
    snprintf(q->k_units, sizeof(q->k_units), "%sunits:queue", p);
    snprintf(q->k_rbytes, sizeof(q->k_rbytes), "%sjobs:result_bytes", p);
    snprintf(q->k_rtotal, sizeof(q->k_rtotal), "%sjobs:result_total", p);
    pthread_mutex_init(&q->lock, NULL);
    pthread_mutex_init(&q->units_lock, NULL);
    pthread_mutex_init(&q->trouble_lock, NULL);
    pthread_cond_init(&q->freed, NULL);
    if (!new_id(q->inst, 8) || jobq__start_threads(q) != PUZ_OK) {
        jobq_destroy(q);
        return PUZ_ENOMEM;
    }
    *out = q;
    return PUZ_OK;
}

void jobq_shutdown(jobq_t *q)
{
    if (q == NULL || q->shut)
        return;
    q->shut = true;
    jobq__stop_threads(q);
}

void jobq_destroy(jobq_t *q)
{
    if (q == NULL)
        return;
    jobq_shutdown(q);
    for (int i = 0; i < JOBQ_POOL; i++)
        if (q->conns[i] != NULL)
            redisFree(q->conns[i]);
    pthread_cond_destroy(&q->freed);
    pthread_mutex_destroy(&q->lock);
    pthread_mutex_destroy(&q->units_lock);
    pthread_mutex_destroy(&q->trouble_lock);
    free(q);
}
