/*
 * test_api_routes.c - the API's route functions on plain strings: no
 * socket, no server, no thread. Each test builds a request, runs the
 * route (both halves inline) and reads the answer's status, headers and
 * bytes. The socket tests (test_http_api.c) keep what needs HTTP.
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
#include "support/tables3.h"

struct fixture {
    struct apitest t;       /* first: *state is a struct apitest too */
    unsigned searches;
};

static void count(void *user, const struct puz_result *res)
{
    struct fixture *f = user;

    (void)res;
    f->searches++;
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));

    apitest_init(&f->t);
    apitest_use_tables3(&f->t);
    f->t.lim.batch_max = 5;
    f->t.ctx.on_search = count;
    f->t.ctx.user = f;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    apitest_fini(*state);
    free(*state);
    return 0;
}

/* POST body to path; the answer. */
static const struct api_answer *call(void **state, const char *path,
                                     const char *body)
{
    return apitest_call(*state, "POST", path, NULL, body);
}

/* The answer an (the last) as JSON: a new reference. */
static json_t *body_json(void **state, const struct api_answer *an)
{
    assert_ptr_equal(an, &((struct apitest *)*state)->call.answer);
    return json_incref(apitest_json(*state));
}

/* The last answer, a problem of this status and slug: its body (a new
 * reference). */
static json_t *problem(void **state, const struct api_answer *an,
                       unsigned status, const char *slug)
{
    (void)an;
    return json_incref(apitest_problem(*state, status, slug));
}

static void test_route_table(void **state)
{
    (void)state;
    assert_non_null(api_route_find("POST", "/v1/solve", NULL));
    assert_null(api_route_find("GET", "/v1/solve", NULL));
    assert_non_null(api_route_find("HEAD", "/v1/puzzles/random", NULL));
    assert_null(api_route_find("POST", "/v1/nothing", NULL));
    for (const struct api_route *rt = api_routes; rt->path != NULL; rt++) {
        struct api_path_params pp;

        /* Every route is found by its own path (no capture too many). */
        assert_true(api_path_match(rt->path, rt->path, &pp));
        assert_non_null(rt->fn);
        /* Every POST reads a JSON body but the daily's start, which
         * takes none (a body sent is still capped, then ignored). */
        assert_true(rt->json_body == (strcmp(rt->method, "POST") == 0
            && strcmp(rt->path, "/v1/daily/{date}/{size}/start") != 0));
    }
}

/* Path patterns on strings: literal segments, "{name}" captures. */
static void test_path_match(void **state)
{
    struct api_path_params pp;

    (void)state;
    assert_true(api_path_match("/v1/jobs/{id}", "/v1/jobs/ab12", &pp));
    assert_int_equal(pp.n, 1);
    assert_string_equal(pp.value[0], "ab12");
    assert_string_equal(pp.pattern, "/v1/jobs/{id}");
    assert_true(api_path_match("/v1/daily/{date}/{size}",
                               "/v1/daily/2026-12-02/4", &pp));
    assert_int_equal(pp.n, 2);
    assert_string_equal(pp.value[0], "2026-12-02");
    assert_string_equal(pp.value[1], "4");
    assert_true(api_path_match("/v1/jobs/{id}/events",
                               "/v1/jobs/x_y.z~-/events", &pp));
    assert_string_equal(pp.value[0], "x_y.z~-");
    assert_true(api_path_match("/v1/solve", "/v1/solve", &pp));
    assert_int_equal(pp.n, 0);
    /* A segment is never empty, never two, and the rest must match. */
    assert_false(api_path_match("/v1/jobs/{id}", "/v1/jobs/", &pp));
    assert_null(pp.pattern);
    assert_false(api_path_match("/v1/jobs/{id}", "/v1/jobs", NULL));
    assert_false(api_path_match("/v1/jobs/{id}", "/v1/jobs/a/b", NULL));
    assert_false(api_path_match("/v1/jobs/{id}", "/v1/jobs/a/", NULL));
    assert_false(api_path_match("/v1/jobs/{id}/events", "/v1/jobs/a",
                                NULL));
    assert_false(api_path_match("/v1/jobs/{id}/events",
                                "/v1/jobs/a/eventsx", NULL));
    assert_false(api_path_match("/v1/daily/{date}/{size}",
                                "/v1/daily//4", NULL));
    assert_false(api_path_match("/v1/solve", "/v1/solvex", NULL));
    assert_false(api_path_match("/v1/solve", "/v1/solv", NULL));
    assert_false(api_path_match("/v1/jobs", "/v1/jobs/", NULL));
}

/* A segment too long or with a byte no name has matches as "". */
static void test_path_param_bounds(void **state)
{
    struct api_path_params pp;
    char path[256];

    (void)state;
    memset(path, 0, sizeof(path));
    memcpy(path, "/v1/jobs/", 9);
    memset(path + 9, 'a', API_PATH_PARAM_LEN_MAX);
    assert_true(api_path_match("/v1/jobs/{id}", path, &pp));
    assert_int_equal(strlen(pp.value[0]), API_PATH_PARAM_LEN_MAX);
    path[9 + API_PATH_PARAM_LEN_MAX] = 'a';
    assert_true(api_path_match("/v1/jobs/{id}", path, &pp));
    assert_string_equal(pp.value[0], "");
    memset(path + 9, 'b', 200);
    assert_true(api_path_match("/v1/jobs/{id}/events",
                               strcat(path, "/events"), &pp));
    assert_string_equal(pp.value[0], "");
    assert_true(api_path_match("/v1/jobs/{id}", "/v1/jobs/a%20b", &pp));
    assert_string_equal(pp.value[0], "");
    assert_true(api_path_match("/v1/jobs/{id}", "/v1/jobs/a b", &pp));
    assert_string_equal(pp.value[0], "");
    assert_true(api_path_match("/v1/jobs/{id}", "/v1/jobs/\xc3\xa9", &pp));
    assert_string_equal(pp.value[0], "");
    /* More captures than API_PATH_PARAMS_MAX: no match at all. */
    assert_false(api_path_match("/{a}/{b}/{c}/{d}/{e}", "/1/2/3/4/5", &pp));
    assert_true(api_path_match("/{a}/{b}/{c}/{d}", "/1/2/3/4", &pp));
    assert_string_equal(pp.value[3], "4");
}

