/*
 * jobs_metrics.c - the jobs' part of /metrics in the Prometheus text format:
 * jobs held by state, jobs ended by state, the duration histogram,
 * submissions refused, running jobs, open event streams.
 */
#include "http_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct text {
    char *buf;
    size_t len, cap;
    bool failed;
};

static void add(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    for (int tries = 0; tries < 2 && !t->failed; tries++) {
        va_start(ap, fmt);
        n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
        } else if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        } else {
            size_t want = (t->cap + (size_t)n + 1) * 2;
            char *grown = realloc(t->buf, want);
            if (grown == NULL)
                t->failed = true;
            t->buf = grown != NULL ? grown : t->buf;
            t->cap = grown != NULL ? want : t->cap;
        }
    }
}

static void by_state(struct text *t, const struct jobs_stats *st)
{
    add(t, "# HELP puzzled_jobs Jobs held in memory, by state.\n"
        "# TYPE puzzled_jobs gauge\n");
    for (int s = 0; s < JOBS_STATE_COUNT_; s++)
        add(t, "puzzled_jobs{state=\"%s\"} %u\n",
            jobs_state_name((enum jobs_state)s), st->by_state[s]);
    add(t, "# HELP puzzled_jobs_finished_total Jobs that ended, by final "
        "state.\n# TYPE puzzled_jobs_finished_total counter\n");
    for (int s = JOBS_DONE; s < JOBS_STATE_COUNT_; s++)
        add(t, "puzzled_jobs_finished_total{state=\"%s\"} %llu\n",
            jobs_state_name((enum jobs_state)s),
            (unsigned long long)st->finished[s]);
}

static void histogram(struct text *t, const struct jobs_stats *st)
{
    uint64_t cum = 0, total = 0;

    for (int b = 0; b <= JOBS_HIST_BUCKETS; b++)
        total += st->hist[b];
    add(t, "# HELP puzzled_job_duration_seconds Run time of ended jobs "
        "(start to end; never started: 0).\n"
        "# TYPE puzzled_job_duration_seconds histogram\n");
    for (int b = 0; b < JOBS_HIST_BUCKETS; b++) {
        cum += st->hist[b];
        add(t, "puzzled_job_duration_seconds_bucket{le=\"%g\"} %llu\n",
            jobs_hist_bounds[b], (unsigned long long)cum);
    }
    add(t, "puzzled_job_duration_seconds_bucket{le=\"+Inf\"} %llu\n"
        "puzzled_job_duration_seconds_sum %.6f\n"
        "puzzled_job_duration_seconds_count %llu\n",
        (unsigned long long)total, st->duration_sum_s,
        (unsigned long long)total);
}

char *http_jobs_metrics_render(jobs_t *j, unsigned open_streams,
                               uint64_t finals_encoded, size_t *len)
{
    struct jobs_stats st;
    struct text t = { NULL, 0, 0, false };

    *len = 0;
    jobs_get_stats(j, &st);
    t.buf = malloc(4096);
    if (t.buf == NULL)
        return NULL;
    t.cap = 4096;
    by_state(&t, &st);
    histogram(&t, &st);
    add(&t, "# HELP puzzled_jobs_running Jobs running now.\n"
        "# TYPE puzzled_jobs_running gauge\npuzzled_jobs_running %u\n"
        "# HELP puzzled_job_workers Threads running jobs.\n"
        "# TYPE puzzled_job_workers gauge\npuzzled_job_workers %u\n"
        "# HELP puzzled_jobs_submitted_total Jobs accepted.\n"
        "# TYPE puzzled_jobs_submitted_total counter\n"
        "puzzled_jobs_submitted_total %llu\n"
        "# HELP puzzled_jobs_rejected_total Jobs refused (queue or "
        "job_max full, or shutting down).\n"
        "# TYPE puzzled_jobs_rejected_total counter\n"
        "puzzled_jobs_rejected_total %llu\n"
        "# HELP puzzled_jobs_expired_total Finished jobs forgotten after "
        "job_ttl_s.\n# TYPE puzzled_jobs_expired_total counter\n"
        "puzzled_jobs_expired_total %llu\n"
        "# HELP puzzled_job_event_streams Open job event streams.\n"
        "# TYPE puzzled_job_event_streams gauge\n"
        "puzzled_job_event_streams %u\n"
        "# HELP puzzled_job_results_bytes Answer bytes finished jobs "
        "hold (at most job_results_max_bytes).\n"
        "# TYPE puzzled_job_results_bytes gauge\n"
        "puzzled_job_results_bytes %zu\n"
        "# HELP puzzled_job_final_events_encoded_total Final job events "
        "encoded (once for all the streams of a job).\n"
        "# TYPE puzzled_job_final_events_encoded_total counter\n"
        "puzzled_job_final_events_encoded_total %llu\n",
        st.by_state[JOBS_RUNNING], st.workers,
        (unsigned long long)st.submitted, (unsigned long long)st.rejected,
        (unsigned long long)st.expired, open_streams, st.results_bytes,
        (unsigned long long)finals_encoded);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    *len = t.len;
    return t.buf;
}
