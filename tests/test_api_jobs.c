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

/* Korf's #88 with Manhattan: seconds of IDA*, long enough to watch. */
#define LONG_BODY "{\"board\": \"15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\", " \
    "\"goal\": \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\", " \
    "\"algorithm\": \"idastar\", \"heuristic\": \"manhattan\"}"
#define QUICK_BODY "{\"board\": \"1 2 3 4 5 6 0 7 8\"}"

struct fixture {
    struct api_limits cfg;
    atomic_int draining;
    jobs_t *jobs;
    struct api_ctx ctx;
    puz_arena *arena;
    struct api_call call;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct jobs_config jc;

    api_limits_defaults(&f->cfg);
    f->cfg.job_queue = 2;
    f->cfg.job_max = 4;
    jc = (struct jobs_config){ 1, f->cfg.job_queue, f->cfg.job_ttl_s,
                               f->cfg.job_max, f->cfg.job_results_max_bytes, 0 };
    assert_int_equal(jobs_create(&jc, &f->jobs), PUZ_OK);
    f->ctx.lim = &f->cfg;
    f->ctx.draining = &f->draining;
    f->ctx.jobs = f->jobs;
    f->ctx.jobs_list_anonymous = true;  /* the list tests list anonymously */
    f->arena = puz_arena_create(1 << 16);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    jobs_destroy(f->jobs);
    puz_arena_destroy(f->arena);
    free(f);
    return 0;
}

/* Run method path (query "k=v&k2" split by hand) with body. */
static const struct api_answer *call(struct fixture *f, const char *method,
                                     const char *path, const char *query,
                                     const char *body)
{
    static char qbuf[256];
    static struct api_param params[8];
    struct api_request rq = { .path = path, .id = "test-id",
                              .client = "127.0.0.1" };
    const struct api_route *rt = api_route_find(method, path, &rq.params);
    char *save = NULL;

    assert_non_null(rt);
    snprintf(qbuf, sizeof(qbuf), "%s", query != NULL ? query : "");
    for (char *kv = strtok_r(qbuf, "&", &save); kv != NULL && rq.nquery < 8;
         kv = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(kv, '=');

        if (eq != NULL)
            *eq = '\0';
        params[rq.nquery].key = kv;
        params[rq.nquery++].value = eq != NULL ? eq + 1 : NULL;
    }
    rq.query = params;
    rq.body = body;
    rq.len = body != NULL ? strlen(body) : 0;
    puz_arena_reset(f->arena);
    api_call_init(&f->call, &f->ctx, &rq, f->arena);
    api_run(rt, &f->call);
    return &f->call.answer;
}

static json_t *body_json(const struct api_answer *an)
{
    json_error_t e;
    json_t *j = json_loadb(an->body, an->len, 0, &e);

    if (j == NULL)
        fail_msg("not JSON: %.*s", (int)an->len, an->body);
    return j;
}

static const char *header(const struct api_answer *an, const char *name)
{
    for (unsigned i = 0; i < an->nheaders; i++)
        if (strcmp(an->headers[i].name, name) == 0)
            return an->headers[i].value;
    return NULL;
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    return s != NULL ? s : "";
}

/* A problem of this status whose type ends in slug; its detail copied
 * into detail (may be NULL). */
static void expect_problem(const struct api_answer *an, unsigned status,
                           const char *slug, char *detail, size_t size)
{
    json_t *j = body_json(an);
    const char *type = str(j, "type");

    assert_int_equal(an->status, status);
    assert_string_equal(an->content_type, "application/problem+json");
    assert_true(strlen(type) >= strlen(slug));
    assert_string_equal(type + strlen(type) - strlen(slug), slug);
    assert_string_equal(str(j, "request_id"), "test-id");
    if (detail != NULL)
        snprintf(detail, size, "%s", str(j, "detail"));
    json_decref(j);
}

/* Submit body: 202, Location, a queued job; its id into id (33 B). */
static void submit(struct fixture *f, const char *body, char *id)
{
    const struct api_answer *an = call(f, "POST", "/v1/jobs", NULL, body);
    json_t *j = body_json(an);
    char loc[64];

    assert_int_equal(an->status, 202);
    assert_string_equal(an->content_type, "application/json");
    assert_string_equal(str(j, "state"), "queued");
    assert_int_equal(strlen(str(j, "id")), JOBS_ID_LEN);
    snprintf(id, JOBS_ID_LEN + 1, "%s", str(j, "id"));
    snprintf(loc, sizeof(loc), "/v1/jobs/%s", id);
    assert_non_null(header(an, "Location"));
    assert_string_equal(header(an, "Location"), loc);
    json_decref(j);
}

