/*
 * jobq_stream.c - Server-Sent Events of shared jobs (http_jobq.h) on
 * libmicrohttpd callback responses: the events come from the job's
 * Redis stream, and the SSE id of each is its stream id.
 *
 * Who touches a stream: the content reader (network thread) while the
 * connection runs, the pump while it is suspended. The reader suspends
 * (under the set's lock, streams.c) when it has nothing to send; only the pump resumes, and
 * it fills a stream's buffer only while the stream is suspended, so the
 * Redis reads happen outside the lock on a stream nobody else uses.
 */
#include "http_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api.h"
#include "http_sse.h"

#define EVENTS_A_ROUND 16
#define WAKE_MAX 64

struct jstream {
    struct http__stream base;       /* first: the set's list and caps */
    http_jstreams *owner;
    struct MHD_Connection *conn;
    char job[JOBS_ID_LEN + 1];
    char last[JOBQ_EVENT_ID_MAX];   /* last event id sent; "" none yet */
    uint64_t opened_us, last_write_us;
    bool started, ended, suspended, pumping;
    struct http__pending out;      /* bytes not yet sent */
};

struct http_jstreams {
    struct http__stream_set set;    /* the streams, their lock, the pump */
    jobq_t *q;
};

/* Room for n more pending bytes. */
static bool reserve(struct jstream *st, size_t n)
{
    return http__pending_reserve(&st->out, n);
}

/* One event as "id: ..." and its body; a final one with the job's
 * answer read now. */
static bool queue_event(struct jstream *st, const struct jobq_event *e)
{
    bool final = strcmp(e->type, "progress") != 0;
    struct jobs_view v = e->v;
    char *result = NULL, *data = NULL, msg[PUZ_MSG_MAX];
    bool found = true, ok;
    size_t n = 0;

    if (final && (jobq_find(st->owner->q, st->job, &v, &result, &found, msg)
                  != PUZ_OK || !found))
        return false;
    ok = api_jobs_view_event(&v, final, &data, &n);
    free(result);
    if (ok) {
        char *text = realloc(data, n + 1);

        ok = text != NULL;
        data = text != NULL ? text : data;
    }
    if (ok) {
        data[n] = '\0';
        ok = reserve(st, n + n / 8 + 160);
    }
    if (ok) {
        st->out.len += (size_t)snprintf(st->out.buf + st->out.len, st->out.cap - st->out.len,
                                    "id: %s\n", e->id);
        ok = http_sse_event_body(st->out.buf, st->out.cap, &st->out.len, e->type,
                                 data) == 0;
    }
    free(data);
    if (ok) {
        memcpy(st->last, e->id, sizeof(st->last));
        st->last[sizeof(st->last) - 1] = '\0';
        st->ended = final;
    }
    return ok;
}

/* A comment line, and the end of the stream when end is true. */
static void queue_comment(struct jstream *st, const char *text, bool end)
{
    if (reserve(st, strlen(text) + 8))
        http_sse_comment(st->out.buf, st->out.cap, &st->out.len, text);
    st->ended = st->ended || end;
}

/* What is new for a suspended stream (no lock held: the stream is the
 * pump's until it resumes it). */
static void pump_one(http_jstreams *s, struct jstream *st, uint64_t now)
{
    struct jobq_event ev[EVENTS_A_ROUND];
    char msg[PUZ_MSG_MAX];
    size_t n = 0;
    bool gone = false;
    uint64_t life = (uint64_t)s->set.lim.lifetime_s * 1000000u;

    if (jobq_events(s->q, st->job, st->last[0] ? st->last : NULL, ev,
                    EVENTS_A_ROUND, &n, &gone, msg) != PUZ_OK) {
        /* Redis away: end; the client reconnects (and gets a 503 until
         * it is back), then continues from its Last-Event-ID. */
        queue_comment(st, "the shared store is unavailable: reconnect "
                      "with Last-Event-ID", true);
        return;
    }
    for (size_t i = 0; i < n && !st->ended; i++)
        if (!queue_event(st, &ev[i])) {
            queue_comment(st, "out of memory", true);
            return;
        }
    if (n == 0 && gone)
        queue_comment(st, "the job is gone", true);
    else if (!st->ended && life != 0 && now - st->opened_us >= life)
        queue_comment(st, "stream lifetime over (stream_max_s): reconnect "
                      "with Last-Event-ID", true);
    else if (st->out.len == st->out.off
             && now - st->last_write_us >= HTTP_JOBS_HEARTBEAT_MS * 1000u)
        queue_comment(st, "heartbeat", false);
    if (st->out.len != st->out.off)
        st->last_write_us = now;
}

/* One round: every suspended stream looked at, those with bytes (or
 * all, when closing) resumed. */
