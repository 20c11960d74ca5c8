/*
 * conns.c - what libmicrohttpd 0.9.75 does not watch on a connection,
 * watched from one small thread of our own:
 *
 *  - deadlines for the whole request head and the whole body
 *    (request_head_timeout_s, request_body_timeout_s). MHD's
 *    connection timeout only measures silence, so a client sending one
 *    byte a second held its slot for ever;
 *  - max_connections: MHD stops accepting at its limit and leaves the
 *    rest in the listen backlog, where they wait unanswered. We give
 *    MHD some headroom and handle the excess ourselves: first the
 *    oldest idle connection (no request in progress: a keep-alive one
 *    after its answer, else one that never sent a whole head) is shut
 *    to make room, as nginx reclaims idle keep-alive connections, so
 *    idle sockets and slow heads cannot keep a new client (or a probe)
 *    out (issue 44 finding 3); only when every connection is busy is
 *    the new one refused: a 503 written on the fresh socket, then it is
 *    shut. (Not while the server drains: then a new connection's
 *    request is read and answered like any other, see conn_started);
 *  - a client that hangs up while its request waits for a worker: MHD
 *    does not look at a suspended connection, so we poll its socket and
 *    set the job's cancel flag (logged and counted as 499).
 *
 * A connection is cut with shutdown(2), never close(2): MHD still owns
 * the descriptor, sees end-of-file on it and cleans up as usual. Every
 * entry leaves the list in MHD's "closed" notification, which comes
 * before MHD closes the descriptor, and under the same lock the
 * watchdog holds: so the watchdog never touches a number the kernel
 * may have handed to another file.
 */
#include "http_int.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS 20

enum phase { PH_HEAD, PH_BODY, PH_BUSY };

struct conn {
    struct http__link link;     /* first: the watchdog's list holds it */
    int fd;
    /* Written by the connection's network thread without the lock on
     * every request (set_phase), read by the watchdog's sweep. */
    atomic_int phase;           /* enum phase */
    atomic_uint_fast64_t deadline_us;   /* 0: none in this phase */
    atomic_int *cancel;         /* a suspended job's flag, or NULL */
    /* Under the lock (the watchdog's sweeps and reclaim read them). */
    bool cut;                   /* shut by a deadline or a reclaim */
    bool abandoned;             /* hung up while its job was pending */
    bool served;                /* answered a request: idle = keep-alive */
    char remote[HTTP__ADDR_MAX]; /* the client's address, as logged */
    /* The connection's own thread only, apart from the flags above (a
     * load of those must not take these along: ThreadSanitizer). */
    bool refused;               /* answered outside MHD; ignore the rest */
    bool http11;                /* the request is HTTP/1.1 (1xx allowed) */
    bool probed;                /* a 1xx was sent after the peer's FIN */
};

struct http__conns {
    struct http_server *srv;
    pthread_mutex_t lock;
    pthread_cond_t wake;        /* stop */
    pthread_t thread;
    bool started, stop;
    struct http__link *head;    /* the open connections, newest first */
    unsigned open;
    uint64_t head_us, body_us, keepalive_us;
    unsigned max;
    atomic_uint_fast64_t refused, cut_head, cut_body, abandoned, reclaimed;
};

/* The list's connections, from the newest: first_conn(w), then
 * next_conn(k) until NULL. */
static struct conn *first_conn(const struct http__conns *w)
{
    return (struct conn *)w->head;
}

static struct conn *next_conn(const struct conn *k)
{
    return (struct conn *)k->link.next;
}

static uint64_t secs_us(unsigned s)
{
    return (uint64_t)s * 1000000u;
}

static struct conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

    return ci != NULL ? ci->socket_context : NULL;
}

/* The answer to a connection past max_connections, written before
 * anything was read: nothing else is queued on a fresh socket, so the
 * one non-blocking send goes out whole. */
