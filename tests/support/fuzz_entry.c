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
#include "puz_algorithm.h"
#include "puz_board.h"
#include "puz_solve.h"
#include "puz_trace.h"
#include "daily.h"
#include "daily_entry.h"
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

/* v within its cap (a cap of 0 is none). */
static bool capped(uint64_t v, uint64_t cap)
{
    return cap == 0 || v <= cap;
}

/* A decoded request's options within the bounds api_decode.h documents:
 * limits at most the caps (a job's or /v1/solve's), "threads" at most
 * caps->threads_max (none for /v1/solve), weight and trace in range. */
static void check_options(const struct api_solve_request *sr,
                          const struct api_solve_caps *caps)
{
    if ((unsigned)sr->algorithm >= PUZ_ALG_COUNT_
        || !capped(sr->max_nodes, caps->max_nodes)
        || !capped(sr->timeout_ms, caps->timeout_ms)
        || sr->threads > caps->threads_max
        || sr->max_depth > API_DECODE_MAX_DEPTH
        || sr->trace > PUZ_TRACE_MAX
        || (sr->weight != 0 && (sr->weight < PUZ_WASTAR_WEIGHT_MIN
                                || sr->weight > PUZ_WASTAR_WEIGHT_MAX)))
        abort();
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
    check_options(&sr, caps);
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
    if (api_decode_batch(root, c, a, &br, &err) != PUZ_OK) {
        check_problem(&err);
    } else {
        /* 1..batch_max entries, each a board or its own problem, under
         * /v1/solve's caps */
        caps = api_limits_solve_caps(c, false);
        check_options(&br.opts, &caps);
        if (br.count < 1 || br.count > c->batch_max)
            abort();
    }
    for (size_t i = 0; i < br.count; i++) {
        if (!br.entries[i].ok)
            check_problem(&br.entries[i].problem);
        else
            check_board(&br.entries[i].board);
    }
    if (api_decode_score(root, c, a, &sc, &err) != PUZ_OK) {
        check_problem(&err);
    } else {
        check_board(&sc.board);
        if (sc.count > c->score_max_moves)
            abort();
    }
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

/* An entry or finish body decoded (ok) within daily_entry.h's bounds. */
static void check_run(const struct daily_entry *e, bool finish)
{
    bool named = !finish && !e->untimed && e->moves == 0;

    if (finish ? e->nickname[0] != '\0' || e->untimed
               : !store_nickname_ok(e->nickname))
        abort();
    if (e->untimed ? e->token[0] != '\0' : !store_token_ok(e->token))
        abort();
    if (e->moves > DAILY_MAX_MOVES || (e->moves == 0 && !named)
        || (e->moves == 0) != (e->dirs == NULL) || (named && e->help))
        abort();
    for (unsigned i = 0; i < e->moves; i++)
        if (e->dirs[i] > PUZ_RIGHT)
            abort();
}

/* The body of what e holds: decoding it again must give e. */
static json_t *run_json(const struct daily_entry *e, bool finish)
{
    json_t *o = json_object(), *moves = json_array();

    if (!finish)
        json_object_set_new(o, "nickname", json_string(e->nickname));
    if (e->untimed)
        json_object_set_new(o, "untimed", json_true());
    else
        json_object_set_new(o, "token", json_string(e->token));
    for (unsigned i = 0; i < e->moves; i++)
        json_array_append_new(moves, json_string(puz_dir_name(e->dirs[i])));
    if (e->moves > 0) {
        json_object_set_new(o, "help", json_boolean(e->help));
        json_object_set_new(o, "moves", moves);
    } else {
        json_decref(moves);
    }
    return o;
}

static void decode_run(const json_t *root, bool finish, puz_arena *a)
{
    struct daily_entry e, again;
    struct api_problem err;
    json_t *back;

    if (daily_entry_decode(root, finish, a, &e, &err) != PUZ_OK) {
        if (err.kind != API_PROBLEM_INVALID_REQUEST || err.pointer[0] != '/')
            abort();
        check_problem(&err);
        return;
    }
    check_run(&e, finish);
    back = run_json(&e, finish);
    if (daily_entry_decode(back, finish, a, &again, &err) != PUZ_OK
        || strcmp(again.nickname, e.nickname) != 0
        || strcmp(again.token, e.token) != 0 || again.untimed != e.untimed
        || again.help != e.help || again.moves != e.moves
        || (e.moves > 0 && memcmp(again.dirs, e.dirs, e.moves) != 0))
        abort();
    json_decref(back);
}

void fuzz_daily_entry_one(const uint8_t *data, size_t size)
{
    static struct api_limits cfg;
    static bool ready;
    struct api_problem err;
    json_t *root = NULL;
    puz_arena *a;

    if (!ready) {
        api_limits_defaults(&cfg);
        ready = true;
    }
    if (api_decode_json((const char *)data, size, cfg.json_max_depth,
                        &root, &err) != PUZ_OK)
        return;     /* the decode target's: the same parser */
    a = puz_arena_create(4096);
    if (a != NULL) {
        decode_run(root, false, a);
        decode_run(root, true, a);
        puz_arena_destroy(a);
    }
    json_decref(root);
}
