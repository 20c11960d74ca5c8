/*
 * test_api_rect.c - rectangular boards through the API, with no socket:
 * every accepted form of a 2x3 board (rows, a flat array with rows and
 * cols, a string with '/' rows, a flat string with rows and cols) comes
 * back solved with a path the test replays itself; an A* trace, a batch
 * and a score of rectangles; the catalog's shapes; an unsolvable
 * rectangle explained by its column parity; and the 4xx problems that
 * name the field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "api.h"
#include "support/apitest.h"

/* Replay the answer's moves on start (rows x cols, row-major tiles) and
 * check it lands on the default goal in `want` moves. */
static void expect_path(const json_t *ans, const int *start, unsigned rows,
                        unsigned cols, unsigned want)
{
    const json_t *moves = json_object_get(ans, "moves");
    int b[PUZ_MAX_CELLS];
    unsigned blank = 0, cells = rows * cols;

    assert_string_equal(apitest_str(ans, "status"), "solved");
    assert_int_equal(json_integer_value(json_object_get(ans, "length")),
                     want);
    assert_int_equal(json_array_size(moves), want);
    memcpy(b, start, cells * sizeof(*b));
    while (b[blank] != 0)
        blank++;
    for (size_t i = 0; i < json_array_size(moves); i++) {
        const char *m = json_string_value(json_array_get(moves, i));
        unsigned to = blank;
        if (strcmp(m, "up") == 0 && blank >= cols)
            to = blank - cols;
        else if (strcmp(m, "down") == 0 && blank + cols < cells)
            to = blank + cols;
        else if (strcmp(m, "left") == 0 && blank % cols > 0)
            to = blank - 1;
        else if (strcmp(m, "right") == 0 && blank % cols + 1 < cols)
            to = blank + 1;
        assert_int_not_equal(to, blank);
        b[blank] = b[to];
        b[to] = 0;
        blank = to;
    }
    for (unsigned i = 0; i + 1 < cells; i++)
        assert_int_equal(b[i], (int)i + 1);
}

static void test_every_form_of_2x3(void **state)
{
    static const int start[6] = { 4, 1, 2, 5, 0, 3 };
    static const char *const bodies[] = {
        "{\"board\": [[4, 1, 2], [5, 0, 3]]}",
        "{\"board\": [4, 1, 2, 5, 0, 3], \"rows\": 2, \"cols\": 3}",
        "{\"board\": \"4 1 2/5 0 3\"}",
        "{\"board\": \"4 1 2 5 0 3\", \"rows\": 2, \"cols\": 3, "
        "\"algorithm\": \"bfs\"}",
        "{\"board\": [[4, 1, 2], [5, 0, 3]], \"algorithm\": \"idastar\", "
        "\"include_path\": true}",
    };
    struct apitest *t = *state;

    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        json_t *ans;
        assert_int_equal(apitest_call(t, "POST", "/v1/solve", NULL,
                                      bodies[i])->status, 200);
        ans = apitest_json(t);
        /* left, up, right, right, down: 4 1 2/5 0 3 -> goal */
        expect_path(ans, start, 2, 3, 5);
        assert_true(json_is_true(json_object_get(ans, "optimal")));
    }
    /* the path's boards come back as 2 rows of 3 */
    {
        const json_t *path = json_object_get(apitest_json(t), "path");
        const json_t *first = json_array_get(path, 0);
        assert_int_equal(json_array_size(path), 6);
        assert_int_equal(json_array_size(first), 2);
        assert_int_equal(json_array_size(json_array_get(first, 0)), 3);
    }
}

/* A* traced on a 2x3: the trace's boards are 2 rows of 3. */
static void test_trace(void **state)
{
    struct apitest *t = *state;
    const json_t *trace, *board;

    assert_int_equal(apitest_call(t, "POST", "/v1/solve", NULL,
                                  "{\"board\": \"4 1 2/5 0 3\", \"algorithm\": "
                                  "\"astar\", \"trace\": 3}")->status, 200);
    trace = json_object_get(apitest_json(t), "trace");
    assert_int_equal(json_array_size(trace), 3);
    board = json_object_get(json_array_get(trace, 0), "board");
    assert_int_equal(json_array_size(board), 2);
    assert_int_equal(json_integer_value(json_array_get(
                         json_array_get(board, 1), 1)), 0);
}

static void test_tall_board_and_batch(void **state)
{
    static const int tall[8] = { 1, 2, 3, 4, 5, 6, 0, 7 };
    struct apitest *t = *state;
    json_t *ans;

    assert_int_equal(apitest_call(t, "POST", "/v1/solve", NULL,
                                  "{\"board\": [[1, 2], [3, 4], [5, 6], "
                                  "[0, 7]]}")->status, 200);
    expect_path(apitest_json(t), tall, 4, 2, 1);
    assert_int_equal(apitest_call(t, "POST", "/v1/solve/batch", NULL,
                                  "{\"boards\": [[1, 2, 3, 4, 5, 6, 0, 7], "
                                  "\"1 2 3 4 5 6 7 0\"], \"rows\": 4, "
                                  "\"cols\": 2}")->status, 200);
    ans = apitest_json(t);
    {
        const json_t *res = json_object_get(ans, "results");
        assert_int_equal(json_array_size(res), 2);
        expect_path(json_array_get(res, 0), tall, 4, 2, 1);
    }
}

