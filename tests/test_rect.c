/*
 * test_rect.c - rectangular boards against independent truth. A BFS
 * (tests/support/space.c: permutation ranks, no solver code) walks the
 * whole state space of 2x3, 3x2, 2x4, 4x2, 3x3 and 2x5 from the goal:
 * every board of the shape is solvable by puz_board_solvable exactly
 * when the BFS reaches it, and puz_solve's optimal searches return a legal path of
 * exactly the BFS distance (all 360 boards of 2x3 with every optimal
 * search, a seeded sample elsewhere). Random 3x4 and 4x3 boards, and
 * random walks on 4x5, are checked against an IDA* with plain Manhattan
 * distance written here. The constructive method and AUTO must reach
 * the goal on every shape from 2x2 to 8x8. Parsing names the shape.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "puz_random.h"
#include "puz_solve.h"
#include "support/space.h"

/* puz_solve with algorithm a; the path must replay to the goal and have
 * exactly want moves. */
static void expect_optimal(const struct puz_board *b, enum puz_algorithm a,
                           unsigned want)
{
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    struct puz_board end, goal;
    puz_arena *ar = puz_arena_create(0);

    o.algorithm = a;
    assert_int_equal(puz_solve(b, &o, ar, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_int_equal(r.length, want);
    assert_true(r.optimal);
    assert_int_equal(puz_replay(b, r.moves, r.length, &end), PUZ_OK);
    assert_int_equal(puz_board_goal_of(b, &goal), PUZ_OK);
    assert_true(puz_board_equal(&end, &goal));
    puz_arena_destroy(ar);
}

/* Every board: parity says solvable iff the BFS reached it; a sample of
 * `sample` reachable ones (all when 0) solved by each of algs. */
static void check_shape(unsigned rows, unsigned cols, uint32_t sample,
                        const enum puz_algorithm *algs, unsigned nalgs)
{
    struct space sp;
    struct puz_board b, goal;
    struct puz_rng rng;
    uint32_t reachable = 0;

    space_build(&sp, rows, cols);
    assert_int_equal(puz_board_goal_shape(rows, cols, &goal), PUZ_OK);
    for (uint32_t r = 0; r < sp.size; r++) {
        bool ok;
        space_board(&sp, r, &b);
        assert_int_equal(puz_board_solvable(&b, &goal, &ok, NULL), PUZ_OK);
        if (ok != (sp.dist[r] != SPACE_UNSEEN))
            fail_msg("%ux%u rank %u: parity says %d, BFS %u", rows, cols,
                     r, ok, sp.dist[r]);
        reachable += ok;
    }
    assert_int_equal(reachable, sp.size / 2);
    puz_rng_seed(&rng, 33u * rows + cols);
    for (uint32_t i = 0, n = sample ? sample : sp.size; i < n; i++) {
        uint32_t r = sample ? (uint32_t)puz_rng_below(&rng, sp.size) : i;
        if (sp.dist[r] == SPACE_UNSEEN)
            continue;
        space_board(&sp, r, &b);
        for (unsigned a = 0; a < nalgs; a++)
            expect_optimal(&b, algs[a], sp.dist[r]);
    }
    space_free(&sp);
}

static void test_bfs_2x3_every_board(void **state)
{
    static const enum puz_algorithm algs[] = {
        PUZ_ALG_AUTO, PUZ_ALG_ASTAR, PUZ_ALG_IDASTAR, PUZ_ALG_BFS,
        PUZ_ALG_BNB,
    };

    (void)state;
    check_shape(2, 3, 0, algs, 5);
    check_shape(3, 2, 0, algs, 5);
}

static void test_bfs_2x4_3x3_2x5(void **state)
{
    static const enum puz_algorithm algs[] = {
        PUZ_ALG_AUTO, PUZ_ALG_IDASTAR, PUZ_ALG_ASTAR,
    };

    (void)state;
    check_shape(2, 4, 400, algs, 3);
    check_shape(4, 2, 400, algs, 3);
    check_shape(3, 3, 200, algs, 3);    /* the square, as a control */
    check_shape(2, 5, 200, algs, 3);
}

/* --- an independent IDA*: plain Manhattan, its own moves ------------- */

struct ref {
    unsigned rows, cols, cells, bound, next;
    uint8_t b[PUZ_MAX_CELLS];
    uint64_t nodes;
};

static unsigned ref_md(const struct ref *f)
{
    unsigned h = 0;

    for (unsigned i = 0; i < f->cells; i++) {
        unsigned t = f->b[i], g;
        if (t == 0)
            continue;
        g = t - 1;      /* default goal: tile t on cell t - 1 */
        h += (unsigned)abs((int)(i / f->cols) - (int)(g / f->cols)) +
             (unsigned)abs((int)(i % f->cols) - (int)(g % f->cols));
    }
    return h;
}

static int ref_probe(struct ref *f, unsigned blank, unsigned g, int back)
{
    static const int opp[4] = { 1, 0, 3, 2 };
    unsigned h = ref_md(f);

    f->nodes++;
    if (g + h > f->bound) {
        if (g + h < f->next)
            f->next = g + h;
        return 0;
    }
    if (h == 0)
        return 1;
    for (int d = 0; d < 4; d++) {
        unsigned br = blank / f->cols, bc = blank % f->cols, to;
        if (d == back || (d == 0 && br == 0) ||
            (d == 1 && br + 1 == f->rows) || (d == 2 && bc == 0) ||
            (d == 3 && bc + 1 == f->cols))
            continue;
        to = d == 0 ? blank - f->cols : d == 1 ? blank + f->cols
             : d == 2 ? blank - 1 : blank + 1;
        f->b[blank] = f->b[to];
        f->b[to] = 0;
        if (ref_probe(f, to, g + 1, opp[d]))
            return 1;
        f->b[to] = f->b[blank];
        f->b[blank] = 0;
    }
    return 0;
}

static unsigned ref_solve(const struct puz_board *start)
{
    struct ref f = { 0 };

    f.rows = puz_board_rows(start);
    f.cols = start->n;
    f.cells = f.rows * f.cols;
    memcpy(f.b, start->cells, f.cells);
    for (f.bound = ref_md(&f);; f.bound = f.next) {
        memcpy(f.b, start->cells, f.cells);
        f.next = UINT32_MAX;
        if (ref_probe(&f, start->blank, 0, -1))
            return f.bound;
    }
}

/* count boards of rows x cols and cols x rows in turn, uniform (walk = 0)
 * or walk moves from the goal, solved by alg as the reference says. */
static void against_ida(uint64_t seed, unsigned rows, unsigned cols,
                        unsigned count, unsigned walk, enum puz_algorithm alg)
{
    struct puz_rng rng;
    struct puz_board b;

    puz_rng_seed(&rng, seed);
    for (unsigned i = 0; i < count; i++) {
        unsigned r = i % 2 ? cols : rows, c = i % 2 ? rows : cols;
        assert_int_equal(walk == 0 ? puz_random_solvable(r, c, &rng, &b)
                         : puz_random_board_shape(r, c, walk, NULL, NULL,
                                                  &rng, &b), PUZ_OK);
        expect_optimal(&b, alg, ref_solve(&b));
    }
}

static void test_random_3x4_against_ida(void **state)
{
    (void)state;
    against_ida(34, 3, 4, 6, 0, PUZ_ALG_AUTO);
}

static void test_walks_4x5_against_ida(void **state)
{
    (void)state;
    against_ida(45, 4, 5, 4, 36, PUZ_ALG_IDASTAR);
}

/* --- every shape: the non-optimal methods reach the goal ------------- */

static void expect_reaches_goal(const struct puz_board *b,
                                enum puz_algorithm a)
{
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    struct puz_board end, goal;
    puz_arena *ar = puz_arena_create(0);

    o.algorithm = a;
    /* AUTO on the shapes it cannot solve optimally is the anytime
     * search, which spends its whole budget: give it a short one */
    o.limits.deadline_us = puz_clock_mono_us() +
        (puz_algorithm_resolve_shape(a, puz_board_rows(b), b->n) ==
         PUZ_ALG_ANYTIME ? 300000u : 20000000u);
    assert_int_equal(puz_solve(b, &o, ar, &r), PUZ_OK);
    if (r.status != PUZ_SOLVED)
        fail_msg("%ux%u %s: %s", puz_board_rows(b), b->n,
                 puz_algorithm_name(a), r.reason);
    assert_int_equal(puz_board_goal_of(b, &goal), PUZ_OK);
    if (puz_replay(b, r.moves, r.length, &end) != PUZ_OK ||
        !puz_board_equal(&end, &goal))
        fail_msg("%ux%u %s: the path does not reach the goal",
                 puz_board_rows(b), b->n, puz_algorithm_name(a));
    assert_true(r.lower_bound <= r.length);
    puz_arena_destroy(ar);
}

static void test_every_shape_constructive(void **state)
{
    struct puz_rng rng;
    struct puz_board b;

    (void)state;
    puz_rng_seed(&rng, 88);
    for (unsigned rows = 2; rows <= 8; rows++)
        for (unsigned cols = 2; cols <= 8; cols++)
            for (unsigned k = 0; k < 3; k++) {
                assert_int_equal(puz_random_solvable(rows, cols, &rng, &b),
                                 PUZ_OK);
                expect_reaches_goal(&b, PUZ_ALG_CONSTRUCTIVE);
                if (k == 0 && rows * cols <= 20)  /* AUTO up to 4x5 */
                    expect_reaches_goal(&b, PUZ_ALG_AUTO);
            }
}

/* --- text and shape ---------------------------------------------------- */

static void test_parse_shapes(void **state)
{
    struct puz_board b;
    char msg[PUZ_MSG_MAX];

    (void)state;
    assert_int_equal(puz_board_parse("1 2 3/4 5 0", &b, msg), PUZ_OK);
    assert_int_equal(puz_board_rows(&b), 2);
    assert_int_equal(b.n, 3);
    assert_int_equal(puz_board_parse("1 2\n3 4\n5 0\n", &b, msg), PUZ_OK);
    assert_int_equal(puz_board_rows(&b), 3);
    assert_int_equal(b.n, 2);
    /* a square written with rows, or flat, is the square it was */
    assert_int_equal(puz_board_parse("1 2 3/4 5 6/7 8 0", &b, msg), PUZ_OK);
    assert_true(puz_board_square(&b));
    assert_int_equal(puz_board_parse("1 2 3 4 5 6 7 8 0", &b, msg), PUZ_OK);
    assert_int_equal(puz_board_rows(&b), 3);
    assert_int_equal(puz_board_parse("1 2 3/4 5/0", &b, msg), PUZ_EINVAL);
    assert_non_null(strstr(msg, "different lengths"));
    assert_int_equal(puz_board_parse("1 2 3 4 5 0", &b, msg), PUZ_EINVAL);
    assert_non_null(strstr(msg, "rows and columns"));
    {
        long long v[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
        assert_int_equal(puz_board_from_shape(v, 9, 1, 9, &b, msg),
                         PUZ_EINVAL);
        assert_non_null(strstr(msg, "1x9"));
        assert_int_equal(puz_board_from_shape(v, 8, 2, 4, &b, msg),
                         PUZ_EINVAL);
        assert_non_null(strstr(msg, "tile 8"));
    }
}

static void test_parity_words(void **state)
{
    struct puz_board b, goal;
    bool ok;
    char why[PUZ_MSG_MAX];

    (void)state;
    /* 2x3 (odd columns): one swap is odd */
    assert_int_equal(puz_board_parse("2 1 3/4 5 0", &b, NULL), PUZ_OK);
    assert_int_equal(puz_board_goal_of(&b, &goal), PUZ_OK);
    assert_int_equal(puz_board_solvable(&b, &goal, &ok, why), PUZ_OK);
    assert_false(ok);
    assert_non_null(strstr(why, "odd number of columns"));
    /* 3x2 (even columns): the blank a row up with no inversion */
    assert_int_equal(puz_board_parse("1 2/3 0/4 5", &b, NULL), PUZ_OK);
    assert_int_equal(puz_board_goal_of(&b, &goal), PUZ_OK);
    assert_int_equal(puz_board_solvable(&b, &goal, &ok, why), PUZ_OK);
    assert_false(ok);
    assert_non_null(strstr(why, "even number of columns"));
    assert_non_null(strstr(why, "1 row(s)"));
    /* a 2x3 goal does not serve a 3x2 board */
    assert_int_equal(puz_board_goal_shape(2, 3, &goal), PUZ_OK);
    assert_int_equal(puz_board_solvable(&b, &goal, &ok, why), PUZ_EINVAL);
    assert_non_null(strstr(why, "3x2"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_shapes),
        cmocka_unit_test(test_parity_words),
        cmocka_unit_test(test_bfs_2x3_every_board),
        cmocka_unit_test(test_bfs_2x4_3x3_2x5),
        cmocka_unit_test(test_random_3x4_against_ida),
        cmocka_unit_test(test_walks_4x5_against_ida),
        cmocka_unit_test(test_every_shape_constructive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
