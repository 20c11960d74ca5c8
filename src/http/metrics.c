/*
 * metrics.c - atomic counters and fixed-bucket histograms, rendered in
 * the Prometheus text format. Values are kept in integer base units
 * (microseconds, nodes, bytes) and scaled only when printed.
 *
 * Every request adds to a dozen counters. One set shared by all threads
 * would bounce its cache lines between the cores on every request, so
 * each thread adds to its own shard (a cache-line aligned copy of every
 * count) and a scrape sums the shards.
 */
#include "http_metrics.h"
#include "puz_clock.h"
#include "puz_version.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>

/* The codes puzzled itself answers with; anything else is "other". */
static const unsigned codes[] = {
    200, 202, 204, 304, 400, 404, 405, 408, 413, 415, 422, 499, 500,
    501, 503, 507,
};
#define NCODES (sizeof(codes) / sizeof(codes[0]))
#define NSTATUS 8
#define MAX_BUCKETS 16
#define NSHARDS 8       /* threads beyond 8 share shards: still correct */

typedef atomic_uint_fast64_t counter;

enum { H_HTTP_TIME, H_SOLVE_TIME, H_EXPANDED, H_ARENA, NHIST };

struct histogram {
    const char *name;
    const char *help;
    double scale;                   /* printed value = raw / scale */
    const uint64_t *bounds;         /* upper bounds, raw units */
    size_t n;
};

struct hist_counts {
    counter buckets[MAX_BUCKETS + 1];   /* last: above every bound */
    counter sum;
    counter count;
};

struct shard {
    _Alignas(64) counter requests[HTTP_METRICS_MAX_ROUTES][NCODES + 1];
    counter solves[NSTATUS];
    struct hist_counts hist[NHIST];
};

struct http_metrics {
    struct shard shards[NSHARDS];   /* first: aligned like a shard */
    const char *const *routes;
    size_t nroutes;
    struct histogram hist[NHIST];
    time_t started;
};

/* The calling thread's shard: threads take them in turn as they first
 * count something. */
static struct shard *my_shard(http_metrics *m)
{
    static atomic_uint next;
    static _Thread_local unsigned mine = NSHARDS;

    if (mine == NSHARDS)
        mine = atomic_fetch_add(&next, 1) % NSHARDS;
    return &m->shards[mine];
}

static const uint64_t time_bounds[] = {
    100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000,
    250000, 500000, 1000000, 2500000, 10000000, 30000000,
};
static const uint64_t node_bounds[] = {
    10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
    1000000000,
};
static const uint64_t byte_bounds[] = {
    4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
    268435456, 1073741824,
};

static void hist_init(struct histogram *h, const char *name,
                      const char *help, double scale,
                      const uint64_t *bounds, size_t n)
{
    h->name = name;
    h->help = help;
    h->scale = scale;
    h->bounds = bounds;
    h->n = n;
}

static void hist_observe(http_metrics *m, unsigned which, uint64_t v)
{
    const struct histogram *h = &m->hist[which];
    struct hist_counts *c = &my_shard(m)->hist[which];
    size_t i = 0;

    while (i < h->n && v > h->bounds[i])
        i++;
    /* relaxed: a scrape may see a count a moment before its sum */
    atomic_fetch_add_explicit(&c->buckets[i], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->sum, v, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->count, 1, memory_order_relaxed);
}

