/*
 * test_codec.c - the direct encoder (codec_result_bytes) gives byte for
 * byte what jansson prints for the reference tree (support/codec_ref.c), at the HTTP service's
 * precision (6) and the CLI's (jansson's default, 17): for real answers
 * of every algorithm and status, with and without the path, on 2x2 to
 * 5x5, and for results made up to reach the corners (escapes, UTF-8,
 * reals that print with an exponent or as integers, no heuristic, huge
 * counters). And it is bounded: one byte under the answer's length it
 * refuses with PUZ_ERANGE, allocates nothing, writes no byte past the
 * caller's buffer and says the length.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "support/codec_ref.h"
#include "puz_random.h"
#include "support/walk.h"

static unsigned checked;
static unsigned statuses_seen;      /* bit per enum puz_status */

static void check_digits(const struct puz_board *start,
                         const struct puz_result *r, bool path,
                         unsigned digits)
{
    size_t flags = JSON_COMPACT | JSON_REAL_PRECISION(digits);
    json_t *o = codec_ref_result_json(start, r, path);
    size_t want = json_dumpb(o, NULL, 0, flags), len;
    char *ref = malloc(want + 1), *buf;
    puz_arena *a = puz_arena_create(4096);

    assert_non_null(o);
    assert_non_null(ref);
    assert_int_equal(json_dumpb(o, ref, want, flags), want);
    assert_int_equal(codec_result_bytes(start, r, path, digits, 0, a, &buf,
                                        &len), PUZ_OK);
    if (len != want || memcmp(buf, ref, len) != 0)
        fail_msg("direct %.*s\njansson %.*s", (int)len, buf, (int)want, ref);
    /* the cap: exactly long enough is fine, a byte less is refused */
    assert_int_equal(codec_result_bytes(start, r, path, digits, want, a,
                                        &buf, &len), PUZ_OK);
    assert_int_equal(len, want);
    assert_int_equal(codec_result_bytes(start, r, path, digits, want - 1, a,
                                        &buf, &len), PUZ_ERANGE);
    assert_null(buf);
    assert_int_equal(len, want);
    /* into a caller's buffer: never a byte past cap */
    buf = malloc(want + 1);
    assert_non_null(buf);
    buf[want - 1] = '#';
    assert_int_equal(codec_result_write(start, r, path, digits, buf,
                                        want - 1, &len), PUZ_ERANGE);
    assert_int_equal(len, want);
    assert_int_equal(buf[want - 1], '#');
    assert_int_equal(codec_result_write(start, r, path, digits, buf, want,
                                        &len), PUZ_OK);
    assert_memory_equal(buf, ref, want);
    free(buf);
    checked++;
    puz_arena_destroy(a);
    free(ref);
    json_decref(o);
}

static void check(const struct puz_board *start, const struct puz_result *r)
{
    statuses_seen |= 1u << r->status;
    for (int path = 0; path < 2; path++) {
        check_digits(start, r, path, 6);
        check_digits(start, r, path, 17);
    }
}

/* A random walk of `moves` steps from the goal of side n. */
static void walk(unsigned n, unsigned moves, struct puz_rng *rng,
                 struct puz_board *b)
{
    struct puz_board goal;

    assert_int_equal(puz_board_goal(n, &goal), PUZ_OK);
    test_walk(&goal, moves, rng, b);
}

static void solve_and_check(const struct puz_board *b,
                            struct puz_solve_opts *o)
{
    puz_arena *a = puz_arena_create(1 << 16);
    struct puz_result r;

    memset(&r, 0, sizeof(r));
    assert_int_equal(puz_solve(b, o, a, &r), PUZ_OK);
    check(b, &r);
    puz_arena_destroy(a);
}

static void test_every_algorithm_and_size(void **state)
{
    struct puz_rng rng;

    (void)state;
    puz_rng_seed(&rng, 2026);
    for (unsigned n = 2; n <= 5; n++) {
        for (unsigned k = 0; k < 6; k++) {
            struct puz_board b;
            walk(n, n <= 3 ? 4 + 5 * k : 3 + 2 * k, &rng, &b);
            for (int alg = PUZ_ALG_AUTO; alg < PUZ_ALG_COUNT_; alg++) {
                struct puz_solve_opts o = { .algorithm = alg };
                if ((alg == PUZ_ALG_BFS || alg == PUZ_ALG_BNB) && n > 3)
                    continue;   /* too slow to be worth it here */
                o.limits.max_nodes = 200000;
                solve_and_check(&b, &o);
            }
        }
    }
    assert_true(checked > 500);
}

