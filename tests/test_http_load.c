/*
 * test_http_load.c - the server under concurrency and at its limits:
 * many client threads at once, a slow solve not blocking a fast one,
 * queue overflow answered 503 with Retry-After at once, readiness while
 * saturated, an abandoned request, and graceful shutdown (the running
 * solve still gets its answer, the queued one a 503, a connection
 * opened while it drains its 503 after its request, none once stopped)
 * including a grace period that runs out, and a shutdown while
 * connections pour in at the daemon's limit.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/htest.h"

#define EASY "{\"board\": \"1 2 3 4 5 6 7 0 8\"}"
/* The same board searched (a table walk is answered without a worker). */
#define EASY_SEARCH "{\"board\": \"1 2 3 4 5 6 7 0 8\", " \
                    "\"algorithm\": \"idastar\"}"
/* IDA* with the weakest heuristic on an 80-move 4x4 board: runs until
 * its deadline, so the test decides exactly how slow it is. */
#define SLOW(ms) "{\"board\": \"0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1\", " \
                 "\"algorithm\": \"idastar\", \"heuristic\": \"misplaced\", " \
                 "\"limits\": {\"timeout_ms\": " #ms "}}"

struct call {
    http_server *srv;
    const char *path;
    const char *body;
    struct htest_resp resp;
    double started_ms, ended_ms;
    pthread_t thread;
};

static void *call_main(void *arg)
{
    struct call *c = arg;
    /* The server's limits end each call; the client waits longer than
       any of them so that a busy machine shows up as a slow answer, not
       as a client timeout. */
    struct htest_req rq = { .path = c->path, .body = c->body,
                            .timeout_ms = 300000 };

    c->started_ms = wait_now_ms();
    htest_do(c->srv, &rq, &c->resp);
    c->ended_ms = wait_now_ms();
    return NULL;
}

static void call_start(struct call *c, http_server *s, const char *path,
                       const char *body)
{
    memset(c, 0, sizeof(*c));
    c->srv = s;
    c->path = path;
    c->body = body;
    assert_int_equal(pthread_create(&c->thread, NULL, call_main, c), 0);
}

static void call_join(struct call *c)
{
    pthread_join(c->thread, NULL);
}

static http_server *start_with(unsigned workers, unsigned queue,
                               unsigned grace_ms)
{
    struct http_config c;

    htest_config(&c);
    c.workers = workers;
    c.queue = queue;
    c.shutdown_grace_ms = grace_ms;
    c.api.retry_after_s = 2;
    c.api.solve_max_nodes = UINT64_C(1) << 40;  /* time is the limit here */
    return htest_start(&c);
}

static const char *status_of(const struct htest_resp *r)
{
    static const char *none = "(none)";
    json_t *j = json_loadb(r->body, r->len, 0, NULL);
    const char *s = json_string_value(json_object_get(j, "status"));
    const char *out = none;

    /* Only the few statuses the tests compare, as static strings. */
    if (s != NULL && strcmp(s, "solved") == 0)
        out = "solved";
    else if (s != NULL && strcmp(s, "timeout") == 0)
        out = "timeout";
    json_decref(j);
    return out;
}

struct metric_want {
    http_server *s;
    const char *needle;
};

static bool metric_says(void *arg)
{
    const struct metric_want *w = arg;
    struct htest_req rq = { .path = "/metrics", .no_record = true };
    struct htest_resp r;
    bool has;

    htest_do(w->s, &rq, &r);
    has = r.body != NULL && strstr(r.body, w->needle) != NULL;
    htest_resp_free(&r);
    return has;
}

/* Wait until /metrics says needle ("puzzled_workers_busy 1"), 5 s at
 * most, else the test fails. */
static void wait_busy(http_server *s, const char *needle)
{
    struct metric_want w = { s, needle };

    if (!wait_until(metric_says, &w, 5000))
        fail_msg("server never reported %s", needle);
}

#define CLIENTS 6
#define PER_CLIENT 15

struct client {
    http_server *srv;
    int ok;
    pthread_t thread;
};

static void *client_main(void *arg)
{
    static const char *const paths[] = {
        "/v1/solve", "/v1/puzzles/random?size=3&moves=12", "/livez",
        "/v1/score",
    };
    static const char *const bodies[] = {
        EASY, NULL, NULL, "{\"board\": \"1 2 3 4 5 6 7 0 8\", \"moves\": "
        "[\"right\"]}",
    };
    struct client *c = arg;
    struct htest_resp r;

    for (int i = 0; i < PER_CLIENT; i++) {
        struct htest_req rq = { .path = paths[i % 4], .body = bodies[i % 4] };

        htest_do(c->srv, &rq, &r);
        c->ok += r.status == 200;
        htest_resp_free(&r);
    }
    return NULL;
}

