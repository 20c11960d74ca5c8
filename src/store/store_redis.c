/*
 * store_redis.c - the shared backend (store_int.h): the daily
 * leaderboard, its pars and the entries' rate limits in Redis, through
 * hiredis, so that every instance naming the same redis_url shares them.
 *
 * Keys (P = redis_prefix, "puzzled:" by default):
 *   P daily:DAY:SIZE:board  sorted set, one member an entry:
 *                           score = untimed * 2^41 + help * 2^40
 *                           + moves * 2^27 + time_ms (time_ms < 2^27,
 *                           moves < 2^13: timed entries rank first, then
 *                           unassisted ones, then fewer moves, then less
 *                           time; under 2^53, exact as a double),
 *                           member "SEQ:CREATED:NICKNAME" with SEQ 16 hex
 *                           digits of P daily:seq, so equal scores rank
 *                           by arrival (members of one score sort
 *                           bytewise). At most STORE_DAY_ENTRIES_MAX:
 *                           a better entry takes the worst one's place.
 *   P daily:DAY:SIZE:nicks  hash, lowercased nickname -> its member (one
 *                           entry per nickname: a better one replaces it)
 *   P daily:DAY:SIZE:folds  hash, folded nickname (store_nickname_fold)
 *                           -> the nickname of the board that has it;
 *   P daily:DAY:SIZE:foldof hash, lowercased nickname -> its fold (so an
 *                           entry that leaves the board frees its fold)
 *   P daily:DAY:SIZE:par    "PAR OPTIMAL", written once (SET NX)
 *   P daily:DAY:SIZE:tokens sorted set of the unused tokens by their
 *                           start (ms): at starts_max the oldest are
 *                           forgotten (ZPOPMIN, their token keys
 *                           deleted), expired ones trimmed at each start
 *   P daily:token:TOKEN     "DAY SIZE STARTED_MS EXPIRES_MS", then with
 *                           " FINISHED_MS MOVES HELP" once its run is
 *                           finished (issue 45: PX STORE_TOKEN_TTL_MS
 *                           again from the finish, off the day's unused
 *                           tokens), or "spent" once an entry used it;
 *                           PX STORE_TOKEN_TTL_MS
 *   P daily:seq             the arrival counter
 *   P rate:a:CLIENT:MINUTE, P rate:n:NET:MINUTE
 *                           entries from an address and its /24 or /64
 *                           in that minute (now / 60), expiring after two
 *   P rate:s:CLIENT:MINUTE, P rate:sn:NET:MINUTE   the same for starts
 *   P keys:rpm:NAME:MINUTE  an API key's requests in that minute, every
 *                           instance's (INCRBY at each sync; 2 minutes)
 *   P keys:streams:INSTANCE hash, key name -> event streams open on that
 *                           instance (PX STORE_KEY_USE_TTL_MS: a dead
 *                           instance's streams stop counting)
 *   P keys:instances        set of the instances that sync key use
 * An entry is one Lua script (checks, the token spent, the nickname's
 * earlier entry, room, ZADD, counters, rank), so it is atomic across
 * instances and one round trip; a start is another, a finish a third.
 * A command returns once Redis has applied it; what reaches disk
 * depends on Redis's appendfsync (docs/operations.md).
 *
 * Every call has a timeout (connect and command: timeout_ms); a timeout
 * or a lost connection is PUZ_EIO, and store.c reconnects.
 */
#include "store_int.h"

#include <hiredis/hiredis.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define SCORE_TIME_BITS 27      /* STORE_TIME_MAX_MS < 2^27 */
#define SCORE_HELP_BIT 40       /* above moves (STORE_MOVES_MAX < 2^13) */
#define SCORE_UNTIMED_BIT 41    /* above help */

struct redis_be {
    char host[256];
    char path[1024];            /* unix socket; "" = TCP */
    int port;
    unsigned db;
    char user[128], password[256];
    char prefix[128];
    unsigned timeout_ms;
    redisContext *c;
};

/* A token's value: day, size, start, expiry, and once finished the
 * finish, its moves and help ("" when not finished). */
#define TOKEN_LUA \
    "local function token_of(t)\n" \
    "  local d, z, st, ex, fin, fm, fh = string.match(t,\n" \
    "    '^(%S+) (%d+) (%d+) (%d+) ?(%d*) ?(%d*) ?(%d*)$')\n" \
    "  return d, z, tonumber(st), tonumber(ex), fin, fm, fh\n" \
    "end\n" \
    "local function run_ms(a, b, cap)\n" \
    "  return math.min(math.max(a - b, 1), cap)\n" \
    "end\n"

/* KEYS: board, seq, rate a, rate n, token, nicks, unused tokens, folds,
 * foldof. ARGV: moves (0: the token's finished run), created (s),
 * nickname, address max, network max, rate ttl, board cap, day, size,
 * now (ms), help, time cap, ms a move at least, the token, the
 * nickname's fold, untimed (1: no token). Answers {code, ms, member,
 * score, moves, help}: code 1 placed, 0 kept the earlier, < 0 refused
 * (the token as it was; -8 too fast, {-8, ms}; -9 a look-alike, {-9,
 * its nickname}; -10 finished already, -11 not finished). */
