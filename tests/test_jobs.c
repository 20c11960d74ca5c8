/*
 * test_jobs.c - the job registry without HTTP or the solver (a task of
 * the test's own): the life cycle of a job, cancelling a running one
 * (latency, and its worker free again) and a queued one, the queue,
 * job_max and results-bytes caps, TTL expiry, ids (random,
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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/clock.h"
#include "jobs.h"
#include "http_sse.h"
#include "support/idem_race.h"

/* A task of the test's own: runs ms milliseconds (forever when 0) in
 * 1 ms steps, watching its cancel flag and reporting progress, then
 * answers len bytes of 'x' (failed: fails instead). The registry is
 * tested on its own; what the API runs is tested in test_api_jobs.c. */
struct fake {
    unsigned ms;
    size_t len;
    bool fail;
};

static void fake_run(void *arg, const struct jobs_run *run,
                     struct jobs_outcome *out)
{
    const struct fake *f = arg;
    struct puz_progress p = { 0 };

    for (unsigned t = 0; f->ms == 0 || t < f->ms; t++) {
        if (atomic_load(run->cancel)) {
            out->state = JOBS_CANCELLED;
            return;
        }
        p.expanded = t + 1;
        p.bound = 41;
        if (t % 10 == 0)
            jobs_run_progress(run, &p);
        usleep(1000);       /* the fake work's pace (f->ms of it), not a
                             * wait for anything */
    }
    out->state = f->fail ? JOBS_FAILED : JOBS_DONE;
    out->body = malloc(f->len + 1);
    memset(out->body, 'x', f->len);
    out->len = f->len;
}

static puz_err submit(jobs_t *j, unsigned ms, size_t len, jobs_job **out)
{
    struct fake *f = calloc(1, sizeof(*f));
    struct jobs_task t = { fake_run, free, f, "", "" };
    puz_err rc;

    f->ms = ms;
    f->len = len;
    rc = jobs_submit(j, &t, out);
    if (rc != PUZ_OK)
        free(f);        /* a refused task stays the caller's */
    return rc;
}

static jobs_t *start_with(unsigned workers, unsigned queue, unsigned max,
                          unsigned ttl_s, size_t results_max)
{
    struct jobs_config c = { .workers = workers, .queue = queue,
                             .ttl_s = ttl_s, .max = max,
                             .results_max_bytes = results_max };
    jobs_t *j = NULL;

    assert_int_equal(jobs_create(&c, &j), PUZ_OK);
    return j;
}

static jobs_t *start(unsigned workers, unsigned queue, unsigned max,
                     unsigned ttl_s)
{
    return start_with(workers, queue, max, ttl_s, 0);
}

/* Wait on the registry's change signal until the job is in state s (or
 * final), at most ms. */
static enum jobs_state wait_state(jobs_t *j, jobs_job *job,
                                  enum jobs_state s, unsigned ms)
{
    uint64_t until = puz_clock_mono_us() + (uint64_t)ms * 1000u, seen = 0;
    struct jobs_snap snap;

    for (;;) {
        jobs_snapshot(j, job, &snap);
        if (snap.state == s || jobs_state_final(snap.state)
            || puz_clock_mono_us() >= until)
            return snap.state;
        jobs_wait_change(j, &seen, 20);
    }
}

static void view(jobs_t *j, jobs_job *job, struct jobs_view *v)
{
    jobs_view_get(j, job, v);
}

static void test_life_cycle(void **state)
{
    jobs_t *j = start(1, 4, 10, 60);
    jobs_job *job = NULL;
    struct jobs_view v;
    struct jobs_stats st;

    (void)state;
    assert_int_equal(submit(j, 30, 5, &job), PUZ_OK);
    assert_non_null(job);
    assert_int_equal(wait_state(j, job, JOBS_DONE, 10000), JOBS_DONE);
    view(j, job, &v);
    assert_int_equal(v.state, JOBS_DONE);
    assert_string_equal(v.id, jobs_id(job));
    assert_true(v.created_ms > 0 && v.started_ms >= v.created_ms
                && v.finished_ms >= v.started_ms);
    assert_true(v.elapsed_us >= 30000);
    assert_int_equal(v.len, 5);
    assert_memory_equal(v.body, "xxxxx", 5);
    assert_true(v.progress.expanded >= 21);     /* the report at t = 20 */
    jobs_get_stats(j, &st);
    assert_int_equal(st.results_bytes, 5);
    /* Cancelling a finished job changes nothing; forgetting removes it
     * and its bytes. */
    assert_int_equal(jobs_cancel(j, job, "x", 10), PUZ_EFINISHED);
    jobs_forget(j, job);
    assert_null(jobs_find(j, jobs_id(job)));
    jobs_get_stats(j, &st);
    assert_int_equal(st.results_bytes, 0);
    jobs_release(j, job);
    jobs_destroy(j);
}

