/*
 * test_api_daily.c - the daily puzzle's routes (api_daily.c) on plain
 * strings, with a real store in a temporary directory and no socket:
 * the day's board and par (checked against daily_board and an
 * independent A* search), honest entries accepted and ranked by moves
 * then time, forged ones (illegal, unfinished, padded with fields the
 * server computes itself), bad nicknames, closed days and floods
 * refused with problem+json, the leaderboard kept when the store is
 * reopened, and a server without a store saying so. Issue 31: a start
 * token from POST .../start times the run on the server; a time_ms
 * sent by the client is refused and changes nothing; bad tokens are
 * refused; one entry per nickname; help marked and ranked after.
 * Issue 45: POST .../finish stops the clock the moment the board is
 * solved and an entry of the nickname and token alone names the run
 * later, timed to its finish (not to the naming); a run no start
 * reached the server for goes in untimed, after every timed entry;
 * ?nickname= gives that player's standing as it is now (rank,
 * percentile).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "api.h"
#include "base/clock.h"
#include "daily.h"
#include "puz_heuristic.h"
#include "support/apitest.h"
#include "support/tables3.h"

struct fixture {
    struct apitest t;
    char dir[64];
    char today[11];
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    char msg[PUZ_MSG_MAX];

    apitest_init(&f->t);
    apitest_use_tables3(&f->t);
    snprintf(f->dir, sizeof(f->dir), "/tmp/puzzled-daily-XXXXXX");
    if (mkdtemp(f->dir) == NULL
        || store_open(f->dir, &f->t.ctx.store, msg) != PUZ_OK)
        return -1;
    daily_today((int64_t)time(NULL), f->today);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    char cmd[128];

    store_close(f->t.ctx.store);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    apitest_fini(&f->t);
    free(f);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs method path (body, client) to the end; returns the status and
 * keeps the parsed body in f->t.json. */
static unsigned run(struct fixture *f, const char *method, const char *path,
                    const char *body, const char *client)
{
    char buf[256], *qs;

    snprintf(buf, sizeof(buf), "%s", path);
    qs = strchr(buf, '?');
    if (qs != NULL)
        *qs++ = '\0';
    f->t.client = client;
    apitest_call(&f->t, method, buf, qs, body);
    apitest_json(&f->t);
    return f->t.call.answer.status;
}

static const char *problem_type(const struct fixture *f)
{
    return apitest_str(f->t.json, "type");
}

/* An optimal solution of board by A* with Manhattan distance (not the
 * table the route uses), as a JSON array of direction names. */
