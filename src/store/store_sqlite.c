/*
 * store_sqlite.c - the embedded backend (store_int.h): the daily
 * leaderboard in SQLite. Schema changes are an append-only list of
 * migrations; PRAGMA user_version records how many have run, so opening
 * an old file brings it up to date in one transaction. WAL lets readers
 * go on while the one writer writes.
 *
 * Opening also writes (a probe row), so a file SQLite can only read (a
 * read-only directory, its -wal and -shm left by a crash) is found at
 * start, not at the first entry; and every entry checks, after its
 * commit, that the file is still the one opened, so an entry written
 * into a deleted file is never acknowledged.
 *
 * A run may be finished before it is named (issue 45): its token then
 * keeps the finish (spent 2) until an entry names it (spent 1).
 */
#include "store_int.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct sqlite_be {
    char dir[2048];
    char path[4096];
    sqlite3 *db;
    dev_t dev;
    ino_t ino;
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
    /* 3: the client's network for the per-prefix limit; a row opening
     * writes to find a read-only file at start. */
    "ALTER TABLE daily_entries ADD COLUMN net TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX daily_net ON daily_entries (net, created_at);"
    "CREATE TABLE store_probe (id INTEGER PRIMARY KEY, at INTEGER);",
    /* 4: start tokens (the server times a run); the help an entry had,
     * ranked after every unassisted entry; one entry per nickname (case
     * aside) per day and size: of the earlier duplicates the best
     * stays. */
    "CREATE TABLE daily_tokens ("
    "  token TEXT PRIMARY KEY,"
    "  day TEXT NOT NULL,"
    "  size INTEGER NOT NULL,"
    "  started_ms INTEGER NOT NULL,"
    "  expires_ms INTEGER NOT NULL,"
    "  spent INTEGER NOT NULL DEFAULT 0,"
    "  client TEXT NOT NULL,"
    "  net TEXT NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX daily_tokens_day ON daily_tokens (day, size);"
    "CREATE INDEX daily_tokens_client ON daily_tokens (client, started_ms);"
    "CREATE INDEX daily_tokens_net ON daily_tokens (net, started_ms);"
    "CREATE INDEX daily_tokens_expiry ON daily_tokens (expires_ms);"
    "ALTER TABLE daily_entries ADD COLUMN help INTEGER NOT NULL DEFAULT 0;"
    "DELETE FROM daily_entries AS a WHERE EXISTS (SELECT 1 FROM "
    "  daily_entries AS b WHERE b.day = a.day AND b.size = a.size AND "
    "  lower(b.nickname) = lower(a.nickname) AND (b.moves < a.moves OR "
    "  (b.moves = a.moves AND (b.time_ms < a.time_ms OR (b.time_ms = "
    "  a.time_ms AND b.id < a.id)))));"
    "CREATE UNIQUE INDEX daily_nick ON daily_entries "
    "  (day, size, nickname COLLATE NOCASE);"
    "DROP INDEX IF EXISTS daily_rank;"
    "CREATE INDEX daily_rank ON daily_entries "
    "  (day, size, help, moves, time_ms, id);",
    /* 5: a day's unused tokens by age, the oldest forgotten first when
     * they reach their cap; each entry's nickname folded for look-alikes
     * (store_nickname_fold, as puz_fold; issue 44). */
    "CREATE INDEX daily_tokens_unused ON daily_tokens "
    "  (day, size, spent, started_ms);"
    "ALTER TABLE daily_entries ADD COLUMN fold TEXT NOT NULL DEFAULT '';"
    "UPDATE daily_entries SET fold = puz_fold(nickname);"
    "CREATE INDEX daily_fold ON daily_entries (day, size, fold);",
    /* 6: a run finished before it is named (issue 45): the token keeps
     * its finish, moves and help (spent 2: finished, not yet named);
     * untimed entries (no start reached the server) rank after every
     * timed one. */
    "ALTER TABLE daily_tokens ADD COLUMN finished_ms INTEGER NOT NULL "
    "  DEFAULT 0;"
    "ALTER TABLE daily_tokens ADD COLUMN moves INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE daily_tokens ADD COLUMN help INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE daily_entries ADD COLUMN untimed INTEGER NOT NULL "
    "  DEFAULT 0;"
    "DROP INDEX IF EXISTS daily_rank;"
    "CREATE INDEX daily_rank ON daily_entries "
    "  (day, size, untimed, help, moves, time_ms, id);",
    /* 7: the embedded backend's jobs (issue 42), written by their own
     * connection (store_sqlite_connect, jobsvc_db.c): a row per job
     * accepted, in the order accepted (seq), until it is forgotten. */
    "CREATE TABLE jobs ("
    "  seq INTEGER PRIMARY KEY,"
    "  id TEXT NOT NULL UNIQUE,"
    "  owner TEXT NOT NULL,"
    "  trace TEXT NOT NULL,"
    "  idem_key TEXT NOT NULL,"
    "  idem_body TEXT NOT NULL,"
    "  idem_until_ms INTEGER NOT NULL,"
    "  state TEXT NOT NULL,"
    "  attempts INTEGER NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  started_ms INTEGER NOT NULL,"
    "  finished_ms INTEGER NOT NULL,"
    "  request BLOB NOT NULL,"
    "  elapsed_us INTEGER NOT NULL,"
    "  progress TEXT NOT NULL,"
    "  result BLOB,"
    "  reason TEXT NOT NULL);",
};
#define MIGRATIONS (int)(sizeof(migrations) / sizeof(migrations[0]))

