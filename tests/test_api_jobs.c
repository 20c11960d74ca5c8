/*
 * test_api_jobs.c - the JSON routes of /v1/jobs as API functions, on
 * plain strings: no socket, no server. A real job registry (src/jobs/,
 * its own worker thread) runs the solves. Covers the life cycle
 * (submit, read, list, cancel, forget), unknown / malformed / huge ids,
 * the ?state= filter and the bounded page. The socket tests
 * (test_http_jobs.c) keep the event stream and what needs HTTP.
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

#include "api.h"
#include "jobs.h"
#include "jobsvc.h"
#include "support/apitest.h"

struct fixture {
    struct apitest t;
    jobsvc *svc;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct jobs_config jc;

    apitest_init(&f->t);
    f->t.lim.job_queue = 2;
    f->t.lim.job_max = 4;
    jc = (struct jobs_config){ .workers = 1, .queue = f->t.lim.job_queue,
                               .ttl_s = f->t.lim.job_ttl_s,
                               .max = f->t.lim.job_max,
                               .results_max_bytes =
                                   f->t.lim.job_results_max_bytes };
    assert_int_equal(jobsvc_create_embedded(&jc, api_jobs_run, &f->t.ctx,
                                            &f->svc), PUZ_OK);
    f->t.ctx.jobs = f->svc;
    f->t.ctx.jobs_list_anonymous = true;    /* the list tests list so */
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    jobsvc_destroy(f->svc);
    apitest_fini(&f->t);
    free(f);
    return 0;
}

/* The detail of the problem method path?query body answers, after
 * checking its status and slug (apitest_problem); owned by f->t. */
static const char *problem(struct fixture *f, const char *method,
                           const char *path, const char *query,
                           const char *body, unsigned status,
                           const char *slug)
{
    apitest_call(&f->t, method, path, query, body);
    return apitest_str(apitest_problem(&f->t, status, slug), "detail");
}

/* Submit body: 202, Location, a queued job; its id into id (33 B). */
static void submit(struct fixture *f, const char *body, char *id)
{
    json_t *j;
    char loc[64];

    assert_int_equal(apitest_call(&f->t, "POST", "/v1/jobs", NULL,
                                  body)->status, 202);
    assert_string_equal(f->t.call.answer.content_type, "application/json");
    j = apitest_json(&f->t);
    assert_string_equal(apitest_str(j, "state"), "queued");
    assert_int_equal(strlen(apitest_str(j, "id")), JOBS_ID_LEN);
    snprintf(id, JOBS_ID_LEN + 1, "%s", apitest_str(j, "id"));
    snprintf(loc, sizeof(loc), "/v1/jobs/%s", id);
    assert_non_null(apitest_header(&f->t, "Location"));
    assert_string_equal(apitest_header(&f->t, "Location"), loc);
}

/* GET the job: its state; the whole object into *out (a new reference)
 * when not NULL. */
static const char *get_state(struct fixture *f, const char *id,
                             json_t **out)
{
    static char st[16];
    char path[64];
    json_t *j;

    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    assert_int_equal(apitest_call(&f->t, "GET", path, NULL, NULL)->status,
                     200);
    j = apitest_json(&f->t);
    assert_string_equal(apitest_str(j, "id"), id);
    snprintf(st, sizeof(st), "%s", apitest_str(j, "state"));
    if (out != NULL)
        *out = json_incref(j);
    return st;
}

/* Wait on the registry's change signal until the job's state is s, at
 * most ms. */
static void wait_for(struct fixture *f, const char *id, const char *s,
                     unsigned ms)
{
    uint64_t until = puz_clock_mono_us() + (uint64_t)ms * 1000u, seen = 0;

    while (strcmp(get_state(f, id, NULL), s) != 0) {
        if (puz_clock_mono_us() >= until)
            fail_msg("job %s still %s after %u ms, not %s", id,
                     get_state(f, id, NULL), ms, s);
        jobsvc_wait_change(f->svc, &seen, 50);
    }
}

/* The job's result is what /v1/solve answers for the same body, field
 * for field (one pipeline: the same decoder, check, work and encoder). */
