/*
 * decode.c - request bodies to validated C values. Every rejection says
 * where (a JSON pointer) and what to change, in words a caller can act
 * on; the server only forwards these problems.
 */
#include "api_decode.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Keys each body may carry; anything else is a typo worth reporting. */
static const char *const solve_keys[] = {
    "board", "goal", "algorithm", "heuristic", "limits", "include_path",
    "weight", "trace", "effort", "threads", "rows", "cols",
    NULL
};
static const char *const batch_keys[] = {
    "boards", "goal", "algorithm", "heuristic", "limits", "include_path",
    "weight", "rows", "cols",
    NULL
};
static const char *const score_keys[] = {
    "board", "goal", "moves", "rows", "cols", NULL
};
static const char *const limit_keys[] = {
    "max_nodes", "timeout_ms", "max_depth", NULL
};

/* ", "-joined list into buf. */
static void join(const char *const *names, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; names[i] != NULL && used < size; i++)
        used += snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                         names[i]);
}

/*
 * Column as jansson counts it: characters, not bytes (UTF-8
 * continuation bytes do not advance it).
 */
static void advance(unsigned char c, int *line, int *col)
{
    if (c == '\n') {
        (*line)++;
        *col = 0;
    } else if ((c & 0xC0) != 0x80) {
        (*col)++;
    }
}

/*
 * jansson's own limit is 2048 levels and its message is terse; a cheap
 * scan outside strings gives a clear error long before that.
 */
static puz_err check_depth(const char *buf, size_t len, unsigned max_depth,
                           struct api_problem *err)
{
    unsigned depth = 0;
    int line = 1, col = 0;
    bool in_str = false, esc = false;

    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)buf[i];

        advance(c, &line, &col);
        if (in_str) {
            in_str = esc || c != '"';
            esc = !esc && c == '\\';
        } else if (c == '"') {
            in_str = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_depth)
                goto too_deep;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return PUZ_OK;
too_deep:
    api_problem_set(err, API_PROBLEM_MALFORMED_JSON, "JSON nested deeper "
                     "than %u levels at line %d, column %d; puzzled "
                     "requests need at most 4", max_depth, line, col);
    err->line = line;
    err->column = col;
    return PUZ_EINVAL;
}

puz_err api_decode_json(const char *buf, size_t len, unsigned max_depth,
                         json_t **out, struct api_problem *err)
{
    json_error_t jerr;
    json_t *root;

    *out = NULL;
    if (len == 0) {
        api_problem_set(err, API_PROBLEM_MALFORMED_JSON, "the request "
                         "body is empty; send a JSON object such as "
                         "{\"board\": \"1 2 3 4 5 6 7 0 8\"}");
        return PUZ_EINVAL;
    }
    if (check_depth(buf, len, max_depth, err) != PUZ_OK)
        return PUZ_EINVAL;
    root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
                      &jerr);
    if (root == NULL) {
        api_problem_set(err, API_PROBLEM_MALFORMED_JSON, "malformed JSON "
                         "at line %d, column %d: %s", jerr.line,
                         jerr.column, jerr.text);
        err->line = jerr.line > 0 ? jerr.line : 1;
        err->column = jerr.column > 0 ? jerr.column : 0;
        return PUZ_EINVAL;
    }
    if (!json_is_object(root)) {
        json_decref(root);
        api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "the request "
                         "body must be a JSON object, e.g. "
                         "{\"board\": \"1 2 3 4 5 6 7 0 8\"}");
        return PUZ_EINVAL;
    }
    *out = root;
    return PUZ_OK;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a decimal number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "unknown";
}

/*
 * err->pointer = ptr + "/" + key, escaped as RFC 6901 says ("~" is "~0",
 * "/" is "~1"). A key too long for the buffer is cut on a character
 * boundary: half a UTF-8 sequence would make the answer invalid JSON.
 */
