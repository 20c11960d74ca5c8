/*
 * test_progress.c - the progress callback of puz_solve(): called from the
 * solving thread no more often than every PUZ_PROGRESS_US, with counts
 * that only grow and a bound that only rises for IDA*; anytime searches
 * report each shorter path; a callback that raises the cancel flag stops
 * the search at once; watching changes nothing in the result.
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

/* Korf's #88: 65 moves, seconds of IDA* + linear conflict even on an idle
 * machine (#1 takes ~0.1 s: too quick to watch or cancel). */
#define KORF88 "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4"
#define HARD3 "8 6 7 2 5 4 3 0 1"                       /* 31 moves */

struct watch {
    unsigned calls;
    struct puz_progress first, last;
    int monotone;           /* counts and elapsed never went back */
    int bound_rose;         /* bound never went back */
    uint64_t min_gap_us;    /* smallest elapsed gap between calls */
    unsigned cancel_after;  /* raise *cancel at this call; 0 = never */
    atomic_int *cancel;
    uint64_t cancelled_at_us;
    unsigned best_calls;    /* calls with a best_length */
};

static void on_progress(const struct puz_progress *p, void *user)
{
    struct watch *w = user;

    if (w->calls == 0) {
        w->first = *p;
        w->monotone = w->bound_rose = 1;
        w->min_gap_us = UINT64_MAX;
    } else {
        uint64_t gap = p->elapsed_us - w->last.elapsed_us;
        if (p->expanded < w->last.expanded || p->generated
            < w->last.generated || p->elapsed_us < w->last.elapsed_us)
            w->monotone = 0;
        if (p->bound < w->last.bound)
            w->bound_rose = 0;
        if (p->best_length == w->last.best_length && gap < w->min_gap_us)
            w->min_gap_us = gap;
    }
    w->best_calls += p->best_length != 0;
    w->last = *p;
    w->calls++;
    if (w->cancel_after != 0 && w->calls == w->cancel_after) {
        atomic_store(w->cancel, 1);
        w->cancelled_at_us = puz_clock_mono_us();
    }
}

/* IDA* on a 65-move 15-puzzle: several reports, then a cancel from the
 * callback that the search obeys within a few milliseconds. */
static void test_idastar_reports_and_cancels(void **state)
{
    struct puz_board b = test_board(KORF88);
    struct puz_board goal = test_board("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15");
    struct watch w = { 0 };
    atomic_int cancel = 0;
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_IDASTAR };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 16);
    uint64_t stop_us;

    (void)state;
    o.progress = on_progress;
    o.progress_user = &w;
    /* Manhattan: with linear conflict this instance now solves within
     * the three reports the test waits for. */
    o.heuristic = puz_heuristic_find("manhattan");
    o.goal = &goal;         /* Korf's instances aim at blank-first */
    o.limits.cancel = &cancel;
    w.cancel = &cancel;
    w.cancel_after = 3;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    stop_us = puz_clock_mono_us() - w.cancelled_at_us;
    assert_int_equal(r.status, PUZ_CANCELLED);
    assert_int_equal(w.calls, 3);
    assert_true(w.monotone);
    assert_true(w.bound_rose);
    /* Not more often than every ~100 ms (a little slack for clocks). */
    assert_true(w.min_gap_us >= PUZ_PROGRESS_US - 1000);
    assert_true(w.first.elapsed_us >= PUZ_PROGRESS_US - 1000);
    assert_int_equal(w.last.algorithm, PUZ_ALG_IDASTAR);
    assert_true(w.last.bound >= 41 && w.last.bound <= 65);
    assert_int_equal(w.last.lower_bound, w.last.bound);
    assert_int_equal(w.last.best_length, 0);
    assert_true(w.last.expanded > 0 && w.last.generated > w.last.expanded);
    assert_true(stop_us < 100000u);
    puz_arena_destroy(a);
}

/* Watching costs the answer nothing: same path, same counts. */
static void test_watching_changes_nothing(void **state)
{
    struct puz_board b = test_board(HARD3);
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    for (int alg = PUZ_ALG_ASTAR; alg <= PUZ_ALG_IDASTAR; alg++) {
        struct watch w = { 0 };
        struct puz_solve_opts o = { .algorithm = (enum puz_algorithm)alg };
        struct puz_result plain, watched;
        assert_int_equal(puz_solve(&b, &o, a, &plain), PUZ_OK);
        o.progress = on_progress;
        o.progress_user = &w;
        assert_int_equal(puz_solve(&b, &o, a, &watched), PUZ_OK);
        assert_int_equal(plain.length, watched.length);
        assert_int_equal(plain.stats.expanded, watched.stats.expanded);
        assert_int_equal(plain.stats.generated, watched.stats.generated);
        assert_memory_equal(plain.moves, watched.moves, plain.length);
    }
    puz_arena_destroy(a);
}

/* AUTO on 5x5: the constructive path, then every shorter one weighted
 * A* finds, each reported at once. */
static void test_anytime_reports_best_length(void **state)
{
    struct puz_rng rng;
    struct puz_board b;
    struct watch w = { 0 };
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    puz_rng_seed(&rng, 11);
    puz_random_board(5, 1000, NULL, NULL, &rng, &b);
    o.progress = on_progress;
    o.progress_user = &w;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_true(w.best_calls >= 2);
    assert_true(w.first.best_length >= r.length);
    assert_int_equal(w.last.best_length, r.length);
    assert_int_equal(w.last.lower_bound, 0);
    puz_arena_destroy(a);
}

/* A 3x3 A* takes milliseconds: no report at all. */
static void test_quick_solve_is_silent(void **state)
{
    struct puz_board b = test_board(HARD3);
    struct watch w = { 0 };
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_ASTAR };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 20);

    (void)state;
    o.progress = on_progress;
    o.progress_user = &w;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    if (r.stats.time_us < PUZ_PROGRESS_US)
        assert_int_equal(w.calls, 0);
    puz_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idastar_reports_and_cancels),
        cmocka_unit_test(test_watching_changes_nothing),
        cmocka_unit_test(test_anytime_reports_best_length),
        cmocka_unit_test(test_quick_solve_is_silent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
