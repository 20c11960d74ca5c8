/*
 * test_solve.c - puz_solve() as a caller sees it: every algorithm, the
 * optimal flag, unsolvable boards answered without search, each limit
 * (nodes, memory, deadline, cancel flag) stopping cleanly with its status,
 * other goals, other sizes, and arenas reused dirty between solves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "puz_random.h"
#include "puz_solve.h"
#include "support/boards.h"

#define HARD3 "8 6 7 2 5 4 3 0 1"   /* one of the two 31-move boards */

static void assert_reaches_goal(const struct puz_board *start,
                                const struct puz_board *goal,
                                const struct puz_result *r)
{
    struct puz_board end;

    assert_int_equal(r->status, PUZ_SOLVED);
    assert_int_equal(puz_replay(start, r->moves, r->length, &end), PUZ_OK);
    assert_true(puz_board_equal(&end, goal));
}

static void test_every_algorithm_on_hard_board(void **state)
{
    struct puz_board b = test_board(HARD3), goal;
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    puz_board_goal(3, &goal);
    for (int alg = PUZ_ALG_AUTO; alg < PUZ_ALG_COUNT_; alg++) {
        struct puz_solve_opts o = { .algorithm = (enum puz_algorithm)alg };
        struct puz_result r;
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_reaches_goal(&b, &goal, &r);
        if (puz_algorithm_optimal(r.algorithm)) {
            assert_int_equal(r.length, 31);
            assert_true(r.optimal);
        } else {
            assert_true(r.length >= 31);
            assert_false(r.optimal);
        }
        assert_true(r.stats.expanded > 0);
        assert_true(r.stats.arena_peak > 0);
    }
    puz_arena_destroy(a);
}

static void test_auto_picks_by_size(void **state)
{
    struct puz_board b3 = test_board("1 2 3 4 5 6 7 0 8");
    struct puz_board b4 = test_board("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15");
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    puz_arena *a = puz_arena_create(4096);

    (void)state;
    assert_int_equal(puz_solve(&b3, &o, a, &r), PUZ_OK);
    assert_int_equal(r.algorithm, PUZ_ALG_ASTAR);
    assert_int_equal(r.length, 1);
    assert_int_equal(puz_solve(&b4, &o, a, &r), PUZ_OK);
    assert_int_equal(r.algorithm, PUZ_ALG_IDASTAR);
    assert_int_equal(r.length, 1);
    assert_int_equal(r.moves[0], PUZ_RIGHT);
    assert_int_equal(r.tiles[0], 15);
    puz_arena_destroy(a);
}

static void test_unsolvable_is_instant(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 8 7 0");
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_BFS };
    struct puz_result r;
    puz_arena *a = puz_arena_create(4096);

    (void)state;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_UNSOLVABLE);
    assert_int_equal(r.stats.expanded, 0);
    assert_false(r.optimal);
    assert_non_null(strstr(r.reason, "inversions: 1 (odd)"));
    puz_arena_destroy(a);
}

/* A caller that checked parity itself (the server, as it reads the
 * request) says so, and puz_solve does not check again: the same
 * unsolvable board now costs a search, stopped here by the node cap. */
static void test_parity_checked_once(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 8 7 0");
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_BFS,
                                .solvable_known = true };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    o.limits.max_nodes = 50;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_LIMIT_NODES);
    assert_true(r.stats.expanded >= 50);
    assert_string_not_equal(r.method, "parity");
    puz_arena_destroy(a);
}

static void test_goal_mismatch_is_an_error(void **state)
{
    struct puz_board b = test_board(HARD3), g4;
    struct puz_solve_opts o = { .goal = &g4 };
    struct puz_result r;
    puz_arena *a = puz_arena_create(4096);

    (void)state;
    puz_board_goal(4, &g4);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_EINVAL);
    assert_non_null(strstr(r.reason, "3x3 but the goal is 4x4"));
    puz_arena_destroy(a);
}

static void test_node_limit(void **state)
{
    struct puz_board b = test_board(HARD3);
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    for (int alg = PUZ_ALG_ASTAR; alg <= PUZ_ALG_BNB; alg++) {
        struct puz_solve_opts o = { .algorithm = (enum puz_algorithm)alg };
        struct puz_result r;
        o.limits.max_nodes = 100;
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_int_equal(r.status, PUZ_LIMIT_NODES);
        assert_int_equal(r.length, 0);
        assert_false(r.optimal);
        assert_true(r.stats.expanded <= 101);
        assert_non_null(strstr(r.reason, "limit_nodes"));
    }
    puz_arena_destroy(a);
}

