/*
 * http_metrics.h - the service's counters and histograms, and their
 * Prometheus text exposition (format 0.0.4) for GET /metrics.
 *
 * Every update is a relaxed atomic add on fixed arrays: no lock, no
 * allocation, safe from network and worker threads alike. Label sets
 * are bounded by construction (route templates, a fixed list of status
 * codes), so a client cannot blow up the series count.
 */
#ifndef HTTP_METRICS_H
#define HTTP_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "puz_err.h"
#include "puz_solve.h"

#define HTTP_METRICS_MAX_ROUTES 24

typedef struct http_metrics http_metrics;

/* Gauges sampled at render time by the caller. */
struct http_metrics_gauges {
    unsigned queue_depth, queue_capacity;
    unsigned workers, workers_busy;
    unsigned http_threads;      /* network threads running */
    unsigned requests_in_flight;
    uint64_t queue_rejected;
    size_t arena_cached_bytes;  /* idle arenas kept for reuse */
    size_t tables_bytes;        /* shared read-only tables */
    int ready;                  /* 1 when /readyz says ready */
    unsigned connections_open;  /* connections held now */
    uint64_t connections_refused;   /* past max_connections (per IP too) */
    uint64_t connections_reclaimed; /* idle ones shut at max_connections */
    uint64_t cut_head, cut_body;    /* requests past a deadline */
    uint64_t abandoned;         /* clients that hung up mid-solve */
};

/* routes[0..n-1] are the label values of the route index passed to
 * http_metrics_request (static strings, n <= HTTP_METRICS_MAX_ROUTES). */
puz_err http_metrics_create(const char *const *routes, size_t n,
                            http_metrics **out);
void http_metrics_destroy(http_metrics *m);

/* One finished HTTP request. */
void http_metrics_request(http_metrics *m, unsigned route, unsigned status,
                          uint64_t duration_us);
/* One finished solve (a batch counts each board). */
void http_metrics_solve(http_metrics *m, enum puz_status status,
                        uint64_t time_us, uint64_t expanded);
/* Peak arena bytes of one finished request. */
void http_metrics_arena(http_metrics *m, size_t peak_bytes);

/* The exposition text; heap string the caller frees. NULL on ENOMEM. */
char *http_metrics_render(const http_metrics *m,
                          const struct http_metrics_gauges *g,
                          size_t *len);

#endif