/* The route function reads its segments by name. */
static void test_path_param_by_name(void **state)
{
    struct api_call c;
    struct api_request rq = { .path = "/v1/daily/2026-12-02/4" };

    (void)state;
    assert_true(api_path_match("/v1/daily/{date}/{size}", rq.path,
                               &rq.params));
    api_call_init(&c, NULL, &rq, NULL);
    assert_string_equal(api_path_param(&c, "date"), "2026-12-02");
    assert_string_equal(api_path_param(&c, "size"), "4");
    assert_null(api_path_param(&c, "siz"));
    assert_null(api_path_param(&c, "id"));
    rq.params.pattern = NULL;
    api_call_init(&c, NULL, &rq, NULL);
    assert_null(api_path_param(&c, "date"));
}

static void test_solve_answers_json(void **state)
{
    struct fixture *f = *state;
    const struct api_answer *an = call(state, "/v1/solve",
                                       "{\"board\": \"1 2 3 4 5 6 7 0 8\"}");
    json_t *j = body_json(state, an);

    assert_int_equal(an->status, 200);
    assert_string_equal(an->content_type, "application/json");
    assert_int_equal(json_integer_value(json_object_get(j, "length")), 1);
    assert_string_equal(json_string_value(json_object_get(j, "status")),
                        "solved");
    assert_int_equal(an->nheaders, 0);
    assert_true(an->expanded >= 1);
    assert_int_equal(f->searches, 1);
    json_decref(j);
}

static void test_solve_hard_is_31(void **state)
{
    const struct api_answer *an = call(state, "/v1/solve",
                                       "{\"board\": [[8,6,7],[2,5,4],[3,0,1]],"
                                       " \"include_path\": true}");
    json_t *j = body_json(state, an);

    assert_int_equal(an->status, 200);
    assert_int_equal(json_integer_value(json_object_get(j, "length")), 31);
    assert_int_equal(json_array_size(json_object_get(j, "path")), 32);
    json_decref(j);
}

static void test_solve_problems(void **state)
{
    static const struct {
        const char *body;
        unsigned status;
        const char *slug, *pointer;
    } cases[] = {
        { "", 400, "malformed-json", NULL },
        { "{\"board\": ", 400, "malformed-json", NULL },
        { "[1]", 422, "invalid-request", NULL },
        { "{}", 422, "invalid-request", "/board" },
        { "{\"board\": \"1 2 3 4 5 6 7 0 8\", \"x\": 1}", 422,
          "invalid-request", "/x" },
        { "{\"board\": [[1,2],[3]]}", 422, "invalid-board", "/board/1" },
        { "{\"board\": \"1 2 3 4 5 6 8 7 0\"}", 422, "unsolvable", NULL },
        { "{\"board\": \"1 2 3 4 5 6 7 0 8\", \"algorithm\": \"x\"}", 422,
          "invalid-option", "/algorithm" },
        { "{\"board\": \"1 2 3 4 5 6 7 0 8\", \"weight\": 0}", 422,
          "invalid-option", "/weight" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct api_answer *an = call(state, "/v1/solve",
                                           cases[i].body);
        json_t *j = problem(state, an, cases[i].status, cases[i].slug);

        assert_string_equal(json_string_value(json_object_get(j,
                            "instance")), "/v1/solve");
        if (cases[i].pointer != NULL)
            assert_string_equal(json_string_value(json_object_get(j,
                                "pointer")), cases[i].pointer);
        json_decref(j);
    }
}

/* An answer's JSON without the one figure that differs between two
 * runs (stats.time_us). */
static json_t *timeless(void **state, const struct api_answer *an)
{
    json_t *j = body_json(state, an);

    json_object_del(json_object_get(j, "stats"), "time_us");
    return j;
}

/* {"board": "..."} goes the fast way (no JSON tree), the same body with
 * "goal": null the full jansson way: the same status, type, bytes and
 * errors, whatever the board. */
static void test_solve_fast_path_same_answers(void **state)
{
    static const char *const boards[] = {
        "1 2 3 4 5 6 7 0 8", "8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",   /* a search, not a walk */
        "1 2 3 4 5 6 8 7 0",                        /* unsolvable */
        "1 2 3 4 5 6 7 8 8", "1 2 3", "x", "", "1 2 3 4 5 6 7 0 99",
    };
    char fast[160], full[160];

    for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
        const struct api_answer *an;
        unsigned status;
        json_t *a, *b;

        snprintf(fast, sizeof(fast), "{\"board\": \"%s\"}", boards[i]);
        snprintf(full, sizeof(full), "{\"goal\": null, \"board\": \"%s\"}",
                 boards[i]);
        an = call(state, "/v1/solve", fast);
        status = an->status;
        a = timeless(state, an);
        an = call(state, "/v1/solve", full);
        b = timeless(state, an);
        assert_int_equal(status, an->status);
        if (!json_equal(a, b)) {
            char *ta = json_dumps(a, 0), *tb = json_dumps(b, 0);

            fprintf(stderr, "fast: %s\nfull: %s\n", ta, tb);
            free(ta);
            free(tb);
        }
        assert_true(json_equal(a, b));
        json_decref(a);
        json_decref(b);
    }
}

