/*
 * test_jobsvc.c - the jobs service's interface (jobsvc.h) over its
 * embedded backend, with a run function of the test's own (the body is
 * "ms,len": run ms milliseconds, watching the cancel flag, then answer
 * len bytes): the request's bytes reach the worker, a submission's view,
 * its trace id kept, a refusal worded by the backend, the owner's cap, an Idempotency-Key's
 * replay and mismatch, find and list, a cancel then a forget, malformed
 * ids asked of nobody, and the events a stream reads (snapshots whose
 * cursor is the job's version). The shared backend answers the same
 * calls in test_jobq (jobq itself) and over HTTP in shared_jobs.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "jobsvc.h"
#include "support/wait.h"

/* What the run function saw last: the bytes, for the test to compare. */
static char seen_body[64];

static void fake_run(void *user, const char *body, size_t len,
                     const struct jobsvc_run *run, struct jobs_outcome *out)
{
    struct puz_progress p = { 0 };
    unsigned ms = 0, n = 0;

    (void)user;
    snprintf(seen_body, sizeof(seen_body), "%.*s", (int)len, body);
    sscanf(seen_body, "%u,%u", &ms, &n);
    for (unsigned t = 0; ms == 0 || t < ms; t++) {
        if (atomic_load(run->cancel)) {
            out->state = JOBS_CANCELLED;
            return;
        }
        p.expanded = t + 1;
        if (t % 10 == 0)
            jobsvc_run_progress(run, &p);
        usleep(1000);       /* the fake work's pace, not a wait */
    }
    out->state = JOBS_DONE;
    out->body = malloc(n + 1);
    memset(out->body, 'x', n);
    out->len = n;
}

static jobsvc *start(unsigned queue, unsigned max)
{
    struct jobs_config c = { .workers = 1, .queue = queue, .ttl_s = 3600,
                             .max = max, .results_max_bytes = 1u << 20 };
    jobsvc *s = NULL;

    assert_int_equal(jobsvc_create_embedded(&c, fake_run, NULL, &s),
                     PUZ_OK);
    assert_string_equal(jobsvc_backend(s), "embedded");
    assert_false(jobsvc_may_block(s));
    return s;
}

/* The trace id every job here is submitted with (W3C's example). */
#define TRACE "4bf92f3577b34da6a3ce929d0e0e4736"

/* Submit body as owner (cap: its jobs at most) with key (NULL: none). */
static puz_err submit(jobsvc *s, const char *body, const char *owner,
                      unsigned cap, const struct jobs_idem *idem,
                      struct jobsvc_job *job, enum jobs_idem_found *found,
                      char *msg)
{
    const struct jobsvc_submit a = { body, strlen(body), owner, cap, idem,
                                     TRACE };

    return jobsvc_submit(s, &a, job, found, msg);
}

/* Submit body, expecting a new job; its id into id. */
static void submit_new(jobsvc *s, const char *body, char *id)
{
    struct jobsvc_job job;
    enum jobs_idem_found found;
    char msg[JOBSVC_MSG_MAX];

    assert_int_equal(submit(s, body, "", 0, NULL, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_NEW);
    memcpy(id, job.v.id, JOBS_ID_LEN + 1);
    jobsvc_job_release(s, &job);
}

struct want {
    jobsvc *s;
    const char *id;
    enum jobs_state state;
};

static bool in_state(void *arg)
{
    const struct want *w = arg;
    struct jobsvc_job job;
    char msg[JOBSVC_MSG_MAX];
    bool found = false, ok;

    assert_int_equal(jobsvc_find(w->s, w->id, false, &job, &found, msg),
                     PUZ_OK);
    ok = found && job.v.state == w->state;
    jobsvc_job_release(w->s, &job);
    return ok;
}

static void test_submit_runs_the_bytes(void **state)
{
    jobsvc *s = start(4, 8);
    struct want w = { s, NULL, JOBS_DONE };
    struct jobsvc_job job;
    struct jobs_view v[4];
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];
    bool found = false;
    size_t n = 0;

    (void)state;
    submit_new(s, "5,3", id);
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    assert_string_equal(seen_body, "5,3");
    assert_int_equal(jobsvc_find(s, id, true, &job, &found, msg), PUZ_OK);
    assert_true(found);
    assert_int_equal(job.v.len, 3);
    assert_memory_equal(job.v.body, "xxx", 3);
    assert_string_equal(job.v.trace, TRACE);    /* kept with the job */
    jobsvc_job_release(s, &job);
    assert_int_equal(jobsvc_list(s, -1, NULL, v, 4, &n, msg), PUZ_OK);
    assert_int_equal(n, 1);
    assert_string_equal(v[0].id, id);
    assert_null(v[0].body);     /* a list never carries answers */
    jobsvc_destroy(s);
}

static void test_refusals_worded(void **state)
{
    jobsvc *s = start(1, 8);
    struct want w = { s, NULL, JOBS_RUNNING };
    struct jobsvc_job job;
    enum jobs_idem_found found;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];

    (void)state;
    submit_new(s, "0,0", id);       /* runs until cancelled */
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(submit(s, "0,0", "alice", 1, NULL, &job, &found, msg),
                     PUZ_OK);
    jobsvc_job_release(s, &job);
    /* alice's one job is queued: her cap, worded by the caller */
    assert_int_equal(submit(s, "0,0", "alice", 1, NULL, &job, &found, msg),
                     PUZ_ELIMITED);
    /* the queue (1) is full: the backend says why */
    assert_int_equal(submit(s, "0,0", "", 0, NULL, &job, &found, msg),
                     PUZ_EFULL);
    assert_string_equal(msg, "1 job workers are busy and 1 jobs are "
                        "waiting (or 8 are held); retry after the delay "
                        "in Retry-After");
    jobsvc_shutdown(s, "test over");
    assert_int_equal(submit(s, "0,0", "", 0, NULL, &job, &found, msg),
                     PUZ_ECLOSED);
    assert_string_equal(msg, "no new jobs are taken: shutting down");
    jobsvc_destroy(s);
}