static void pump_round(http_jstreams *s)
{
    struct jstream *mine[WAKE_MAX];
    unsigned n = 0;
    uint64_t now = puz_clock_mono_us();
    bool closing;

    pthread_mutex_lock(&s->set.lock);
    closing = s->set.closing;
    for (struct http__stream *b = s->set.head; b != NULL && n < WAKE_MAX;
         b = b->next) {
        struct jstream *st = (struct jstream *)b;
        if (st->suspended && !st->pumping) {
            st->pumping = true;
            mine[n++] = st;
        }
    }
    pthread_mutex_unlock(&s->set.lock);
    for (unsigned i = 0; i < n; i++) {
        struct jstream *st = mine[i];
        bool wake;

        if (!closing)
            pump_one(s, st, now);
        pthread_mutex_lock(&s->set.lock);
        st->pumping = false;
        wake = closing || st->ended || st->out.len != st->out.off;
        if (closing)
            st->ended = true;
        if (wake)
            st->suspended = false;
        pthread_mutex_unlock(&s->set.lock);
        if (wake)
            MHD_resume_connection(st->conn);
    }
}

static void *pump(void *arg)
{
    http_jstreams *s = arg;

    do {
        pump_round(s);
        usleep(HTTP_JOBQ_POLL_MS * 1000);
    } while (!http__set_stopping(&s->set));
    return NULL;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct jstream *st = cls;
    http_jstreams *s = st->owner;
    size_t n;

    (void)pos;
    pthread_mutex_lock(&s->set.lock);
    if (!st->started) {
        st->started = true;
        if (reserve(st, 32))
            http_sse_retry(st->out.buf, st->out.cap, &st->out.len, HTTP_JOBS_RETRY_MS);
    }
    if (st->out.len == st->out.off)
        return http__set_idle(&s->set, st->conn, &st->suspended,
                              st->ended || s->set.closing);
    n = st->out.len - st->out.off < max ? st->out.len - st->out.off : max;
    memcpy(buf, st->out.buf + st->out.off, n);
    st->out.off += n;
    pthread_mutex_unlock(&s->set.lock);
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    struct jstream *st = cls;
    http_jstreams *s = st->owner;

    pthread_mutex_lock(&s->set.lock);
    http__set_unlink(&s->set, &st->base);
    pthread_mutex_unlock(&s->set.lock);
    free(st->out.buf);
    free(st);
}

/* For the per-job cap: both streams watch one job. */
static bool same_job(const struct http__stream *a, const struct http__stream *b)
{
    return strcmp(((const struct jstream *)a)->job,
                  ((const struct jstream *)b)->job) == 0;
}

struct MHD_Response *http_jstreams_open(http_jstreams *s,
                                        struct MHD_Connection *c,
                                        const char *job, const char *last_id,
                                        const char *client, const char *key,
                                        unsigned key_cap, puz_err *rc,
                                        struct http_streams_refusal *limit)
{
    struct jstream *st = calloc(1, sizeof(*st));
    struct MHD_Response *resp = NULL;

    *rc = PUZ_ENOMEM;
    if (st == NULL)
        return NULL;
    st->owner = s;
    st->conn = c;
    snprintf(st->job, sizeof(st->job), "%s", job);
    snprintf(st->base.client, sizeof(st->base.client), "%s", client);
    snprintf(st->base.key, sizeof(st->base.key), "%s", key);
    if (jobq_event_id_ok(last_id))
        snprintf(st->last, sizeof(st->last), "%s", last_id);
    st->opened_us = st->last_write_us = puz_clock_mono_us();
    resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
                                             stream_read, st, stream_free);
    if (resp == NULL) {
        free(st);
        return NULL;
    }
    *rc = http__set_admit(&s->set, &st->base, same_job, key_cap, limit);
    if (*rc != PUZ_OK) {
        MHD_destroy_response(resp);     /* frees st through stream_free */
        return NULL;
    }
    http__sse_headers(resp);
    return resp;
}

http_jstreams *http_jstreams_create(jobq_t *q,
                                    const struct http_streams_limits *lim)
{
    http_jstreams *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->q = q;
    if (!http__set_init(&s->set, lim, pump, s)) {
        http_jstreams_destroy(s);
        return NULL;
    }
    return s;
}

void http_jstreams_destroy(http_jstreams *s)
{
    if (s == NULL)
        return;
    http__set_destroy(&s->set);
    free(s);
}

void http_jstreams_shutdown(http_jstreams *s, unsigned wait_ms)
{
    /* The pump resumes every suspended stream now; each ends. */
    if (s != NULL)
        http__set_shutdown(&s->set, wait_ms, NULL, NULL);
}

unsigned http_jstreams_count(http_jstreams *s)
{
    return s != NULL ? http__set_count(&s->set) : 0;
}