static void test_cancel_running_frees_worker(void **state)
{
    jobs_t *j = start(1, 4, 10, 60);
    jobs_job *job = NULL, *next = NULL;
    struct jobs_view v;
    uint64_t t0, took, seen = 0;

    (void)state;
    assert_int_equal(submit(j, 0, 0, &job), PUZ_OK);
    assert_int_equal(wait_state(j, job, JOBS_RUNNING, 5000), JOBS_RUNNING);
    do {                /* a progress report in */
        jobs_wait_change(j, &seen, 50);
        view(j, job, &v);
    } while (v.progress.expanded == 0);
    assert_int_equal(v.state, JOBS_RUNNING);
    assert_int_equal(v.progress.bound, 41);
    t0 = puz_clock_mono_us();
    assert_int_equal(jobs_cancel(j, job, "cancelled by the client", 2000),
                     PUZ_OK);
    took = puz_clock_mono_us() - t0;
    view(j, job, &v);
    assert_int_equal(v.state, JOBS_CANCELLED);
    assert_string_equal(v.reason, "cancelled by the client");
    assert_null(v.body);
    assert_true(took < 500000u);    /* the task looks every 1 ms */
    /* The only worker is free again. */
    assert_int_equal(submit(j, 1, 1, &next), PUZ_OK);
    assert_int_equal(wait_state(j, next, JOBS_DONE, 5000), JOBS_DONE);
    jobs_release(j, next);
    jobs_release(j, job);
    jobs_destroy(j);
}

static void test_cancel_queued_and_caps(void **state)
{
    jobs_t *j = start(1, 1, 10, 60);
    jobs_job *a = NULL, *b = NULL, *c = NULL;
    struct jobs_stats st;

    (void)state;
    assert_int_equal(submit(j, 0, 0, &a), PUZ_OK);
    assert_int_equal(wait_state(j, a, JOBS_RUNNING, 5000), JOBS_RUNNING);
    assert_int_equal(submit(j, 0, 0, &b), PUZ_OK);
    assert_int_equal(submit(j, 0, 0, &c), PUZ_EFULL);   /* queue */
    assert_null(c);
    assert_int_equal(jobs_cancel(j, b, "changed my mind", 10), PUZ_OK);
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
    jobs_job *a, *b, *c, *d, *e;
    char first[JOBS_ID_LEN + 1];

    (void)state;
    assert_int_equal(submit(j, 1, 1, &a), PUZ_OK);
    wait_state(j, a, JOBS_DONE, 10000);
    snprintf(first, sizeof(first), "%s", jobs_id(a));
    assert_int_equal(submit(j, 1, 1, &b), PUZ_OK);
    wait_state(j, b, JOBS_DONE, 10000);
    assert_int_equal(submit(j, 0, 0, &c), PUZ_OK);  /* a goes */
    assert_null(jobs_find(j, first));
    d = jobs_find(j, jobs_id(b));
    assert_non_null(d);
    jobs_release(j, d);
    assert_int_equal(submit(j, 0, 0, &d), PUZ_OK);  /* b goes */
    /* Two jobs held, neither finished: no room. */
    assert_int_equal(submit(j, 0, 0, &e), PUZ_EFULL);
    /* a is still readable through the reference the test holds. */
    assert_string_equal(jobs_id(a), first);
    jobs_release(j, a);
    jobs_release(j, b);
    jobs_release(j, c);
    jobs_release(j, d);
    jobs_destroy(j);
}

/* Answers count against results_max_bytes: the oldest finished jobs go
 * to make room, and an answer larger than the whole budget is not kept
 * (the job ends cancelled, saying why). */