static unsigned solve_astar(const struct puz_board *b, char *json,
                            size_t size)
{
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_ASTAR };
    puz_arena *a = puz_arena_create(1 << 20);
    struct puz_result r;
    size_t n = 0;

    o.heuristic = puz_heuristic_find("manhattan");
    assert_int_equal(puz_solve(b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_true(r.optimal);
    n += snprintf(json + n, size - n, "[");
    for (unsigned i = 0; i < r.length; i++)
        n += snprintf(json + n, size - n, "%s\"%s\"", i ? "," : "",
                      puz_dir_name(r.moves[i]));
    snprintf(json + n, size - n, "]");
    puz_arena_destroy(a);
    return r.length;
}

static void day_board(const struct fixture *f, unsigned n,
                      struct puz_board *b)
{
    assert_int_equal(daily_board(f->today, n, f->t.ctx.table3, b), PUZ_OK);
}

static int64_t wall_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A start token of today's board of size n as if handed out ago_ms
 * before now (the store's own call: the route is tested on its own). */
static void token_ago(struct fixture *f, unsigned n, const char *client,
                      int64_t ago_ms, char *token)
{
    char msg[PUZ_MSG_MAX];

    if (store_daily_start(f->t.ctx.store, f->today, n, client,
                          wall_ms() - ago_ms, token, msg) != PUZ_OK)
        fail_msg("store_daily_start: %s", msg);
}

/* POST a body (with "%s" where the token goes) to today's 3x3. */
static unsigned post_entry(struct fixture *f, const char *fmt,
                           const char *nick, const char *moves,
                           const char *token, const char *client)
{
    char body[4096], path[64];

    snprintf(body, sizeof(body), fmt, nick, moves, token);
    snprintf(path, sizeof(path), "/v1/daily/%s/3/entries", f->today);
    return run(f, "POST", path, body, client);
}

#define ENTRY "{\"nickname\":\"%s\",\"moves\":%s,\"token\":\"%s\"," \
              "\"help\":false}"

/* POST an entry of moves (a JSON array) for today's 3x3, a run of ms
 * milliseconds: its token taken ms ago. */
static unsigned enter(struct fixture *f, const char *nick,
                      const char *moves, unsigned ms, const char *client)
{
    char token[STORE_TOKEN_HEX + 1];

    token_ago(f, 3, client, ms, token);
    return post_entry(f, ENTRY, nick, moves, token, client);
}

/* Today's 3x3 solved optimally into best, and two moves longer (up and
 * back down at the goal) into longer (may be NULL); the optimum. */
static unsigned routes(struct fixture *f, char *best, char *longer)
{
    struct puz_board b;
    unsigned len;

    day_board(f, 3, &b);
    len = solve_astar(&b, best, 1024);
    if (longer != NULL)
        snprintf(longer, 1100, "%.*s,\"up\",\"down\"]",
                 (int)strlen(best) - 1, best);
    return len;
}

static unsigned answer_int(const struct fixture *f, const char *key)
{
    return (unsigned)json_integer_value(json_object_get(f->t.json, key));
}

static void test_day_board_and_exact_par(void **state)
{
    struct fixture *f = *state;
    struct puz_board b;
    char moves[1024];
    json_t *rows;

    day_board(f, 3, &b);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_string_equal(json_string_value(json_object_get(f->t.json, "date")),
                        f->today);
    rows = json_object_get(f->t.json, "board");
    for (unsigned i = 0; i < 9; i++)
        assert_int_equal(json_integer_value(json_array_get(
            json_array_get(rows, i / 3), i % 3)), b.cells[i]);
    assert_int_equal(json_integer_value(json_object_get(f->t.json, "par")),
                     solve_astar(&b, moves, sizeof(moves)));
    assert_true(json_is_true(json_object_get(f->t.json, "par_optimal")));
    assert_int_equal(json_array_size(json_object_get(f->t.json, "entries")),
                     0);
}

/* 4x4: the par comes from a search on the worker half, is stored, and
 * the next request answers from the store without one. */
static void test_bigger_par_searched_once(void **state)
{
    struct fixture *f = *state;
    const struct api_route *rt;
    unsigned par;

    assert_int_equal(run(f, "GET", "/v1/daily/today/4", NULL, "1.1.1.1"),
                     200);
    par = (unsigned)json_integer_value(json_object_get(f->t.json, "par"));
    assert_true(par > 0 && par <= daily_walk(4));
    rt = apitest_prepare(&f->t, "GET", "/v1/daily/today/4", NULL, NULL);
    assert_true(api_start(rt, &f->t.call));       /* no work left */
    assert_int_equal(f->t.call.answer.status, 200);
}

/* An entry is stored on the worker half, never on the reading thread. */
static void test_entry_written_by_the_worker(void **state)
{
    struct fixture *f = *state;
    const struct api_route *rt;
    struct puz_board b;
    char best[1024], body[1200], path[64];

    day_board(f, 3, &b);
    solve_astar(&b, best, sizeof(best));
    token_ago(f, 3, "1.1.1.1", 10000, path);
    snprintf(body, sizeof(body), ENTRY, "w", best, path);
    snprintf(path, sizeof(path), "/v1/daily/%s/3/entries", f->today);
    f->t.client = "1.1.1.1";
    rt = apitest_prepare(&f->t, "POST", path, NULL, body);
    assert_false(api_start(rt, &f->t.call));
    api_work(rt, &f->t.call);
    assert_int_equal(f->t.call.answer.status, 201);
}

static void test_bad_days_and_sizes_not_found(void **state)
{
    struct fixture *f = *state;
    const char *paths[] = { "/v1/daily/2026-02-30/3", "/v1/daily/2999-12-31/3",
                            "/v1/daily/yesterday/3", "/v1/daily/today/6",
                            "/v1/daily/today/33", "/v1/daily/today/2" };

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        assert_int_equal(run(f, "GET", paths[i], NULL, "1.1.1.1"), 404);
        assert_non_null(strstr(problem_type(f), "/not-found"));
    }
    assert_int_equal(run(f, "GET", "/v1/daily/today/3?limit=101", NULL,
                         "1.1.1.1"), 400);
}

static void test_honest_entries_ranked_by_moves_then_time(void **state)
{
    struct fixture *f = *state;
    char best[1024], longer[1100];
    unsigned len = routes(f, best, longer);

    assert_int_equal(enter(f, "slow but short", best, 90000, "1.1.1.1"),
                     201);
    assert_int_equal(json_integer_value(json_object_get(f->t.json, "moves")),
                     len);
    assert_true(json_real_value(json_object_get(f->t.json, "score")) == 1.0);
    assert_int_equal(enter(f, "fast.but-long", longer, 4000, "1.1.1.2"), 201);
    assert_int_equal(json_integer_value(json_object_get(f->t.json, "rank")), 2);
    assert_int_equal(enter(f, "short_and_fast", best, 5000, "1.1.1.3"), 201);
    assert_int_equal(json_integer_value(json_object_get(f->t.json, "rank")), 1);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_int_equal(json_integer_value(json_object_get(f->t.json,
                                                        "total_entries")), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(f->t.json, "entries"), 2), "nickname")),
        "fast.but-long");
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(f->t.json, "entries"), 0), "nickname")),
        "short_and_fast");
}

