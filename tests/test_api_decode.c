/*
 * test_api_decode.c - request decoding without a socket: the JSON
 * parser's depth bound and error positions, every board form and every
 * rejection with its pointer, option lookups, caps on limits, batch
 * entries and score moves, and the problem+json encoder.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "api_decode.h"
#include "api_problem.h"

static json_t *parse_ok(const char *text)
{
    struct api_problem p;
    json_t *j = NULL;

    assert_int_equal(api_decode_json(text, strlen(text), 32, &j, &p),
                     PUZ_OK);
    assert_non_null(j);
    return j;
}

static void assert_parse_fails(const char *text, unsigned depth,
                               enum api_problem_kind kind, int line)
{
    struct api_problem p;
    json_t *j = (json_t *)1;

    assert_int_equal(api_decode_json(text, strlen(text), depth, &j, &p),
                     PUZ_EINVAL);
    assert_null(j);
    assert_int_equal(p.kind, kind);
    if (line > 0)
        assert_int_equal(p.line, line);
}

static void test_json_errors(void **state)
{
    (void)state;
    assert_parse_fails("", 32, API_PROBLEM_MALFORMED_JSON, 0);
    assert_parse_fails("{\"a\":1,\n\"a\":2}", 32,
                       API_PROBLEM_MALFORMED_JSON, 2);
    assert_parse_fails("{\n\n  \"a\": tru }", 32,
                       API_PROBLEM_MALFORMED_JSON, 3);
    assert_parse_fails("[[[[1]]]]", 3, API_PROBLEM_MALFORMED_JSON, 1);
    assert_parse_fails("\"just a string\"", 32,
                       API_PROBLEM_INVALID_REQUEST, 0);
    assert_parse_fails("[1, 2]", 32, API_PROBLEM_INVALID_REQUEST, 0);
    /* Brackets inside strings do not count towards the depth. */
    json_decref(parse_ok("{\"a\": \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\""
                         "[[[[\"}"));
}

static void test_depth_column(void **state)
{
    struct api_problem p;
    json_t *j;
    const char *text = "{\"b\":\n [[[";

    (void)state;
    assert_int_equal(api_decode_json(text, strlen(text), 3, &j, &p),
                     PUZ_EINVAL);
    assert_int_equal(p.line, 2);
    assert_int_equal(p.column, 4);
    assert_non_null(strstr(p.detail, "deeper than 3"));
}

static void board_ok(const char *text, unsigned n, unsigned blank)
{
    struct api_problem p;
    struct puz_board b;
    json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);

    assert_non_null(j);
    assert_int_equal(api_decode_board(j, "/board", &b, &p), PUZ_OK);
    assert_int_equal(b.n, n);
    assert_int_equal(b.blank, blank);
    json_decref(j);
}

static void board_bad(const char *text, const char *pointer,
                      const char *needle)
{
    struct api_problem p;
    struct puz_board b;
    json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);

    assert_non_null(j);
    assert_int_equal(api_decode_board(j, "/board", &b, &p), PUZ_EINVAL);
    assert_int_equal(p.kind, API_PROBLEM_INVALID_BOARD);
    assert_string_equal(p.pointer, pointer);
    if (strstr(p.detail, needle) == NULL)
        fprintf(stderr, "\"%s\" lacks \"%s\"\n", p.detail, needle);
    assert_non_null(strstr(p.detail, needle));
    json_decref(j);
}

static void test_board_forms(void **state)
{
    (void)state;
    board_ok("[[1,2,3],[4,5,6],[7,8,0]]", 3, 8);
    board_ok("[1,2,3,4,5,6,7,0,8]", 3, 7);
    board_ok("\"0 1 2 3\"", 2, 0);
    board_ok("\"1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 15 0\"", 4, 15);
}

static void test_board_rejections(void **state)
{
    (void)state;
    board_bad("[[1,2,3],[4,5,6],[7,0]]", "/board/2", "row 2 has 2 tiles");
    board_bad("[[1,2,3],[4,5,6,9],[7,8,0]]", "/board/1", "row 1 has 4");
    board_bad("[[1,2],[3,\"0\"]]", "/board/1/1", "a string");
    board_bad("[[1,2],null]", "/board/1", "null");
    board_bad("[1,2,3,0.0]", "/board/3", "whole numbers");
    board_bad("[1,2,false,0]", "/board/2", "a boolean");
    board_bad("[[1]]", "/board", "1 rows");
    board_bad("[]", "/board", "empty");
    board_bad("42", "/board", "an integer");
    board_bad("[1,2,3,4,5]", "/board", "");
    board_bad("[1,2,3,3]", "/board", "");
    board_bad("[1,2,3,-1]", "/board", "");
    board_bad("[1,2,3,9223372036854775807]", "/board", "");
    board_bad("\"1 2 3\"", "/board", "");
    board_bad("\"\"", "/board", "");
}

