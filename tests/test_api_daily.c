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
#include "support/tables3.h"

struct fixture {
    struct api_limits cfg;
    struct api_ctx ctx;
    atomic_int draining;
    atomic_uint_fast64_t counter;
    char dir[64];
    puz_arena *arena;
    struct api_call call;
    char today[11];
    json_t *last;       /* the last answer's body, parsed */
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct puz_board goal;
    char msg[PUZ_MSG_MAX];

    api_limits_defaults(&f->cfg);
    puz_board_goal(3, &goal);
    f->ctx.lim = &f->cfg;
    f->ctx.tables = test_tables3;
    f->ctx.table3 = puz_tables_table3(test_tables3, &goal);
    f->ctx.draining = &f->draining;
    f->ctx.counter = &f->counter;
    snprintf(f->dir, sizeof(f->dir), "/tmp/puzzled-daily-XXXXXX");
    if (mkdtemp(f->dir) == NULL
        || store_open(f->dir, &f->ctx.store, msg) != PUZ_OK)
        return -1;
    f->arena = puz_arena_create(1 << 16);
    daily_today((int64_t)time(NULL), f->today);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    char cmd[128];

    json_decref(f->last);
    store_close(f->ctx.store);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    puz_arena_destroy(f->arena);
    free(f);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs method path (body, client) to the end; returns the status and
 * keeps the parsed body in f->last. */
static unsigned run(struct fixture *f, const char *method, const char *path,
                    const char *body, const char *client)
{
    struct api_request rq = { 0 };
    const struct api_route *rt;
    struct api_param q = { "limit", NULL };
    char buf[256], *qs;
    json_error_t e;

    snprintf(buf, sizeof(buf), "%s", path);
    qs = strchr(buf, '?');
    if (qs != NULL) {
        *qs = '\0';
        q.value = strchr(qs + 1, '=') + 1;
        rq.query = &q;
        rq.nquery = 1;
    }
    rt = api_route_find(method, buf, &rq.params);
    assert_non_null(rt);
    rq.path = buf;
    rq.id = "test-id";
    rq.client = client;
    rq.body = body;
    rq.len = body != NULL ? strlen(body) : 0;
    puz_arena_reset(f->arena);
    api_call_init(&f->call, &f->ctx, &rq, f->arena);
    api_run(rt, &f->call);
    json_decref(f->last);
    f->last = json_loadb(f->call.answer.body, f->call.answer.len, 0, &e);
    assert_non_null(f->last);
    return f->call.answer.status;
}

static const char *problem_type(const struct fixture *f)
{
    return json_string_value(json_object_get(f->last, "type"));
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
    assert_int_equal(daily_board(f->today, n, f->ctx.table3, b), PUZ_OK);
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
    assert_string_equal(json_string_value(json_object_get(f->last, "date")),
                        f->today);
    rows = json_object_get(f->last, "board");
    for (unsigned i = 0; i < 9; i++)
        assert_int_equal(json_integer_value(json_array_get(
            json_array_get(rows, i / 3), i % 3)), b.cells[i]);
    assert_int_equal(json_integer_value(json_object_get(f->last, "par")),
                     solve_astar(&b, moves, sizeof(moves)));
    assert_true(json_is_true(json_object_get(f->last, "par_optimal")));
    assert_int_equal(json_array_size(json_object_get(f->last, "entries")),
                     0);
}

/* 4x4: the par comes from a search on the worker half, is stored, and
 * the next request answers from the store without one. */
static void test_bigger_par_searched_once(void **state)
{
    struct fixture *f = *state;
    const struct api_route *rt;
    struct api_request rq = { 0 };
    unsigned par;

    assert_int_equal(run(f, "GET", "/v1/daily/today/4", NULL, "1.1.1.1"),
                     200);
    par = (unsigned)json_integer_value(json_object_get(f->last, "par"));
    assert_true(par > 0 && par <= daily_walk(4));
    rt = api_route_find("GET", "/v1/daily/today/4", &rq.params);
    rq.path = "/v1/daily/today/4";
    puz_arena_reset(f->arena);
    api_call_init(&f->call, &f->ctx, &rq, f->arena);
    assert_true(api_start(rt, &f->call));       /* no work left */
    assert_int_equal(f->call.answer.status, 200);
}

/* An entry is stored on the worker half, never on the reading thread. */
static void test_entry_written_by_the_worker(void **state)
{
    struct fixture *f = *state;
    struct api_request rq = { 0 };
    const struct api_route *rt;
    struct puz_board b;
    char best[1024], body[1200], path[64];

    day_board(f, 3, &b);
    solve_astar(&b, best, sizeof(best));
    snprintf(body, sizeof(body), "{\"nickname\":\"w\",\"moves\":%s,"
             "\"time_ms\":1}", best);
    snprintf(path, sizeof(path), "/v1/daily/%s/3/entries", f->today);
    rt = api_route_find("POST", path, &rq.params);
    rq.path = path;
    rq.client = "1.1.1.1";
    rq.body = body;
    rq.len = strlen(body);
    puz_arena_reset(f->arena);
    api_call_init(&f->call, &f->ctx, &rq, f->arena);
    assert_false(api_start(rt, &f->call));
    api_work(rt, &f->call);
    assert_int_equal(f->call.answer.status, 201);
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
    assert_int_equal(json_integer_value(json_object_get(f->last, "moves")),
                     len);
    assert_true(json_real_value(json_object_get(f->last, "score")) == 1.0);
    assert_int_equal(enter(f, "fast.but-long", longer, 1000, "1.1.1.2"), 201);
    assert_int_equal(json_integer_value(json_object_get(f->last, "rank")), 2);
    assert_int_equal(enter(f, "short_and_fast", best, 5000, "1.1.1.3"), 201);
    assert_int_equal(json_integer_value(json_object_get(f->last, "rank")), 1);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_int_equal(json_integer_value(json_object_get(f->last,
                                                        "total_entries")), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(f->last, "entries"), 2), "nickname")),
        "fast.but-long");
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(f->last, "entries"), 0), "nickname")),
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
    assert_string_equal(json_string_value(json_object_get(f->last,
                                                          "pointer")),
                        "/moves/0");
    /* The words as openapi.yaml lists them: not "Up", not "u" (issue 29
     * item 9; the CLI's shorthands are the CLI's). */
    assert_int_equal(enter(f, "eve", "[\"Up\"]", 1, "6.6.6.6"), 422);
    assert_int_equal(enter(f, "eve", "[\"u\"]", 1, "6.6.6.6"), 422);
    assert_string_equal(json_string_value(json_object_get(f->last,
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
    assert_int_equal(json_integer_value(json_object_get(f->last,
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
    assert_string_equal(f->call.answer.headers[0].name, "Retry-After");
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
    store_close(f->ctx.store);
    assert_int_equal(store_open(f->dir, &f->ctx.store, msg), PUZ_OK);
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(f->last, "entries"), 0), "nickname")), "kept");
}

static void test_without_store(void **state)
{
    struct fixture *f = *state;
    store *s = f->ctx.store;

    f->ctx.store = NULL;
    assert_int_equal(run(f, "GET", "/v1/daily/today/3", NULL, "1.1.1.1"),
                     200);
    assert_true(json_is_false(json_object_get(f->last, "leaderboard")));
    assert_int_equal(enter(f, "nobody", "[\"up\"]", 1, "1.1.1.1"), 501);
    f->ctx.store = s;
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