static void point_key(struct api_problem *err, const char *ptr,
                      const char *key)
{
    char *out = err->pointer;
    size_t cap = sizeof(err->pointer), n, lead;
    int len = snprintf(out, cap, "%s/", ptr);

    n = len < 0 ? 0 : (size_t)len < cap ? (size_t)len : cap - 1;
    for (const char *k = key; *k != '\0'; k++) {
        const char *esc = *k == '~' ? "~0" : *k == '/' ? "~1" : NULL;
        size_t need = esc != NULL ? 2 : 1;

        if (n + need >= cap)
            break;
        memcpy(out + n, esc != NULL ? esc : k, need);
        n += need;
    }
    for (lead = n; lead > 0 && ((unsigned char)out[lead - 1] & 0xC0) == 0x80;)
        lead--;
    if (lead > 0 && (unsigned char)out[lead - 1] >= 0xC0) {
        unsigned char c = (unsigned char)out[lead - 1];
        size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

        if (lead - 1 + want > n)
            n = lead - 1;
    }
    out[n] = '\0';
}

/* Every key of obj must be in allowed. */
static puz_err check_keys(const json_t *obj, const char *const *allowed,
                          const char *ptr, struct api_problem *err)
{
    const char *key;
    json_t *v;
    size_t i;

    json_object_foreach((json_t *)obj, key, v) {
        for (i = 0; allowed[i] != NULL; i++) {
            if (strcmp(key, allowed[i]) == 0)
                break;
        }
        if (allowed[i] != NULL)
            continue;
        api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "unknown field "
                         "\"%.64s\" in %s", key, *ptr ? ptr : "the body");
        point_key(err, ptr, key);
        join(allowed, err->allowed, sizeof(err->allowed));
        return PUZ_EINVAL;
    }
    return PUZ_OK;
}

/* One tile value: a JSON integer, nothing else. */
static puz_err tile_value(const json_t *v, const char *ptr,
                          long long *out, struct api_problem *err)
{
    if (json_is_integer(v)) {
        *out = json_integer_value(v);
        return PUZ_OK;
    }
    if (json_is_real(v))
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s is the "
                         "decimal number %g; tiles are whole numbers "
                         "written without a fraction or exponent", ptr,
                         json_real_value(v));
    else
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s is %s; tiles "
                         "are whole numbers (0 for the blank)", ptr,
                         type_name(v));
    api_problem_point(err, "%s", ptr);
    return PUZ_EINVAL;
}

/* rows = 0: a square of count cells. */
static puz_err values_to_board(const long long *vals, size_t count,
                               unsigned rows, unsigned cols,
                               const char *ptr, struct puz_board *out,
                               struct api_problem *err)
{
    char msg[PUZ_MSG_MAX] = "";

    if ((rows == 0 ? puz_board_from_values(vals, count, out, msg)
                   : puz_board_from_shape(vals, count, rows, cols, out,
                                          msg)) == PUZ_OK)
        return PUZ_OK;
    api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s: %s", ptr, msg);
    api_problem_point(err, "%s", ptr);
    return PUZ_EINVAL;
}

/* One row of a 2-D board: an array of exactly n tiles. */
static puz_err board_row(const json_t *row, size_t r, size_t n,
                         const char *ptr, long long *vals,
                         struct api_problem *err)
{
    char cell[API_PROBLEM_POINTER];

    if (!json_is_array(row)) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s: row %zu is "
                         "%s, not an array of %zu tiles", ptr, r,
                         type_name(row), n);
        api_problem_point(err, "%s/%zu", ptr, r);
        return PUZ_EINVAL;
    }
    if (json_array_size(row) != n) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s: row %zu has "
                         "%zu tiles, but row 0 has %zu; every row of a "
                         "board has the same length", ptr, r,
                         json_array_size(row), n);
        api_problem_point(err, "%s/%zu", ptr, r);
        return PUZ_EINVAL;
    }
    for (size_t c = 0; c < n; c++) {
        snprintf(cell, sizeof(cell), "%s/%zu/%zu", ptr, r, c);
        if (tile_value(json_array_get(row, c), cell, &vals[r * n + c], err)
            != PUZ_OK)
            return PUZ_EINVAL;
    }
    return PUZ_OK;
}

static puz_err board_rows(const json_t *v, const char *ptr,
                          struct puz_board *out, struct api_problem *err)
{
    long long vals[PUZ_MAX_CELLS];
    size_t n = json_array_size(v);
    size_t cols = json_array_size(json_array_get(v, 0));