static void test_flat_board_too_big(void **state)
{
    char text[600];
    size_t n = 0;

    (void)state;
    text[n++] = '[';
    for (int i = 0; i < 81; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%d",
                              i ? "," : "", (i + 1) % 81);
    snprintf(text + n, sizeof(text) - n, "]");
    board_bad(text, "/board", "81 tiles");
}

static void test_solvable(void **state)
{
    struct puz_board b, g;
    struct api_problem p;
    char msg[PUZ_MSG_MAX];

    (void)state;
    assert_int_equal(puz_board_parse("1 2 3 4 5 6 8 7 0", &b, msg), PUZ_OK);
    assert_int_equal(api_decode_solvable(&b, NULL, &p), PUZ_EUNSOLVABLE);
    assert_int_equal(p.kind, API_PROBLEM_UNSOLVABLE);
    assert_true(strlen(p.detail) > 10);
    assert_int_equal(puz_board_parse("2 1 3 0", &g, msg), PUZ_OK);
    assert_int_equal(api_decode_solvable(&b, &g, &p), PUZ_EINVAL);
    assert_string_equal(p.pointer, "/goal");
    assert_int_equal(puz_board_parse("1 2 3 4 5 6 7 0 8", &b, msg), PUZ_OK);
    assert_int_equal(api_decode_solvable(&b, NULL, &p), PUZ_OK);
}

/* /v1/solve's caps of limits l. */
#define CAPS(l) (&(struct api_solve_caps){ (l)->solve_max_nodes, \
                                          (l)->solve_timeout_ms, 0 })

static struct api_limits cfg(void)
{
    struct api_limits c;

    api_limits_defaults(&c);
    c.solve_max_nodes = 1000;
    c.solve_timeout_ms = 500;
    c.batch_max = 3;
    c.score_max_moves = 4;
    return c;
}

static void test_solve_options(void **state)
{
    struct api_limits c = cfg();
    struct api_solve_request q;
    struct api_problem p;
    json_t *j = parse_ok("{\"board\": \"1 2 3 0\", \"goal\": [1,2,3,0], "
                         "\"algorithm\": \"bfs\", \"heuristic\": "
                         "\"manhattan\", \"include_path\": true, "
                         "\"limits\": {\"max_nodes\": 50, \"max_depth\": 9}}");

    (void)state;
    assert_int_equal(api_decode_solve(j, CAPS(&c), &q, &p), PUZ_OK);
    assert_int_equal(q.algorithm, PUZ_ALG_BFS);
    assert_non_null(q.heuristic);
    assert_true(q.has_goal);
    assert_true(q.include_path);
    assert_int_equal(q.max_nodes, 50);
    assert_int_equal(q.timeout_ms, 500);    /* the default is the cap */
    assert_int_equal(q.max_depth, 9);
    json_decref(j);
}

static void test_limits_are_capped(void **state)
{
    struct api_limits c = cfg();
    struct api_solve_request q;
    struct api_problem p;
    json_t *j = parse_ok("{\"board\": \"1 2 3 0\", \"limits\": "
                         "{\"max_nodes\": 99999999, \"timeout_ms\": "
                         "99999999}}");

    (void)state;
    assert_int_equal(api_decode_solve(j, CAPS(&c), &q, &p), PUZ_OK);
    assert_int_equal(q.max_nodes, 1000);
    assert_int_equal(q.timeout_ms, 500);
    json_decref(j);
}

static void solve_bad(const char *text, enum api_problem_kind kind,
                      const char *pointer)
{
    struct api_limits c = cfg();
    struct api_solve_request q;
    struct api_problem p;
    json_t *j = parse_ok(text);

    assert_int_equal(api_decode_solve(j, CAPS(&c), &q, &p), PUZ_EINVAL);
    assert_int_equal(p.kind, kind);
    assert_string_equal(p.pointer, pointer);
    json_decref(j);
}

