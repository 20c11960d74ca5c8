/*
 * store.c - the store's interface (store.h) over its two backends: the
 * checks every entry passes whichever keeps it, the client's network
 * prefix for the rate limit, the one lock, and the store's own thread,
 * which checks a live backend every second and reopens a lost one with
 * backoff. While the backend is down every call fails at once (no
 * thread waits on a dead connection), so the daily routes answer 503
 * and the rest of the server goes on.
 */
#include "store_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "puz_clock.h"

#define CHECK_EVERY_MS 1000u
#define BACKOFF_MIN_MS 100u
#define BACKOFF_MAX_MS 5000u

const double store_latency_bounds_s[STORE_LATENCY_BUCKETS] = {
    0.00025, 0.001, 0.005, 0.025, 0.1, 1.0
};

struct store {
    const struct store__ops *ops;
    void *be;
    unsigned lock_ms;           /* longest wait for the lock */
    pthread_mutex_t lock;       /* the backend's one user at a time */
    pthread_mutex_t state_lock; /* up, why, stop; the thread's condvar */
    pthread_cond_t wake;
    bool up, stop, thread;
    char why[PUZ_MSG_MAX];      /* why it is down */
    pthread_t tid;
    void (*log)(void *user, const char *line);
    void *user;
    atomic_uint_fast64_t calls, errors, reconnects, lat_sum;
    atomic_uint_fast64_t lat_le[STORE_LATENCY_BUCKETS];
    struct store_limits lim;
};

const struct store_limits store_limits_default = {
    STORE_DAY_STARTS_MAX, STORE_DAY_ENTRIES_MAX, STORE_MOVE_FLOOR_MS
};

void store_set_limits(store *s, const struct store_limits *l)
{
    pthread_mutex_lock(&s->lock);
    s->lim.starts_max = l->starts_max ? l->starts_max
                        : STORE_DAY_STARTS_MAX;
    s->lim.entries_max = l->entries_max ? l->entries_max
                         : STORE_DAY_ENTRIES_MAX;
    s->lim.move_floor_ms = l->move_floor_ms;
    pthread_mutex_unlock(&s->lock);
}

static void logf_(store *s, const char *fmt, const char *a, const char *b)
{
    char line[PUZ_MSG_MAX * 2];

    if (s->log == NULL)
        return;
    snprintf(line, sizeof(line), fmt, a, b);
    s->log(s->user, line);
}

/* Down with why; the thread is told. Called with s->lock held. The
 * backend is closed first: once up is false the thread owns it. */
static void mark_down(store *s, const char *why)
{
    s->ops->disconnect(s->be);
    pthread_mutex_lock(&s->state_lock);
    if (s->up)
        logf_(s, "puzzled: store (%s) unavailable: %s; reconnecting",
              s->ops->name, why);
    s->up = false;
    snprintf(s->why, sizeof(s->why), "%s", why);
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->state_lock);
}

static bool is_up(store *s)
{
    bool up;

    pthread_mutex_lock(&s->state_lock);
    up = s->up;
    pthread_mutex_unlock(&s->state_lock);
    return up;
}

bool store_ready(store *s, char *why)
{
    bool up;

    pthread_mutex_lock(&s->state_lock);
    up = s->up;
    if (!up && why != NULL)
        snprintf(why, PUZ_MSG_MAX, "%s", s->why);
    pthread_mutex_unlock(&s->state_lock);
    return up;
}

const char *store_backend(const store *s)
{
    return s->ops->name;
}

struct redisContext *store_redis_connect(store *s, char *msg)
{
    if (s->ops != &store__redis_ops) {
        snprintf(msg, PUZ_MSG_MAX, "the store is not shared (no redis_url)");
        return NULL;
    }
    return store__redis_connect_new(s->be, msg);
}

struct sqlite3 *store_sqlite_connect(store *s, char *msg)
{
    if (s->ops != &store__sqlite_ops) {
        snprintf(msg, PUZ_MSG_MAX, "the store is not embedded (redis_url "
                 "is set)");
        return NULL;
    }
    return store__sqlite_connect_new(s->be, msg);
}

const char *store_redis_prefix(const store *s)
{
    return s->ops == &store__redis_ops ? store__redis_prefix(s->be) : "";
}

/* The lock, waiting at most lock_ms: a stuck backend call elsewhere
 * holds it no longer than its own timeout, and nobody waits past it. */
