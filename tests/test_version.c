/*
 * test_version.c - the release number in its forms: the numbers of
 * puz_version.h spell PUZ_VERSION, PUZ_VERSION_NUM orders releases, and
 * puz_version() (what the library that is running says) equals the
 * header a program was compiled with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "puz_version.h"

static void test_string_is_the_numbers(void **state)
{
    char spelled[32];

    (void)state;
    snprintf(spelled, sizeof(spelled), "%d.%d.%d", PUZ_VERSION_MAJOR,
             PUZ_VERSION_MINOR, PUZ_VERSION_PATCH);
    assert_string_equal(PUZ_VERSION, spelled);
    assert_int_equal(PUZ_VERSION_NUM, PUZ_VERSION_MAJOR * 10000
                     + PUZ_VERSION_MINOR * 100 + PUZ_VERSION_PATCH);
}

static void test_runtime_matches_header(void **state)
{
    (void)state;
    assert_non_null(puz_version());
    assert_string_equal(puz_version(), PUZ_VERSION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_string_is_the_numbers),
        cmocka_unit_test(test_runtime_matches_header),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