static void test_solve_rejections(void **state)
{
    (void)state;
    solve_bad("{}", API_PROBLEM_INVALID_REQUEST, "/board");
    solve_bad("{\"board\": \"1 2 3 0\", \"x\": 1}",
              API_PROBLEM_INVALID_REQUEST, "/x");
    solve_bad("{\"board\": \"1 2 3 0\", \"algorithm\": \"nope\"}",
              API_PROBLEM_INVALID_OPTION, "/algorithm");
    solve_bad("{\"board\": \"1 2 3 0\", \"heuristic\": \"nope\"}",
              API_PROBLEM_INVALID_OPTION, "/heuristic");
    solve_bad("{\"board\": \"1 2 3 0\", \"heuristic\": 3}",
              API_PROBLEM_INVALID_REQUEST, "/heuristic");
    solve_bad("{\"board\": \"1 2 3 0\", \"limits\": []}",
              API_PROBLEM_INVALID_REQUEST, "/limits");
    solve_bad("{\"board\": \"1 2 3 0\", \"limits\": {\"nodes\": 1}}",
              API_PROBLEM_INVALID_REQUEST, "/limits/nodes");
    solve_bad("{\"board\": \"1 2 3 0\", \"limits\": {\"timeout_ms\": -5}}",
              API_PROBLEM_INVALID_REQUEST, "/limits/timeout_ms");
    solve_bad("{\"board\": \"1 2 3 0\", \"limits\": {\"max_nodes\": 1.5}}",
              API_PROBLEM_INVALID_REQUEST, "/limits/max_nodes");
    solve_bad("{\"board\": \"1 2 3 0\", \"include_path\": \"yes\"}",
              API_PROBLEM_INVALID_REQUEST, "/include_path");
    solve_bad("{\"board\": \"1 2 3 0\", \"goal\": [1,2]}",
              API_PROBLEM_INVALID_BOARD, "/goal");
}

static void test_unknown_option_lists_valid(void **state)
{
    struct api_limits c = cfg();
    struct api_solve_request q;
    struct api_problem p;
    json_t *j = parse_ok("{\"board\": \"1 2 3 0\", \"heuristic\": \"x\"}");

    (void)state;
    assert_int_equal(api_decode_solve(j, CAPS(&c), &q, &p), PUZ_EINVAL);
    assert_non_null(strstr(p.allowed, "manhattan"));
    assert_non_null(strstr(p.allowed, "linear-conflict"));
    json_decref(j);
}

/* Whether the fast path took body; when it did, the full path must
 * accept the body too and give the very same request. */
static bool fast_matches_full(const char *body, size_t len,
                              const struct api_limits *c)
{
    struct api_solve_request fast, full;
    struct api_problem p;
    json_t *j = NULL;
    bool took = api_decode_solve_fast(body, len, CAPS(c), &fast), ok;

    ok = api_decode_json(body, len, c->json_max_depth, &j, &p) == PUZ_OK
         && api_decode_solve(j, CAPS(c), &full, &p) == PUZ_OK;
    json_decref(j);
    if (!took)
        return false;
    if (!ok)
        fprintf(stderr, "fast path took what the full path refuses: "
                "%.*s\n", (int)len, body);
    assert_true(ok);
    assert_int_equal(fast.board.n, full.board.n);
    assert_int_equal(fast.board.blank, full.board.blank);
    assert_memory_equal(fast.board.cells, full.board.cells,
                        sizeof(fast.board.cells));
    assert_int_equal(fast.has_goal, full.has_goal);
    assert_int_equal(fast.algorithm, full.algorithm);
    assert_ptr_equal(fast.heuristic, full.heuristic);
    assert_int_equal(fast.max_nodes, full.max_nodes);
    assert_int_equal(fast.timeout_ms, full.timeout_ms);
    assert_int_equal(fast.max_depth, full.max_depth);
    assert_int_equal(fast.weight, full.weight);
    assert_int_equal(fast.include_path, full.include_path);
    assert_int_equal(fast.trace, full.trace);
    assert_int_equal(fast.effort, full.effort);
    return true;
}

/* The {"board": "..."} fast path gives what jansson's path gives, and
 * leaves everything else (every error) to it. */