static void test_results_budget(void **state)
{
    jobs_t *j = start_with(1, 4, 100, 60, 1000);
    jobs_job *a, *b, *c, *f;
    char first[JOBS_ID_LEN + 1];
    struct jobs_stats st;
    struct jobs_view v;

    (void)state;
    assert_int_equal(submit(j, 1, 600, &a), PUZ_OK);
    assert_int_equal(wait_state(j, a, JOBS_DONE, 10000), JOBS_DONE);
    snprintf(first, sizeof(first), "%s", jobs_id(a));
    assert_int_equal(submit(j, 1, 600, &b), PUZ_OK);
    assert_int_equal(wait_state(j, b, JOBS_DONE, 10000), JOBS_DONE);
    assert_null(jobs_find(j, first));       /* a made room for b */
    jobs_get_stats(j, &st);
    assert_int_equal(st.results_bytes, 600);
    assert_int_equal(submit(j, 1, 1001, &c), PUZ_OK);
    assert_int_equal(wait_state(j, c, JOBS_CANCELLED, 10000),
                     JOBS_CANCELLED);
    view(j, c, &v);
    assert_non_null(strstr(v.reason, "job_results_max_bytes"));
    f = jobs_find(j, jobs_id(b));           /* b was not sacrificed */
    assert_non_null(f);
    jobs_get_stats(j, &st);
    assert_int_equal(st.results_bytes, 600);
    jobs_release(j, f);
    jobs_release(j, a);
    jobs_release(j, b);
    jobs_release(j, c);
    jobs_destroy(j);
}

static void test_ttl_expiry(void **state)
{
    jobs_t *j = start(1, 4, 10, 1);
    jobs_job *a, *found;
    char id[JOBS_ID_LEN + 1];

    (void)state;
    assert_int_equal(submit(j, 1, 1, &a), PUZ_OK);
    wait_state(j, a, JOBS_DONE, 10000);
    snprintf(id, sizeof(id), "%s", jobs_id(a));
    jobs_release(j, a);
    found = jobs_find(j, id);
    assert_non_null(found);
    jobs_release(j, found);
    /* The TTL (1 s) passes on the clock, not in a sleep: half of it
     * keeps the job, the rest forgets it. */
    puz__clock_advance_us(500000);
    found = jobs_find(j, id);
    assert_non_null(found);
    jobs_release(j, found);
    puz__clock_advance_us(500000);
    assert_null(jobs_find(j, id));
    jobs_destroy(j);
}

/* One Idempotency-Key from 8 threads at once: one job is made, every
 * other submission gets it back (REPLAY, its task left to the caller);
 * another body is MISMATCH; the key outlives nothing: its job expired
 * (ttl 1 s), the key makes a new job. */
static void *idem_submit(void *arg)
{
    struct idem_race *r = arg;
    struct fake *f = calloc(1, sizeof(*f));
    struct jobs_task t = { fake_run, free, f, "", "" };
    jobs_job *job = NULL;

    f->ms = 1;
    pthread_barrier_wait(r->go);
    assert_int_equal(jobs_submit_idem(r->q, &t, r->idem, &job, &r->found),
                     PUZ_OK);
    if (r->found != JOBS_IDEM_NEW)
        free(f);        /* nothing made: the task stays ours */
    snprintf(r->id, sizeof(r->id), "%s", job != NULL ? jobs_id(job) : "");
    jobs_release(r->q, job);
    return NULL;
}

static void test_idem_one_job_for_one_key(void **state)
{
    jobs_t *j = start(1, 16, 16, 1);
    struct jobs_idem idem = { "", "" }, other;
    struct idem_race r[8];
    pthread_t t[8];
    pthread_barrier_t go;
    struct jobs_stats st;
    jobs_job *job;
    unsigned made = 0;

    (void)state;
    memset(idem.key, 'a', JOBS_IDEM_LEN);
    memset(idem.body, 'b', JOBS_IDEM_LEN);
    pthread_barrier_init(&go, NULL, 8);
    for (unsigned i = 0; i < 8; i++) {
        r[i] = (struct idem_race){ j, &idem, &go, JOBS_IDEM_MISMATCH, "" };
        pthread_create(&t[i], NULL, idem_submit, &r[i]);
    }
    for (unsigned i = 0; i < 8; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&go);
    for (unsigned i = 0; i < 8; i++) {
        made += r[i].found == JOBS_IDEM_NEW;
        assert_int_not_equal(r[i].found, JOBS_IDEM_MISMATCH);
        assert_string_equal(r[i].id, r[0].id);
    }
    assert_int_equal(made, 1);
    jobs_get_stats(j, &st);
    assert_int_equal(st.submitted, 1);
    other = idem;
    other.body[0] = 'c';
    assert_int_equal(jobs_find_idem(j, &other, &job), JOBS_IDEM_MISMATCH);
    assert_null(job);
    assert_int_equal(jobs_find_idem(j, &idem, &job), JOBS_IDEM_REPLAY);
    wait_state(j, job, JOBS_DONE, 10000);
    jobs_release(j, job);
    usleep(1100000);    /* the TTL (1 s) must elapse: the test itself */
    assert_int_equal(jobs_find_idem(j, &idem, &job), JOBS_IDEM_NEW);
    assert_null(job);
    jobs_destroy(j);
}

