/*
 * api_random.c - GET /v1/puzzles/random: a random solvable board for
 * game levels. On 3x3 its optimal distance is exactly ?moves= (the
 * shared distance table picks it); on larger boards it is the end of a
 * random walk of that many moves. The query is checked strictly:
 * unknown or repeated parameters and anything but plain digits are a
 * 400.
 */
#include "api_int.h"

#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "puz_random.h"

#define SEED_MAX ((UINT64_C(1) << 53) - 1)  /* exact in a JS number */

struct random_query {
    unsigned size, rows, cols, moves;  /* rows, cols: 0 = size x size */
    uint64_t seed;
    bool has_size, has_rows, has_cols, has_moves, has_seed;
    struct api_problem err;
    bool failed;
};

static void query_fail(struct random_query *q, const char *key,
                       const char *why)
{
    if (q->failed)
        return;
    q->failed = true;
    api_problem_set(&q->err, API_PROBLEM_INVALID_QUERY, "%.32s: %s", key,
                     why);
    snprintf(q->err.allowed, sizeof(q->err.allowed),
             "size, rows, cols, moves, seed");
}

static bool digits(const char *v, uint64_t max, uint64_t *out)
{
    uint64_t n = 0;
    size_t len = v != NULL ? strlen(v) : 0;

    if (len == 0 || len > 16 || strspn(v, "0123456789") != len)
        return false;
    for (size_t i = 0; i < len; i++)
        n = n * 10 + (uint64_t)(v[i] - '0');
    *out = n;
    return n <= max;
}

static void query_arg(struct random_query *q, const struct api_param *a)
{
    uint64_t n = 0;
    bool *seen = NULL;

    if (strcmp(a->key, "size") == 0)
        seen = &q->has_size;
    else if (strcmp(a->key, "rows") == 0)
        seen = &q->has_rows;
    else if (strcmp(a->key, "cols") == 0)
        seen = &q->has_cols;
    else if (strcmp(a->key, "moves") == 0)
        seen = &q->has_moves;
    else if (strcmp(a->key, "seed") == 0)
        seen = &q->has_seed;
    if (seen == NULL) {     /* a repeated one api_start refused */
        query_fail(q, a->key, "unknown parameter");
        return;
    }
    *seen = true;
    if (!digits(a->value, seen == &q->has_seed ? SEED_MAX : 100000000, &n))
        query_fail(q, a->key, seen == &q->has_seed ? "must be a whole "
                   "number from 0 to 2^53-1" : "must be a whole number");
    if (seen == &q->has_size)
        q->size = (unsigned)n;
    else if (seen == &q->has_rows)
        q->rows = (unsigned)n;
    else if (seen == &q->has_cols)
        q->cols = (unsigned)n;
    else if (seen == &q->has_moves)
        q->moves = (unsigned)n;
    else
        q->seed = n;
}

static bool parse_query(const struct api_call *c, struct random_query *q)
{
    unsigned max;
    char why[96];

    memset(q, 0, sizeof(*q));
    q->size = 3;
    q->moves = 20;
    for (size_t i = 0; i < c->rq.nquery; i++)
        query_arg(q, &c->rq.query[i]);
    if (!q->failed && (q->size < PUZ_MIN_SIZE || q->size > PUZ_MAX_SIZE)) {
        snprintf(why, sizeof(why), "boards are %d to %d tiles wide",
                 PUZ_MIN_SIZE, PUZ_MAX_SIZE);
        query_fail(q, "size", why);
    }
    if (!q->failed && q->has_rows != q->has_cols)
        query_fail(q, q->has_rows ? "cols" : "rows", "rows and cols go "
                   "together (a rectangle of rows x cols)");
    if (!q->failed && q->has_rows &&
        (q->rows < PUZ_MIN_SIZE || q->rows > PUZ_MAX_SIZE ||
         q->cols < PUZ_MIN_SIZE || q->cols > PUZ_MAX_SIZE)) {
        snprintf(why, sizeof(why), "boards are %d to %d tiles each way",
                 PUZ_MIN_SIZE, PUZ_MAX_SIZE);
        query_fail(q, q->rows < PUZ_MIN_SIZE || q->rows > PUZ_MAX_SIZE
                      ? "rows" : "cols", why);
    }
    if (!q->has_rows)
        q->rows = q->cols = q->size;
    else if (q->rows == q->cols)
        q->size = q->rows;
    max = q->rows == 3 && q->cols == 3 ? puz_table3_max_distance(c->ctx->table3)
                       : c->ctx->lim->random_max_moves;
    if (!q->failed && q->moves > max) {
        snprintf(why, sizeof(why), "at most %u for %ux%u%s", max, q->rows,
                 q->cols, max != c->ctx->lim->random_max_moves
                 ? " (no 3x3 board is farther from the goal)" : "");
        query_fail(q, "moves", why);
    }
    return !q->failed;
}

/* A seed nobody asked for: differs per request and per process. */
static uint64_t fresh_seed(const struct api_ctx *ctx)
{
    uint64_t x = ctx->salt ^ (puz_clock_mono_us() * 0x9E3779B97F4A7C15ull)
                 ^ (ctx->counter != NULL
                    ? atomic_fetch_add(ctx->counter, 1) : 0);

    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return (x ^ (x >> 32)) & SEED_MAX;
}

void api__random(struct api_call *c)
{
    struct random_query q;
    struct puz_board b;
    struct puz_rng rng;
    char text[3 * PUZ_MAX_CELLS + 8];
    puz_err rc;

    if (!parse_query(c, &q)) {
        api_answer_problem(c, &q.err);
        return;
    }
    if (!q.has_seed)
        q.seed = fresh_seed(c->ctx);
    puz_rng_seed(&rng, q.seed);
    rc = puz_random_board_shape(q.rows, q.cols, q.moves, NULL,
                                q.rows == 3 && q.cols == 3 ? c->ctx->table3
                                                           : NULL, &rng, &b);
    if (rc != PUZ_OK) {
        api_answer_problemf(c, API_PROBLEM_INVALID_QUERY, "no %ux%u board "
                            "%u moves from the goal: %s", q.rows, q.cols,
                            q.moves, puz_strerror(rc));
        return;
    }
    puz_board_format(&b, text, sizeof(text));
    /* size stays the side of a square; a rectangle has rows and cols */
    api_answer_json(c, 200, json_pack("{s:o, s:I, s:I, s:I, s:I, s:o, s:s, "
                    "s:o}", "size", q.rows == q.cols
                    ? json_integer(q.size) : json_null(),
                    "rows", (json_int_t)q.rows, "cols", (json_int_t)q.cols,
                    "moves", (json_int_t)q.moves,
                    "seed", (json_int_t)q.seed, "board", codec_board_rows(&b),
                    "text", text, "optimal_moves", q.rows == 3 && q.cols == 3
                    ? json_integer(q.moves) : json_null()));
}
