/*
 * version.c - puz_version(): the library's release at run time, so a
 * program linked to libpuzzled.so can tell which one it got.
 */
#include "puz_version.h"

const char *puz_version(void)
{
    return PUZ_VERSION;
}