static void test_every_status(void **state)
{
    struct puz_board b, swapped;
    struct puz_rng rng;
    atomic_int cancel = 1;

    (void)state;
    puz_rng_seed(&rng, 7);
    walk(3, 40, &rng, &b);
    swapped = b;
    for (unsigned i = 0; i + 1 < 9; i++) {
        if (swapped.cells[i] != 0 && swapped.cells[i + 1] != 0) {
            uint8_t t = swapped.cells[i];
            swapped.cells[i] = swapped.cells[i + 1];
            swapped.cells[i + 1] = t;
            break;
        }
    }
    {
        struct puz_solve_opts o = { .algorithm = PUZ_ALG_ASTAR };
        solve_and_check(&swapped, &o);                  /* unsolvable */
        o.limits.max_nodes = 5;
        solve_and_check(&b, &o);                        /* limit_nodes */
        o.limits.max_nodes = 0;
        o.limits.max_bytes = 3000;
        solve_and_check(&b, &o);                        /* limit_memory */
        o.limits.max_bytes = 0;
        o.limits.deadline_us = 1;
        solve_and_check(&b, &o);                        /* timeout */
        o.limits.deadline_us = 0;
        o.limits.cancel = &cancel;
        solve_and_check(&b, &o);                        /* cancelled */
    }
    {
        struct puz_solve_opts o = { .algorithm = PUZ_ALG_DFS };
        o.limits.max_depth = 3;
        solve_and_check(&b, &o);                        /* limit_depth */
    }
    assert_int_equal(statuses_seen, (1u << (PUZ_CANCELLED + 1)) - 1);
}

/* Made-up results for what real answers rarely show. */
static void test_corners(void **state)
{
    static const double gaps[] = { 1.0, 1.5, 1.0322580645, 2.0 / 3.0,
                                   1e-7, 123456789.0, 1e21, 0.0, NAN,
                                   INFINITY };
    struct puz_board b;
    struct puz_result r;
    uint8_t moves[2] = { PUZ_UP, PUZ_LEFT }, tiles[2] = { 6, 8 };

    (void)state;
    assert_int_equal(puz_board_goal(3, &b), PUZ_OK);
    puz_board_move(&b, PUZ_RIGHT);      /* illegal from the corner: no-op */
    memset(&r, 0, sizeof(r));
    r.status = PUZ_SOLVED;
    r.algorithm = PUZ_ALG_ASTAR;
    r.length = 2;
    r.moves = moves;
    r.tiles = tiles;
    r.lower_bound = 2;
    strcpy(r.method, "astar+\"quoted\"\\back/slash");
    strcpy(r.reason, "tab\tnl\ncr\rbs\bff\f\x01\x1f\x7f caf\xc3\xa9 "
           "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80");
    r.stats.expanded = UINT64_MAX;      /* jansson prints it signed */
    r.stats.generated = (uint64_t)INT64_MAX;
    r.stats.time_us = 1234567;
    for (size_t i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++) {
        r.gap = gaps[i];
        check(&b, &r);
    }
    r.heuristic = NULL;
    r.optimal = true;
    check(&b, &r);
    r.status = PUZ_LIMIT_NODES;
    r.reason[0] = '\0';
    r.method[0] = '\0';
    check(&b, &r);
}

/* Long answers leave the encoder's stack buffer: measured, then written
 * at their size. */
static void test_long_answer(void **state)
{
    struct puz_board b;
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_CONSTRUCTIVE };
    struct puz_rng rng;

    (void)state;
    puz_rng_seed(&rng, 99);
    walk(8, 400, &rng, &b);
    solve_and_check(&b, &o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_algorithm_and_size),
        cmocka_unit_test(test_every_status),
        cmocka_unit_test(test_corners),
        cmocka_unit_test(test_long_answer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
