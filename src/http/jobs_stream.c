/*
 * jobs_stream.c - Server-Sent Events of jobs on libmicrohttpd callback
 * responses. MHD asks the stream for bytes whenever the socket can take
 * them; with nothing due the stream suspends its connection (allowed
 * from the content reader, libmicrohttpd manual "Flow control") and
 * returns 0, and the ticker thread resumes it once something is due.
 *
 * Locking: the set's lock (struct http__stream_set in streams.c, which
 * also keeps the list, the caps and the ticker thread) guards every
 * stream's fields. The content reader suspends while holding it, so the
 * ticker (which reads `suspended` under it) can never resume a
 * connection that is not yet suspended; the ticker calls
 * MHD_resume_connection after letting go.
 * Order: streams lock, then the jobs registry's lock inside it.
 */
#include "http_int.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http_sse.h"

/* A job's final event without its id line, encoded once and sent by
 * every stream of the job (a finished job's answer may be megabytes);
 * kept FINAL_KEEP_US after its last stream let go, for the clients that
 * come late or reconnect. */
struct shared {
    struct shared *next;
    char id[JOBS_ID_LEN + 1];       /* the job's (ids are never reused) */
    unsigned refs;                  /* streams sending it */
    uint64_t idle_since_us;         /* when refs last fell to 0 */
    size_t len;
    char bytes[];
};

#define FINAL_KEEP_US 10000000u

struct stream {
    struct http__stream base;       /* first: the set's list and caps */
    http_streams *owner;
    struct MHD_Connection *conn;
    jobs_job *job;                  /* our reference */
    uint64_t opened_us;             /* for the lifetime */
    bool started;                   /* retry hint and first state sent */
    bool ended;                     /* final event queued */
    bool suspended;
    uint64_t seq;                   /* last event id sent */
    uint64_t version;               /* job version last sent */
    uint64_t last_event_us, last_write_us;
    struct http__pending out;      /* bytes not yet sent */
    struct shared *tail;            /* then these, from tail_off */
    size_t tail_off;
};

struct http_streams {
    struct http__stream_set set;    /* the streams, their lock, the ticker */
    const struct api_ctx *api;
    jobs_t *jobs;
    struct shared *finals;          /* final events sent or kept */
    uint64_t finals_encoded;        /* for metrics and tests */
};

/* Room for n more pending bytes. */
static bool reserve(struct stream *st, size_t n)
{
    return http__pending_reserve(&st->out, n);
}

/* Queue one progress event: the job's numbers, as the API encodes
 * them. */
static bool queue_progress(struct stream *st)
{
    char *data = NULL;
    size_t n = 0;
    bool ok = api_jobs_event(st->owner->api, st->job, false, &data, &n,
                             &st->version);
    char *text = ok ? realloc(data, n + 1) : NULL;

    ok = text != NULL;
    if (ok) {
        text[n] = '\0';
        data = text;
    }
    ok = ok && reserve(st, n + 96)
         && http_sse_event(st->out.buf, st->out.cap, &st->out.len, ++st->seq,
                           "progress", data) == 0;
    free(data);
    return ok;
}

/* The job's final event, from the streams' cache or encoded now and
 * kept there while some stream sends it (lock held). */
static struct shared *final_event(http_streams *s, jobs_job *job,
                                  const char *type, uint64_t *version)
{
    struct shared *sh;
    char *data = NULL, *text;
    size_t n = 0, cap;

    for (sh = s->finals; sh != NULL; sh = sh->next)
        if (strcmp(sh->id, jobs_id(job)) == 0)
            break;
    if (sh == NULL && api_jobs_event(s->api, job, true, &data, &n,
                                     version)) {
        text = realloc(data, n + 1);
        data = text != NULL ? text : data;
        cap = n + n / 8 + 64;   /* a "data: " per line break, at most */
        sh = text != NULL ? malloc(sizeof(*sh) + cap) : NULL;
        if (sh != NULL) {
            text[n] = '\0';
            sh->len = 0;
            if (http_sse_event_body(sh->bytes, cap, &sh->len, type,
                                    text) != 0) {
                free(sh);
                sh = NULL;
            }
        }
        if (sh != NULL) {
            snprintf(sh->id, sizeof(sh->id), "%s", jobs_id(job));
            sh->refs = 0;
            sh->next = s->finals;
            s->finals = sh;
            s->finals_encoded++;
        }
        free(data);
    } else if (sh != NULL) {
        struct jobs_snap snap;

        jobs_snapshot(s->jobs, job, &snap);
        *version = snap.version;
    }
    if (sh != NULL)
        sh->refs++;
    return sh;
}

