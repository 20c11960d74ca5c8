/*
 * test_api_threads.c - a job's "threads" (issue 30): decoded against the
 * job caps and capped quietly at the job workers' share of the cores;
 * /v1/solve refuses it with 422 naming the option; a bad value is 422;
 * the solver's options get it with the pool's runner.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "api_decode.h"
#include "api_limits.h"
#include "api_problem.h"

static puz_err decode(const char *text, bool job, unsigned cores,
                      unsigned workers, struct api_solve_request *q,
                      struct api_problem *p)
{
    struct api_limits l;
    struct api_solve_caps caps;
    json_t *j = NULL;
    puz_err rc;

    api_limits_defaults(&l);
    l.cores = cores;
    l.job_workers = workers;
    caps = api_limits_solve_caps(&l, job);
    assert_int_equal(api_decode_json(text, strlen(text), 32, &j, p),
                     PUZ_OK);
    rc = api_decode_solve(j, &caps, q, p);
    json_decref(j);
    return rc;
}

#define BOARD "\"board\": \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\""

static void test_job_threads_capped_by_cores(void **state)
{
    struct api_solve_request q;
    struct api_problem p;

    (void)state;
    assert_int_equal(decode("{" BOARD ", \"threads\": 4}", true, 8, 1, &q,
                            &p), PUZ_OK);
    assert_int_equal(q.threads, 4);
    assert_int_equal(decode("{" BOARD ", \"threads\": 16}", true, 8, 2, &q,
                            &p), PUZ_OK);
    assert_int_equal(q.threads, 4);         /* 8 cores / 2 workers */
    assert_int_equal(decode("{" BOARD ", \"threads\": 2}", true, 2, 4, &q,
                            &p), PUZ_OK);
    assert_int_equal(q.threads, 1);         /* never below one */
    assert_int_equal(decode("{" BOARD "}", true, 8, 1, &q, &p), PUZ_OK);
    assert_int_equal(q.threads, 0);
}

static void test_solve_refuses_threads(void **state)
{
    struct api_solve_request q;
    struct api_problem p;

    (void)state;
    assert_int_equal(decode("{" BOARD ", \"threads\": 2}", false, 8, 1, &q,
                            &p), PUZ_EINVAL);
    assert_int_equal(p.kind, API_PROBLEM_INVALID_OPTION);
    assert_string_equal(p.pointer, "/threads");
    assert_non_null(strstr(p.detail, "threads"));
}

static void test_bad_threads_refused(void **state)
{
    static const char *const bad[] = {
        "{" BOARD ", \"threads\": 0}", "{" BOARD ", \"threads\": -1}",
        "{" BOARD ", \"threads\": \"2\"}", "{" BOARD ", \"threads\": 1e9}",
        "{" BOARD ", \"threads\": 100000}",
    };
    struct api_solve_request q;
    struct api_problem p;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(decode(bad[i], true, 8, 1, &q, &p), PUZ_EINVAL);
        assert_int_equal(p.kind, API_PROBLEM_INVALID_OPTION);
        assert_string_equal(p.pointer, "/threads");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_threads_capped_by_cores),
        cmocka_unit_test(test_solve_refuses_threads),
        cmocka_unit_test(test_bad_threads_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