static void test_solve_limit_is_an_answer(void **state)
{
    const struct api_answer *an = call(state, "/v1/solve",
                                       "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                                       "\"algorithm\": \"bfs\", "
                                       "\"limits\": {\"max_nodes\": 10}}");
    json_t *j = body_json(state, an);

    assert_int_equal(an->status, 200);
    assert_string_equal(json_string_value(json_object_get(j, "status")),
                        "limit_nodes");
    json_decref(j);
}

static void test_draining_refuses_with_retry_after(void **state)
{
    struct fixture *f = *state;
    const struct api_answer *an;
    json_t *j;

    atomic_store(&f->t.draining, 1);
    an = call(state, "/v1/solve", "{\"board\": \"1 2 3 4 5 6 7 0 8\"}");
    j = problem(state, an, 503, "shutting-down");
    assert_non_null(apitest_header(*state, "Retry-After"));
    assert_int_equal(atoi(apitest_header(*state, "Retry-After")),
                     (int)f->t.lim.retry_after_s);
    assert_int_equal(f->searches, 0);
    json_decref(j);
}

static void test_cancelled_work_never_searches(void **state)
{
    struct fixture *f = *state;
    /* a search (3x3 from the table is answered by api_start itself) */
    const char *body = "{\"board\": \"1 2 3 4 5 6 7 0 8\", "
                       "\"algorithm\": \"idastar\"}";
    const struct api_route *rt = apitest_prepare(&f->t, "POST", "/v1/solve",
                                                 NULL, body);
    atomic_int cancel = 1;
    json_t *j;

    assert_false(api_start(rt, &f->t.call));
    assert_int_equal(f->t.call.answer.status, 0);
    f->t.call.cancel = &cancel;
    api_work(rt, &f->t.call);
    /* not draining: the client went away, and the answer says so */
    j = problem(state, &f->t.call.answer, 499, "client-closed-request");
    assert_int_equal(f->searches, 0);
    json_decref(j);
    /* draining: the server is shutting down */
    atomic_store(&f->t.draining, 1);
    apitest_prepare(&f->t, "POST", "/v1/solve", NULL, body);
    f->t.call.cancel = &cancel;
    api_work(rt, &f->t.call);
    j = problem(state, &f->t.call.answer, 503, "shutting-down");
    json_decref(j);
}

/* A 3x3 board the exact table answers is done in api_start (the server
 * answers it on the reading thread, no worker); any search is left to
 * api_work. */
static void test_table_walk_answered_at_start(void **state)
{
    struct fixture *f = *state;
    const struct api_route *rt;
    static const char *const searched[] = {
        "{\"board\": \"8 6 7 2 5 4 3 0 1\", \"algorithm\": \"idastar\"}",
        "{\"board\": \"8 6 7 2 5 4 3 0 1\", \"heuristic\": \"manhattan\"}",
        "{\"board\": \"8 6 7 2 5 4 3 0 1\", \"trace\": 5}",
        "{\"board\": \"8 6 7 2 5 4 3 0 1\", \"limits\": {\"max_nodes\": 30}}",
    };
    json_t *j;

    rt = apitest_prepare(&f->t, "POST", "/v1/solve", NULL,
                         "{\"board\": \"8 6 7 2 5 4 3 0 1\"}");
    assert_true(api_start(rt, &f->t.call));
    assert_int_equal(f->t.call.answer.status, 200);
    assert_null(f->t.call.scratch);
    j = body_json(state, &f->t.call.answer);
    assert_string_equal(apitest_str(j, "status"), "solved");
    assert_int_equal(json_integer_value(json_object_get(j, "length")), 31);
    assert_true(json_is_true(json_object_get(j, "optimal")));
    json_decref(j);
    assert_int_equal(f->searches, 1);
    for (size_t i = 0; i < sizeof(searched) / sizeof(searched[0]); i++) {
        apitest_prepare(&f->t, "POST", "/v1/solve", NULL, searched[i]);
        if (api_start(rt, &f->t.call))
            fail_msg("%s was answered at start: %u", searched[i],
                     f->t.call.answer.status);
        api_work(rt, &f->t.call);
        assert_int_equal(f->t.call.answer.status, 200);
    }
}

static void test_batch_partial_failure(void **state)
{
    const struct api_answer *an = call(state, "/v1/solve/batch",
                                       "{\"boards\": [\"1 2 3 4 5 6 7 0 8\","
                                       " \"1 2 3 4 5 6 8 7 0\", \"x\"]}");
    json_t *j = body_json(state, an), *res;

    assert_int_equal(an->status, 200);
    assert_int_equal(json_integer_value(json_object_get(j, "solved")), 1);
    assert_int_equal(json_integer_value(json_object_get(j, "failed")), 2);
    res = json_object_get(j, "results");
    assert_string_equal(json_string_value(json_object_get(
                        json_array_get(res, 2), "pointer")), "/boards/2");
    json_decref(j);
}

static void test_batch_too_many(void **state)
{
    json_t *j = problem(state, call(state, "/v1/solve/batch", "{\"boards\": "
                                    "[1,2,3,4,5,6]}"), 422, "invalid-request");

    json_decref(j);
}

/* The issue-15 board: `puzzled random --size 8 --moves 1000 --seed 7`. */
#define BOARD8 "17 46 10 4 16 8 15 7 3 2 27 19 37 21 24 40 25 9 12 20 29 " \
    "48 6 30 1 26 41 50 14 38 23 47 0 11 54 53 58 39 63 31 49 44 33 22 " \
    "13 55 62 56 61 35 18 28 45 42 32 57 43 59 34 51 52 60 36 5"