puz_err http_metrics_create(const char *const *routes, size_t n,
                            http_metrics **out)
{
    http_metrics *m;

    *out = NULL;
    if (n > HTTP_METRICS_MAX_ROUTES)
        return PUZ_EINVAL;
    /* aligned so that no two shards share a cache line */
    m = aligned_alloc(_Alignof(http_metrics),
                      (sizeof(*m) + _Alignof(http_metrics) - 1)
                      / _Alignof(http_metrics) * _Alignof(http_metrics));
    if (m == NULL)
        return PUZ_ENOMEM;
    memset(m, 0, sizeof(*m));
    m->routes = routes;
    m->nroutes = n;
    m->started = (time_t)(puz_clock_wall_ms() / 1000);
    hist_init(&m->hist[H_HTTP_TIME], "puzzled_http_request_duration_seconds",
              "Time from request headers to response queued.", 1e6,
              time_bounds, sizeof(time_bounds) / sizeof(time_bounds[0]));
    hist_init(&m->hist[H_SOLVE_TIME], "puzzled_solve_duration_seconds",
              "Wall-clock time of one solve on a worker.", 1e6,
              time_bounds, sizeof(time_bounds) / sizeof(time_bounds[0]));
    hist_init(&m->hist[H_EXPANDED], "puzzled_solve_expanded_nodes",
              "Nodes expanded by one solve.", 1.0, node_bounds,
              sizeof(node_bounds) / sizeof(node_bounds[0]));
    hist_init(&m->hist[H_ARENA], "puzzled_request_arena_bytes",
              "Peak arena bytes of one request.", 1.0, byte_bounds,
              sizeof(byte_bounds) / sizeof(byte_bounds[0]));
    *out = m;
    return PUZ_OK;
}

void http_metrics_destroy(http_metrics *m)
{
    free(m);
}

void http_metrics_request(http_metrics *m, unsigned route, unsigned status,
                          uint64_t duration_us)
{
    size_t c = 0;

    if (route >= m->nroutes)
        return;
    while (c < NCODES && codes[c] != status)
        c++;
    atomic_fetch_add_explicit(&my_shard(m)->requests[route][c], 1,
                              memory_order_relaxed);
    hist_observe(m, H_HTTP_TIME, duration_us);
}

void http_metrics_solve(http_metrics *m, enum puz_status status,
                        uint64_t time_us, uint64_t expanded)
{
    if ((unsigned)status < NSTATUS)
        atomic_fetch_add_explicit(&my_shard(m)->solves[status], 1,
                                  memory_order_relaxed);
    hist_observe(m, H_SOLVE_TIME, time_us);
    hist_observe(m, H_EXPANDED, expanded);
}

void http_metrics_arena(http_metrics *m, size_t peak_bytes)
{
    hist_observe(m, H_ARENA, peak_bytes);
}

/* A counter summed over the shards: the counter at offset off (bytes)
 * of each. */
static uint64_t total(const http_metrics *m, const counter *first)
{
    size_t off = (size_t)((const char *)first
                          - (const char *)&m->shards[0]);
    uint64_t sum = 0;

    for (unsigned k = 0; k < NSHARDS; k++)
        sum += atomic_load_explicit((const counter *)(const void *)
                                    ((const char *)&m->shards[k] + off),
                                    memory_order_relaxed);
    return sum;
}

static void render_hist(FILE *f, const http_metrics *m, unsigned which)
{
    const struct histogram *h = &m->hist[which];
    const struct hist_counts *c = &m->shards[0].hist[which];
    uint64_t cum = 0;

    fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", h->name, h->help,
            h->name);
    for (size_t i = 0; i < h->n; i++) {
        cum += total(m, &c->buckets[i]);
        fprintf(f, "%s_bucket{le=\"%g\"} %llu\n", h->name,
                (double)h->bounds[i] / h->scale, (unsigned long long)cum);
    }
    cum += total(m, &c->buckets[h->n]);
    fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n",
            h->name, (unsigned long long)cum, h->name,
            (double)total(m, &c->sum) / h->scale, h->name,
            (unsigned long long)total(m, &c->count));
}

static void render_requests(FILE *f, const http_metrics *m)
{
    fprintf(f, "# HELP puzzled_http_requests_total HTTP requests answered, "
            "by route and status code.\n"
            "# TYPE puzzled_http_requests_total counter\n");
    for (size_t r = 0; r < m->nroutes; r++) {
        for (size_t c = 0; c <= NCODES; c++) {
            uint64_t v = total(m, &m->shards[0].requests[r][c]);
            char code[16];

            if (v == 0)
                continue;
            if (c < NCODES)
                snprintf(code, sizeof(code), "%u", codes[c]);
            else
                snprintf(code, sizeof(code), "other");
            fprintf(f, "puzzled_http_requests_total{route=\"%s\","
                    "code=\"%s\"} %llu\n", m->routes[r], code,
                    (unsigned long long)v);
        }
    }
}