static void test_concurrent_clients(void **state)
{
    struct client cl[CLIENTS];
    http_server *s = start_with(2, 64, 5000);

    (void)state;
    for (int i = 0; i < CLIENTS; i++) {
        cl[i].srv = s;
        cl[i].ok = 0;
        pthread_create(&cl[i].thread, NULL, client_main, &cl[i]);
    }
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(cl[i].thread, NULL);
        assert_int_equal(cl[i].ok, PER_CLIENT);
    }
    http_server_destroy(s);
}

#define KORF_GOAL "\"goal\": \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\""
/* Korf's instances 17 (66 moves) and 88 (65), the two slowest with the
 * 6-6-3 tables: a few hundred milliseconds each. */
#define KORF17 "{\"board\": \"15 14 0 4 11 1 6 13 7 5 8 9 3 2 10 12\", " \
               KORF_GOAL "}"
#define KORF88 "{\"board\": \"15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\", " \
               KORF_GOAL "}"

static int length_of(const struct htest_resp *r)
{
    json_t *j = json_loadb(r->body, r->len, 0, NULL);
    int len = (int)json_integer_value(json_object_get(j, "length"));

    json_decref(j);
    return len;
}

/* Two 4x4 solves at once run on both workers, reading the same pattern
 * databases, and both come back optimal. */
static void test_parallel_4x4_share_tables(void **state)
{
    struct http_config c;
    struct call a, b;
    const char *build = getenv("BUILD");
    http_server *s;

    (void)state;
    htest_config(&c);
    c.workers = 2;
    /* What this proves is sharing and optimality, not speed: under a
       sanitizer on a busy machine (CI's test-asan beside other suites)
       a few-hundred-millisecond solve took past the 10 s default. */
    c.api.solve_timeout_ms = 300000;
    snprintf(c.pdb, sizeof(c.pdb), "6-6-3");
    snprintf(c.pdb_dir, sizeof(c.pdb_dir), "%s/pdb-cache",
             build != NULL && build[0] != '\0' ? build : "build");
    s = htest_start(&c);
    call_start(&a, s, "/v1/solve", KORF17);
    call_start(&b, s, "/v1/solve", KORF88);
    wait_busy(s, "puzzled_workers_busy 2");
    call_join(&a);
    call_join(&b);
    assert_int_equal(a.resp.status, 200);
    assert_int_equal(b.resp.status, 200);
    assert_string_equal(status_of(&a.resp), "solved");
    assert_string_equal(status_of(&b.resp), "solved");
    assert_int_equal(length_of(&a.resp), 66);
    assert_int_equal(length_of(&b.resp), 65);
    assert_non_null(strstr(a.resp.body, "\"heuristic\":\"pdb\""));
    htest_resp_free(&a.resp);
    htest_resp_free(&b.resp);
    http_server_destroy(s);
}

