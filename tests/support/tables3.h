/*
 * tables3.h - the 3x3 exact tables as a cmocka group fixture, for the
 * API tests that hand a server's tables to route functions without
 * starting a server.
 */
#ifndef TEST_TABLES3_H
#define TEST_TABLES3_H

#include "puz_tables.h"

/* Built by test_tables3_setup, freed by test_tables3_teardown. */
extern puz_tables *test_tables3;

/* cmocka group setup / teardown (state unused). */
int test_tables3_setup(void **state);
int test_tables3_teardown(void **state);

#endif
