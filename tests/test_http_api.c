/*
 * test_http_api.c - the HTTP API end to end against a real in-process
 * server on a loopback port, for what needs a socket: the server's own
 * routes (livez, healthz, readyz, metrics, the spec, static files),
 * framing (HEAD, chunked bodies, the body cap's 413), content types
 * (415, curl's form type), 404/405 with Allow, CORS, request ids, the
 * Server header and the access log. What a request means (solve, batch,
 * score, random and their problems) is asserted on strings in
 * tests/test_api_*.c; one answer of each kind still comes here so that
 * every response is recorded for the OpenAPI check (htest.h).
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

#include "support/htest.h"
#include "puz_algorithm.h"
#include "puz_version.h"

#define EASY "{\"board\": \"1 2 3 4 5 6 7 0 8\"}"

struct fixture {
    http_server *srv;
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct http_config c;

    htest_config(&c);
    c.api.max_body_bytes = 4096;
    c.api.batch_max = 5;
    f->srv = htest_start(&c);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    http_server_destroy(f->srv);
    free(f);
    return 0;
}

static http_server *srv_of(void **state)
{
    return ((struct fixture *)*state)->srv;
}

/* POST a body, expect 200 JSON; returns the parsed body. */
static json_t *post_ok(void **state, const char *path, const char *body)
{
    struct htest_resp r;
    json_t *j;

    assert_int_equal(htest_post(srv_of(state), path, body, &r), 0);
    if (r.status != 200)
        fprintf(stderr, "%s %s -> %ld %s\n", path, body, r.status, r.body);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/json");
    j = htest_json(&r);
    htest_resp_free(&r);
    return j;
}

/* POST a body, expect a problem; returns its detail in buf. */
static json_t *post_problem(void **state, const char *path,
                            const char *body, long status, const char *slug)
{
    struct htest_resp r;
    json_t *j;

    assert_int_equal(htest_post(srv_of(state), path, body, &r), 0);
    j = htest_problem(&r, status, slug);
    htest_resp_free(&r);
    return j;
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    assert_non_null(s);
    return s;
}

static long long num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);

    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static void assert_detail_has(json_t *problem, const char *needle)
{
    const char *d = str(problem, "detail");

    if (strstr(d, needle) == NULL)
        fprintf(stderr, "detail \"%s\" lacks \"%s\"\n", d, needle);
    assert_non_null(strstr(d, needle));
}