    if (n < PUZ_MIN_SIZE || n > PUZ_MAX_SIZE) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s has %zu rows; "
                         "boards are %d to %d rows of the same length",
                         ptr, n, PUZ_MIN_SIZE, PUZ_MAX_SIZE);
        api_problem_point(err, "%s", ptr);
        return PUZ_EINVAL;
    }
    if (cols < PUZ_MIN_SIZE || cols > PUZ_MAX_SIZE) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s: row 0 has %zu "
                         "tiles; boards are %d to %d columns wide", ptr,
                         cols, PUZ_MIN_SIZE, PUZ_MAX_SIZE);
        api_problem_point(err, "%s/0", ptr);
        return PUZ_EINVAL;
    }
    for (size_t r = 0; r < n; r++) {
        if (board_row(json_array_get(v, r), r, cols, ptr, vals, err)
            != PUZ_OK)
            return PUZ_EINVAL;
    }
    return values_to_board(vals, n * cols, (unsigned)n, (unsigned)cols, ptr,
                           out, err);
}

static puz_err board_flat(const json_t *v, unsigned rows, unsigned cols,
                          const char *ptr, struct puz_board *out,
                          struct api_problem *err)
{
    long long vals[PUZ_MAX_CELLS];
    char cell[API_PROBLEM_POINTER];
    size_t n = json_array_size(v);

    if (n > PUZ_MAX_CELLS) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s has %zu tiles; "
                         "the largest board (%dx%d) has %d", ptr, n,
                         PUZ_MAX_SIZE, PUZ_MAX_SIZE, PUZ_MAX_CELLS);
        api_problem_point(err, "%s", ptr);
        return PUZ_EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(cell, sizeof(cell), "%s/%zu", ptr, i);
        if (tile_value(json_array_get(v, i), cell, &vals[i], err) != PUZ_OK)
            return PUZ_EINVAL;
    }
    return values_to_board(vals, n, rows, cols, ptr, out, err);
}

puz_err api_decode_board(const json_t *v, const char *ptr,
                          struct puz_board *out, struct api_problem *err)
{
    return api_decode_board_shape(v, 0, 0, ptr, out, err);
}

puz_err api_decode_board_shape(const json_t *v, unsigned rows, unsigned cols,
                                const char *ptr, struct puz_board *out,
                                struct api_problem *err)
{
    char msg[PUZ_MSG_MAX] = "";

    memset(out, 0, sizeof(*out));
    if (json_is_string(v)) {
        if (puz_board_parse_shape(json_string_value(v), rows, cols, out,
                                  msg) == PUZ_OK)
            return PUZ_OK;
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s: %s", ptr, msg);
        api_problem_point(err, "%s", ptr);
        return PUZ_EINVAL;
    }
    if (json_is_array(v) && json_array_size(v) > 0) {
        if (json_is_array(json_array_get(v, 0)))
            return board_rows(v, ptr, out, err);
        return board_flat(v, rows, cols, ptr, out, err);
    }
    api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s is %s; send an "
                     "array of rows [[1,2,3],[4,5,6],[7,8,0]], a flat array "
                     "[1,2,3,4,5,6,7,8,0] or a string \"1 2 3 4 5 6 7 8 0\"",
                     ptr, json_is_array(v) ? "an empty array"
                     : type_name(v));
    api_problem_point(err, "%s", ptr);
    return PUZ_EINVAL;
}

puz_err api_decode_solvable(const struct puz_board *board,
                             const struct puz_board *goal,
                             struct api_problem *err)
{
    struct puz_board def;
    char why[PUZ_MSG_MAX];
    bool ok = false;

    if (goal == NULL) {
        puz_board_goal_of(board, &def);
        goal = &def;
    }
    if (!puz_board_same_shape(goal, board)) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "the goal is "
                         "%ux%u but the board is %ux%u", puz_board_rows(goal),
                         goal->n, puz_board_rows(board), board->n);
        api_problem_point(err, "/goal");
        return PUZ_EINVAL;
    }
    /* The explanation (a formatted string) only for a board refused. */
    if (puz_board_solvable(board, goal, &ok, NULL) == PUZ_OK && ok)
        return PUZ_OK;
    why[0] = '\0';
    if (puz_board_solvable(board, goal, &ok, why) != PUZ_OK) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s", why);
        return PUZ_EINVAL;
    }
    api_problem_set(err, API_PROBLEM_UNSOLVABLE, "%s", why[0] ? why
                     : "the board's permutation parity differs from the "
                     "goal's, so no sequence of moves reaches it");
    return PUZ_EUNSOLVABLE;
}