static void say(char *msg, const char *what, sqlite3 *db)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "%s: %s", what,
                 db ? sqlite3_errmsg(db) : "out of memory");
}

static int schema_version(sqlite3 *db)
{
    sqlite3_stmt *st;
    int v = -1;

    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL))
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

static int sqlite_schema_version(void *be)
{
    return schema_version(((struct sqlite_be *)be)->db);
}

/* One migration at a time, each in a transaction that reads the version
 * again: two connections (the store's and the jobs', or two processes)
 * opening one file at once never run a migration twice. */
static int migrate(sqlite3 *db, char *msg)
{
    char sql[64];

    for (;;) {
        int v;

        if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)) {
            say(msg, "cannot read the store", db);
            return -1;
        }
        v = schema_version(db);
        if (v < 0 || v > MIGRATIONS) {
            if (v < 0)
                say(msg, "cannot read the store", db);
            else if (msg != NULL)
                snprintf(msg, PUZ_MSG_MAX, "the store's schema version %d "
                         "is newer than this server knows (%d)", v,
                         MIGRATIONS);
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
        if (v == MIGRATIONS)
            return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) ? -1 : 0;
        snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v + 1);
        if (sqlite3_exec(db, migrations[v], NULL, NULL, NULL) ||
            sqlite3_exec(db, sql, NULL, NULL, NULL) ||
            sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)) {
            say(msg, "cannot migrate the store", db);
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
}

/* puz_fold(nickname) in SQL: store_nickname_fold, for the migration
 * that folds the nicknames already kept. */
static void sql_fold(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const unsigned char *nick = sqlite3_value_text(argv[0]);
    char out[STORE_NICK_MAX + 1];

    (void)argc;
    store_nickname_fold(nick ? (const char *)nick : "", out);
    sqlite3_result_text(ctx, out, -1, SQLITE_TRANSIENT);
}

static int make_dir(const char *dir, char *msg)
{
    if (mkdir(dir, 0750) == 0 || errno == EEXIST)
        return 0;
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "cannot create the state directory "
                 "%.150s: %s", dir, strerror(errno));
    return -1;
}

void *store__sqlite_new(const char *dir)
{
    struct sqlite_be *b = calloc(1, sizeof(*b));

    if (b == NULL)
        return NULL;
    snprintf(b->dir, sizeof(b->dir), "%s", dir);
    snprintf(b->path, sizeof(b->path), "%s/%s", b->dir, STORE_FILE);
    return b;
}

/* The file is the one opened: there, same inode. */
static puz_err sqlite_check(void *be, char *msg)
{
    struct sqlite_be *b = be;
    struct stat st;

    if (stat(b->path, &st) == 0 && st.st_dev == b->dev
        && st.st_ino == b->ino)
        return PUZ_OK;
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "%.180s was %s while running", b->path,
                 errno == ENOENT ? "removed" : "replaced");
    return PUZ_EIO;
}

static void sqlite_disconnect(void *be)
{
    struct sqlite_be *b = be;

    sqlite3_close(b->db);
    b->db = NULL;
}

/* path opened (created if need be) and brought up to date: WAL, the
 * schema migrated; NULL with msg on failure. */
