/*
 * test_arena.c - the bump allocator: alignment, growth across chunks,
 * budget refusals (and growth stopping at the budget), reset keeping the
 * first chunk, release to a mark, peak accounting and ownership queries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "puz_arena.h"

static void test_alloc_aligned_and_distinct(void **state)
{
    puz_arena *a = puz_arena_create(1024);
    unsigned char *prev = NULL;

    (void)state;
    assert_non_null(a);
    for (size_t n = 1; n < 300; n += 7) {
        unsigned char *p = puz_arena_alloc(a, n);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 16, 0);
        memset(p, 0xAB, n);             /* must not overlap prev */
        if (prev != NULL)
            assert_int_equal(prev[0], 0xAB);
        prev = p;
        assert_true(puz_arena_owns(a, p + n - 1));
    }
    puz_arena_destroy(a);
}

static void test_grows_past_first_chunk(void **state)
{
    puz_arena *a = puz_arena_create(1024);
    void *big;

    (void)state;
    big = puz_arena_alloc(a, 10 << 20);
    assert_non_null(big);
    memset(big, 1, 10 << 20);
    assert_true(puz_arena_reserved(a) >= (size_t)(10 << 20));
    assert_true(puz_arena_used(a) >= (size_t)(10 << 20));
    assert_true(puz_arena_owns(a, big));
    assert_false(puz_arena_owns(a, &a));
    puz_arena_destroy(a);
}

static void test_budget_refuses(void **state)
{
    puz_arena *a = puz_arena_create(4096);

    (void)state;
    puz_arena_set_budget(a, 1000);
    assert_int_equal(puz_arena_budget(a), 1000);
    assert_non_null(puz_arena_alloc(a, 512));
    assert_null(puz_arena_alloc(a, 512));   /* 512 + 512 > 1000 */
    assert_non_null(puz_arena_alloc(a, 256));
    assert_null(puz_arena_alloc(a, SIZE_MAX));
    assert_null(puz_arena_calloc(a, SIZE_MAX / 2, 4));
    puz_arena_set_budget(a, 0);
    assert_non_null(puz_arena_alloc(a, 1 << 20));
    puz_arena_destroy(a);
}

static void test_reset_and_peak(void **state)
{
    puz_arena *a = puz_arena_create(4096);
    size_t first_reserved = puz_arena_reserved(a);

    (void)state;
    assert_non_null(puz_arena_alloc(a, 100000));
    assert_true(puz_arena_peak(a) >= 100000);
    puz_arena_reset(a);
    assert_int_equal(puz_arena_used(a), 0);
    assert_int_equal(puz_arena_peak(a), 0);
    assert_int_equal(puz_arena_reserved(a), first_reserved);
    assert_non_null(puz_arena_alloc(a, 64));
    assert_int_equal(puz_arena_peak(a), 64);
    puz_arena_destroy(a);
}

static void test_calloc_and_strdup(void **state)
{
    puz_arena *a = puz_arena_create(64);
    unsigned char *z;
    char *s;

    (void)state;
    z = puz_arena_calloc(a, 100, 3);
    assert_non_null(z);
    for (int i = 0; i < 300; i++)
        assert_int_equal(z[i], 0);
    s = puz_arena_strdup(a, "linear-conflict");
    assert_string_equal(s, "linear-conflict");
    puz_arena_destroy(a);
    puz_arena_destroy(NULL);
}

/* Release frees what came after the mark, chunks included, and keeps
 * what came before: the request's own data survives the search's. */
static void test_mark_release(void **state)
{
    puz_arena *a = puz_arena_create(1024);
    char *keep, *later;
    struct puz_arena_mark m;
    size_t reserved;

    (void)state;
    keep = puz_arena_strdup(a, "kept");
    m = puz_arena_mark(a);
    reserved = puz_arena_reserved(a);
    for (int i = 0; i < 100; i++)
        assert_non_null(puz_arena_alloc(a, 1000));
    assert_true(puz_arena_reserved(a) > reserved);
    puz_arena_release(a, m);
    assert_int_equal(puz_arena_reserved(a), reserved);
    assert_int_equal(puz_arena_used(a), 16);
    assert_true(puz_arena_peak(a) >= 100000);
    assert_string_equal(keep, "kept");
    later = puz_arena_strdup(a, "next");
    assert_ptr_equal(later, keep + 16);     /* the same room again */
    assert_true(puz_arena_owns(a, later));
    puz_arena_destroy(a);
}

/* Under a budget, chunks stop doubling at what the budget leaves, so
 * the memory taken from the system stays near the budget. */
static void test_growth_stops_at_budget(void **state)
{
    puz_arena *a = puz_arena_create(1024);

    (void)state;
    puz_arena_set_budget(a, 300000);
    while (puz_arena_alloc(a, 4096) != NULL)
        ;
    assert_true(puz_arena_used(a) > 290000);
    assert_true(puz_arena_reserved(a) < 300000 + 1024 + 8 * 64);
    puz_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_aligned_and_distinct),
        cmocka_unit_test(test_grows_past_first_chunk),
        cmocka_unit_test(test_budget_refuses),
        cmocka_unit_test(test_reset_and_peak),
        cmocka_unit_test(test_calloc_and_strdup),
        cmocka_unit_test(test_mark_release),
        cmocka_unit_test(test_growth_stops_at_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