static puz_err enter(store *s, char *msg)
{
    struct timespec ts = puz_clock_timespec_in(PUZ_CLOCK_WALL,
                                               s->lock_ms);

    if (pthread_mutex_timedlock(&s->lock, &ts) != 0) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "the store is unavailable: busy "
                     "past %u ms", s->lock_ms);
        return PUZ_EIO;
    }
    if (!is_up(s)) {
        if (msg != NULL) {
            char why[PUZ_MSG_MAX];

            store_ready(s, why);
            snprintf(msg, PUZ_MSG_MAX, "the store is unavailable: %.200s",
                     why);
        }
        pthread_mutex_unlock(&s->lock);
        return PUZ_EIO;
    }
    return PUZ_OK;
}

/* After a backend call (lock held) that returned rc: its time counted;
 * an I/O failure takes the backend down. Returns rc. */
static puz_err leave(store *s, puz_err rc, uint64_t t0, char *msg)
{
    uint64_t us = puz_clock_mono_us() - t0;

    atomic_fetch_add(&s->calls, 1);
    atomic_fetch_add(&s->lat_sum, us);
    for (int i = 0; i < STORE_LATENCY_BUCKETS; i++)
        if ((double)us / 1e6 <= store_latency_bounds_s[i])
            atomic_fetch_add(&s->lat_le[i], 1);
    if (rc == PUZ_EIO) {
        char why[PUZ_MSG_MAX];

        atomic_fetch_add(&s->errors, 1);
        snprintf(why, sizeof(why), "%s", msg != NULL && msg[0] ? msg
                 : "the backend failed");
        mark_down(s, why);
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "the store is unavailable: %.200s",
                     why);
    }
    pthread_mutex_unlock(&s->lock);
    return rc;
}

void store_get_stats(store *s, struct store_stats *out)
{
    out->calls = atomic_load(&s->calls);
    out->errors = atomic_load(&s->errors);
    out->reconnects = atomic_load(&s->reconnects);
    out->latency_us_sum = atomic_load(&s->lat_sum);
    for (int i = 0; i < STORE_LATENCY_BUCKETS; i++)
        out->latency_le[i] = atomic_load(&s->lat_le[i]);
}

/* Waits ms on the thread's condvar (state_lock held); false: stop. */
static bool nap(store *s, unsigned ms)
{
    struct timespec ts = puz_clock_timespec_in(PUZ_CLOCK_WALL, ms);

    if (!s->stop)
        pthread_cond_timedwait(&s->wake, &s->state_lock, &ts);
    return !s->stop;
}

/* One reconnect attempt (the backend is down: nobody else touches it). */
static bool reconnect(store *s)
{
    char why[PUZ_MSG_MAX] = "";

    if (s->ops->connect(s->be, why) != PUZ_OK) {
        pthread_mutex_lock(&s->state_lock);
        if (strcmp(why, s->why) != 0)
            logf_(s, "puzzled: store (%s) still unavailable: %s",
                  s->ops->name, why);
        snprintf(s->why, sizeof(s->why), "%s", why);
        pthread_mutex_unlock(&s->state_lock);
        return false;
    }
    pthread_mutex_lock(&s->lock);
    pthread_mutex_lock(&s->state_lock);
    s->up = true;
    s->why[0] = '\0';
    pthread_mutex_unlock(&s->state_lock);
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_add(&s->reconnects, 1);
    logf_(s, "puzzled: store (%s) available%s", s->ops->name, "");
    return true;
}

/* Up: is it still? (a lock held by a caller means it is in use: the
 * caller will find out). */
static void check(store *s)
{
    char why[PUZ_MSG_MAX] = "";
    uint64_t t0;
    puz_err rc;

    if (pthread_mutex_trylock(&s->lock) != 0)
        return;
    if (!is_up(s)) {
        pthread_mutex_unlock(&s->lock);
        return;
    }
    t0 = puz_clock_mono_us();
    rc = s->ops->check(s->be, why);
    leave(s, rc, t0, why);
}

static void *watch(void *arg)
{
    store *s = arg;
    unsigned backoff = BACKOFF_MIN_MS;

    pthread_mutex_lock(&s->state_lock);
    while (!s->stop) {
        bool up = s->up;

        pthread_mutex_unlock(&s->state_lock);
        if (up) {
            check(s);
            backoff = BACKOFF_MIN_MS;
        } else if (!reconnect(s)) {
            backoff = backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
                      : backoff * 2;
        }
        pthread_mutex_lock(&s->state_lock);
        if (!nap(s, s->up ? CHECK_EVERY_MS : backoff))
            break;
    }
    pthread_mutex_unlock(&s->state_lock);
    return NULL;
}