/* Forged lists are refused, and nothing of them is stored. */
static void test_forged_entries_refused(void **state)
{
    struct fixture *f = *state;
    struct puz_board b;
    char best[1024], cut[1024], body[1200], path[64],
         tok[STORE_TOKEN_HEX + 1];

    day_board(f, 3, &b);
    solve_astar(&b, best, sizeof(best));
    /* Legal but one short of the goal. */
    snprintf(cut, sizeof(cut), "%.*s]", (int)(strrchr(best, ',') - best),
             best);
    assert_int_equal(enter(f, "eve", cut, 1, "6.6.6.6"), 422);
    assert_non_null(strstr(problem_type(f), "/invalid-solution"));
    /* A count a forger would like: 3 moves, the first not possible
     * from the corner or edge the gap is on, or just not solving. */
    assert_int_equal(enter(f, "eve", "[\"up\",\"up\",\"up\"]", 1, "6.6.6.6"),
                     422);
    assert_non_null(strstr(problem_type(f), "/invalid-solution"));
    assert_int_equal(enter(f, "eve", "[\"sideways\"]", 1, "6.6.6.6"), 422);
    assert_string_equal(json_string_value(json_object_get(f->t.json,
                                                          "pointer")),
                        "/moves/0");
    /* The words as openapi.yaml lists them: not "Up", not "u" (issue 29
     * item 9; the CLI's shorthands are the CLI's). */
    assert_int_equal(enter(f, "eve", "[\"Up\"]", 1, "6.6.6.6"), 422);
    assert_int_equal(enter(f, "eve", "[\"u\"]", 1, "6.6.6.6"), 422);
    assert_string_equal(json_string_value(json_object_get(f->t.json,
                                                          "pointer")),
                        "/moves/0");
    assert_int_equal(enter(f, "<b>eve</b>", best, 1, "6.6.6.6"), 422);
    assert_int_equal(enter(f, " eve", best, 1, "6.6.6.6"), 422);
    assert_int_equal(enter(f, "eve", "[]", 1, "6.6.6.6"), 422);
    token_ago(f, 3, "6.6.6.6", 10, tok);
    snprintf(body, sizeof(body), "{\"nickname\":\"eve\",\"moves\":%s,"
             "\"token\":\"%s\",\"help\":false,\"score\":1.0,\"rank\":1}",
             best, tok);
    snprintf(path, sizeof(path), "/v1/daily/%s/3/entries", f->today);
    assert_int_equal(run(f, "POST", path, body, "6.6.6.6"), 422);
    assert_int_equal(run(f, "POST", path, "{\"nickname\":", "6.6.6.6"), 400);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_int_equal(json_integer_value(json_object_get(f->t.json,
                                                        "total_entries")), 0);
}

static void test_flood_from_one_address_limited(void **state)
{
    struct fixture *f = *state;
    struct puz_board b;
    char best[1024];

    day_board(f, 3, &b);
    solve_astar(&b, best, sizeof(best));
    for (int i = 0; i < STORE_RATE_MAX; i++) {
        char nick[16];

        snprintf(nick, sizeof(nick), "bot%d", i);
        assert_int_equal(enter(f, nick, best, 10000, "9.9.9.9"), 201);
    }
    assert_int_equal(enter(f, "bot", best, 10000, "9.9.9.9"), 429);
    assert_non_null(strstr(problem_type(f), "/rate-limited"));
    assert_string_equal(f->t.call.answer.headers[0].name, "Retry-After");
    assert_int_equal(enter(f, "someone", best, 10000, "9.9.9.10"), 201);
}

/* Issue 44 finding 2: a run faster than a person plays (under
 * STORE_MOVE_FLOOR_MS a move from its start token) is a 422 that says
 * so, and is not on the board; its token is not spent. */
