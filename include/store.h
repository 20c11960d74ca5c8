/*
 * store.h - the server's state that outlives a request: the daily
 * puzzle's leaderboard, its pars and the entries' rate limits. One
 * interface, two backends:
 *  - embedded (the default): SQLite, one file in the state directory.
 *    Opening creates the file, applies any missing schema migrations and
 *    switches to WAL, so entries survive restarts;
 *  - shared (redis_url set): Redis through hiredis, so every instance
 *    naming the same URL sees one leaderboard, one par and one rate
 *    limit per client.
 *
 * One connection, one mutex: every call is serialised. A store that
 * cannot be reached (Redis down, a garbage or read-only or deleted
 * file) never stops the server: calls fail at once with PUZ_EIO and "the
 * store is unavailable: why", store_ready() says so, and a thread of the
 * store reconnects with backoff. Scores come in already verified (the
 * server replays the moves); the store checks only what it keeps: the
 * nickname, the bounds, and how often a client and its network submit.
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "puz_board.h"   /* PUZ_MSG_MAX */
#include "puz_err.h"

typedef struct store store;

#define STORE_FILE "puzzled.db"
/* The bounds of an entry: the one place each is written (the daily's
 * rules, daily.h, and the API's messages use these). */
#define STORE_NICK_MAX 24           /* bytes of a nickname */
#define STORE_MOVES_MAX 5000        /* moves of one entry */
#define STORE_TIME_MAX_MS 86400000u /* a day */
#define STORE_SIZE_MIN 3            /* the daily's board sizes */
#define STORE_SIZE_MAX 5
#define STORE_DAY_ENTRIES_MAX 10000 /* per day and size */
#define STORE_RATE_WINDOW_S 60      /* submissions per client address ... */
#define STORE_RATE_MAX 5            /* ... at most this many per window */
#define STORE_RATE_NET_MAX 30       /* ... and from one /24 or /64 */
#define STORE_TOKEN_HEX 32          /* a start token: 128 random bits */
/* An unused token lasts two hours: a 5x5 by hand takes minutes, so two
 * hours cover a long pause, and a flood's tokens are gone soon. */
#define STORE_TOKEN_TTL_MS 7200000
#define STORE_START_RATE_MAX 20     /* starts per address per window ... */
#define STORE_START_RATE_NET_MAX 60 /* ... and per /24 or /64 */
/* Unused tokens kept per day and size: at the cap the oldest unused
 * one is forgotten for the new one, so a flood costs the flooders'
 * own oldest tokens and never refuses a new player (issue 44). */
#define STORE_DAY_STARTS_MAX 100000
/* A run faster than a person plays is not ranked: at least this many
 * ms a move from the start token to the entry. The fastest players
 * sustain about ten moves a second; the web game slides a tile in
 * 140 ms; and the time includes the start's round trip. */
#define STORE_MOVE_FLOOR_MS 100
#define STORE_SCHEMA_VERSION 7

/* Calls return puz_err: PUZ_EINVAL (a field out of bounds, msg says
 * which; or a run faster than a person plays), PUZ_ELIMITED (this client or its network submitted too
 * often), PUZ_EFULL
 * (this day and size hold the maximum and the entry is not better than
 * the worst of them, or the nickname looks like another player's
 * there), PUZ_EFINISHED (the start token is
 * unknown, spent, expired or of another board), PUZ_EIO (the store is
 * unavailable or failed; msg has its words). */

struct store_submission {
    const char *day;        /* "YYYY-MM-DD" */
    unsigned size;          /* 3..5 */
    const char *nickname;   /* see store_nickname_ok */
    unsigned moves;         /* verified by replay; 0 with a token: the
                             * token's finished run (store_daily_finish)
                             * is the one named, its moves and help */
    bool help;              /* the player says hints or the solver helped */
    const char *token;      /* from store_daily_start: times the entry */
    const char *client;     /* client address, for the rate limit */
    bool untimed;           /* no token (no start reached the server):
                             * ranked after every timed entry */
};

struct store_entry {
    unsigned rank;          /* 1-based */
    char nickname[STORE_NICK_MAX + 1];
    unsigned moves;
    unsigned time_ms;       /* as the server measured it (0: untimed) */
    bool help;
    bool untimed;           /* entered without a start token */
    int64_t created_at;     /* unix seconds */
};

/* What store_daily_add did with an entry. */
struct store_placed {
    bool improved;          /* the entry stands now: its nickname's first
                             * on this board, or better than the earlier */
    unsigned time_ms;       /* this run's time, start token to its finish
                             * (or to the entry); 0 untimed */
    unsigned moves;         /* this run's moves and help (a named run's */
    bool help;              /* are those of its finish) */
    struct store_entry best;/* the nickname's entry that stands (this one
                             * when improved), with its rank */
};

