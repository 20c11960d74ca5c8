/*
 * jobs_stream.c - Server-Sent Events of jobs (GET /v1/jobs/{id}/events)
 * on libmicrohttpd callback responses, for either backend of the jobs
 * service: a stream sends the job's events as the service gives them
 * (jobsvc_events after the last id sent), each with its id as the SSE
 * id, so a client that reconnects with Last-Event-ID continues after
 * what it got.
 *
 * Who touches a stream: the content reader (network thread) while the
 * connection runs, the pump while it is suspended. The reader only
 * copies bytes out, and suspends (under the set's lock, streams.c) when
 * it has none; only the pump resumes, and it fills a stream only while
 * the stream is suspended, so the service is read (Redis, for shared
 * jobs) outside the lock, on a stream nobody else uses, and never on a
 * network thread.
 *
 * A job's final event may carry a large answer: it is encoded once, kept
 * here by job id while some stream sends it (and FINAL_KEEP_US after,
 * for the clients that come late or reconnect), and shared by every
 * stream of the job.
 */
#include "http_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_sse.h"

#define EVENTS_A_ROUND 16
#define WAKE_MAX 64
#define FINAL_KEEP_US 10000000u

/* A job's final event without its id line. */
struct final {
    struct final *next;
    char job[JOBS_ID_LEN + 1];      /* ids are never reused */
    unsigned refs;                  /* streams sending it */
    uint64_t idle_since_us;         /* when refs last fell to 0 */
    size_t len;
    char bytes[];
};

struct stream {
    struct http__stream base;       /* first: the set's list and caps */
    http_streams *owner;
    struct MHD_Connection *conn;
    char job[JOBS_ID_LEN + 1];
    char cursor[JOBSVC_EVENT_ID_MAX];   /* the last event's id (where
                                         * the service goes on from);
                                         * "" none yet */
    uint64_t seq;                   /* the last number a snapshot got */
    uint64_t opened_us, last_write_us, last_event_us;
    bool snapshots;                 /* the service sends snapshots */
    bool started, ended, suspended, pumping;
    struct http__pending out;       /* bytes not yet sent */
    struct final *tail;             /* then these, from tail_off */
    size_t tail_off;
};

struct http_streams {
    struct http__stream_set set;    /* the streams, their lock, the pump */
    jobsvc *jobs;
    struct final *finals;           /* final events sent or kept (lock) */
    uint64_t finals_encoded;        /* for metrics and tests */
};

/* Room for n more pending bytes. */
static bool reserve(struct stream *st, size_t n)
{
    return http__pending_reserve(&st->out, n);
}

/* The "id: ..." line of an event: its own id, or, for a snapshot, the
 * stream's next number (they grow from the client's Last-Event-ID). */
static bool queue_id(struct stream *st, const struct jobsvc_event *e)
{
    if (!reserve(st, strlen(e->id) + 32))
        return false;
    if (e->snapshot)
        st->out.len += (size_t)snprintf(st->out.buf + st->out.len,
                                        st->out.cap - st->out.len,
                                        "id: %llu\n",
                                        (unsigned long long)++st->seq);
    else
        st->out.len += (size_t)snprintf(st->out.buf + st->out.len,
                                        st->out.cap - st->out.len,
                                        "id: %s\n", e->id);
    return true;
}

/* A job's view as an event's body (data lines), from malloc. */
static char *event_body(const struct jobs_view *v, bool final,
                        const char *type, size_t *len)
{
    char *data = NULL, *text, *out = NULL;
    size_t n = 0, cap;

    *len = 0;
    if (!api_jobs_view_event(v, final, &data, &n))
        return NULL;
    text = realloc(data, n + 1);
    data = text != NULL ? text : data;
    cap = n + n / 8 + 64;   /* a "data: " per line break, at most */
    if (text != NULL) {
        text[n] = '\0';
        out = malloc(cap);
    }
    if (out != NULL && http_sse_event_body(out, cap, len, type, text) != 0) {
        free(out);
        out = NULL;
    }
    free(data);
    return out;
}

/* One progress event. */
static bool queue_progress(struct stream *st, const struct jobsvc_event *e)
{
    size_t n;
    char *body = event_body(&e->v, false, e->type, &n);
    bool ok = body != NULL && reserve(st, n + strlen(e->id) + 32)
              && queue_id(st, e);

    if (ok) {
        memcpy(st->out.buf + st->out.len, body, n);
        st->out.len += n;
    }
    free(body);
    return ok;
}