static void test_memory_limit(void **state)
{
    struct puz_board b = test_board(HARD3);
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_BFS };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    o.limits.max_bytes = 200000;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_LIMIT_MEMORY);
    assert_true(r.stats.arena_peak <= 200000);
    assert_int_equal(puz_arena_budget(a), 0);   /* restored afterwards */
    o.algorithm = PUZ_ALG_ASTAR;
    puz_arena_reset(a);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_LIMIT_MEMORY);
    puz_arena_destroy(a);
}

/* A 4x4 board far too deep for linear-conflict IDA* in 50 ms. */
static void test_deadline(void **state)
{
    struct puz_board b = test_board("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3");
    struct puz_board goal = test_board("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_IDASTAR, .goal = &goal };
    struct puz_result r;
    puz_arena *a = puz_arena_create(4096);
    uint64_t t0 = puz_clock_mono_us();

    (void)state;
    o.heuristic = puz_heuristic_find("manhattan");
    o.limits.deadline_us = t0 + 50000;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_TIMEOUT);
    assert_true(puz_clock_mono_us() - t0 < 1000000);
    puz_arena_destroy(a);
}

static void test_cancel_flag(void **state)
{
    struct puz_board b = test_board(HARD3);
    atomic_int cancel = 1;
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    for (int alg = PUZ_ALG_ASTAR; alg <= PUZ_ALG_BNB; alg++) {
        struct puz_solve_opts o = { .algorithm = (enum puz_algorithm)alg };
        struct puz_result r;
        o.limits.cancel = &cancel;
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_int_equal(r.status, PUZ_CANCELLED);
    }
    puz_arena_destroy(a);
}

static void test_dfs_depth_limit(void **state)
{
    struct puz_board b = test_board(HARD3);
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_DFS };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    o.limits.max_depth = 20;       /* below the optimal 31: no path */
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_LIMIT_DEPTH);
    o.limits.max_depth = 31;
    puz_arena_reset(a);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_int_equal(r.length, 31);
    puz_arena_destroy(a);
}

/* Regression: a worker's arena is reset, not zeroed, between requests;
 * a search must not read what an earlier one left behind. */
static void test_dirty_arena_reuse(void **state)
{
    struct puz_board b = test_board(HARD3), goal;
    puz_arena *a = puz_arena_create(1 << 22);

    (void)state;
    puz_board_goal(3, &goal);
    for (int alg = PUZ_ALG_ASTAR; alg < PUZ_ALG_COUNT_; alg++) {
        struct puz_solve_opts o = { .algorithm = (enum puz_algorithm)alg };
        struct puz_result r;
        unsigned char *junk;
        puz_arena_reset(a);
        junk = puz_arena_alloc(a, 1 << 21);
        memset(junk, 0xFF, 1 << 21);
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_reaches_goal(&b, &goal, &r);
    }
    puz_arena_destroy(a);
}

static void test_other_goal(void **state)
{
    struct puz_board goal = test_board("0 1 2 3 4 5 6 7 8");
    struct puz_board b = test_board("1 2 5 3 4 0 6 7 8");
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    for (int alg = PUZ_ALG_ASTAR; alg <= PUZ_ALG_BNB; alg++) {
        struct puz_solve_opts o = { .algorithm = (enum puz_algorithm)alg,
                                    .goal = &goal };
        struct puz_result r;
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_reaches_goal(&b, &goal, &r);
        if (alg != PUZ_ALG_DFS)
            assert_int_equal(r.length, 3);
    }
    puz_arena_destroy(a);
}

/* 2x2 has 12 reachable states, the farthest 6 moves away. */
static void test_2x2(void **state)
{
    struct puz_board b = test_board("0 3 2 1"), goal;
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_BFS };
    struct puz_result r;
    puz_arena *a = puz_arena_create(4096);

    (void)state;
    puz_board_goal(2, &goal);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_reaches_goal(&b, &goal, &r);
    assert_int_equal(r.length, 6);
    o.algorithm = PUZ_ALG_ASTAR;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.length, 6);
    puz_arena_destroy(a);
}

