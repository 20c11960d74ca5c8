/*
 * test_jobs.c - the job registry without HTTP: the life cycle of a job,
 * cancelling a running one (latency, and its worker free again) and a
 * queued one, the queue and job_max caps, TTL expiry, ids (random,
 * unguessable, malformed ones unknown), shutdown with running and queued
 * jobs, many threads at once (run under ThreadSanitizer by make
 * test-tsan), and the Server-Sent Events framing.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "jobs.h"
#include "jobs_sse.h"

/* Korf's #88: 65 moves, seconds of IDA* + linear conflict even on an idle
 * machine (#1 takes ~0.1 s: too quick to watch or cancel). */
#define KORF88 "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4"
#define KORF_GOAL "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
#define HARD3 "8 6 7 2 5 4 3 0 1"

static struct http_solve_request request(const char *board, bool long_one)
{
    struct http_solve_request q;
    char msg[PUZ_MSG_MAX];

    memset(&q, 0, sizeof(q));
    if (puz_board_parse(board, &q.board, msg) != PUZ_OK)
        fail_msg("bad board %s: %s", board, msg);
    q.algorithm = long_one ? PUZ_ALG_IDASTAR : PUZ_ALG_ASTAR;
    if (long_one) {
        q.has_goal = true;
        puz_board_parse(KORF_GOAL, &q.goal, msg);
        /* with linear conflict IDA* now solves it in ~0.15 s */
        q.heuristic = puz_heuristic_find("manhattan");
    }
    q.timeout_ms = 60000;
    return q;
}

static jobs_t *start(unsigned workers, unsigned queue, unsigned max,
                     unsigned ttl_s)
{
    struct jobs_config c = { workers, queue, ttl_s, max, 64u << 20, NULL };
    jobs_t *j = NULL;

    assert_int_equal(jobs_create(&c, &j), JOBS_OK);
    return j;
}

/* Poll until the job is in state s (or final), at most ms. */
static enum jobs_state wait_state(jobs_t *j, jobs_job *job,
                                  enum jobs_state s, unsigned ms)
{
    struct jobs_snap snap;

    for (unsigned waited = 0;; waited += 2) {
        jobs_snapshot(j, job, &snap);
        if (snap.state == s || jobs_state_final(snap.state) || waited >= ms)
            return snap.state;
        usleep(2000);
    }
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s != NULL ? s : "";
}

static void test_life_cycle(void **state)
{
    jobs_t *j = start(1, 4, 10, 60);
    struct http_solve_request q = request(HARD3, false);
    jobs_job *job = NULL;
    json_t *o, *res;

    (void)state;
    assert_int_equal(jobs_submit(j, &q, &job, NULL), JOBS_OK);
    assert_non_null(job);
    assert_int_equal(wait_state(j, job, JOBS_DONE, 10000), JOBS_DONE);
    o = jobs_job_json(j, job, NULL);
    assert_string_equal(str(o, "state"), "done");
    assert_string_equal(str(o, "id"), jobs_id(job));
    assert_true(strlen(str(o, "created_at")) == 24);
    assert_true(str(o, "finished_at")[23] == 'Z');
    res = json_object_get(o, "result");
    assert_string_equal(str(res, "status"), "solved");
    assert_int_equal(json_integer_value(json_object_get(res, "length")), 31);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(o, "progress"), "best_length")), 31);
    json_decref(o);
    /* Cancelling a finished job changes nothing; forgetting removes it. */
    assert_int_equal(jobs_cancel(j, job, "x", 10), JOBS_EFINISHED);
    jobs_forget(j, job);
    assert_null(jobs_find(j, jobs_id(job)));
    jobs_release(j, job);
    jobs_destroy(j);
}