static const char add_script[] = TOKEN_LUA
    "local a = tonumber(redis.call('GET', KEYS[3]) or '0')\n"
    "if a >= tonumber(ARGV[4]) then return {-1} end\n"
    "local n = tonumber(redis.call('GET', KEYS[4]) or '0')\n"
    "if n >= tonumber(ARGV[5]) then return {-2} end\n"
    "local moves, help, ms = tonumber(ARGV[1]), tonumber(ARGV[11]), 0\n"
    "local untimed = ARGV[16] == '1'\n"
    "if not untimed then\n"
    "  local t = redis.call('GET', KEYS[5])\n"
    "  if not t then return {-4} end\n"
    "  if t == 'spent' then return {-5} end\n"
    "  local d, z, st, ex, fin, fm, fh = token_of(t)\n"
    "  if d ~= ARGV[8] or z ~= ARGV[9] then return {-6} end\n"
    "  local now = tonumber(ARGV[10])\n"
    "  if now >= ex then return {-7} end\n"
    "  if fin ~= '' and moves > 0 then return {-10} end\n"
    "  if fin == '' and moves == 0 then return {-11} end\n"
    "  if fin ~= '' then\n"
    "    moves, help = tonumber(fm), tonumber(fh)\n"
    "    ms = run_ms(tonumber(fin), st, tonumber(ARGV[12]))\n"
    "  else\n"
    "    ms = run_ms(now, st, tonumber(ARGV[12]))\n"
    "    if ms < moves * tonumber(ARGV[13]) then return {-8, ms} end\n"
    "  end\n"
    "end\n"
    "local score = (untimed and 2^41 or 0) + help * 2^40 + moves * 2^27\n"
    "  + ms\n"
    "local lower = string.lower(ARGV[3])\n"
    "local fo = redis.call('HGET', KEYS[8], ARGV[15])\n"
    "if fo and string.lower(fo) ~= lower then return {-9, fo} end\n"
    "local function spend()\n"
    "  if untimed then return end\n"
    "  redis.call('SET', KEYS[5], 'spent', 'KEEPTTL')\n"
    "  redis.call('ZREM', KEYS[7], ARGV[14])\n"
    "end\n"
    "local old = redis.call('HGET', KEYS[6], lower)\n"
    "local os = old and redis.call('ZSCORE', KEYS[1], old)\n"
    "if os and tonumber(os) <= score then\n"
    "  spend()\n"
    "  return {0, ms, old, os, moves, help}\n"
    "end\n"
    "if os then\n"
    "  redis.call('ZREM', KEYS[1], old)\n"
    "elseif redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[7]) then\n"
    "  local w = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')\n"
    "  if score >= tonumber(w[2]) then return {-3} end\n"
    "  redis.call('ZREM', KEYS[1], w[1])\n"
    "  local wn = string.match(w[1], '^[^:]*:[^:]*:(.*)$') or ''\n"
    "  redis.call('HDEL', KEYS[6], string.lower(wn))\n"
    "  local wf = redis.call('HGET', KEYS[9], string.lower(wn))\n"
    "  if wf then\n"
    "    redis.call('HDEL', KEYS[8], wf)\n"
    "    redis.call('HDEL', KEYS[9], string.lower(wn))\n"
    "  end\n"
    "end\n"
    "spend()\n"
    "local seq = redis.call('INCR', KEYS[2])\n"
    "local m = string.format('%016x', seq) .. ':' .. ARGV[2] .. ':' ..\n"
    "          ARGV[3]\n"
    "redis.call('ZADD', KEYS[1], score, m)\n"
    "redis.call('HSET', KEYS[6], lower, m)\n"
    "redis.call('HSET', KEYS[8], ARGV[15], ARGV[3])\n"
    "redis.call('HSET', KEYS[9], lower, ARGV[15])\n"
    "redis.call('INCR', KEYS[3])\n"
    "redis.call('EXPIRE', KEYS[3], ARGV[6])\n"
    "redis.call('INCR', KEYS[4])\n"
    "redis.call('EXPIRE', KEYS[4], ARGV[6])\n"
    "return {1, ms, m, redis.call('ZSCORE', KEYS[1], m), moves, help}\n";

/* KEYS: token, unused tokens. ARGV: day, size, now (ms), moves, help,
 * ms a move at least, time cap, ttl (ms), the token. Answers {1, ms}
 * finished now, {0, ms} finished before alike (that finish's time), or
 * < 0 refused (as the add script; -8 too fast {-8, ms}; -12 finished
 * before otherwise). */
static const char finish_script[] = TOKEN_LUA
    "local t = redis.call('GET', KEYS[1])\n"
    "if not t then return {-4} end\n"
    "if t == 'spent' then return {-5} end\n"
    "local d, z, st, ex, fin, fm, fh = token_of(t)\n"
    "if d ~= ARGV[1] or z ~= ARGV[2] then return {-6} end\n"
    "local now = tonumber(ARGV[3])\n"
    "if now >= ex then return {-7} end\n"
    "if fin ~= '' then\n"
    "  if fm ~= ARGV[4] or fh ~= ARGV[5] then return {-12} end\n"
    "  return {0, run_ms(tonumber(fin), st, tonumber(ARGV[7]))}\n"
    "end\n"
    "local ms = run_ms(now, st, tonumber(ARGV[7]))\n"
    "if ms < tonumber(ARGV[4]) * tonumber(ARGV[6]) then return {-8, ms} end\n"
    "local ttl = tonumber(ARGV[8])\n"
    "redis.call('SET', KEYS[1], string.format('%s %s %.0f %.0f %.0f %s %s',\n"
    "  d, z, st, now + ttl, now, ARGV[4], ARGV[5]), 'PX', ttl)\n"
    "redis.call('ZREM', KEYS[2], ARGV[9])\n"
    "return {1, ms}\n";

