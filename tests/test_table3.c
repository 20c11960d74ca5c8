/*
 * test_table3.c - the 3x3 exact table read as a path (puz_table3_walk),
 * and A* answering from it: on every state, for a goal of each class,
 * the path must be the one A* with the exact heuristic returns (the last
 * optimal move in direction order, worked out here from an independent
 * BFS) with the counts that A* would report, in a few hundred bytes of
 * arena; limits must stop it the way they stop the search.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "puz_pdb.h"
#include "puz_solve.h"
#include "puz_table3.h"
#include "puz_trace.h"
#include "support/tables3.h"
#include "support/truth3.h"

static const uint8_t goals[4][9] = {
    { 1, 2, 3, 4, 5, 6, 7, 8, 0 }, { 1, 2, 3, 4, 0, 5, 6, 7, 8 },
    { 1, 0, 2, 3, 4, 5, 6, 7, 8 }, { 0, 8, 7, 6, 5, 4, 3, 2, 1 },
};

/* The 3x3 tables are tables3.c's group fixture (test_tables3); the
 * truth each test builds again for its goals is this suite's own. */
struct fixture {
    struct truth3 truth;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));

    if (fx == NULL || test_tables3_setup(state) != 0) {
        free(fx);
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    free(*state);
    return test_tables3_teardown(state);
}

static void board_of(const uint8_t *cells, struct puz_board *b)
{
    memset(b, 0, sizeof(*b));
    b->n = 3;
    memcpy(b->cells, cells, 9);
    for (unsigned i = 0; i < 9; i++)
        if (cells[i] == 0)
            b->blank = (uint8_t)i;
}

/* What A* with the exact heuristic does, from the BFS distances: at each
 * node the last legal move (up, down, left, right) that gets closer;
 * counts every child but the parent. Returns the length. */
static unsigned expected_path(const struct truth3 *t, const uint8_t *start,
                              uint8_t *dirs, unsigned *generated)
{
    static const int step[4] = { -3, 3, -1, 1 };
    uint8_t cells[9];
    unsigned blank = 0, d, len = 0;

    memcpy(cells, start, 9);
    while (cells[blank] != 0)
        blank++;
    *generated = 0;
    for (d = truth3_distance(t, cells); d > 0; d--) {
        int best = -1;
        unsigned legal = 0;
        for (unsigned m = 0; m < 4; m++) {
            unsigned next = (unsigned)((int)blank + step[m]);
            if ((m == 0 && blank < 3) || (m == 1 && blank > 5) ||
                (m == 2 && blank % 3 == 0) || (m == 3 && blank % 3 == 2))
                continue;
            legal++;
            cells[blank] = cells[next];
            cells[next] = 0;
            if (truth3_distance(t, cells) == d - 1)
                best = (int)m;
            cells[next] = cells[blank];
            cells[blank] = 0;
        }
        assert_true(best >= 0);
        *generated += legal - (len > 0);
        dirs[len++] = (uint8_t)best;
        cells[blank] = cells[blank + step[best]];
        blank = (unsigned)((int)blank + step[best]);
        cells[blank] = 0;
    }
    return len;
}

static void check_state(const struct fixture *fx, const struct puz_board *goal,
                        const uint8_t *cells, puz_arena *a)
{
    struct puz_solve_opts o = { 0 };
    struct puz_board b, end;
    struct puz_result r;
    uint8_t want[64];
    unsigned gen, len = expected_path(&fx->truth, cells, want, &gen);

    board_of(cells, &b);
    o.goal = goal;
    o.tables = test_tables3;
    puz_arena_reset(a);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_int_equal(r.algorithm, PUZ_ALG_ASTAR);
    assert_string_equal(puz_heuristic_name(r.heuristic), "pdb");
    assert_true(r.optimal);
    assert_int_equal(r.length, len);
    assert_memory_equal(r.moves, want, len);
    assert_int_equal(puz_replay(&b, r.moves, r.length, &end), PUZ_OK);
    assert_memory_equal(end.cells, goal->cells, 9);
    for (unsigned i = 0; i < len; i++)      /* the tiles that slid */
        assert_int_equal(r.tiles[i], puz_board_move(&b, r.moves[i]));
    assert_int_equal(r.stats.expanded, len);
    assert_int_equal(r.stats.generated, gen);
    assert_int_equal(r.stats.duplicates, 0);
    assert_int_equal(r.stats.max_frontier, 1 + gen - len);
    assert_true(r.stats.arena_peak <= 2048);
}

/* Every state of the default goal, every 5th for a goal of each other
 * class and a relabelled corner goal. */
static void test_walk_is_astar_on_every_state(void **state)
{
    struct fixture *fx = *state;
    puz_arena *a = puz_arena_create(1 << 16);

    for (unsigned g = 0; g < 4; g++) {
        struct puz_board goal;
        unsigned every = g == 0 ? 1 : 5, seen = 0;
        board_of(goals[g], &goal);
        assert_int_equal(truth3_build(&fx->truth, goals[g]), 0);
        for (uint32_t rank = 0; rank < TRUTH3_PERMS; rank++) {
            uint8_t cells[9];
            if (fx->truth.dist[rank] == TRUTH3_NONE || seen++ % every)
                continue;
            truth3_unrank(rank, cells);
            check_state(fx, &goal, cells, a);
        }
    }
    puz_arena_destroy(a);
}