#define CONSTRUCTIVE8(path) "{\"board\": \"" BOARD8 "\", \"algorithm\": " \
    "\"constructive\", \"include_path\": " path "}"

/* An answer over max_response_bytes is refused with a problem, not sent
 * (issue 15, item 1); without its path the same solve fits. */
static void test_answer_over_response_cap(void **state)
{
    struct fixture *f = *state;
    json_t *j;

    f->t.lim.max_response_bytes = 64 << 10;
    j = problem(state, call(state, "/v1/solve", CONSTRUCTIVE8("true")), 422,
                "answer-too-large");
    assert_non_null(strstr(json_string_value(json_object_get(j, "detail")),
                           "max_response_bytes"));
    json_decref(j);
    j = body_json(state, call(state, "/v1/solve", CONSTRUCTIVE8("false")));
    assert_string_equal(json_string_value(json_object_get(j, "status")),
                        "solved");
    json_decref(j);
}

/* The JSON of an answer counts against the request's memory: past it
 * jansson gets no heap fallback, and the half-built answer is refused
 * (it used to be built on the heap without a cap). A trace asks for the
 * jansson tree (~3 MB with the path). */
static void test_answer_over_memory_budget(void **state)
{
    struct fixture *f = *state;
    const char *body = "{\"board\": \"" BOARD8 "\", \"algorithm\": "
                       "\"constructive\", \"effort\": true, "
                       "\"include_path\": true}";
    json_t *j;

    /* ~180 KB of path, written as bytes (no JSON tree of it): fits. */
    f->t.lim.solve_max_bytes = 1u << 20;
    assert_int_equal(call(state, "/v1/solve", body)->status, 200);
    assert_true(puz_arena_peak(f->t.arena) <= 1u << 20);
    f->t.lim.solve_max_bytes = 256u << 10;
    puz_arena_set_budget(f->t.arena, 0);  /* the next call sets it anew */
    j = problem(state, call(state, "/v1/solve", body), 422, "answer-too-large");
    assert_non_null(strstr(json_string_value(json_object_get(j, "detail")),
                           "solve_max_bytes"));
    json_decref(j);
    assert_true(puz_arena_peak(f->t.arena) <= 256u << 10);
}

/* The answer's bytes count too, twice (encoded, and the copy sent):
 * ~180 KB of them do not fit in 256 KB. */
static void test_answer_bytes_over_memory_budget(void **state)
{
    struct fixture *f = *state;
    json_t *j;

    const struct api_answer *an;

    f->t.lim.solve_max_bytes = 256u << 10;
    an = call(state, "/v1/solve", CONSTRUCTIVE8("true"));
    j = problem(state, an, 422, "answer-too-large");
    json_decref(j);
    assert_true(puz_arena_peak(f->t.arena) <= 256u << 10);
}

/* In a batch, the entries that do not fit say limit_memory; the ones
 * before them keep their paths, and the answer stays under the cap. */
static void test_batch_entries_over_cap_limit_memory(void **state)
{
    struct fixture *f = *state;
    const struct api_answer *an;
    json_t *j, *res, *e;
    size_t i;

    f->t.lim.max_response_bytes = 200 << 10;
    an = call(state, "/v1/solve/batch", "{\"boards\": [\"" BOARD8 "\", \""
              BOARD8 "\", \"" BOARD8 "\", \"" BOARD8 "\", \"" BOARD8 "\"], "
              "\"algorithm\": \"constructive\", \"include_path\": true}");
    assert_int_equal(an->status, 200);
    assert_true(an->len <= 200 << 10);
    j = body_json(state, an);
    res = json_object_get(j, "results");
    assert_int_equal(json_array_size(res), 5);
    assert_int_equal(json_integer_value(json_object_get(j, "solved")), 1);
    assert_non_null(json_object_get(json_array_get(res, 0), "path"));
    json_array_foreach(res, i, e) {
        if (i == 0)
            continue;
        assert_string_equal(json_string_value(json_object_get(e, "status")),
                            "limit_memory");
        assert_null(json_object_get(e, "path"));
        assert_non_null(strstr(json_string_value(json_object_get(e,
                               "reason")), "max_response_bytes"));
        /* Issue 29 item 9: once no path fits any more (board 1's did
         * not), the rest are not searched at all. */
        if (i >= 2)
            assert_non_null(strstr(json_string_value(json_object_get(e,
                                   "reason")), "not searched"));
    }
    json_decref(j);
}

/* 3x3: the table answers in the route function, no work left. */
static void test_score_3x3_inline(void **state)
{
    struct fixture *f = *state;
    const struct api_route *rt = apitest_prepare(&f->t, "POST", "/v1/score",
                                                 NULL, "{\"board\": \"1 2 3 4 "
                                                 "5 6 0 7 8\", \"moves\": [7, "
                                                 "\"right\"]}");
    json_t *j;

    assert_true(api_start(rt, &f->t.call));
    j = body_json(state, &f->t.call.answer);
    assert_true(json_is_true(json_object_get(j, "solved")));
    assert_int_equal(json_integer_value(json_object_get(j, "optimal_moves")),
                     2);
    assert_true(json_real_value(json_object_get(j, "score")) == 1.0);
    json_decref(j);
}

static void test_score_illegal_move(void **state)
{
    json_t *j = body_json(state, call(state, "/v1/score",
                               "{\"board\": \"1 2 3 4 5 6 0 7 8\", "
                               "\"moves\": [\"left\"]}"));
    json_t *ill = json_object_get(j, "illegal_move");

    assert_false(json_is_true(json_object_get(j, "legal")));
    assert_int_equal(json_integer_value(json_object_get(ill, "index")), 0);
    assert_non_null(strstr(json_string_value(json_object_get(ill, "reason")),
                           "cannot move left"));
    assert_true(json_real_value(json_object_get(j, "score")) == 0.0);
    json_decref(j);
}

