/*
 * store.c - the daily leaderboard in SQLite (store.h). Schema changes are
 * an append-only list of migrations; PRAGMA user_version records how many
 * have run, so opening an old file brings it up to date in one
 * transaction. WAL lets readers go on while the one writer writes.
 */
#include "store.h"

#include <errno.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "puz_board.h"

struct store {
    sqlite3 *db;
    pthread_mutex_t lock;
};

/* Migration i takes the schema from version i to i + 1. Never edit one
 * that has shipped: add the next. */
static const char *const migrations[] = {
    "CREATE TABLE daily_entries ("
    "  id INTEGER PRIMARY KEY,"
    "  day TEXT NOT NULL,"
    "  size INTEGER NOT NULL,"
    "  nickname TEXT NOT NULL,"
    "  moves INTEGER NOT NULL,"
    "  time_ms INTEGER NOT NULL,"
    "  client TEXT NOT NULL,"
    "  created_at INTEGER NOT NULL);"
    "CREATE INDEX daily_rank ON daily_entries (day, size, moves, time_ms, id);"
    "CREATE INDEX daily_client ON daily_entries (client, created_at);",
    /* 2: the day's par, so a score never changes under a player. */
    "CREATE TABLE daily_par ("
    "  day TEXT NOT NULL,"
    "  size INTEGER NOT NULL,"
    "  par INTEGER NOT NULL,"
    "  optimal INTEGER NOT NULL,"
    "  PRIMARY KEY (day, size));",
};
#define MIGRATIONS (int)(sizeof(migrations) / sizeof(migrations[0]))

static void say(char *msg, const char *what, sqlite3 *db)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "%s: %s", what,
                 db ? sqlite3_errmsg(db) : "out of memory");
}

int store_schema_version(store *s)
{
    sqlite3_stmt *st;
    int v = -1;

    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL))
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

static int migrate(store *s, char *msg)
{
    int v = store_schema_version(s);
    char sql[64];

    if (v < 0 || v > MIGRATIONS) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "the store's schema version %d is "
                     "newer than this server knows (%d)", v, MIGRATIONS);
        return -1;
    }
    for (; v < MIGRATIONS; v++) {
        snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
        if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) ||
            sqlite3_exec(s->db, migrations[v], NULL, NULL, NULL) ||
            sqlite3_exec(s->db, sql, NULL, NULL, NULL) ||
            sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL)) {
            say(msg, "cannot migrate the store", s->db);
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    return 0;
}

static int make_dir(const char *dir, char *msg)
{
    if (mkdir(dir, 0750) == 0 || errno == EEXIST)
        return 0;
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "cannot create the state directory "
                 "%s: %s", dir, strerror(errno));
    return -1;
}

puz_err store_open(const char *dir, store **out, char *msg)
{
    char path[4096];
    store *s;

    *out = NULL;
    if (make_dir(dir, msg) != 0)
        return PUZ_EINVAL;
    snprintf(path, sizeof(path), "%s/%s", dir, STORE_FILE);
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return PUZ_ENOMEM;
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE |
                        SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL)) {
        say(msg, "cannot open the store", s->db);
        goto out_close;
    }
    sqlite3_busy_timeout(s->db, 5000);
    if (sqlite3_exec(s->db, "PRAGMA journal_mode = WAL; "
                     "PRAGMA synchronous = NORMAL; "
                     "PRAGMA foreign_keys = ON", NULL, NULL, NULL)) {
        say(msg, "cannot set up the store", s->db);
        goto out_close;
    }
    if (migrate(s, msg) != 0)
        goto out_close;
    pthread_mutex_init(&s->lock, NULL);
    *out = s;
    return PUZ_OK;
out_close:
    sqlite3_close(s->db);
    free(s);
    return PUZ_EINVAL;
}