static void test_livez_healthz_readyz(void **state)
{
    const char *paths[] = { "/livez", "/healthz" };
    struct htest_resp r;
    json_t *j;

    for (int i = 0; i < 2; i++) {
        assert_int_equal(htest_get(srv_of(state), paths[i], &r), 0);
        assert_int_equal(r.status, 200);
        j = htest_json(&r);
        assert_string_equal(str(j, "status"), "ok");
        json_decref(j);
        htest_resp_free(&r);
    }
    assert_int_equal(htest_get(srv_of(state), "/readyz", &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    assert_string_equal(str(j, "status"), "ready");
    assert_true(json_is_true(json_object_get(json_object_get(j, "checks"),
                                             "workers")));
    json_decref(j);
    htest_resp_free(&r);
}

/* Over HTTP once (the rest is test_api_catalog.c on strings): the
 * recorded answer is checked against openapi.yaml's Catalog schema. */
static void test_catalog(void **state)
{
    struct htest_resp r;
    json_t *j;

    assert_int_equal(htest_get(srv_of(state), "/v1/catalog", &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    assert_int_equal(json_array_size(json_object_get(j, "algorithms")),
                     PUZ_ALG_COUNT_);
    json_decref(j);
    htest_resp_free(&r);
}

static void test_head_has_no_body(void **state)
{
    struct htest_req rq = { .method = "HEAD", .path = "/livez" };
    struct htest_resp r;

    assert_int_equal(htest_do(srv_of(state), &rq, &r), 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.len, 0);
    htest_resp_free(&r);
}

/*
 * One answer of each kind the socket-free suites judge, sent over HTTP
 * so that openapi_check.sh validates it against the spec: every route
 * and status, and the variants of the answers' schemas (a path, limits
 * reached, a weighted search's bound, failed batch entries, an illegal
 * move, a board no table measures, a problem with "allowed"). What they
 * mean is asserted on strings in test_api_routes.c; here only that each
 * arrives whole with its status and type.
 */
static void test_recorded_answers(void **state)
{
    static const struct {
        const char *path, *body, *slug;
        long status;
    } cases[] = {
        { "/v1/solve", "{\"board\": \"1 2 3 4 5 6 0 7 8\", \"include_path\""
          ": true}", NULL, 200 },
        { "/v1/solve", "{\"board\": \"8 6 7 2 5 4 3 0 1\", \"algorithm\": "
          "\"wastar\", \"weight\": 3}", NULL, 200 },
        { "/v1/solve", "{\"board\": \"8 6 7 2 5 4 3 0 1\", \"heuristic\": "
          "\"misplaced\", \"limits\": {\"max_nodes\": 50}}", NULL, 200 },
        { "/v1/solve", "{\"board\": \"0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 "
          "1\", \"algorithm\": \"idastar\", \"heuristic\": \"misplaced\", "
          "\"limits\": {\"timeout_ms\": 50}}", NULL, 200 },
        { "/v1/solve", "{\"bord\": \"1 2 3 0\"}", "invalid-request", 422 },
        { "/v1/solve", "{\"board\": \"1 2 3 0\", \"algorithm\": \"quantum\"}",
          "invalid-option", 422 },
        { "/v1/solve", "{\"board\": \"1 2 3 4 5 6 8 7 0\"}", "unsolvable",
          422 },
        { "/v1/solve/batch", "{\"boards\": [\"1 2 3 4 5 6 7 0 8\", "
          "[[1,2,3],[4,5],[7,8,0]], \"1 2 3 4 5 6 8 7 0\", [1,2,3,0]]}", NULL,
          200 },
        { "/v1/solve/batch", "{\"boards\": []}", "invalid-request", 422 },
        { "/v1/score", "{\"board\": \"1 2 3 4 5 6 7 0 8\", \"moves\": "
          "[\"left\", \"down\"]}", NULL, 200 },
        { "/v1/score", "{\"board\": [1,2,3,4,5,6,7,0,8], \"moves\": [7, 7, "
          "8]}", NULL, 200 },
        { "/v1/score", "{\"board\": \"1 2 3 4 5 6 7 0 8\", \"moves\": "
          "[\"jump\"]}", "invalid-request", 422 },
        { "/v1/puzzles/random?size=3&moves=20&seed=7", NULL, NULL, 200 },
        { "/v1/puzzles/random?size=4&moves=30", NULL, NULL, 200 },
        { "/v1/puzzles/random?size=9", NULL, "invalid-query", 400 },
    };
    struct htest_resp r;

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (cases[i].body != NULL)
            assert_int_equal(htest_post(srv_of(state), cases[i].path,
                                        cases[i].body, &r), 0);
        else
            assert_int_equal(htest_get(srv_of(state), cases[i].path, &r), 0);
        if (cases[i].slug != NULL) {
            json_decref(htest_problem(&r, cases[i].status, cases[i].slug));
        } else {
            if (r.status != 200)
                fprintf(stderr, "%s -> %ld %s\n", cases[i].path, r.status,
                        r.body);
            assert_int_equal(r.status, 200);
            assert_string_equal(r.content_type, "application/json");
            json_decref(htest_json(&r));
        }
        htest_resp_free(&r);
    }
}

static void test_not_found(void **state)
{
    static const char *const paths[] = {
        "/v1/nope", "/v1/solve/", "/nope.html", "/v1",
    };
    struct htest_resp r;

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        struct htest_req rq = { .path = paths[i], .route = "*" };

        assert_int_equal(htest_do(srv_of(state), &rq, &r), 0);
        json_decref(htest_problem(&r, 404, "not-found"));
        htest_resp_free(&r);
    }
}

static void test_method_not_allowed(void **state)
{
    struct htest_req get = { .path = "/v1/solve" };
    struct htest_req post = { .path = "/livez", .body = "{}" };
    struct htest_req del = { .method = "DELETE", .path = "/metrics" };
    struct htest_resp r;
    char allow[64];

    assert_int_equal(htest_do(srv_of(state), &get, &r), 0);
    json_decref(htest_problem(&r, 405, "method-not-allowed"));
    assert_string_equal(htest_header(&r, "Allow", allow, sizeof(allow)),
                        "POST, OPTIONS");
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &post, &r), 0);
    json_decref(htest_problem(&r, 405, "method-not-allowed"));
    assert_string_equal(htest_header(&r, "Allow", allow, sizeof(allow)),
                        "GET, HEAD, OPTIONS");
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &del, &r), 0);
    json_decref(htest_problem(&r, 405, "method-not-allowed"));
    htest_resp_free(&r);
    {
        static const char *const gets[] = {
            "/healthz", "/readyz", "/openapi.yaml", "/v1/puzzles/random",
        };

        for (size_t i = 0; i < sizeof(gets) / sizeof(gets[0]); i++) {
            post.path = gets[i];
            assert_int_equal(htest_do(srv_of(state), &post, &r), 0);
            json_decref(htest_problem(&r, 405, "method-not-allowed"));
            htest_resp_free(&r);
        }
    }
}