/* 4x4: no table knows the distance, so the work half searches. */
static void test_score_4x4_searches(void **state)
{
    struct fixture *f = *state;
    json_t *j = body_json(state, call(state, "/v1/score",
                               "{\"board\": \"1 2 3 4 5 6 7 8 9 10 11 12 13"
                               " 14 0 15\", \"moves\": [\"right\"]}"));

    assert_true(json_is_true(json_object_get(j, "solved")));
    assert_int_equal(json_integer_value(json_object_get(j, "optimal_moves")),
                     1);
    assert_int_equal(f->searches, 1);
    json_decref(j);
}

/* GET /v1/puzzles/random?query; the answer. */
static const struct api_answer *random_q(void **state, const char *query)
{
    return apitest_call(*state, "GET", "/v1/puzzles/random", query, NULL);
}

static void test_random_seeded(void **state)
{
    const char *q = "size=3&moves=12&seed=42";
    json_t *a = body_json(state, random_q(state, q));
    json_t *b = body_json(state, random_q(state, q));

    assert_true(json_equal(a, b));
    assert_int_equal(json_integer_value(json_object_get(a, "optimal_moves")),
                     12);
    json_decref(a);
    json_decref(b);
}

static void test_random_bad_query(void **state)
{
    json_t *j;

    j = problem(state, random_q(state, "size=3&size=4"), 400,
                "invalid-query");
    assert_non_null(strstr(json_string_value(json_object_get(j, "detail")),
                           "more than once"));
    json_decref(j);
    j = problem(state, random_q(state, "colour=red"), 400, "invalid-query");
    /* size, rows, cols, moves, seed (rows and cols: issue 33) */
    assert_int_equal(json_array_size(json_object_get(j, "allowed")), 5);
    json_decref(j);
    j = problem(state, random_q(state, "size"), 400, "invalid-query");
    json_decref(j);
    j = problem(state, random_q(state, "moves=40"), 400, "invalid-query");
    assert_non_null(strstr(json_string_value(json_object_get(j, "detail")),
                           "at most 31"));
    json_decref(j);
}

/* --- Moved from test_http_api.c (issue 43): what a request means, on
 * strings. The socket suite keeps one recorded answer per route and
 * status for openapi_check.sh (test_recorded_answers). --- */

/* POST body to path, expect a 200 JSON answer: its body (a new
 * reference). */
static json_t *ok(void **state, const char *path, const char *body)
{
    const struct api_answer *an = call(state, path, body);

    if (an->status != 200)
        fprintf(stderr, "%s %s -> %u %.*s\n", path, body, an->status,
                (int)an->len, an->body);
    assert_int_equal(an->status, 200);
    assert_string_equal(an->content_type, "application/json");
    return body_json(state, an);
}

/* POST body to path, expect a problem: its body (a new reference). */
static json_t *refused(void **state, const char *path, const char *body,
                       unsigned status, const char *slug)
{
    return problem(state, call(state, path, body), status, slug);
}

static long long num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);

    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static void assert_detail_has(const json_t *p, const char *needle)
{
    const char *d = apitest_str(p, "detail");

    if (strstr(d, needle) == NULL)
        fprintf(stderr, "detail \"%s\" lacks \"%s\"\n", d, needle);
    assert_non_null(strstr(d, needle));
}

/* body solved by /v1/solve in length moves. */
static void assert_solved_in(void **state, const char *body, long long length)
{
    json_t *j = ok(state, "/v1/solve", body);

    assert_string_equal(apitest_str(j, "status"), "solved");
    assert_int_equal(num(j, "length"), length);
    json_decref(j);
}

static void test_solve_easy_answer(void **state)
{
    json_t *j = ok(state, "/v1/solve", "{\"board\": \"1 2 3 4 5 6 7 0 8\"}");
    json_t *stats = json_object_get(j, "stats");

    assert_string_equal(apitest_str(j, "status"), "solved");
    assert_true(json_is_true(json_object_get(j, "optimal")));
    assert_int_equal(num(j, "length"), 1);
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(j, "moves"), 0)), "right");
    assert_int_equal(json_integer_value(json_array_get(
        json_object_get(j, "tiles"), 0)), 8);
    assert_true(num(stats, "arena_bytes") > 0);
    assert_true(num(stats, "expanded") >= 1);
    assert_null(json_object_get(j, "path"));
    json_decref(j);
}

static void test_solve_board_forms(void **state)
{
    static const char *const bodies[] = {
        "{\"board\": [[1,2,3],[4,5,6],[7,0,8]]}",
        "{\"board\": [1,2,3,4,5,6,7,0,8]}",
        "{\"board\": \"123456708\"}",
        "{\"board\": \"1 2 3 / 4 5 6 / 7 0 8\", \"goal\": null}",
        "{\"board\": [1,2,0,3], \"goal\": [[1,2],[3,0]]}",
        "{\"board\": \"0 1 2 3 4 5 6 7 8\", \"goal\": \"1 0 2 3 4 5 6 7 8\"}",
    };

    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++)
        assert_solved_in(state, bodies[i], 1);
}

/* The path is every board on the way, each as rows. */
static void test_solve_include_path_rows(void **state)
{
    json_t *j = ok(state, "/v1/solve", "{\"board\": \"1 2 3 4 5 6 0 7 8\", "
                   "\"include_path\": true}");
    json_t *path = json_object_get(j, "path");

    assert_int_equal(num(j, "length"), 2);
    assert_int_equal(json_array_size(path), 3);
    assert_int_equal(json_array_size(json_array_get(path, 0)), 3);
    json_decref(j);
}

