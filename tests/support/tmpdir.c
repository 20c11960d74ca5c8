/*
 * tmpdir.c - a test's own directory under /tmp (tmpdir.h).
 */
#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>

int tmpdir_make(char *dir, size_t size, const char *name)
{
    snprintf(dir, size, "/tmp/puzzled-%s-XXXXXX", name);
    return mkdtemp(dir) == NULL ? -1 : 0;
}

int tmpdir_remove(const char *dir)
{
    char cmd[4200];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}