static sqlite3 *open_db(const char *path, char *msg)
{
    sqlite3 *db = NULL;

    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE |
                        SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL)) {
        say(msg, "cannot open the store", db);
        goto out_close;
    }
    sqlite3_busy_timeout(db, 5000);
    if (sqlite3_create_function(db, "puz_fold", 1, SQLITE_UTF8
                                | SQLITE_DETERMINISTIC, NULL, sql_fold, NULL,
                                NULL)) {
        say(msg, "cannot set up the store", db);
        goto out_close;
    }
    if (sqlite3_exec(db, "PRAGMA journal_mode = WAL; "
                     "PRAGMA synchronous = NORMAL; "
                     "PRAGMA foreign_keys = ON", NULL, NULL, NULL)) {
        say(msg, "cannot set up the store", db);
        goto out_close;
    }
    if (migrate(db, msg) != 0)
        goto out_close;
    return db;
out_close:
    sqlite3_close(db);
    return NULL;
}

static puz_err sqlite_connect(void *be, char *msg)
{
    struct sqlite_be *b = be;
    struct stat st;

    if (make_dir(b->dir, msg) != 0)
        return PUZ_EIO;
    b->db = open_db(b->path, msg);
    if (b->db == NULL)
        return PUZ_EIO;
    if (sqlite3_exec(b->db, "INSERT OR REPLACE INTO store_probe (id, at) "
                     "VALUES (1, strftime('%s','now'))", NULL, NULL, NULL)) {
        say(msg, "cannot write to the store", b->db);
        goto out_close;
    }
    if (stat(b->path, &st) != 0) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "%.180s: %s", b->path, strerror(errno));
        goto out_close;
    }
    b->dev = st.st_dev;
    b->ino = st.st_ino;
    return PUZ_OK;
out_close:
    sqlite_disconnect(b);
    return PUZ_EIO;
}

sqlite3 *store__sqlite_connect_new(void *be, char *msg)
{
    struct sqlite_be *b = be;

    if (make_dir(b->dir, msg) != 0)
        return NULL;
    return open_db(b->path, msg);
}

static void sqlite_destroy(void *be)
{
    free(be);
}

/* One integer from a query with text and integer parameters bound in
 * order: "t" text, "i" integer. */
static int query_int(struct sqlite_be *b, const char *sql,
                     const char *types, const char **texts,
                     const int64_t *ints, int64_t *out)
{
    sqlite3_stmt *st;
    int rc, ti = 0, ii = 0;

    if (sqlite3_prepare_v2(b->db, sql, -1, &st, NULL))
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

/* The rate limits of table (its column `at` a time, `client` and `net`
 * the client's address and network): rows since `since` from the
 * address and from the network, at most STORE_(START_)RATE(_NET)_MAX.
 * 0 within them, 1 limited (*rc and msg set), -1 failed. */
static int limited(struct sqlite_be *b, bool start, const char *client,
                   const char *net, int64_t since, puz_err *rc, char *msg)
{
    static const char *const sql[2][2] = {
        { "SELECT count(*) FROM daily_entries WHERE client = ?1 AND "
          "created_at > ?2", "SELECT count(*) FROM daily_entries WHERE net "
          "= ?1 AND created_at > ?2" },
        { "SELECT count(*) FROM daily_tokens WHERE client = ?1 AND "
          "started_ms > ?2", "SELECT count(*) FROM daily_tokens WHERE net = "
          "?1 AND started_ms > ?2" },
    };
    static const int64_t max[2][2] = {
        { STORE_RATE_MAX, STORE_RATE_NET_MAX },
        { STORE_START_RATE_MAX, STORE_START_RATE_NET_MAX },
    };
    const char *who[2] = { client, net };

    for (int i = 0; i < 2; i++) {
        int64_t got;

        if (query_int(b, sql[start][i], "ti", &who[i], &since, &got))
            return -1;
        if (got >= max[start][i]) {
            *rc = store__limited(msg, start, i == 1);
            return 1;
        }
    }
    return 0;
}

/* Runs sql with integer id bound: 0 done, -1 failed. */
static int exec_id(struct sqlite_be *b, const char *sql, int64_t id)
{
    sqlite3_stmt *st;
    int rc;

    if (sqlite3_prepare_v2(b->db, sql, -1, &st, NULL))
        return -1;
    sqlite3_bind_int64(st, 1, id);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

/* One entry's row: what ranks it and what the board shows. */
struct row {
    int64_t id, moves, time_ms, created_at;
    int help;
    char nickname[STORE_NICK_MAX + 1];
    int untimed;
};

/* x ranks before y: timed first, then no help, then fewer moves, then
 * less time. */
static bool better(const struct row *x, const struct row *y)
{
    if (x->untimed != y->untimed)
        return x->untimed < y->untimed;
    if (x->help != y->help)
        return x->help < y->help;
    if (x->moves != y->moves)
        return x->moves < y->moves;
    return x->time_ms < y->time_ms;
}

#define ROW_COLUMNS "id, help, moves, time_ms, created_at, nickname, " \
                    "untimed"

/* The first row of sql (ROW_COLUMNS; day, size and nick bound, nick
 * may be NULL): 1 found, 0 none, -1 failed. */
static int entry_row(struct sqlite_be *b, const char *sql, const char *day,
                     unsigned size, const char *nick, struct row *r)
{
    sqlite3_stmt *st;
    int step;

    if (sqlite3_prepare_v2(b->db, sql, -1, &st, NULL))
        return -1;
    sqlite3_bind_text(st, 1, day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)size);
    if (nick != NULL)
        sqlite3_bind_text(st, 3, nick, -1, SQLITE_STATIC);
    step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        const unsigned char *n = sqlite3_column_text(st, 5);

        r->id = sqlite3_column_int64(st, 0);
        r->help = sqlite3_column_int(st, 1) != 0;
        r->moves = sqlite3_column_int64(st, 2);
        r->time_ms = sqlite3_column_int64(st, 3);
        r->created_at = sqlite3_column_int64(st, 4);
        snprintf(r->nickname, sizeof(r->nickname), "%s",
                 n ? (const char *)n : "");
        r->untimed = sqlite3_column_int(st, 6) != 0;
    }
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
}