/* KEYS: token, rate s, rate sn, unused tokens. ARGV: value, ttl (ms),
 * address max, network max, rate ttl, unused cap, now (ms), the token
 * keys' prefix, the token. Answers 1, or < 0 refused. The token keys
 * of the forgotten are named here (one Redis, not a cluster). */
static const char start_script[] =
    "if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[3])\n"
    "then return -1 end\n"
    "if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[4])\n"
    "then return -2 end\n"
    "if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX')\n"
    "then return -4 end\n"
    "for i = 2, 3 do\n"
    "  redis.call('INCR', KEYS[i])\n"
    "  redis.call('EXPIRE', KEYS[i], ARGV[5])\n"
    "end\n"
    "local now = tonumber(ARGV[7])\n"
    "redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - tonumber(ARGV[2]))\n"
    "local over = redis.call('ZCARD', KEYS[4]) - tonumber(ARGV[6]) + 1\n"
    "if over > 0 then\n"
    "  local old = redis.call('ZPOPMIN', KEYS[4], over)\n"
    "  for i = 1, #old, 2 do redis.call('DEL', ARGV[8] .. old[i]) end\n"
    "end\n"
    "redis.call('ZADD', KEYS[4], now, ARGV[9])\n"
    "redis.call('PEXPIRE', KEYS[4], ARGV[2])\n"
    "return 1\n";

/* ARGV: prefix, instance, minute, ttl (ms), then per key: name,
 * requests since the last sync, streams open here. Answers per key
 * {requests this minute in all, streams open elsewhere}. Key names are
 * made here (one Redis, not a cluster). */
static const char key_use_script[] =
    "local p, inst, minute = ARGV[1], ARGV[2], ARGV[3]\n"
    "local mine = p .. 'keys:streams:' .. inst\n"
    "local set = p .. 'keys:instances'\n"
    "redis.call('SADD', set, inst)\n"
    "redis.call('DEL', mine)\n"
    "for i = 5, #ARGV, 3 do\n"
    "  if tonumber(ARGV[i + 2]) > 0 then\n"
    "    redis.call('HSET', mine, ARGV[i], ARGV[i + 2])\n"
    "  end\n"
    "end\n"
    "redis.call('PEXPIRE', mine, ARGV[4])\n"
    "local others = {}\n"
    "for _, o in ipairs(redis.call('SMEMBERS', set)) do\n"
    "  if o ~= inst then\n"
    "    if redis.call('EXISTS', p .. 'keys:streams:' .. o) == 1 then\n"
    "      others[#others + 1] = p .. 'keys:streams:' .. o\n"
    "    else\n"
    "      redis.call('SREM', set, o)\n"
    "    end\n"
    "  end\n"
    "end\n"
    "local out = {}\n"
    "for i = 5, #ARGV, 3 do\n"
    "  local rk = p .. 'keys:rpm:' .. ARGV[i] .. ':' .. minute\n"
    "  local d = tonumber(ARGV[i + 1])\n"
    "  local total = tonumber(redis.call('GET', rk) or '0')\n"
    "  if d > 0 then\n"
    "    total = redis.call('INCRBY', rk, d)\n"
    "    redis.call('EXPIRE', rk, 120)\n"
    "  end\n"
    "  local st = 0\n"
    "  for _, k in ipairs(others) do\n"
    "    st = st + tonumber(redis.call('HGET', k, ARGV[i]) or '0')\n"
    "  end\n"
    "  out[#out + 1] = total\n"
    "  out[#out + 1] = st\n"
    "end\n"
    "return out\n";

/* %XX decoded in place (a password may hold '@' or ':'). */
static void unescape(char *s)
{
    char *w = s;

    for (; *s; s++) {
        unsigned v;

        if (s[0] == '%' && s[1] && s[2] && sscanf(s + 1, "%2x", &v) == 1) {
            *w++ = (char)v;
            s += 2;
        } else {
            *w++ = *s;
        }
    }
    *w = '\0';
}

static puz_err bad_url(char *msg, const char *why)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "redis_url: %s (redis://[user:password@]"
                 "host[:port][/db] or unix:///path[?db=N])", why);
    return PUZ_EINVAL;
}

/* "user:password@" before rest, if any; rest moves past it. */
static void parse_auth(struct redis_be *b, const char **rest)
{
    const char *at = strrchr(*rest, '@'), *colon;

    if (at == NULL)
        return;
    colon = memchr(*rest, ':', (size_t)(at - *rest));
    if (colon != NULL) {
        snprintf(b->user, sizeof(b->user), "%.*s", (int)(colon - *rest),
                 *rest);
        snprintf(b->password, sizeof(b->password), "%.*s",
                 (int)(at - colon - 1), colon + 1);
    } else {
        snprintf(b->password, sizeof(b->password), "%.*s",
                 (int)(at - *rest), *rest);
    }
    unescape(b->user);
    unescape(b->password);
    *rest = at + 1;
}