static void test_bot_run_not_ranked(void **state)
{
    struct fixture *f = *state;
    char best[1024], token[STORE_TOKEN_HEX + 1];
    unsigned len = routes(f, best, NULL);

    token_ago(f, 3, "7.7.7.7", 5, token);
    assert_int_equal(post_entry(f, ENTRY, "bot", best, token, "7.7.7.7"),
                     422);
    assert_non_null(strstr(problem_type(f), "/invalid-request"));
    assert_non_null(strstr(json_string_value(json_object_get(f->t.json,
                    "detail")), "faster than a person"));
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "7.7.7.7"),
                     200);
    assert_int_equal(json_integer_value(json_object_get(f->t.json,
                                                        "total_entries")), 0);
    /* A run of len moves at the floor itself is plausible. */
    assert_int_equal(enter(f, "person", best, len * STORE_MOVE_FLOOR_MS
                           + 1000, "7.7.7.8"), 201);
}

static void test_old_day_closed(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(run(f, "GET", "/v1/daily/2001-01-01/3", NULL,
                         "1.1.1.1"), 200);
    assert_int_equal(run(f, "POST", "/v1/daily/2001-01-01/3/entries",
                         "{\"nickname\":\"late\",\"moves\":[\"up\"],"
                         "\"token\":\"0123456789abcdef0123456789abcdef\","
                         "\"help\":false}", "1.1.1.1"), 409);
    assert_non_null(strstr(problem_type(f), "/conflict"));
    assert_int_equal(run(f, "POST", "/v1/daily/2001-01-01/3/start", NULL,
                         "1.1.1.1"), 409);
}

/* A restart: the store closed and opened again keeps the board. */
static void test_leaderboard_kept_on_reopen(void **state)
{
    struct fixture *f = *state;
    struct puz_board b;
    char best[1024], msg[PUZ_MSG_MAX];

    day_board(f, 3, &b);
    solve_astar(&b, best, sizeof(best));
    assert_int_equal(enter(f, "kept", best, 4242, "1.1.1.1"), 201);
    store_close(f->t.ctx.store);
    assert_int_equal(store_open(f->dir, &f->t.ctx.store, msg), PUZ_OK);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(f->t.json, "entries"), 0), "nickname")), "kept");
}

static void test_without_store(void **state)
{
    struct fixture *f = *state;
    store *s = f->t.ctx.store;

    f->t.ctx.store = NULL;
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_true(json_is_false(json_object_get(f->t.json, "leaderboard")));
    assert_int_equal(post_entry(f, ENTRY, "nobody", "[\"up\"]",
                                "0123456789abcdef0123456789abcdef",
                                "1.1.1.1"), 501);
    assert_int_equal(run(f, "POST", "/v1/daily/today/3/start", NULL,
                         "1.1.1.1"), 501);
    f->t.ctx.store = s;
}

/* Issue 31 defect 4: POST .../start hands out a token; the entry that
 * spends it is timed by the server, start to arrival. */
static void test_start_then_entry_timed_by_the_server(void **state)
{
    struct fixture *f = *state;
    char best[1024], token[STORE_TOKEN_HEX + 1];
    unsigned ms;

    /* Timed over 300 ms: the move floor has a test of its own. */
    store_set_limits(f->t.ctx.store, &(struct store_limits){ 0, 0, 0 });
    routes(f, best, NULL);
    assert_int_equal(run(f, "POST", "/v1/daily/today/3/start", NULL,
                         "2.2.2.2"), 201);
    snprintf(token, sizeof(token), "%s", apitest_str(f->t.json, "token"));
    assert_true(store_token_ok(token));
    assert_int_equal(answer_int(f, "expires_in_ms"), STORE_TOKEN_TTL_MS);
    assert_int_equal(run(f, "POST", "/v1/daily/today/3/start", NULL,
                         "2.2.2.2"), 201);
    assert_string_not_equal(apitest_str(f->t.json, "token"), token);
    puz__clock_advance_us(300000);  /* the player's 300 ms, on the clock */
    assert_int_equal(post_entry(f, ENTRY, "timed", best, token, "2.2.2.2"),
                     201);
    ms = answer_int(f, "time_ms");
    assert_in_range(ms, 300, 300 + 2000);
    assert_true(json_is_true(json_object_get(f->t.json, "improved")));
    assert_false(json_is_true(json_object_get(f->t.json, "help")));
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "2.2.2.2"),
                     200);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(
        json_object_get(f->t.json, "entries"), 0), "time_ms")), ms);
}

