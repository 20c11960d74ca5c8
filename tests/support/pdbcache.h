/*
 * pdbcache.h - pattern databases for tests: a set opened from the
 * build's cache ($BUILD/pdb-cache, default build/pdb-cache), built and
 * saved there by the first test that needs it.
 */
#ifndef TEST_PDBCACHE_H
#define TEST_PDBCACHE_H

#include "puz_pdb.h"
#include "puz_tables.h"

/* Open set part (corner goals) from the cache and add it to t. 0, or -1
 * with msg (PUZ_MSG_MAX bytes). */
int test_pdb_add(puz_tables *t, enum puz_pdb_partition part, char *msg);

#endif