static char *big_body(size_t n)
{
    char *b = malloc(n + 1);

    memset(b, ' ', n);
    memcpy(b, "{\"board\": \"1 2 3 0\"", 19);
    b[n - 1] = '}';
    b[n] = '\0';
    return b;
}

static void test_payload_too_large(void **state)
{
    char *body = big_body(5000);
    struct htest_req plain = { .path = "/v1/solve", .body = body };
    struct htest_req chunked = { .path = "/v1/solve", .body = body,
                                 .chunked = true };
    struct htest_resp r;
    json_t *p;

    assert_int_equal(htest_do(srv_of(state), &plain, &r), 0);
    p = htest_problem(&r, 413, "payload-too-large");
    assert_detail_has(p, "4096");
    json_decref(p);
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &chunked, &r), 0);
    json_decref(htest_problem(&r, 413, "payload-too-large"));
    htest_resp_free(&r);
    free(body);
    /* Just under the cap still works. */
    body = big_body(4000);
    json_decref(post_ok(state, "/v1/solve", body));
    free(body);
}

static void test_unsupported_media_type(void **state)
{
    static const char *const types[] = {
        "text/plain", "", "application/json; charset=latin1", "text/html",
        "multipart/form-data; boundary=x", "image/png",
    };
    struct htest_resp r;

    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        struct htest_req rq = { .path = "/v1/solve", .body = EASY,
                                .content_type = types[i] };

        assert_int_equal(htest_do(srv_of(state), &rq, &r), 0);
        json_decref(htest_problem(&r, 415, "unsupported-media-type"));
        htest_resp_free(&r);
    }
    {
        struct htest_req ok = { .path = "/v1/solve", .body = EASY,
                                .content_type = "application/json; "
                                "charset=UTF-8" };

        assert_int_equal(htest_do(srv_of(state), &ok, &r), 0);
        assert_int_equal(r.status, 200);
        htest_resp_free(&r);
    }
}

/*
 * `curl -d '{"board": ...}'` labels its JSON body with curl's default,
 * application/x-www-form-urlencoded: the body is read as JSON when it is
 * JSON (an object or array), and a real form body is still a 415.
 */
static void test_form_type_json_body(void **state)
{
    struct htest_req curl_d = { .path = "/v1/solve", .body = EASY,
                                .content_type =
                                "application/x-www-form-urlencoded" };
    struct htest_req form = { .path = "/v1/solve",
                              .body = "board=1+2+3+4+5+6+7+0+8",
                              .content_type =
                              "application/x-www-form-urlencoded" };
    struct htest_req broken = { .path = "/v1/score", .body = "{\"board\": ",
                                .content_type =
                                "application/x-www-form-urlencoded" };
    struct htest_resp r;
    json_t *p;

    assert_int_equal(htest_do(srv_of(state), &curl_d, &r), 0);
    assert_int_equal(r.status, 200);
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &form, &r), 0);
    p = htest_problem(&r, 415, "unsupported-media-type");
    assert_detail_has(p, "application/json");
    json_decref(p);
    htest_resp_free(&r);
    /* JSON meant, JSON broken: the same 400 as with application/json. */
    assert_int_equal(htest_do(srv_of(state), &broken, &r), 0);
    json_decref(htest_problem(&r, 400, "malformed-json"));
    htest_resp_free(&r);
}

