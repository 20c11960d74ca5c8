/*
 * test_daily.c - the daily puzzle (daily.h): the same date and size give
 * the same board, another date another; the 3x3 board is exactly its
 * walk from the goal; only real dates pass; an honest solution verifies,
 * and a forged one (illegal move, legal but unfinished) does not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "daily.h"
#include "puz_solve.h"

static puz_table3 *table;

static int setup(void **state)
{
    (void)state;
    return puz_table3_create(NULL, &table) == PUZ_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    puz_table3_destroy(table);
    return 0;
}

static void test_same_day_same_board(void **state)
{
    struct puz_board a, b, c;

    (void)state;
    for (unsigned n = 3; n <= 5; n++) {
        assert_int_equal(daily_board("2026-12-02", n, table, &a), PUZ_OK);
        assert_int_equal(daily_board("2026-12-02", n, table, &b), PUZ_OK);
        assert_int_equal(daily_board("2026-12-03", n, table, &c), PUZ_OK);
        assert_int_equal(a.n, n);
        assert_true(puz_board_equal(&a, &b));
        assert_false(puz_board_equal(&a, &c));
    }
}

static void test_dates_checked(void **state)
{
    struct puz_board b;

    (void)state;
    assert_true(daily_date_ok("2024-02-29"));
    assert_false(daily_date_ok("2026-02-29"));
    assert_false(daily_date_ok("2026-13-01"));
    assert_false(daily_date_ok("2026-1-01"));
    assert_false(daily_date_ok("../etc/pas"));
    assert_int_equal(daily_board("2026-12-02", 6, table, &b), PUZ_EINVAL);
    assert_int_equal(daily_board("tomorrow", 3, table, &b), PUZ_EINVAL);
}

static void test_today(void **state)
{
    char buf[11];

    (void)state;
    daily_today(1764633600, buf);      /* 2025-12-02 00:00 UTC */
    assert_string_equal(buf, "2025-12-02");
}

static void test_honest_solution_verifies_forged_does_not(void **state)
{
    struct puz_board b;
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_ASTAR };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 22);
    char msg[PUZ_MSG_MAX];
    uint8_t forged[64];

    (void)state;
    assert_int_equal(daily_board("2026-12-02", 3, table, &b), PUZ_OK);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.length, daily_walk(3));
    assert_int_equal(daily_verify(&b, r.moves, r.length, msg), PUZ_OK);
    /* One move short: legal, but not at the goal. */
    assert_int_equal(daily_verify(&b, r.moves, r.length - 1, msg),
                     PUZ_EINVAL);
    assert_non_null(strstr(msg, "do not reach"));
    /* Up and up and up...: sooner or later into a wall. */
    memset(forged, PUZ_UP, sizeof(forged));
    assert_int_equal(daily_verify(&b, forged, 4, msg), PUZ_EINVAL);
    assert_int_equal(daily_verify(&b, forged, 0, msg), PUZ_EINVAL);
    puz_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_day_same_board),
        cmocka_unit_test(test_dates_checked),
        cmocka_unit_test(test_today),
        cmocka_unit_test(test_honest_solution_verifies_forged_does_not),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