static void expect_same_as_solve(struct fixture *f, const char *body)
{
    char id[JOBS_ID_LEN + 1];
    json_t *job, *solved;

    submit(f, body, id);
    wait_for(f, id, "done", 20000);
    get_state(f, id, &job);
    apitest_call(&f->t, "POST", "/v1/solve", NULL, body);
    solved = apitest_json(&f->t);
    assert_int_equal(f->t.call.answer.status, 200);
    /* the stats' times differ run to run */
    json_object_del(json_object_get(job, "result"), "stats");
    json_object_del(solved, "stats");
    if (!json_equal(json_object_get(job, "result"), solved)) {
        char *a = json_dumps(json_object_get(job, "result"), 0);
        char *b = json_dumps(solved, 0);
        fail_msg("job result %s\n/v1/solve   %s", a, b);
    }
    json_decref(job);
}

/* Defects of issue 27: a job took an unsolvable board (202, a worker
 * spent on it) and ignored trace. Now jobs go through /v1/solve's path. */
static void test_job_is_a_solve(void **state)
{
    struct fixture *f = *state;

    assert_non_null(strstr(problem(f, "POST", "/v1/jobs", NULL, "{\"board\": "
                                   "\"1 2 3 4 5 6 8 7 0\"}", 422,
                                   "unsolvable"), "parity"));
    expect_same_as_solve(f, "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                         "\"include_path\": true}");
    expect_same_as_solve(f, "{\"board\": \"5 1 2 3 9 6 7 4 13 10 11 8 0 "
                         "14 15 12\", \"goal\": \"1 2 3 4 5 6 7 8 9 10 11 "
                         "12 13 14 15 0\"}");
    /* trace and effort: the job's result has them, as /v1/solve's does */
    expect_same_as_solve(f, "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                         "\"trace\": 5, \"effort\": true}");
    apitest_call(&f->t, "POST", "/v1/solve", NULL, "{\"board\": \"8 6 7 2 "
                 "5 4 3 0 1\", \"trace\": 5}");
    assert_int_equal(json_array_size(json_object_get(apitest_json(&f->t),
                                                     "trace")), 5);
    /* a trace no search records is refused, naming the option */
    assert_non_null(strstr(problem(f, "POST", "/v1/jobs", NULL, "{\"board\": "
                                   "\"8 6 7 2 5 4 3 0 1\", \"algorithm\": "
                                   "\"idastar\", \"trace\": 5}", 422,
                                   "invalid-option"), "trace"));
}

/* Issue 29 item 2: a list is summaries; it copied every finished job's
 * whole result into the request (a 1 MB answer is a ~15 MB JSON tree)
 * and dropped it. Now listing a big finished job costs its summary. */
static void test_list_copies_no_result(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1], path[64];
    const struct api_answer *an;

    submit(f, "{\"board\": \"17 46 10 4 16 8 15 7 3 2 27 19 37 21 24 40 "
           "25 9 12 20 29 48 6 30 1 26 41 50 14 38 23 47 0 11 54 53 58 39 "
           "63 31 49 44 33 22 13 55 62 56 61 35 18 28 45 42 32 57 43 59 34 "
           "51 52 60 36 5\", \"algorithm\": \"constructive\", "
           "\"include_path\": true}", id);
    wait_for(f, id, "done", 20000);
    an = apitest_call(&f->t, "GET", "/v1/jobs", NULL, NULL);
    assert_int_equal(an->status, 200);
    assert_null(memmem(an->body, an->len, "\"result\"", 8));
    assert_true(puz_arena_peak(f->t.arena) < 64u << 10);
    /* the job itself still has it, spliced in as the bytes it was */
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    an = apitest_call(&f->t, "GET", path, NULL, NULL);
    assert_int_equal(an->status, 200);
    assert_non_null(memmem(an->body, an->len,
                           "\"result\":{\"status\":\"solved\"", 27));
}