/* Every JSON route refuses the same three ways. */
static void test_json_routes_share_errors(void **state)
{
    static const char *const routes[] = {
        "/v1/solve", "/v1/solve/batch", "/v1/score",
    };
    char *big = big_body(6000);
    struct htest_resp r;

    for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        struct htest_req text = { .path = routes[i], .body = "{}",
                                  .content_type = "text/plain" };
        struct htest_req large = { .path = routes[i], .body = big };

        json_decref(post_problem(state, routes[i], "{\"board\": ", 400,
                                 "malformed-json"));
        assert_int_equal(htest_do(srv_of(state), &text, &r), 0);
        json_decref(htest_problem(&r, 415, "unsupported-media-type"));
        htest_resp_free(&r);
        assert_int_equal(htest_do(srv_of(state), &large, &r), 0);
        json_decref(htest_problem(&r, 413, "payload-too-large"));
        htest_resp_free(&r);
    }
    free(big);
}

static void test_options_unknown_path(void **state)
{
    struct htest_req rq = { .method = "OPTIONS", .path = "/v1/solver",
                            .route = "*" };
    struct htest_resp r;

    assert_int_equal(htest_do(srv_of(state), &rq, &r), 0);
    json_decref(htest_problem(&r, 404, "not-found"));
    htest_resp_free(&r);
}

static void test_cors(void **state)
{
    const char *hdrs[] = { "Origin: https://game.example",
                           "Access-Control-Request-Method: POST",
                           "Access-Control-Request-Headers: content-type",
                           NULL };
    struct htest_req pre = { .method = "OPTIONS", .path = "/v1/solve",
                             .headers = hdrs };
    struct htest_req simple = { .path = "/v1/solve", .body = EASY,
                                .headers = hdrs };
    struct htest_resp r;
    char v[128];

    assert_int_equal(htest_do(srv_of(state), &pre, &r), 0);
    assert_int_equal(r.status, 204);
    assert_string_equal(htest_header(&r, "Access-Control-Allow-Origin", v,
                                     sizeof(v)), "*");
    assert_non_null(strstr(htest_header(&r, "Access-Control-Allow-Methods",
                                        v, sizeof(v)), "POST"));
    assert_non_null(strstr(htest_header(&r, "Access-Control-Allow-Headers",
                                        v, sizeof(v)), "Content-Type"));
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &simple, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(htest_header(&r, "Access-Control-Allow-Origin", v,
                                     sizeof(v)), "*");
    assert_non_null(strstr(htest_header(&r, "Access-Control-Expose-Headers",
                                        v, sizeof(v)), "X-Request-Id"));
    htest_resp_free(&r);
}

static void test_cors_allow_list(void **state)
{
    const char *good[] = { "Origin: https://game.example", NULL };
    const char *bad[] = { "Origin: https://evil.example", NULL };
    struct htest_req rq = { .path = "/livez", .headers = good };
    struct http_config c;
    struct htest_resp r;
    http_server *s;
    char v[128];

    (void)state;
    htest_config(&c);
    strcpy(c.cors_origins, "https://a.example, https://game.example");
    s = htest_start(&c);
    assert_int_equal(htest_do(s, &rq, &r), 0);
    assert_string_equal(htest_header(&r, "Access-Control-Allow-Origin", v,
                                     sizeof(v)), "https://game.example");
    assert_string_equal(htest_header(&r, "Vary", v, sizeof(v)), "Origin");
    htest_resp_free(&r);
    rq.headers = bad;
    assert_int_equal(htest_do(s, &rq, &r), 0);
    assert_int_equal(r.status, 200);
    assert_null(htest_header(&r, "Access-Control-Allow-Origin", v,
                             sizeof(v)));
    htest_resp_free(&r);
    http_server_destroy(s);
}