static void test_idempotency_key(void **state)
{
    jobsvc *s = start(4, 8);
    struct jobs_idem idem, other;
    struct jobsvc_job job;
    enum jobs_idem_found found;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];

    (void)state;
    memset(&idem, 0, sizeof(idem));
    memset(idem.key, 'a', JOBS_IDEM_LEN);
    memset(idem.body, 'b', JOBS_IDEM_LEN);
    other = idem;
    other.body[0] = 'c';
    assert_int_equal(submit(s, "5,1", "", 0, &idem, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_NEW);
    memcpy(id, job.v.id, sizeof(id));
    jobsvc_job_release(s, &job);
    /* a replay is not held by a cap: it makes nothing */
    assert_int_equal(submit(s, "5,1", "", 1, &idem, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_REPLAY);
    assert_string_equal(job.v.id, id);
    jobsvc_job_release(s, &job);
    assert_int_equal(submit(s, "5,2", "", 0, &other, &job, &found, msg),
                     PUZ_OK);
    assert_int_equal(found, JOBS_IDEM_MISMATCH);
    jobsvc_destroy(s);
}

static void test_cancel_then_forget(void **state)
{
    jobsvc *s = start(4, 8);
    struct want w = { s, NULL, JOBS_CANCELLED };
    enum jobsvc_cancelled what;
    struct jobsvc_job job;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX];
    bool found = true;

    (void)state;
    submit_new(s, "0,0", id);
    w.id = id;
    assert_int_equal(jobsvc_cancel(s, id, "by the test", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(what, JOBSVC_STOPPED);
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(jobsvc_cancel(s, id, "again", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(what, JOBSVC_FORGOTTEN);
    assert_int_equal(jobsvc_find(s, id, false, &job, &found, msg), PUZ_OK);
    assert_false(found);
    assert_int_equal(jobsvc_cancel(s, id, "gone", 1000, &what, msg),
                     PUZ_OK);
    assert_int_equal(what, JOBSVC_NO_JOB);
    jobsvc_destroy(s);
}

static void test_malformed_ids_unknown(void **state)
{
    jobsvc *s = start(4, 8);
    static const char *const ids[] = {
        "", "abc", "0123456789ABCDEF0123456789ABCDEF",
        "0123456789abcdef0123456789abcdef0", "../../etc/passwd" };
    struct jobsvc_event ev[2];
    enum jobsvc_cancelled what;
    struct jobsvc_job job;
    char msg[JOBSVC_MSG_MAX];
    bool found, gone;
    size_t n;

    (void)state;
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        found = true;
        assert_int_equal(jobsvc_find(s, ids[i], true, &job, &found, msg),
                         PUZ_OK);
        assert_false(found);
        assert_int_equal(jobsvc_cancel(s, ids[i], "x", 10, &what, msg),
                         PUZ_OK);
        assert_int_equal(what, JOBSVC_NO_JOB);
        assert_int_equal(jobsvc_events(s, ids[i], NULL, ev, 2, &n, &gone,
                                       msg), PUZ_OK);
        assert_true(gone);
        assert_int_equal(n, 0);
    }
    jobsvc_destroy(s);
}

/* The events a stream reads: one snapshot, its id the version it shows;
 * nothing new after it until the job changes; a final one typed by its
 * state; gone once forgotten. */
static void test_events_are_snapshots(void **state)
{
    jobsvc *s = start(4, 8);
    struct want w = { s, NULL, JOBS_DONE };
    struct jobsvc_event ev[4];
    enum jobsvc_cancelled what;
    char id[JOBS_ID_LEN + 1], msg[JOBSVC_MSG_MAX], cursor[64];
    bool gone;
    size_t n;

    (void)state;
    assert_false(jobsvc_event_id_ok(s, "1"));  /* no id to resume from */
    submit_new(s, "20,2", id);
    w.id = id;
    assert_true(wait_until(in_state, &w, 5000));
    assert_int_equal(jobsvc_events(s, id, NULL, ev, 4, &n, &gone, msg),
                     PUZ_OK);
    assert_int_equal(n, 1);
    assert_false(gone);
    assert_true(ev[0].snapshot);
    assert_string_equal(ev[0].type, "done");
    assert_null(ev[0].v.body);      /* answers come from jobsvc_find */
    snprintf(cursor, sizeof(cursor), "%llu",
             (unsigned long long)ev[0].v.version);
    assert_string_equal(ev[0].id, cursor);
    assert_int_equal(jobsvc_events(s, id, cursor, ev, 4, &n, &gone, msg),
                     PUZ_OK);
    assert_int_equal(n, 0);
    assert_int_equal(jobsvc_cancel(s, id, "x", 10, &what, msg), PUZ_OK);
    assert_int_equal(what, JOBSVC_FORGOTTEN);
    assert_int_equal(jobsvc_events(s, id, cursor, ev, 4, &n, &gone, msg),
                     PUZ_OK);
    assert_true(gone);
    jobsvc_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_submit_runs_the_bytes),
        cmocka_unit_test(test_refusals_worded),
        cmocka_unit_test(test_idempotency_key),
        cmocka_unit_test(test_cancel_then_forget),
        cmocka_unit_test(test_malformed_ids_unknown),
        cmocka_unit_test(test_events_are_snapshots),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