/* A repeated query key is refused, not silently the first. */
static void test_list_repeated_key(void **state)
{
    struct fixture *f = *state;

    assert_non_null(strstr(problem(f, "GET", "/v1/jobs", "limit=5&limit=200",
                                   NULL, 400, "invalid-query"), "limit"));
}

static void test_life_cycle_quick(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1], path[64];
    const struct api_answer *an;
    json_t *j, *result;

    submit(f, APITEST_QUICK_BODY, id);
    wait_for(f, id, "done", 10000);
    get_state(f, id, &j);
    result = json_object_get(j, "result");
    /* The result is the object POST /v1/solve answers: 3x3, 2 moves. */
    assert_int_equal(json_integer_value(json_object_get(result, "length")),
                     2);
    assert_string_equal(apitest_str(result, "status"), "solved");
    assert_true(apitest_str(j, "finished_at")[0] != '\0');
    json_decref(j);
    /* DELETE of a finished job forgets it: 204 with no body, then 404. */
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    an = apitest_call(&f->t, "DELETE", path, NULL, NULL);
    assert_int_equal(an->status, 204);
    assert_int_equal(an->len, 0);
    assert_null(an->content_type);
    problem(f, "GET", path, NULL, NULL, 404, "not-found");
    problem(f, "DELETE", path, NULL, NULL, 404, "not-found");
}

static void test_cancel_running(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1], path[64];
    json_t *j;

    submit(f, APITEST_LONG_BODY, id);
    wait_for(f, id, "running", 10000);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    assert_int_equal(apitest_call(&f->t, "DELETE", path, NULL, NULL)->status,
                     200);
    j = apitest_json(&f->t);
    assert_string_equal(apitest_str(j, "state"), "cancelled");
    assert_string_equal(apitest_str(j, "reason"), "cancelled by the client");
    /* Still readable as cancelled; a second DELETE forgets it. */
    assert_string_equal(get_state(f, id, NULL), "cancelled");
    assert_int_equal(apitest_call(&f->t, "DELETE", path, NULL, NULL)->status,
                     204);
    problem(f, "GET", path, NULL, NULL, 404, "not-found");
}

static void test_unknown_malformed_huge_ids(void **state)
{
    struct fixture *f = *state;
    static const char *const ids[] = {
        "0123456789abcdef0123456789abcdef",     /* well formed, unknown */
        "0123456789ABCDEF0123456789ABCDEF",     /* upper case */
        "nope", "..", "0123456789abcdef0123456789abcdef0", "a b", "%2e",
    };
    char path[400], id[JOBS_ID_LEN + 1];

    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        snprintf(path, sizeof(path), "/v1/jobs/%s", ids[i]);
        assert_non_null(strstr(problem(f, "GET", path, NULL, NULL, 404,
                                       "not-found"), "unknown, or finished "
                                       "more than 3600 s ago"));
        problem(f, "DELETE", path, NULL, NULL, 404, "not-found");
    }
    /* Too long to be an id: never echoed back. */
    memcpy(path, "/v1/jobs/", 9);
    memset(path + 9, 'a', 300);
    path[309] = '\0';
    assert_string_equal(problem(f, "GET", path, NULL, NULL, 404,
                                "not-found"), "no job with this id: "
                        "unknown, or finished more than 3600 s ago and "
                        "forgotten");
    /* A real id with one byte more is another id. */
    submit(f, APITEST_QUICK_BODY, id);
    snprintf(path, sizeof(path), "/v1/jobs/%s0", id);
    problem(f, "GET", path, NULL, NULL, 404, "not-found");
    path[strlen(path) - 2] = '\0';
    problem(f, "GET", path, NULL, NULL, 404, "not-found");
}

/* GET /v1/jobs?query: the page's jobs (owned by f->t); n of them. */
static json_t *list(struct fixture *f, const char *query, size_t n)
{
    json_t *jobs;

    apitest_call(&f->t, "GET", "/v1/jobs", query, NULL);
    jobs = json_object_get(apitest_json(&f->t), "jobs");
    assert_int_equal(json_array_size(jobs), n);
    return jobs;
}