static store *store_new(const struct store__ops *ops, void *be,
                        unsigned lock_ms)
{
    store *s = calloc(1, sizeof(*s));

    if (s == NULL) {
        ops->destroy(be);
        return NULL;
    }
    s->ops = ops;
    s->be = be;
    s->lock_ms = lock_ms;
    s->lim = store_limits_default;
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->state_lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    snprintf(s->why, sizeof(s->why), "not connected yet");
    return s;
}

static void start_thread(store *s)
{
    s->thread = pthread_create(&s->tid, NULL, watch, s) == 0;
}

/* SIGPIPE ignored unless the program handles it itself. */
static void ignore_sigpipe(void)
{
    struct sigaction old, ign;

    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
        sigaction(SIGPIPE, &ign, NULL);
}

puz_err store_start(const struct store_options *o, store **out, char *msg)
{
    const struct store__ops *ops = &store__sqlite_ops;
    unsigned lock_ms = 6000;    /* SQLite's busy timeout is 5 s */
    char why[PUZ_MSG_MAX] = "";
    void *be = NULL;
    store *s;

    *out = NULL;
    if (o->redis_url != NULL && o->redis_url[0] != '\0') {
        puz_err rc = store__redis_new(o->redis_url, o->redis_prefix,
                                      o->timeout_ms, &be, msg);
        if (rc != PUZ_OK)
            return rc;
        ops = &store__redis_ops;
        lock_ms = o->timeout_ms + 100;
        /* hiredis writes with write(): a Redis gone away must not kill
         * the process with SIGPIPE (serve.c ignores it too; a program
         * of its own, a test, might not). */
        ignore_sigpipe();
    } else {
        be = store__sqlite_new(o->dir);
    }
    if (be == NULL || (s = store_new(ops, be, lock_ms)) == NULL)
        return PUZ_ENOMEM;
    s->log = o->log;
    s->user = o->user;
    if (o->limits != NULL)
        store_set_limits(s, o->limits);
    if (ops->connect(be, why) == PUZ_OK) {
        s->up = true;
    } else {
        snprintf(s->why, sizeof(s->why), "%s", why);
        logf_(s, "puzzled: store (%s) unavailable at start: %s; the "
              "daily routes answer 503 until it is reachable", ops->name,
              why);
    }
    start_thread(s);
    *out = s;
    return PUZ_OK;
}

puz_err store_open(const char *dir, store **out, char *msg)
{
    void *be = store__sqlite_new(dir);
    store *s;

    *out = NULL;
    if (be == NULL || (s = store_new(&store__sqlite_ops, be, 6000)) == NULL)
        return PUZ_ENOMEM;
    if (store__sqlite_ops.connect(be, msg) != PUZ_OK) {
        store_close(s);
        return PUZ_EINVAL;
    }
    s->up = true;
    start_thread(s);
    *out = s;
    return PUZ_OK;
}

void store_close(store *s)
{
    if (s == NULL)
        return;
    if (s->thread) {
        pthread_mutex_lock(&s->state_lock);
        s->stop = true;
        pthread_cond_signal(&s->wake);
        pthread_mutex_unlock(&s->state_lock);
        pthread_join(s->tid, NULL);
    }
    s->ops->disconnect(s->be);
    s->ops->destroy(s->be);
    pthread_mutex_destroy(&s->lock);
    pthread_mutex_destroy(&s->state_lock);
    pthread_cond_destroy(&s->wake);
    free(s);
}

int store_schema_version(store *s)
{
    int v = -1;

    if (enter(s, NULL) != PUZ_OK)
        return -1;
    v = s->ops->schema_version(s->be);
    pthread_mutex_unlock(&s->lock);
    return v;
}

bool store_nickname_ok(const char *nick)
{
    size_t n = nick ? strlen(nick) : 0;

    if (n == 0 || n > STORE_NICK_MAX || nick[0] == ' ' || nick[n - 1] == ' ')
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)nick[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == ' ' || c == '_' || c == '-' ||
              c == '.'))
            return false;
    }
    return true;
}

