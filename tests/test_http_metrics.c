/*
 * test_http_metrics.c - counters and histograms without a server: the
 * exposition text names every series, buckets are cumulative, unknown
 * status codes fall into "other", out-of-range routes are ignored, and
 * counts made on many threads (more than there are shards) all add up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pthread.h>

#include "http_metrics.h"
#include "puz_version.h"

static const char *const routes[] = { "/a", "/b" };

static void assert_has(const char *text, const char *needle)
{
    if (strstr(text, needle) == NULL)
        fail_msg("missing: %s", needle);
}

static void test_render(void **state)
{
    struct http_metrics_gauges g = { .queue_depth = 3, .queue_capacity = 9,
                                     .workers = 2, .workers_busy = 1,
                                     .ready = 1 };
    http_metrics *m = NULL;
    size_t len = 0;
    char *text;

    (void)state;
    assert_int_equal(http_metrics_create(routes, 2, &m), PUZ_OK);
    http_metrics_request(m, 0, 200, 150);
    http_metrics_request(m, 0, 200, 4000);
    http_metrics_request(m, 1, 422, 10);
    http_metrics_request(m, 1, 418, 10);
    http_metrics_request(m, 7, 200, 10);        /* no such route */
    http_metrics_solve(m, PUZ_SOLVED, 2000000, 5000);
    http_metrics_solve(m, PUZ_TIMEOUT, 10, 5);
    http_metrics_arena(m, 100000);
    text = http_metrics_render(m, &g, &len);
    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    assert_has(text, "puzzled_http_requests_total{route=\"/a\","
               "code=\"200\"} 2");
    assert_has(text, "puzzled_http_requests_total{route=\"/b\","
               "code=\"422\"} 1");
    assert_has(text, "{route=\"/b\",code=\"other\"} 1");
    assert_has(text, "puzzled_http_request_duration_seconds_bucket"
               "{le=\"0.00025\"} 3");
    assert_has(text, "puzzled_http_request_duration_seconds_bucket"
               "{le=\"+Inf\"} 4");
    assert_has(text, "puzzled_http_request_duration_seconds_count 4");
    assert_has(text, "puzzled_solves_total{status=\"solved\"} 1");
    assert_has(text, "puzzled_solves_total{status=\"timeout\"} 1");
    assert_has(text, "puzzled_solve_duration_seconds_bucket{le=\"2.5\"} 2");
    assert_has(text, "puzzled_solve_duration_seconds_sum 2.000010");
    assert_has(text, "puzzled_solve_expanded_nodes_bucket{le=\"10\"} 1");
    assert_has(text, "puzzled_solve_expanded_nodes_bucket{le=\"10000\"} 2");
    assert_has(text, "puzzled_request_arena_bytes_bucket{le=\"65536\"} 0");
    assert_has(text, "puzzled_request_arena_bytes_bucket{le=\"262144\"} "
               "1");
    assert_has(text, "puzzled_queue_depth 3");
    assert_has(text, "puzzled_queue_capacity 9");
    assert_has(text, "puzzled_workers_busy 1");
    assert_has(text, "puzzled_ready 1");
    assert_has(text, "# TYPE puzzled_solve_expanded_nodes histogram");
    /* which release answers, for dashboards that join on it */
    assert_has(text, "# TYPE puzzled_build_info gauge\n"
               "puzzled_build_info{version=\"" PUZ_VERSION "\"} 1\n");
    free(text);
    http_metrics_destroy(m);
}

#define THREADS 12
#define PER_THREAD 5000

static void *count_some(void *arg)
{
    http_metrics *m = arg;

    for (unsigned i = 0; i < PER_THREAD; i++) {
        http_metrics_request(m, 1, 200, 300);
        http_metrics_solve(m, PUZ_SOLVED, 20, 7);
        http_metrics_arena(m, 5000);
    }
    return NULL;
}

static void test_threads_add_up(void **state)
{
    struct http_metrics_gauges g = { 0 };
    pthread_t t[THREADS];
    http_metrics *m = NULL;
    size_t len = 0;
    char *text;

    (void)state;
    assert_int_equal(http_metrics_create(routes, 2, &m), PUZ_OK);
    for (unsigned i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&t[i], NULL, count_some, m), 0);
    for (unsigned i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    text = http_metrics_render(m, &g, &len);
    assert_non_null(text);
    assert_has(text, "puzzled_http_requests_total{route=\"/b\","
               "code=\"200\"} 60000\n");
    assert_has(text, "puzzled_http_request_duration_seconds_bucket"
               "{le=\"0.00025\"} 0\n");
    assert_has(text, "puzzled_http_request_duration_seconds_bucket"
               "{le=\"0.0005\"} 60000\n");
    assert_has(text, "puzzled_http_request_duration_seconds_sum 18.000000");
    assert_has(text, "puzzled_solves_total{status=\"solved\"} 60000\n");
    assert_has(text, "puzzled_solve_expanded_nodes_count 60000\n");
    assert_has(text, "puzzled_request_arena_bytes_bucket{le=\"16384\"} "
               "60000\n");
    free(text);
    http_metrics_destroy(m);
}

static void test_too_many_routes(void **state)
{
    http_metrics *m = (http_metrics *)1;

    (void)state;
    assert_int_equal(http_metrics_create(routes, HTTP_METRICS_MAX_ROUTES + 1,
                                         &m), PUZ_EINVAL);
    assert_null(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_threads_add_up),
        cmocka_unit_test(test_too_many_routes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