/* The job's final event from the cache (a reference taken), or NULL. */
static struct final *final_cached(http_streams *s, const char *job)
{
    struct final *f;

    pthread_mutex_lock(&s->set.lock);
    for (f = s->finals; f != NULL && strcmp(f->job, job) != 0; f = f->next)
        ;
    if (f != NULL)
        f->refs++;
    pthread_mutex_unlock(&s->set.lock);
    return f;
}

/* The job's final event, encoded now from its answer (no lock held:
 * the shared jobs' answer comes from Redis) and kept in the cache, or
 * the one another stream kept meanwhile. NULL with *gone or *msg. */
static struct final *final_made(http_streams *s, const char *job,
                                const char *type, bool *gone, char *msg)
{
    struct jobsvc_job j;
    struct final *f = NULL, *had;
    char *body = NULL;
    size_t n = 0;
    bool found = false;

    if (jobsvc_find(s->jobs, job, true, &j, &found, msg) != PUZ_OK)
        return NULL;
    *gone = !found;
    if (found)
        body = event_body(&j.v, true, type, &n);
    jobsvc_job_release(s->jobs, &j);
    f = body != NULL ? malloc(sizeof(*f) + n) : NULL;
    if (f != NULL) {
        memcpy(f->bytes, body, n);
        f->len = n;
        f->refs = 1;
        snprintf(f->job, sizeof(f->job), "%s", job);
    }
    free(body);
    had = f != NULL ? final_cached(s, job) : NULL;
    if (had != NULL) {
        free(f);
        return had;
    }
    if (f != NULL) {
        pthread_mutex_lock(&s->set.lock);
        f->next = s->finals;
        s->finals = f;
        s->finals_encoded++;
        pthread_mutex_unlock(&s->set.lock);
    }
    return f;
}

static void final_release(http_streams *s, struct final *f)
{
    (void)s;
    if (f != NULL && --f->refs == 0)
        f->idle_since_us = puz_clock_mono_us();
}

/* Free the final events nobody has sent for FINAL_KEEP_US (all of them
 * when all is true); lock held. */
static void finals_sweep(http_streams *s, uint64_t now, bool all)
{
    for (struct final **p = &s->finals; *p != NULL;) {
        struct final *f = *p;
        if (f->refs == 0 && (all || now - f->idle_since_us
                                    >= FINAL_KEEP_US)) {
            *p = f->next;
            free(f);
        } else {
            p = &f->next;
        }
    }
}

/* A comment line, and the end of the stream when end is true. */
static void queue_comment(struct stream *st, const char *text, bool end)
{
    if (reserve(st, strlen(text) + 8))
        http_sse_comment(st->out.buf, st->out.cap, &st->out.len, text);
    st->ended = st->ended || end;
}

/* The final event: its id line here, the rest shared. */
static void queue_final(http_streams *s, struct stream *st,
                        const struct jobsvc_event *e)
{
    char msg[JOBSVC_MSG_MAX] = "";
    bool gone = false;
    struct final *f = final_cached(s, st->job);

    if (f == NULL)
        f = final_made(s, st->job, e->type, &gone, msg);
    if (f == NULL || !queue_id(st, e)) {
        if (f != NULL) {
            pthread_mutex_lock(&s->set.lock);
            final_release(s, f);
            pthread_mutex_unlock(&s->set.lock);
        }
        queue_comment(st, msg[0] != '\0' ? "the jobs' store is unavailable:"
                      " reconnect with Last-Event-ID" : gone ? "the job is "
                      "gone" : "out of memory", true);
        return;
    }
    st->tail = f;
    st->tail_off = 0;
    st->ended = true;
}

/* Queue what the service gave: progress only HTTP_JOBS_MIN_GAP_MS after
 * the last event (it waits: the next round reads it again, or a newer
 * one). */
static void queue_events(http_streams *s, struct stream *st,
                         const struct jobsvc_event *ev, size_t n,
                         uint64_t now)
{
    bool final = n > 0 && strcmp(ev[n - 1].type, "progress") != 0;

    if (n == 0 || (!final && st->last_event_us != 0
                   && now - st->last_event_us
                      < HTTP_JOBS_MIN_GAP_MS * 1000u))
        return;
    for (size_t i = 0; i < n && !st->ended; i++) {
        if (strcmp(ev[i].type, "progress") != 0) {
            queue_final(s, st, &ev[i]);
        } else if (!queue_progress(st, &ev[i])) {
            queue_comment(st, "out of memory", true);
            return;
        }
        memcpy(st->cursor, ev[i].id, sizeof(st->cursor));
        st->cursor[sizeof(st->cursor) - 1] = '\0';
        st->snapshots = ev[i].snapshot;
    }
    st->last_event_us = now;
}