static void render_solves(FILE *f, const http_metrics *m)
{
    fprintf(f, "# HELP puzzled_solves_total Solves finished, by result "
            "status.\n# TYPE puzzled_solves_total counter\n");
    for (unsigned s = 0; s < NSTATUS; s++) {
        const char *name = puz_status_name((enum puz_status)s);

        if (name == NULL || strcmp(name, "unknown") == 0)
            continue;
        fprintf(f, "puzzled_solves_total{status=\"%s\"} %llu\n", name,
                (unsigned long long)total(m, &m->shards[0].solves[s]));
    }
}

static void gauge(FILE *f, const char *name, const char *help,
                  unsigned long long v)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n%s %llu\n", name, help,
            name, name, v);
}

static void count_line(FILE *f, const char *name, const char *help,
                       uint64_t v)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s counter\n%s %llu\n", name, help,
            name, name, (unsigned long long)v);
}

static void render_gauges(FILE *f, const http_metrics *m,
                          const struct http_metrics_gauges *g)
{
    gauge(f, "puzzled_queue_depth", "Solve jobs waiting for a worker.",
          g->queue_depth);
    gauge(f, "puzzled_queue_capacity", "Jobs the queue holds before 503.",
          g->queue_capacity);
    fprintf(f, "# HELP puzzled_queue_rejected_total Jobs refused with 503 "
            "because the queue was full.\n# TYPE puzzled_queue_rejected_total"
            " counter\npuzzled_queue_rejected_total %llu\n",
            (unsigned long long)g->queue_rejected);
    gauge(f, "puzzled_workers", "Solver threads.", g->workers);
    gauge(f, "puzzled_workers_busy", "Solver threads running a job.",
          g->workers_busy);
    gauge(f, "puzzled_http_threads", "Network threads (http_threads; "
          "0 there means half the cores).", g->http_threads);
    gauge(f, "puzzled_http_requests_in_flight", "Requests being read, "
          "solved or written.", g->requests_in_flight);
    gauge(f, "puzzled_arena_cached_bytes", "Bytes held by idle request "
          "arenas kept for reuse.", g->arena_cached_bytes);
    gauge(f, "puzzled_tables_bytes", "Bytes of shared read-only tables.",
          g->tables_bytes);
    gauge(f, "puzzled_ready", "1 when /readyz reports ready.",
          (unsigned long long)g->ready);
    gauge(f, "process_start_time_seconds", "Start time, Unix seconds.",
          (unsigned long long)m->started);
    gauge(f, "puzzled_connections_open", "Connections held now.",
          g->connections_open);
    count_line(f, "puzzled_connections_refused_total", "Connections refused "
               "with a 503 past max_connections(_per_ip).",
               g->connections_refused);
    count_line(f, "puzzled_connections_reclaimed_total", "Idle connections "
               "shut at max_connections to let a new one in.",
               g->connections_reclaimed);
    fprintf(f, "# HELP puzzled_requests_cut_total Requests cut off past "
            "their deadline, by part.\n# TYPE puzzled_requests_cut_total "
            "counter\npuzzled_requests_cut_total{part=\"head\"} %llu\n"
            "puzzled_requests_cut_total{part=\"body\"} %llu\n",
            (unsigned long long)g->cut_head, (unsigned long long)g->cut_body);
    count_line(f, "puzzled_requests_abandoned_total", "Clients that hung "
               "up while their solve was pending (logged 499).",
               g->abandoned);
}

char *http_metrics_render(const http_metrics *m,
                          const struct http_metrics_gauges *g,
                          size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);

    if (f == NULL)
        return NULL;
    render_requests(f, m);
    render_hist(f, m, H_HTTP_TIME);
    render_solves(f, m);
    render_hist(f, m, H_SOLVE_TIME);
    render_hist(f, m, H_EXPANDED);
    render_hist(f, m, H_ARENA);
    render_gauges(f, m, g);
    /* The usual Prometheus idiom: a constant 1 whose label says which
     * release answers, so a dashboard can join any series on it. */
    fprintf(f, "# HELP puzzled_build_info The release running (its "
            "version label); always 1.\n# TYPE puzzled_build_info gauge\n"
            "puzzled_build_info{version=\"%s\"} 1\n", PUZ_VERSION);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
