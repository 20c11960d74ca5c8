/*
 * api_daily.c - the daily puzzle: GET /v1/daily/{date}/{size} (the day's
 * board, its par and the top of its leaderboard; with ?nickname= that
 * player's entry, where it stands now: rank, percentile), POST
 * /v1/daily/{date}/{size}/start (a start token: the server's clock
 * starts), POST /v1/daily/{date}/{size}/finish (the run's moves, token
 * and help the moment it is solved: the clock stops, the run is kept
 * unnamed) and POST /v1/daily/{date}/{size}/entries (a nickname for a
 * finished run and its token; or, in one step, a nickname, moves, token
 * and help, timed to the entry; or an untimed run when no start reached
 * the server, ranked after every timed entry).
 *
 * The server never takes a player's word for a score: it rebuilds the
 * day's board from the date, replays the moves on it (daily_verify) and
 * counts them itself, and times the run itself, from the token's start
 * to the finish (or the entry's arrival); a time_ms in a request is
 * refused, so no page thinks it sets one. Typing a nickname after the
 * finish costs no time (issue 45). What it cannot prove is who played:
 * a program can take a token and send a solver's moves at once, and
 * "help" is the page's word; an untimed entry proves only its moves.
 * The par is the 3x3 table's exact distance, or on bigger boards the
 * best route a bounded search finds on a worker; the store keeps the
 * first one worked out, so a score never changes under a player while
 * the day lasts.
 */
#include "api_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "puz_clock.h"
#include "daily.h"
#include "daily_entry.h"
#include "store.h"

#define DAILY_TOP_DEFAULT 10
#define DAILY_TOP_MAX 100
/* A bigger board's par: what this much search finds. */
#define DAILY_PAR_NODES 2000000u
#define DAILY_PAR_MS 3000u

struct daily_state {
    char day[11];
    unsigned size;
    struct puz_board board;
    bool entry;             /* POST: an entry to add once par is known */
    bool finish;            /* POST .../finish: a run to stop the clock of */
    bool start;             /* POST .../start: a token to hand out */
    bool untimed;           /* an entry with no start token */
    unsigned top;           /* GET: entries to show */
    const char *find;       /* GET ?nickname=: whose standing to show */
    char nickname[STORE_NICK_MAX + 1];
    char token[STORE_TOKEN_HEX + 1];
    unsigned moves;         /* 0 in an entry: name the token's finished run */
    bool help;
    unsigned par;
    bool par_optimal, par_known;
    bool par_checked;       /* par_known ran (else the worker runs it) */
    uint64_t deadline_us;
};

/* The wall clock (puz_clock_wall_ms) throughout: a token's start and an
 * entry's arrival may be read by two instances, so it is the clock they
 * share (NTP), not each one's monotonic clock; and the day is UTC's. */

/* "today" or a date no later than today (UTC); else the 404 answered. */
static bool day_param(struct api_call *c, struct daily_state *s)
{
    const char *day = api_path_param(c, "date");
    char today[11];

    daily_today(puz_clock_wall_ms() / 1000, today);
    if (day != NULL && strcmp(day, "today") == 0)
        day = today;
    if (day == NULL || !daily_date_ok(day)) {
        api_answer_problemf(c, API_PROBLEM_NOT_FOUND, "no daily puzzle "
                            "for '%s': the date is YYYY-MM-DD (UTC) or "
                            "today", day != NULL ? day : "");
        return false;
    }
    if (strcmp(day, today) > 0) {
        api_answer_problemf(c, API_PROBLEM_NOT_FOUND, "the puzzle of %s "
                            "is not out yet: today (UTC) is %s", day,
                            today);
        return false;
    }
    memcpy(s->day, day, sizeof(s->day));
    return true;
}

