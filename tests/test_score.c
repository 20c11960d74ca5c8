/*
 * test_score.c - puz_score: a player's moves replayed (directions and
 * tile numbers, illegal ones named), the optimum from the exact 3x3
 * table and from a search (4x4), and the ratio. The 3x3 optimum is
 * checked against the independent breadth-first truth (truth3.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "puz_score.h"
#include "puz_tables.h"
#include "support/boards.h"
#include "support/truth3.h"

static struct {
    puz_tables *tables;
    struct truth3 truth;
    puz_arena *arena;
} g;

static int group_setup(void **state)
{
    const uint8_t goal[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };

    (void)state;
    g.arena = puz_arena_create(1 << 16);
    if (g.arena == NULL || puz_tables_create(&g.tables) != PUZ_OK
        || puz_tables_add_3x3(g.tables) != PUZ_OK
        || truth3_build(&g.truth, goal) != 0)
        return -1;
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    puz_tables_destroy(g.tables);
    puz_arena_destroy(g.arena);
    return 0;
}

static struct puz_move dir(enum puz_dir d)
{
    return (struct puz_move){ .is_tile = false, .dir = d };
}

static struct puz_move tile(unsigned t)
{
    return (struct puz_move){ .is_tile = true, .tile = t };
}

static void score(const struct puz_board *b, const struct puz_move *m,
                  size_t n, const puz_tables *t, struct puz_score_result *r)
{
    struct puz_solve_opts o = { .tables = t };

    puz_arena_reset(g.arena);
    assert_int_equal(puz_score(b, m, n, &o, g.arena, r), PUZ_OK);
}

static void test_optimal_moves_score_one(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 0 7 8");
    struct puz_move m[] = { dir(PUZ_RIGHT), tile(8) };
    struct puz_score_result r;

    (void)state;
    assert_true(puz_score_instant(&b, NULL, g.tables));
    score(&b, m, 2, g.tables, &r);
    assert_true(r.legal && r.solved && r.known);
    assert_false(r.searched);
    assert_int_equal(r.played, 2);
    assert_int_equal(r.optimal, truth3_distance(&g.truth, b.cells));
    assert_true(r.score == 1.0);
}

/* Two moves more than needed: 2 / 4. */
static void test_detour_scores_ratio(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 0 7 8");
    struct puz_move m[] = { dir(PUZ_RIGHT), dir(PUZ_UP), dir(PUZ_DOWN),
                            dir(PUZ_RIGHT) };
    struct puz_score_result r;

    (void)state;
    score(&b, m, 4, g.tables, &r);
    assert_true(r.legal && r.solved);
    assert_int_equal(r.optimal, 2);
    assert_true(r.score == 0.5);
}

static void test_illegal_and_unfinished_score_zero(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 0 7 8");
    struct puz_move bad[] = { dir(PUZ_RIGHT), dir(PUZ_DOWN), dir(PUZ_UP) };
    struct puz_move far[] = { tile(1) };
    struct puz_move short_of[] = { dir(PUZ_RIGHT) };
    struct puz_score_result r;

    (void)state;
    score(&b, bad, 3, g.tables, &r);
    assert_false(r.legal);
    assert_false(r.solved);
    assert_int_equal(r.illegal_index, 1);
    assert_int_equal(r.played, 1);
    assert_string_equal(r.illegal_reason, "moves[1]: the blank cannot move "
                        "down from where it is");
    assert_true(r.known && r.score == 0.0);
    score(&b, far, 1, g.tables, &r);
    assert_false(r.legal);
    assert_string_equal(r.illegal_reason, "moves[0]: tile 1 is not next to "
                        "the blank");
    score(&b, short_of, 1, g.tables, &r);
    assert_true(r.legal);
    assert_false(r.solved);
    assert_true(r.score == 0.0);
}

static void test_already_solved_scores_one(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 7 8 0");
    struct puz_score_result r;

    (void)state;
    score(&b, NULL, 0, g.tables, &r);
    assert_true(r.solved && r.known);
    assert_int_equal(r.optimal, 0);
    assert_true(r.score == 1.0);
}

/* Without tables the optimum comes from an optimal search. */
static void test_search_when_no_table(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15");
    struct puz_board b3 = test_board("8 6 7 2 5 4 3 0 1");
    struct puz_move m[] = { tile(14), tile(15) };
    struct puz_score_result r;

    (void)state;
    assert_false(puz_score_instant(&b, NULL, g.tables));
    score(&b, m, 2, NULL, &r);
    assert_true(r.searched);
    assert_int_equal(r.solve.status, PUZ_SOLVED);
    assert_true(r.known && r.solved);
    assert_int_equal(r.optimal, 2);
    assert_true(r.score == 1.0);
    /* 3x3 without tables: searched, and the truth's distance. */
    assert_false(puz_score_instant(&b3, NULL, NULL));
    score(&b3, NULL, 0, NULL, &r);
    assert_true(r.searched);
    assert_int_equal(r.optimal, truth3_distance(&g.truth, b3.cells));
    assert_int_equal(r.optimal, 31);
    assert_false(r.solved);
    assert_true(r.score == 0.0);
}

/* A search stopped by a limit proves nothing: known stays false. */
static void test_limit_leaves_unknown(void **state)
{
    struct puz_board b = test_board("15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4");
    struct puz_board goal = test_board("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
    struct puz_solve_opts o = { .goal = &goal };
    struct puz_score_result r;

    (void)state;
    o.limits.max_nodes = 100;
    puz_arena_reset(g.arena);
    assert_int_equal(puz_score(&b, NULL, 0, &o, g.arena, &r), PUZ_OK);
    assert_true(r.searched);
    assert_int_equal(r.solve.status, PUZ_LIMIT_NODES);
    assert_false(r.known);
}

static void test_size_mismatch_is_einval(void **state)
{
    struct puz_board b = test_board("1 2 3 4 5 6 0 7 8");
    struct puz_board goal = test_board("1 2 3 0");
    struct puz_solve_opts o = { .goal = &goal };
    struct puz_score_result r;

    (void)state;
    assert_int_equal(puz_score(&b, NULL, 0, &o, g.arena, &r), PUZ_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimal_moves_score_one),
        cmocka_unit_test(test_detour_scores_ratio),
        cmocka_unit_test(test_illegal_and_unfinished_score_zero),
        cmocka_unit_test(test_already_solved_scores_one),
        cmocka_unit_test(test_search_when_no_table),
        cmocka_unit_test(test_limit_leaves_unknown),
        cmocka_unit_test(test_size_mismatch_is_einval),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