void store_nickname_fold(const char *nick, char *out)
{
    size_t n = 0;

    for (const char *p = nick; *p != '\0' && n < STORE_NICK_MAX; p++) {
        char c = (char)tolower((unsigned char)*p), next = (char)tolower(
            (unsigned char)p[1]);

        if (c == ' ' || c == '_' || c == '-' || c == '.')
            continue;
        if ((c == 'r' && next == 'n') || (c == 'v' && next == 'v')) {
            out[n++] = c == 'r' ? 'm' : 'w';
            p++;
            continue;
        }
        out[n++] = c == 'i' || c == '1' ? 'l' : c == '0' ? 'o' : c;
    }
    out[n] = '\0';
}

puz_err store__lookalike(char *msg, const char *other)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "the nickname looks like %s's, already "
                 "on this board (I, l and 1, O and 0, rn and m, vv and w, "
                 "case and separators count as the same): choose another",
                 other);
    return PUZ_EFULL;
}

bool store_day_ok(const char *day)
{
    if (day == NULL || strlen(day) != 10 || day[4] != '-' || day[7] != '-')
        return false;
    for (int i = 0; i < 10; i++) {
        if (i != 4 && i != 7 && (day[i] < '0' || day[i] > '9'))
            return false;
    }
    return true;
}

static puz_err invalid(char *msg, const char *why)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "%s", why);
    return PUZ_EINVAL;
}

/* invalid() with up to two numbers (the bounds) in its words. */
static puz_err invalidf(char *msg, const char *fmt, int a, int b)
{
    char why[PUZ_MSG_MAX];

    snprintf(why, sizeof(why), fmt, a, b);
    return invalid(msg, why);
}

puz_err store__limited(char *msg, bool start, bool net)
{
    static const int max[2][2] = {
        { STORE_RATE_MAX, STORE_RATE_NET_MAX },
        { STORE_START_RATE_MAX, STORE_START_RATE_NET_MAX },
    };

    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "at most %d %s a minute from one %s; try "
                 "again in a minute", max[start][net], start ? "daily boards "
                 "started" : "entries", net ? "network (/24 or /64)"
                 : "address");
    return PUZ_ELIMITED;
}

puz_err store__full(char *msg, unsigned cap)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "this day's board is full (%u entries) "
                 "and this entry is not better than its last", cap);
    return PUZ_EFULL;
}

puz_err store__too_fast(char *msg, unsigned moves, unsigned ms,
                        unsigned floor_ms)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "%u moves in %u ms is faster than a "
                 "person plays (at least %u ms a move from the start "
                 "token): the run is not ranked; the token stays unspent",
                 moves, ms, floor_ms);
    return PUZ_EINVAL;
}

puz_err store__token_refused(char *msg, enum store__token_why why)
{
    static const char *const words[] = {
        [STORE__TOKEN_UNKNOWN] = "this start token is unknown to the "
            "server (never handed out, expired, or the oldest unused "
            "when the day's tokens reached their cap)",
        [STORE__TOKEN_SPENT] = "this start token has been spent on an "
            "entry already: each run starts with a token of its own",
        [STORE__TOKEN_EXPIRED] = "this start token has expired (an unused "
            "token lasts two hours, a finished run two hours from its "
            "finish)",
        [STORE__TOKEN_OTHER_BOARD] = "this start token is for another "
            "day or size",
        [STORE__TOKEN_FINISHED] = "this run is finished already (POST "
            "/v1/daily/{date}/{size}/finish): name it with the nickname "
            "and the token alone, its moves and time are kept",
        [STORE__TOKEN_UNFINISHED] = "this run is not finished: send its "
            "moves (POST /v1/daily/{date}/{size}/finish, or with the "
            "entry)",
        [STORE__TOKEN_FINISHED_OTHER] = "this run is finished already "
            "with other moves or help: a run is finished once",
    };

    if (msg == NULL)
        return PUZ_EFINISHED;
    if (why >= STORE__TOKEN_FINISHED)
        snprintf(msg, PUZ_MSG_MAX, "%s", words[why]);
    else
        snprintf(msg, PUZ_MSG_MAX, "%s; start the board again (POST "
                 "/v1/daily/{date}/{size}/start)", words[why]);
    return PUZ_EFINISHED;
}

bool store_token_ok(const char *token)
{
    if (token == NULL || strlen(token) != STORE_TOKEN_HEX)
        return false;
    for (int i = 0; i < STORE_TOKEN_HEX; i++)
        if (!((token[i] >= '0' && token[i] <= '9')
              || (token[i] >= 'a' && token[i] <= 'f')))
            return false;
    return true;
}

static bool client_ok(const char *client)
{
    return client != NULL && client[0] != '\0' && strlen(client) <= 64
           && strchr(client, ' ') == NULL;
}