/* The path's date and size, and the day's board; false when answered. */
static bool daily_begin(struct api_call *c, struct daily_state **out)
{
    struct daily_state *s = puz_arena_calloc(c->arena, 1, sizeof(*s));
    const char *size = api_path_param(c, "size");

    *out = s;
    if (s == NULL) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "out of memory");
        return false;
    }
    if (!day_param(c, s))
        return false;
    if (size == NULL || strlen(size) != 1 || size[0] < '0' + DAILY_MIN_SIZE
        || size[0] > '0' + DAILY_MAX_SIZE) {
        api_answer_problemf(c, API_PROBLEM_NOT_FOUND, "no daily puzzle of "
                            "size '%s': there is one of each size %d to %d",
                            size != NULL ? size : "", DAILY_MIN_SIZE,
                            DAILY_MAX_SIZE);
        return false;
    }
    s->size = (unsigned)(size[0] - '0');
    if (daily_board(s->day, s->size, c->ctx->table3, &s->board) != PUZ_OK) {
        api_answer_problemf(c, API_PROBLEM_INTERNAL, "cannot make the "
                            "board of %s", s->day);
        return false;
    }
    return true;
}

/* ?limit=N: how many entries GET shows; false when answered. */
static bool limit_param(struct api_call *c, struct daily_state *s,
                        const char *value)
{
    char *end = NULL;
    unsigned long n = value != NULL ? strtoul(value, &end, 10) : 0;

    if (value == NULL || end == value || *end != '\0' || n < 1
        || n > DAILY_TOP_MAX || value[0] == '+' || value[0] == '-') {
        api_answer_problemf(c, API_PROBLEM_INVALID_QUERY, "limit: a whole "
                            "number from 1 to %d", DAILY_TOP_MAX);
        return false;
    }
    s->top = (unsigned)n;
    return true;
}

/* ?nickname=NAME: that player's standing too; false when answered. */
static bool nickname_param(struct api_call *c, struct daily_state *s,
                           const char *value)
{
    if (!store_nickname_ok(value)) {
        api_answer_problemf(c, API_PROBLEM_INVALID_QUERY, "nickname: 1 to "
                            "%d letters, digits, spaces, '_', '-' or '.', "
                            "no space first or last", STORE_NICK_MAX);
        return false;
    }
    s->find = value;
    return true;
}

static bool unknown_param(struct api_call *c, const char *key)
{
    api_answer_problemf(c, API_PROBLEM_INVALID_QUERY, "%s: the parameters "
                        "are limit (a whole number from 1 to %d) and "
                        "nickname", key, DAILY_TOP_MAX);
    return false;
}

/* GET's query: limit and nickname, nothing else. */
static bool top_param(struct api_call *c, struct daily_state *s)
{
    s->top = DAILY_TOP_DEFAULT;
    for (size_t i = 0; i < c->rq.nquery; i++) {
        const struct api_param *q = &c->rq.query[i];
        bool ok;

        if (strcmp(q->key, "limit") == 0)
            ok = limit_param(c, s, q->value);
        else if (strcmp(q->key, "nickname") == 0)
            ok = nickname_param(c, s, q->value);
        else
            ok = unknown_param(c, q->key);
        if (!ok)
            return false;
    }
    return true;
}

/* The par when it needs no search: stored already, or the 3x3 table. */
static void par_known(struct api_call *c, struct daily_state *s)
{
    struct puz_board goal;
    char msg[PUZ_MSG_MAX];
    bool found = false;

    if (c->ctx->store != NULL
        && store_daily_par_get(c->ctx->store, s->day, s->size, &s->par,
                               &s->par_optimal, &found, msg) == PUZ_OK
        && found) {
        s->par_known = true;
        return;
    }
    puz_board_goal(s->size, &goal);
    if (puz_tables_distance3(c->ctx->tables, &s->board, &goal, &s->par)
        == PUZ_OK) {
        s->par_optimal = true;
        s->par_known = true;
    }
}

