/*
 * pdbcache.c - pattern databases for tests from the build's cache
 * (pdbcache.h): a quiet build on two threads the first time.
 */
#include "pdbcache.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "pool_pieces.h"

static void quiet(const struct puz_pdb_progress *p, void *user)
{
    (void)p;
    (void)user;
}

int test_pdb_add(puz_tables *t, enum puz_pdb_partition part, char *msg)
{
    struct puz_pdb_opts o = { 2, quiet, NULL, pool_run_pieces, NULL };
    const char *build = getenv("BUILD");
    char cache[300];
    puz_pdb *d;

    snprintf(cache, sizeof(cache), "%s/pdb-cache", build ? build : "build");
    mkdir(cache, 0755);
    if (puz_pdb_open(cache, part, NULL, &o, &d, msg) != PUZ_OK
        || puz_tables_add_pdb(t, d) != PUZ_OK)
        return -1;
    return 0;
}
