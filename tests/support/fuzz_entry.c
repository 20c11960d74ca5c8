/*
 * fuzz_entry.c - per-input checks of the fuzz targets; see fuzz_entry.h.
 * No cmocka here: the same object runs under libFuzzer.
 */
#include "fuzz_entry.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <jansson.h>

#include "api_keys.h"
#include "api_limits.h"
#include "api_decode.h"
#include "api_problem.h"
#include "puz_arena.h"
#include "puz_board.h"
#include "daily.h"
#include "store.h"

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

/* Any shape the decoders accept (squares and rectangles, 2..8 a side)
 * holding each of 0..cells-1 once, with the blank where it says. */
static void check_board(const struct puz_board *b)
{
    bool seen[PUZ_MAX_CELLS] = { false };
    unsigned rows = puz_board_rows(b), cells = puz_board_cells(b);

    if (b->n < PUZ_MIN_SIZE || b->n > PUZ_MAX_SIZE || rows < PUZ_MIN_SIZE
        || rows > PUZ_MAX_SIZE || b->blank >= cells || b->cells[b->blank] != 0)
        abort();
    for (unsigned i = 0; i < cells; i++) {
        if (b->cells[i] >= cells || seen[b->cells[i]])
            abort();
        seen[b->cells[i]] = true;
    }
}

static void decode_solve(const json_t *root,
                         const struct api_solve_caps *caps)
{
    struct api_solve_request sr;
    struct api_problem err;

    if (api_decode_solve(root, caps, &sr, &err) != PUZ_OK) {
        check_problem(&err);
        return;
    }
    check_board(&sr.board);
    if (sr.has_goal)
        check_board(&sr.goal);
    if (api_decode_solvable(&sr.board, sr.has_goal ? &sr.goal : NULL,
                             &err) != PUZ_OK)
        check_problem(&err);
}

static void decode_bodies(const json_t *root, const struct api_limits *c)
{
    struct api_solve_caps caps = api_limits_solve_caps(c, false);
    struct api_batch_request br;
    struct api_score_request sc;
    struct api_problem err;
    puz_arena *a = puz_arena_create(4096);

    if (a == NULL)
        return;
    decode_solve(root, &caps);
    /* A job's body (POST /v1/jobs) is a solve body with the job caps. */
    caps = api_limits_solve_caps(c, true);
    decode_solve(root, &caps);
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

/* Input as a C string of at most cap bytes (the parsers take C strings;
 * a NUL ends one); the caller frees it. */
static char *c_string(const uint8_t *data, size_t size, size_t cap)
{
    size_t n = size < cap ? size : cap;
    char *s = malloc(n + 1);

    if (s != NULL) {
        memcpy(s, data, n);
        s[n] = '\0';
    }
    return s;
}

void fuzz_keys_one(const uint8_t *data, size_t size)
{
    /* The loader reads a path: the input as an in-memory file. */
    int fd = memfd_create("keys", 0);
    char path[64], msg[PUZ_MSG_MAX], hex[API_KEY_HASH_HEX + 1], *token;
    const struct api_key *k;
    api_keys *t = NULL;
    size_t lines = 1;

    if (fd < 0)
        return;
    if (size > 0 && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return;
    }
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    msg[0] = '\0';
    if (api_keys_load(path, &t, msg) != PUZ_OK) {
        if (t != NULL || msg[0] == '\0'
            || memchr(msg, '\0', sizeof(msg)) == NULL)
            abort();
        close(fd);
        return;
    }
    if (api_keys_count(t) > lines)
        abort();
    /* A key is found only by the token whose SHA-256 it holds. */
    token = c_string(data, size, API_KEY_TOKEN_MAX);
    k = token != NULL ? api_keys_find(t, token) : NULL;
    if (k != NULL) {
        api_keys_hash_hex(token, hex);
        for (int i = 0; i < 32; i++) {
            unsigned byte;

            if (sscanf(hex + 2 * i, "%2x", &byte) != 1 || byte != k->hash[i])
                abort();
        }
        if (k->name[0] == '\0'
            || memchr(k->name, '\0', sizeof(k->name)) == NULL)
            abort();
    }
    free(token);
    api_keys_free(t);
    close(fd);
}

/* The calendar's own answer: YYYY-MM-DD, years 2000..2999, and a day
 * that timegm() does not carry into the next month. */
static bool real_date(const char *s)
{
    struct tm tm = { 0 };
    time_t t;

    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return false;
    tm.tm_year = atoi(s) - 1900;
    tm.tm_mon = atoi(s + 5) - 1;
    tm.tm_mday = atoi(s + 8);
    tm.tm_hour = 12;
    if (tm.tm_year < 100 || tm.tm_year > 1099 || tm.tm_mon < 0
        || tm.tm_mon > 11 || tm.tm_mday < 1)
        return false;
    t = timegm(&tm);
    return gmtime_r(&t, &tm) != NULL && tm.tm_mon == atoi(s + 5) - 1
           && tm.tm_mday == atoi(s + 8);
}

static bool lower_hex(const char *s, size_t len)
{
    if (strlen(s) != len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
            return false;
    return true;
}

void fuzz_daily_one(const uint8_t *data, size_t size)
{
    char *s = c_string(data, size, 256);

    if (s == NULL)
        return;
    if (daily_date_ok(s) != real_date(s))
        abort();
    if (store_token_ok(s) != lower_hex(s, STORE_TOKEN_HEX))
        abort();
    free(s);
}
