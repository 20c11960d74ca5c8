/*
 * test_http_hostile.c - what a public service gets from the internet:
 * broken and lying JSON, absurd boards and options, oversized and
 * mislabelled bodies, odd methods, long URLs and headers, traversal
 * attempts, query garbage and stalled clients. Every case asserts the
 * exact status and, where puzzled answers (not libmicrohttpd's own HTTP
 * parser), an RFC 9457 body. Afterwards the server must still answer and
 * /metrics must count exactly what was sent, status by status.
 *
 * Requests libcurl would refuse or repair go over raw sockets
 * (htest_raw); the problem answers are recorded for the OpenAPI check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "http/http_int.h"
#include "support/htest.h"

#define GOOD "\"1 2 3 4 5 6 7 0 8\""
#define NEST 10000

static http_server *srv;
/* Requests puzzled itself answered, by status (499: client gave up). */
static unsigned sent[600];

struct jcase {
    const char *name;
    const char *path;   /* NULL: /v1/solve */
    const char *body;
    size_t len;         /* 0: strlen(body) */
    long status;
    const char *slug;
};

static int setup(void **state)
{
    struct http_config c;

    htest_config(&c);
    c.connection_timeout_s = 1;     /* stalled clients go quickly */
    srv = htest_start(&c);
    *state = srv;       /* for htest_group_teardown */
    return 0;
}

/* Assert a problem answer, count it, free it. */
static void expect_problem(struct htest_resp *r, const char *what,
                           long status, const char *slug)
{
    json_t *j;

    if (r->status != status)
        fprintf(stderr, "case %s: got %ld\n", what, r->status);
    j = htest_problem(r, status, slug);
    json_decref(j);
    sent[status]++;
    htest_resp_free(r);
}

static void run_cases(const struct jcase *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct jcase *k = &cases[i];
        struct htest_req rq = {
            .path = k->path ? k->path : "/v1/solve",
            .body = k->body, .body_len = k->len,
        };
        struct htest_resp r;

        assert_int_equal(htest_do(srv, &rq, &r), 0);
        expect_problem(&r, k->name, k->status, k->slug);
    }
}

#define RUN(table) run_cases(table, sizeof(table) / sizeof(table[0]))
#define MALFORMED(n, b) { n, NULL, b, 0, 400, "malformed-json" }
#define MALFORMED_N(n, b) { n, NULL, b, sizeof(b) - 1, 400, "malformed-json" }
#define SHAPE(n, b) { n, NULL, b, 0, 422, "invalid-request" }
#define BOARD(n, b) { n, NULL, "{\"board\": " b "}", 0, 422, "invalid-board" }
#define OPTION(n, b) { n, NULL, "{\"board\": " GOOD ", " b "}", 0, 422, \
                       "invalid-request" }