/* What is new for a suspended stream (no lock held: the stream is the
 * pump's until it resumes it). */
static void pump_one(http_streams *s, struct stream *st, uint64_t now)
{
    struct jobsvc_event ev[EVENTS_A_ROUND];
    char msg[JOBSVC_MSG_MAX];
    const char *after = st->cursor[0] != '\0' ? st->cursor : NULL;
    size_t n = 0;
    bool gone = false;
    uint64_t life = (uint64_t)s->set.lim.lifetime_s * 1000000u;

    /* A snapshot a second at least, changed or not (the job's elapsed
     * time, a sign of life): the latest again. */
    if (st->snapshots && now - st->last_event_us
                         >= HTTP_JOBS_MAX_GAP_MS * 1000u)
        after = NULL;
    if (jobsvc_events(s->jobs, st->job, after, ev, EVENTS_A_ROUND, &n,
                      &gone, msg) != PUZ_OK) {
        /* Redis away: end; the client reconnects (and gets a 503 until
         * it is back), then continues from its Last-Event-ID. */
        queue_comment(st, "the shared store is unavailable: reconnect "
                      "with Last-Event-ID", true);
        return;
    }
    queue_events(s, st, ev, n, now);
    if (n == 0 && gone)
        queue_comment(st, "the job is gone", true);
    else if (!st->ended && life != 0 && now - st->opened_us >= life)
        /* The client's EventSource reconnects after the retry delay and
         * continues from its Last-Event-ID: nothing is lost. */
        queue_comment(st, "stream lifetime over (stream_max_s): reconnect "
                      "with Last-Event-ID", true);
    else if (st->out.len == st->out.off && st->tail == NULL
             && now - st->last_write_us >= HTTP_JOBS_HEARTBEAT_MS * 1000u)
        queue_comment(st, "heartbeat", false);
    if (st->out.len != st->out.off || st->tail != NULL)
        st->last_write_us = now;
}

/* Bytes waiting to go out: the buffer's, then the shared tail's. */
static size_t pending(const struct stream *st)
{
    return st->out.len - st->out.off
           + (st->tail != NULL ? st->tail->len - st->tail_off : 0);
}

/*
 * One round: every suspended stream looked at, those with bytes (or
 * all, when closing) resumed. When closing, a backend whose reads cost
 * nothing (embedded: its jobs all ended at jobsvc_shutdown) is read
 * once more, so each stream sends its final event; shared jobs run on
 * elsewhere, and their clients reconnect there.
 */
static void pump_round(http_streams *s)
{
    struct stream *mine[WAKE_MAX];
    unsigned n = 0;
    uint64_t now = puz_clock_mono_us();
    bool closing, wake;

    pthread_mutex_lock(&s->set.lock);
    closing = s->set.closing;
    for (struct http__link *l = s->set.head; l != NULL && n < WAKE_MAX;
         l = l->next) {
        struct stream *st = (struct stream *)l;
        if (st->suspended && !st->pumping && !st->ended) {
            st->pumping = true;
            mine[n++] = st;
        }
    }
    pthread_mutex_unlock(&s->set.lock);
    for (unsigned i = 0; i < n; i++) {
        struct stream *st = mine[i];

        if (!closing || !jobsvc_may_block(s->jobs))
            pump_one(s, st, now);
        pthread_mutex_lock(&s->set.lock);
        st->pumping = false;
        st->ended = st->ended || closing;
        wake = st->ended || pending(st) > 0;
        if (wake)
            st->suspended = false;
        pthread_mutex_unlock(&s->set.lock);
        if (wake)
            MHD_resume_connection(st->conn);
    }
}

static void *pump(void *arg)
{
    http_streams *s = arg;
    uint64_t seen = 0;

    do {
        /* A change wakes at once (embedded jobs); the timers, and jobs
         * another instance runs, need a look every HTTP_JOBS_POLL_MS. */
        jobsvc_wait_change(s->jobs, &seen, HTTP_JOBS_POLL_MS);
        pump_round(s);
        pthread_mutex_lock(&s->set.lock);
        finals_sweep(s, puz_clock_mono_us(), false);
        pthread_mutex_unlock(&s->set.lock);
    } while (!http__set_stopping(&s->set));
    return NULL;
}