void store_close(store *s)
{
    if (s == NULL)
        return;
    sqlite3_close(s->db);
    pthread_mutex_destroy(&s->lock);
    free(s);
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

static puz_err check(const struct store_submission *e, char *msg)
{
    if (!store_day_ok(e->day))
        return invalid(msg, "the day must be YYYY-MM-DD");
    if (e->size < STORE_SIZE_MIN || e->size > STORE_SIZE_MAX)
        return invalidf(msg, "the size must be %d to %d", STORE_SIZE_MIN,
                        STORE_SIZE_MAX);
    if (!store_nickname_ok(e->nickname))
        return invalidf(msg, "a nickname is 1 to %d letters, digits, "
                        "spaces, '_', '-' or '.'", STORE_NICK_MAX, 0);
    if (e->moves == 0 || e->moves > STORE_MOVES_MAX)
        return invalidf(msg, "moves must be 1 to %d", STORE_MOVES_MAX, 0);
    if (e->time_ms > STORE_TIME_MAX_MS)
        return invalid(msg, "the time must be at most a day");
    if (e->client == NULL || strlen(e->client) > 64)
        return invalid(msg, "no client address");
    return PUZ_OK;
}

/* One integer from a query with text and integer parameters bound in
 * order: "t" text, "i" integer. */
static int query_int(store *s, const char *sql, const char *types,
                     const char **texts, const int64_t *ints, int64_t *out)
{
    sqlite3_stmt *st;
    int rc, ti = 0, ii = 0;

    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL))
        return -1;
    for (int i = 0; types[i]; i++) {
        if (types[i] == 't')
            sqlite3_bind_text(st, i + 1, texts[ti++], -1, SQLITE_STATIC);
        else
            sqlite3_bind_int64(st, i + 1, ints[ii++]);
    }
    rc = sqlite3_step(st);
    *out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

static puz_err add_locked(store *s, const struct store_submission *e,
                                    int64_t now, unsigned *rank, char *msg)
{
    const char *t[2] = { e->client, e->day };
    int64_t n[3] = { now - STORE_RATE_WINDOW_S, e->size, 0 }, got;
    sqlite3_stmt *st;

    if (query_int(s, "SELECT count(*) FROM daily_entries WHERE client = ?1 "
                  "AND created_at > ?2", "ti", t, n, &got))
        goto out_failed;
    if (got >= STORE_RATE_MAX) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "at most %d entries a minute from "
                     "one address; try again in a minute", STORE_RATE_MAX);
        return PUZ_ELIMITED;
    }
    t[0] = e->day;
    n[0] = e->size;
    if (query_int(s, "SELECT count(*) FROM daily_entries WHERE day = ?1 "
                  "AND size = ?2", "ti", t, n, &got))
        goto out_failed;
    if (got >= STORE_DAY_ENTRIES_MAX) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "this day's board is full");
        return PUZ_EFULL;
    }
    if (sqlite3_prepare_v2(s->db, "INSERT INTO daily_entries (day, size, "
                           "nickname, moves, time_ms, client, created_at) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st,
                           NULL))
        goto out_failed;
    sqlite3_bind_text(st, 1, e->day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)e->size);
    sqlite3_bind_text(st, 3, e->nickname, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, e->moves);
    sqlite3_bind_int64(st, 5, e->time_ms);
    sqlite3_bind_text(st, 6, e->client, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, now);
    if (sqlite3_step(st) != SQLITE_DONE) {
        sqlite3_finalize(st);
        goto out_failed;
    }
    sqlite3_finalize(st);
    /* Place: entries strictly better, plus one. */
    if (query_int(s, "SELECT count(*) FROM daily_entries WHERE day = ?1 AND "
                  "size = ?2 AND (moves < ?3 OR (moves = ?3 AND time_ms < ?4)"
                  " OR (moves = ?3 AND time_ms = ?4 AND id < "
                  "last_insert_rowid()))", "tiii", t,
                  (int64_t[]){ e->size, e->moves, e->time_ms }, &got))
        goto out_failed;
    *rank = (unsigned)got + 1;
    return PUZ_OK;
out_failed:
    say(msg, "the store failed", s->db);
    return PUZ_EIO;
}