static void test_cancel_running_frees_worker(void **state)
{
    jobs_t *j = start(1, 4, 10, 60);
    struct http_solve_request slow = request(KORF88, true);
    struct http_solve_request quick = request(HARD3, false);
    jobs_job *job = NULL, *next = NULL;
    json_t *o;
    uint64_t t0, took;

    (void)state;
    assert_int_equal(jobs_submit(j, &slow, &job, NULL), JOBS_OK);
    assert_int_equal(wait_state(j, job, JOBS_RUNNING, 5000), JOBS_RUNNING);
    usleep(300000);     /* a few progress reports in */
    o = jobs_progress_json(j, job, NULL);
    assert_string_equal(str(o, "state"), "running");
    assert_true(json_integer_value(json_object_get(o, "expanded")) > 0);
    assert_true(json_integer_value(json_object_get(o, "bound")) >= 41);
    json_decref(o);
    t0 = puz_now_us();
    assert_int_equal(jobs_cancel(j, job, "cancelled by the client", 2000),
                     JOBS_OK);
    took = puz_now_us() - t0;
    printf("cancel latency: %.1f ms\n", (double)took / 1000);
    o = jobs_job_json(j, job, NULL);
    assert_string_equal(str(o, "state"), "cancelled");
    assert_string_equal(str(o, "reason"), "cancelled by the client");
    json_decref(o);
    /* 100 ms is the promise; a loaded machine gets slack here. */
    assert_true(took < 500000u);
    /* The only worker is free again. */
    assert_int_equal(jobs_submit(j, &quick, &next, NULL), JOBS_OK);
    assert_int_equal(wait_state(j, next, JOBS_DONE, 5000), JOBS_DONE);
    jobs_release(j, next);
    jobs_release(j, job);
    jobs_destroy(j);
}

static void test_cancel_queued_and_caps(void **state)
{
    jobs_t *j = start(1, 1, 10, 60);
    struct http_solve_request slow = request(KORF88, true);
    jobs_job *a = NULL, *b = NULL, *c = NULL;
    struct jobs_stats st;

    (void)state;
    assert_int_equal(jobs_submit(j, &slow, &a, NULL), JOBS_OK);
    assert_int_equal(wait_state(j, a, JOBS_RUNNING, 5000), JOBS_RUNNING);
    assert_int_equal(jobs_submit(j, &slow, &b, NULL), JOBS_OK);
    assert_int_equal(jobs_submit(j, &slow, &c, NULL), JOBS_EFULL);   /* queue */
    assert_null(c);
    assert_int_equal(jobs_cancel(j, b, "changed my mind", 10), JOBS_OK);
    assert_int_equal(wait_state(j, b, JOBS_CANCELLED, 10),
                     JOBS_CANCELLED);
    jobs_get_stats(j, &st);
    assert_int_equal(st.by_state[JOBS_RUNNING], 1);
    assert_int_equal(st.by_state[JOBS_CANCELLED], 1);
    assert_int_equal(st.rejected, 1);
    jobs_cancel(j, a, "end of test", 2000);
    jobs_release(j, a);
    jobs_release(j, b);
    jobs_destroy(j);
}

static void test_max_forgets_oldest_finished(void **state)
{
    jobs_t *j = start(1, 4, 2, 60);
    struct http_solve_request q = request(HARD3, false);
    struct http_solve_request slow = request(KORF88, true);
    jobs_job *a, *b, *c, *d, *e;
    char first[JOBS_ID_LEN + 1];

    (void)state;
    assert_int_equal(jobs_submit(j, &q, &a, NULL), JOBS_OK);
    wait_state(j, a, JOBS_DONE, 10000);
    snprintf(first, sizeof(first), "%s", jobs_id(a));
    assert_int_equal(jobs_submit(j, &q, &b, NULL), JOBS_OK);
    wait_state(j, b, JOBS_DONE, 10000);
    assert_int_equal(jobs_submit(j, &slow, &c, NULL), JOBS_OK);  /* a goes */
    assert_null(jobs_find(j, first));
    d = jobs_find(j, jobs_id(b));
    assert_non_null(d);
    jobs_release(j, d);
    assert_int_equal(jobs_submit(j, &slow, &d, NULL), JOBS_OK);  /* b goes */
    /* Two jobs held, neither finished: no room. */
    assert_int_equal(jobs_submit(j, &slow, &e, NULL), JOBS_EFULL);
    /* a is still readable through the reference the test holds. */
    assert_string_equal(jobs_id(a), first);
    jobs_release(j, a);
    jobs_release(j, b);
    jobs_release(j, c);
    jobs_release(j, d);
    jobs_destroy(j);
}