/* A 4x5 no search solves optimally in time: auto is the anytime
 * search, and without a timeout_ms it gets a second, not the request's
 * whole limit; the answer says it is not proven optimal and gives the
 * bound it proved. */
static void test_large_rectangle_is_anytime(void **state)
{
    struct apitest *t = *state;
    json_t *ans;
    uint64_t t0 = puz_clock_mono_us(), took;

    assert_int_equal(apitest_call(t, "POST", "/v1/solve", NULL,
                                  "{\"board\": \"19 5 13 0 14/8 15 9 2 12/"
                                  "3 17 4 1 16/6 7 11 10 18\"}")->status,
                     200);
    took = puz_clock_mono_us() - t0;
    ans = apitest_json(t);
    assert_string_equal(apitest_str(ans, "algorithm"), "anytime");
    assert_false(json_is_true(json_object_get(ans, "optimal")));
    assert_true(json_integer_value(json_object_get(ans, "lower_bound")) > 0);
    assert_true(json_integer_value(json_object_get(ans, "lower_bound")) <=
                json_integer_value(json_object_get(ans, "length")));
    if (took > 2500000u)
        fail_msg("a 4x5 auto solve took %llu us (its default is 1 s)",
                 (unsigned long long)took);
}

/* Scoring moves that solve that board searches for its optimum as long
 * as the solve does (a second), not solve_timeout_ms: the game's card
 * waits for the score, and a shared 4x5 took 8.4 s to answer null. The
 * moves are the anytime solve's own route (legal, reaching the goal). */
static void test_score_4x5_within_anytime_default(void **state)
{
    struct apitest *t = *state;
    static const char board[] = "19 5 13 0 14/8 15 9 2 12/3 17 4 1 16/"
                                "6 7 11 10 18";
    char body[4096];
    uint64_t t0, took;
    json_t *ans;
    char *moves;

    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", board);
    assert_int_equal(apitest_call(t, "POST", "/v1/solve", NULL, body)
                     ->status, 200);
    ans = apitest_json(t);
    assert_false(json_is_true(json_object_get(ans, "optimal")));
    moves = json_dumps(json_object_get(ans, "moves"), JSON_COMPACT);
    assert_non_null(moves);
    snprintf(body, sizeof(body), "{\"board\": \"%s\", \"moves\": %s}",
             board, moves);
    free(moves);
    t0 = puz_clock_mono_us();
    assert_int_equal(apitest_call(t, "POST", "/v1/score", NULL, body)
                     ->status, 200);
    took = puz_clock_mono_us() - t0;
    ans = apitest_json(t);
    assert_true(json_is_true(json_object_get(ans, "solved")));
    assert_true(json_is_null(json_object_get(ans, "optimal_moves")));
    assert_true(json_is_null(json_object_get(ans, "score")));
    if (took > 2500000u)
        fail_msg("a 4x5 score took %llu us (a solve's default is 1 s)",
                 (unsigned long long)took);
}

/* Moves that do not reach the goal score 0 whatever the optimum: on a
 * board that needs a search for it they are answered without one (an
 * illegal first move waited 7 s for a null score). The bound is far
 * under the second such a search runs, far over a decode and a replay. */
static void test_score_short_of_goal_without_search(void **state)
{
    static const char *const bodies[] = {
        /* legal, one move, not at the goal */
        "{\"board\": \"19 5 13 0 14/8 15 9 2 12/3 17 4 1 16/6 7 11 10 18\","
        " \"moves\": [\"left\"]}",
        /* the blank is on the top row: "up" is illegal at once */
        "{\"board\": \"19 5 13 0 14/8 15 9 2 12/3 17 4 1 16/6 7 11 10 18\","
        " \"moves\": [\"up\", \"left\"]}",
        /* a 4x4 a move from the goal, played away from it: no optimum
           (a search would have found 1 at once) */
        "{\"board\": \"1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15\","
        " \"moves\": [\"up\"]}",
    };
    struct apitest *t = *state;

    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        uint64_t t0 = puz_clock_mono_us(), took;
        json_t *ans;

        assert_int_equal(apitest_call(t, "POST", "/v1/score", NULL,
                                      bodies[i])->status, 200);
        took = puz_clock_mono_us() - t0;
        ans = apitest_json(t);
        assert_false(json_is_true(json_object_get(ans, "solved")));
        assert_true(json_is_null(json_object_get(ans, "optimal_moves")));
        assert_true(json_is_real(json_object_get(ans, "score")));
        assert_true(json_real_value(json_object_get(ans, "score")) == 0.0);
        assert_int_equal(json_is_true(json_object_get(ans, "legal")),
                         i != 1);
        if (i == 1)
            assert_int_equal(json_integer_value(json_object_get(
                json_object_get(ans, "illegal_move"), "index")), 0);
        if (took > 500000u)
            fail_msg("body %zu: a verdict with no search took %llu us", i,
                     (unsigned long long)took);
    }
}

