/*
 * fuzz_entry.c - per-input checks of the fuzz targets; see fuzz_entry.h.
 * No cmocka here: the same object runs under libFuzzer.
 */
#include "fuzz_entry.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "api_limits.h"
#include "api_decode.h"
#include "api_problem.h"
#include "puz_arena.h"
#include "puz_board.h"

/* What the server would send for err must exist and be valid JSON. */
static void check_problem(const struct api_problem *err)
{
    json_t *j;
    char *text;

    if (memchr(err->detail, '\0', sizeof(err->detail)) == NULL
        || memchr(err->pointer, '\0', sizeof(err->pointer)) == NULL)
        abort();
    j = api_problem_json(err, "/v1/solve", "fuzz");
    text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
    if (text == NULL)
        abort();
    free(text);
    json_decref(j);
}

static void check_board(const struct puz_board *b)
{
    bool seen[PUZ_MAX_CELLS] = { false };
    unsigned cells = (unsigned)b->n * b->n;

    if (b->n < PUZ_MIN_SIZE || b->n > PUZ_MAX_SIZE)
        abort();
    for (unsigned i = 0; i < cells; i++) {
        if (b->cells[i] >= cells || seen[b->cells[i]])
            abort();
        seen[b->cells[i]] = true;
    }
}

static void decode_bodies(const json_t *root, const struct api_limits *c)
{
    struct api_solve_caps caps = api_limits_solve_caps(c, false);
    struct api_solve_request sr;
    struct api_batch_request br;
    struct api_score_request sc;
    struct api_problem err;
    puz_arena *a = puz_arena_create(4096);

    if (a == NULL)
        return;
    if (api_decode_solve(root, &caps, &sr, &err) != PUZ_OK) {
        check_problem(&err);
    } else {
        check_board(&sr.board);
        if (api_decode_solvable(&sr.board, sr.has_goal ? &sr.goal : NULL,
                                 &err) != PUZ_OK)
            check_problem(&err);
    }
    if (api_decode_batch(root, c, a, &br, &err) != PUZ_OK)
        check_problem(&err);
    for (size_t i = 0; i < br.count; i++)
        if (!br.entries[i].ok)
            check_problem(&br.entries[i].problem);
    if (api_decode_score(root, c, a, &sc, &err) != PUZ_OK)
        check_problem(&err);
    puz_arena_destroy(a);
}

/* What the {"board": "..."} fast path takes, the full path takes too,
 * and decodes to the same request. */
static void check_fast_path(const uint8_t *data, size_t size,
                            const json_t *root, const struct api_limits *c)
{
    struct api_solve_caps caps = api_limits_solve_caps(c, false);
    struct api_solve_request fast, full;
    struct api_problem err;

    if (!api_decode_solve_fast((const char *)data, size, &caps, &fast))
        return;
    if (root == NULL || api_decode_solve(root, &caps, &full, &err) != PUZ_OK
        || !puz_board_equal(&fast.board, &full.board)
        || fast.has_goal != full.has_goal || fast.algorithm != full.algorithm
        || fast.heuristic != full.heuristic
        || fast.max_nodes != full.max_nodes
        || fast.timeout_ms != full.timeout_ms
        || fast.max_depth != full.max_depth || fast.weight != full.weight
        || fast.include_path != full.include_path
        || fast.trace != full.trace || fast.effort != full.effort)
        abort();
}

void fuzz_decode_one(const uint8_t *data, size_t size)
{
    static struct api_limits cfg;
    static bool ready;
    struct api_problem err;
    json_t *root = NULL;

    if (!ready) {
        api_limits_defaults(&cfg);
        ready = true;
    }
    if (api_decode_json((const char *)data, size, cfg.json_max_depth,
                         &root, &err) != PUZ_OK) {
        if (root != NULL)
            abort();
        check_problem(&err);
        check_fast_path(data, size, NULL, &cfg);
        return;
    }
    check_fast_path(data, size, root, &cfg);
    decode_bodies(root, &cfg);
    json_decref(root);
}

void fuzz_board_one(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1), msg[PUZ_MSG_MAX], text[3 * PUZ_MAX_CELLS + 8];
    struct puz_board b, again;

    if (s == NULL)
        return;
    memcpy(s, data, size);
    s[size] = '\0';     /* the parser takes C strings; NULs end them */
    msg[0] = '\0';
    if (puz_board_parse(s, &b, msg) == PUZ_OK) {
        check_board(&b);
        puz_board_format(&b, text, sizeof(text));
        if (puz_board_parse(text, &again, msg) != PUZ_OK
            || !puz_board_equal(&b, &again))
            abort();
    } else if (memchr(msg, '\0', sizeof(msg)) == NULL) {
        abort();
    }
    free(s);
}