static const struct jcase malformed[] = {
    MALFORMED("truncated object", "{\"board\": " GOOD),
    MALFORMED("truncated after colon", "{\"board\": "),
    MALFORMED("lone brace", "{"),
    MALFORMED("truncated string", "{\"board\": \"1 2 3"),
    MALFORMED("truncated escape", "{\"board\": \"1 2 3\\"),
    MALFORMED("trailing garbage", "{\"board\": " GOOD "} x"),
    MALFORMED("two objects", "{\"board\": " GOOD "}{}"),
    MALFORMED("trailing comma", "{\"board\": " GOOD ",}"),
    MALFORMED("single quotes", "{'board': '1 2 3 4 5 6 7 0 8'}"),
    MALFORMED("bare key", "{board: 1}"),
    MALFORMED("comment", "{/* hi */ \"board\": " GOOD "}"),
    MALFORMED("NaN", "{\"board\": NaN}"),
    MALFORMED("whitespace only", " \r\n\t "),
    MALFORMED("empty body", ""),
    MALFORMED_N("NUL before value", "{\"board\":\0" GOOD "}"),
    MALFORMED_N("NUL after object", "{\"board\": " GOOD "}\0"),
    MALFORMED_N("only NUL", "\0"),
    MALFORMED_N("raw NUL in string", "{\"board\": \"1 2\0 3\"}"),
    MALFORMED("escaped NUL", "{\"board\": \"1 2 3\\u0000\"}"),
    MALFORMED("invalid UTF-8 byte", "{\"board\": \"1 2 3 \xff\"}"),
    MALFORMED("overlong UTF-8", "{\"board\": \"\xc0\xaf\"}"),
    MALFORMED("truncated UTF-8", "{\"board\": \"\xe2\x82\"}"),
    MALFORMED("UTF-8 surrogate bytes", "{\"board\": \"\xed\xa0\x80\"}"),
    MALFORMED("invalid UTF-8 in key", "{\"bo\xfe\": 1}"),
    MALFORMED("byte order mark", "\xef\xbb\xbf{\"board\": " GOOD "}"),
    MALFORMED("lone high surrogate", "{\"board\": \"\\ud800\"}"),
    MALFORMED("lone low surrogate", "{\"board\": \"\\udc00\"}"),
    MALFORMED("reversed surrogates", "{\"board\": \"\\udc00\\ud800\"}"),
    MALFORMED("bad escape", "{\"board\": \"\\x41\"}"),
    MALFORMED("control char in string", "{\"board\": \"1\t2\"}"),
    MALFORMED("duplicate keys", "{\"board\": " GOOD ", \"board\": " GOOD "}"),
    MALFORMED("duplicate nested keys", "{\"board\": " GOOD ", \"limits\": "
              "{\"max_nodes\": 1, \"max_nodes\": 2}}"),
    MALFORMED("huge real", "{\"board\": [1e999, 2, 3, 4, 5, 6, 7, 8, 0]}"),
    MALFORMED("huge integer", "{\"board\": [99999999999999999999, 2, 3, "
              "4, 5, 6, 7, 8, 0]}"),
    MALFORMED("huge negative", "{\"board\": [-99999999999999999999]}"),
    MALFORMED("u64 max limit", "{\"board\": " GOOD ", \"limits\": "
              "{\"max_nodes\": 18446744073709551615}}"),
    MALFORMED("leading zeros", "{\"board\": [01, 2, 3, 4, 5, 6, 7, 8, 0]}"),
    MALFORMED("plus sign", "{\"board\": [+1, 2, 3, 4, 5, 6, 7, 8, 0]}"),
    MALFORMED("hex number", "{\"board\": [0x1, 2, 3, 4, 5, 6, 7, 8, 0]}"),
};

static const struct jcase shapes[] = {
    SHAPE("null body", "null"),
    SHAPE("array body", "[]"),
    SHAPE("string body", "\"1 2 3 4 5 6 7 0 8\""),
    SHAPE("number body", "42"),
    SHAPE("board missing", "{}"),
    SHAPE("unknown field", "{\"board\": " GOOD ", \"boardd\": 1}"),
    SHAPE("unknown field with slash", "{\"board\": " GOOD ", \"a/b~c\": 1}"),
    /* 1 + 2k bytes: a 48-byte cut lands inside a character. */
    SHAPE("long non-ASCII unknown field", "{\"board\": " GOOD ", \"x"
          "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
          "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
          "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
          "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
          "\xc3\xa9\xc3\xa9\": 1}"),
    SHAPE("non-ASCII unknown limit", "{\"board\": " GOOD ", \"limits\": "
          "{\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
          "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
          "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
          "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\": 1}}"),
    SHAPE("emoji unknown field", "{\"board\": " GOOD ", \"\\ud83d\\ude00"
          "\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d"
          "\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00"
          "\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\": 1}"),
    SHAPE("empty key", "{\"board\": " GOOD ", \"\": 1}"),
    OPTION("algorithm number", "\"algorithm\": 5"),
    OPTION("algorithm array", "\"algorithm\": [\"astar\"]"),
    OPTION("heuristic object", "\"heuristic\": {}"),
    OPTION("heuristic bool", "\"heuristic\": true"),
    OPTION("include_path string", "\"include_path\": \"yes\""),
    OPTION("include_path number", "\"include_path\": 1"),
    OPTION("limits string", "\"limits\": \"fast\""),
    OPTION("limits array", "\"limits\": [1000]"),
    OPTION("limits number", "\"limits\": 5"),
    OPTION("max_nodes negative", "\"limits\": {\"max_nodes\": -1}"),
    OPTION("max_nodes zero", "\"limits\": {\"max_nodes\": 0}"),
    OPTION("max_nodes real", "\"limits\": {\"max_nodes\": 1.5}"),
    OPTION("max_nodes string", "\"limits\": {\"max_nodes\": \"1000\"}"),
    OPTION("max_nodes bool", "\"limits\": {\"max_nodes\": true}"),
    OPTION("timeout_ms 1e30", "\"limits\": {\"timeout_ms\": 1e30}"),
    OPTION("timeout_ms i64 min", "\"limits\": {\"timeout_ms\": "
           "-9223372036854775808}"),
    OPTION("max_depth object", "\"limits\": {\"max_depth\": {}}"),
    OPTION("unknown limit", "\"limits\": {\"max_memory\": 1}"),
    { "batch boards string", "/v1/solve/batch", "{\"boards\": " GOOD "}", 0,
      422, "invalid-request" },
    { "batch boards empty", "/v1/solve/batch", "{\"boards\": []}", 0, 422,
      "invalid-request" },
    { "batch boards missing", "/v1/solve/batch", "{\"board\": " GOOD "}", 0,
      422, "invalid-request" },
    { "score moves string", "/v1/score", "{\"board\": " GOOD ", \"moves\": "
      "\"up\"}", 0, 422, "invalid-request" },
    { "score move zero", "/v1/score", "{\"board\": " GOOD ", \"moves\": "
      "[0]}", 0, 422, "invalid-request" },
    { "score move tile 9", "/v1/score", "{\"board\": " GOOD ", \"moves\": "
      "[9]}", 0, 422, "invalid-request" },
    { "score move real", "/v1/score", "{\"board\": " GOOD ", \"moves\": "
      "[1.0]}", 0, 422, "invalid-request" },
    { "score move word", "/v1/score", "{\"board\": " GOOD ", \"moves\": "
      "[\"sideways\"]}", 0, 422, "invalid-request" },
};

