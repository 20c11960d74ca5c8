/*
 * tables3.c - the 3x3 exact tables, built once per test group (see
 * tables3.h).
 */
#include "tables3.h"

puz_tables *test_tables3;

int test_tables3_setup(void **state)
{
    (void)state;
    if (puz_tables_create(&test_tables3) != PUZ_OK
        || puz_tables_add_3x3(test_tables3) != PUZ_OK)
        return -1;
    return 0;
}

int test_tables3_teardown(void **state)
{
    (void)state;
    puz_tables_destroy(test_tables3);
    test_tables3 = NULL;
    return 0;
}