static void test_request_id(void **state)
{
    const char *given[] = { "X-Request-Id: trace-42.a:b", NULL };
    const char *bad[] = { "X-Request-Id: has spaces and \"quotes\"", NULL };
    struct htest_req rq = { .path = "/livez", .headers = given };
    struct htest_resp r;
    char v[128];

    assert_int_equal(htest_do(srv_of(state), &rq, &r), 0);
    assert_string_equal(htest_header(&r, "X-Request-Id", v, sizeof(v)),
                        "trace-42.a:b");
    htest_resp_free(&r);
    rq.headers = bad;
    assert_int_equal(htest_do(srv_of(state), &rq, &r), 0);
    assert_int_equal(strlen(htest_header(&r, "X-Request-Id", v, sizeof(v))),
                     16);
    htest_resp_free(&r);
    assert_int_equal(htest_post(srv_of(state), "/v1/solve", "{", &r), 0);
    assert_non_null(htest_header(&r, "X-Request-Id", v, sizeof(v)));
    {
        json_t *p = htest_problem(&r, 400, "malformed-json");

        assert_string_equal(str(p, "request_id"), v);
        json_decref(p);
    }
    htest_resp_free(&r);
}

/* Every answer names the release (puz_version.h), a success, a 404 and
 * a problem alike: one header added where every response is queued. */
static void test_server_header(void **state)
{
    static const char *const paths[] = { "/livez", "/no-such-path" };
    struct htest_resp r;
    char v[128];

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        assert_int_equal(htest_get(srv_of(state), paths[i], &r), 0);
        assert_non_null(htest_header(&r, "Server", v, sizeof(v)));
        assert_string_equal(v, "puzzled/" PUZ_VERSION);
        htest_resp_free(&r);
    }
    assert_int_equal(htest_post(srv_of(state), "/v1/solve", "{", &r), 0);
    assert_int_equal(r.status, 400);
    assert_non_null(htest_header(&r, "Server", v, sizeof(v)));
    assert_string_equal(v, "puzzled/" PUZ_VERSION);
    htest_resp_free(&r);
}

static void test_metrics(void **state)
{
    static const char *const needles[] = {
        "puzzled_http_requests_total{route=\"/v1/solve\",code=\"200\"}",
        "puzzled_http_requests_total{route=\"/v1/solve\",code=\"422\"}",
        "# TYPE puzzled_solve_duration_seconds histogram",
        "puzzled_solve_duration_seconds_bucket{le=\"+Inf\"}",
        "puzzled_solve_expanded_nodes_bucket{le=\"1000\"}",
        "puzzled_queue_depth 0", "puzzled_workers 2",
        "puzzled_http_threads 2",
        "puzzled_workers_busy", "puzzled_request_arena_bytes_count",
        "puzzled_solves_total{status=\"solved\"}",
        "puzzled_build_info{version=\"" PUZ_VERSION "\"} 1\n",
    };
    struct htest_resp r;

    json_decref(post_ok(state, "/v1/solve", EASY));
    assert_int_equal(htest_get(srv_of(state), "/metrics", &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type,
                        "text/plain; version=0.0.4; charset=utf-8");
    for (size_t i = 0; i < sizeof(needles) / sizeof(needles[0]); i++) {
        if (strstr(r.body, needles[i]) == NULL)
            fprintf(stderr, "metrics lack %s\n", needles[i]);
        assert_non_null(strstr(r.body, needles[i]));
    }
    htest_resp_free(&r);
}

static void test_openapi_served(void **state)
{
    struct htest_resp r;

    assert_int_equal(htest_get(srv_of(state), "/openapi.yaml", &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/yaml");
    assert_non_null(strstr(r.body, "openapi: 3.1"));
    htest_resp_free(&r);
}

static void test_static_files(void **state)
{
    struct htest_req root = { .path = "/", .route = "/" };
    struct htest_req js = { .path = "/app.js", .route = "/{asset}" };
    struct htest_req sub = { .path = "/sub/", .route = "/{asset}" };
    struct htest_resp r;
    char v[128], etag[64];
    const char *cond[] = { etag, NULL };

    assert_int_equal(htest_do(srv_of(state), &root, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "text/html; charset=utf-8");
    assert_non_null(strstr(r.body, "<h1>puzzled</h1>"));
    assert_string_equal(htest_header(&r, "Cache-Control", v, sizeof(v)),
                        "no-cache");
    snprintf(etag, sizeof(etag), "If-None-Match: %s",
             htest_header(&r, "ETag", v, sizeof(v)));
    htest_resp_free(&r);
    root.headers = cond;
    assert_int_equal(htest_do(srv_of(state), &root, &r), 0);
    assert_int_equal(r.status, 304);
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &js, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "text/javascript; charset=utf-8");
    assert_non_null(strstr(htest_header(&r, "Cache-Control", v, sizeof(v)),
                           "max-age"));
    snprintf(etag, sizeof(etag), "If-None-Match: %s",
             htest_header(&r, "ETag", v, sizeof(v)));
    htest_resp_free(&r);
    js.headers = cond;
    assert_int_equal(htest_do(srv_of(state), &js, &r), 0);
    assert_int_equal(r.status, 304);
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &sub, &r), 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "sub"));
    htest_resp_free(&r);
}

