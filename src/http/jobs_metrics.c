/*
 * jobs_metrics.c - the jobs' part of /metrics in the Prometheus text format,
 * from the jobs service's counters (jobsvc_get_stats), whichever backend
 * runs: jobs held by state, jobs ended by state, the duration histogram,
 * submissions refused, running jobs, open event streams; with the shared
 * backend also this instance's share of the shared jobs (runs, leases,
 * units, Redis's memory).
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

/* The shared backend's lines (redis_url set). */
static void shared(struct text *t, const struct jobsvc_stats *js,
                   unsigned open_streams)
{
    const struct jobq_stats *st = &js->q;

    add(t,
        "# HELP puzzled_shared_jobs_queued Shared jobs waiting for a "
        "worker, across the instances (redis_url).\n"
        "# TYPE puzzled_shared_jobs_queued gauge\n"
        "puzzled_shared_jobs_queued %u\n"
        "# HELP puzzled_shared_jobs_running Shared jobs running on this "
        "instance.\n# TYPE puzzled_shared_jobs_running gauge\n"
        "puzzled_shared_jobs_running %u\n"
        "# HELP puzzled_shared_jobs_taken_total Runs of shared jobs this "
        "instance started, by attempt (first, or a retry after a lease "
        "ran out).\n# TYPE puzzled_shared_jobs_taken_total counter\n"
        "puzzled_shared_jobs_taken_total{attempt=\"first\"} %llu\n"
        "puzzled_shared_jobs_taken_total{attempt=\"retry\"} %llu\n"
        "# HELP puzzled_shared_jobs_finished_total Shared jobs whose end "
        "this instance wrote.\n"
        "# TYPE puzzled_shared_jobs_finished_total counter\n"
        "puzzled_shared_jobs_finished_total %llu\n"
        "# HELP puzzled_shared_jobs_lease_lost_total Runs here that lost "
        "their lease to another instance (their end was not written).\n"
        "# TYPE puzzled_shared_jobs_lease_lost_total counter\n"
        "puzzled_shared_jobs_lease_lost_total %llu\n"
        "# HELP puzzled_shared_job_event_streams Open event streams of "
        "shared jobs.\n# TYPE puzzled_shared_job_event_streams gauge\n"
        "puzzled_shared_job_event_streams %u\n",
        js->queued, st->running,
        (unsigned long long)(st->taken - st->retaken),
        (unsigned long long)st->retaken, (unsigned long long)st->finished,
        (unsigned long long)st->lost, open_streams);
    add(t,
        "# HELP puzzled_shared_units_published_total Work units of "
        "parallel IDA* jobs run here given to the shared queue.\n"
        "# TYPE puzzled_shared_units_published_total counter\n"
        "puzzled_shared_units_published_total %llu\n"
        "# HELP puzzled_shared_units_run_total Work units this instance "
        "ran to their end, of any instance's jobs.\n"
        "# TYPE puzzled_shared_units_run_total counter\n"
        "puzzled_shared_units_run_total %llu\n"
        "# HELP puzzled_shared_units_claimed_total Work units this "
        "instance took over from a worker silent for a lease.\n"
        "# TYPE puzzled_shared_units_claimed_total counter\n"
        "puzzled_shared_units_claimed_total %llu\n"
        "# HELP puzzled_shared_units_republished_total Rounds of work "
        "units whose live key lapsed before their runner renewed it "
        "(Redis stalled or the runner starved); their unfiled units "
        "were published again.\n"
        "# TYPE puzzled_shared_units_republished_total counter\n"
        "puzzled_shared_units_republished_total %llu\n",
        (unsigned long long)st->units_published,
        (unsigned long long)st->units_run,
        (unsigned long long)st->units_claimed,
        (unsigned long long)st->units_republished);
    add(t,
        "# HELP puzzled_shared_jobs_requeued_total Jobs this instance "
        "queued again from their records after the queue was lost "
        "(FLUSHALL, the stream deleted).\n"
        "# TYPE puzzled_shared_jobs_requeued_total counter\n"
        "puzzled_shared_jobs_requeued_total %llu\n"
        "# HELP puzzled_shared_jobs_shed_total Finished jobs' answers "
        "this instance forgot because Redis was full.\n"
        "# TYPE puzzled_shared_jobs_shed_total counter\n"
        "puzzled_shared_jobs_shed_total %llu\n"
        "# HELP puzzled_shared_redis_used_bytes Redis's used_memory as "
        "last read (jobs refused from 90 %% of maxmemory).\n"
        "# TYPE puzzled_shared_redis_used_bytes gauge\n"
        "puzzled_shared_redis_used_bytes %llu\n"
        "# HELP puzzled_shared_redis_max_bytes Redis's maxmemory (0: "
        "none).\n# TYPE puzzled_shared_redis_max_bytes gauge\n"
        "puzzled_shared_redis_max_bytes %llu\n"
        "# HELP puzzled_jobs_gave_up_total Shared jobs this instance "
        "ended failed after job_max_attempts runs (dead letters).\n"
        "# TYPE puzzled_jobs_gave_up_total counter\n"
        "puzzled_jobs_gave_up_total %llu\n",
        (unsigned long long)st->requeued, (unsigned long long)st->shed,
        (unsigned long long)st->mem_used, (unsigned long long)st->mem_max,
        (unsigned long long)st->gave_up);
}

char *http_jobs_metrics_render(jobsvc *j, unsigned open_streams,
                               uint64_t finals_encoded, size_t *len)
{
    struct jobsvc_stats js;
    const struct jobs_stats *st = &js.local;
    struct text t = { NULL, 0, 0, false };

    *len = 0;
    jobsvc_get_stats(j, &js);
    t.buf = malloc(4096);
    if (t.buf == NULL)
        return NULL;
    t.cap = 4096;
    by_state(&t, st);
    histogram(&t, st);
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
        st->by_state[JOBS_RUNNING], st->workers,
        (unsigned long long)st->submitted, (unsigned long long)st->rejected,
        (unsigned long long)st->expired, js.shared ? 0 : open_streams,
        st->results_bytes, (unsigned long long)finals_encoded);
    if (js.shared)
        shared(&t, &js, open_streams);
    if (t.failed) {
        free(t.buf);
        return NULL;
    }
    *len = t.len;
    return t.buf;
}
