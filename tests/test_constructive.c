/*
 * test_constructive.c - the row-and-column solver: 1,000 seeded random
 * solvable boards of every side 2..8 solved with legal, replayed paths;
 * goals with the blank anywhere; the same answer every time; never
 * shorter than optimal on 3x3; no loops left in a path; and quick.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/large/large.h"     /* PUZ_ANYTIME_DEFAULT_US */
#include "puz_random.h"
#include "puz_solve.h"
#include "support/truth3.h"

#define BOARDS_PER_SIZE 1000u

/* A uniformly random arrangement, made solvable towards goal by swapping
 * two tiles when its parity is wrong. */
static void random_board(unsigned n, const struct puz_board *goal,
                         struct puz_rng *rng, struct puz_board *out)
{
    long long v[PUZ_MAX_CELLS];
    unsigned count = n * n, a = 0, b;
    bool ok;

    for (unsigned i = 0; i < count; i++)
        v[i] = i;
    for (unsigned i = count - 1; i > 0; i--) {
        unsigned j = (unsigned)puz_rng_below(rng, i + 1);
        long long t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    assert_int_equal(puz_board_from_values(v, count, out, NULL), PUZ_OK);
    assert_int_equal(puz_board_solvable(out, goal, &ok, NULL), PUZ_OK);
    if (ok)
        return;
    while (v[a] == 0)
        a++;
    b = a + 1;
    while (v[b] == 0)
        b++;
    v[a] = out->cells[b];
    v[b] = out->cells[a];
    assert_int_equal(puz_board_from_values(v, count, out, NULL), PUZ_OK);
}

/* Solve constructively; check it is solved, claimed optimal only when
 * its length is the proven lower bound (short boards), and that the
 * path replays to goal. Returns the length. */
static unsigned solve_check(const struct puz_board *b,
                            const struct puz_board *goal, puz_arena *a,
                            struct puz_result *r)
{
    struct puz_solve_opts o = { 0 };
    struct puz_board end;

    o.algorithm = PUZ_ALG_CONSTRUCTIVE;
    o.goal = goal;
    assert_int_equal(puz_solve(b, &o, a, r), PUZ_OK);
    assert_int_equal(r->status, PUZ_SOLVED);
    assert_true(r->optimal == (r->lower_bound == r->length));
    assert_int_equal(puz_replay(b, r->moves, r->length, &end), PUZ_OK);
    assert_true(puz_board_equal(&end, goal));
    return r->length;
}

static void test_random_boards_every_size(void **state)
{
    struct puz_board goal, b;
    struct puz_result r;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);
    uint64_t t0;

    (void)state;
    for (unsigned n = PUZ_MIN_SIZE; n <= PUZ_MAX_SIZE; n++) {
        unsigned longest = 0;
        puz_board_goal(n, &goal);
        puz_rng_seed(&rng, 1000 + n);
        t0 = puz_clock_mono_us();
        for (unsigned i = 0; i < BOARDS_PER_SIZE; i++) {
            random_board(n, &goal, &rng, &b);
            unsigned len = solve_check(&b, &goal, a, &r);
            if (len > longest)
                longest = len;
            puz_arena_reset(a);
        }
        printf("# %ux%u: %u boards, longest %u moves, %.2f ms each\n", n,
               n, BOARDS_PER_SIZE, longest,
               (double)(puz_clock_mono_us() - t0) / 1e3 / BOARDS_PER_SIZE);
    }
    puz_arena_destroy(a);
}

/* Goals with the blank anywhere, tiles in any order. */
static void test_random_goals(void **state)
{
    struct puz_board goal, b;
    struct puz_result r;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    puz_rng_seed(&rng, 99);
    for (unsigned n = PUZ_MIN_SIZE; n <= PUZ_MAX_SIZE; n++) {
        struct puz_board dflt;
        puz_board_goal(n, &dflt);
        for (unsigned i = 0; i < 100; i++) {
            random_board(n, &dflt, &rng, &goal);
            random_board(n, &goal, &rng, &b);
            solve_check(&b, &goal, a, &r);
            puz_arena_reset(a);
        }
    }
    puz_arena_destroy(a);
}