/* GET the job: its state; the whole object into *out when not NULL. */
static const char *get_state(struct fixture *f, const char *id,
                             json_t **out)
{
    static char st[16];
    char path[64];
    const struct api_answer *an;
    json_t *j;

    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    an = call(f, "GET", path, NULL, NULL);
    assert_int_equal(an->status, 200);
    j = body_json(an);
    assert_string_equal(str(j, "id"), id);
    snprintf(st, sizeof(st), "%s", str(j, "state"));
    if (out != NULL)
        *out = j;
    else
        json_decref(j);
    return st;
}

/* Wait on the registry's change signal until the job's state is s, at
 * most ms. */
static void wait_for(struct fixture *f, const char *id, const char *s,
                     unsigned ms)
{
    uint64_t until = puz_now_us() + (uint64_t)ms * 1000u, seen = 0;

    while (strcmp(get_state(f, id, NULL), s) != 0) {
        if (puz_now_us() >= until)
            fail_msg("job %s still %s after %u ms, not %s", id,
                     get_state(f, id, NULL), ms, s);
        jobs_wait_change(f->jobs, &seen, 50);
    }
}

/* The answer's body as a JSON value (a new reference). */
static json_t *answer_of(struct fixture *f, const char *method,
                         const char *path, const char *body)
{
    return body_json(call(f, method, path, NULL, body));
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
    solved = answer_of(f, "POST", "/v1/solve", body);
    assert_int_equal(f->call.answer.status, 200);
    /* the stats' times differ run to run */
    json_object_del(json_object_get(job, "result"), "stats");
    json_object_del(solved, "stats");
    if (!json_equal(json_object_get(job, "result"), solved)) {
        char *a = json_dumps(json_object_get(job, "result"), 0);
        char *b = json_dumps(solved, 0);
        fail_msg("job result %s\n/v1/solve   %s", a, b);
    }
    json_decref(job);
    json_decref(solved);
}

/* Defects of issue 27: a job took an unsolvable board (202, a worker
 * spent on it) and ignored trace. Now jobs go through /v1/solve's path. */
static void test_job_is_a_solve(void **state)
{
    struct fixture *f = *state;
    char detail[256];
    json_t *j;

    expect_problem(call(f, "POST", "/v1/jobs", NULL, "{\"board\": "
                        "\"1 2 3 4 5 6 8 7 0\"}"), 422, "unsolvable", detail,
                   sizeof(detail));
    assert_non_null(strstr(detail, "parity"));
    expect_same_as_solve(f, "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                         "\"include_path\": true}");
    expect_same_as_solve(f, "{\"board\": \"5 1 2 3 9 6 7 4 13 10 11 8 0 "
                         "14 15 12\", \"goal\": \"1 2 3 4 5 6 7 8 9 10 11 "
                         "12 13 14 15 0\"}");
    /* trace and effort: the job's result has them, as /v1/solve's does */
    expect_same_as_solve(f, "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                         "\"trace\": 5, \"effort\": true}");
    j = answer_of(f, "POST", "/v1/solve", "{\"board\": \"8 6 7 2 5 4 3 0 "
                  "1\", \"trace\": 5}");
    assert_int_equal(json_array_size(json_object_get(j, "trace")), 5);
    json_decref(j);
    /* a trace no search records is refused, naming the option */
    expect_problem(call(f, "POST", "/v1/jobs", NULL, "{\"board\": \"8 6 7 "
                        "2 5 4 3 0 1\", \"algorithm\": \"idastar\", "
                        "\"trace\": 5}"), 422, "invalid-option", detail,
                   sizeof(detail));
    assert_non_null(strstr(detail, "trace"));
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
    an = call(f, "GET", "/v1/jobs", NULL, NULL);
    assert_int_equal(an->status, 200);
    assert_null(memmem(an->body, an->len, "\"result\"", 8));
    assert_true(puz_arena_peak(f->arena) < 64u << 10);
    /* the job itself still has it, spliced in as the bytes it was */
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    an = call(f, "GET", path, NULL, NULL);
    assert_int_equal(an->status, 200);
    assert_non_null(memmem(an->body, an->len,
                           "\"result\":{\"status\":\"solved\"", 27));
}