puz_err store_daily_add(store *s, const struct store_submission *e,
                                  int64_t now, unsigned *rank, char *msg)
{
    puz_err rc = check(e, msg);

    *rank = 0;
    if (rc != PUZ_OK)
        return rc;
    pthread_mutex_lock(&s->lock);
    rc = add_locked(s, e, now, rank, msg);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

puz_err store_daily_top(store *s, const char *day, unsigned size,
                                  struct store_entry *out, unsigned max,
                                  unsigned *count, char *msg)
{
    sqlite3_stmt *st;
    puz_err rc = PUZ_OK;
    int step;

    *count = 0;
    if (!store_day_ok(day))
        return invalid(msg, "the day must be YYYY-MM-DD");
    pthread_mutex_lock(&s->lock);
    if (sqlite3_prepare_v2(s->db, "SELECT nickname, moves, time_ms, "
                           "created_at FROM daily_entries WHERE day = ?1 AND "
                           "size = ?2 ORDER BY moves, time_ms, id LIMIT ?3",
                           -1, &st, NULL)) {
        say(msg, "the store failed", s->db);
        pthread_mutex_unlock(&s->lock);
        return PUZ_EIO;
    }
    sqlite3_bind_text(st, 1, day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)size);
    sqlite3_bind_int(st, 3, (int)max);
    while ((step = sqlite3_step(st)) == SQLITE_ROW && *count < max) {
        struct store_entry *e = &out[(*count)++];
        const unsigned char *nick = sqlite3_column_text(st, 0);
        e->rank = *count;
        snprintf(e->nickname, sizeof(e->nickname), "%s",
                 nick ? (const char *)nick : "");
        e->moves = (unsigned)sqlite3_column_int64(st, 1);
        e->time_ms = (unsigned)sqlite3_column_int64(st, 2);
        e->created_at = sqlite3_column_int64(st, 3);
    }
    if (step != SQLITE_DONE && step != SQLITE_ROW) {
        say(msg, "the store failed", s->db);
        rc = PUZ_EIO;
    }
    sqlite3_finalize(st);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

puz_err store_daily_count(store *s, const char *day,
                                    unsigned size, unsigned *count,
                                    char *msg)
{
    const char *t[1] = { day };
    int64_t n[1] = { size }, got = 0;
    int rc;

    *count = 0;
    if (!store_day_ok(day))
        return invalid(msg, "the day must be YYYY-MM-DD");
    pthread_mutex_lock(&s->lock);
    rc = query_int(s, "SELECT count(*) FROM daily_entries WHERE day = ?1 "
                   "AND size = ?2", "ti", t, n, &got);
    if (rc != 0)
        say(msg, "the store failed", s->db);
    pthread_mutex_unlock(&s->lock);
    *count = (unsigned)got;
    return rc == 0 ? PUZ_OK : PUZ_EIO;
}

/* Reads the stored par with the lock held: 1 found, 0 none, -1 error. */
static int par_read(store *s, const char *day, unsigned size,
                    unsigned *par, bool *optimal)
{
    sqlite3_stmt *st;
    int step;

    if (sqlite3_prepare_v2(s->db, "SELECT par, optimal FROM daily_par "
                           "WHERE day = ?1 AND size = ?2", -1, &st, NULL))
        return -1;
    sqlite3_bind_text(st, 1, day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)size);
    step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        *par = (unsigned)sqlite3_column_int64(st, 0);
        *optimal = sqlite3_column_int(st, 1) != 0;
    }
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
}

puz_err store_daily_par_get(store *s, const char *day,
                                      unsigned size, unsigned *par,
                                      bool *optimal, bool *found, char *msg)
{
    int rc;

    *found = false;
    if (!store_day_ok(day))
        return invalid(msg, "the day must be YYYY-MM-DD");
    pthread_mutex_lock(&s->lock);
    rc = par_read(s, day, size, par, optimal);
    if (rc < 0)
        say(msg, "the store failed", s->db);
    pthread_mutex_unlock(&s->lock);
    *found = rc == 1;
    return rc < 0 ? PUZ_EIO : PUZ_OK;
}

puz_err store_daily_par_put(store *s, const char *day,
                                      unsigned size, unsigned *par,
                                      bool *optimal, char *msg)
{
    sqlite3_stmt *st;
    int rc = -1;

    if (!store_day_ok(day))
        return invalid(msg, "the day must be YYYY-MM-DD");
    pthread_mutex_lock(&s->lock);
    if (sqlite3_prepare_v2(s->db, "INSERT OR IGNORE INTO daily_par (day, "
                           "size, par, optimal) VALUES (?1, ?2, ?3, ?4)", -1,
                           &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, day, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 2, (int)size);
        sqlite3_bind_int64(st, 3, *par);
        sqlite3_bind_int(st, 4, *optimal ? 1 : 0);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
        sqlite3_finalize(st);
    }
    /* Another request may have stored it first: theirs stands. */
    if (rc == 0)
        rc = par_read(s, day, size, par, optimal) == 1 ? 0 : -1;
    if (rc < 0)
        say(msg, "the store failed", s->db);
    pthread_mutex_unlock(&s->lock);
    return rc < 0 ? PUZ_EIO : PUZ_OK;
}