static void shared_release(http_streams *s, struct shared *sh)
{
    (void)s;
    if (sh != NULL && --sh->refs == 0)
        sh->idle_since_us = puz_clock_mono_us();
}

/* Free the final events nobody has sent for FINAL_KEEP_US (all of them
 * when all is true); lock held. */
static void finals_sweep(http_streams *s, uint64_t now, bool all)
{
    for (struct shared **p = &s->finals; *p != NULL;) {
        struct shared *sh = *p;
        if (sh->refs == 0 && (all || now - sh->idle_since_us
                                     >= FINAL_KEEP_US)) {
            *p = sh->next;
            free(sh);
        } else {
            p = &sh->next;
        }
    }
}

/* The final event: its id line in the stream's buffer, the rest
 * shared. */
static bool queue_final(struct stream *st, const char *type)
{
    char num[32];
    int n = snprintf(num, sizeof(num), "id: %llu\n",
                     (unsigned long long)++st->seq);

    if (!reserve(st, (size_t)n))
        return false;
    st->tail = final_event(st->owner, st->job, type, &st->version);
    if (st->tail == NULL)
        return false;
    memcpy(st->out.buf + st->out.len, num, (size_t)n);
    st->out.len += (size_t)n;
    st->tail_off = 0;
    return true;
}

/* Whether the stream has lived its stream_max_s. */
static bool past_lifetime(const struct stream *st, uint64_t now)
{
    uint64_t max = (uint64_t)st->owner->set.lim.lifetime_s * 1000000u;

    return max != 0 && now - st->opened_us >= max;
}

/* What is due now, queued as bytes; false when nothing is (lock held). */
static bool fill(struct stream *st, uint64_t now)
{
    jobs_t *j = st->owner->jobs;
    struct jobs_snap snap;
    uint64_t since = now - st->last_event_us;
    bool ok = true;

    jobs_snapshot(j, st->job, &snap);
    if (!st->started) {
        st->started = true;
        ok = reserve(st, 32)
             && http_sse_retry(st->out.buf, st->out.cap, &st->out.len,
                               HTTP_JOBS_RETRY_MS) == 0;
    } else if (!jobs_state_final(snap.state) && past_lifetime(st, now)) {
        /* The client's EventSource reconnects after the retry delay and
         * continues from its Last-Event-ID: nothing is lost. */
        st->ended = true;
        return reserve(st, 80)
               && http_sse_comment(st->out.buf, st->out.cap, &st->out.len, "stream "
                                   "lifetime over (stream_max_s): "
                                   "reconnect with Last-Event-ID") == 0;
    } else if (!jobs_state_final(snap.state)
               && !(snap.version != st->version
                    && since >= HTTP_JOBS_MIN_GAP_MS * 1000u)
               && since < HTTP_JOBS_MAX_GAP_MS * 1000u) {
        if (now - st->last_write_us < HTTP_JOBS_HEARTBEAT_MS * 1000u)
            return false;
        ok = reserve(st, 32)
             && http_sse_comment(st->out.buf, st->out.cap, &st->out.len,
                                 "heartbeat") == 0;
        st->last_write_us = now;
        return ok;
    }
    if (ok && jobs_state_final(snap.state)) {
        ok = queue_final(st, jobs_state_name(snap.state));
        st->ended = true;
    } else if (ok) {
        ok = queue_progress(st);
    }
    st->last_event_us = st->last_write_us = now;
    return ok;
}

/* Bytes waiting to go out: the buffer's, then the shared tail's. */
static size_t pending(const struct stream *st)
{
    return st->out.len - st->out.off
           + (st->tail != NULL ? st->tail->len - st->tail_off : 0);
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
    if (pending(st) == 0 && !st->ended) {
        /* Closing while the job is not final cannot be after
         * jobs_shutdown, but never hang on it: end. */
        if (!fill(st, puz_clock_mono_us()) && pending(st) == 0)
            return http__set_idle(&s->set, st->conn, &st->suspended,
                                  s->set.closing);
    }
    if (pending(st) > 0)
        n = copy_out(st, buf, max);
    else
        n = MHD_CONTENT_READER_END_OF_STREAM;   /* ended, all sent */
    pthread_mutex_unlock(&s->set.lock);
    return n;
}

static void stream_free(void *cls)
{
    struct stream *st = cls;
    http_streams *s = st->owner;

    pthread_mutex_lock(&s->set.lock);
    http__set_unlink(&s->set, &st->base);
    shared_release(s, st->tail);
    pthread_mutex_unlock(&s->set.lock);
    jobs_release(s->jobs, st->job);
    free(st->out.buf);
    free(st);
}

