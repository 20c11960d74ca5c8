/*
 * pdbcache.h - pattern databases for tests: a set opened from the
 * build's cache ($BUILD/pdb-cache, default build/pdb-cache), built and
 * saved there by the first test that needs it. Suites run side by side
 * (tests/run.py): a set is built under a lock of its own, so the second
 * suite to want it waits for the first and loads its file.
 */
#ifndef TEST_PDBCACHE_H
#define TEST_PDBCACHE_H

#include <stddef.h>

#include "puz_pdb.h"
#include "puz_tables.h"

/* Open set part (corner goals) from the cache into *d (NULL: only make
 * sure it is cached), building it there first if it is not; its file's
 * path into path (size bytes) when path is not NULL. 0, or -1 with msg
 * (PUZ_MSG_MAX bytes). */
int test_pdb_cached(enum puz_pdb_partition part, puz_pdb **d, char *path,
                    size_t size, char *msg);

/* Open set part (corner goals) from the cache and add it to t. 0, or -1
 * with msg (PUZ_MSG_MAX bytes). */
int test_pdb_add(puz_tables *t, enum puz_pdb_partition part, char *msg);

#endif