/* The page: newest first, filtered by state, bounded by limit. */
static void test_list_state_and_page(void **state)
{
    struct fixture *f = *state;
    char a[JOBS_ID_LEN + 1], b[JOBS_ID_LEN + 1];
    json_t *jobs;

    submit(f, APITEST_QUICK_BODY, a);
    wait_for(f, a, "done", 10000);
    submit(f, APITEST_LONG_BODY, b);
    wait_for(f, b, "running", 10000);
    jobs = list(f, NULL, 2);
    assert_string_equal(apitest_str(json_array_get(jobs, 0), "id"), b);
    assert_string_equal(apitest_str(json_array_get(jobs, 1), "id"), a);
    assert_int_equal(json_integer_value(json_object_get(f->t.json,
                                                        "limit")), 20);
    jobs = list(f, "state=done", 1);
    assert_string_equal(apitest_str(json_array_get(jobs, 0), "id"), a);
    list(f, "state=running&limit=1", 1);
    jobs = list(f, "limit=1", 1);
    assert_string_equal(apitest_str(json_array_get(jobs, 0), "id"), b);
    list(f, "state=failed", 0);
    /* Bad filters and pages are 400s that say what is allowed. */
    assert_non_null(strstr(problem(f, "GET", "/v1/jobs", "state=finished",
                                   NULL, 400, "invalid-query"),
                           "not 'finished'"));
    static const char *const bad[] = { "limit=0", "limit=101", "limit=-1",
                                       "limit=1x", "limit=", "limit=+5",
                                       "limit=99999999999999999999" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_non_null(strstr(problem(f, "GET", "/v1/jobs", bad[i], NULL,
                                       400, "invalid-query"),
                               "from 1 to 100"));
    assert_int_equal(apitest_call(&f->t, "GET", "/v1/jobs", "limit=100",
                                  NULL)->status, 200);
}

static void test_submit_problems(void **state)
{
    struct fixture *f = *state;
    char body[256];

    problem(f, "POST", "/v1/jobs", NULL, "{", 400, "malformed-json");
    problem(f, "POST", "/v1/jobs", NULL, "{\"board\": 7}", 422,
            "invalid-board");
    assert_string_equal(problem(f, "POST", "/v1/jobs", NULL, "{\"board\": "
                                "\"1 2 3 4 5 6 0 7 8\", \"limits\": "
                                "{\"timeout_ms\": 0}}", 422,
                                "invalid-request"),
                        "limits.timeout_ms must be at least 1");
    /* Past the job cap is capped, not refused (as /v1/solve does). */
    snprintf(body, sizeof(body), "{\"board\": \"1 2 3 4 5 6 0 7 8\", "
             "\"limits\": {\"timeout_ms\": %u}}", f->t.lim.job_timeout_ms + 1);
    assert_int_equal(apitest_call(&f->t, "POST", "/v1/jobs", NULL,
                                  body)->status, 202);
    atomic_store(&f->t.draining, 1);
    problem(f, "POST", "/v1/jobs", NULL, APITEST_QUICK_BODY, 503,
            "shutting-down");
    assert_non_null(apitest_header(&f->t, "Retry-After"));
}

/* One worker, job_queue 2: the fourth long job is refused with 503. */
static void test_queue_full(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1];

    submit(f, APITEST_LONG_BODY, id);
    wait_for(f, id, "running", 10000);
    submit(f, APITEST_LONG_BODY, id);
    submit(f, APITEST_LONG_BODY, id);
    assert_non_null(strstr(problem(f, "POST", "/v1/jobs", NULL,
                                   APITEST_LONG_BODY,
                                   503, "overloaded"),
                           "2 jobs are waiting"));
    assert_non_null(apitest_header(&f->t, "Retry-After"));
}

/* Idempotency-Key: the same key and body give the first job (202, its
 * id and Location, as it is now, marked replayed), whatever form the
 * key came in; another body 422; another client's same key its own
 * job; a forgotten job frees its key. */