/* A full board keeps its best: the worst goes if the entry beats it
 * (ties go to the earlier). 0 room made, 1 full (msg set), -1 failed. */
static int make_room(struct sqlite_be *b, const struct store__add *a,
                     const struct row *mine, char *msg)
{
    const char *t[1] = { a->e->day };
    int64_t n[1] = { a->e->size }, got;
    struct row worst;
    int r;

    if (query_int(b, "SELECT count(*) FROM daily_entries WHERE day = ?1 "
                  "AND size = ?2", "ti", t, n, &got))
        return -1;
    if (got < a->lim->entries_max)
        return 0;
    r = entry_row(b, "SELECT " ROW_COLUMNS " FROM daily_entries WHERE day "
                  "= ?1 AND size = ?2 ORDER BY untimed DESC, help DESC, "
                  "moves DESC, time_ms DESC, id DESC LIMIT 1", a->e->day,
                  a->e->size, NULL, &worst);
    if (r < 0)
        return -1;
    if (r == 0 || !better(mine, &worst)) {
        store__full(msg, a->lim->entries_max);
        return 1;
    }
    return exec_id(b, "DELETE FROM daily_entries WHERE id = ?1", worst.id);
}

static int insert(struct sqlite_be *b, const struct store__add *a,
                  const struct row *r)
{
    const struct store_submission *e = a->e;
    sqlite3_stmt *st;
    int rc;

    if (sqlite3_prepare_v2(b->db, "INSERT INTO daily_entries (day, size, "
                           "nickname, moves, time_ms, client, created_at, "
                           "net, help, fold, untimed) VALUES (?1, ?2, ?3, "
                           "?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", -1, &st,
                           NULL))
        return -1;
    sqlite3_bind_text(st, 1, e->day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)e->size);
    sqlite3_bind_text(st, 3, e->nickname, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, r->moves);
    sqlite3_bind_int64(st, 5, r->time_ms);
    sqlite3_bind_text(st, 6, e->client, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, r->created_at);
    sqlite3_bind_text(st, 8, a->net, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 9, r->help);
    sqlite3_bind_text(st, 10, a->fold, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 11, r->untimed);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

/* A start token's row. spent: 0 open, 1 spent on an entry, 2 its run
 * finished (finished_ms, moves, help) and not yet named. */
struct tok {
    char day[11];
    int64_t size, started, expires, finished, moves;
    int spent, help;
};