/* A repeated query key is refused, not silently the first. */
static void test_list_repeated_key(void **state)
{
    struct fixture *f = *state;
    char detail[256];

    expect_problem(call(f, "GET", "/v1/jobs", "limit=5&limit=200", NULL),
                   400, "invalid-query", detail, sizeof(detail));
    assert_non_null(strstr(detail, "limit"));
}

static void test_life_cycle_quick(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1], path[64];
    const struct api_answer *an;
    json_t *j, *result;

    submit(f, QUICK_BODY, id);
    wait_for(f, id, "done", 10000);
    get_state(f, id, &j);
    result = json_object_get(j, "result");
    /* The result is the object POST /v1/solve answers: 3x3, 2 moves. */
    assert_int_equal(json_integer_value(json_object_get(result, "length")),
                     2);
    assert_string_equal(str(result, "status"), "solved");
    assert_true(str(j, "finished_at")[0] != '\0');
    json_decref(j);
    /* DELETE of a finished job forgets it: 204 with no body, then 404. */
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    an = call(f, "DELETE", path, NULL, NULL);
    assert_int_equal(an->status, 204);
    assert_int_equal(an->len, 0);
    assert_null(an->content_type);
    expect_problem(call(f, "GET", path, NULL, NULL), 404, "not-found",
                   NULL, 0);
    expect_problem(call(f, "DELETE", path, NULL, NULL), 404, "not-found",
                   NULL, 0);
}

static void test_cancel_running(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1], path[64];
    const struct api_answer *an;
    json_t *j;

    submit(f, LONG_BODY, id);
    wait_for(f, id, "running", 10000);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    an = call(f, "DELETE", path, NULL, NULL);
    assert_int_equal(an->status, 200);
    j = body_json(an);
    assert_string_equal(str(j, "state"), "cancelled");
    assert_string_equal(str(j, "reason"), "cancelled by the client");
    json_decref(j);
    /* Still readable as cancelled; a second DELETE forgets it. */
    assert_string_equal(get_state(f, id, NULL), "cancelled");
    assert_int_equal(call(f, "DELETE", path, NULL, NULL)->status, 204);
    expect_problem(call(f, "GET", path, NULL, NULL), 404, "not-found",
                   NULL, 0);
}

static void test_unknown_malformed_huge_ids(void **state)
{
    struct fixture *f = *state;
    static const char *const ids[] = {
        "0123456789abcdef0123456789abcdef",     /* well formed, unknown */
        "0123456789ABCDEF0123456789ABCDEF",     /* upper case */
        "nope", "..", "0123456789abcdef0123456789abcdef0", "a b", "%2e",
    };
    char path[400], detail[512], id[JOBS_ID_LEN + 1];

    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        snprintf(path, sizeof(path), "/v1/jobs/%s", ids[i]);
        expect_problem(call(f, "GET", path, NULL, NULL), 404, "not-found",
                       detail, sizeof(detail));
        assert_non_null(strstr(detail, "unknown, or finished more than "
                                       "3600 s ago"));
        expect_problem(call(f, "DELETE", path, NULL, NULL), 404,
                       "not-found", NULL, 0);
    }
    /* Too long to be an id: never echoed back. */
    memcpy(path, "/v1/jobs/", 9);
    memset(path + 9, 'a', 300);
    path[309] = '\0';
    expect_problem(call(f, "GET", path, NULL, NULL), 404, "not-found",
                   detail, sizeof(detail));
    assert_string_equal(detail, "no job with this id: unknown, or finished "
                        "more than 3600 s ago and forgotten");
    /* A real id with one byte more is another id. */
    submit(f, QUICK_BODY, id);
    snprintf(path, sizeof(path), "/v1/jobs/%s0", id);
    expect_problem(call(f, "GET", path, NULL, NULL), 404, "not-found",
                   NULL, 0);
    path[strlen(path) - 2] = '\0';
    expect_problem(call(f, "GET", path, NULL, NULL), 404, "not-found",
                   NULL, 0);
}

