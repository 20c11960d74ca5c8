/*
 * tmpdir.h - a test's directory of its own under /tmp (a store's state
 * directory, a cache), made at setup and removed with all in it at
 * teardown.
 */
#ifndef TEST_TMPDIR_H
#define TEST_TMPDIR_H

#include <stddef.h>

/* Makes /tmp/puzzled-NAME-XXXXXX into dir (size bytes); 0, or -1 as a
 * cmocka setup returns it. */
int tmpdir_make(char *dir, size_t size, const char *name);

/* Removes dir and everything in it; 0, or -1. */
int tmpdir_remove(const char *dir);

#endif
