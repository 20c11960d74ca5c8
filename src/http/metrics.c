/*
 * metrics.c - atomic counters and fixed-bucket histograms, rendered in
 * the Prometheus text format. Values are kept in integer base units
 * (microseconds, nodes, bytes) and scaled only when printed.
 */
#include "http_metrics.h"

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

typedef atomic_uint_fast64_t counter;

struct histogram {
    const char *name;
    const char *help;
    double scale;                   /* printed value = raw / scale */
    const uint64_t *bounds;         /* upper bounds, raw units */
    size_t n;
    counter buckets[MAX_BUCKETS + 1];   /* last: above every bound */
    counter sum;
    counter count;
};

struct http_metrics {
    const char *const *routes;
    size_t nroutes;
    counter requests[HTTP_METRICS_MAX_ROUTES][NCODES + 1];
    counter solves[NSTATUS];
    struct histogram http_time;
    struct histogram solve_time;
    struct histogram expanded;
    struct histogram arena;
    time_t started;
};

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

static void hist_observe(struct histogram *h, uint64_t v)
{
    size_t i = 0;

    while (i < h->n && v > h->bounds[i])
        i++;
    atomic_fetch_add_explicit(&h->buckets[i], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->sum, v, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->count, 1, memory_order_relaxed);
}

puz_err http_metrics_create(const char *const *routes, size_t n,
                            http_metrics **out)
{
    http_metrics *m;

    *out = NULL;
    if (n > HTTP_METRICS_MAX_ROUTES)
        return PUZ_EINVAL;
    m = calloc(1, sizeof(*m));
    if (m == NULL)
        return PUZ_ENOMEM;
    m->routes = routes;
    m->nroutes = n;
    m->started = time(NULL);
    hist_init(&m->http_time, "puzzled_http_request_duration_seconds",
              "Time from request headers to response queued.", 1e6,
              time_bounds, sizeof(time_bounds) / sizeof(time_bounds[0]));
    hist_init(&m->solve_time, "puzzled_solve_duration_seconds",
              "Wall-clock time of one solve on a worker.", 1e6,
              time_bounds, sizeof(time_bounds) / sizeof(time_bounds[0]));
    hist_init(&m->expanded, "puzzled_solve_expanded_nodes",
              "Nodes expanded by one solve.", 1.0, node_bounds,
              sizeof(node_bounds) / sizeof(node_bounds[0]));
    hist_init(&m->arena, "puzzled_request_arena_bytes",
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
    atomic_fetch_add_explicit(&m->requests[route][c], 1,
                              memory_order_relaxed);
    hist_observe(&m->http_time, duration_us);
}

void http_metrics_solve(http_metrics *m, enum puz_status status,
                        uint64_t time_us, uint64_t expanded)
{
    if ((unsigned)status < NSTATUS)
        atomic_fetch_add_explicit(&m->solves[status], 1,
                                  memory_order_relaxed);
    hist_observe(&m->solve_time, time_us);
    hist_observe(&m->expanded, expanded);
}

void http_metrics_arena(http_metrics *m, size_t peak_bytes)
{
    hist_observe(&m->arena, peak_bytes);
}

static uint64_t load(const counter *c)
{
    return atomic_load_explicit(c, memory_order_relaxed);
}

static void render_hist(FILE *f, const struct histogram *h)
{
    uint64_t cum = 0;

    fprintf(f, "# HELP %s %s\n# TYPE %s histogram\n", h->name, h->help,
            h->name);
    for (size_t i = 0; i < h->n; i++) {
        cum += load(&h->buckets[i]);
        fprintf(f, "%s_bucket{le=\"%g\"} %llu\n", h->name,
                (double)h->bounds[i] / h->scale, (unsigned long long)cum);
    }
    cum += load(&h->buckets[h->n]);
    fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n",
            h->name, (unsigned long long)cum, h->name,
            (double)load(&h->sum) / h->scale, h->name,
            (unsigned long long)load(&h->count));
}

static void render_requests(FILE *f, const http_metrics *m)
{
    fprintf(f, "# HELP puzzled_http_requests_total HTTP requests answered, "
            "by route and status code.\n"
            "# TYPE puzzled_http_requests_total counter\n");
    for (size_t r = 0; r < m->nroutes; r++) {
        for (size_t c = 0; c <= NCODES; c++) {
            uint64_t v = load(&m->requests[r][c]);
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
                (unsigned long long)load(&m->solves[s]));
    }
}

static void gauge(FILE *f, const char *name, const char *help,
                  unsigned long long v)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n%s %llu\n", name, help,
            name, name, v);
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
    render_hist(f, &m->http_time);
    render_solves(f, m);
    render_hist(f, &m->solve_time);
    render_hist(f, &m->expanded);
    render_hist(f, &m->arena);
    render_gauges(f, m, g);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