static puz_err parse_tcp(struct redis_be *b, const char *rest, char *msg)
{
    const char *end, *slash;
    char *stop;
    long v;

    parse_auth(b, &rest);
    slash = strchr(rest, '/');
    end = slash ? slash : rest + strlen(rest);
    if (rest[0] == '[') {                   /* [v6]:port */
        const char *close = memchr(rest, ']', (size_t)(end - rest));
        if (close == NULL)
            return bad_url(msg, "no ']' after an IPv6 address");
        snprintf(b->host, sizeof(b->host), "%.*s", (int)(close - rest - 1),
                 rest + 1);
        rest = close + 1;
    } else {
        const char *colon = memchr(rest, ':', (size_t)(end - rest));
        const char *hend = colon ? colon : end;
        snprintf(b->host, sizeof(b->host), "%.*s", (int)(hend - rest), rest);
        rest = hend;
    }
    if (b->host[0] == '\0')
        return bad_url(msg, "no host");
    b->port = 6379;
    if (rest[0] == ':') {
        v = strtol(rest + 1, &stop, 10);
        if (stop == rest + 1 || stop != end || v < 1 || v > 65535)
            return bad_url(msg, "the port is 1 to 65535");
        b->port = (int)v;
    }
    if (slash != NULL && slash[1] != '\0') {
        v = strtol(slash + 1, &stop, 10);
        if (*stop != '\0' || v < 0 || v > 1000)
            return bad_url(msg, "the database is a number");
        b->db = (unsigned)v;
    }
    return PUZ_OK;
}

static puz_err parse_unix(struct redis_be *b, const char *rest, char *msg)
{
    const char *q = strchr(rest, '?');
    char *stop;
    long v;

    snprintf(b->path, sizeof(b->path), "%.*s",
             (int)(q ? (size_t)(q - rest) : strlen(rest)), rest);
    if (b->path[0] != '/')
        return bad_url(msg, "a unix socket's path is absolute");
    if (q != NULL) {
        if (strncmp(q, "?db=", 4) != 0)
            return bad_url(msg, "the only parameter is db");
        v = strtol(q + 4, &stop, 10);
        if (*stop != '\0' || stop == q + 4 || v < 0 || v > 1000)
            return bad_url(msg, "the database is a number");
        b->db = (unsigned)v;
    }
    return PUZ_OK;
}

puz_err store__redis_new(const char *url, const char *prefix,
                         unsigned timeout_ms, void **out, char *msg)
{
    struct redis_be *b = calloc(1, sizeof(*b));
    puz_err rc;

    *out = NULL;
    if (b == NULL)
        return PUZ_ENOMEM;
    snprintf(b->prefix, sizeof(b->prefix), "%s",
             prefix != NULL ? prefix : "puzzled:");
    b->timeout_ms = timeout_ms ? timeout_ms : 1000;
    if (strncmp(url, "redis://", 8) == 0)
        rc = parse_tcp(b, url + 8, msg);
    else if (strncmp(url, "unix://", 7) == 0)
        rc = parse_unix(b, url + 7, msg);
    else
        rc = bad_url(msg, "it starts with redis:// or unix://");
    if (rc != PUZ_OK) {
        free(b);
        return rc;
    }
    *out = b;
    return PUZ_OK;
}

static struct timeval tv_of(unsigned ms)
{
    struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000)
                          * 1000 };
    return tv;
}

static void redis_disconnect(void *be)
{
    struct redis_be *b = be;

    if (b->c != NULL)
        redisFree(b->c);
    b->c = NULL;
}

static void redis_destroy(void *be)
{
    free(be);
}

/* The connection's failure (or the error reply's words) as PUZ_EIO. */
static puz_err failed(struct redis_be *b, redisReply *r, char *msg)
{
    if (msg != NULL) {
        if (r != NULL && r->type == REDIS_REPLY_ERROR)
            snprintf(msg, PUZ_MSG_MAX, "redis: %.200s", r->str);
        else if (b->c != NULL && b->c->err)
            snprintf(msg, PUZ_MSG_MAX, "redis %.60s: %.150s", b->path[0]
                     ? b->path : b->host, b->c->errstr);
        else
            snprintf(msg, PUZ_MSG_MAX, "redis: an answer of an unexpected "
                     "kind (%d)", r != NULL ? r->type : -1);
    }
    if (r != NULL)
        freeReplyObject(r);
    return PUZ_EIO;
}

/* One command as argv; the reply (the caller frees it) or NULL with msg
 * set. An error reply is a failure too. */
static redisReply *command(struct redis_be *b, int argc, const char **argv,
                           char *msg)
{
    redisReply *r;

    if (b->c == NULL) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "redis: not connected");
        return NULL;
    }
    r = redisCommandArgv(b->c, argc, argv, NULL);
    if (r == NULL || r->type == REDIS_REPLY_ERROR) {
        failed(b, r, msg);
        return NULL;
    }
    return r;
}

static puz_err hello(struct redis_be *b, char *msg)
{
    char db[16];
    const char *auth[3] = { "AUTH", b->user, b->password };
    const char *select[2] = { "SELECT", db };
    const char *ping[1] = { "PING" };
    redisReply *r;

    if (b->password[0] != '\0') {
        r = b->user[0] ? command(b, 3, auth, msg)
                       : command(b, 2, (const char *[]){ "AUTH",
                                                         b->password }, msg);
        if (r == NULL)
            return PUZ_EIO;
        freeReplyObject(r);
    }
    if (b->db != 0) {
        snprintf(db, sizeof(db), "%u", b->db);
        if ((r = command(b, 2, select, msg)) == NULL)
            return PUZ_EIO;
        freeReplyObject(r);
    }
    if ((r = command(b, 1, ping, msg)) == NULL)
        return PUZ_EIO;
    freeReplyObject(r);
    return PUZ_OK;
}