/* A board of the other parity class walks alongside a reachable one;
 * the walk must notice that it ends beside the goal. */
static void test_walk_refuses_unreachable(void **state)
{
    struct puz_board goal, b;
    const puz_table3 *t;
    uint8_t dirs[64];
    unsigned gen = 7;

    (void)state;
    board_of(goals[0], &goal);
    t = puz_tables_table3(test_tables3, &goal);
    assert_non_null(t);
    board_of((const uint8_t[9]){ 2, 1, 3, 4, 5, 6, 7, 8, 0 }, &b);
    assert_int_equal(puz_table3_walk(t, &b, NULL, NULL, dirs, &gen),
                     PUZ_TABLE3_UNREACHABLE);
    assert_int_equal(gen, 0);
    board_of((const uint8_t[9]){ 1, 2, 3, 4, 5, 6, 8, 7, 0 }, &b);
    assert_int_equal(puz_table3_walk(t, &b, NULL, NULL, dirs, NULL),
                     PUZ_TABLE3_UNREACHABLE);
    board_of((const uint8_t[9]){ 1, 2, 3, 4, 5, 6, 7, 0, 8 }, &b);
    assert_int_equal(puz_table3_walk(t, &b, NULL, NULL, dirs, &gen), 1);
    assert_int_equal(dirs[0], PUZ_RIGHT);
}

/* A node limit below the length stops it as it stops A*; a cancelled
 * solve reports cancelled, except at the goal (popped before any check). */
static void test_walk_honours_limits(void **state)
{
    struct puz_solve_opts o = { 0 };
    struct puz_board b, goal;
    struct puz_result r;
    atomic_int cancel = 1;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    board_of((const uint8_t[9]){ 8, 6, 7, 2, 5, 4, 3, 0, 1 }, &b);
    board_of(goals[0], &goal);
    o.tables = test_tables3;
    o.limits.max_nodes = 30;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_LIMIT_NODES);
    o.limits.max_nodes = 31;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_int_equal(r.length, 31);
    o.limits.max_nodes = 0;
    o.limits.cancel = &cancel;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_CANCELLED);
    assert_int_equal(puz_solve(&goal, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_int_equal(r.length, 0);
    puz_arena_destroy(a);
}

/*
 * puz_solve_instant (what the server answers on its reading thread) is
 * true exactly when puz_solve walks the table: no 3x3 path between two
 * boards is longer than PUZ_TABLE3_MAX_DEPTH (checked on each goal class
 * against the BFS), and every option that makes puz_solve search makes
 * it false. Where it is true the solve is the walk: a few hundred bytes.
 */
static void test_instant_is_the_walk(void **state)
{
    struct fixture *fx = *state;
    struct puz_solve_opts o = { 0 };
    struct puz_board b, goal, b4;
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 16);

    for (unsigned g = 0; g < 4; g++) {
        unsigned far = 0;
        assert_int_equal(truth3_build(&fx->truth, goals[g]), 0);
        for (uint32_t rank = 0; rank < TRUTH3_PERMS; rank++)
            if (fx->truth.dist[rank] != TRUTH3_NONE &&
                fx->truth.dist[rank] > far)
                far = fx->truth.dist[rank];
        assert_true(far <= PUZ_TABLE3_MAX_DEPTH);
        if (g == 0)
            assert_int_equal(far, PUZ_TABLE3_MAX_DEPTH);
    }
    board_of((const uint8_t[9]){ 8, 6, 7, 2, 5, 4, 3, 0, 1 }, &b);
    board_of(goals[1], &goal);
    o.tables = test_tables3;
    assert_true(puz_solve_instant(&b, &o));
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.length, 31);
    assert_true(r.stats.arena_peak <= 2048);
    o.goal = &goal;                     /* another class of goal */
    assert_true(puz_solve_instant(&b, &o));
    o.goal = NULL;
    o.algorithm = PUZ_ALG_ASTAR;
    assert_true(puz_solve_instant(&b, &o));
    o.limits.max_nodes = PUZ_TABLE3_MAX_DEPTH;
    assert_true(puz_solve_instant(&b, &o));
    o.limits.max_nodes = PUZ_TABLE3_MAX_DEPTH - 1;  /* may stop: search */
    assert_false(puz_solve_instant(&b, &o));
    o.limits.max_nodes = 0;
    o.algorithm = PUZ_ALG_IDASTAR;
    assert_false(puz_solve_instant(&b, &o));
    o.algorithm = PUZ_ALG_AUTO;
    o.heuristic = puz_heuristic_find("manhattan");
    assert_false(puz_solve_instant(&b, &o));
    o.heuristic = NULL;
    o.trace = puz_trace_create(a, 10);
    assert_false(puz_solve_instant(&b, &o));
    o.trace = NULL;
    o.tables = NULL;
    assert_false(puz_solve_instant(&b, &o));
    o.tables = test_tables3;
    assert_int_equal(puz_board_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
                                     &b4, NULL), PUZ_OK);
    assert_false(puz_solve_instant(&b4, &o));
    puz_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instant_is_the_walk),
        cmocka_unit_test(test_walk_is_astar_on_every_state),
        cmocka_unit_test(test_walk_refuses_unreachable),
        cmocka_unit_test(test_walk_honours_limits),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