static puz_err check_board(const char *day, unsigned size, char *msg)
{
    if (!store_day_ok(day))
        return invalid(msg, "the day must be YYYY-MM-DD");
    if (size < STORE_SIZE_MIN || size > STORE_SIZE_MAX)
        return invalidf(msg, "the size must be %d to %d", STORE_SIZE_MIN,
                        STORE_SIZE_MAX);
    return PUZ_OK;
}

/* The run's part of an entry or a finish: moves (0 only to name a
 * finished run, with a token), the token (none only untimed), the
 * client. */
static puz_err check_run(const struct store_submission *e, bool finish,
                         char *msg)
{
    puz_err rc = check_board(e->day, e->size, msg);

    if (rc != PUZ_OK)
        return rc;
    if (e->moves > STORE_MOVES_MAX || (e->moves == 0
        && (finish || e->untimed)))
        return invalidf(msg, "moves must be 1 to %d", STORE_MOVES_MAX, 0);
    if (e->untimed && (finish || e->token != NULL))
        return invalid(msg, "an untimed entry has no start token");
    if (!e->untimed && !store_token_ok(e->token))
        return invalidf(msg, "a start token is %d hex digits",
                        STORE_TOKEN_HEX, 0);
    if (!client_ok(e->client))
        return invalid(msg, "no client address");
    return PUZ_OK;
}

static puz_err check_entry(const struct store_submission *e, char *msg)
{
    if (!store_nickname_ok(e->nickname))
        return invalidf(msg, "a nickname is 1 to %d letters, digits, "
                        "spaces, '_', '-' or '.'", STORE_NICK_MAX, 0);
    return check_run(e, false, msg);
}

/* The network a client address belongs to for the rate limit: its /24
 * (IPv4, also IPv4-mapped IPv6) or its /64 (IPv6); anything else (no
 * address known) stands for itself. */
static void net_of(const char *client, char *out, size_t size)
{
    unsigned char a[16];

    if (inet_pton(AF_INET, client, a) == 1) {
        snprintf(out, size, "%u.%u.%u.0/24", a[0], a[1], a[2]);
    } else if (inet_pton(AF_INET6, client, a) == 1) {
        static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };

        if (memcmp(a, mapped, sizeof(mapped)) == 0)
            snprintf(out, size, "%u.%u.%u.0/24", a[12], a[13], a[14]);
        else
            snprintf(out, size, "%x:%x:%x:%x::/64", a[0] << 8 | a[1],
                     a[2] << 8 | a[3], a[4] << 8 | a[5], a[6] << 8 | a[7]);
    } else {
        snprintf(out, size, "%s", client);
    }
}

puz_err store_daily_add(store *s, const struct store_submission *e,
                        int64_t now_ms, struct store_placed *out,
                        char *msg)
{
    char net[80];
    struct store__add a = { e, net, now_ms, &s->lim, "" };
    puz_err rc = check_entry(e, msg);
    uint64_t t0;

    memset(out, 0, sizeof(*out));
    if (rc != PUZ_OK)
        return rc;
    net_of(e->client, net, sizeof(net));
    store_nickname_fold(e->nickname, a.fold);
    rc = enter(s, msg);
    if (rc != PUZ_OK)
        return rc;
    t0 = puz_clock_mono_us();
    return leave(s, s->ops->add(s->be, &a, out, msg), t0, msg);
}

puz_err store_daily_finish(store *s, const struct store_submission *e,
                           int64_t now_ms, struct store_run *out,
                           char *msg)
{
    char net[80];
    struct store__add a = { e, net, now_ms, &s->lim, "" };
    puz_err rc = check_run(e, true, msg);
    uint64_t t0;

    memset(out, 0, sizeof(*out));
    if (rc != PUZ_OK)
        return rc;
    net_of(e->client, net, sizeof(net));
    rc = enter(s, msg);
    if (rc != PUZ_OK)
        return rc;
    t0 = puz_clock_mono_us();
    return leave(s, s->ops->finish(s->be, &a, out, msg), t0, msg);
}

/* 128 bits from the kernel's generator, as hex. */
static puz_err new_token(char *token, char *msg)
{
    unsigned char r[STORE_TOKEN_HEX / 2];

    if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "no random bytes for a start "
                     "token: %s", strerror(errno));
        return PUZ_EIO;
    }
    for (size_t i = 0; i < sizeof(r); i++)
        snprintf(token + 2 * i, 3, "%02x", r[i]);
    return PUZ_OK;
}

