/*
 * pdbcache.c - pattern databases for tests from the build's cache
 * (pdbcache.h): a quiet build on two threads the first time, under an
 * flock(2) per set so that suites side by side build it once.
 */
#include "pdbcache.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pool_pieces.h"

static void quiet(const struct puz_pdb_progress *p, void *user)
{
    (void)p;
    (void)user;
}

int test_pdb_cached(enum puz_pdb_partition part, puz_pdb **d, char *path,
                    size_t size, char *msg)
{
    struct puz_pdb_opts o = { 2, quiet, NULL, pool_run_pieces, NULL };
    const char *build = getenv("BUILD");
    char cache[300], name[128], file[512], lock[520];
    puz_pdb *own = NULL;
    puz_err rc;
    int fd;

    snprintf(cache, sizeof(cache), "%s/pdb-cache", build ? build : "build");
    mkdir(cache, 0755);
    puz_pdb_filename(part, NULL, name, sizeof(name));
    snprintf(file, sizeof(file), "%s/%s", cache, name);
    if (path != NULL)
        snprintf(path, size, "%s", file);
    /* Only wanted cached, and there: nothing to open (a set's file
     * appears whole, by rename, or not at all: puz_pdb_save). */
    if (d == NULL && access(file, R_OK) == 0)
        return 0;
    /* Held while the set is opened: a suite that finds it missing builds
     * it (seconds) while another suite wanting it waits, then loads it.
     * The lock goes with the descriptor, also when a suite is killed. */
    snprintf(lock, sizeof(lock), "%s.lock", file);
    fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0)
        flock(fd, LOCK_EX);
    rc = puz_pdb_open(cache, part, NULL, &o, &own, msg);
    if (fd >= 0)
        close(fd);
    if (rc != PUZ_OK)
        return -1;
    if (d != NULL)
        *d = own;
    else
        puz_pdb_destroy(own);
    return 0;
}

int test_pdb_add(puz_tables *t, enum puz_pdb_partition part, char *msg)
{
    puz_pdb *d;

    if (test_pdb_cached(part, &d, NULL, 0, msg) != 0)
        return -1;
    /* the bundle owns d, also when it refuses it */
    return puz_tables_add_pdb(t, d) == PUZ_OK ? 0 : -1;
}