static ssize_t copy_out(struct stream *st, char *buf, size_t max)
{
    size_t n = st->out.len - st->out.off, m;

    if (n > max)
        n = max;
    memcpy(buf, st->out.buf + st->out.off, n);
    st->out.off += n;
    if (st->out.off == st->out.len && st->tail != NULL && n < max) {
        m = st->tail->len - st->tail_off;
        m = m > max - n ? max - n : m;
        memcpy(buf + n, st->tail->bytes + st->tail_off, m);
        st->tail_off += m;
        n += m;
    }
    return (ssize_t)n;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct stream *st = cls;
    http_streams *s = st->owner;
    ssize_t n;

    (void)pos;
    pthread_mutex_lock(&s->set.lock);
    if (!st->started) {
        st->started = true;
        if (reserve(st, 32))
            http_sse_retry(st->out.buf, st->out.cap, &st->out.len,
                           HTTP_JOBS_RETRY_MS);
    }
    if (pending(st) == 0)
        return http__set_idle(&s->set, st->conn, &st->suspended,
                              st->ended || s->set.closing);
    n = copy_out(st, buf, max);
    pthread_mutex_unlock(&s->set.lock);
    return n;
}

static void stream_free(void *cls)
{
    struct stream *st = cls;
    http_streams *s = st->owner;

    pthread_mutex_lock(&s->set.lock);
    http__set_unlink(&s->set, &st->base);
    final_release(s, st->tail);
    pthread_mutex_unlock(&s->set.lock);
    free(st->out.buf);
    free(st);
}

/* A Last-Event-ID as the number the stream's snapshots go on from (0:
 * none, or not a number). */
static uint64_t parse_last_id(const char *v)
{
    char *end;
    unsigned long long n;

    if (v == NULL || *v < '0' || *v > '9')
        return 0;
    n = strtoull(v, &end, 10);
    return *end == '\0' && n < UINT64_MAX / 2 ? (uint64_t)n : 0;
}

/* For the per-job cap: both streams watch one job. */
static bool same_job(const struct http__stream *a, const struct http__stream *b)
{
    return strcmp(((const struct stream *)a)->job,
                  ((const struct stream *)b)->job) == 0;
}

http_streams *http_streams_create(jobsvc *j,
                                  const struct http_streams_limits *lim)
{
    http_streams *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->jobs = j;
    if (!http__set_init(&s->set, lim, pump, s)) {
        http_streams_destroy(s);
        return NULL;
    }
    return s;
}

struct MHD_Response *http_streams_open(http_streams *s,
                                       struct MHD_Connection *c,
                                       const char *job, const char *last_id,
                                       const char *client, const char *key,
                                       unsigned key_cap, puz_err *rc,
                                       struct http_streams_refusal *limit)
{
    struct stream *st = calloc(1, sizeof(*st));
    struct MHD_Response *resp = NULL;

    *rc = PUZ_ENOMEM;
    if (st == NULL)
        return NULL;
    st->owner = s;
    st->conn = c;
    snprintf(st->job, sizeof(st->job), "%s", job);
    snprintf(st->base.client, sizeof(st->base.client), "%s", client);
    snprintf(st->base.key, sizeof(st->base.key), "%s", key);
    if (jobsvc_event_id_ok(s->jobs, last_id))
        snprintf(st->cursor, sizeof(st->cursor), "%s", last_id);
    st->seq = parse_last_id(last_id);
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

uint64_t http_streams_finals_encoded(http_streams *s)
{
    uint64_t n;

    if (s == NULL)
        return 0;
    pthread_mutex_lock(&s->set.lock);
    n = s->finals_encoded;
    pthread_mutex_unlock(&s->set.lock);
    return n;
}

unsigned http_streams_count(http_streams *s)
{
    return s != NULL ? http__set_count(&s->set) : 0;
}

void http_streams_shutdown(http_streams *s, unsigned wait_ms)
{
    /* The pump resumes every suspended stream now; each ends. */
    if (s != NULL)
        http__set_shutdown(&s->set, wait_ms, NULL, NULL);
}

void http_streams_destroy(http_streams *s)
{
    if (s == NULL)
        return;
    http__set_destroy(&s->set);
    finals_sweep(s, 0, true);
    free(s);
}