/* A time_ms of the client's is refused by name and spends nothing; the
 * same run entered without it gets the server's time, not the forged
 * one. */
static void test_forged_time_ms_does_not_count(void **state)
{
    struct fixture *f = *state;
    char best[1024], token[STORE_TOKEN_HEX + 1];

    routes(f, best, NULL);
    token_ago(f, 3, "3.3.3.3", 60000, token);
    assert_int_equal(post_entry(f, "{\"nickname\":\"%s\",\"moves\":%s,"
                                "\"token\":\"%s\",\"help\":false,"
                                "\"time_ms\":1}", "forger", best, token,
                                "3.3.3.3"), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/time_ms");
    assert_int_equal(post_entry(f, ENTRY, "forger", best, token, "3.3.3.3"),
                     201);
    assert_in_range(answer_int(f, "time_ms"), 60000, 60000 + 2000);
}

/* Missing, malformed, unknown, spent, expired and other-board tokens:
 * 422 for the shape, 409 for the rest, each pointing at /token. */
static void test_bad_tokens_refused(void **state)
{
    struct fixture *f = *state;
    char best[1024], token[STORE_TOKEN_HEX + 1];
    static const struct { const char *token; unsigned status; } shape[] = {
        { "", 422 }, { "abc", 422 },
        { "0123456789ABCDEF0123456789ABCDEF", 422 },
        { "0123456789abcdef0123456789abcdef", 409 },
    };

    routes(f, best, NULL);
    assert_int_equal(post_entry(f, "{\"nickname\":\"%s\",\"moves\":%s,"
                                "\"help\":false}%s", "t", best, "",
                                "4.4.4.4"), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/token");
    for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++) {
        assert_int_equal(post_entry(f, ENTRY, "t", best, shape[i].token,
                                    "4.4.4.4"), shape[i].status);
        assert_string_equal(apitest_str(f->t.json, "pointer"), "/token");
    }
    token_ago(f, 3, "4.4.4.4", 10000, token);
    assert_int_equal(post_entry(f, ENTRY, "t", best, token, "4.4.4.4"), 201);
    assert_int_equal(post_entry(f, ENTRY, "t", best, token, "4.4.4.4"), 409);
    assert_non_null(strstr(apitest_str(f->t.json, "detail"), "spent"));
    token_ago(f, 3, "4.4.4.4", STORE_TOKEN_TTL_MS + 1000, token);
    assert_int_equal(post_entry(f, ENTRY, "u", best, token, "4.4.4.4"), 409);
    assert_non_null(strstr(apitest_str(f->t.json, "detail"), "expired"));
    token_ago(f, 4, "4.4.4.4", 10000, token);
    assert_int_equal(post_entry(f, ENTRY, "u", best, token, "4.4.4.4"), 409);
    assert_non_null(strstr(apitest_str(f->t.json, "detail"), "another"));
}

/* One entry per nickname: a worse second run is answered 200 with
 * improved false and the standing entry; a better one replaces it. */
static void test_duplicate_nickname_keeps_the_best(void **state)
{
    struct fixture *f = *state;
    char best[1024], longer[1100];
    unsigned len = routes(f, best, longer);

    assert_int_equal(enter(f, "Twice", longer, 5000, "5.5.5.5"), 201);
    assert_int_equal(enter(f, "twice", best, 9000, "5.5.5.5"), 201);
    assert_int_equal(answer_int(f, "rank"), 1);
    assert_int_equal(enter(f, "twice", longer, 6000, "5.5.5.5"), 200);
    assert_true(json_is_false(json_object_get(f->t.json, "improved")));
    assert_int_equal(answer_int(f, "moves"), len + 2);
    assert_int_equal(answer_int(f, "rank"), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        f->t.json, "best"), "moves")), len);
    assert_int_equal(answer_int(f, "total_entries"), 1);
}

/* help: required, kept, shown, and ranked after every unassisted run. */
static void test_help_marked_and_ranked_after(void **state)
{
    struct fixture *f = *state;
    char best[1024], longer[1100], token[STORE_TOKEN_HEX + 1];
    json_t *entries;

    routes(f, best, longer);
    token_ago(f, 3, "7.7.7.7", 10000, token);
    assert_int_equal(post_entry(f, "{\"nickname\":\"%s\",\"moves\":%s,"
                                "\"token\":\"%s\"}", "helped", best, token,
                                "7.7.7.7"), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/help");
    assert_int_equal(post_entry(f, "{\"nickname\":\"%s\",\"moves\":%s,"
                                "\"token\":\"%s\",\"help\":true}", "helped",
                                best, token, "7.7.7.7"), 201);
    assert_true(json_is_true(json_object_get(f->t.json, "help")));
    assert_int_equal(enter(f, "alone", longer, 99000, "7.7.7.8"), 201);
    assert_int_equal(answer_int(f, "rank"), 1);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "7.7.7.7"),
                     200);
    entries = json_object_get(f->t.json, "entries");
    assert_string_equal(apitest_str(json_array_get(entries, 0), "nickname"),
                        "alone");
    assert_true(json_is_false(json_object_get(json_array_get(entries, 0),
                                              "help")));
    assert_true(json_is_true(json_object_get(json_array_get(entries, 1),
                                             "help")));
}

