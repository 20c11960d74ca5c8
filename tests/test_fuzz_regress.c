/*
 * test_fuzz_regress.c - replays every input under fuzz/regress/<target>/
 * (inputs that once crashed or broke an invariant) and the seed corpus
 * fuzz/corpus/<target>/ through the fuzz targets' own entry points
 * (tests/support/fuzz_entry.c), so a fixed bug stays fixed without
 * clang or libFuzzer. Those entry points abort() on a broken invariant.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <cmocka.h>

#include "support/fuzz_entry.h"

typedef void (*entry_fn)(const uint8_t *data, size_t size);

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;

    *len = 0;
    if (f == NULL)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0
        && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n)
            *len = (size_t)n;
    }
    fclose(f);
    return buf;
}

/* Every regular file of dir through fn; returns how many. */
static unsigned replay_dir(const char *dir, entry_fn fn)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];
    unsigned count = 0;
    uint8_t *data;
    size_t len;

    if (d == NULL)
        return 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        data = slurp(path, &len);
        if (data == NULL)
            continue;
        fn(data, len);
        free(data);
        count++;
    }
    closedir(d);
    return count;
}

/* One fuzz target: its name (the folders under fuzz/), its entry point
 * and how many seeds it has at least (a lost corpus fails too). */
struct target {
    const char *name;
    entry_fn fn;
    unsigned seeds;
};

static void replay_target(void **state)
{
    const struct target *t = *state;
    char dir[256];

    snprintf(dir, sizeof(dir), "fuzz/corpus/%s", t->name);
    assert_true(replay_dir(dir, t->fn) >= t->seeds);
    snprintf(dir, sizeof(dir), "fuzz/regress/%s", t->name);
    replay_dir(dir, t->fn);
}

int main(void)
{
    static struct target decode = { "decode", fuzz_decode_one, 20 },
        board = { "board", fuzz_board_one, 20 },
        keys = { "keys", fuzz_keys_one, 3 },
        daily = { "daily", fuzz_daily_one, 5 },
        daily_entry = { "daily_entry", fuzz_daily_entry_one, 15 };
    const struct CMUnitTest tests[] = {
        { "decode_inputs", replay_target, NULL, NULL, &decode },
        { "board_inputs", replay_target, NULL, NULL, &board },
        { "keys_inputs", replay_target, NULL, NULL, &keys },
        { "daily_inputs", replay_target, NULL, NULL, &daily },
        { "daily_entry_inputs", replay_target, NULL, NULL, &daily_entry },
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