/* A positive integer option, capped at cap (0 = no cap). */
static puz_err limit_value(const json_t *limits, const char *key,
                           uint64_t cap, uint64_t *inout,
                           struct api_problem *err)
{
    const json_t *v = json_object_get(limits, key);
    json_int_t n;

    if (v == NULL || json_is_null(v))
        return PUZ_OK;
    if (!json_is_integer(v) || json_integer_value(v) < 1) {
        if (json_is_integer(v))
            api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "limits.%s "
                             "must be at least 1", key);
        else
            api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "limits.%s "
                             "must be a whole number, not %s", key,
                             type_name(v));
        api_problem_point(err, "/limits/%s", key);
        return PUZ_EINVAL;
    }
    n = json_integer_value(v);
    /* The server's cap wins: a client may ask for less, never more. */
    *inout = cap != 0 && (uint64_t)n > cap ? cap : (uint64_t)n;
    return PUZ_OK;
}

static puz_err decode_limits(const json_t *root,
                             const struct api_solve_caps *c,
                             struct api_solve_request *out,
                             struct api_problem *err)
{
    const json_t *limits = json_object_get(root, "limits");
    uint64_t nodes = c->max_nodes, ms = c->timeout_ms, depth = 0;

    if (limits != NULL && !json_is_null(limits)) {
        if (!json_is_object(limits)) {
            api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "limits "
                             "must be an object like {\"max_nodes\": "
                             "100000, \"timeout_ms\": 2000}, not %s",
                             type_name(limits));
            api_problem_point(err, "/limits");
            return PUZ_EINVAL;
        }
        if (check_keys(limits, limit_keys, "/limits", err) != PUZ_OK
            || limit_value(limits, "max_nodes", c->max_nodes, &nodes,
                           err) != PUZ_OK
            || limit_value(limits, "timeout_ms", c->timeout_ms, &ms,
                           err) != PUZ_OK
            || limit_value(limits, "max_depth", API_DECODE_MAX_DEPTH, &depth,
                           err)
               != PUZ_OK)
            return PUZ_EINVAL;
    }
    out->max_nodes = nodes;
    out->timeout_ms = (unsigned)ms;
    out->max_depth = (unsigned)depth;
    return PUZ_OK;
}

/* A string option, or NULL when absent or null. */
static puz_err string_option(const json_t *root, const char *key,
                             const char **out, struct api_problem *err)
{
    const json_t *v = json_object_get(root, key);

    *out = NULL;
    if (v == NULL || json_is_null(v))
        return PUZ_OK;
    if (json_is_string(v)) {
        *out = json_string_value(v);
        return PUZ_OK;
    }
    api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "%s must be a string, "
                     "not %s", key, type_name(v));
    api_problem_point(err, "/%s", key);
    return PUZ_EINVAL;
}

/* The name option key is s, which names nothing: the problem, with the
 * names it may take (NULL-ended) in err->allowed. */
static puz_err unknown_name(const char *key, const char *s,
                            const char *const *names,
                            struct api_problem *err)
{
    api_problem_set(err, API_PROBLEM_INVALID_OPTION, "unknown %s \"%.64s\"",
                     key, s);
    api_problem_point(err, "/%s", key);
    join(names, err->allowed, sizeof(err->allowed));
    return PUZ_EINVAL;
}

static puz_err decode_algorithm(const json_t *root,
                                struct api_solve_request *out,
                                struct api_problem *err)
{
    const char *s, *names[PUZ_ALG_COUNT_ + 1];
    int n = 0;

    out->algorithm = PUZ_ALG_AUTO;
    if (string_option(root, "algorithm", &s, err) != PUZ_OK)
        return PUZ_EINVAL;
    if (s == NULL || puz_algorithm_parse(s, &out->algorithm) == PUZ_OK)
        return PUZ_OK;
    for (int a = 0; a < PUZ_ALG_COUNT_; a++)
        names[n++] = puz_algorithm_name((enum puz_algorithm)a);
    names[n] = NULL;
    return unknown_name("algorithm", s, names, err);
}