/* One entry of the board as the API shows it. */
static json_t *entry_json(const struct store_entry *e)
{
    return json_pack("{s:I, s:s, s:I, s:I, s:b, s:b, s:I}", "rank",
                     (json_int_t)e->rank, "nickname", e->nickname, "moves",
                     (json_int_t)e->moves, "time_ms", (json_int_t)e->time_ms,
                     "help", e->help, "untimed", e->untimed, "created_at",
                     (json_int_t)e->created_at);
}

/* par / moves, at most 1. */
static double score_of(const struct daily_state *s, unsigned moves)
{
    return s->par >= moves ? 1.0 : (double)s->par / moves;
}

/* Where an entry of rank stands among total: "percentile", the share
 * of the board's entries ranked at or below it (itself included),
 * rounded down, and "top_percent", the share ranked at or above it
 * (itself included), rounded up: neither flatters. #3 of 41: 95 and 8;
 * #1 of 1: 100 and 100. */
static json_t *standing_json(const struct store_entry *e, unsigned total)
{
    json_t *j = entry_json(e);
    uint64_t t = total < e->rank ? e->rank : total;

    json_object_set_new(j, "total_entries", json_integer((json_int_t)t));
    json_object_set_new(j, "percentile", json_integer((json_int_t)(
        100 * (t - e->rank + 1) / t)));
    json_object_set_new(j, "top_percent", json_integer((json_int_t)(
        (100 * (uint64_t)e->rank + t - 1) / t)));
    return j;
}

/* The day's board as the store has it: its best s->top entries, the
 * standing of s->find (json null when it has no entry, or no nickname
 * was asked) and the count, read in that order (a rank is never more
 * than the count read after it). False when the store failed. */
static bool board_read(struct api_call *c, const struct daily_state *s,
                       json_t *list, json_t **standing, unsigned *total)
{
    struct store_entry *e = puz_arena_alloc(c->arena, sizeof(*e) * s->top);
    struct store_entry me;
    unsigned n = 0;
    bool found = false;
    char msg[PUZ_MSG_MAX];

    if (e == NULL
        || store_daily_top(c->ctx->store, s->day, s->size, e, s->top, &n,
                           msg) != PUZ_OK
        || (s->find != NULL
            && store_daily_find(c->ctx->store, s->day, s->size, s->find,
                                &me, &found, msg) != PUZ_OK)
        || store_daily_count(c->ctx->store, s->day, s->size, total, msg)
           != PUZ_OK)
        return false;
    for (unsigned i = 0; i < n; i++)
        json_array_append_new(list, entry_json(&e[i]));
    *standing = found ? standing_json(&me, *total) : json_null();
    return true;
}

static void answer_day(struct api_call *c, const struct daily_state *s)
{
    unsigned total = 0;
    json_t *top = json_array(), *standing = json_null();

    if (c->ctx->store != NULL && top != NULL
        && !board_read(c, s, top, &standing, &total)) {
        json_decref(top);
        top = NULL;
    }
    if (top == NULL) {
        api_answer_problemf(c, API_PROBLEM_UNAVAILABLE, "the leaderboard "
                            "cannot be read: the store is unavailable");
        return;
    }
    api_answer_json(c, 200, json_pack("{s:s, s:I, s:o, s:I, s:b, s:b, "
        "s:I, s:o, s:o}", "date", s->day, "size", (json_int_t)s->size,
        "board", codec_board_rows(&s->board), "par", (json_int_t)s->par,
        "par_optimal", s->par_optimal, "leaderboard",
        c->ctx->store != NULL, "total_entries", (json_int_t)total,
        "entries", top, "standing", standing));
}