static void test_idem_replays_the_first_job(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1], other[JOBS_ID_LEN + 1], loc[64];
    struct jobsvc_stats st;
    json_t *j;

    f->t.idempotency_key = "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"";
    submit(f, APITEST_QUICK_BODY, id);
    assert_null(apitest_header(&f->t, "Idempotent-Replayed"));
    wait_for(f, id, "done", 20000);
    /* the bare form names the same key */
    f->t.idempotency_key = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    assert_int_equal(apitest_call(&f->t, "POST", "/v1/jobs", NULL,
                                  APITEST_QUICK_BODY)->status, 202);
    j = apitest_json(&f->t);
    assert_string_equal(apitest_str(j, "id"), id);
    assert_string_equal(apitest_str(j, "state"), "done");
    assert_non_null(json_object_get(j, "result"));
    snprintf(loc, sizeof(loc), "/v1/jobs/%s", id);
    assert_string_equal(apitest_header(&f->t, "Location"), loc);
    assert_string_equal(apitest_header(&f->t, "Idempotent-Replayed"),
                        "true");
    /* another body: refused, byte for byte (a space more) */
    assert_non_null(strstr(problem(f, "POST", "/v1/jobs", NULL,
                                   "{\"board\": \"1 2 3 4 5 6 0 7 8\" }",
                                   422, "idempotency-key-reused"),
                           "another body"));
    /* another client, same key and body: a job of its own */
    f->t.client = "192.0.2.7";
    submit(f, APITEST_QUICK_BODY, other);
    assert_string_not_equal(other, id);
    f->t.client = "127.0.0.1";
    jobsvc_get_stats(f->svc, &st);
    assert_int_equal(st.local.submitted, 2);
    /* the job forgotten (DELETE of a finished job): the key is free */
    snprintf(loc, sizeof(loc), "/v1/jobs/%s", id);
    f->t.idempotency_key = NULL;
    assert_int_equal(apitest_call(&f->t, "DELETE", loc, NULL, NULL)->status,
                     204);
    f->t.idempotency_key = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    submit(f, "{\"board\": \"1 2 3 4 5 6 7 0 8\"}", other);
    assert_string_not_equal(other, id);
    assert_null(apitest_header(&f->t, "Idempotent-Replayed"));
}

/* A key that cannot be one is 400 invalid-header naming the header,
 * and makes no job; 255 characters are a key, 256 not. */
static void test_idem_bad_keys(void **state)
{
    struct fixture *f = *state;
    static const char *const bad[] = {
        "", "\"\"", "\"a\", \"b\"", "a, b", "\"unclosed", "\"a\"b",
        "k\x01y", "caf\xc3\xa9", "\"a\\x\"", "a\"b",
    };
    char longest[258], id[JOBS_ID_LEN + 1];
    struct jobsvc_stats st;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        f->t.idempotency_key = bad[i];
        assert_non_null(strstr(problem(f, "POST", "/v1/jobs", NULL,
                                       APITEST_QUICK_BODY, 400,
                                       "invalid-header"),
                               "Idempotency-Key"));
    }
    memset(longest, 'k', 256);
    longest[256] = '\0';
    f->t.idempotency_key = longest;
    assert_non_null(strstr(problem(f, "POST", "/v1/jobs", NULL,
                                   APITEST_QUICK_BODY, 400,
                                   "invalid-header"), "longer than 255"));
    jobsvc_get_stats(f->svc, &st);
    assert_int_equal(st.local.submitted, 0);
    longest[255] = '\0';
    submit(f, APITEST_QUICK_BODY, id);
}

/* The traceparent of the last answer: trace and span (the job) when
 * trace is not NULL, else any trace but `not`; and its trace id. */
static void expect_trace(struct fixture *f, const char *trace,
                         const char *not, const char *id, char *got)
{
    const char *h = apitest_header(&f->t, "traceparent");

    assert_non_null(h);
    assert_int_equal(strlen(h), 55);
    assert_memory_equal(h, "00-", 3);
    assert_int_equal(strspn(h + 3, "0123456789abcdef"), 32);
    if (trace != NULL)
        assert_memory_equal(h + 3, trace, 32);
    if (not != NULL)
        assert_memory_not_equal(h + 3, not, 32);
    assert_true(h[35] == '-');
    assert_memory_equal(h + 36, id, 16);    /* the job is the span */
    assert_string_equal(h + 52, "-00");
    memcpy(got, h + 3, 32);
    got[32] = '\0';
}