static puz_err redis_connect(void *be, char *msg)
{
    struct redis_be *b = be;
    struct timeval tv = tv_of(b->timeout_ms);

    redis_disconnect(b);
    b->c = b->path[0] ? redisConnectUnixWithTimeout(b->path, tv)
                      : redisConnectWithTimeout(b->host, b->port, tv);
    if (b->c == NULL || b->c->err || redisSetTimeout(b->c, tv) != REDIS_OK
        || (b->path[0] == '\0' && redisEnableKeepAlive(b->c) != REDIS_OK)
        || hello(b, msg) != PUZ_OK) {
        if (b->c != NULL && b->c->err)
            failed(b, NULL, msg);
        else if (b->c == NULL && msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "redis: out of memory");
        redis_disconnect(b);
        return PUZ_EIO;
    }
    return PUZ_OK;
}

/* Another connection like be's (the jobs keep their own, jobq.c): a copy
 * of its settings connected as redis_connect does. */
redisContext *store__redis_connect_new(void *be, char *msg)
{
    struct redis_be tmp;

    /* the settings only: c belongs to the store's thread (a whole-struct
     * copy read it while the store reconnected: ThreadSanitizer) */
    memcpy(&tmp, be, offsetof(struct redis_be, c));
    tmp.c = NULL;
    if (redis_connect(&tmp, msg) != PUZ_OK)
        return NULL;
    return tmp.c;
}

const char *store__redis_prefix(const void *be)
{
    return ((const struct redis_be *)be)->prefix;
}

static puz_err redis_check(void *be, char *msg)
{
    struct redis_be *b = be;
    redisReply *r = command(b, 1, (const char *[]){ "PING" }, msg);

    if (r == NULL)
        return PUZ_EIO;
    freeReplyObject(r);
    return PUZ_OK;
}

static void key_of(const struct redis_be *b, char *out, size_t size,
                   const char *day, unsigned sz, const char *what)
{
    snprintf(out, size, "%sdaily:%s:%u:%s", b->prefix, day, sz, what);
}

/* The add script's refusal codes as the store's answers (r its answer,
 * a the entry). */
static puz_err add_refused(const redisReply *r, const struct store__add *a,
                           char *msg)
{
    long long code = r->element[0]->integer;

    switch (code) {
    case -1:
    case -2:
        return store__limited(msg, false, code == -2);
    case -3:
        return store__full(msg, a->lim->entries_max);
    case -9:
        return store__lookalike(msg, r->elements > 1
                                && r->element[1]->type == REDIS_REPLY_STRING
                                ? r->element[1]->str : "another player");
    case -8:
        return store__too_fast(msg, a->e->moves, r->elements > 1
                               && r->element[1]->type == REDIS_REPLY_INTEGER
                               ? (unsigned)r->element[1]->integer : 0,
                               a->lim->move_floor_ms);
    case -10:
        return store__token_refused(msg, STORE__TOKEN_FINISHED);
    case -11:
        return store__token_refused(msg, STORE__TOKEN_UNFINISHED);
    case -12:
        return store__token_refused(msg, STORE__TOKEN_FINISHED_OTHER);
    case -4:
        return store__token_refused(msg, STORE__TOKEN_UNKNOWN);
    case -5:
        return store__token_refused(msg, STORE__TOKEN_SPENT);
    case -6:
        return store__token_refused(msg, STORE__TOKEN_OTHER_BOARD);
    default:
        return store__token_refused(msg, STORE__TOKEN_EXPIRED);
    }
}

static void entry_of(const redisReply *m, const redisReply *sc,
                     struct store_entry *e);

/* The nickname's standing entry (its member and score in r) and rank. */
static puz_err placed_of(struct redis_be *b, const char *board,
                         redisReply *r, struct store_placed *out,
                         char *msg)
{
    const char *argv[] = { "ZRANK", board, r->element[2]->str };
    redisReply *k;

    out->improved = r->element[0]->integer == 1;
    out->time_ms = (unsigned)r->element[1]->integer;
    out->moves = (unsigned)r->element[4]->integer;
    out->help = r->element[5]->integer != 0;
    entry_of(r->element[2], r->element[3], &out->best);
    k = command(b, 3, argv, msg);
    freeReplyObject(r);     /* argv[2] was its */
    if (k == NULL)
        return PUZ_EIO;
    if (k->type != REDIS_REPLY_INTEGER)
        return failed(b, k, msg);
    out->best.rank = (unsigned)k->integer + 1;
    freeReplyObject(k);
    return PUZ_OK;
}

static bool add_answer_ok(const redisReply *r)
{
    if (r->type != REDIS_REPLY_ARRAY || r->elements < 1
        || r->element[0]->type != REDIS_REPLY_INTEGER)
        return false;
    return r->element[0]->integer < 0 || (r->elements == 6
        && r->element[1]->type == REDIS_REPLY_INTEGER
        && r->element[2]->type == REDIS_REPLY_STRING
        && r->element[3]->type == REDIS_REPLY_STRING
        && r->element[4]->type == REDIS_REPLY_INTEGER
        && r->element[5]->type == REDIS_REPLY_INTEGER);
}