static const struct jcase boards[] = {
    BOARD("real tile", "[1.5, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("integral real tile", "[1.0, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("exponent tile", "[1e0, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("negative tile", "[-1, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("string tiles", "[\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", "
          "\"8\", \"0\"]"),
    BOARD("null tile", "[null, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("bool tile", "[true, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("object tile", "[{}, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("i64 max tile", "[9223372036854775807, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("i64 min tile", "[-9223372036854775808, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("tile 256", "[256, 2, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("empty array", "[]"),
    BOARD("empty string", "\"\""),
    BOARD("blank string", "\"   \""),
    BOARD("empty row", "[[]]"),
    BOARD("ragged rows", "[[1, 2, 3], [4, 5], [6, 7, 8, 0]]"),
    BOARD("row not array", "[[1, 2, 3], 4, [5, 6, 7]]"),
    BOARD("rows of rows", "[[[1]], [[2]]]"),
    BOARD("no blank", "[1, 2, 3, 4, 5, 6, 7, 8, 9]"),
    BOARD("two blanks", "[1, 2, 3, 4, 5, 6, 7, 0, 0]"),
    BOARD("two blanks string", "\"1 2 3 4 5 6 0 0 8\""),
    BOARD("duplicate tile", "[1, 1, 3, 4, 5, 6, 7, 8, 0]"),
    BOARD("1x1 rows", "[[0]]"),
    BOARD("1x1 flat", "[0]"),
    BOARD("1x1 string", "\"0\""),
    BOARD("not square", "[1, 2, 3, 4, 5, 6, 7, 0]"),
    BOARD("string garbage", "\"1 2 3 x 5 6 7 8 0\""),
    BOARD("string negative", "\"1 2 3 -4 5 6 7 8 0\""),
    BOARD("string huge number", "\"1 2 3 4 5 6 7 8 "
          "99999999999999999999999999999999\""),
    BOARD("string overflow wrap", "\"1 2 3 4 5 6 7 8 18446744073709551616\""),
    BOARD("string separators only", "\",,,;;;///\""),
    BOARD("object board", "{}"),
    BOARD("bool board", "true"),
    BOARD("number board", "123456780"),
    { "unsolvable", NULL, "{\"board\": \"1 2 3 4 5 6 8 7 0\"}", 0, 422,
      "unsolvable" },
    { "goal size differs", NULL, "{\"board\": " GOOD ", \"goal\": "
      "\"1 2 3 0\"}", 0, 422, "invalid-board" },
    { "goal invalid", NULL, "{\"board\": " GOOD ", \"goal\": [1, 1]}", 0,
      422, "invalid-board" },
    { "unknown algorithm", NULL, "{\"board\": " GOOD ", \"algorithm\": "
      "\"quantum\"}", 0, 422, "invalid-option" },
    { "unknown heuristic", NULL, "{\"board\": " GOOD ", \"heuristic\": "
      "\"psychic\"}", 0, 422, "invalid-option" },
    { "algorithm case", NULL, "{\"board\": " GOOD ", \"algorithm\": "
      "\"ASTAR \"}", 0, 422, "invalid-option" },
    { "heuristic non-ASCII", NULL, "{\"board\": " GOOD ", \"heuristic\": "
      "\"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
      "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
      "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9"
      "\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9x\\u00e9\"}", 0, 422,
      "invalid-option" },
};

static void test_malformed_json(void **state)
{
    (void)state;
    RUN(malformed);
}

static void test_wrong_shapes_and_types(void **state)
{
    (void)state;
    RUN(shapes);
}

static void test_bad_boards_and_options(void **state)
{
    (void)state;
    RUN(boards);
}

/* POST a generated body to path; assert the problem. */
static void post_gen(const char *path, const char *body, const char *what,
                     long status, const char *slug)
{
    struct htest_req rq = { .path = path, .body = body };
    struct htest_resp r;

    assert_int_equal(htest_do(srv, &rq, &r), 0);
    expect_problem(&r, what, status, slug);
}

static char *repeat(const char *head, const char *unit, size_t n,
                    const char *tail)
{
    size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
    char *s = malloc(hl + ul * n + tl + 1), *p = s;

    assert_non_null(s);
    memcpy(p, head, hl);
    p += hl;
    for (size_t i = 0; i < n; i++, p += ul)
        memcpy(p, unit, ul);
    memcpy(p, tail, tl + 1);
    return s;
}

static void test_deep_nesting(void **state)
{
    char *arr = repeat("{\"board\": ", "[", NEST, "");
    char *obj = repeat("", "{\"a\":", NEST, "1");
    char *closed = repeat("{\"board\": ", "[", NEST, "");
    char *body;

    (void)state;
    post_gen("/v1/solve", arr, "10000 arrays", 400, "malformed-json");
    post_gen("/v1/solve", obj, "10000 objects", 400, "malformed-json");
    /* Balanced, so only the depth bound stops it. */
    body = repeat(closed, "]", NEST, "}");
    post_gen("/v1/solve/batch", body, "10000 closed", 400,
             "malformed-json");
    /* Brackets inside a string are not nesting. */
    free(body);
    body = repeat("{\"board\": \"", "[", NEST, "\"}");
    post_gen("/v1/solve", body, "brackets in string", 422, "invalid-board");
    free(body);
    free(closed);
    free(obj);
    free(arr);
}

static void test_oversized_boards(void **state)
{
    char *flat = repeat("{\"board\": [", "1, ", 10000, "0]}");
    char *str = repeat("{\"board\": \"", "1 ", 10000, "0\"}");
    char *rows9 = repeat("{\"board\": [", "[1, 2, 3, 4, 5, 6, 7, 8, 9], ", 8,
                         "[1, 2, 3, 4, 5, 6, 7, 8, 0]]}");
    char *flat81 = repeat("{\"board\": [", "7, ", 80, "0]}");
    char *str9 = repeat("{\"board\": \"", "9 ", 80, "0\"}");

    (void)state;
    post_gen("/v1/solve", flat, "10000 tiles", 422, "invalid-board");
    post_gen("/v1/solve", str, "10000 tiles string", 422, "invalid-board");
    post_gen("/v1/solve", rows9, "9x9 rows", 422, "invalid-board");
    post_gen("/v1/solve", flat81, "9x9 flat", 422, "invalid-board");
    post_gen("/v1/solve", str9, "9x9 string", 422, "invalid-board");
    free(str9);
    free(flat81);
    free(rows9);
    free(str);
    free(flat);
}

static void test_absurd_sizes(void **state)
{
    char *alg = repeat("{\"board\": " GOOD ", \"algorithm\": \"", "a", 60000,
                       "\"}");
    char *batch = repeat("{\"boards\": [", GOOD ", ", 100, GOOD "]}");
    char *moves = repeat("{\"board\": " GOOD ", \"moves\": [", "\"u\",",
                         10000, "\"d\"]}");

    (void)state;
    post_gen("/v1/solve", alg, "60 KB algorithm", 422, "invalid-option");
    post_gen("/v1/solve/batch", batch, "101 boards", 422, "invalid-request");
    post_gen("/v1/score", moves, "10001 moves", 422, "invalid-request");
    free(moves);
    free(batch);
    free(alg);
}

/* Absurd limits are capped, not refused: the answer still comes. */
static void test_absurd_limits_capped(void **state)
{
    struct htest_resp r;

    (void)state;
    assert_int_equal(htest_post(srv, "/v1/solve", "{\"board\": " GOOD
                                ", \"limits\": {\"max_nodes\": "
                                "9223372036854775807, \"timeout_ms\": "
                                "9223372036854775807, \"max_depth\": "
                                "9223372036854775807}}", &r), 0);
    assert_int_equal(r.status, 200);
    sent[200]++;
    htest_resp_free(&r);
}

static void test_media_types(void **state)
{
    static const char *const types[] = {
        "text/plain", "", "application/json; charset=latin1",
        "multipart/form-data; b=x",
        "application/jsonx", "json", "application/+json",
    };
    /* curl -d's default type: JSON in it is read as JSON, a real form
     * body is still refused (test_http_api.c has the whole story). */
    struct htest_req form = { .path = "/v1/solve", .body = "board=1+2+3",
                              .content_type =
                                  "application/x-www-form-urlencoded" };
    struct htest_resp r;

    (void)state;
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        struct htest_req rq = { .path = "/v1/solve", .body = "{\"board\": "
                                GOOD "}", .content_type = types[i] };

        assert_int_equal(htest_do(srv, &rq, &r), 0);
        expect_problem(&r, types[i], 415, "unsupported-media-type");
    }
    assert_int_equal(htest_do(srv, &form, &r), 0);
    expect_problem(&r, "a form body", 415, "unsupported-media-type");
}

static void test_oversized_bodies(void **state)
{
    char *big = repeat("{\"board\": \"", " ", 70000, GOOD "\"}");
    struct htest_req announced = { .path = "/v1/solve", .body = big };
    struct htest_req chunked = { .path = "/v1/solve", .body = big,
                                 .chunked = true };
    struct htest_req small = { .path = "/v1/solve", .body = "{\"board\": "
                               GOOD "}", .chunked = true };
    struct htest_resp r;

    (void)state;
    assert_int_equal(htest_do(srv, &announced, &r), 0);
    expect_problem(&r, "announced", 413, "payload-too-large");
    assert_int_equal(htest_do(srv, &chunked, &r), 0);
    expect_problem(&r, "chunked", 413, "payload-too-large");
    assert_int_equal(htest_do(srv, &small, &r), 0);
    assert_int_equal(r.status, 200);
    sent[200]++;
    htest_resp_free(&r);
    free(big);
}

/* A raw request that puzzled answers with a problem. */
static void raw_problem(const char *method, const char *path,
                        const char *route, const char *bytes, size_t len,
                        long status, const char *slug)
{
    struct htest_req rq = { .method = method, .path = path, .route = route };
    struct htest_resp r;

    assert_int_equal(htest_raw(srv, &rq, bytes, len ? len : strlen(bytes),
                               &r), 0);
    expect_problem(&r, path, status, slug);
}

/* A raw request libmicrohttpd's parser refuses itself (its own body,
 * not ours, so not recorded and not in puzzled's metrics). */
static void raw_status(const char *what, const char *bytes, size_t len,
                       long status)
{
    struct htest_req rq = { .path = what, .no_record = true };
    struct htest_resp r;

    assert_int_equal(htest_raw(srv, &rq, bytes, len, &r), 0);
    if (r.status != status)
        fprintf(stderr, "case %s: got %ld\n", what, r.status);
    assert_int_equal(r.status, status);
    htest_resp_free(&r);
}

#define HDRS "Host: t\r\nConnection: close\r\n"

static void test_lying_content_length(void **state)
{
    static const char huge[] = "POST /v1/solve HTTP/1.1\r\n" HDRS
        "Content-Type: application/json\r\n"
        "Content-Length: 1000000000000\r\n\r\n{\"board\":";
    static const char nul[] = "POST /v1/solve HTTP/1.1\r\n" HDRS
        "Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{\0\0\0}";
    static const char notnum[] = "POST /v1/solve HTTP/1.1\r\n" HDRS
        "Content-Type: application/json\r\nContent-Length: abc\r\n\r\n{}";
    static const char overflow[] = "POST /v1/solve HTTP/1.1\r\n" HDRS
        "Content-Type: application/json\r\n"
        "Content-Length: 99999999999999999999999\r\n\r\n{}";
    static const char two[] = "POST /v1/solve HTTP/1.1\r\n" HDRS
        "Content-Type: application/json\r\nContent-Length: 2\r\n"
        "Content-Length: 3\r\n\r\n{}";
    double t0 = wait_now_ms();

    (void)state;
    /* Refused on the header alone, without waiting for the body. */
    raw_problem("POST", "/v1/solve", NULL, huge, 0, 413,
                "payload-too-large");
    assert_true(wait_now_ms() - t0 < 2000);
    raw_problem("POST", "/v1/solve", NULL, nul, sizeof(nul) - 1, 400,
                "malformed-json");
    /* Request smuggling material: refused, not guessed. */
    raw_problem("POST", "/v1/solve", NULL, two, sizeof(two) - 1, 400,
                "malformed-json");
    raw_status("Content-Length abc", notnum, sizeof(notnum) - 1, 400);
    raw_status("Content-Length overflow", overflow, sizeof(overflow) - 1,
               413);
}

static void test_bad_methods(void **state)
{
    static const char *const m[][2] = {
        { "DELETE", "/v1/solve" }, { "PUT", "/v1/solve" },
        { "PATCH", "/v1/score" }, { "GET", "/v1/solve" },
        { "POST", "/livez" }, { "DELETE", "/metrics" },
        { "POST", "/v1/puzzles/random" }, { "TRACE", "/livez" },
        { "CONNECT", "/readyz" },
    };
    struct htest_resp r;

    (void)state;
    for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
        struct htest_req rq = { .method = m[i][0], .path = m[i][1] };

        assert_int_equal(htest_do(srv, &rq, &r), 0);
        expect_problem(&r, m[i][0], 405, "method-not-allowed");
    }
    raw_problem("BREW", "/v1/solve", NULL, "BREW /v1/solve HTTP/1.1\r\n"
                HDRS "\r\n", 0, 405, "method-not-allowed");
    raw_problem("GETGETGETGETGETGETGETGET", "/livez", NULL,
                "GETGETGETGETGETGETGETGET /livez HTTP/1.1\r\n" HDRS "\r\n",
                0, 405, "method-not-allowed");
}

static void test_broken_http(void **state)
{
    static const char *const cases[][2] = {
        { "no version", "GET /livez\r\n\r\n" },
        { "no Host on 1.1", "GET /livez HTTP/1.1\r\n"
          "Connection: close\r\n\r\n" },
        { "bad header line", "GET /livez HTTP/1.1\r\n" HDRS "Oops\r\n\r\n" },
        { "bad chunk size", "POST /v1/solve HTTP/1.1\r\n" HDRS
          "Content-Type: application/json\r\n"
          "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n" },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        raw_status(cases[i][0], cases[i][1], strlen(cases[i][1]), 400);
    /* The bad chunk came after the headers: puzzled saw the request,
     * MHD ended it before any answer of ours ("other" in metrics). */
    sent[499]++;
}

static void test_long_urls_and_headers(void **state)
{
    char *mid = repeat("GET /", "a", 8000, " HTTP/1.1\r\n" HDRS "\r\n");
    char *url = repeat("GET /", "a", 70000, " HTTP/1.1\r\n" HDRS "\r\n");
    char *hdr = repeat("GET /livez HTTP/1.1\r\n" HDRS "X-Big: ", "b", 70000,
                       "\r\n\r\n");
    char *many = repeat("GET /livez HTTP/1.1\r\n" HDRS, "X-A: 1\r\n", 8000,
                        "\r\n");
    char *query = repeat("GET /v1/puzzles/random?", "size=3&", 200,
                         " HTTP/1.1\r\n" HDRS "\r\n");

    (void)state;
    /* Long but within MHD's memory: puzzled answers it. */
    raw_problem("GET", "/aaaa", "/{asset}", mid, 0, 404, "not-found");
    raw_problem("GET", "/v1/puzzles/random", NULL, query, 0, 400,
                "invalid-query");
    raw_status("70 KB URL", url, strlen(url), 414);
    raw_status("70 KB header", hdr, strlen(hdr), 431);
    raw_status("8000 headers", many, strlen(many), 431);
    free(query);
    free(many);
    free(hdr);
    free(url);
    free(mid);
}

static void test_static_traversal(void **state)
{
    static const char *const paths[] = {
        "/../outside-test_http_hostile.txt",
        "/%2e%2e/outside-test_http_hostile.txt",
        "/%2E%2E%2Foutside-test_http_hostile.txt",
        "/sub/..%2f..%2foutside-test_http_hostile.txt",
        "/sub/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/..%5c..%5cetc%5cpasswd",
        "/..\\..\\etc\\passwd",
        "/sub\\..\\index.html",
        "/%2fetc%2fpasswd",
        "//etc/passwd",
        "/.env",
        "/%2eenv",
        "/leak.txt",
        "/index.html%00.js",
        "/%ff%fe%fd",
        "/v1/../../etc/passwd",
        "/./index.html",
        "/%252e%252e/etc/passwd",
    };
    char req[512];

    (void)state;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\n" HDRS "\r\n",
                 paths[i]);
        raw_problem("GET", paths[i], "/{asset}", req, 0, 404, "not-found");
    }
}

static void test_random_query_garbage(void **state)
{
    static const char *const q[] = {
        "size=abc", "size=3&size=4", "moves=-1", "moves=99999999999999999999",
        "seed=9007199254740992", "bogus=1", "size=99", "size=1", "moves=32",
        "size=%00", "size=", "size", "&&&=", "size=3%26moves=5", "size=+3",
        "size=0x3", "size=3.0", "moves=1e3", "seed=-1", "size=%ff",
        "SIZE=3", "size=3;moves=4", "moves=%20%205",
    };
    char path[128];
    struct htest_resp r;

    (void)state;
    for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
        struct htest_req rq = { .path = path, .route = "/v1/puzzles/random" };

        snprintf(path, sizeof(path), "/v1/puzzles/random?%s", q[i]);
        assert_int_equal(htest_do(srv, &rq, &r), 0);
        expect_problem(&r, q[i], 400, "invalid-query");
    }
}

static int raw_open(const char *bytes)
{
    int fd = htest_raw_open(srv);

    assert_true(fd >= 0);
    assert_int_equal(send(fd, bytes, strlen(bytes), MSG_NOSIGNAL),
                     (ssize_t)strlen(bytes));
    return fd;
}

/* Whether the server closed fd within ms (EOF or reset). */
static bool closed_within(int fd, double ms)
{
    double end = wait_now_ms() + ms;
    char c;

    while (wait_now_ms() < end) {
        struct pollfd p = { .fd = fd, .events = POLLIN };

        if (poll(&p, 1, 50) > 0 && recv(fd, &c, 1, MSG_DONTWAIT) <= 0)
            return true;
    }
    return false;
}

/* What the server writes on fd until it closes or ms pass, as text. */
static void read_answer(int fd, double ms, char *buf, size_t size)
{
    double end = wait_now_ms() + ms;
    size_t len = 0;
    ssize_t n = 1;

    while (n != 0 && len + 1 < size && wait_now_ms() < end) {
        struct pollfd p = { .fd = fd, .events = POLLIN };

        if (poll(&p, 1, 50) <= 0)
            continue;
        n = recv(fd, buf + len, size - 1 - len, MSG_DONTWAIT);
        if (n < 0)
            break;
        len += (size_t)n;
    }
    buf[len] = '\0';
}

#define STALLED 12

/* Stalled clients are cut off by the connection timeout (1 s here) and
 * never keep a real request from being answered meanwhile. */
static void test_slow_clients_cut_off(void **state)
{
    int fds[2 * STALLED];
    struct htest_resp r;
    double t0;

    (void)state;
    for (int i = 0; i < STALLED; i++) {
        fds[i] = raw_open("POST /v1/solve HTTP/1.1\r\nHost: t\r\nCont");
        fds[STALLED + i] = raw_open("POST /v1/solve HTTP/1.1\r\nHost: t\r\n"
                                    "Content-Type: application/json\r\n"
                                    "Content-Length: 100\r\n\r\n{\"bo");
    }
    t0 = wait_now_ms();
    assert_int_equal(htest_get(srv, "/livez", &r), 0);
    assert_int_equal(r.status, 200);
    assert_true(wait_now_ms() - t0 < 500);
    sent[200]++;
    htest_resp_free(&r);
    for (int i = 0; i < 2 * STALLED; i++) {
        assert_true(closed_within(fds[i], 4000));
        close(fds[i]);
    }
    /* The half-sent bodies reached puzzled: counted as abandoned. */
    sent[499] += STALLED;
}

/*
 * So many query arguments that libmicrohttpd 0.9.75 runs out of its
 * per-connection pool parsing them: it then sends nothing at all (not
 * even its own 431) and never calls the handler. puzzled counts them
 * from the request line first and answers 400 itself, logged and
 * counted (issue 15 item 9); 500 and 2000 used to get no answer.
 */
static void test_many_query_args_bounded(void **state)
{
    static const unsigned counts[] = { 65, 500, 2000 };
    struct htest_resp r;

    (void)state;
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        char *query = repeat("GET /v1/puzzles/random?", "a=3&", counts[i],
                             " HTTP/1.1\r\n" HDRS "\r\n");
        double t0 = wait_now_ms();

        raw_problem("GET", "/v1/puzzles/random", NULL, query, 0, 400,
                    "invalid-query");
        assert_true(wait_now_ms() - t0 < 2000);
        free(query);
    }
    assert_int_equal(htest_get(srv, "/livez", &r), 0);
    assert_int_equal(r.status, 200);
    sent[200]++;
    htest_resp_free(&r);
}

/* Past max_connections_per_ip a client's extra connections are closed
 * at once; other clients (here: after it lets go) are served. */
/* /livez answers 200 (s: the http_server). */
static bool livez_ok(void *arg)
{
    struct htest_resp r;
    bool ok = htest_get(arg, "/livez", &r) == 0 && r.status == 200;

    htest_resp_free(&r);
    return ok;
}

/* The server holds three connections (s: the http_server). */
static bool three_open(void *arg)
{
    struct http__conn_stats st;

    http__conns_stats(arg, &st);
    return st.open == 3;
}

static void test_per_ip_limit(void **state)
{
    struct http_config c;
    http_server *s;
    int fds[4], extra;
    char got[1024];

    (void)state;
    htest_config(&c);
    c.max_connections_per_ip = 3;
    s = htest_start_quiet(&c);  /* its note on the low limit expected */
    for (int i = 0; i < 3; i++) {
        fds[i] = htest_raw_open(s);
        assert_true(fds[i] >= 0);
        assert_int_equal(send(fds[i], "GET /li", 7, MSG_NOSIGNAL), 7);
    }
    /* The network threads accept in parallel and count a connection
     * when they take it, so a fourth opened at once could be counted
     * before one of the three and the cap would fall on that one: wait
     * until the three are held (it failed about 1 run in 15 under ASan
     * on a busy machine). */
    if (!wait_until(three_open, s, 2000))
        fail_msg("waited 2 s for the three connections held");
    /* Issue 29 item 9: told why (503 + Retry-After), not reset. */
    extra = htest_raw_open(s);
    assert_true(extra >= 0);
    read_answer(extra, 2000, got, sizeof(got));
    if (strncmp(got, "HTTP/1.1 503 ", 13) != 0
        || strstr(got, "max_connections_per_ip") == NULL
        || strstr(got, "Retry-After: ") == NULL)
        fail_msg("past the per-address cap: '%.200s'", got);
    close(extra);
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    /* The slots come back once the server has seen the closes. */
    if (!wait_until(livez_ok, s, 2000))
        fail_msg("waited 2 s for /livez 200 after the closes");
    http_server_destroy(s);
}

/* Sum puzzled_http_requests_total by code; "other" lands on 499. */
static void tally_metrics(const char *text, unsigned *by_code)
{
    const char *p = text;
    char code[16];
    unsigned long long n;

    memset(by_code, 0, 600 * sizeof(*by_code));
    while ((p = strstr(p, "\npuzzled_http_requests_total{")) != NULL) {
        const char *c = strstr(p, "code=\"");
        p++;
        if (c == NULL || sscanf(c + 6, "%15[^\"]\"} %llu", code, &n) != 2)
            continue;
        by_code[strcmp(code, "other") == 0 ? 499 : atoi(code) % 600] +=
            (unsigned)n;
    }
}

/* One scrape of /metrics into got (arg): true when its counts by code
 * are what was sent. */
static bool metrics_match(void *arg)
{
    unsigned *got = arg;
    struct htest_resp r;
    bool same;

    assert_int_equal(htest_get(srv, "/metrics", &r), 0);
    assert_int_equal(r.status, 200);
    tally_metrics(r.body, got);
    htest_resp_free(&r);
    same = memcmp(got, sent, sizeof(sent)) == 0;
    sent[200]++;    /* this scrape shows up in the next one */
    return same;
}

/* Last: the server is up and counted every request it answered. */
static void test_metrics_add_up(void **state)
{
    unsigned got[600];
    struct htest_resp r;
    bool same;

    (void)state;
    /* the last answers' counts land after their bytes went out */
    same = wait_until(metrics_match, got, 2000);
    for (int i = 0; i < 600 && !same; i++) {
        if (got[i] != sent[i])
            fprintf(stderr, "status %d: metrics %u, sent %u\n", i, got[i],
                    sent[i]);
    }
    assert_true(same);
    assert_int_equal(htest_get(srv, "/livez", &r), 0);
    assert_int_equal(r.status, 200);
    htest_resp_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed_json),
        cmocka_unit_test(test_wrong_shapes_and_types),
        cmocka_unit_test(test_bad_boards_and_options),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_oversized_boards),
        cmocka_unit_test(test_absurd_sizes),
        cmocka_unit_test(test_absurd_limits_capped),
        cmocka_unit_test(test_media_types),
        cmocka_unit_test(test_oversized_bodies),
        cmocka_unit_test(test_lying_content_length),
        cmocka_unit_test(test_bad_methods),
        cmocka_unit_test(test_broken_http),
        cmocka_unit_test(test_long_urls_and_headers),
        cmocka_unit_test(test_static_traversal),
        cmocka_unit_test(test_random_query_garbage),
        cmocka_unit_test(test_slow_clients_cut_off),
        cmocka_unit_test(test_many_query_args_bounded),
        cmocka_unit_test(test_per_ip_limit),
        cmocka_unit_test(test_metrics_add_up),
    };

    return cmocka_run_group_tests(tests, setup, htest_group_teardown);
}