static void test_deterministic(void **state)
{
    struct puz_board goal, b;
    struct puz_result r1, r2;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    puz_board_goal(7, &goal);
    puz_rng_seed(&rng, 5);
    random_board(7, &goal, &rng, &b);
    solve_check(&b, &goal, a, &r1);
    solve_check(&b, &goal, a, &r2);
    assert_int_equal(r1.length, r2.length);
    assert_memory_equal(r1.moves, r2.moves, r1.length);
    puz_arena_destroy(a);
}

/* Never shorter than the true distance; the solved board needs nothing. */
static void test_3x3_against_truth(void **state)
{
    static const uint8_t g[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
    struct truth3 *t = malloc(sizeof(*t));
    struct puz_board goal, b;
    struct puz_result r;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    assert_non_null(t);
    assert_int_equal(truth3_build(t, g), 0);
    puz_board_goal(3, &goal);
    assert_int_equal(solve_check(&goal, &goal, a, &r), 0);
    puz_rng_seed(&rng, 11);
    for (unsigned i = 0; i < 2000; i++) {
        random_board(3, &goal, &rng, &b);
        assert_true(solve_check(&b, &goal, a, &r) >=
                    truth3_distance(t, b.cells));
        puz_arena_reset(a);
    }
    puz_arena_destroy(a);
    free(t);
}

/* The loop cutter leaves no board twice on a path. */
static void test_no_board_repeats(void **state)
{
    struct puz_board goal, b, *seen;
    struct puz_result r;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    puz_board_goal(6, &goal);
    puz_rng_seed(&rng, 21);
    for (unsigned k = 0; k < 20; k++) {
        random_board(6, &goal, &rng, &b);
        solve_check(&b, &goal, a, &r);
        seen = malloc((r.length + 1) * sizeof(*seen));
        assert_non_null(seen);
        seen[0] = b;
        for (unsigned i = 0; i < r.length; i++) {
            seen[i + 1] = seen[i];
            puz_board_move(&seen[i + 1], (enum puz_dir)r.moves[i]);
        }
        for (unsigned i = 0; i <= r.length; i++)
            for (unsigned j = i + 1; j <= r.length; j++)
                assert_false(puz_board_equal(&seen[i], &seen[j]));
        free(seen);
        puz_arena_reset(a);
    }
    puz_arena_destroy(a);
}

/* The default for sides of 5 and more (the anytime search) answers
 * by its default budget, marked not optimal. The bound is twice the
 * budget: time_us is wall time, and a fresh Debian root's make test
 * (suites side by side on 2 cores) once measured more than the budget
 * + 10% this held it to; a search that ignored its deadline would go on
 * improving its path far longer. Under the sanitizers (make test-asan
 * sets PUZZLED_QUICK) the time is not held to it, as in test_large: an
 * 8x8 first answer alone outlasts a tenth of the budget there. */
static void test_default_for_big_boards(void **state)
{
    struct puz_solve_opts o = { 0 };
    struct puz_board goal, b, end;
    struct puz_result r;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    puz_rng_seed(&rng, 8);
    for (unsigned n = 5; n <= PUZ_MAX_SIZE; n++) {
        puz_board_goal(n, &goal);
        random_board(n, &goal, &rng, &b);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_int_equal(r.status, PUZ_SOLVED);
        assert_false(r.optimal);
        if (getenv("PUZZLED_QUICK") == NULL)
            assert_true(r.stats.time_us < 2 * PUZ_ANYTIME_DEFAULT_US);
        assert_int_equal(puz_replay(&b, r.moves, r.length, &end), PUZ_OK);
        assert_true(puz_board_equal(&end, &goal));
        puz_arena_reset(a);
    }
    puz_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_boards_every_size),
        cmocka_unit_test(test_random_goals),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_3x3_against_truth),
        cmocka_unit_test(test_no_board_repeats),
        cmocka_unit_test(test_default_for_big_boards),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