puz_err store_daily_start(store *s, const char *day, unsigned size,
                          const char *client, int64_t now_ms, char *token,
                          char *msg)
{
    char net[80];
    struct store__start a = { day, size, client, net, token, now_ms,
                              &s->lim };
    puz_err rc = check_board(day, size, msg);
    uint64_t t0;

    token[0] = '\0';
    if (rc == PUZ_OK && !client_ok(client))
        rc = invalid(msg, "no client address");
    if (rc == PUZ_OK)
        rc = new_token(token, msg);
    if (rc != PUZ_OK)
        return rc;
    net_of(client, net, sizeof(net));
    rc = enter(s, msg);
    if (rc != PUZ_OK)
        return rc;
    t0 = puz_clock_mono_us();
    rc = leave(s, s->ops->start(s->be, &a, msg), t0, msg);
    if (rc != PUZ_OK)
        token[0] = '\0';
    return rc;
}

/* The opening of every call on a day: its date checked, the lock taken
 * (enter), the clock started for the latency histogram. */
static puz_err begin_day(store *s, const char *day, uint64_t *t0,
                         char *msg)
{
    puz_err rc;

    if (!store_day_ok(day))
        return invalid(msg, "the day must be YYYY-MM-DD");
    rc = enter(s, msg);
    *t0 = puz_clock_mono_us();
    return rc;
}

puz_err store_daily_top(store *s, const char *day, unsigned size,
                                  struct store_entry *out, unsigned max,
                                  unsigned *count, char *msg)
{
    uint64_t t0;
    puz_err rc = begin_day(s, day, &t0, msg);

    *count = 0;
    if (rc != PUZ_OK)
        return rc;
    return leave(s, s->ops->top(s->be, day, size, NULL, out, max, count,
                                msg), t0, msg);
}

puz_err store_daily_find(store *s, const char *day, unsigned size,
                         const char *nick, struct store_entry *out,
                         bool *found, char *msg)
{
    uint64_t t0;
    unsigned n = 0;
    puz_err rc;

    *found = false;
    if (!store_nickname_ok(nick))
        return invalid(msg, "the nickname is 1 to 24 letters, digits, "
                       "spaces, '_', '-' or '.'");
    rc = begin_day(s, day, &t0, msg);
    if (rc != PUZ_OK)
        return rc;
    rc = leave(s, s->ops->top(s->be, day, size, nick, out, 1, &n, msg), t0,
               msg);
    *found = rc == PUZ_OK && n == 1;
    return rc;
}

puz_err store_daily_count(store *s, const char *day,
                                    unsigned size, unsigned *count,
                                    char *msg)
{
    uint64_t t0;
    puz_err rc = begin_day(s, day, &t0, msg);

    *count = 0;
    if (rc != PUZ_OK)
        return rc;
    return leave(s, s->ops->count(s->be, day, size, count, msg), t0, msg);
}

puz_err store_daily_par_get(store *s, const char *day,
                                      unsigned size, unsigned *par,
                                      bool *optimal, bool *found, char *msg)
{
    uint64_t t0;
    puz_err rc = begin_day(s, day, &t0, msg);

    *found = false;
    if (rc != PUZ_OK)
        return rc;
    return leave(s, s->ops->par_get(s->be, day, size, par, optimal,
                                    found, msg), t0, msg);
}

puz_err store_daily_par_put(store *s, const char *day,
                                      unsigned size, unsigned *par,
                                      bool *optimal, char *msg)
{
    uint64_t t0;
    puz_err rc = begin_day(s, day, &t0, msg);

    if (rc != PUZ_OK)
        return rc;
    return leave(s, s->ops->par_put(s->be, day, size, par, optimal, msg),
                 t0, msg);
}

puz_err store_key_use_sync(store *s, const char *instance, int64_t now_ms,
                           struct store_key_use *use, size_t n, char *msg)
{
    uint64_t t0;
    puz_err rc;

    for (size_t i = 0; i < n; i++)
        use[i].requests_total = use[i].streams_elsewhere = 0;
    if (s->ops != &store__redis_ops || n == 0)
        return PUZ_OK;
    rc = enter(s, msg);
    if (rc != PUZ_OK)
        return rc;
    t0 = puz_clock_mono_us();
    return leave(s, store__redis_key_use(s->be, instance, now_ms, use, n,
                                         msg), t0, msg);
}
