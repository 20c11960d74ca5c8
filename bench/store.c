/*
 * store.c - the store's round trip (store.h), embedded against shared:
 * N entries (distinct addresses and networks, so no limit refuses one),
 * then N reads of the top 10 and N counts, each call timed on the wall
 * clock from this thread. Prints p50, p99 and the mean per kind of call
 * and backend.
 *
 * usage: store [--count N] [--dir DIR] [--redis-url URL]
 * Without --redis-url only the embedded store (in DIR, default a fresh
 * directory under /tmp) is measured. For a Redis of your own:
 *   redis-server --port 0 --unixsocket /tmp/r.sock --save '' &
 *   build/bench/store --redis-url unix:///tmp/r.sock
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store.h"

static double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

static void report(const char *backend, const char *what, double *t,
                   unsigned n)
{
    double sum = 0;

    for (unsigned i = 0; i < n; i++)
        sum += t[i];
    qsort(t, n, sizeof(*t), cmp);
    printf("%-8s %-6s n=%u p50 %.1f us  p99 %.1f us  mean %.1f us\n",
           backend, what, n, t[n / 2], t[n * 99 / 100], sum / n);
}

static int run(store *s, const char *name, unsigned n)
{
    double *t = calloc(n, sizeof(*t));
    struct store_entry top[10];
    char client[32], msg[PUZ_MSG_MAX];
    struct store_placed placed;
    unsigned count;

    if (t == NULL)
        return 1;
    for (unsigned i = 0; i < n; i++) {
        char nick[24], token[STORE_TOKEN_HEX + 1];
        struct store_submission e = { "2026-12-04", 4, nick, 40 + i % 50,
                                      false, token, client, false };
        double t0;

        snprintf(client, sizeof(client), "10.%u.%u.1", 100 + i / 256,
                 i % 256);
        snprintf(nick, sizeof(nick), "bench%u", i);
        t0 = now_us();
        /* Started a minute before: a person's pace (the move floor). */
        if (store_daily_start(s, e.day, e.size, client, 940000, token, msg)
            != PUZ_OK || store_daily_add(s, &e, 1001000 + i, &placed, msg)
            != PUZ_OK) {
            fprintf(stderr, "store: entry %u: %s\n", i, msg);
            free(t);
            return 1;
        }
        t[i] = now_us() - t0;
    }
    report(name, "start+add", t, n);
    for (unsigned i = 0; i < n; i++) {
        double t0 = now_us();
        store_daily_top(s, "2026-12-04", 4, top, 10, &count, msg);
        t[i] = now_us() - t0;
    }
    report(name, "top10", t, n);
    for (unsigned i = 0; i < n; i++) {
        double t0 = now_us();
        store_daily_count(s, "2026-12-04", 4, &count, msg);
        t[i] = now_us() - t0;
    }
    report(name, "count", t, n);
    free(t);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned n = 2000;
    const char *url = NULL, *dir = NULL;
    char tmp[64] = "/tmp/puzzled-bench-store-XXXXXX", msg[PUZ_MSG_MAX];
    store *s = NULL;
    int rc;

    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--count") == 0)
            n = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--dir") == 0)
            dir = argv[i + 1];
        else if (strcmp(argv[i], "--redis-url") == 0)
            url = argv[i + 1];
    }
    if (n == 0 || n > STORE_DAY_ENTRIES_MAX)
        n = 2000;
    if (dir == NULL && (dir = mkdtemp(tmp)) == NULL)
        return 1;
    if (store_open(dir, &s, msg) != PUZ_OK) {
        fprintf(stderr, "store: %s\n", msg);
        return 1;
    }
    rc = run(s, "embedded", n);
    store_close(s);
    if (url != NULL && rc == 0) {
        char prefix[48];
        struct store_options o = { .redis_url = url,
                                   .redis_prefix = prefix,
                                   .timeout_ms = 1000 };

        snprintf(prefix, sizeof(prefix), "bench%ld:", (long)getpid());
        if (store_start(&o, &s, msg) != PUZ_OK || !store_ready(s, msg)) {
            fprintf(stderr, "store: %s: %s\n", url, msg);
            store_close(s);
            return 1;
        }
        rc = run(s, "shared", n);
        store_close(s);
    }
    return rc;
}