static void refuse(struct http_server *s, int fd, const char *why)
{
    char body[320], msg[768];
    int len = snprintf(body, sizeof(body), "{\"type\":\"https://puzzled."
                       "dev/problems/overloaded\",\"title\":\"Server "
                       "overloaded\",\"status\":503,\"detail\":\"%s; "
                       "retry after the delay in Retry-After\"}", why);
    int n = snprintf(msg, sizeof(msg), "HTTP/1.1 503 Service Unavailable"
                     "\r\nContent-Type: application/problem+json\r\n"
                     "Retry-After: %u\r\nConnection: close\r\n"
                     "Content-Length: %d\r\n\r\n%s",
                     s->cfg.api.retry_after_s, len, body);

    (void)!send(fd, msg, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
    shutdown(fd, SHUT_RDWR);
}

/* Connections open from this address (lock held). */
static unsigned open_from(const struct http__conns *w, const char *remote)
{
    unsigned n = 0;

    for (const struct conn *k = first_conn(w); k != NULL; k = next_conn(k))
        n += strcmp(k->remote, remote) == 0;
    return n;
}

/* Room for a new connection at max_connections (lock held): the oldest
 * idle keep-alive connection, else the oldest still reading its head,
 * is shut (MHD sees its end and closes it). False when every one is
 * busy, or too many are on their way out already (MHD's own limit is a
 * quarter of max_connections and 16 above ours: server.c). */
static bool reclaim(struct http__conns *w)
{
    struct conn *pick = NULL;

    if (w->open >= w->max + w->max / 4 + 8)
        return false;
    /* Newest first in the list: the last idle one met is the oldest. */
    for (struct conn *k = first_conn(w); k != NULL; k = next_conn(k)) {
        if (k->cut || k->cancel != NULL
            || atomic_load_explicit(&k->phase, memory_order_relaxed)
               != PH_HEAD)
            continue;
        if (pick == NULL || k->served || !pick->served)
            pick = k;
    }
    if (pick == NULL)
        return false;
    pick->cut = true;
    shutdown(pick->fd, SHUT_RDWR);
    atomic_fetch_add(&w->reclaimed, 1);
    return true;
}

static void conn_started(struct http_server *s, struct MHD_Connection *c,
                         void **ctx)
{
    struct http__conns *w = s->conns;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct conn *k = calloc(1, sizeof(*k));
    int fd = ci != NULL ? (int)ci->connect_fd : -1;
    bool per_ip;

    *ctx = NULL;
    if (fd < 0 || k == NULL) {
        free(k);
        return;
    }
    pthread_mutex_lock(&w->lock);
    /* Past the limit: room made by shutting the oldest idle one
     * (reclaim), else refused before a byte is read, so a flood of
     * connections costs nothing. A drain refuses nothing here: the
     * request is read and answered (503 shutting-down, Connection:
     * close), as nginx mistook a 503 sent before its request for the
     * reply and gave its client a retry's 200 body under that status. */
    http__addr_format(c, k->remote);
    per_ip = s->cfg.max_connections_per_ip != 0
             && open_from(w, k->remote) >= s->cfg.max_connections_per_ip;
    if (per_ip || (w->open >= w->max && !reclaim(w))) {
        pthread_mutex_unlock(&w->lock);
        free(k);
        atomic_fetch_add(&w->refused, 1);
        refuse(s, fd, per_ip ? "too many open connections from your "
               "address (max_connections_per_ip)" : "too many open "
               "connections");
        return;
    }
    k->fd = fd;
    atomic_init(&k->phase, PH_HEAD);
    atomic_init(&k->deadline_us, puz_clock_mono_us() + w->head_us);
    http__link_push(&w->head, &k->link);
    w->open++;
    pthread_mutex_unlock(&w->lock);
    *ctx = k;
}

static void conn_closed(struct http_server *s, void **ctx)
{
    struct http__conns *w = s->conns;
    struct conn *k = *ctx;

    if (k == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    http__link_remove(&w->head, &k->link);
    w->open--;
    pthread_mutex_unlock(&w->lock);
    free(k);
    *ctx = NULL;
}

void http__conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
                       enum MHD_ConnectionNotificationCode code)
{
    if (code == MHD_CONNECTION_NOTIFY_STARTED)
        conn_started(cls, c, ctx);
    else
        conn_closed(cls, ctx);
}

/*
 * The deadline first, then the phase: a sweep in between sees the new
 * deadline with the old phase, which only matters for which counter a cut
 * goes to. No lock: this runs two or three times on every request, and
 * the sweep decides on one deadline value either way (as it would have
 * before or after a locked update).
 */
static void set_phase(struct conn *k, enum phase ph, uint64_t span_us)
{
    atomic_store_explicit(&k->deadline_us,
                          span_us != 0 ? puz_clock_mono_us() + span_us : 0,
                          memory_order_relaxed);
    atomic_store_explicit(&k->phase, ph, memory_order_relaxed);
}

enum MHD_Result http__conn_access(void *cls, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    struct http_server *s = cls;
    struct conn *k = conn_of(c);

    if (k != NULL && k->refused)
        return MHD_NO;
    /* First call: the head is in, the body's clock starts. A call with
     * no data after that: the body is in (or there was none). */
    if (k != NULL && *con_cls == NULL) {
        set_phase(k, PH_BODY, s->conns->body_us);
        k->http11 = version != NULL
                    && strcmp(version, MHD_HTTP_VERSION_1_1) == 0;
        k->probed = false;
    }
    else if (k != NULL && *upload_size == 0 &&
             atomic_load_explicit(&k->phase, memory_order_relaxed) == PH_BODY)
        set_phase(k, PH_BUSY, 0);
    return http__on_request(cls, c, url, method, version, upload,
                            upload_size, con_cls);
}

void http__conn_completed(void *cls, struct MHD_Connection *c,
                          void **con_cls,
                          enum MHD_RequestTerminationCode toe)
{
    struct http_server *s = cls;
    struct http_req *r = *con_cls;
    struct conn *k = conn_of(c);
    bool abandoned = false, cut = false;
    uint64_t now = puz_clock_mono_us();   /* one clock read for both uses */

    if (k != NULL) {
        pthread_mutex_lock(&s->conns->lock);
        /* The flag lives in r's arena, which dies below. */
        k->cancel = NULL;
        abandoned = k->abandoned;
        cut = k->cut && atomic_load(&k->phase) == PH_BODY;
        k->abandoned = false;
        k->served = true;
        atomic_store(&k->phase, PH_HEAD);
        /* Next head: idle time first (MHD's own timeout), then a head. */
        atomic_store(&k->deadline_us, now + s->conns->keepalive_us);
        pthread_mutex_unlock(&s->conns->lock);
    }
    if (r != NULL && abandoned)
        r->status = 499;
    else if (r != NULL && cut && r->status == 0)
        r->status = 408;
    http__on_completed(cls, c, con_cls, toe, now);
}

const char *http__conn_remote(struct MHD_Connection *c)
{
    const struct conn *k = conn_of(c);

    return k != NULL ? k->remote : NULL;
}

void http__conn_watch(struct http_req *r, atomic_int *cancel)
{
    struct http__conns *w = r->srv->conns;
    struct conn *k = conn_of(r->conn);

    if (k == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    k->cancel = cancel;
    pthread_mutex_unlock(&w->lock);
}

void http__conn_refuse(struct MHD_Connection *c)
{
    struct conn *k = conn_of(c);

    if (k == NULL)
        return;
    k->refused = true;      /* only this connection's thread reads it */
    shutdown(k->fd, SHUT_RDWR);
}

/* Cut connections past their deadline; the caller holds the lock. */
static void sweep_deadlines(struct http__conns *w, uint64_t now)
{
    for (struct conn *k = first_conn(w); k != NULL; k = next_conn(k)) {
        uint64_t due = atomic_load_explicit(&k->deadline_us,
                                            memory_order_relaxed);

        if (k->cut || due == 0 || now < due)
            continue;
        k->cut = true;
        atomic_fetch_add(atomic_load(&k->phase) == PH_BODY ? &w->cut_body
                                                           : &w->cut_head,
                         1);
        shutdown(k->fd, SHUT_RDWR);
    }
}

/*
 * A FIN from the client while its request is pending says only that it
 * will send nothing more: a half-close (RFC 9112 section 9.6) still
 * reads the answer, a closed socket does not. Which one, only a write
 * tells: an interim "102 Processing" (every HTTP/1.1 client must take
 * and skip a 1xx) is answered by a reset from a closed socket, and
 * POLLERR/POLLHUP then say the client is gone. A half-closed client just
 * reads the 1xx and, later, its answer. HTTP/1.0 has no 1xx: its
 * half-close is answered, whatever it costs.
 */
static void probe(struct conn *k)
{
    static const char processing[] = "HTTP/1.1 102 Processing\r\n\r\n";

    k->probed = true;
    if (k->http11)
        (void)!send(k->fd, processing, sizeof(processing) - 1,
                    MSG_DONTWAIT | MSG_NOSIGNAL);
}

/* Cancel the jobs of clients that hung up; the caller holds the lock.
 * Only a suspended connection is looked at: nothing else is written on
 * its socket meanwhile, so the probe cannot interleave with an answer;
 * pipelined bytes alone are no hang-up. */
static void sweep_hangups(struct http__conns *w)
{
    struct pollfd pf[64];
    struct conn *ks[64];
    nfds_t n = 0;
    struct conn *k = first_conn(w);

    while (k != NULL) {
        for (n = 0; k != NULL && n < 64; k = next_conn(k)) {
            /* Again each tick: pool_submit clears the flag, and the
             * hang-up may have been seen just before it. */
            if (k->cancel != NULL && k->abandoned)
                atomic_store(k->cancel, 1);
            if (k->cancel == NULL || k->abandoned)
                continue;
            pf[n].fd = k->fd;
            pf[n].events = POLLRDHUP;
            pf[n].revents = 0;
            ks[n++] = k;
        }
        if (n == 0 || poll(pf, n, 0) <= 0)
            continue;
        for (nfds_t i = 0; i < n; i++) {
            short ev = pf[i].revents;

            if ((ev & (POLLHUP | POLLERR)) == 0) {
                if ((ev & POLLRDHUP) != 0 && !ks[i]->probed)
                    probe(ks[i]);
                continue;
            }
            ks[i]->abandoned = true;
            atomic_store(ks[i]->cancel, 1);
            atomic_fetch_add(&w->abandoned, 1);
        }
    }
}

static void *watchdog_main(void *arg)
{
    struct http__conns *w = arg;
    struct timespec until;

    pthread_mutex_lock(&w->lock);
    while (!w->stop) {
        sweep_deadlines(w, puz_clock_mono_us());
        sweep_hangups(w);
        /* Access log lines held past their flush time: written without
         * the connections' lock, which every request takes. */
        pthread_mutex_unlock(&w->lock);
        http__log_flush(w->srv, puz_clock_mono_us(), false);
        pthread_mutex_lock(&w->lock);
        if (w->stop)
            break;
        until = puz_clock_timespec_in(PUZ_CLOCK_MONO, TICK_MS);
        pthread_cond_timedwait(&w->wake, &w->lock, &until);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

puz_err http__conns_start(struct http_server *s)
{
    struct http__conns *w = calloc(1, sizeof(*w));

    if (w == NULL)
        return PUZ_ENOMEM;
    pthread_mutex_init(&w->lock, NULL);
    http__bgthread_cond_init(&w->wake);
    w->srv = s;
    w->max = s->cfg.max_connections;
    w->head_us = secs_us(s->cfg.request_head_timeout_s);
    w->body_us = secs_us(s->cfg.request_body_timeout_s);
    w->keepalive_us = secs_us(s->cfg.connection_timeout_s
                              + s->cfg.request_head_timeout_s);
    s->conns = w;
    if (pthread_create(&w->thread, NULL, watchdog_main, w) != 0)
        return PUZ_ENOMEM;
    w->started = true;
    return PUZ_OK;
}

void http__conns_stop(struct http_server *s)
{
    struct http__conns *w = s->conns;

    if (w == NULL || !w->started)
        return;
    http__bgthread_stop(&w->lock, &w->wake, &w->stop, w->thread);
    w->started = false;
}

void http__conns_destroy(struct http_server *s)
{
    struct http__conns *w = s->conns;

    if (w == NULL)
        return;
    http__conns_stop(s);
    /* MHD is stopped: every entry got its "closed" notification. */
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
    s->conns = NULL;
}

void http__conns_stats(struct http_server *s, struct http__conn_stats *st)
{
    struct http__conns *w = s->conns;

    memset(st, 0, sizeof(*st));
    if (w == NULL)
        return;
    pthread_mutex_lock(&w->lock);
    st->open = w->open;
    pthread_mutex_unlock(&w->lock);
    st->refused = atomic_load(&w->refused);
    st->cut_head = atomic_load(&w->cut_head);
    st->cut_body = atomic_load(&w->cut_body);
    st->abandoned = atomic_load(&w->abandoned);
    st->reclaimed = atomic_load(&w->reclaimed);
}
