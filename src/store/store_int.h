/*
 * store_int.h - what store.c (the interface: checks, the client's network
 * prefix, the lock, the up/down state and the thread that reconnects)
 * asks of a backend: store_sqlite.c (embedded) and store_redis.c (shared).
 *
 * A backend is one connection, used by one thread at a time (store.c's
 * lock). Its calls return PUZ_EIO when the connection or the file can no
 * longer be trusted: store.c then closes it, answers "unavailable" at
 * once until the reconnect thread has opened it again, and never touches
 * a backend that is down.
 */
#ifndef STORE_INT_H
#define STORE_INT_H

#include "puz_board.h"
#include "store.h"

/* One entry as the backend receives it: checked, with its limits' keys. */
struct store__add {
    const struct store_submission *e;
    const char *net;        /* the client's /24 or /64 ("10.1.2.0/24") */
    int64_t now_ms;
    const struct store_limits *lim;
    char fold[STORE_NICK_MAX + 1];  /* store_nickname_fold's */
};

/* A start token to keep: checked, made, with its limits' keys. */
struct store__start {
    const char *day;
    unsigned size;
    const char *client, *net;
    const char *token;
    int64_t now_ms;
    const struct store_limits *lim;
};

/* Why a start token is refused (store__token_refused words it). */
enum store__token_why {
    STORE__TOKEN_UNKNOWN,
    STORE__TOKEN_SPENT,
    STORE__TOKEN_EXPIRED,
    STORE__TOKEN_OTHER_BOARD,
    STORE__TOKEN_FINISHED,      /* finished: named by the token alone */
    STORE__TOKEN_UNFINISHED,    /* named before any finish */
    STORE__TOKEN_FINISHED_OTHER,/* finished again with other moves */
};

/* The token's part of an entry: the run's time, at least 1 ms. */
static inline unsigned store__run_ms(int64_t now_ms, int64_t started_ms)
{
    int64_t ms = now_ms - started_ms;

    return ms < 1 ? 1u : ms > STORE_TIME_MAX_MS ? STORE_TIME_MAX_MS
           : (unsigned)ms;
}

struct store__ops {
    const char *name;       /* "embedded" or "shared" */
    /* Open or reconnect (nothing held yet): PUZ_OK or PUZ_EIO + msg. */
    puz_err (*connect)(void *be, char *msg);
    void (*disconnect)(void *be);
    /* Still the store it was (the file still there, Redis answering). */
    puz_err (*check)(void *be, char *msg);
    puz_err (*start)(void *be, const struct store__start *a, char *msg);
    puz_err (*add)(void *be, const struct store__add *a,
                   struct store_placed *out, char *msg);
    /* store_daily_finish (a->fold unused). */
    puz_err (*finish)(void *be, const struct store__add *a,
                      struct store_run *out, char *msg);
    /* The board's best max entries; or, nick non-NULL, that nickname's
     * entry alone (letters' case aside: *count 0 or 1, max >= 1) with
     * its rank on the whole board (store_daily_find). */
    puz_err (*top)(void *be, const char *day, unsigned size,
                   const char *nick, struct store_entry *out, unsigned max,
                   unsigned *count, char *msg);
    puz_err (*count)(void *be, const char *day, unsigned size,
                     unsigned *count, char *msg);
    /* 1 found, 0 none (PUZ_OK), or PUZ_EIO. */
    puz_err (*par_get)(void *be, const char *day, unsigned size,
                       unsigned *par, bool *optimal, bool *found, char *msg);
    puz_err (*par_put)(void *be, const char *day, unsigned size,
                       unsigned *par, bool *optimal, char *msg);
    int (*schema_version)(void *be);
    void (*destroy)(void *be);
};

/* A backend's table from its functions, named <prefix>_connect,
 * _disconnect, _check, _start, _add, _finish, _top, _count, _par_get, _par_put,
 * _schema_version and _destroy: a function's name says which call it
 * serves, and a backend that lacks one does not build. */
#define STORE__OPS(prefix, label) {                                       \
    .name = (label), .connect = prefix##_connect,                         \
    .disconnect = prefix##_disconnect, .check = prefix##_check,           \
    .start = prefix##_start, .add = prefix##_add,                         \
    .finish = prefix##_finish, .top = prefix##_top,                       \
    .count = prefix##_count, .par_get = prefix##_par_get,                 \
    .par_put = prefix##_par_put,                                          \
    .schema_version = prefix##_schema_version,                            \
    .destroy = prefix##_destroy }

extern const struct store__ops store__sqlite_ops;
extern const struct store__ops store__redis_ops;

/* The embedded backend of dir (nothing opened yet). */
void *store__sqlite_new(const char *dir);
/* The shared backend of a redis_url (parsed: PUZ_EINVAL + msg when it
 * is no URL we know), nothing connected yet. */
puz_err store__redis_new(const char *url, const char *prefix,
                         unsigned timeout_ms, void **out, char *msg);

/* A new connection of the shared backend be, or NULL + msg; its key
 * prefix. */
struct redisContext *store__redis_connect_new(void *be, char *msg);
const char *store__redis_prefix(const void *be);

/* A new connection of the embedded backend be (its file migrated, in
 * WAL), or NULL + msg. */
struct sqlite3;
struct sqlite3 *store__sqlite_connect_new(void *be, char *msg);

/* store_key_use_sync on the shared backend (connected, lock held). */
puz_err store__redis_key_use(void *be, const char *instance, int64_t now_ms,
                             struct store_key_use *use, size_t n, char *msg);

/* The refusals both backends word the same way. */
/* Too many entries (start false) or starts (true) from an address or
 * its network (net). */
puz_err store__limited(char *msg, bool start, bool net);
/* A full board of cap entries. */
puz_err store__full(char *msg, unsigned cap);
/* A run of moves in ms, under floor_ms a move: not ranked. */
puz_err store__too_fast(char *msg, unsigned moves, unsigned ms,
                        unsigned floor_ms);
puz_err store__token_refused(char *msg, enum store__token_why why);
/* A nickname that folds like other's, another player's on the board. */
puz_err store__lookalike(char *msg, const char *other);

#endif