/* Wait for the job to be done, then DELETE it (forgotten: 204), so
 * the small queue and job_max never fill. */
static void drop(struct fixture *f, const char *id)
{
    char path[64];

    wait_for(f, id, "done", 10000);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    assert_int_equal(apitest_call(&f->t, "DELETE", path, NULL,
                                  NULL)->status, 204);
}

/* W3C Trace Context (issue 42): a job keeps its submission's trace id,
 * and its answers (202, GET) name it with the job as the span;
 * without a traceparent, or with one that is not valid, a new trace. */
static void test_trace_context(void **state)
{
    struct fixture *f = *state;
    static const char *const bad[] = {
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
        "4bf92f3577b34da6a3ce929d0e0e4736",
    };
    const char *tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"
                     "-01";
    char id[JOBS_ID_LEN + 1], path[64], got[33], first[33];

    (void)state;
    f->t.traceparent = tp;
    submit(f, APITEST_QUICK_BODY, id);
    expect_trace(f, "4bf92f3577b34da6a3ce929d0e0e4736", NULL, id, got);
    f->t.traceparent = NULL;    /* read later, by anyone: the job's */
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    assert_int_equal(apitest_call(&f->t, "GET", path, NULL, NULL)->status,
                     200);
    expect_trace(f, "4bf92f3577b34da6a3ce929d0e0e4736", NULL, id, got);
    drop(f, id);
    /* A later version may add fields. */
    f->t.traceparent = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"
                       "-01-future";
    submit(f, APITEST_QUICK_BODY, id);
    expect_trace(f, "4bf92f3577b34da6a3ce929d0e0e4736", NULL, id, got);
    drop(f, id);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        f->t.traceparent = bad[i];
        submit(f, APITEST_QUICK_BODY, id);
        expect_trace(f, NULL, "4bf92f3577b34da6a3ce929d0e0e4736", id, got);
        drop(f, id);
    }
    f->t.traceparent = NULL;
    submit(f, APITEST_QUICK_BODY, id);
    expect_trace(f, NULL, NULL, id, first);
    drop(f, id);
    submit(f, APITEST_QUICK_BODY, id);
    expect_trace(f, NULL, first, id, got);  /* a new trace each time */
    drop(f, id);
}

static const void *has(const char *buf, size_t len, const char *what)
{
    return memmem(buf, len, what, strlen(what));
}

/* A failed job with no problem kept (a shared job that gave up after
 * its attempts, as jobq's take script ends it) says why in "reason":
 * it said nothing at all, as bench/chaos.sh showed. */
static void test_failed_says_why(void **state)
{
    struct jobs_view v;
    char *buf;
    size_t len;

    (void)state;
    memset(&v, 0, sizeof(v));
    snprintf(v.id, sizeof(v.id), "%s", "0123456789abcdef0123456789abcdef");
    v.state = JOBS_FAILED;
    v.attempts = 3;
    snprintf(v.reason, sizeof(v.reason), "%s",
             "gave up after 3 attempts: its runner stopped renewing");
    /* The event is len bytes, not a C string: memmem, not strstr (ASan
     * caught the read past its end). */
    assert_true(api_jobs_view_event(&v, true, &buf, &len));
    assert_non_null(has(buf, len, "\"reason\":\"gave up after 3 attempts"));
    free(buf);
    v.reason[0] = '\0';            /* nothing to say: no empty reason */
    assert_true(api_jobs_view_event(&v, true, &buf, &len));
    assert_null(has(buf, len, "\"reason\""));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_life_cycle_quick, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cancel_running, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unknown_malformed_huge_ids,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_list_state_and_page, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_submit_problems, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_queue_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_job_is_a_solve, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_list_repeated_key, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_list_copies_no_result, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_idem_replays_the_first_job,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_trace_context, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_idem_bad_keys, setup,
                                        teardown),
        cmocka_unit_test(test_failed_says_why),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