/* The page: newest first, filtered by state, bounded by limit. */
static void test_list_state_and_page(void **state)
{
    struct fixture *f = *state;
    char a[JOBS_ID_LEN + 1], b[JOBS_ID_LEN + 1], detail[256];
    const struct api_answer *an;
    json_t *j, *jobs;

    submit(f, QUICK_BODY, a);
    wait_for(f, a, "done", 10000);
    submit(f, LONG_BODY, b);
    wait_for(f, b, "running", 10000);
    j = body_json(call(f, "GET", "/v1/jobs", NULL, NULL));
    jobs = json_object_get(j, "jobs");
    assert_int_equal(json_array_size(jobs), 2);
    assert_string_equal(str(json_array_get(jobs, 0), "id"), b);
    assert_string_equal(str(json_array_get(jobs, 1), "id"), a);
    assert_int_equal(json_integer_value(json_object_get(j, "limit")), 20);
    json_decref(j);
    j = body_json(call(f, "GET", "/v1/jobs", "state=done", NULL));
    jobs = json_object_get(j, "jobs");
    assert_int_equal(json_array_size(jobs), 1);
    assert_string_equal(str(json_array_get(jobs, 0), "id"), a);
    json_decref(j);
    j = body_json(call(f, "GET", "/v1/jobs", "state=running&limit=1",
                       NULL));
    assert_int_equal(json_array_size(json_object_get(j, "jobs")), 1);
    json_decref(j);
    j = body_json(call(f, "GET", "/v1/jobs", "limit=1", NULL));
    jobs = json_object_get(j, "jobs");
    assert_int_equal(json_array_size(jobs), 1);
    assert_string_equal(str(json_array_get(jobs, 0), "id"), b);
    json_decref(j);
    j = body_json(call(f, "GET", "/v1/jobs", "state=failed", NULL));
    assert_int_equal(json_array_size(json_object_get(j, "jobs")), 0);
    json_decref(j);
    /* Bad filters and pages are 400s that say what is allowed. */
    expect_problem(call(f, "GET", "/v1/jobs", "state=finished", NULL), 400,
                   "invalid-query", detail, sizeof(detail));
    assert_non_null(strstr(detail, "not 'finished'"));
    static const char *const bad[] = { "limit=0", "limit=101", "limit=-1",
                                       "limit=1x", "limit=", "limit=+5",
                                       "limit=99999999999999999999" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        expect_problem(call(f, "GET", "/v1/jobs", bad[i], NULL), 400,
                       "invalid-query", detail, sizeof(detail));
        assert_non_null(strstr(detail, "from 1 to 100"));
    }
    an = call(f, "GET", "/v1/jobs", "limit=100", NULL);
    assert_int_equal(an->status, 200);
}

static void test_submit_problems(void **state)
{
    struct fixture *f = *state;
    char detail[256];

    expect_problem(call(f, "POST", "/v1/jobs", NULL, "{"), 400,
                   "malformed-json", NULL, 0);
    expect_problem(call(f, "POST", "/v1/jobs", NULL, "{\"board\": 7}"), 422,
                   "invalid-board", NULL, 0);
    expect_problem(call(f, "POST", "/v1/jobs", NULL, "{\"board\": "
                        "\"1 2 3 4 5 6 0 7 8\", \"limits\": "
                        "{\"timeout_ms\": 0}}"), 422, "invalid-request",
                   detail, sizeof(detail));
    assert_string_equal(detail, "limits.timeout_ms must be at least 1");
    /* Past the job cap is capped, not refused (as /v1/solve does). */
    snprintf(detail, sizeof(detail), "{\"board\": \"1 2 3 4 5 6 0 7 8\", "
             "\"limits\": {\"timeout_ms\": %u}}", f->cfg.job_timeout_ms + 1);
    assert_int_equal(call(f, "POST", "/v1/jobs", NULL, detail)->status, 202);
    atomic_store(&f->draining, 1);
    expect_problem(call(f, "POST", "/v1/jobs", NULL, QUICK_BODY), 503,
                   "shutting-down", NULL, 0);
    assert_non_null(header(&f->call.answer, "Retry-After"));
}

/* One worker, job_queue 2: the fourth long job is refused with 503. */
static void test_queue_full(void **state)
{
    struct fixture *f = *state;
    char id[JOBS_ID_LEN + 1], detail[256];

    submit(f, LONG_BODY, id);
    wait_for(f, id, "running", 10000);
    submit(f, LONG_BODY, id);
    submit(f, LONG_BODY, id);
    expect_problem(call(f, "POST", "/v1/jobs", NULL, LONG_BODY), 503,
                   "overloaded", detail, sizeof(detail));
    assert_non_null(strstr(detail, "2 jobs are waiting"));
    assert_non_null(header(&f->call.answer, "Retry-After"));
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
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
