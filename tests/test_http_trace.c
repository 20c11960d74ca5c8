/*
 * test_http_trace.c - "trace": K on POST /v1/solve (issue 16): the first
 * K expansions of A* come back in order with g, h, f, the open list's
 * size and the children pushed; K outside 1..200 or not an integer is a
 * 422 pointing at /trace; without the option the answer has no trace;
 * the batch route does not take it. Every response is recorded for the
 * OpenAPI check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "support/htest.h"

static int setup(void **state)
{
    struct http_config c;

    htest_config(&c);
    *state = htest_start(&c);
    return 0;
}

static int teardown(void **state)
{
    http_server_destroy(*state);
    return 0;
}

static json_t *post_ok(void **state, const char *body)
{
    struct htest_resp r;
    json_t *j;

    assert_int_equal(htest_post(*state, "/v1/solve", body, &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    htest_resp_free(&r);
    return j;
}

static void test_trace_steps_in_order(void **state)
{
    json_t *j = post_ok(state, "{\"board\": \"1 2 3 4 0 6 7 5 8\", "
                        "\"algorithm\": \"astar\", \"heuristic\": "
                        "\"manhattan\", \"trace\": 5}");
    json_t *trace = json_object_get(j, "trace"), *s0, *s1;

    assert_int_equal(json_array_size(trace), 2);
    s0 = json_array_get(trace, 0);
    assert_int_equal(json_integer_value(json_object_get(s0, "g")), 0);
    assert_int_equal(json_integer_value(json_object_get(s0, "h")), 2);
    assert_int_equal(json_integer_value(json_object_get(s0, "f")), 2);
    assert_int_equal(json_integer_value(json_object_get(s0, "open")), 1);
    assert_int_equal(json_array_size(json_object_get(s0, "children")), 4);
    s1 = json_array_get(trace, 1);
    assert_int_equal(json_integer_value(json_object_get(s1, "g")), 1);
    assert_int_equal(json_integer_value(json_object_get(s1, "h")), 1);
    json_decref(j);
}

static void test_trace_capped_at_k(void **state)
{
    json_t *j = post_ok(state, "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                        "\"algorithm\": \"astar\", \"heuristic\": "
                        "\"misplaced\", \"trace\": 200, "
                        "\"limits\": {\"max_nodes\": 300}}");

    assert_int_equal(json_array_size(json_object_get(j, "trace")), 200);
    json_decref(j);
}

static void test_no_trace_unless_asked(void **state)
{
    json_t *j = post_ok(state, "{\"board\": \"1 2 3 4 0 6 7 5 8\"}");

    assert_null(json_object_get(j, "trace"));
    json_decref(j);
}

static void test_bad_trace_is_422(void **state)
{
    const char *bodies[] = {
        "{\"board\": \"1 2 3 4 0 6 7 5 8\", \"trace\": 0}",
        "{\"board\": \"1 2 3 4 0 6 7 5 8\", \"trace\": 201}",
        "{\"board\": \"1 2 3 4 0 6 7 5 8\", \"trace\": \"5\"}",
    };

    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        struct htest_resp r;
        json_t *p;
        assert_int_equal(htest_post(*state, "/v1/solve", bodies[i], &r), 0);
        p = htest_problem(&r, 422, "invalid-option");
        assert_string_equal(json_string_value(json_object_get(p, "pointer")),
                            "/trace");
        json_decref(p);
        htest_resp_free(&r);
    }
}

static void test_batch_takes_no_trace(void **state)
{
    struct htest_resp r;
    json_t *p;

    assert_int_equal(htest_post(*state, "/v1/solve/batch", "{\"boards\": "
                                "[\"1 2 3 4 0 6 7 5 8\"], \"trace\": 3}",
                                &r), 0);
    p = htest_problem(&r, 422, "invalid-request");
    json_decref(p);
    htest_resp_free(&r);
}

static void test_effort_layers_sum_to_expanded(void **state)
{
    const char *algs[] = { "astar", "idastar" };

    for (size_t i = 0; i < 2; i++) {
        char body[160];
        json_t *j, *effort;
        json_int_t sum = 0;
        snprintf(body, sizeof(body), "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                 "\"algorithm\": \"%s\", \"heuristic\": \"manhattan\", "
                 "\"effort\": true}", algs[i]);
        j = post_ok(state, body);
        effort = json_object_get(j, "effort");
        assert_true(json_array_size(effort) >= 2);
        for (size_t k = 0; k < json_array_size(effort); k++)
            sum += json_integer_value(json_object_get(
                json_array_get(effort, k), "expanded"));
        assert_int_equal(sum, json_integer_value(json_object_get(
            json_object_get(j, "stats"), "expanded")));
        assert_null(json_object_get(j, "trace"));
        json_decref(j);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_steps_in_order),
        cmocka_unit_test(test_trace_capped_at_k),
        cmocka_unit_test(test_no_trace_unless_asked),
        cmocka_unit_test(test_bad_trace_is_422),
        cmocka_unit_test(test_batch_takes_no_trace),
        cmocka_unit_test(test_effort_layers_sum_to_expanded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
