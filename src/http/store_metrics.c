/*
 * store_metrics.c - the store's part of /metrics (Prometheus text): is
 * it up, the round trip of its calls as a histogram, the calls that
 * failed and took it down, and how often it came back. Empty without a
 * store (state_dir = off and no redis_url).
 */
#include "http_int.h"

#include <stdio.h>
#include <stdlib.h>

#define STORE_METRICS_MAX 2048

char *http__store_metrics_render(store *st, size_t *len)
{
    struct store_stats s;
    char *buf = malloc(STORE_METRICS_MAX);
    const char *b;
    size_t n = 0;

    *len = 0;
    if (buf == NULL || st == NULL)
        return buf;
    store_get_stats(st, &s);
    b = store_backend(st);
    n += (size_t)snprintf(buf + n, STORE_METRICS_MAX - n,
        "# HELP puzzled_store_up 1 when the store (the daily leaderboard) "
        "answers, by backend (embedded = SQLite, shared = Redis).\n"
        "# TYPE puzzled_store_up gauge\n"
        "puzzled_store_up{backend=\"%s\"} %d\n"
        "# HELP puzzled_store_request_duration_seconds Round trip of the "
        "store's calls.\n"
        "# TYPE puzzled_store_request_duration_seconds histogram\n",
        b, store_ready(st, NULL) ? 1 : 0);
    for (int i = 0; i < STORE_LATENCY_BUCKETS && n < STORE_METRICS_MAX; i++)
        n += (size_t)snprintf(buf + n, STORE_METRICS_MAX - n,
            "puzzled_store_request_duration_seconds_bucket{le=\"%g\"} "
            "%llu\n", store_latency_bounds_s[i],
            (unsigned long long)s.latency_le[i]);
    if (n < STORE_METRICS_MAX)
        n += (size_t)snprintf(buf + n, STORE_METRICS_MAX - n,
            "puzzled_store_request_duration_seconds_bucket{le=\"+Inf\"} "
            "%llu\n"
            "puzzled_store_request_duration_seconds_sum %.6f\n"
            "puzzled_store_request_duration_seconds_count %llu\n"
            "# HELP puzzled_store_errors_total Store calls that failed "
            "(the store is then down until it reconnects).\n"
            "# TYPE puzzled_store_errors_total counter\n"
            "puzzled_store_errors_total %llu\n"
            "# HELP puzzled_store_reconnects_total Times the store came "
            "back after being down.\n"
            "# TYPE puzzled_store_reconnects_total counter\n"
            "puzzled_store_reconnects_total %llu\n",
            (unsigned long long)s.calls, (double)s.latency_us_sum / 1e6,
            (unsigned long long)s.calls, (unsigned long long)s.errors,
            (unsigned long long)s.reconnects);
    *len = n < STORE_METRICS_MAX ? n : STORE_METRICS_MAX - 1;
    return buf;
}