static void test_solve_algorithms(void **state)
{
    static const char *const algs[] = { "astar", "idastar", "bfs", "auto" };
    char body[200];

    for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
        snprintf(body, sizeof(body), "{\"board\": \"1 2 3 4 5 6 0 7 8\", "
                 "\"algorithm\": \"%s\", \"heuristic\": \"manhattan\"}",
                 algs[i]);
        assert_solved_in(state, body, 2);
    }
}

/* wastar's weight: 1 is A* (optimal length), 3 stays within 3x, and a
 * weight that is not an integer 1..100 is a 422 pointing at it. */
static void test_solve_wastar_weight(void **state)
{
    json_t *j = ok(state, "/v1/solve", "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                   "\"algorithm\": \"wastar\", \"weight\": 1}");

    assert_string_equal(apitest_str(j, "algorithm"), "wastar");
    assert_int_equal(num(j, "length"), 31);
    /* Weighted A* proves nothing by itself, but on 3x3 the start's lower
     * bound is the exact table's 31: a path that long is proven optimal. */
    assert_int_equal(num(j, "lower_bound"), 31);
    assert_true(json_is_true(json_object_get(j, "optimal")));
    json_decref(j);
    j = ok(state, "/v1/solve", "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
           "\"algorithm\": \"wastar\", \"weight\": 3}");
    assert_true(num(j, "length") >= 31 && num(j, "length") <= 93);
    json_decref(j);
    j = refused(state, "/v1/solve", "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                "\"weight\": \"heavy\"}", 422, "invalid-option");
    assert_string_equal(apitest_str(j, "pointer"), "/weight");
    json_decref(j);
}

/* A node limit or a deadline reached is an answer that proves nothing. */
static void test_solve_limits_not_optimal(void **state)
{
    json_t *j = ok(state, "/v1/solve", "{\"board\": \"8 6 7 2 5 4 3 0 1\", "
                   "\"heuristic\": \"misplaced\", \"limits\": "
                   "{\"max_nodes\": 50}}");

    assert_string_equal(apitest_str(j, "status"), "limit_nodes");
    assert_false(json_is_true(json_object_get(j, "optimal")));
    json_decref(j);
    j = ok(state, "/v1/solve", "{\"board\": \"0 12 9 13 15 11 10 14 3 7 2 "
           "5 4 8 6 1\", \"algorithm\": \"idastar\", \"heuristic\": "
           "\"misplaced\", \"limits\": {\"timeout_ms\": 50}}");
    assert_string_equal(apitest_str(j, "status"), "timeout");
    assert_false(json_is_true(json_object_get(j, "optimal")));
    json_decref(j);
}

/* Where malformed JSON is, in the detail too; the depth bound is the
 * default's 32. */
static void test_malformed_json_detail(void **state)
{
    char body[256];
    size_t n = 0;
    json_t *p = refused(state, "/v1/solve", "{\"board\": [1,2,\n  3,]}", 400,
                        "malformed-json");

    assert_int_equal(num(p, "line"), 2);
    assert_true(num(p, "column") > 0);
    assert_detail_has(p, "line 2");
    json_decref(p);
    p = refused(state, "/v1/solve", "{\"board\": \"1\", \"board\": \"2\"}",
                400, "malformed-json");
    assert_detail_has(p, "duplicate");
    json_decref(p);
    p = refused(state, "/v1/solve", "", 400, "malformed-json");
    assert_detail_has(p, "empty");
    json_decref(p);
    json_decref(refused(state, "/v1/solve", "{\"board\": \"\xff\xfe\"}", 400,
                        "malformed-json"));
    n += (size_t)snprintf(body, sizeof(body), "{\"board\": ");
    for (int i = 0; i < 40; i++)
        body[n++] = '[';
    for (int i = 0; i < 40; i++)
        body[n++] = ']';
    snprintf(body + n, sizeof(body) - n, "}");
    p = refused(state, "/v1/solve", body, 400, "malformed-json");
    assert_detail_has(p, "nested deeper than 32");
    assert_int_equal(num(p, "line"), 1);
    json_decref(p);
}

/* A refused body, what its detail says and where it points (NULL: no
 * pointer checked). */
struct refusal {
    const char *body, *needle, *pointer;
};

/* Every case of cs refused by /v1/solve with 422 and slug. */
static void assert_refusals(void **state, const struct refusal *cs,
                            size_t n, const char *slug)
{
    for (size_t i = 0; i < n; i++) {
        json_t *p = refused(state, "/v1/solve", cs[i].body, 422, slug);

        assert_detail_has(p, cs[i].needle);
        if (cs[i].pointer != NULL)
            assert_string_equal(apitest_str(p, "pointer"), cs[i].pointer);
        json_decref(p);
    }
}

static void test_invalid_requests_named(void **state)
{
    static const struct refusal cases[] = {
        { "[1,2,3]", "JSON object", NULL },
        { "{\"goal\": \"1 2 3 0\"}", "\"board\" is required", NULL },
        { "{\"board\": \"1 2 3 0\", \"limits\": {\"max_nodes\": \"many\"}}",
          "", "/limits/max_nodes" },
        { "{\"board\": \"1 2 3 0\", \"limits\": {\"timeout_ms\": 0}}", "",
          NULL },
        { "{\"board\": \"1 2 3 0\", \"include_path\": 1}", "", NULL },
        { "{\"board\": \"1 2 3 0\", \"algorithm\": 7}", "", NULL },
    };
    json_t *p;

    assert_refusals(state, cases, sizeof(cases) / sizeof(cases[0]),
                    "invalid-request");
    p = refused(state, "/v1/solve", "{\"bord\": \"1 2 3 0\"}", 422,
                "invalid-request");
    assert_detail_has(p, "unknown field \"bord\"");
    assert_true(json_array_size(json_object_get(p, "allowed")) >= 6);
    assert_string_equal(apitest_str(p, "pointer"), "/bord");
    json_decref(p);
}

