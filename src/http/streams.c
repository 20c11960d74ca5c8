/*
 * streams.c - the job event streams' bookkeeping (jobs_stream.c has the
 * streams themselves): a stream's pending bytes; the set of streams (its
 * list, its lock, its caps and the thread that feeds them); the
 * response's headers.
 */
#include "http_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool http__pending_reserve(struct http__pending *p, size_t n)
{
    size_t want = p->cap ? p->cap : 4096;
    char *grown;

    if (p->off == p->len)
        p->off = p->len = 0;
    if (p->len + n <= p->cap)
        return true;
    while (want < p->len + n)
        want *= 2;
    grown = realloc(p->buf, want);
    if (grown == NULL)
        return false;
    p->buf = grown;
    p->cap = want;
    return true;
}

/* Whether one more stream fits, given the streams open: in all, on
 * its job, from its client, of its key. */
static puz_err fits(const struct http_streams_limits *lim, unsigned all,
                    unsigned on_job, unsigned from_client, unsigned of_key,
                    unsigned key_cap, struct http_streams_refusal *limit)
{
    if (lim->max != 0 && all >= lim->max) {
        *limit = (struct http_streams_refusal){ "max_streams", lim->max };
        return PUZ_EFULL;
    }
    if (key_cap != 0 && of_key >= key_cap) {
        *limit = (struct http_streams_refusal){ "the key's streams",
                                                key_cap };
        return PUZ_ELIMITED;
    }
    if (lim->per_job != 0 && on_job >= lim->per_job) {
        *limit = (struct http_streams_refusal){ "max_streams_per_job",
                                                lim->per_job };
        return PUZ_EFULL;
    }
    if (lim->per_client != 0 && from_client >= lim->per_client) {
        *limit = (struct http_streams_refusal){ "max_streams_per_client",
                                                lim->per_client };
        return PUZ_ELIMITED;
    }
    return PUZ_OK;
}

bool http__set_init(struct http__stream_set *set,
                    const struct http_streams_limits *lim,
                    void *(*fn)(void *), void *arg)
{
    set->lim = *lim;
    pthread_mutex_init(&set->lock, NULL);
    set->thread_started = pthread_create(&set->thread, NULL, fn, arg) == 0;
    return set->thread_started;
}

/* What the set's lock guards that is read from outside it: one copy of
 * both, taken under the lock. */
struct set_state {
    unsigned count;
    bool stop;
};

static struct set_state set_state(struct http__stream_set *set)
{
    struct set_state st;

    pthread_mutex_lock(&set->lock);
    st.count = set->count;
    st.stop = set->stop;
    pthread_mutex_unlock(&set->lock);
    return st;
}

bool http__set_stopping(struct http__stream_set *set)
{
    return set_state(set).stop;
}

puz_err http__set_admit(struct http__stream_set *set, struct http__stream *st,
                        bool (*same_job)(const struct http__stream *a,
                                         const struct http__stream *b),
                        unsigned key_cap, struct http_streams_refusal *limit)
{
    unsigned on_job = 0, from_client = 0, of_key = 0;
    puz_err rc;

    pthread_mutex_lock(&set->lock);
    for (const struct http__link *l = set->head; l != NULL; l = l->next) {
        const struct http__stream *o = (const struct http__stream *)l;
        on_job += same_job(o, st);
        from_client += strcmp(o->client, st->client) == 0;
        of_key += st->key[0] != '\0' && strcmp(o->key, st->key) == 0;
    }
    /* A key's streams=N holds across instances (issue 42 item 3). */
    of_key += api_keys_streams_elsewhere(set->lim.keys, st->key);
    rc = fits(&set->lim, set->count, on_job, from_client, of_key, key_cap,
              limit);
    if (rc == PUZ_OK) {
        st->linked = true;
        http__link_push(&set->head, &st->link);
        set->count++;
        api_keys_stream_count(set->lim.keys, st->key, 1);
    }
    pthread_mutex_unlock(&set->lock);
    return rc;
}

void http__set_unlink(struct http__stream_set *set, struct http__stream *st)
{
    if (!st->linked)
        return;
    http__link_remove(&set->head, &st->link);
    st->linked = false;
    set->count--;
    api_keys_stream_count(set->lim.keys, st->key, -1);
}

unsigned http__set_count(struct http__stream_set *set)
{
    return set_state(set).count;
}

void http__set_shutdown(struct http__stream_set *set, unsigned wait_ms,
                        void (*kick)(void *arg), void *arg)
{
    uint64_t until = puz_clock_mono_us() + (uint64_t)wait_ms * 1000u;

    pthread_mutex_lock(&set->lock);
    set->closing = true;
    pthread_mutex_unlock(&set->lock);
    for (;;) {
        if (kick != NULL)
            kick(arg);
        if (http__set_count(set) == 0 || puz_clock_mono_us() >= until)
            return;
        usleep(HTTP__SHUTDOWN_POLL_MS * 1000);
    }
}

ssize_t http__set_idle(struct http__stream_set *set,
                       struct MHD_Connection *conn, bool *suspended,
                       bool end)
{
    /* Suspended under the lock: the set's thread, which reads
     * *suspended under it, never resumes a connection not yet
     * suspended. */
    if (!end) {
        *suspended = true;
        MHD_suspend_connection(conn);
    }
    pthread_mutex_unlock(&set->lock);
    return end ? MHD_CONTENT_READER_END_OF_STREAM : 0;
}

void http__set_destroy(struct http__stream_set *set)
{
    if (set->thread_started) {
        pthread_mutex_lock(&set->lock);
        set->stop = true;
        pthread_mutex_unlock(&set->lock);
        pthread_join(set->thread, NULL);
    }
    pthread_mutex_destroy(&set->lock);
}

void http__sse_headers(struct MHD_Response *resp)
{
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-cache");
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
}
