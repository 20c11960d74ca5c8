/*
 * random.c - GET /v1/puzzles/random: a random solvable board for game
 * levels. On 3x3 its optimal distance is exactly ?moves= (the shared
 * distance table picks it); on larger boards it is the end of a random
 * walk of that many moves. The query is checked strictly: unknown or
 * repeated parameters and anything but plain digits are a 400.
 */
#include "http_int.h"

#include <stdio.h>
#include <string.h>

#include "codec.h"
#include "puz_random.h"

#define SEED_MAX ((UINT64_C(1) << 53) - 1)  /* exact in a JS number */

struct random_query {
    unsigned size, moves;
    uint64_t seed;
    bool has_size, has_moves, has_seed;
    struct http_problem err;
    bool failed;
};

static void query_fail(struct random_query *q, const char *key,
                       const char *why)
{
    if (q->failed)
        return;
    q->failed = true;
    http_problem_set(&q->err, HTTP_PROBLEM_INVALID_QUERY, "%.32s: %s", key,
                     why);
    snprintf(q->err.allowed, sizeof(q->err.allowed), "size, moves, seed");
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

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    struct random_query *q = cls;
    uint64_t n = 0;
    bool *seen = NULL;

    (void)kind;
    if (strcmp(key, "size") == 0)
        seen = &q->has_size;
    else if (strcmp(key, "moves") == 0)
        seen = &q->has_moves;
    else if (strcmp(key, "seed") == 0)
        seen = &q->has_seed;
    if (seen == NULL || *seen) {
        query_fail(q, key, seen == NULL ? "unknown parameter"
                   : "given more than once");
        return MHD_YES;
    }
    *seen = true;
    if (!digits(value, seen == &q->has_seed ? SEED_MAX : 100000000, &n))
        query_fail(q, key, seen == &q->has_seed ? "must be a whole number "
                   "from 0 to 2^53-1" : "must be a whole number");
    if (seen == &q->has_size)
        q->size = (unsigned)n;
    else if (seen == &q->has_moves)
        q->moves = (unsigned)n;
    else
        q->seed = n;
    return MHD_YES;
}

static bool parse_query(struct http_req *r, struct random_query *q)
{
    unsigned max;
    char why[96];

    memset(q, 0, sizeof(*q));
    q->size = 3;
    q->moves = 20;
    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, query_arg, q);
    if (!q->failed && (q->size < PUZ_MIN_SIZE || q->size > PUZ_MAX_SIZE)) {
        snprintf(why, sizeof(why), "boards are %d to %d tiles wide",
                 PUZ_MIN_SIZE, PUZ_MAX_SIZE);
        query_fail(q, "size", why);
    }
    max = q->size == 3 ? puz_table3_max_distance(r->srv->table3)
                       : r->srv->cfg.random_max_moves;
    if (!q->failed && q->moves > max) {
        snprintf(why, sizeof(why), "at most %u for size %u%s", max, q->size,
                 q->size == 3 ? " (no 3x3 board is farther from the goal)"
                 : "");
        query_fail(q, "moves", why);
    }
    return !q->failed;
}

/* A seed nobody asked for: differs per request and per process. */
static uint64_t fresh_seed(struct http_req *r)
{
    uint64_t x = r->srv->id_salt ^ (puz_now_us() * 0x9E3779B97F4A7C15ull)
                 ^ atomic_fetch_add(&r->srv->next_id, 1);

    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return (x ^ (x >> 32)) & SEED_MAX;
}

bool http__handle_random(struct http_req *r)
{
    struct random_query q;
    struct puz_board b;
    struct puz_rng rng;
    char text[3 * PUZ_MAX_CELLS + 8];
    puz_err rc;

    if (!parse_query(r, &q)) {
        http__reply_problem(r, &q.err);
        return false;
    }
    if (!q.has_seed)
        q.seed = fresh_seed(r);
    puz_rng_seed(&rng, q.seed);
    rc = puz_random_board(q.size, q.moves, NULL,
                          q.size == 3 ? r->srv->table3 : NULL, &rng, &b);
    if (rc != PUZ_OK) {
        http__reply_problemf(r, HTTP_PROBLEM_INVALID_QUERY, "no %ux%u board "
                             "%u moves from the goal: %s", q.size, q.size,
                             q.moves, puz_strerror(rc));
        return false;
    }
    puz_board_format(&b, text, sizeof(text));
    http__reply_json(r, 200, json_pack("{s:I, s:I, s:I, s:o, s:s, s:o}",
                     "size", (json_int_t)q.size, "moves", (json_int_t)q.moves,
                     "seed", (json_int_t)q.seed, "board", codec_board_rows(&b),
                     "text", text, "optimal_moves", q.size == 3
                     ? json_integer(q.moves) : json_null()));
    return false;
}