static void test_ids(void **state)
{
    jobs_t *j = start(1, 16, 20, 60);
    jobs_job *a, *b, *f;
    char upper[JOBS_ID_LEN + 1], huge[5000];

    (void)state;
    assert_int_equal(submit(j, 1, 1, &a), PUZ_OK);
    assert_int_equal(submit(j, 1, 1, &b), PUZ_OK);
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
    jobs_job *a, *b, *c = NULL;
    struct jobs_view v;
    uint64_t seen = 0, t0;

    (void)state;
    assert_int_equal(submit(j, 0, 0, &a), PUZ_OK);
    assert_int_equal(submit(j, 0, 0, &b), PUZ_OK);
    wait_state(j, a, JOBS_RUNNING, 5000);
    jobs_wait_change(j, &seen, 0);
    t0 = puz_clock_mono_us();
    jobs_shutdown(j, "the server is shutting down");
    assert_true(puz_clock_mono_us() - t0 < 1000000u);
    jobs_wait_change(j, &seen, 10);     /* something changed: no wait */
    for (jobs_job **p = (jobs_job *[]){ a, b, NULL }; *p != NULL; p++) {
        view(j, *p, &v);
        assert_int_equal(v.state, JOBS_CANCELLED);
        assert_string_equal(v.reason, "the server is shutting down");
        assert_true(v.finished_ms != 0);
    }
    assert_int_equal(submit(j, 0, 0, &c), PUZ_ECLOSED);
    assert_null(c);
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
    struct jobs_view v[10];

    for (unsigned i = 0; i < 20; i++) {
        jobs_job *job = NULL, *f;
        bool is_slow = (i + h->seed) % 5 == 0;
        if (submit(h->j, is_slow ? 0 : 2, 10, &job) != PUZ_OK)
            continue;
        f = jobs_find(h->j, jobs_id(job));
        jobs_view_get(h->j, job, &v[0]);
        jobs_list(h->j, -1, NULL, v, 10);
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
    struct jobs_view v[5];

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
    assert_true(jobs_list(j, jobs_state_parse("cancelled"), NULL, v, 5) <= 5);
    assert_int_equal(jobs_state_parse("nope"), -1);
    jobs_destroy(j);
}

static void test_sse_framing(void **state)
{
    char buf[256];
    size_t len = 0;

    (void)state;
    assert_int_equal(http_sse_retry(buf, sizeof(buf), &len, 2000), 0);
    assert_int_equal(http_sse_event(buf, sizeof(buf), &len, 7, "progress",
                                    "{\"a\":1}"), 0);
    assert_int_equal(http_sse_comment(buf, sizeof(buf), &len, "hb\nx"), 0);
    assert_int_equal(http_sse_event(buf, sizeof(buf), &len, 8, "done",
                                    "one\ntwo\r\nthree\rfour"), 0);
    buf[len] = '\0';
    assert_string_equal(buf, "retry: 2000\n\n"
                        "id: 7\nevent: progress\ndata: {\"a\":1}\n\n"
                        ": hb x\n\n"
                        "id: 8\nevent: done\ndata: one\ndata: two\n"
                        "data: three\ndata: four\n\n");
    /* Too long: nothing written, -1. */
    len = 250;
    assert_int_equal(http_sse_event(buf, sizeof(buf), &len, 9, "progress",
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
        cmocka_unit_test(test_results_budget),
        cmocka_unit_test(test_ttl_expiry),
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_idem_one_job_for_one_key),
        cmocka_unit_test(test_shutdown_cancels_everything),
        cmocka_unit_test(test_many_threads),
        cmocka_unit_test(test_sse_framing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