/* The store's refusal as a problem (Retry-After on the rate limit). */
static void answer_refusal(struct api_call *c, puz_err rc,
                           const char *msg)
{
    struct api_problem p;
    char secs[16];

    /* A full day is no overload of the server: 409, not 503; nor is a
     * start token unknown, spent or expired (409, pointing at it); a
     * store that cannot be reached is 503 with Retry-After (api.c adds
     * it). */
    api_problem_set(&p, rc == PUZ_EFULL || rc == PUZ_EFINISHED
                     ? API_PROBLEM_CONFLICT : rc == PUZ_EIO
                     ? API_PROBLEM_UNAVAILABLE : api_problem_kind_of(rc),
                     "%s", msg);
    if (rc == PUZ_EFINISHED)
        api_problem_point(&p, "/token");
    api_answer_problem(c, &p);
    if (rc == PUZ_ELIMITED && c->answer.status == 429) {
        snprintf(secs, sizeof(secs), "%d", STORE_RATE_WINDOW_S);
        api_answer_header(c, "Retry-After", secs);
    }
}

/* Stores the verified entry and answers 201 (it stands now) or 200
 * (the nickname's earlier entry was as good: it stays), or the store's
 * refusal. */
/* A client that is gone would never see its 201: nothing is stored
 * that is not acknowledged (a half-closed one is still here). True when
 * answered so. */
static bool client_gone(struct api_call *c)
{
    struct api_problem p;

    if (c->cancel == NULL || !atomic_load(c->cancel))
        return false;
    api__cancelled(c, &p);
    api_answer_problem(c, &p);
    return true;
}

static void answer_entry(struct api_call *c, const struct daily_state *s)
{
    struct store_submission e = { s->day, s->size, s->nickname, s->moves,
                                  s->help, s->untimed ? NULL : s->token,
                                  c->rq.client ? c->rq.client : "-",
                                  s->untimed };
    struct store_placed placed;
    unsigned total = 0;
    puz_err rc;
    char msg[PUZ_MSG_MAX] = "";

    if (client_gone(c))
        return;
    rc = store_daily_add(c->ctx->store, &e, puz_clock_wall_ms(), &placed, msg);
    if (rc == PUZ_OK)
        rc = store_daily_count(c->ctx->store, s->day, s->size, &total, msg);
    if (rc != PUZ_OK) {
        answer_refusal(c, rc, msg);
        return;
    }
    api_answer_json(c, placed.improved ? 201 : 200, json_pack("{s:s, s:I, "
        "s:s, s:I, s:I, s:b, s:b, s:I, s:b, s:f, s:b, s:I, s:o, s:I}",
        "date", s->day, "size", (json_int_t)s->size, "nickname",
        s->nickname, "moves", (json_int_t)placed.moves, "time_ms",
        (json_int_t)placed.time_ms, "help", placed.help, "untimed",
        s->untimed, "par", (json_int_t)s->par, "par_optimal",
        s->par_optimal, "score", score_of(s, placed.moves), "improved",
        placed.improved, "rank", (json_int_t)placed.best.rank, "best",
        entry_json(&placed.best), "total_entries", (json_int_t)total));
}

/* Stops the run's clock: 201 with its time (200 when it was finished so
 * before, a retry), or the store's refusal. */
static void answer_finish(struct api_call *c, const struct daily_state *s)
{
    struct store_submission e = { s->day, s->size, NULL, s->moves, s->help,
                                  s->token, c->rq.client ? c->rq.client
                                  : "-", false };
    struct store_run run;
    char msg[PUZ_MSG_MAX] = "";
    puz_err rc;

    if (client_gone(c))
        return;
    rc = store_daily_finish(c->ctx->store, &e, puz_clock_wall_ms(), &run, msg);
    if (rc != PUZ_OK) {
        answer_refusal(c, rc, msg);
        return;
    }
    api_answer_json(c, run.again ? 200 : 201, json_pack("{s:s, s:I, s:s, "
        "s:I, s:I, s:b, s:I, s:b, s:f, s:I}", "date", s->day, "size",
        (json_int_t)s->size, "token", s->token, "moves",
        (json_int_t)run.moves, "time_ms", (json_int_t)run.time_ms, "help",
        run.help, "par", (json_int_t)s->par, "par_optimal", s->par_optimal,
        "score", score_of(s, run.moves), "name_within_ms",
        (json_int_t)STORE_TOKEN_TTL_MS));
}