static void test_static_traversal_refused(void **state)
{
    static const char *const paths[] = {
        "/../Makefile", "/%2e%2e/Makefile", "/sub/../../Makefile",
        "/.env", "/leak.txt", "//etc/passwd", "/sub/..%2f..%2fMakefile",
        "/missing.js", "/sub",
    };
    struct htest_resp r;

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        struct htest_req rq = { .path = paths[i], .route = "/{asset}" };

        assert_int_equal(htest_do(srv_of(state), &rq, &r), 0);
        if (r.status != 404)
            fprintf(stderr, "%s -> %ld\n", paths[i], r.status);
        json_decref(htest_problem(&r, 404, "not-found"));
        htest_resp_free(&r);
    }
}

static void test_static_methods(void **state)
{
    struct htest_req post = { .path = "/index.html", .body = "{}",
                              .route = "/{asset}" };
    struct htest_req opt = { .method = "OPTIONS", .path = "/",
                             .route = "/" };
    struct htest_resp r;
    char v[64];

    assert_int_equal(htest_do(srv_of(state), &post, &r), 0);
    json_decref(htest_problem(&r, 405, "method-not-allowed"));
    htest_resp_free(&r);
    assert_int_equal(htest_do(srv_of(state), &opt, &r), 0);
    assert_int_equal(r.status, 204);
    assert_string_equal(htest_header(&r, "Allow", v, sizeof(v)),
                        "GET, HEAD, OPTIONS");
    htest_resp_free(&r);
}

static void test_no_static_root(void **state)
{
    struct http_config c;
    struct htest_req rq = { .path = "/", .route = "/" };
    struct htest_resp r;
    http_server *s;

    (void)state;
    htest_config(&c);
    strcpy(c.static_root, "test-output/does-not-exist");
    strcpy(c.openapi_path, "");
    /* Its start notes the missing root, as it should: not shown here,
     * where the root is missing on purpose. */
    s = htest_start_quiet(&c);
    assert_int_equal(htest_do(s, &rq, &r), 0);
    json_decref(htest_problem(&r, 404, "not-found"));
    htest_resp_free(&r);
    assert_int_equal(htest_get(s, "/openapi.yaml", &r), 0);
    json_decref(htest_problem(&r, 404, "not-found"));
    htest_resp_free(&r);
    rq.method = "OPTIONS";
    assert_int_equal(htest_do(s, &rq, &r), 0);
    json_decref(htest_problem(&r, 404, "not-found"));
    htest_resp_free(&r);
    http_server_destroy(s);
}

/* The access log's line for a request: its fields, and the W3C trace id
 * of its valid traceparent (none without one: a line names a trace only
 * when there is one to join it to). */