static void test_fast_path_matches_full(void **state)
{
    static const char *const taken[] = {
        "{\"board\": \"1 2 3 4 5 6 7 0 8\"}",
        "{\"board\":\"8 6 7 2 5 4 3 0 1\"}",
        " \t\r\n{ \"board\" :\n\"1 2 3 0\" }\r\n ",
        "{\"board\": \"1 2 3 4 5 6 8 7 0\"}",   /* unsolvable: checked later */
        "{\"board\": \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\"}",
        "{\"board\": \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 "
        "21 22 23 0 24\"}",
        "{\"board\": \"1 2 3 -0\"}",   /* the board parser reads -0 as 0 */
    };
    static const char *const left[] = {
        "", "{}", "[]", "null", "{\"board\": \"\"}",
        "{\"board\": \"1 2 3 4 5 6 7 8 8\"}",       /* bad boards */
        "{\"board\": \"1 2 3\"}", "{\"board\": \"a b c d\"}",
        "{\"board\": \"1 2 3 99\"}",
        "{\"board\": \"1 2 3\\u0020 0\"}",          /* an escape */
        "{\"board\": \"1\t2 3 0\"}",                /* raw control byte */
        "{\"board\": \"1 2 3 0\\\"}", "{\"board\": \"1 2 3 0\xc3\xa9\"}",
        "{\"board\": \"1 2 3 0\", \"board\": \"1 2 3 0\"}",
        "{\"board\": \"1 2 3 0\", \"include_path\": true}",
        "{\"board\": \"1 2 3 0\",}", "{\"board\": \"1 2 3 0\"}}",
        "{\"board\": \"1 2 3 0\"} x", "{\"board\": \"1 2 3 0\"",
        "{\"board\" \"1 2 3 0\"}", "{\"Board\": \"1 2 3 0\"}",
        "{\"board\": [1, 2, 3, 0]}", "{\"board\": 5}", "{'board': '1 2 3 0'}",
        "\xef\xbb\xbf{\"board\": \"1 2 3 0\"}", "\v{\"board\": \"1 2 3 0\"}",
    };
    struct api_limits c = cfg(), slow = cfg();
    char big[1200];

    (void)state;
    slow.solve_timeout_ms = 60000;  /* the anytime default applies to 5x5 */
    for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
        size_t len = strlen(taken[i]);

        assert_true(fast_matches_full(taken[i], len, &c));
        assert_true(fast_matches_full(taken[i], len, &slow));
        /* every cut of it: no prefix may be taken differently */
        for (size_t k = 0; k < len; k++)
            fast_matches_full(taken[i], k, &c);
    }
    for (size_t i = 0; i < sizeof(left) / sizeof(left[0]); i++) {
        if (fast_matches_full(left[i], strlen(left[i]), &c))
            fprintf(stderr, "fast path took %s\n", left[i]);
        assert_false(fast_matches_full(left[i], strlen(left[i]), &c));
    }
    /* a NUL inside the body, and a string longer than the fast path's */
    assert_false(fast_matches_full("{\"board\": \"1 2 3 0\"}\0", 21, &c));
    assert_false(fast_matches_full("{\"board\": \"1 2\0 3 0\"}", 21, &c));
    memset(big, ' ', sizeof(big));
    memcpy(big, "{\"board\": \"1 2 3 0", 18);
    memcpy(big + sizeof(big) - 3, "\"}", 3);
    assert_false(fast_matches_full(big, strlen(big), &c));
}

static void test_batch_entries(void **state)
{
    struct api_limits c = cfg();
    struct api_batch_request b;
    struct api_problem p;
    puz_arena *a = puz_arena_create(4096);
    json_t *j = parse_ok("{\"boards\": [\"1 2 3 0\", [1,1,2,0], "
                         "\"2 1 3 0\"], \"algorithm\": \"astar\"}");

    (void)state;
    assert_int_equal(api_decode_batch(j, &c, a, &b, &p), PUZ_OK);
    assert_int_equal(b.count, 3);
    assert_true(b.entries[0].ok);
    assert_false(b.entries[1].ok);
    assert_int_equal(b.entries[1].problem.kind, API_PROBLEM_INVALID_BOARD);
    assert_string_equal(b.entries[1].problem.pointer, "/boards/1");
    assert_false(b.entries[2].ok);
    assert_int_equal(b.entries[2].problem.kind, API_PROBLEM_UNSOLVABLE);
    json_decref(j);
    j = parse_ok("{\"boards\": [\"1 2 3 0\",\"1 2 3 0\",\"1 2 3 0\","
                 "\"1 2 3 0\"]}");
    assert_int_equal(api_decode_batch(j, &c, a, &b, &p), PUZ_EINVAL);
    assert_string_equal(p.pointer, "/boards");
    json_decref(j);
    puz_arena_destroy(a);
}