static void test_score_and_random(void **state)
{
    struct apitest *t = *state;
    json_t *ans;

    assert_int_equal(apitest_call(t, "POST", "/v1/score", NULL,
                                  "{\"board\": \"1 2 3/4 0 5\", \"moves\": "
                                  "[\"right\"]}")->status, 200);
    ans = apitest_json(t);
    assert_true(json_is_true(json_object_get(ans, "solved")));
    assert_int_equal(apitest_call(t, "GET", "/v1/puzzles/random",
                                  "rows=3&cols=4&moves=30&seed=7", NULL)
                     ->status, 200);
    ans = apitest_json(t);
    assert_int_equal(json_integer_value(json_object_get(ans, "rows")), 3);
    assert_int_equal(json_integer_value(json_object_get(ans, "cols")), 4);
    assert_true(json_is_null(json_object_get(ans, "size")));
    assert_int_equal(json_array_size(json_object_get(ans, "board")), 3);
    assert_non_null(strchr(apitest_str(ans, "text"), '/'));
    apitest_call(t, "GET", "/v1/puzzles/random", "rows=3", NULL);
    assert_non_null(strstr(apitest_str(apitest_problem(t, 400,
                                                       "invalid-query"),
                                       "detail"), "rows and cols"));
}

static void test_problems_name_the_field(void **state)
{
    /* each body's problem names its field (pointer) or says the shapes */
    static const struct { const char *body, *pointer, *words; } bad[] = {
        { "{\"board\": [[1, 2, 3], [4, 0]]}", "/board/1", NULL },
        { "{\"board\": [1, 2, 3, 4, 5, 0], \"rows\": 2}", "/cols", NULL },
        { "{\"board\": [1, 2, 3, 4, 5, 0], \"rows\": 3, \"cols\": 3}",
          NULL, "3x3" },
        { "{\"board\": [1, 2, 3, 4, 5, 0], \"rows\": 1, \"cols\": 6}",
          "/rows", NULL },
        { "{\"board\": \"1 2 3/4 5 0\", \"goal\": \"1 2/3 4/5 0\"}", NULL,
          "3x2" },
    };
    struct apitest *t = *state;
    json_t *p;

    apitest_call(t, "POST", "/v1/solve", NULL,
                 "{\"board\": \"2 1 3/4 5 0\"}");
    p = apitest_problem(t, 422, "unsolvable");
    assert_non_null(strstr(apitest_str(p, "detail"),
                           "odd number of columns"));
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        apitest_call(t, "POST", "/v1/solve", NULL, bad[i].body);
        p = apitest_problem(t, 422, "invalid-board");
        if (bad[i].pointer != NULL)
            assert_string_equal(apitest_str(p, "pointer"), bad[i].pointer);
        else
            assert_non_null(strstr(apitest_str(p, "detail"), bad[i].words));
    }
}

static void test_catalog_shapes(void **state)
{
    struct apitest *t = *state;
    const json_t *shapes, *algs;
    size_t i;
    bool seen_3x4 = false, seen_4x5 = false;

    assert_int_equal(apitest_call(t, "GET", "/v1/catalog", NULL, NULL)
                     ->status, 200);
    shapes = json_object_get(apitest_json(t), "shapes");
    assert_int_equal(json_array_size(shapes), 42);     /* 7 x 7 - 7 */
    for (i = 0; i < json_array_size(shapes); i++) {
        const json_t *s = json_array_get(shapes, i);
        if (json_integer_value(json_object_get(s, "rows")) == 3 &&
            json_integer_value(json_object_get(s, "cols")) == 4) {
            seen_3x4 = true;
            assert_string_equal(apitest_str(s, "algorithm"), "idastar");
            assert_true(json_is_true(json_object_get(s, "optimal")));
        }
        if (json_integer_value(json_object_get(s, "rows")) == 4 &&
            json_integer_value(json_object_get(s, "cols")) == 5) {
            seen_4x5 = true;
            assert_string_equal(apitest_str(s, "algorithm"), "anytime");
            assert_false(json_is_true(json_object_get(s, "optimal")));
        }
    }
    assert_true(seen_3x4);
    assert_true(seen_4x5);
    algs = json_object_get(apitest_json(t), "algorithms");
    for (i = 0; i < json_array_size(algs); i++) {
        const json_t *a = json_array_get(algs, i);
        assert_true(json_is_true(json_object_get(a, "rectangles")));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_form_of_2x3,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test_setup_teardown(test_trace, apitest_setup,
                                        apitest_teardown),
        cmocka_unit_test_setup_teardown(test_tall_board_and_batch,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test_setup_teardown(test_large_rectangle_is_anytime,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test_setup_teardown(
            test_score_4x5_within_anytime_default, apitest_setup,
            apitest_teardown),
        cmocka_unit_test_setup_teardown(
            test_score_short_of_goal_without_search, apitest_setup,
            apitest_teardown),
        cmocka_unit_test_setup_teardown(test_score_and_random,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test_setup_teardown(test_problems_name_the_field,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test_setup_teardown(test_catalog_shapes,
                                        apitest_setup, apitest_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
