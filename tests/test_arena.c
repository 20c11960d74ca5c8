/*
 * test_arena.c - the bump allocator: alignment, growth across chunks,
 * budget refusals, reset keeping the first chunk, peak accounting and
 * ownership queries.
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_aligned_and_distinct),
        cmocka_unit_test(test_grows_past_first_chunk),
        cmocka_unit_test(test_budget_refuses),
        cmocka_unit_test(test_reset_and_peak),
        cmocka_unit_test(test_calloc_and_strdup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