static void test_score_moves(void **state)
{
    struct api_limits c = cfg();
    struct api_score_request s;
    struct api_problem p;
    puz_arena *a = puz_arena_create(4096);
    json_t *j = parse_ok("{\"board\": \"1 2 3 0\", \"moves\": [\"up\", 3, "
                         "\"L\"]}");

    (void)state;
    assert_int_equal(api_decode_score(j, &c, a, &s, &p), PUZ_OK);
    assert_int_equal(s.count, 3);
    assert_false(s.moves[0].is_tile);
    assert_int_equal(s.moves[0].dir, PUZ_UP);
    assert_true(s.moves[1].is_tile);
    assert_int_equal(s.moves[1].tile, 3);
    assert_int_equal(s.moves[2].dir, PUZ_LEFT);
    json_decref(j);
    j = parse_ok("{\"board\": \"1 2 3 0\", \"moves\": [4]}");
    assert_int_equal(api_decode_score(j, &c, a, &s, &p), PUZ_EINVAL);
    assert_string_equal(p.pointer, "/moves/0");
    json_decref(j);
    j = parse_ok("{\"board\": \"1 2 3 0\", \"moves\": [1,1,1,1,1]}");
    assert_int_equal(api_decode_score(j, &c, a, &s, &p), PUZ_EINVAL);
    assert_string_equal(p.pointer, "/moves");
    json_decref(j);
    puz_arena_destroy(a);
}

static void test_problem_json(void **state)
{
    struct api_problem p;
    json_t *j;

    (void)state;
    api_problem_set(&p, API_PROBLEM_INVALID_OPTION, "unknown %s", "x");
    api_problem_point(&p, "/heuristic");
    snprintf(p.allowed, sizeof(p.allowed), "a, b, c");
    j = api_problem_json(&p, "/v1/solve", "id-1");
    assert_string_equal(json_string_value(json_object_get(j, "type")),
                        "https://puzzled.dev/problems/invalid-option");
    assert_int_equal(json_integer_value(json_object_get(j, "status")), 422);
    assert_string_equal(json_string_value(json_object_get(j, "detail")),
                        "unknown x");
    assert_int_equal(json_array_size(json_object_get(j, "allowed")), 3);
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(j, "allowed"), 2)), "c");
    json_decref(j);
    /* Client bytes that are not UTF-8 never cost the whole answer. */
    api_problem_set(&p, API_PROBLEM_NOT_FOUND, "nothing at /\xff\xfe");
    j = api_problem_json(&p, "/\xff", NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "instance")),
                        "/?");
    json_decref(j);
    for (int k = 0; k < API_PROBLEM_KIND_COUNT_; k++) {
        assert_true(api_problem_status((enum api_problem_kind)k) >= 400);
        assert_non_null(api_problem_slug((enum api_problem_kind)k));
    }
}

/*
 * Regression: the pointer of an unknown key was cut at 48 bytes, which
 * could split a UTF-8 character; json_string() then refused it and the
 * whole problem became a 500. "/" and "~" were not escaped either.
 */
static void test_unknown_key_pointer(void **state)
{
    struct api_limits c = cfg();
    struct api_solve_request rq;
    struct api_problem p;
    char body[256];
    json_t *root, *pj, *ps;
    size_t n;

    (void)state;
    n = (size_t)snprintf(body, sizeof(body), "{\"board\": \"1 2 3 0\", "
                         "\"x");
    for (int i = 0; i < 40; i++)
        n += (size_t)snprintf(body + n, sizeof(body) - n, "\xc3\xa9");
    snprintf(body + n, sizeof(body) - n, "\": 1}");
    root = parse_ok(body);
    assert_int_equal(api_decode_solve(root, CAPS(&c), &rq, &p), PUZ_EINVAL);
    json_decref(root);
    ps = json_string(p.pointer);    /* NULL unless valid UTF-8 */
    assert_non_null(ps);
    json_decref(ps);
    pj = api_problem_json(&p, "/v1/solve", "id");
    assert_non_null(pj);
    json_decref(pj);
    root = parse_ok("{\"board\": \"1 2 3 0\", \"a/b~c\": 1}");
    assert_int_equal(api_decode_solve(root, CAPS(&c), &rq, &p), PUZ_EINVAL);
    assert_string_equal(p.pointer, "/a~1b~0c");
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_depth_column),
        cmocka_unit_test(test_board_forms),
        cmocka_unit_test(test_board_rejections),
        cmocka_unit_test(test_flat_board_too_big),
        cmocka_unit_test(test_solvable),
        cmocka_unit_test(test_solve_options),
        cmocka_unit_test(test_limits_are_capped),
        cmocka_unit_test(test_solve_rejections),
        cmocka_unit_test(test_unknown_option_lists_valid),
        cmocka_unit_test(test_fast_path_matches_full),
        cmocka_unit_test(test_batch_entries),
        cmocka_unit_test(test_score_moves),
        cmocka_unit_test(test_problem_json),
        cmocka_unit_test(test_unknown_key_pointer),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