/* A run finished and kept unnamed (store_daily_finish). */
struct store_run {
    unsigned time_ms;       /* start token to the finish */
    unsigned moves;
    bool help;
    bool again;             /* finished before with the same moves and
                             * help: this is that first finish */
};

/* Opens (creating if need be) dir/STORE_FILE, creating dir too. On
 * failure returns PUZ_EINVAL with words in msg (PUZ_MSG_MAX bytes). */
puz_err store_open(const char *dir, store **out, char *msg);

/* The caps of a day's board (store_limits_default: the STORE_ ones);
 * smaller ones make a test's flood short. */
struct store_limits {
    unsigned starts_max;        /* unused tokens kept per day and size */
    unsigned entries_max;       /* entries kept per day and size */
    unsigned move_floor_ms;     /* least ms a move of a ranked run */
};
extern const struct store_limits store_limits_default;
/* Sets s's limits (before its first call): a zero cap keeps the
 * default's; move_floor_ms is taken as it is (0: no floor). */
void store_set_limits(store *s, const struct store_limits *l);

struct store_options {
    const char *dir;            /* embedded: the state directory */
    const char *redis_url;      /* non-empty: the shared backend,
                                 * redis://[user:password@]host[:port][/db]
                                 * or unix:///path[?db=N] */
    const char *redis_prefix;   /* of every key ("puzzled:") */
    unsigned timeout_ms;        /* Redis connect and command timeout */
    /* Where the store says it went down or came back (may be NULL). */
    void (*log)(void *user, const char *line);
    void *user;
    const struct store_limits *limits;  /* NULL: the defaults */
};

/* The server's way in: the store of o, started even when it cannot be
 * reached yet (store_ready then says why, and it keeps trying). Fails
 * only on a redis_url it cannot parse (PUZ_EINVAL) or out of memory. */
puz_err store_start(const struct store_options *o, store **out, char *msg);
void store_close(store *s);

/* True when the store answers; else why (PUZ_MSG_MAX) says why not.
 * Never waits on the backend: the store's thread checks it. */
bool store_ready(store *s, char *why);

/* "embedded" or "shared". */
const char *store_backend(const store *s);

/* The shared backend only (NULL otherwise): a new connection of its
 * own to the same Redis (URL, credentials, database, timeouts), for a
 * module that keeps its own keys there (the jobs, jobq.h); the caller
 * redisFree()s it. NULL with why in msg when it cannot connect. */
struct redisContext;
struct redisContext *store_redis_connect(store *s, char *msg);
/* The embedded backend only (NULL otherwise): a new connection of its
 * own to the same SQLite file (created and migrated if need be, WAL),
 * for a module that keeps its own table there (the embedded jobs,
 * jobsvc_db.c); the caller sqlite3_close()s it. NULL with why in msg
 * when the file cannot be opened. */
struct sqlite3;
struct sqlite3 *store_sqlite_connect(store *s, char *msg);
/* The shared backend's key prefix ("puzzled:"); "" for the embedded. */
const char *store_redis_prefix(const store *s);

struct store_stats {
    uint64_t calls;             /* round trips to the backend */
    uint64_t errors;            /* of them failed (the store went down) */
    uint64_t reconnects;        /* times it came back */
    uint64_t latency_us_sum;    /* of the calls */
    uint64_t latency_le[6];     /* calls within 0.25, 1, 5, 25, 100 and
                                 * 1000 ms (cumulative, as Prometheus) */
};
#define STORE_LATENCY_BUCKETS 6
extern const double store_latency_bounds_s[STORE_LATENCY_BUCKETS];
void store_get_stats(store *s, struct store_stats *out);

/* The schema version in the file (after store_open: the current one);
 * -1 for the shared backend. */
int store_schema_version(store *s);

/* "YYYY-MM-DD" with digits where digits go (the calendar is the
 * daily's to check, daily_date_ok). */
bool store_day_ok(const char *day);

/* 1..STORE_NICK_MAX bytes of letters, digits, space, '_', '-' and '.',
 * not starting or ending with a space. */
bool store_nickname_ok(const char *nick);

/* A nickname's look-alike form (issue 44): lowercase, 'i' and '1' as
 * 'l', '0' as 'o', "rn" as 'm', "vv" as 'w', and spaces, '_', '-' and
 * '.' dropped, so "AIice", "Al1ce" and "al_ice" all fold to "allce".
 * One nickname per fold on a board: an entry whose nickname folds like
 * another player's there (not the same letters, case aside) is refused
 * (PUZ_EFULL: no room for that name; the words name the other). out has
 * STORE_NICK_MAX + 1 bytes. */
void store_nickname_fold(const char *nick, char *out);

/* True for STORE_TOKEN_HEX lowercase hex digits. */
bool store_token_ok(const char *token);