static puz_err decode_heuristic(const json_t *root,
                                struct api_solve_request *out,
                                struct api_problem *err)
{
    const char *s, *names[32];
    size_t n = 0;

    out->heuristic = NULL;
    if (string_option(root, "heuristic", &s, err) != PUZ_OK)
        return PUZ_EINVAL;
    if (s == NULL)
        return PUZ_OK;
    out->heuristic = puz_heuristic_find(s);
    if (out->heuristic != NULL)
        return PUZ_OK;
    for (size_t i = 0; i < puz_heuristic_count() && n + 1 < 32; i++)
        names[n++] = puz_heuristic_name(puz_heuristic_at(i));
    names[n] = NULL;
    return unknown_name("heuristic", s, names, err);
}

/* The body's "rows" and "cols" (both or neither; 0 and 0 when absent):
 * the shape of its flat arrays and strings. */
static puz_err root_shape(const json_t *root, unsigned *rows, unsigned *cols,
                          struct api_problem *err)
{
    static const char *const keys[2] = { "rows", "cols" };
    unsigned *out[2] = { rows, cols };
    int given = 0;

    *rows = *cols = 0;
    for (unsigned i = 0; i < 2; i++) {
        const json_t *v = json_object_get(root, keys[i]);
        json_int_t x;
        if (v == NULL)
            continue;
        x = json_is_integer(v) ? json_integer_value(v) : 0;
        if (x < PUZ_MIN_SIZE || x > PUZ_MAX_SIZE) {
            api_problem_set(err, API_PROBLEM_INVALID_BOARD, "%s must be an "
                             "integer from %d to %d", keys[i], PUZ_MIN_SIZE,
                             PUZ_MAX_SIZE);
            api_problem_point(err, "/%s", keys[i]);
            return PUZ_EINVAL;
        }
        *out[i] = (unsigned)x;
        given++;
    }
    if (given == 1) {
        api_problem_set(err, API_PROBLEM_INVALID_BOARD, "rows and cols go "
                         "together: give both (a flat board of rows x cols "
                         "tiles) or neither");
        api_problem_point(err, *rows ? "/cols" : "/rows");
        *rows = *cols = 0;
        return PUZ_EINVAL;
    }
    return PUZ_OK;
}

/* The board at root's key (ptr "/key"), in the body's rows x cols. */
static puz_err board_of(const json_t *root, const json_t *v, const char *ptr,
                        struct puz_board *out, struct api_problem *err)
{
    unsigned rows, cols;

    if (root_shape(root, &rows, &cols, err) != PUZ_OK)
        return PUZ_EINVAL;
    return api_decode_board_shape(v, rows, cols, ptr, out, err);
}

static puz_err decode_goal(const json_t *root, bool *has,
                           struct puz_board *goal, struct api_problem *err)
{
    const json_t *v = json_object_get(root, "goal");

    *has = v != NULL && !json_is_null(v);
    if (!*has)
        return PUZ_OK;
    return board_of(root, v, "/goal", goal, err);
}

/* An optional integer option from min to max; *out 0 when absent or
 * null. */
static puz_err int_option(const json_t *root, const char *key,
                          long long min, long long max, unsigned *out,
                          struct api_problem *err)
{
    const json_t *v = json_object_get(root, key);

    *out = 0;
    if (v == NULL || json_is_null(v))
        return PUZ_OK;
    if (!json_is_integer(v) || json_integer_value(v) < min
        || json_integer_value(v) > max) {
        api_problem_set(err, API_PROBLEM_INVALID_OPTION,
                         "%s must be an integer from %lld to %lld, not %s",
                         key, min, max,
                         json_is_integer(v) ? "that number" : type_name(v));
        api_problem_point(err, "/%s", key);
        return PUZ_EINVAL;
    }
    *out = (unsigned)json_integer_value(v);
    return PUZ_OK;
}

/* An optional true or false; *out false when absent or null. */
static puz_err bool_option(const json_t *root, const char *key, bool *out,
                           struct api_problem *err)
{
    const json_t *v = json_object_get(root, key);