static void test_ttl_expiry(void **state)
{
    jobs_t *j = start(1, 4, 10, 1);
    struct http_solve_request q = request(HARD3, false);
    jobs_job *a, *found;
    char id[JOBS_ID_LEN + 1];

    (void)state;
    assert_int_equal(jobs_submit(j, &q, &a, NULL), JOBS_OK);
    wait_state(j, a, JOBS_DONE, 10000);
    snprintf(id, sizeof(id), "%s", jobs_id(a));
    jobs_release(j, a);
    found = jobs_find(j, id);
    assert_non_null(found);
    jobs_release(j, found);
    usleep(1100000);
    assert_null(jobs_find(j, id));
    jobs_destroy(j);
}

static void test_ids(void **state)
{
    jobs_t *j = start(1, 16, 20, 60);
    struct http_solve_request q = request(HARD3, false);
    jobs_job *a, *b, *f;
    char upper[JOBS_ID_LEN + 1], huge[5000];

    (void)state;
    assert_int_equal(jobs_submit(j, &q, &a, NULL), JOBS_OK);
    assert_int_equal(jobs_submit(j, &q, &b, NULL), JOBS_OK);
    assert_int_equal(strlen(jobs_id(a)), 32);
    assert_int_equal(strspn(jobs_id(a), "0123456789abcdef"), 32);
    assert_string_not_equal(jobs_id(a), jobs_id(b));
    f = jobs_find(j, jobs_id(a));
    assert_ptr_equal(f, a);
    jobs_release(j, f);
    for (size_t i = 0; i <= JOBS_ID_LEN; i++)
        upper[i] = (char)(i < JOBS_ID_LEN ? 'A' : '\0');
    memset(huge, 'a', sizeof(huge) - 1);
    huge[sizeof(huge) - 1] = '\0';
    assert_null(jobs_find(j, upper));
    assert_null(jobs_find(j, huge));
    assert_null(jobs_find(j, ""));
    assert_null(jobs_find(j, "00000000000000000000000000000000"));
    assert_null(jobs_find(j, "../etc/passwd"));
    jobs_release(j, a);
    jobs_release(j, b);
    jobs_destroy(j);
}

static void test_shutdown_cancels_everything(void **state)
{
    jobs_t *j = start(1, 4, 10, 60);
    struct http_solve_request slow = request(KORF88, true);
    jobs_job *a, *b;
    json_t *o;
    uint64_t seen = 0, t0;

    (void)state;
    assert_int_equal(jobs_submit(j, &slow, &a, NULL), JOBS_OK);
    assert_int_equal(jobs_submit(j, &slow, &b, NULL), JOBS_OK);
    wait_state(j, a, JOBS_RUNNING, 5000);
    jobs_wait_change(j, &seen, 0);
    t0 = puz_now_us();
    jobs_shutdown(j, "the server is shutting down");
    assert_true(puz_now_us() - t0 < 1000000u);
    jobs_wait_change(j, &seen, 10);     /* something changed: no wait */
    for (jobs_job **p = (jobs_job *[]){ a, b, NULL }; *p != NULL; p++) {
        o = jobs_job_json(j, *p, NULL);
        assert_string_equal(str(o, "state"), "cancelled");
        assert_string_equal(str(o, "reason"), "the server is shutting "
                            "down");
        assert_false(json_is_null(json_object_get(o, "finished_at")));
        json_decref(o);
    }
    {
        jobs_job *c = NULL;
        assert_int_equal(jobs_submit(j, &slow, &c, NULL), JOBS_ECLOSED);
        assert_null(c);
    }
    jobs_release(j, a);
    jobs_release(j, b);
    jobs_destroy(j);
}