/* 4x4 random walks: IDA* and A* agree on the optimal length. */
static void test_4x4_walks_agree(void **state)
{
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 20);
    struct puz_board goal;

    (void)state;
    puz_board_goal(4, &goal);
    puz_rng_seed(&rng, 99);
    for (int k = 0; k < 20; k++) {
        struct puz_board b;
        struct puz_solve_opts ida = { .algorithm = PUZ_ALG_IDASTAR };
        struct puz_solve_opts ast = { .algorithm = PUZ_ALG_ASTAR };
        struct puz_result r1, r2;
        puz_random_board(4, 30, NULL, NULL, &rng, &b);
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &ida, a, &r1), PUZ_OK);
        assert_reaches_goal(&b, &goal, &r1);
        assert_int_equal(puz_solve(&b, &ast, a, &r2), PUZ_OK);
        assert_reaches_goal(&b, &goal, &r2);
        assert_int_equal(r1.length, r2.length);
        assert_true(r1.length <= 30);
    }
    puz_arena_destroy(a);
}

/* Weighted A*: never longer than weight x optimal; weight 1 is A*. */
static void test_wastar_bound(void **state)
{
    struct puz_board b = test_board(HARD3), goal;
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    puz_board_goal(3, &goal);
    for (unsigned w = 1; w <= 5; w++) {
        struct puz_solve_opts o = { .algorithm = PUZ_ALG_WASTAR, .weight = w };
        struct puz_result r;
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_reaches_goal(&b, &goal, &r);
        assert_true(r.length >= 31 && r.length <= 31 * w);
        assert_false(r.optimal);
        if (w == 1)
            assert_int_equal(r.length, 31);
    }
    puz_arena_destroy(a);
}

/* AUTO on 5x5 and up never answers worse than the constructive method,
 * and on a long scramble of a 5x5 it finds a shorter path in time. */
static void test_auto_improves_big_boards(void **state)
{
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 20);
    unsigned shorter = 0;

    (void)state;
    puz_rng_seed(&rng, 11);
    for (unsigned n = 5; n <= 8; n++) {
        struct puz_board b, goal;
        struct puz_solve_opts autos = { 0 };
        autos.limits.deadline_us = puz_clock_mono_us() + 250000u;
        struct puz_solve_opts cons = { .algorithm = PUZ_ALG_CONSTRUCTIVE };
        struct puz_result ra, rc;
        puz_board_goal(n, &goal);
        puz_random_board(n, 1000, NULL, NULL, &rng, &b);
        puz_arena_reset(a);
        assert_int_equal(puz_solve(&b, &cons, a, &rc), PUZ_OK);
        assert_int_equal(puz_solve(&b, &autos, a, &ra), PUZ_OK);
        assert_reaches_goal(&b, &goal, &ra);
        assert_false(ra.optimal);
        assert_true(ra.length <= rc.length);
        assert_true(ra.stats.time_us < 2000000u);
        shorter += ra.length < rc.length;
        if (n == 5) {
            assert_int_equal(ra.algorithm, PUZ_ALG_ANYTIME);
            assert_true(ra.length < rc.length);
        }
    }
    assert_true(shorter >= 1);
    puz_arena_destroy(a);
}

static void test_names_round_trip(void **state)
{
    (void)state;
    for (int alg = 0; alg < PUZ_ALG_COUNT_; alg++) {
        enum puz_algorithm back;
        assert_int_equal(puz_algorithm_parse(
                             puz_algorithm_name((enum puz_algorithm)alg),
                             &back), PUZ_OK);
        assert_int_equal(back, alg);
    }
    assert_int_equal(puz_algorithm_parse("a*", &(enum puz_algorithm){ 0 }),
                     PUZ_EINVAL);
    assert_string_equal(puz_status_name(PUZ_LIMIT_MEMORY), "limit_memory");
    assert_string_equal(puz_status_name(PUZ_TIMEOUT), "timeout");
    assert_non_null(puz_heuristic_find("misplaced"));
    assert_non_null(puz_heuristic_find("manhattan"));
    assert_non_null(puz_heuristic_find("linear-conflict"));
    assert_null(puz_heuristic_find("euclid"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_algorithm_on_hard_board),
        cmocka_unit_test(test_auto_picks_by_size),
        cmocka_unit_test(test_unsolvable_is_instant),
        cmocka_unit_test(test_parity_checked_once),
        cmocka_unit_test(test_goal_mismatch_is_an_error),
        cmocka_unit_test(test_node_limit),
        cmocka_unit_test(test_memory_limit),
        cmocka_unit_test(test_deadline),
        cmocka_unit_test(test_cancel_flag),
        cmocka_unit_test(test_dfs_depth_limit),
        cmocka_unit_test(test_dirty_arena_reuse),
        cmocka_unit_test(test_other_goal),
        cmocka_unit_test(test_2x2),
        cmocka_unit_test(test_4x4_walks_agree),
        cmocka_unit_test(test_wastar_bound),
        cmocka_unit_test(test_auto_improves_big_boards),
        cmocka_unit_test(test_names_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