/* POST body to today's 3x3 route what (finish, entries). */
static unsigned post_to(struct fixture *f, const char *what,
                        const char *client, const char *fmt, ...)
{
    char body[4096], path[64];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(body, sizeof(body), fmt, ap);
    va_end(ap);
    snprintf(path, sizeof(path), "/v1/daily/%s/3/%s", f->today, what);
    return run(f, "POST", path, body, client);
}

#define FINISH "{\"moves\":%s,\"token\":\"%s\",\"help\":%s}"
#define NAME "{\"nickname\":\"%s\",\"token\":\"%s\"}"

/* Issue 45 defect 1: the finish stops the clock; the nickname typed
 * afterwards (300 ms here) adds nothing: the entry's time is the
 * finish's to the millisecond. A retried finish answers the first. */
static void test_finish_then_name_timed_to_the_finish(void **state)
{
    struct fixture *f = *state;
    char best[1024], token[STORE_TOKEN_HEX + 1];
    unsigned len = routes(f, best, NULL), ms;
    json_t *first;

    token_ago(f, 3, "8.8.8.1", 5000, token);
    assert_int_equal(post_to(f, "finish", "8.8.8.1", FINISH, best, token,
                             "false"), 201);
    ms = answer_int(f, "time_ms");
    assert_in_range(ms, 5000, 5000 + 2000);
    assert_int_equal(answer_int(f, "moves"), len);
    assert_true(json_real_value(json_object_get(f->t.json, "score")) == 1.0);
    assert_int_equal(answer_int(f, "name_within_ms"), STORE_TOKEN_TTL_MS);
    assert_string_equal(apitest_str(f->t.json, "token"), token);
    /* Not on the board until named. */
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "8.8.8.1"),
                     200);
    assert_int_equal(answer_int(f, "total_entries"), 0);
    usleep(300 * 1000);         /* the player types a nickname */
    assert_int_equal(post_to(f, "finish", "8.8.8.1", FINISH, best, token,
                             "false"), 200);
    assert_int_equal(answer_int(f, "time_ms"), ms);
    assert_int_equal(post_to(f, "entries", "8.8.8.1", NAME, "typist",
                             token), 201);
    assert_int_equal(answer_int(f, "time_ms"), ms);
    assert_int_equal(answer_int(f, "moves"), len);
    assert_true(json_is_false(json_object_get(f->t.json, "help")));
    assert_true(json_is_false(json_object_get(f->t.json, "untimed")));
    assert_int_equal(answer_int(f, "rank"), 1);
    assert_true(json_real_value(json_object_get(f->t.json, "score")) == 1.0);
    first = json_object_get(f->t.json, "best");
    assert_int_equal(json_integer_value(json_object_get(first, "time_ms")),
                     ms);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "8.8.8.1"),
                     200);
    first = json_array_get(json_object_get(f->t.json, "entries"), 0);
    assert_string_equal(apitest_str(first, "nickname"), "typist");
    assert_int_equal(json_integer_value(json_object_get(first, "time_ms")),
                     ms);
    /* Named once; a finished run is not entered again with its moves. */
    assert_int_equal(post_to(f, "entries", "8.8.8.1", NAME, "typist",
                             token), 409);
    assert_non_null(strstr(apitest_str(f->t.json, "detail"), "spent"));
    token_ago(f, 3, "8.8.8.1", 5000, token);
    assert_int_equal(post_to(f, "finish", "8.8.8.1", FINISH, best, token,
                             "true"), 201);
    assert_int_equal(post_entry(f, ENTRY, "again", best, token, "8.8.8.1"),
                     409);
    assert_non_null(strstr(apitest_str(f->t.json, "detail"),
                           "finished already"));
    /* Named, it keeps the finish's help. */
    assert_int_equal(post_to(f, "entries", "8.8.8.1", NAME, "again", token),
                     201);
    assert_true(json_is_true(json_object_get(f->t.json, "help")));
    assert_int_equal(answer_int(f, "rank"), 2);
}