    *out = false;
    if (v == NULL || json_is_null(v))
        return PUZ_OK;
    if (!json_is_boolean(v)) {
        api_problem_set(err, API_PROBLEM_INVALID_REQUEST,
                         "%s must be true or false, not %s", key,
                         type_name(v));
        api_problem_point(err, "/%s", key);
        return PUZ_EINVAL;
    }
    *out = json_is_true(v);
    return PUZ_OK;
}

/* "threads" (issue 30, jobs only): one IDA* with pdb tables on up to
 * this many threads, capped quietly at threads_max (the job workers'
 * share of the cores); /v1/solve (threads_max 0) refuses it. */
static puz_err decode_threads(const json_t *root, unsigned threads_max,
                              unsigned *threads, struct api_problem *err)
{
    const json_t *v = json_object_get(root, "threads");

    *threads = 0;
    if (v != NULL && !json_is_null(v) && threads_max == 0) {
        api_problem_set(err, API_PROBLEM_INVALID_OPTION,
                         "threads is for jobs (POST /v1/jobs): a /v1/solve "
                         "runs on one thread");
        api_problem_point(err, "/threads");
        return PUZ_EINVAL;
    }
    if (int_option(root, "threads", 1, PUZ_THREADS_MAX, threads, err)
        != PUZ_OK)
        return PUZ_EINVAL;
    if (*threads > threads_max)
        *threads = threads_max;
    return PUZ_OK;
}

/* Options common to /v1/solve and /v1/solve/batch. */
static puz_err decode_options(const json_t *root,
                              const struct api_solve_caps *caps,
                              struct api_solve_request *out,
                              struct api_problem *err)
{
    /* weight: wastar's, f = g + weight * h; trace (issue 16, /v1/solve
     * only): record the first K expansions of a best-first search;
     * effort (issue 16, /v1/solve only): expansions per f layer (A*) or
     * per iteration (IDA*), for the lab's chart */
    if (bool_option(root, "include_path", &out->include_path, err) != PUZ_OK
        || decode_goal(root, &out->has_goal, &out->goal, err) != PUZ_OK
        || decode_algorithm(root, out, err) != PUZ_OK
        || decode_heuristic(root, out, err) != PUZ_OK
        || int_option(root, "weight", PUZ_WASTAR_WEIGHT_MIN,
                      PUZ_WASTAR_WEIGHT_MAX, &out->weight, err) != PUZ_OK
        || int_option(root, "trace", 1, PUZ_TRACE_MAX, &out->trace, err)
           != PUZ_OK
        || bool_option(root, "effort", &out->effort, err) != PUZ_OK
        || decode_threads(root, caps->threads_max, &out->threads, err)
           != PUZ_OK)
        return PUZ_EINVAL;
    return decode_limits(root, caps, out, err);
}

static puz_err require(const json_t *root, const char *key,
                       struct api_problem *err)
{
    if (json_object_get(root, key) != NULL)
        return PUZ_OK;
    api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "the field \"%s\" "
                     "is required", key);
    api_problem_point(err, "/%s", key);
    return PUZ_EINVAL;
}

/*
 * A solve's options and the anytime default after its board. root NULL
 * (the fast path's body, which has no other key) gives every default:
 * jansson's getters answer NULL for a NULL object, so both paths run the
 * same code here.
 */
static puz_err solve_options(const json_t *root,
                             const struct api_solve_caps *caps,
                             struct api_solve_request *out,
                             struct api_problem *err)
{
    if (decode_options(root, caps, out, err) != PUZ_OK)
        return PUZ_EINVAL;
    /* without one, the anytime search gets a second, not the whole
     * timeout (api_solve.c: which search runs depends on the tables) */
    out->timeout_set = json_object_get(json_object_get(root, "limits"),
                                       "timeout_ms") != NULL;
    return PUZ_OK;
}

/* A trace asked of a search that records none is refused, not answered
 * with an empty list: only the best-first searches record expansions. */
static puz_err check_trace(const struct api_solve_request *q,
                           struct api_problem *err)
{
    enum puz_algorithm a = puz_algorithm_resolve_shape(
        q->algorithm, puz_board_rows(&q->board), q->board.n);