/* Whether a suspended stream has something to send (lock held). */
static bool due(struct stream *st, uint64_t now)
{
    struct jobs_snap snap;
    uint64_t since = now - st->last_event_us;

    if (st->owner->set.closing)
        return true;
    jobs_snapshot(st->owner->jobs, st->job, &snap);
    return jobs_state_final(snap.state) || past_lifetime(st, now)
           || (snap.version != st->version
               && since >= HTTP_JOBS_MIN_GAP_MS * 1000u)
           || since >= HTTP_JOBS_MAX_GAP_MS * 1000u
           || now - st->last_write_us >= HTTP_JOBS_HEARTBEAT_MS * 1000u;
}

/* Resume every suspended stream that has something due. */
static void wake_due(http_streams *s)
{
    struct MHD_Connection *wake[64];
    unsigned n;
    uint64_t now = puz_clock_mono_us();

    do {
        n = 0;
        pthread_mutex_lock(&s->set.lock);
        for (struct http__stream *b = s->set.head; b != NULL && n < 64;
             b = b->next) {
            struct stream *st = (struct stream *)b;
            if (st->suspended && due(st, now)) {
                st->suspended = false;
                wake[n++] = st->conn;
            }
        }
        pthread_mutex_unlock(&s->set.lock);
        /* Still suspended until MHD processes the resume: the response
         * cannot be freed before, so conn stays valid. */
        for (unsigned i = 0; i < n; i++)
            MHD_resume_connection(wake[i]);
    } while (n == 64);
}

static void *ticker(void *arg)
{
    http_streams *s = arg;
    uint64_t seen = 0;

    do {
        /* A change wakes at once; the timers need a look every 50 ms
         * (progress may wait for its 250 ms gap to pass). */
        jobs_wait_change(s->jobs, &seen, 50);
        wake_due(s);
        pthread_mutex_lock(&s->set.lock);
        finals_sweep(s, puz_clock_mono_us(), false);
        pthread_mutex_unlock(&s->set.lock);
    } while (!http__set_stopping(&s->set));
    return NULL;
}

http_streams *http_streams_create(const struct api_ctx *api, jobs_t *j,
                                  const struct http_streams_limits *lim)
{
    http_streams *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->api = api;
    s->jobs = j;
    if (!http__set_init(&s->set, lim, ticker, s)) {
        http_streams_destroy(s);
        return NULL;
    }
    return s;
}

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
    return ((const struct stream *)a)->job == ((const struct stream *)b)->job;
}

struct MHD_Response *http_streams_open(http_streams *s,
                                       struct MHD_Connection *c,
                                       jobs_job *job, const char *last_id,
                                       const char *client, const char *key,
                                       unsigned key_cap, puz_err *rc,
                                       struct http_streams_refusal *limit)
{
    struct stream *st = calloc(1, sizeof(*st));
    struct MHD_Response *resp = NULL;

    *rc = PUZ_ENOMEM;
    if (st != NULL) {
        st->owner = s;
        st->conn = c;
        st->job = job;
        st->seq = parse_last_id(last_id);
        st->opened_us = puz_clock_mono_us();
        snprintf(st->base.client, sizeof(st->base.client), "%s", client);
        snprintf(st->base.key, sizeof(st->base.key), "%s", key);
        resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384,
                                                 stream_read, st,
                                                 stream_free);
    }
    if (resp == NULL) {
        jobs_release(s->jobs, job);
        free(st);
        return NULL;
    }
    *rc = http__set_admit(&s->set, &st->base, same_job, key_cap, limit);
    if (*rc != PUZ_OK) {
        st->job = NULL;
        MHD_destroy_response(resp);     /* frees st through stream_free */
        jobs_release(s->jobs, job);
        return NULL;
    }
    http__sse_headers(resp);
    return resp;
}

uint64_t http_streams_finals_encoded(http_streams *s)
{
    uint64_t n;

    pthread_mutex_lock(&s->set.lock);
    n = s->finals_encoded;
    pthread_mutex_unlock(&s->set.lock);
    return n;
}

unsigned http_streams_count(http_streams *s)
{
    return s != NULL ? http__set_count(&s->set) : 0;
}

/* wake_due as http__set_shutdown's kick. */
static void kick(void *arg)
{
    wake_due(arg);
}

void http_streams_shutdown(http_streams *s, unsigned wait_ms)
{
    if (s != NULL)
        http__set_shutdown(&s->set, wait_ms, kick, s);
}

void http_streams_destroy(http_streams *s)
{
    if (s == NULL)
        return;
    http__set_destroy(&s->set);
    finals_sweep(s, 0, true);
    free(s);
}