/* What a finish and a naming refuse, each a problem pointing at its
 * field: a nickname or a time_ms in a finish, moves that do not solve,
 * no token or an unknown one, a run too fast, a name for a run never
 * finished, a closed day, a server without a store. */
static void test_finish_refusals(void **state)
{
    struct fixture *f = *state;
    char best[1024], token[STORE_TOKEN_HEX + 1], path[64];
    store *s = f->t.ctx.store;

    routes(f, best, NULL);
    token_ago(f, 3, "8.8.9.1", 10000, token);
    assert_int_equal(post_to(f, "finish", "8.8.9.1", "{\"nickname\":\"x\","
                             "\"moves\":%s,\"token\":\"%s\",\"help\":"
                             "false}", best, token), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/nickname");
    assert_int_equal(post_to(f, "finish", "8.8.9.1", "{\"time_ms\":1,"
                             "\"moves\":%s,\"token\":\"%s\",\"help\":"
                             "false}", best, token), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/time_ms");
    assert_int_equal(post_to(f, "finish", "8.8.9.1", FINISH, "[\"up\"]",
                             token, "false"), 422);
    assert_non_null(strstr(problem_type(f), "/invalid-solution"));
    assert_int_equal(post_to(f, "finish", "8.8.9.1", "{\"moves\":%s,"
                             "\"help\":false}", best), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/token");
    assert_int_equal(post_to(f, "finish", "8.8.9.1", FINISH, best,
                             "0123456789abcdef0123456789abcdef", "false"),
                     409);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/token");
    /* Never finished: the token alone names nothing. */
    assert_int_equal(post_to(f, "entries", "8.8.9.1", NAME, "early", token),
                     409);
    assert_non_null(strstr(apitest_str(f->t.json, "detail"),
                           "not finished"));
    /* A bot's finish, under the move floor: not kept, token unspent. */
    token_ago(f, 3, "8.8.9.2", 5, token);
    assert_int_equal(post_to(f, "finish", "8.8.9.2", FINISH, best, token,
                             "false"), 422);
    assert_non_null(strstr(apitest_str(f->t.json, "detail"),
                           "faster than a person"));
    snprintf(path, sizeof(path), "/v1/daily/2001-01-01/3/finish");
    assert_int_equal(run(f, "POST", path, "{}", "8.8.9.1"), 409);
    f->t.ctx.store = NULL;
    assert_int_equal(post_to(f, "finish", "8.8.9.1", FINISH, best, token,
                             "false"), 501);
    f->t.ctx.store = s;
}

#define UNTIMED "{\"nickname\":\"%s\",\"moves\":%s,\"help\":false," \
                "\"untimed\":true}"

/* Issue 45 defect 3: no start ever reached the server: the run goes in
 * untimed (its moves replayed, no time), after every timed entry. */
static void test_untimed_entry_ranked_after_timed(void **state)
{
    struct fixture *f = *state;
    char best[1024], longer[1100], cut[1024], token[STORE_TOKEN_HEX + 1];
    unsigned len = routes(f, best, longer);
    json_t *e;

    snprintf(cut, sizeof(cut), "%.*s]", (int)(strrchr(best, ',') - best),
             best);
    assert_int_equal(post_to(f, "entries", "8.8.10.1", UNTIMED, "cheat",
                             cut), 422);
    assert_non_null(strstr(problem_type(f), "/invalid-solution"));
    assert_int_equal(post_to(f, "entries", "8.8.10.1", UNTIMED, "blip",
                             best), 201);
    assert_true(json_is_true(json_object_get(f->t.json, "untimed")));
    assert_int_equal(answer_int(f, "time_ms"), 0);
    assert_int_equal(answer_int(f, "moves"), len);
    assert_int_equal(answer_int(f, "rank"), 1);
    assert_int_equal(enter(f, "clocked", longer, 20000, "8.8.10.2"), 201);
    assert_int_equal(answer_int(f, "rank"), 1);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "8.8.10.1"),
                     200);
    e = json_object_get(f->t.json, "entries");
    assert_string_equal(apitest_str(json_array_get(e, 0), "nickname"),
                        "clocked");
    assert_true(json_is_false(json_object_get(json_array_get(e, 0),
                                              "untimed")));
    assert_string_equal(apitest_str(json_array_get(e, 1), "nickname"),
                        "blip");
    assert_true(json_is_true(json_object_get(json_array_get(e, 1),
                                             "untimed")));
    /* untimed is a boolean, and an untimed entry has no token. */
    assert_int_equal(post_to(f, "entries", "8.8.10.1", "{\"nickname\":"
                             "\"x\",\"moves\":%s,\"help\":false,"
                             "\"untimed\":1}", best), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/untimed");
    token_ago(f, 3, "8.8.10.1", 10000, token);
    assert_int_equal(post_to(f, "entries", "8.8.10.1", "{\"nickname\":"
                             "\"x\",\"moves\":%s,\"help\":false,"
                             "\"untimed\":true,\"token\":\"%s\"}", best,
                             token), 422);
    assert_string_equal(apitest_str(f->t.json, "pointer"), "/token");
}

/* ?nickname=: that player's entry as it stands now, with its rank,
 * the board's count, its percentile (at or below it, rounded down) and
 * the share at or above it (rounded up); it moves down as better runs
 * arrive. No entry of that nickname: standing null; a nickname that
 * could be none, or another parameter: 400. */
static json_t *standing(struct fixture *f, const char *nick)
{
    char path[96];

    snprintf(path, sizeof(path), "/v1/daily/today/3?nickname=%s", nick);
    assert_int_equal(run(f, "GET", path, NULL, "8.8.11.9"), 200);
    return json_object_get(f->t.json, "standing");
}

/* A standing's rank, count, percentile and top_percent. */
static void standing_is(const json_t *me, unsigned rank, unsigned total,
                        unsigned percentile, unsigned top)
{
    const char *keys[] = { "rank", "total_entries", "percentile",
                           "top_percent" };
    unsigned want[] = { rank, total, percentile, top };

    for (size_t i = 0; i < 4; i++)
        assert_int_equal(json_integer_value(json_object_get(me, keys[i])),
                         want[i]);
}

static void test_standing_of_a_nickname_now(void **state)
{
    struct fixture *f = *state;
    char best[1024], longer[1100];
    json_t *me;

    routes(f, best, longer);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "8.8.11.9"),
                     200);
    assert_true(json_is_null(json_object_get(f->t.json, "standing")));
    assert_true(json_is_null(standing(f, "Ann B")));
    assert_int_equal(enter(f, "Ann B", longer, 9000, "8.8.11.1"), 201);
    assert_int_equal(enter(f, "cal", longer, 20000, "8.8.11.2"), 201);
    me = standing(f, "ann b");
    assert_string_equal(apitest_str(me, "nickname"), "Ann B");
    standing_is(me, 1, 2, 100, 50);
    assert_int_equal(enter(f, "dee", best, 30000, "8.8.11.3"), 201);
    standing_is(standing(f, "Ann B"), 2, 3, 66, 67);
    assert_int_equal(answer_int(f, "total_entries"), 3);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3?limit=1&nickname=cal",
                         NULL, "8.8.11.9"), 200);
    assert_int_equal(json_array_size(json_object_get(f->t.json, "entries")),
                     1);
    standing_is(json_object_get(f->t.json, "standing"), 3, 3, 33, 100);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3?nickname=<b>", NULL,
                         "8.8.11.9"), 400);
    assert_non_null(strstr(problem_type(f), "/invalid-query"));
    assert_int_equal(run(f, "GET", "/v1/daily/today/3?nickname=", NULL,
                         "8.8.11.9"), 400);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3?nick=cal", NULL,
                         "8.8.11.9"), 400);
    assert_non_null(strstr(problem_type(f), "/invalid-query"));
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_day_board_and_exact_par),
        T(test_bigger_par_searched_once),
        T(test_entry_written_by_the_worker),
        T(test_bad_days_and_sizes_not_found),
        T(test_honest_entries_ranked_by_moves_then_time),
        T(test_forged_entries_refused),
        T(test_flood_from_one_address_limited),
        T(test_bot_run_not_ranked),
        T(test_old_day_closed),
        T(test_leaderboard_kept_on_reopen),
        T(test_without_store),
        T(test_start_then_entry_timed_by_the_server),
        T(test_forged_time_ms_does_not_count),
        T(test_bad_tokens_refused),
        T(test_duplicate_nickname_keeps_the_best),
        T(test_help_marked_and_ranked_after),
        T(test_finish_then_name_timed_to_the_finish),
        T(test_finish_refusals),
        T(test_untimed_entry_ranked_after_timed),
        T(test_standing_of_a_nickname_now),
    };
    return cmocka_run_group_tests(tests, test_tables3_setup,
                                  test_tables3_teardown);
}