static void test_invalid_boards_named(void **state)
{
    static const struct refusal cases[] = {
        { "{\"board\": [[1,2,3],[4,5],[6,7,0]]}", "row 1 has 2 tiles",
          "/board/1" },
        /* 3 rows of 2 is a 3x2 rectangle now (issue 33): a row of 9 is
         * what is too long */
        { "{\"board\": [[1,2,3,4,5,6,7,8,9],[0,10,11,12,13,14,15,16,17]]}",
          "row 0 has 9 tiles", "/board/0" },
        { "{\"board\": [[1,2],3]}", "row 1 is an integer", "/board/1" },
        { "{\"board\": [1,2,3.5,0]}", "tiles are whole numbers",
          "/board/2" },
        { "{\"board\": [1,\"2\",3,0]}", "a string", "/board/1" },
        { "{\"board\": [1,true,3,0]}", "a boolean", "/board/1" },
        { "{\"board\": [1,2,3,99999999999]}", "", "/board" },
        { "{\"board\": [1,1,2,0]}", "", "/board" },
        { "{\"board\": [1,2,3]}", "", "/board" },
        { "{\"board\": []}", "empty", "/board" },
        { "{\"board\": {}}", "an object", "/board" },
        { "{\"board\": \"1 2 x 0\"}", "", "/board" },
        { "{\"board\": \"1 2 3 0\", \"goal\": \"1 2 3 4 5 6 7 8 0\"}",
          "the goal is 3x3 but the board is 2x2", "/goal" },
    };

    assert_refusals(state, cases, sizeof(cases) / sizeof(cases[0]),
                    "invalid-board");
}

/* An unsolvable board is explained (the parity), not just refused. */
static void test_unsolvable_explained(void **state)
{
    json_t *p = refused(state, "/v1/solve", "{\"board\": \"1 2 3 4 5 6 8 7 "
                        "0\"}", 422, "unsolvable");

    assert_true(strlen(apitest_str(p, "detail")) > 20);
    assert_string_equal(apitest_str(p, "instance"), "/v1/solve");
    json_decref(p);
}

static void test_unknown_options_list_valid(void **state)
{
    json_t *p = refused(state, "/v1/solve", "{\"board\": \"1 2 3 0\", "
                        "\"algorithm\": \"quantum\"}", 422, "invalid-option");
    json_t *allowed = json_object_get(p, "allowed");

    assert_detail_has(p, "quantum");
    assert_true(json_array_size(allowed) >= 6);
    assert_string_equal(json_string_value(json_array_get(allowed, 1)),
                        "astar");
    json_decref(p);
    p = refused(state, "/v1/solve", "{\"board\": \"1 2 3 0\", "
                "\"heuristic\": \"psychic\"}", 422, "invalid-option");
    assert_true(json_array_size(json_object_get(p, "allowed")) >= 3);
    json_decref(p);
}

/* Each failed entry is a problem of its own, pointing into the body. */
static void test_batch_entries_answered(void **state)
{
    json_t *j = ok(state, "/v1/solve/batch", "{\"boards\": ["
                   "\"1 2 3 4 5 6 7 0 8\", [[1,2,3],[4,5],[7,8,0]], "
                   "\"1 2 3 4 5 6 8 7 0\", [1,2,3,0]], "
                   "\"heuristic\": \"manhattan\"}");
    json_t *res = json_object_get(j, "results"), *e;

    assert_int_equal(num(j, "count"), 4);
    assert_int_equal(num(j, "solved"), 2);
    assert_int_equal(num(j, "failed"), 2);
    assert_int_equal(json_array_size(res), 4);
    assert_string_equal(apitest_str(json_array_get(res, 0), "status"),
                        "solved");
    e = json_array_get(res, 1);
    assert_int_equal(num(e, "status"), 422);
    assert_string_equal(apitest_str(e, "type"),
                        "https://puzzled.dev/problems/invalid-board");
    assert_string_equal(apitest_str(e, "pointer"), "/boards/1/1");
    e = json_array_get(res, 2);
    assert_string_equal(apitest_str(e, "type"),
                        "https://puzzled.dev/problems/unsolvable");
    assert_string_equal(apitest_str(e, "pointer"), "/boards/2");
    assert_int_equal(num(json_array_get(res, 3), "length"), 0);
    json_decref(j);
}

static void test_batch_limits(void **state)
{
    json_t *p = refused(state, "/v1/solve/batch", "{\"boards\": "
                        "[\"1 2 3 0\",\"1 2 3 0\",\"1 2 3 0\","
                        "\"1 2 3 0\",\"1 2 3 0\",\"1 2 3 0\"]}", 422,
                        "invalid-request");

    assert_detail_has(p, "1 to 5 boards");
    json_decref(p);
    json_decref(refused(state, "/v1/solve/batch", "{\"boards\": []}", 422,
                        "invalid-request"));
    json_decref(refused(state, "/v1/solve/batch", "{\"board\": \"1 2 3 0\"}",
                        422, "invalid-request"));
    json_decref(refused(state, "/v1/solve/batch", "{\"boards\": "
                        "[\"1 2 3 0\"], \"algorithm\": \"x\"}", 422,
                        "invalid-option"));
}