/* Hands out a start token for day and size at now_ms (unix ms) into
 * token (STORE_TOKEN_HEX + 1 bytes): 128 bits from getrandom, kept with
 * its start for STORE_TOKEN_TTL_MS. At most STORE_START_RATE_MAX a
 * window per address (and _NET_MAX per network): PUZ_ELIMITED. Never
 * refused for the day's count: at starts_max unused tokens of the day
 * and size the oldest unused is forgotten (its entry is then refused
 * as unknown). */
puz_err store_daily_start(store *s, const char *day, unsigned size,
                          const char *client, int64_t now_ms, char *token,
                          char *msg);

/* Adds a verified entry at now_ms (unix ms), spending its start token
 * in the same step: the time is now_ms - the token's start (at least 1
 * ms). With moves 0 it names the token's finished run instead: its
 * moves, help and time are the finish's (a token not finished, or a
 * finished one sent with moves: PUZ_EFINISHED). untimed (no token) is
 * a run no start reached: no time, no floor, ranked after every timed
 * entry. A run under move_floor_ms a move is not ranked (PUZ_EINVAL,
 * the token left unspent). One entry per nickname (letters' case aside) per day and size:
 * a later one replaces it only when better, else out->improved is false
 * and the earlier stands. Ranks (1 = best): timed entries
 * before untimed ones, unassisted before any with help, then fewest
 * moves, least time, earliest. A full board
 * keeps its best STORE_DAY_ENTRIES_MAX: a better entry takes the place
 * of the worst, others are PUZ_EFULL. Only PUZ_OK spends the token (a
 * refusal leaves it as it was, to be spent or to expire). PUZ_OK means the entry is written (in the file, or
 * applied by Redis) before the call returns. */
puz_err store_daily_add(store *s, const struct store_submission *e,
                        int64_t now_ms, struct store_placed *out,
                        char *msg);

/* The run of e->token is finished at now_ms (unix ms): its clock stops
 * here, whenever it is named. e has day, size, moves (verified by
 * replay, at least 1), help, token and client; no nickname. The time
 * is now_ms - the token's start, and the move floor applies as in
 * store_daily_add (PUZ_EINVAL, the token left as it was). The run is
 * kept unnamed, off the leaderboard, for STORE_TOKEN_TTL_MS from the
 * finish (no longer among the day's unused tokens that a flood of
 * starts may push out); store_daily_add with the token and moves 0
 * names it. A finish again with the same moves and help answers the
 * first one's record (out->again; a retry after a lost answer); with
 * others, or a token unknown, spent (named), expired or of another
 * board: PUZ_EFINISHED. */
puz_err store_daily_finish(store *s, const struct store_submission *e,
                           int64_t now_ms, struct store_run *out,
                           char *msg);

/* The best max entries of day and size, best first; *count of them. */
puz_err store_daily_top(store *s, const char *day, unsigned size,
                                  struct store_entry *out, unsigned max,
                                  unsigned *count, char *msg);

/* The entry of nick (letters' case aside, as one entry per nickname is
 * kept) on day and size into out, with its rank on the whole board as
 * it stands now; *found false (PUZ_OK) when the board has none of that
 * nickname. PUZ_EINVAL for a day or nickname that could be none. */
puz_err store_daily_find(store *s, const char *day, unsigned size,
                         const char *nick, struct store_entry *out,
                         bool *found, char *msg);

/* The day's par, as first worked out (a 5x5 par is the best route a
 * bounded search found, so computing it again could give another): the
 * first store_daily_par_put of day and size wins, later ones read it
 * back. *found is false when none is stored yet. */
puz_err store_daily_par_get(store *s, const char *day,
                                      unsigned size, unsigned *par,
                                      bool *optimal, bool *found, char *msg);
puz_err store_daily_par_put(store *s, const char *day,
                                      unsigned size, unsigned *par,
                                      bool *optimal, char *msg);

/* An API key's use, counted across instances (issue 42 item 3): what
 * this instance adds, and what the cluster answers. */
struct store_key_use {
    const char *key;            /* the key's name */
    unsigned requests;          /* in: requests here since the last sync,
                                 * in the minute of now_ms */
    unsigned streams;           /* in: event streams open here now */
    unsigned requests_total;    /* out: the minute's, every instance's */
    unsigned streams_elsewhere; /* out: open on other instances */
};
#define STORE_KEY_USE_TTL_MS 3000   /* an instance's streams count this
                                     * long after its last sync */

/* Adds this instance's (instance: its id) use of n keys and reads the
 * cluster's back, in one round trip. The shared backend only: with the
 * embedded one there is one instance, so out is this one's (requests
 * total = 0, streams elsewhere = 0) and nothing is asked. */
puz_err store_key_use_sync(store *s, const char *instance, int64_t now_ms,
                           struct store_key_use *use, size_t n, char *msg);

/* Entries of day and size in all. */
puz_err store_daily_count(store *s, const char *day,
                                    unsigned size, unsigned *count,
                                    char *msg);

#endif