/* Hands out a start token: 201 with it, or the store's refusal. */
static void answer_start(struct api_call *c, struct daily_state *s)
{
    char msg[PUZ_MSG_MAX] = "";
    puz_err rc = store_daily_start(c->ctx->store, s->day, s->size,
                                   c->rq.client ? c->rq.client : "-",
                                   puz_clock_wall_ms(), s->token, msg);

    if (rc != PUZ_OK) {
        answer_refusal(c, rc, msg);
        return;
    }
    api_answer_json(c, 201, json_pack("{s:s, s:s, s:I, s:I}", "token",
        s->token, "date", s->day, "size", (json_int_t)s->size,
        "expires_in_ms", (json_int_t)STORE_TOKEN_TTL_MS));
}

static void finish(struct api_call *c, struct daily_state *s)
{
    if (s->start)
        answer_start(c, s);
    else if (s->finish)
        answer_finish(c, s);
    else if (s->entry)
        answer_entry(c, s);
    else
        answer_day(c, s);
}

/* A day's page with its par known is answered now. The rest goes to a
 * worker: a par search, and every entry, so that the store's write (and
 * a WAL checkpoint's fsync) never holds up a network thread. */
static void finish_or_search(struct api_call *c, struct daily_state *s)
{
    /* A shared store is a network round trip: a worker makes it, never
     * a network thread (a slow Redis holds a worker up to its timeout,
     * not every connection). */
    if (c->ctx->store != NULL
        && strcmp(store_backend(c->ctx->store), "shared") == 0) {
        s->deadline_us = api__deadline_in(DAILY_PAR_MS);
        c->state = s;
        return;
    }
    par_known(c, s);
    s->par_checked = true;
    if (s->par_known && !s->entry && !s->finish) {
        finish(c, s);
        return;
    }
    s->deadline_us = api__deadline_in(DAILY_PAR_MS);
    c->state = s;
}

/* A store that is down answers 503 at once (its thread knows: no I/O
 * here), before any search for a par that could not be kept. */
static bool store_up(struct api_call *c)
{
    char why[PUZ_MSG_MAX];

    if (c->ctx->store == NULL || store_ready(c->ctx->store, why))
        return true;
    api_answer_problemf(c, API_PROBLEM_UNAVAILABLE, "the leaderboard is "
                        "unavailable (%s); the rest of the service is not: "
                        "try again later", why);
    return false;
}

void api__daily(struct api_call *c)
{
    struct daily_state *s;

    if (!daily_begin(c, &s) || !top_param(c, s) || !store_up(c))
        return;
    finish_or_search(c, s);
}

/* Entries are open on the board's own day and the next, so a game
 * begun before midnight (UTC) can still be entered. */
static bool entry_open(struct api_call *c, const struct daily_state *s)
{
    char today[11], yesterday[11];
    int64_t now = puz_clock_wall_ms() / 1000;

    daily_today(now, today);
    daily_today(now - 86400, yesterday);
    if (strcmp(s->day, today) == 0 || strcmp(s->day, yesterday) == 0)
        return true;
    api_answer_problemf(c, API_PROBLEM_CONFLICT, "entries for %s are "
                        "closed: a day's board takes entries on its day "
                        "and the next (UTC); today is %s", s->day, today);
    return false;
}

/* The moves must solve the day's board; the server counts them. */
static bool entry_verified(struct api_call *c, struct daily_state *s,
                           const uint8_t *moves)
{
    char msg[PUZ_MSG_MAX];

    if (daily_verify(&s->board, moves, s->moves, msg) == PUZ_OK)
        return true;
    api_answer_problemf(c, API_PROBLEM_INVALID_SOLUTION, "these moves do "
                        "not solve the board of %s (%ux%u): %s", s->day,
                        s->size, s->size, msg);
    return false;
}