    if (q->trace == 0 || puz_algorithm_traces(a))
        return PUZ_OK;
    api_problem_set(err, API_PROBLEM_INVALID_OPTION, "trace records the "
                     "expansions of a best-first search (astar, bnb, "
                     "greedy, wastar); %s on a %ux%u board records none "
                     "(effort still counts its work)", puz_algorithm_name(a),
                     puz_board_rows(&q->board), q->board.n);
    api_problem_point(err, "/trace");
    return PUZ_EINVAL;
}

puz_err api_decode_solve(const json_t *root,
                          const struct api_solve_caps *caps,
                          struct api_solve_request *out,
                          struct api_problem *err)
{
    memset(out, 0, sizeof(*out));
    if (check_keys(root, solve_keys, "", err) != PUZ_OK
        || require(root, "board", err) != PUZ_OK
        || board_of(root, json_object_get(root, "board"), "/board",
                    &out->board, err) != PUZ_OK)
        return PUZ_EINVAL;
    if (solve_options(root, caps, out, err) != PUZ_OK)
        return PUZ_EINVAL;
    return check_trace(out, err);
}

/* JSON's four whitespace bytes from i on; the index after them. */
static size_t skip_ws(const char *buf, size_t len, size_t i)
{
    while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n'
                       || buf[i] == '\r'))
        i++;
    return i;
}

/* The token tok at buf[i] (after whitespace); the index after it, or 0. */
static size_t expect(const char *buf, size_t len, size_t i, const char *tok)
{
    size_t n = strlen(tok);

    i = skip_ws(buf, len, i);
    return len - i >= n && memcmp(buf + i, tok, n) == 0 ? i + n : 0;
}

/*
 * The board string's bytes from i (just past its opening quote) up to
 * its closing quote, into tiles as a C string; the index past the quote,
 * or 0 when the string holds an escape, a byte outside printable ASCII
 * or does not fit. Without escapes the bytes are the string's value,
 * exactly what json_string_value would give.
 */
static size_t board_string(const char *buf, size_t len, size_t i,
                           char *tiles, size_t size)
{
    size_t start = i;

    while (i < len && buf[i] != '"' && buf[i] != '\\'
           && (unsigned char)buf[i] >= 0x20 && (unsigned char)buf[i] < 0x7F)
        i++;
    if (i == len || buf[i] != '"' || i - start >= size)
        return 0;
    memcpy(tiles, buf + start, i - start);
    tiles[i - start] = '\0';
    return i + 1;
}

bool api_decode_solve_fast(const char *buf, size_t len,
                           const struct api_solve_caps *caps,
                           struct api_solve_request *out)
{
    char tiles[API_DECODE_FAST_BOARD_MAX], msg[PUZ_MSG_MAX];
    struct api_problem err;
    size_t i;

    if (buf == NULL)
        return false;
    i = expect(buf, len, 0, "{");
    i = i != 0 ? expect(buf, len, i, "\"board\"") : 0;
    i = i != 0 ? expect(buf, len, i, ":") : 0;
    i = i != 0 ? expect(buf, len, i, "\"") : 0;
    i = i != 0 ? board_string(buf, len, i, tiles, sizeof(tiles)) : 0;
    i = i != 0 ? expect(buf, len, i, "}") : 0;
    if (i == 0 || skip_ws(buf, len, i) != len)
        return false;
    memset(out, 0, sizeof(*out));
    if (puz_board_parse(tiles, &out->board, msg) != PUZ_OK)
        return false;   /* the full path words the error */
    return solve_options(NULL, caps, out, &err) == PUZ_OK;
}

/* One batch entry: its own board, checked against the shared goal. */
static void batch_entry(const json_t *root, const json_t *v, size_t i,
                        const struct api_solve_request *opts,
                        struct api_batch_entry *e)
{
    char ptr[API_PROBLEM_POINTER];

    snprintf(ptr, sizeof(ptr), "/boards/%zu", i);
    e->ok = board_of(root, v, ptr, &e->board, &e->problem) == PUZ_OK
            && api_decode_solvable(&e->board, opts->has_goal ? &opts->goal
                                    : NULL, &e->problem) == PUZ_OK;
    if (!e->ok && e->problem.pointer[0] == '\0')
        api_problem_point(&e->problem, "%s", ptr);
}