struct hammer {
    jobs_t *j;
    unsigned seed;
};

/* Submit, look up, read, list and cancel from many threads at once. */
static void *hammer(void *arg)
{
    struct hammer *h = arg;
    struct http_solve_request q = request(HARD3, false);
    struct http_solve_request slow = request(KORF88, true);

    for (unsigned i = 0; i < 20; i++) {
        jobs_job *job = NULL, *f;
        bool is_slow = (i + h->seed) % 5 == 0;
        if (jobs_submit(h->j, is_slow ? &slow : &q, &job, NULL) != JOBS_OK)
            continue;
        f = jobs_find(h->j, jobs_id(job));
        json_decref(jobs_job_json(h->j, job, NULL));
        json_decref(jobs_list_json(h->j, -1, 10));
        if (is_slow || i % 3 == 0)
            jobs_cancel(h->j, job, "hammer", 1000);
        jobs_release(h->j, f);
        jobs_release(h->j, job);
    }
    return NULL;
}

static void test_many_threads(void **state)
{
    jobs_t *j = start(2, 64, 50, 60);
    pthread_t t[6];
    struct hammer h[6];
    struct jobs_stats st;
    json_t *list;

    (void)state;
    for (unsigned i = 0; i < 6; i++) {
        h[i].j = j;
        h[i].seed = i;
        pthread_create(&t[i], NULL, hammer, &h[i]);
    }
    for (unsigned i = 0; i < 6; i++)
        pthread_join(t[i], NULL);
    jobs_get_stats(j, &st);
    assert_true(st.submitted > 0);
    list = jobs_list_json(j, jobs_state_parse("cancelled"), 5);
    assert_true(json_array_size(json_object_get(list, "jobs")) <= 5);
    json_decref(list);
    assert_int_equal(jobs_state_parse("nope"), -1);
    jobs_destroy(j);
}

static void test_sse_framing(void **state)
{
    char buf[256];
    size_t len = 0;

    (void)state;
    assert_int_equal(jobs_sse_retry(buf, sizeof(buf), &len, 2000), 0);
    assert_int_equal(jobs_sse_event(buf, sizeof(buf), &len, 7, "progress",
                                    "{\"a\":1}"), 0);
    assert_int_equal(jobs_sse_comment(buf, sizeof(buf), &len, "hb\nx"), 0);
    assert_int_equal(jobs_sse_event(buf, sizeof(buf), &len, 8, "done",
                                    "one\ntwo\r\nthree\rfour"), 0);
    buf[len] = '\0';
    assert_string_equal(buf, "retry: 2000\n\n"
                        "id: 7\nevent: progress\ndata: {\"a\":1}\n\n"
                        ": hb x\n\n"
                        "id: 8\nevent: done\ndata: one\ndata: two\n"
                        "data: three\ndata: four\n\n");
    /* Too long: nothing written, -1. */
    len = 250;
    assert_int_equal(jobs_sse_event(buf, sizeof(buf), &len, 9, "progress",
                                    "{\"more\":\"than fits\"}"), -1);
    assert_int_equal(len, 250);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_life_cycle),
        cmocka_unit_test(test_cancel_running_frees_worker),
        cmocka_unit_test(test_cancel_queued_and_caps),
        cmocka_unit_test(test_max_forgets_oldest_finished),
        cmocka_unit_test(test_ttl_expiry),
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_shutdown_cancels_everything),
        cmocka_unit_test(test_many_threads),
        cmocka_unit_test(test_sse_framing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