static void test_access_log(void **state)
{
    const char *traced[] = {
        "X-Request-Id: log-check-1",
        "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        NULL };
    const char *plain[] = { "X-Request-Id: log-check-2",
                            "traceparent: 00-not-a-trace", NULL };
    struct htest_req rq = { .path = "/v1/solve", .body = EASY,
                            .headers = traced };
    struct http_config c;
    struct htest_resp r;
    http_server *s;
    json_t *lines[2] = { NULL, NULL };
    char path[400], buf[4096];
    unsigned n = 0;
    FILE *f;

    (void)state;
    htest_config(&c);
    snprintf(path, sizeof(path), "%.300s/../access.log", htest_www());
    remove(path);
    snprintf(c.access_log, sizeof(c.access_log), "%s", path);
    s = htest_start(&c);
    assert_int_equal(htest_do(s, &rq, &r), 0);
    htest_resp_free(&r);
    rq.headers = plain;
    assert_int_equal(htest_do(s, &rq, &r), 0);
    htest_resp_free(&r);
    http_server_destroy(s);     /* completion (and its log line) is done */
    f = fopen(path, "r");
    assert_non_null(f);
    while (n < 2 && fgets(buf, sizeof(buf), f) != NULL) {
        json_t *line = json_loads(buf, 0, NULL);

        assert_non_null(line);
        /* in completion order, which a loaded machine may swap */
        lines[strcmp(str(line, "id"), "log-check-1") == 0 ? 0 : 1] = line;
        n++;
    }
    fclose(f);
    assert_non_null(lines[0]);
    assert_non_null(lines[1]);
    assert_string_equal(str(lines[0], "method"), "POST");
    assert_string_equal(str(lines[0], "path"), "/v1/solve");
    assert_int_equal(num(lines[0], "status"), 200);
    assert_true(num(lines[0], "expanded") >= 1);
    assert_true(json_is_number(json_object_get(lines[0], "duration_ms")));
    assert_string_equal(str(lines[0], "trace"),
                        "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_string_equal(str(lines[1], "id"), "log-check-2");
    assert_null(json_object_get(lines[1], "trace"));
    json_decref(lines[0]);
    json_decref(lines[1]);
}

static const char *const flush_ids[] = { "flush-1", "flush-2", "flush-3" };

/* True once the log at path (arg) has three lines; each line whole and
 * each id once, else the test fails. Not in the order sent: a line is
 * written when its request completes, on the network thread that served
 * it, and a loaded machine let the second's completion come after the
 * third's (its answer was already read). */
static bool three_lines(void *arg)
{
    FILE *f = fopen(arg, "r");
    char buf[4096];
    unsigned lines = 0, seen[3] = { 0, 0, 0 };

    while (f != NULL && fgets(buf, sizeof(buf), f) != NULL) {
        json_t *line = json_loads(buf, 0, NULL);
        unsigned i = 0;

        assert_non_null(line);      /* whole lines only */
        assert_true(lines < 3);
        while (i < 3 && strcmp(str(line, "id"), flush_ids[i]) != 0)
            i++;
        assert_true(i < 3 && seen[i]++ == 0);
        lines++;
        json_decref(line);
    }
    if (f != NULL)
        fclose(f);
    return lines == 3;
}

/* Lines held in the buffer reach the file while the server runs, within
 * access_log_flush_ms (the watchdog writes them), whole, each once. */
static void test_access_log_flushed_while_running(void **state)
{
    struct http_config c;
    struct htest_resp r;
    http_server *s;
    char path[400];

    (void)state;
    htest_config(&c);
    snprintf(path, sizeof(path), "%.300s/../access-flush.log", htest_www());
    remove(path);
    snprintf(c.access_log, sizeof(c.access_log), "%s", path);
    c.access_log_flush_ms = 50;
    s = htest_start(&c);
    for (unsigned i = 0; i < 3; i++) {
        char hdr[64];
        const char *hdrs[] = { hdr, NULL };
        struct htest_req rq = { .path = "/livez", .headers = hdrs };
        snprintf(hdr, sizeof(hdr), "X-Request-Id: %s", flush_ids[i]);
        assert_int_equal(htest_do(s, &rq, &r), 0);
        htest_resp_free(&r);
    }
    /* within 2 s, server still running */
    assert_true(wait_until(three_lines, path, 2000));
    http_server_destroy(s);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_livez_healthz_readyz),
        cmocka_unit_test(test_catalog),
        cmocka_unit_test(test_head_has_no_body),
        cmocka_unit_test(test_recorded_answers),
        cmocka_unit_test(test_not_found),
        cmocka_unit_test(test_method_not_allowed),
        cmocka_unit_test(test_payload_too_large),
        cmocka_unit_test(test_unsupported_media_type),
        cmocka_unit_test(test_form_type_json_body),
        cmocka_unit_test(test_json_routes_share_errors),
        cmocka_unit_test(test_options_unknown_path),
        cmocka_unit_test(test_cors),
        cmocka_unit_test(test_cors_allow_list),
        cmocka_unit_test(test_request_id),
        cmocka_unit_test(test_server_header),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_openapi_served),
        cmocka_unit_test(test_static_files),
        cmocka_unit_test(test_static_traversal_refused),
        cmocka_unit_test(test_static_methods),
        cmocka_unit_test(test_no_static_root),
        cmocka_unit_test(test_access_log),
        cmocka_unit_test(test_access_log_flushed_while_running),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