/* The start token's row: 1 found, 0 none, -1 failed. */
static int token_row(struct sqlite_be *b, const char *token, struct tok *t)
{
    sqlite3_stmt *st;
    int step;

    if (sqlite3_prepare_v2(b->db, "SELECT day, size, started_ms, "
                           "expires_ms, spent, finished_ms, moves, help "
                           "FROM daily_tokens WHERE token = ?1", -1, &st,
                           NULL))
        return -1;
    sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
    step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
        const unsigned char *d = sqlite3_column_text(st, 0);

        snprintf(t->day, sizeof(t->day), "%s", d ? (const char *)d : "");
        t->size = sqlite3_column_int64(st, 1);
        t->started = sqlite3_column_int64(st, 2);
        t->expires = sqlite3_column_int64(st, 3);
        t->spent = sqlite3_column_int(st, 4);
        t->finished = sqlite3_column_int64(st, 5);
        t->moves = sqlite3_column_int64(st, 6);
        t->help = sqlite3_column_int(st, 7) != 0;
    }
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
}

/* The token of a's run, usable for it: 0 (in *t), 1 refused (*rc and
 * msg set), -1 failed. Spent (on an entry), other-board and expired
 * tokens are refused here; what a finished one may do is the caller's
 * to say. */
static int token_usable(struct sqlite_be *b, const struct store__add *a,
                        struct tok *t, puz_err *rc, char *msg)
{
    int r = token_row(b, a->e->token, t);

    if (r < 0)
        return -1;
    if (r == 0)
        *rc = store__token_refused(msg, STORE__TOKEN_UNKNOWN);
    else if (t->spent == 1)
        *rc = store__token_refused(msg, STORE__TOKEN_SPENT);
    else if (strcmp(t->day, a->e->day) != 0 || t->size != a->e->size)
        *rc = store__token_refused(msg, STORE__TOKEN_OTHER_BOARD);
    else if (a->now_ms >= t->expires)
        *rc = store__token_refused(msg, STORE__TOKEN_EXPIRED);
    else
        return 0;
    return 1;
}

/* Under the move floor: refused, nothing written (1, *rc and msg). */
static int too_fast(const struct store__add *a, unsigned moves,
                    unsigned ms, puz_err *rc, char *msg)
{
    if (ms >= (uint64_t)moves * a->lim->move_floor_ms)
        return 0;
    *rc = store__too_fast(msg, moves, ms, a->lim->move_floor_ms);
    return 1;
}

/* The entry's run into mine (moves, help, time, untimed) and its token
 * spent: an untimed run has none; moves 0 names the token's finished
 * run; else the run ends now. 0 done, 1 refused (*rc and msg set), -1
 * failed. */
static int run_take(struct sqlite_be *b, const struct store__add *a,
                    struct row *mine, puz_err *rc, char *msg)
{
    const struct store_submission *e = a->e;
    const char *t[1] = { e->token };
    struct tok k;
    int64_t got;
    int r;

    mine->moves = e->moves;
    mine->help = e->help ? 1 : 0;
    mine->untimed = e->untimed ? 1 : 0;
    mine->time_ms = 0;
    if (e->untimed)
        return 0;
    r = token_usable(b, a, &k, rc, msg);
    if (r == 0 && k.spent == 2 && e->moves != 0)
        *rc = store__token_refused(msg, STORE__TOKEN_FINISHED), r = 1;
    else if (r == 0 && k.spent != 2 && e->moves == 0)
        *rc = store__token_refused(msg, STORE__TOKEN_UNFINISHED), r = 1;
    if (r != 0)
        return r;
    if (k.spent == 2) {
        mine->moves = k.moves;
        mine->help = k.help;
        mine->time_ms = store__run_ms(k.finished, k.started);
    } else {
        mine->time_ms = store__run_ms(a->now_ms, k.started);
        /* rolled back: the token stays unspent */
        if (too_fast(a, e->moves, (unsigned)mine->time_ms, rc, msg))
            return 1;
    }
    return query_int(b, "UPDATE daily_tokens SET spent = 1 WHERE token = "
                     "?1 RETURNING spent", "t", t, NULL, &got) ? -1 : 0;
}

/* Place of r on its board: entries that rank before it, plus one. */
static int rank_of(struct sqlite_be *b, const struct store_submission *e,
                   const struct row *r, struct store_entry *out)
{
    const char *t[1] = { e->day };
    int64_t n[6] = { e->size, r->untimed, r->help, r->moves, r->time_ms,
                     r->id }, got;

    if (query_int(b, "SELECT count(*) FROM daily_entries WHERE day = ?1 "
                  "AND size = ?2 AND (untimed < ?3 OR (untimed = ?3 AND "
                  "(help < ?4 OR (help = ?4 AND (moves < ?5 OR (moves = ?5 "
                  "AND (time_ms < ?6 OR (time_ms = ?6 AND id < ?7))))))))",
                  "tiiiiii", t, n, &got))
        return -1;
    out->rank = (unsigned)got + 1;
    snprintf(out->nickname, sizeof(out->nickname), "%s", r->nickname);
    out->moves = (unsigned)r->moves;
    out->time_ms = (unsigned)r->time_ms;
    out->help = r->help != 0;
    out->untimed = r->untimed != 0;
    out->created_at = r->created_at;
    return 0;
}