/* A random board of a given distance is that far: its solve says so. */
static void test_random_exact_distance(void **state)
{
    json_t *j = body_json(state, random_q(state, "size=3&moves=20&seed=7"));
    json_t *again, *solved;
    char body[128];

    assert_int_equal(num(j, "size"), 3);
    assert_int_equal(num(j, "optimal_moves"), 20);
    assert_int_equal(num(j, "seed"), 7);
    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", apitest_str(j,
             "text"));
    solved = ok(state, "/v1/solve", body);
    assert_int_equal(num(solved, "length"), 20);
    json_decref(solved);
    /* The same seed gives the same board (size 3 is the default). */
    again = body_json(state, random_q(state, "seed=7&moves=20"));
    assert_string_equal(apitest_str(again, "text"), apitest_str(j, "text"));
    json_decref(again);
    json_decref(j);
}

static void test_random_sizes(void **state)
{
    json_t *j = body_json(state, random_q(state, "size=4&moves=30"));

    assert_int_equal(((struct apitest *)*state)->call.answer.status, 200);
    assert_int_equal(json_array_size(json_object_get(j, "board")), 4);
    /* no table knows a 4x4 board's distance */
    assert_true(json_is_null(json_object_get(j, "optimal_moves")));
    json_decref(j);
    j = body_json(state, random_q(state, NULL));
    assert_int_equal(num(j, "size"), 3);
    json_decref(j);
}

static void test_random_bad_values(void **state)
{
    static const char *const queries[] = {
        "size=9", "size=1", "moves=32", "moves=abc", "moves=-1",
        "size=3&size=3", "difficulty=hard", "seed=9007199254740992",
        "moves=", "size=3.0",
    };

    for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]); i++)
        json_decref(problem(state, random_q(state, queries[i]), 400,
                            "invalid-query"));
}

static void test_score_rules(void **state)
{
    json_t *j = ok(state, "/v1/score", "{\"board\": \"1 2 3 4 5 6 7 0 8\", "
                   "\"moves\": [\"right\"]}");

    assert_true(json_is_true(json_object_get(j, "legal")));
    assert_true(json_is_true(json_object_get(j, "solved")));
    assert_int_equal(num(j, "player_moves"), 1);
    assert_int_equal(num(j, "optimal_moves"), 1);
    assert_true(json_real_value(json_object_get(j, "score")) == 1.0);
    json_decref(j);
    /* Tile numbers and a detour: 1 optimal over 3 played. */
    j = ok(state, "/v1/score", "{\"board\": [1,2,3,4,5,6,7,0,8], "
           "\"moves\": [7, 7, 8]}");
    assert_true(json_is_true(json_object_get(j, "solved")));
    assert_int_equal(num(j, "player_moves"), 3);
    assert_true(json_real_value(json_object_get(j, "score")) > 0.33
                && json_real_value(json_object_get(j, "score")) < 0.34);
    json_decref(j);
}

static void test_score_illegal_and_unsolved(void **state)
{
    json_t *j = ok(state, "/v1/score", "{\"board\": \"1 2 3 4 5 6 7 0 8\", "
                   "\"moves\": [\"left\", \"down\"]}");

    assert_false(json_is_true(json_object_get(j, "legal")));
    assert_false(json_is_true(json_object_get(j, "solved")));
    assert_int_equal(num(json_object_get(j, "illegal_move"), "index"), 1);
    assert_int_equal(num(j, "player_moves"), 1);
    assert_true(json_real_value(json_object_get(j, "score")) == 0.0);
    json_decref(j);
    j = ok(state, "/v1/score", "{\"board\": \"1 2 3 4 5 6 7 0 8\", "
           "\"moves\": [\"left\"]}");
    assert_true(json_is_true(json_object_get(j, "legal")));
    assert_false(json_is_true(json_object_get(j, "solved")));
    json_decref(j);
    json_decref(refused(state, "/v1/score", "{\"board\": \"1 2 3 4 5 6 7 0 "
                        "8\", \"moves\": [\"jump\"]}", 422,
                        "invalid-request"));
    json_decref(refused(state, "/v1/score", "{\"board\": \"1 2 3 4 5 6 7 0 "
                        "8\"}", 422, "invalid-request"));
    json_decref(refused(state, "/v1/score", "{\"board\": \"1 2 3 4 5 6 8 7 "
                        "0\", \"moves\": []}", 422, "unsolvable"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_route_table),
        cmocka_unit_test(test_path_match),
        cmocka_unit_test(test_path_param_bounds),
        cmocka_unit_test(test_path_param_by_name),
        cmocka_unit_test_setup_teardown(test_solve_answers_json, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_hard_is_31, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_problems, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_fast_path_same_answers,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_solve_limit_is_an_answer, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_draining_refuses_with_retry_after, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancelled_work_never_searches,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_walk_answered_at_start,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_batch_partial_failure, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_batch_too_many, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_answer_over_response_cap,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_answer_over_memory_budget,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_answer_bytes_over_memory_budget, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_batch_entries_over_cap_limit_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_score_3x3_inline, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_score_illegal_move, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_score_4x4_searches, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_random_seeded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_bad_query, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_easy_answer, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_board_forms, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_include_path_rows, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_algorithms, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_wastar_weight, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_solve_limits_not_optimal, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_malformed_json_detail, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_invalid_requests_named, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_invalid_boards_named, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unsolvable_explained, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unknown_options_list_valid, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_batch_entries_answered, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_batch_limits, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_random_exact_distance, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_random_sizes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_random_bad_values, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_score_rules, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_score_illegal_and_unsolved, setup,
                                        teardown),
    };

    return cmocka_run_group_tests(tests, test_tables3_setup,
                                  test_tables3_teardown);
}