static void test_slow_solve_does_not_block_fast(void **state)
{
    http_server *s = start_with(2, 8, 5000);
    struct call slow;
    struct htest_resp r;
    double t0;

    (void)state;
    call_start(&slow, s, "/v1/solve", SLOW(1500));
    wait_busy(s, "puzzled_workers_busy 1");
    t0 = wait_now_ms();
    assert_int_equal(htest_post(s, "/v1/solve", EASY, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(status_of(&r), "solved");
    assert_true(wait_now_ms() - t0 < 500);
    htest_resp_free(&r);
    call_join(&slow);
    /* The slow one ran into its deadline: a 200 naming the limit. */
    assert_int_equal(slow.resp.status, 200);
    assert_string_equal(status_of(&slow.resp), "timeout");
    assert_true(slow.ended_ms - slow.started_ms >= 1400);
    htest_resp_free(&slow.resp);
    http_server_destroy(s);
}

static void test_queue_overflow_503(void **state)
{
    http_server *s = start_with(1, 1, 5000);
    struct call running, queued;
    struct htest_resp r;
    char v[32];
    double t0;
    json_t *p;

    (void)state;
    call_start(&running, s, "/v1/solve", SLOW(1200));
    wait_busy(s, "puzzled_workers_busy 1");
    call_start(&queued, s, "/v1/solve", SLOW(1200));
    wait_busy(s, "puzzled_queue_depth 1");
    t0 = wait_now_ms();
    assert_int_equal(htest_post(s, "/v1/solve", EASY_SEARCH, &r), 0);
    assert_true(wait_now_ms() - t0 < 300);     /* refused at once */
    p = htest_problem(&r, 503, "overloaded");
    assert_string_equal(htest_header(&r, "Retry-After", v, sizeof(v)), "2");
    json_decref(p);
    htest_resp_free(&r);
    /* A 3x3 board the exact table answers needs no worker: still 200. */
    assert_int_equal(htest_post(s, "/v1/solve", EASY, &r), 0);
    assert_int_equal(r.status, 200);
    htest_resp_free(&r);
    /* The other routes that need a worker refuse the same way. */
    assert_int_equal(htest_post(s, "/v1/solve/batch", "{\"boards\": "
                                "[\"1 2 3 0\"]}", &r), 0);
    json_decref(htest_problem(&r, 503, "overloaded"));
    htest_resp_free(&r);
    assert_int_equal(htest_post(s, "/v1/score", "{\"board\": \"1 2 3 4 5 "
                                "6 7 8 9 10 11 12 13 14 0 15\", \"moves\": "
                                "[\"right\"]}", &r), 0);
    json_decref(htest_problem(&r, 503, "overloaded"));
    htest_resp_free(&r);
    /* Moves that do not reach the goal score 0 with no search: no
       worker either, so still 200. */
    assert_int_equal(htest_post(s, "/v1/score", "{\"board\": \"1 2 3 4 5 "
                                "6 7 8 9 10 11 12 13 14 0 15\", \"moves\": "
                                "[]}", &r), 0);
    assert_int_equal(r.status, 200);
    htest_resp_free(&r);
    /* Saturated: not ready. */
    assert_int_equal(htest_get(s, "/readyz", &r), 0);
    assert_int_equal(r.status, 503);
    htest_resp_free(&r);
    assert_int_equal(htest_get(s, "/metrics", &r), 0);
    assert_non_null(strstr(r.body, "puzzled_queue_rejected_total 3"));
    htest_resp_free(&r);
    call_join(&running);
    call_join(&queued);
    assert_string_equal(status_of(&running.resp), "timeout");
    /* The queued one's deadline started when it was queued. */
    assert_string_equal(status_of(&queued.resp), "timeout");
    assert_true(queued.ended_ms - queued.started_ms < 2000);
    htest_resp_free(&running.resp);
    htest_resp_free(&queued.resp);
    http_server_destroy(s);
}

static void test_abandoned_request(void **state)
{
    http_server *s = start_with(1, 4, 5000);
    struct htest_req rq = { .path = "/v1/solve", .body = SLOW(600),
                            .timeout_ms = 100, .no_record = true };
    struct htest_resp r;

    (void)state;
    htest_do(s, &rq, &r);
    assert_int_equal(r.status, 0);      /* the client gave up */
    htest_resp_free(&r);
    /* The hang-up cancels the job; the worker is free again. */
    assert_int_equal(htest_post(s, "/v1/solve", EASY, &r), 0);
    assert_int_equal(r.status, 200);
    htest_resp_free(&r);
    http_server_destroy(s);
}

static void test_graceful_shutdown(void **state)
{
    http_server *s = start_with(1, 4, 5000);
    struct call running, queued;
    struct htest_resp r;
    json_t *p;

    (void)state;
    call_start(&running, s, "/v1/solve", SLOW(700));
    wait_busy(s, "puzzled_workers_busy 1");
    call_start(&queued, s, "/v1/solve", SLOW(700));
    wait_busy(s, "puzzled_queue_depth 1");
    http_server_shutdown(s);
    call_join(&running);
    call_join(&queued);
    /* In flight: finished within the grace period, answer delivered. */
    assert_int_equal(running.resp.status, 200);
    assert_string_equal(status_of(&running.resp), "timeout");
    /* Waiting: cancelled through its flag, told to come back. */
    p = htest_problem(&queued.resp, 503, "shutting-down");
    json_decref(p);
    assert_true(queued.ended_ms - queued.started_ms < 1500);
    htest_resp_free(&running.resp);
    htest_resp_free(&queued.resp);
    /* No longer accepting. */
    {
        struct htest_req rq = { .path = "/livez", .timeout_ms = 1000 };

        htest_do(s, &rq, &r);
        assert_int_equal(r.status, 0);
        htest_resp_free(&r);
    }
    http_server_destroy(s);
}

static void *shutdown_main(void *arg)
{
    http_server_shutdown(arg);
    return NULL;
}

/*
 * A connection opened while the server drains gets the 503
 * shutting-down as the answer to its request, after reading it, and
 * nothing before. Defect: the 503 was written on accept, before any
 * request; nginx took it for the answer to the request it was about to
 * send, retried on another instance, and gave its client that
 * instance's 200 body under the 503 status (tests/scripts/nginx_lb.sh
 * failed so about one run in twenty).
 */
static bool draining(void *s)
{
    return htest_draining(s);
}

static bool two_held(void *s)
{
    return htest_connections(s) >= 2;
}

static void test_drain_answers_new_connections_after_request(void **state)
{
    static const char body[] = "{\"board\": \"8 6 7 2 5 4 3 0 1\"}";
    http_server *s = start_with(1, 4, 5000);
    struct htest_req rq = { .method = "POST", .path = "/v1/solve",
                            .no_record = true };
    struct htest_resp r;
    struct call running;
    pthread_t stopper;
    char req[256], buf[64];
    int fd, len;

    (void)state;
    call_start(&running, s, "/v1/solve", SLOW(700));
    wait_busy(s, "puzzled_workers_busy 1");
    assert_int_equal(pthread_create(&stopper, NULL, shutdown_main, s), 0);
    assert_true(wait_until(draining, s, 5000));  /* the solve runs 700 ms */
    fd = htest_raw_open(s);
    assert_true(fd >= 0);
    /* Held (the solve's connection and this one): anything the server
     * wrote on accept is on the socket by then (loopback). */
    assert_true(wait_until(two_held, s, 5000));
    assert_true(recv(fd, buf, sizeof(buf), MSG_DONTWAIT) < 0);
    assert_true(errno == EAGAIN || errno == EWOULDBLOCK);
    len = snprintf(req, sizeof(req), "POST /v1/solve HTTP/1.1\r\nHost: t\r\n"
                   "Content-Type: application/json\r\nContent-Length: %zu"
                   "\r\n\r\n%s", sizeof(body) - 1, body);
    htest_raw_on(fd, &rq, req, (size_t)len, &r);
    close(fd);
    assert_int_equal(r.status, 503);
    assert_non_null(strstr(r.body, "problems/shutting-down"));
    assert_non_null(htest_header(&r, "Connection", buf, sizeof(buf)));
    assert_string_equal(buf, "close");
    htest_resp_free(&r);
    pthread_join(stopper, NULL);
    call_join(&running);
    assert_int_equal(running.resp.status, 200);
    htest_resp_free(&running.resp);
    http_server_destroy(s);
}

struct flood {
    http_server *srv;
    atomic_int stop;
    pthread_t thread[4];
};

/* Keep opening connections (64 held at a time, the oldest closed): the
 * daemon sits at its connection limit. */
static void *flood_main(void *arg)
{
    struct flood *f = arg;
    int fds[64];
    unsigned at = 0;

    for (unsigned i = 0; i < 64; i++)
        fds[i] = -1;
    while (!atomic_load(&f->stop)) {
        if (fds[at % 64] >= 0)
            close(fds[at % 64]);
        fds[at % 64] = htest_raw_open(f->srv);
        at++;
    }
    for (unsigned i = 0; i < 64; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    return NULL;
}

/* Shutting down while connections pour in at the daemon's limit. On a
 * fresh machine this aborted inside libmicrohttpd ("Failed to remove
 * listen FD from epoll set"): MHD_quiesce_daemon, called from the
 * shutting-down thread, raced the daemon's epoll thread, which takes
 * the listen socket out of its epoll set at the limit (seen here once
 * in 11 runs of 20 rounds before the fix: a rare race, so this loop is
 * a guard more than a proof). */
static void test_shutdown_at_connection_limit(void **state)
{
    struct http_config c;

    (void)state;
    htest_config(&c);
    c.max_connections = 4;      /* MHD's own limit: 4 + 1 + 16 */
    for (int round = 0; round < 10; round++) {
        struct flood f = { .srv = htest_start(&c) };

        for (int i = 0; i < 4; i++)
            assert_int_equal(pthread_create(&f.thread[i], NULL, flood_main,
                                            &f), 0);
        /* The flood's head start, a little longer each round: the race
         * is in time, so the shutdown is meant to land at different
         * moments of it (a sleep by design). */
        usleep(20000 + 1000 * round);
        http_server_shutdown(f.srv);
        atomic_store(&f.stop, 1);
        for (int i = 0; i < 4; i++)
            pthread_join(f.thread[i], NULL);
        http_server_destroy(f.srv);
    }
}

static void test_shutdown_grace_expires(void **state)
{
    http_server *s = start_with(1, 4, 200);
    struct call running;
    double t0;

    (void)state;
    call_start(&running, s, "/v1/solve", SLOW(5000));
    wait_busy(s, "puzzled_workers_busy 1");
    t0 = wait_now_ms();
    http_server_shutdown(s);
    assert_true(wait_now_ms() - t0 < 2000);
    call_join(&running);
    json_decref(htest_problem(&running.resp, 503, "shutting-down"));
    htest_resp_free(&running.resp);
    http_server_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_clients),
        cmocka_unit_test(test_slow_solve_does_not_block_fast),
        cmocka_unit_test(test_parallel_4x4_share_tables),
        cmocka_unit_test(test_queue_overflow_503),
        cmocka_unit_test(test_abandoned_request),
        cmocka_unit_test(test_graceful_shutdown),
        cmocka_unit_test(test_shutdown_grace_expires),
        cmocka_unit_test(test_drain_answers_new_connections_after_request),
        cmocka_unit_test(test_shutdown_at_connection_limit),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