/* Another player's nickname on the board that folds like the entry's:
 * 0 none, 1 one (*rc and msg name it), -1 failed. */
static int lookalike(struct sqlite_be *b, const struct store__add *a,
                     puz_err *rc, char *msg)
{
    sqlite3_stmt *st;
    int step;

    if (sqlite3_prepare_v2(b->db, "SELECT nickname FROM daily_entries "
                           "WHERE day = ?1 AND size = ?2 AND fold = ?3 AND "
                           "nickname != ?4 COLLATE NOCASE LIMIT 1", -1, &st,
                           NULL))
        return -1;
    sqlite3_bind_text(st, 1, a->e->day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)a->e->size);
    sqlite3_bind_text(st, 3, a->fold, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, a->e->nickname, -1, SQLITE_STATIC);
    step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *rc = store__lookalike(msg, (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return step == SQLITE_ROW ? 1 : step == SQLITE_DONE ? 0 : -1;
}

/* The entry (its run in run) against its nickname's earlier one: kept
 * (not better), replacing it, or new (room made on a full board). 0
 * placed (out set), 1 refused (*rc, msg), -1 failed. */
static int place(struct sqlite_be *b, const struct store__add *a,
                 const struct row *run, struct store_placed *out,
                 puz_err *rc, char *msg)
{
    const struct store_submission *e = a->e;
    struct row mine = *run, old;
    int r = entry_row(b, "SELECT " ROW_COLUMNS " FROM daily_entries WHERE "
                      "day = ?1 AND size = ?2 AND nickname = ?3 COLLATE "
                      "NOCASE", e->day, e->size, e->nickname, &old);

    mine.created_at = a->now_ms / 1000;
    if (r < 0)
        return -1;
    if (r == 1 && !better(&mine, &old))
        return rank_of(b, e, &old, &out->best);
    if (r == 1)
        r = exec_id(b, "DELETE FROM daily_entries WHERE id = ?1", old.id);
    else if ((r = make_room(b, a, &mine, msg)) == 1)
        *rc = PUZ_EFULL;
    if (r != 0 || insert(b, a, &mine) != 0)
        return r != 0 ? r : -1;
    mine.id = sqlite3_last_insert_rowid(b->db);
    snprintf(mine.nickname, sizeof(mine.nickname), "%s", e->nickname);
    out->improved = true;
    return rank_of(b, e, &mine, &out->best);
}

/* Ends a write's transaction: committed when r is 0 (and then the file
 * must still be the one opened, so that the answer is worth something),
 * else rolled back: r < 0 (or a failed COMMIT) is PUZ_EIO, r > 0 the
 * refusal rc. */
static puz_err end_write(struct sqlite_be *b, int r, puz_err rc, char *msg)
{
    if (r == 0 && sqlite3_exec(b->db, "COMMIT", NULL, NULL, NULL))
        r = -1;
    if (r == 0)
        return sqlite_check(b, msg);
    if (r < 0)
        say(msg, "the store failed", b->db);
    sqlite3_exec(b->db, "ROLLBACK", NULL, NULL, NULL);
    return r < 0 ? PUZ_EIO : rc;
}

/* In one transaction: limits, the token spent, the entry placed. */
static puz_err sqlite_add(void *be, const struct store__add *a,
                          struct store_placed *out, char *msg)
{
    struct sqlite_be *b = be;
    struct row mine = { 0 };
    puz_err rc = PUZ_OK;
    int r = sqlite3_exec(b->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) ? -1
            : 0;

    if (r == 0)
        r = limited(b, false, a->e->client, a->net, a->now_ms / 1000
                    - STORE_RATE_WINDOW_S, &rc, msg);
    if (r == 0)
        r = run_take(b, a, &mine, &rc, msg);
    if (r == 0) {
        out->time_ms = (unsigned)mine.time_ms;
        out->moves = (unsigned)mine.moves;
        out->help = mine.help != 0;
        r = lookalike(b, a, &rc, msg);
    }
    if (r == 0)
        r = place(b, a, &mine, out, &rc, msg);
    return end_write(b, r, rc, msg);
}

/* The finished run's record on its token (spent 2), its clock stopped
 * now; the token then lasts STORE_TOKEN_TTL_MS from the finish. */
static int token_finish(struct sqlite_be *b, const struct store__add *a)
{
    sqlite3_stmt *st;
    int rc;

    if (sqlite3_prepare_v2(b->db, "UPDATE daily_tokens SET spent = 2, "
                           "finished_ms = ?1, moves = ?2, help = ?3, "
                           "expires_ms = ?4 WHERE token = ?5", -1, &st,
                           NULL))
        return -1;
    sqlite3_bind_int64(st, 1, a->now_ms);
    sqlite3_bind_int64(st, 2, a->e->moves);
    sqlite3_bind_int(st, 3, a->e->help ? 1 : 0);
    sqlite3_bind_int64(st, 4, a->now_ms + STORE_TOKEN_TTL_MS);
    sqlite3_bind_text(st, 5, a->e->token, -1, SQLITE_STATIC);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

/* In one transaction: the token checked, the run's finish kept on it
 * (or, finished before alike, that first finish answered again). */
static puz_err sqlite_finish(void *be, const struct store__add *a,
                             struct store_run *out, char *msg)
{
    struct sqlite_be *b = be;
    struct tok k;
    puz_err rc = PUZ_OK;
    int r = sqlite3_exec(b->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) ? -1
            : 0;

    if (r == 0)
        r = token_usable(b, a, &k, &rc, msg);
    if (r == 0 && k.spent == 2) {
        if (k.moves != a->e->moves || k.help != (a->e->help ? 1 : 0)) {
            rc = store__token_refused(msg, STORE__TOKEN_FINISHED_OTHER);
            r = 1;
        }
        out->again = true;
        out->time_ms = store__run_ms(k.finished, k.started);
    } else if (r == 0) {
        out->time_ms = store__run_ms(a->now_ms, k.started);
        r = too_fast(a, a->e->moves, out->time_ms, &rc, msg);
        if (r == 0)
            r = token_finish(b, a);
    }
    out->moves = a->e->moves;
    out->help = a->e->help;
    return end_write(b, r, rc, msg);
}

/* The start limits: tokens in the last window from the address and its
 * network. Then room for the token: at the cap of unused tokens of the
 * day and size the oldest unused ones are forgotten (a flood costs its
 * own oldest tokens; no player is refused). 0 within, 1 refused, -1
 * failed. */
static int start_limited(struct sqlite_be *b, const struct store__start *a,
                         puz_err *rc, char *msg)
{
    const char *t[1] = { a->day };
    int64_t n[1] = { a->size }, got;
    sqlite3_stmt *st;
    int r = limited(b, true, a->client, a->net, a->now_ms
                    - STORE_RATE_WINDOW_S * 1000, rc, msg);

    if (r != 0)
        return r;
    if (query_int(b, "SELECT count(*) FROM daily_tokens WHERE day = ?1 "
                  "AND size = ?2 AND spent = 0", "ti", t, n, &got))
        return -1;
    if (got < a->lim->starts_max)
        return 0;
    if (sqlite3_prepare_v2(b->db, "DELETE FROM daily_tokens WHERE token IN "
                           "(SELECT token FROM daily_tokens WHERE day = ?1 "
                           "AND size = ?2 AND spent = 0 ORDER BY started_ms "
                           "LIMIT ?3)", -1, &st, NULL))
        return -1;
    sqlite3_bind_text(st, 1, a->day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, (int)a->size);
    sqlite3_bind_int64(st, 3, got - a->lim->starts_max + 1);
    r = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return r;
}

static int token_insert(struct sqlite_be *b, const struct store__start *a)
{
    sqlite3_stmt *st;
    int rc;

    if (sqlite3_prepare_v2(b->db, "INSERT INTO daily_tokens (token, day, "
                           "size, started_ms, expires_ms, client, net) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)", -1, &st,
                           NULL))
        return -1;
    sqlite3_bind_text(st, 1, a->token, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, a->day, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, (int)a->size);
    sqlite3_bind_int64(st, 4, a->now_ms);
    sqlite3_bind_int64(st, 5, a->now_ms + STORE_TOKEN_TTL_MS);
    sqlite3_bind_text(st, 6, a->client, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, a->net, -1, SQLITE_STATIC);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

/* In one transaction: expired tokens forgotten, limits, the token. */
static puz_err sqlite_start(void *be, const struct store__start *a,
                            char *msg)
{
    struct sqlite_be *b = be;
    puz_err rc = PUZ_OK;
    int r = sqlite3_exec(b->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) ? -1
            : 0;

    if (r == 0)
        r = exec_id(b, "DELETE FROM daily_tokens WHERE expires_ms <= ?1",
                    a->now_ms);
    if (r == 0)
        r = start_limited(b, a, &rc, msg);
    if (r == 0 && token_insert(b, a) != 0)
        r = -1;
    return end_write(b, r, rc, msg);
}

/* The entry of nick and its rank (rank_of, in the daily_rank index):
 * *count 1, or 0 when the board has none of that nickname. */
static puz_err find_nick(struct sqlite_be *b, const char *day,
                         unsigned size, const char *nick,
                         struct store_entry *out, unsigned *count,
                         char *msg)
{
    struct store_submission e = { .day = day, .size = size };
    struct row r;
    int got = entry_row(b, "SELECT " ROW_COLUMNS " FROM daily_entries "
                        "WHERE day = ?1 AND size = ?2 AND nickname = ?3 "
                        "COLLATE NOCASE", day, size, nick, &r);

    if (got == 1)
        got = rank_of(b, &e, &r, out) == 0 ? 1 : -1;
    if (got < 0) {
        say(msg, "the store failed", b->db);
        return PUZ_EIO;
    }
    *count = (unsigned)got;
    return PUZ_OK;
}

static puz_err sqlite_top(void *be, const char *day, unsigned size,
                          const char *find, struct store_entry *out,
                          unsigned max, unsigned *count, char *msg)
{
    struct sqlite_be *b = be;
    sqlite3_stmt *st;
    int step;

    if (find != NULL)
        return find_nick(b, day, size, find, out, count, msg);
    if (sqlite3_prepare_v2(b->db, "SELECT nickname, moves, time_ms, "
                           "created_at, help, untimed FROM daily_entries "
                           "WHERE day = ?1 AND size = ?2 ORDER BY untimed, "
                           "help, moves, time_ms, id LIMIT ?3",
                           -1, &st, NULL)) {
        say(msg, "the store failed", b->db);
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
        e->help = sqlite3_column_int(st, 4) != 0;
        e->untimed = sqlite3_column_int(st, 5) != 0;
    }
    sqlite3_finalize(st);
    if (step != SQLITE_DONE && step != SQLITE_ROW) {
        say(msg, "the store failed", b->db);
        return PUZ_EIO;
    }
    return PUZ_OK;
}

static puz_err sqlite_count(void *be, const char *day, unsigned size,
                            unsigned *count, char *msg)
{
    struct sqlite_be *b = be;
    const char *t[1] = { day };
    int64_t n[1] = { size }, got = 0;

    if (query_int(b, "SELECT count(*) FROM daily_entries WHERE day = ?1 "
                  "AND size = ?2", "ti", t, n, &got)) {
        say(msg, "the store failed", b->db);
        return PUZ_EIO;
    }
    *count = (unsigned)got;
    return PUZ_OK;
}

/* Reads the stored par: 1 found, 0 none, -1 error. */
static int par_read(struct sqlite_be *b, const char *day, unsigned size,
                    unsigned *par, bool *optimal)
{
    sqlite3_stmt *st;
    int step;

    if (sqlite3_prepare_v2(b->db, "SELECT par, optimal FROM daily_par "
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

static puz_err sqlite_par_get(void *be, const char *day, unsigned size,
                              unsigned *par, bool *optimal, bool *found,
                              char *msg)
{
    struct sqlite_be *b = be;
    int rc = par_read(b, day, size, par, optimal);

    if (rc < 0) {
        say(msg, "the store failed", b->db);
        return PUZ_EIO;
    }
    *found = rc == 1;
    return PUZ_OK;
}

static puz_err sqlite_par_put(void *be, const char *day, unsigned size,
                              unsigned *par, bool *optimal, char *msg)
{
    struct sqlite_be *b = be;
    sqlite3_stmt *st;
    int rc = -1;

    if (sqlite3_prepare_v2(b->db, "INSERT OR IGNORE INTO daily_par (day, "
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
        rc = par_read(b, day, size, par, optimal) == 1 ? 0 : -1;
    if (rc < 0) {
        say(msg, "the store failed", b->db);
        return PUZ_EIO;
    }
    return PUZ_OK;
}

const struct store__ops store__sqlite_ops = STORE__OPS(sqlite, "embedded");