/* The opening of both writes (a start, an entry): not draining, the
 * day's board, a store that is up, the board open; false when
 * answered. */
static bool write_begin(struct api_call *c, struct daily_state **s)
{
    if (api__refuse_when_draining(c) || !daily_begin(c, s))
        return false;
    if (c->ctx->store == NULL) {
        api_answer_problemf(c, API_PROBLEM_NOT_IMPLEMENTED, "this server "
                            "keeps no leaderboard (state_dir is off)");
        return false;
    }
    return entry_open(c, *s) && store_up(c);
}

/* POST .../entries (finish false) and POST .../finish (true): the body
 * read, the moves verified (an entry naming a finished run brings none:
 * they were verified at its finish), then the store's write on a worker.
 * A finish stops the run's clock and keeps the run on its token for a
 * name; an entry puts a run on the leaderboard. */
static void write_run(struct api_call *c, bool finish)
{
    struct daily_state *s;
    struct daily_entry e;
    struct api_problem p;
    json_t *root;
    puz_err rc;

    if (!write_begin(c, &s) || !api__parse_body(c, &root))
        return;
    rc = daily_entry_decode(root, finish, c->arena, &e, &p);
    json_decref(root);
    if (rc != PUZ_OK) {
        api_answer_problem(c, &p);
        return;
    }
    memcpy(s->nickname, e.nickname, sizeof(s->nickname));
    memcpy(s->token, e.token, sizeof(s->token));
    s->untimed = e.untimed;
    s->help = e.help;
    s->moves = e.moves;
    if ((finish || s->moves > 0) && !entry_verified(c, s, e.dirs))
        return;
    s->finish = finish;
    s->entry = !finish;
    finish_or_search(c, s);
}

void api__daily_entry(struct api_call *c)
{
    write_run(c, false);
}

void api__daily_finish(struct api_call *c)
{
    write_run(c, true);
}

/* POST .../start: a token for the day's board while it takes entries;
 * the store's write is made on a worker (api__daily_work). */
void api__daily_start(struct api_call *c)
{
    struct daily_state *s;

    if (!write_begin(c, &s))
        return;
    s->start = true;
    c->state = s;
}

/* The worker's half: a bigger board's par when none is stored (the best
 * route a bounded search finds, proven shortest when it says so, never
 * more than the scramble's walk), then the answer or the entry. */
void api__daily_work(struct api_call *c)
{
    struct daily_state *s = c->state;
    /* The par is a solve of the day's board (a scramble: solvable). */
    struct api_solve_request q = { .board = s->board,
                                   .max_nodes = DAILY_PAR_NODES };
    struct puz_solve_opts o;
    struct puz_result res;
    struct api_problem p;
    char msg[PUZ_MSG_MAX];
    puz_err rc;

    if (s->start) {
        finish(c, s);
        return;
    }
    if (!s->par_checked)
        par_known(c, s);
    if (s->par_known) {
        finish(c, s);
        return;
    }
    api__request_opts(c, &q, s->deadline_us, &o);
    memset(&res, 0, sizeof(res));
    rc = api__search(c, &s->board, &o, &res);
    if (rc == PUZ_OK)
        api__record(c, &res);
    if (rc == PUZ_OK && res.status == PUZ_CANCELLED) {
        api__cancelled(c, &p);
        api_answer_problem(c, &p);
        return;
    }
    s->par = daily_walk(s->size);
    s->par_optimal = false;
    if (rc == PUZ_OK && res.status == PUZ_SOLVED && res.length <= s->par) {
        s->par = res.length;
        s->par_optimal = res.optimal;
    }
    if (c->ctx->store != NULL)
        store_daily_par_put(c->ctx->store, s->day, s->size, &s->par,
                            &s->par_optimal, msg);
    finish(c, s);
}