static puz_err redis_add(void *be, const struct store__add *a,
                         struct store_placed *out, char *msg)
{
    struct redis_be *b = be;
    const struct store_submission *e = a->e;
    char board[256], seq[160], ra[256], rn[256], tok[200], nicks[256],
         unused[256], folds[256], foldof[256], moves[16], created[24],
         amax[16], nmax[16], ttl[16],
         cap[16], size[4], now[24], tmax[16], floor_ms[16];
    long long minute = (long long)(a->now_ms / 1000 / STORE_RATE_WINDOW_S);
    const char *argv[] = { "EVAL", add_script, "9", board, seq, ra, rn, tok,
                           nicks, unused, folds, foldof, moves, created,
                           e->nickname, amax, nmax, ttl, cap, e->day, size,
                           now, e->help ? "1" : "0", tmax, floor_ms,
                           e->untimed ? "-" : e->token, a->fold,
                           e->untimed ? "1" : "0" };
    redisReply *r;

    key_of(b, board, sizeof(board), e->day, e->size, "board");
    key_of(b, nicks, sizeof(nicks), e->day, e->size, "nicks");
    key_of(b, unused, sizeof(unused), e->day, e->size, "tokens");
    key_of(b, folds, sizeof(folds), e->day, e->size, "folds");
    key_of(b, foldof, sizeof(foldof), e->day, e->size, "foldof");
    snprintf(seq, sizeof(seq), "%sdaily:seq", b->prefix);
    /* An untimed entry has no token: its key is named, never read. */
    snprintf(tok, sizeof(tok), "%sdaily:token:%s", b->prefix,
             e->untimed ? "-" : e->token);
    snprintf(ra, sizeof(ra), "%srate:a:%s:%lld", b->prefix, e->client,
             minute);
    snprintf(rn, sizeof(rn), "%srate:n:%s:%lld", b->prefix, a->net, minute);
    snprintf(moves, sizeof(moves), "%u", e->moves);
    snprintf(created, sizeof(created), "%lld", (long long)(a->now_ms / 1000));
    snprintf(amax, sizeof(amax), "%d", STORE_RATE_MAX);
    snprintf(nmax, sizeof(nmax), "%d", STORE_RATE_NET_MAX);
    snprintf(ttl, sizeof(ttl), "%d", 2 * STORE_RATE_WINDOW_S);
    snprintf(cap, sizeof(cap), "%u", a->lim->entries_max);
    snprintf(floor_ms, sizeof(floor_ms), "%u", a->lim->move_floor_ms);
    snprintf(size, sizeof(size), "%u", e->size);
    snprintf(now, sizeof(now), "%lld", (long long)a->now_ms);
    snprintf(tmax, sizeof(tmax), "%u", STORE_TIME_MAX_MS);
    r = command(b, (int)(sizeof(argv) / sizeof(argv[0])), argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    if (!add_answer_ok(r))
        return failed(b, r, msg);
    if (r->element[0]->integer < 0) {
        puz_err rc = add_refused(r, a, msg);

        freeReplyObject(r);
        return rc;
    }
    return placed_of(b, board, r, out, msg);
}

static puz_err redis_start(void *be, const struct store__start *a,
                           char *msg)
{
    struct redis_be *b = be;
    char tok[200], rs[256], rsn[256], unused[256], val[64], ttl[16],
         amax[16], nmax[16], rttl[16], cap[16], now[24], tokens[160];
    long long minute = (long long)(a->now_ms / 1000 / STORE_RATE_WINDOW_S);
    const char *argv[] = { "EVAL", start_script, "4", tok, rs, rsn, unused,
                           val, ttl, amax, nmax, rttl, cap, now, tokens,
                           a->token };
    redisReply *r;
    long long got;

    snprintf(tok, sizeof(tok), "%sdaily:token:%s", b->prefix, a->token);
    snprintf(rs, sizeof(rs), "%srate:s:%s:%lld", b->prefix, a->client,
             minute);
    snprintf(rsn, sizeof(rsn), "%srate:sn:%s:%lld", b->prefix, a->net,
             minute);
    key_of(b, unused, sizeof(unused), a->day, a->size, "tokens");
    snprintf(tokens, sizeof(tokens), "%sdaily:token:", b->prefix);
    snprintf(now, sizeof(now), "%lld", (long long)a->now_ms);
    snprintf(val, sizeof(val), "%s %u %lld %lld", a->day, a->size,
             (long long)a->now_ms, (long long)(a->now_ms
             + STORE_TOKEN_TTL_MS));
    snprintf(ttl, sizeof(ttl), "%d", STORE_TOKEN_TTL_MS);
    snprintf(amax, sizeof(amax), "%d", STORE_START_RATE_MAX);
    snprintf(nmax, sizeof(nmax), "%d", STORE_START_RATE_NET_MAX);
    snprintf(rttl, sizeof(rttl), "%d", 2 * STORE_RATE_WINDOW_S);
    snprintf(cap, sizeof(cap), "%u", a->lim->starts_max);
    r = command(b, (int)(sizeof(argv) / sizeof(argv[0])), argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    if (r->type != REDIS_REPLY_INTEGER)
        return failed(b, r, msg);
    got = r->integer;
    freeReplyObject(r);
    if (got == -1 || got == -2)
        return store__limited(msg, true, got == -2);
    if (got != 1 && msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "redis: a fresh start token was there "
                 "already");
    return got == 1 ? PUZ_OK : PUZ_EIO;
}

/* The finish script's answer as the store's (r freed). */
static puz_err finish_answer(struct redis_be *b, redisReply *r,
                             const struct store__add *a,
                             struct store_run *out, char *msg)
{
    puz_err rc = PUZ_OK;

    if (r->type != REDIS_REPLY_ARRAY || r->elements < 1
        || r->element[0]->type != REDIS_REPLY_INTEGER
        || (r->element[0]->integer >= 0 && (r->elements != 2
            || r->element[1]->type != REDIS_REPLY_INTEGER)))
        return failed(b, r, msg);
    if (r->element[0]->integer < 0) {
        /* -8 (too fast) and the token's refusals, worded as an entry's */
        rc = add_refused(r, a, msg);
    } else {
        out->again = r->element[0]->integer == 0;
        out->time_ms = (unsigned)r->element[1]->integer;
    }
    freeReplyObject(r);
    return rc;
}

static puz_err redis_finish(void *be, const struct store__add *a,
                            struct store_run *out, char *msg)
{
    struct redis_be *b = be;
    const struct store_submission *e = a->e;
    char tok[200], unused[256], size[4], now[24], moves[16], floor_ms[16],
         tmax[16], ttl[16];
    const char *argv[] = { "EVAL", finish_script, "2", tok, unused, e->day,
                           size, now, moves, e->help ? "1" : "0",
                           floor_ms, tmax, ttl, e->token };
    redisReply *r;

    snprintf(tok, sizeof(tok), "%sdaily:token:%s", b->prefix, e->token);
    key_of(b, unused, sizeof(unused), e->day, e->size, "tokens");
    snprintf(size, sizeof(size), "%u", e->size);
    snprintf(now, sizeof(now), "%lld", (long long)a->now_ms);
    snprintf(moves, sizeof(moves), "%u", e->moves);
    snprintf(floor_ms, sizeof(floor_ms), "%u", a->lim->move_floor_ms);
    snprintf(tmax, sizeof(tmax), "%u", STORE_TIME_MAX_MS);
    snprintf(ttl, sizeof(ttl), "%d", STORE_TOKEN_TTL_MS);
    out->moves = e->moves;
    out->help = e->help;
    r = command(b, (int)(sizeof(argv) / sizeof(argv[0])), argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    return finish_answer(b, r, a, out, msg);
}

/* "SEQ:CREATED:NICK" and its score into e. */
static void entry_of(const redisReply *m, const redisReply *sc,
                     struct store_entry *e)
{
    const char *p = memchr(m->str, ':', m->len), *q;
    unsigned long long score = strtoull(sc->str, NULL, 10);

    memset(e, 0, sizeof(*e));
    e->help = ((score >> SCORE_HELP_BIT) & 1) != 0;
    e->untimed = (score >> SCORE_UNTIMED_BIT) != 0;
    e->moves = (unsigned)((score >> SCORE_TIME_BITS)
                          & ((1ull << (SCORE_HELP_BIT - SCORE_TIME_BITS)) - 1));
    e->time_ms = (unsigned)(score & ((1ull << SCORE_TIME_BITS) - 1));
    if (p == NULL)
        return;
    e->created_at = strtoll(p + 1, NULL, 10);
    q = memchr(p + 1, ':', m->len - (size_t)(p + 1 - m->str));
    if (q != NULL)
        snprintf(e->nickname, sizeof(e->nickname), "%.*s",
                 (int)(m->len - (size_t)(q + 1 - m->str)), q + 1);
}

/* KEYS: nicks, board. ARGV: the nickname. Answers {} when the board has
 * no entry of it, else {member, score, rank (0-based)}: one round trip,
 * the three read at one instant. */
static const char find_script[] =
    "local m = redis.call('HGET', KEYS[1], string.lower(ARGV[1]))\n"
    "local sc = m and redis.call('ZSCORE', KEYS[2], m)\n"
    "if not sc then return {} end\n"
    "return {m, sc, redis.call('ZRANK', KEYS[2], m)}\n";

/* The entry of nick and its rank: *count 1, or 0 when there is none. */
static puz_err find_nick(struct redis_be *b, const char *day, unsigned size,
                         const char *nick, struct store_entry *out,
                         unsigned *count, char *msg)
{
    char nicks[256], board[256];
    const char *argv[] = { "EVAL", find_script, "2", nicks, board, nick };
    redisReply *r;

    key_of(b, nicks, sizeof(nicks), day, size, "nicks");
    key_of(b, board, sizeof(board), day, size, "board");
    r = command(b, 6, argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    if (r->type != REDIS_REPLY_ARRAY || (r->elements != 0
        && (r->elements != 3 || r->element[0]->type != REDIS_REPLY_STRING
            || r->element[1]->type != REDIS_REPLY_STRING
            || r->element[2]->type != REDIS_REPLY_INTEGER)))
        return failed(b, r, msg);
    if (r->elements == 3) {
        entry_of(r->element[0], r->element[1], out);
        out->rank = (unsigned)r->element[2]->integer + 1;
        *count = 1;
    }
    freeReplyObject(r);
    return PUZ_OK;
}

static puz_err redis_top(void *be, const char *day, unsigned size,
                         const char *nick, struct store_entry *out,
                         unsigned max, unsigned *count, char *msg)
{
    struct redis_be *b = be;
    char key[256], stop[16];
    const char *argv[] = { "ZRANGE", key, "0", stop, "WITHSCORES" };
    redisReply *r;

    if (max == 0)
        return PUZ_OK;
    if (nick != NULL)
        return find_nick(b, day, size, nick, out, count, msg);
    key_of(b, key, sizeof(key), day, size, "board");
    snprintf(stop, sizeof(stop), "%u", max - 1);
    r = command(b, 5, argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    if (r->type != REDIS_REPLY_ARRAY || r->elements % 2 != 0)
        return failed(b, r, msg);
    for (size_t i = 0; i + 1 < r->elements && *count < max; i += 2) {
        if (r->element[i]->type != REDIS_REPLY_STRING
            || r->element[i + 1]->type != REDIS_REPLY_STRING)
            return failed(b, r, msg);
        entry_of(r->element[i], r->element[i + 1], &out[*count]);
        out[*count].rank = *count + 1;
        (*count)++;
    }
    freeReplyObject(r);
    return PUZ_OK;
}

static puz_err redis_count(void *be, const char *day, unsigned size,
                           unsigned *count, char *msg)
{
    struct redis_be *b = be;
    char key[256];
    const char *argv[] = { "ZCARD", key };
    redisReply *r;

    key_of(b, key, sizeof(key), day, size, "board");
    r = command(b, 2, argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    if (r->type != REDIS_REPLY_INTEGER)
        return failed(b, r, msg);
    *count = (unsigned)r->integer;
    freeReplyObject(r);
    return PUZ_OK;
}

static puz_err redis_par_get(void *be, const char *day, unsigned size,
                             unsigned *par, bool *optimal, bool *found,
                             char *msg)
{
    struct redis_be *b = be;
    char key[256];
    const char *argv[] = { "GET", key };
    redisReply *r;
    unsigned p, o;

    key_of(b, key, sizeof(key), day, size, "par");
    r = command(b, 2, argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    if (r->type == REDIS_REPLY_STRING
        && sscanf(r->str, "%u %u", &p, &o) == 2) {
        *par = p;
        *optimal = o != 0;
        *found = true;
    } else if (r->type != REDIS_REPLY_NIL) {
        return failed(b, r, msg);
    }
    freeReplyObject(r);
    return PUZ_OK;
}

/* First writer wins (SET NX); then whichever stands is read back. */
static puz_err redis_par_put(void *be, const char *day, unsigned size,
                             unsigned *par, bool *optimal, char *msg)
{
    struct redis_be *b = be;
    char key[256], val[32];
    const char *argv[] = { "SET", key, val, "NX" };
    redisReply *r;
    bool found = false;

    key_of(b, key, sizeof(key), day, size, "par");
    snprintf(val, sizeof(val), "%u %u", *par, *optimal ? 1u : 0u);
    r = command(b, 4, argv, msg);
    if (r == NULL)
        return PUZ_EIO;
    freeReplyObject(r);
    return redis_par_get(b, day, size, par, optimal, &found, msg);
}

static int redis_schema_version(void *be)
{
    (void)be;
    return -1;
}

puz_err store__redis_key_use(void *be, const char *instance, int64_t now_ms,
                             struct store_key_use *use, size_t n, char *msg)
{
    struct redis_be *b = be;
    size_t argc = 7 + 3 * n;
    const char **argv = calloc(argc, sizeof(*argv));
    char (*num)[24] = calloc(2 * n + 2, sizeof(*num));
    redisReply *r = NULL;
    puz_err rc = PUZ_ENOMEM;

    if (argv == NULL || num == NULL)
        goto out_free;
    argv[0] = "EVAL";
    argv[1] = key_use_script;
    argv[2] = "0";
    argv[3] = b->prefix;
    argv[4] = instance;
    snprintf(num[0], sizeof(num[0]), "%lld", (long long)(now_ms / 60000));
    snprintf(num[1], sizeof(num[1]), "%d", STORE_KEY_USE_TTL_MS);
    argv[5] = num[0];
    argv[6] = num[1];
    for (size_t i = 0; i < n; i++) {
        snprintf(num[2 + 2 * i], sizeof(num[0]), "%u", use[i].requests);
        snprintf(num[3 + 2 * i], sizeof(num[0]), "%u", use[i].streams);
        argv[7 + 3 * i] = use[i].key;
        argv[8 + 3 * i] = num[2 + 2 * i];
        argv[9 + 3 * i] = num[3 + 2 * i];
    }
    r = command(b, (int)argc, argv, msg);
    rc = PUZ_EIO;
    if (r == NULL)
        goto out_free;
    if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 * n) {
        failed(b, r, msg);
        goto out_free;
    }
    for (size_t i = 0; i < n; i++) {
        if (r->element[2 * i]->type != REDIS_REPLY_INTEGER
            || r->element[2 * i + 1]->type != REDIS_REPLY_INTEGER) {
            failed(b, r, msg);
            goto out_free;
        }
        use[i].requests_total = (unsigned)r->element[2 * i]->integer;
        use[i].streams_elsewhere = (unsigned)r->element[2 * i + 1]->integer;
    }
    freeReplyObject(r);
    rc = PUZ_OK;
out_free:
    free(num);
    free(argv);
    return rc;
}

const struct store__ops store__redis_ops = STORE__OPS(redis, "shared");
