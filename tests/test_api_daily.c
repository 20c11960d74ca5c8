/*
 * test_api_daily.c - the daily puzzle's routes (api_daily.c) on plain
 * strings, with a real store in a temporary directory and no socket:
 * the day's board and par (checked against daily_board and an
 * independent A* search), honest entries accepted and ranked by moves
 * then time, forged ones (illegal, unfinished, padded with fields the
 * server computes itself), bad nicknames, closed days and floods
 * refused with problem+json, the leaderboard kept when the store is
 * reopened, and a server without a store saying so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "api.h"
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

/* POST an entry of moves (a JSON array) for today's 3x3. */
static unsigned enter(struct fixture *f, const char *nick,
                      const char *moves, unsigned ms, const char *client)
{
    char body[4096], path[64];

    snprintf(body, sizeof(body), "{\"nickname\":\"%s\",\"moves\":%s,"
             "\"time_ms\":%u}", nick, moves, ms);
    snprintf(path, sizeof(path), "/v1/daily/%s/3/entries", f->today);
    return run(f, "POST", path, body, client);
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
    snprintf(body, sizeof(body), "{\"nickname\":\"w\",\"moves\":%s,"
             "\"time_ms\":1}", best);
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
    struct puz_board b;
    char best[1024], longer[1100];
    unsigned len;

    day_board(f, 3, &b);
    len = solve_astar(&b, best, sizeof(best));
    /* Two more moves at the goal (gap bottom right): up, then down. */
    snprintf(longer, sizeof(longer), "%.*s,\"up\",\"down\"]",
             (int)strlen(best) - 1, best);
    assert_int_equal(enter(f, "slow but short", best, 90000, "1.1.1.1"),
                     201);
    assert_int_equal(json_integer_value(json_object_get(f->t.json, "moves")),
                     len);
    assert_true(json_real_value(json_object_get(f->t.json, "score")) == 1.0);
    assert_int_equal(enter(f, "fast.but-long", longer, 1000, "1.1.1.2"), 201);
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
    char best[1024], cut[1024], body[1200], path[64];

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
    snprintf(body, sizeof(body), "{\"nickname\":\"eve\",\"moves\":%s,"
             "\"time_ms\":1,\"score\":1.0,\"rank\":1}", best);
    snprintf(path, sizeof(path), "/v1/daily/%s/3/entries", f->today);
    assert_int_equal(run(f, "POST", path, body, "6.6.6.6"), 422);
    snprintf(body, sizeof(body), "{\"nickname\":\"eve\",\"moves\":%s,"
             "\"time_ms\":-5}", best);
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
    for (int i = 0; i < STORE_RATE_MAX; i++)
        assert_int_equal(enter(f, "bot", best, 1, "9.9.9.9"), 201);
    assert_int_equal(enter(f, "bot", best, 1, "9.9.9.9"), 429);
    assert_non_null(strstr(problem_type(f), "/rate-limited"));
    assert_string_equal(f->t.call.answer.headers[0].name, "Retry-After");
    assert_int_equal(enter(f, "someone", best, 1, "9.9.9.10"), 201);
}

static void test_old_day_closed(void **state)
{
    struct fixture *f = *state;

    assert_int_equal(run(f, "GET", "/v1/daily/2001-01-01/3", NULL,
                         "1.1.1.1"), 200);
    assert_int_equal(run(f, "POST", "/v1/daily/2001-01-01/3/entries",
                         "{\"nickname\":\"late\",\"moves\":[\"up\"],"
                         "\"time_ms\":1}", "1.1.1.1"), 409);
    assert_non_null(strstr(problem_type(f), "/conflict"));
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
    assert_int_equal(enter(f, "nobody", "[\"up\"]", 1, "1.1.1.1"), 501);
    f->t.ctx.store = s;
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
        T(test_old_day_closed),
        T(test_leaderboard_kept_on_reopen),
        T(test_without_store),
    };
    return cmocka_run_group_tests(tests, test_tables3_setup,
                                  test_tables3_teardown);
}