puz_err api_decode_batch(const json_t *root, const struct api_limits *cfg,
                          puz_arena *a, struct api_batch_request *out,
                          struct api_problem *err)
{
    struct api_solve_caps caps = api_limits_solve_caps(cfg, false);
    const json_t *boards;
    size_t n;

    memset(out, 0, sizeof(*out));
    if (check_keys(root, batch_keys, "", err) != PUZ_OK
        || require(root, "boards", err) != PUZ_OK
        || decode_options(root, &caps, &out->opts, err) != PUZ_OK)
        return PUZ_EINVAL;
    boards = json_object_get(root, "boards");
    n = json_array_size(boards);
    if (!json_is_array(boards) || n == 0 || n > cfg->batch_max) {
        api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "boards must be "
                         "an array of 1 to %u boards; got %s%zu%s",
                         cfg->batch_max, json_is_array(boards) ? "" : "not "
                         "an array, ", n, json_is_array(boards)
                         ? " entries" : "");
        api_problem_point(err, "/boards");
        return PUZ_EINVAL;
    }
    out->entries = puz_arena_calloc(a, n, sizeof(*out->entries));
    if (out->entries == NULL) {
        api_problem_set(err, API_PROBLEM_INTERNAL, "out of memory");
        return PUZ_ENOMEM;
    }
    out->count = n;
    for (size_t i = 0; i < n; i++)
        batch_entry(root, json_array_get(boards, i), i, &out->opts,
                    &out->entries[i]);
    return PUZ_OK;
}

/* One move of /v1/score: "up"/"u"/... or the number of a tile. */
static puz_err score_move(const json_t *v, size_t i, unsigned max_tile,
                          struct puz_move *m, struct api_problem *err)
{
    json_int_t t;

    if (json_is_string(v)
        && puz_dir_parse(json_string_value(v), &m->dir) == PUZ_OK) {
        m->is_tile = false;
        return PUZ_OK;
    }
    t = json_is_integer(v) ? json_integer_value(v) : 0;
    if (t >= 1 && t <= (json_int_t)max_tile) {
        m->is_tile = true;
        m->tile = (unsigned)t;
        return PUZ_OK;
    }
    api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "moves[%zu] is not a "
                     "move: use \"up\", \"down\", \"left\", \"right\" (the "
                     "way the blank goes) or the number of the tile to "
                     "slide, 1 to %u", i, max_tile);
    api_problem_point(err, "/moves/%zu", i);
    return PUZ_EINVAL;
}

static puz_err decode_moves(const json_t *moves,
                            const struct api_limits *cfg, puz_arena *a,
                            struct api_score_request *out,
                            struct api_problem *err)
{
    size_t n = json_array_size(moves);
    unsigned max_tile = puz_board_cells(&out->board) - 1u;

    if (!json_is_array(moves) || n > cfg->score_max_moves) {
        api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "moves must be "
                         "an array of at most %u moves", cfg->score_max_moves);
        api_problem_point(err, "/moves");
        return PUZ_EINVAL;
    }
    out->moves = puz_arena_calloc(a, n ? n : 1, sizeof(*out->moves));
    if (out->moves == NULL) {
        api_problem_set(err, API_PROBLEM_INTERNAL, "out of memory");
        return PUZ_ENOMEM;
    }
    out->count = n;
    for (size_t i = 0; i < n; i++) {
        if (score_move(json_array_get(moves, i), i, max_tile,
                       &out->moves[i], err) != PUZ_OK)
            return PUZ_EINVAL;
    }
    return PUZ_OK;
}

puz_err api_decode_score(const json_t *root, const struct api_limits *cfg,
                          puz_arena *a, struct api_score_request *out,
                          struct api_problem *err)
{
    memset(out, 0, sizeof(*out));
    if (check_keys(root, score_keys, "", err) != PUZ_OK
        || require(root, "board", err) != PUZ_OK
        || require(root, "moves", err) != PUZ_OK
        || board_of(root, json_object_get(root, "board"), "/board",
                    &out->board, err) != PUZ_OK
        || decode_goal(root, &out->has_goal, &out->goal, err) != PUZ_OK)
        return PUZ_EINVAL;
    return decode_moves(json_object_get(root, "moves"), cfg, a, out, err);
}
