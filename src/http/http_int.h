/*
 * http_int.h - what the files of src/http/ share and nobody else sees:
 * the server and request structs, the route table, the reply helpers.
 *
 * Threads: MHD's network threads run the access handler and the
 * completion callback; solver workers run jobs. A request is touched by
 * one thread at a time: the network thread until it suspends the
 * connection and submits the job, the worker until it resumes it.
 */
#ifndef HTTP_INT_H
#define HTTP_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#include <jansson.h>

#include "api.h"
#include "http_config.h"
#include "http_metrics.h"
#include "api_problem.h"
#include "http_server.h"
#include "http_static.h"
#include "http_jobs.h"
#include "http_pdb_bg.h"
#include "jobsvc.h"
#include "pool.h"
#include "puz_arena.h"
#include "puz_clock.h"
#include "puz_pdb.h"
#include "puz_table3.h"

#define HTTP__ID_MAX 72
#define HTTP__ADDR_MAX 48

/* Metric labels: one per route of the API table and of the server's
 * own table, in that order, then "static" and "other"
 * (http__labels_init fills s->labels). */
#define HTTP__LABELS_MAX HTTP_METRICS_MAX_ROUTES

struct http_server {
    struct http_config cfg;         /* read-only after start */
    api_keys *keys;                 /* from api_keys_file; NULL = none */
    struct MHD_Daemon *daemon;
    int listen_fd;
    bool mhd_owns_fd;               /* MHD closes listen_fd on stop */
    struct MHD_Daemon *probe_daemon;    /* probe_port's; NULL = none */
    struct http__keysync *keysync;  /* keys' use across instances; NULL =
                                     * none (keysync.c) */
    atomic_uint_fast64_t key_syncs;         /* keysync.c's rounds that
                                             * reached Redis */
    atomic_uint_fast64_t key_sync_errors;   /* and those that did not */
    int probe_fd;
    unsigned probe_port;
    bool stopped;
    unsigned port;
    char url[96];
    pool_t *pool;
    unsigned workers;
    /* Threads for work that waits on the network, not a CPU (the shared
     * jobs' Redis: api_route.waits); NULL when nothing waits so (the
     * embedded jobs): then such work, if any, runs on pool. */
    pool_t *wait_pool;
    unsigned http_threads;      /* network threads started */
    const puz_table3 *table3;       /* default 3x3 goal, for random;
                                     * one of the tables' own */
    puz_tables *tables;             /* handed to every solve */
    http_pdb_bg *pdb_bg;            /* pdb_5x5 in the background, or NULL */
    http_pdb_bg *pdb_bg4;           /* pdb (4x4) in the background */
    http_pdb_bg *pdb_bg_rect;       /* pdb_rect in the background */
    /* pdb_5x5 = auto: the set chosen (NULL: another value) and why, as
     * /readyz, /v1/catalog, /metrics and the log say it */
    const char *pdb_auto;
    char pdb_auto_why[160];
    http_static *www;               /* NULL: no static root */
    store *store;                   /* the leaderboard; NULL = off */
    struct http__proxies *proxies;  /* trusted_proxies; NULL = none */
    char *openapi;                  /* the spec file, or NULL */
    size_t openapi_len;
    http_metrics *metrics;
    jobsvc *jobs;                   /* /v1/jobs: embedded, or shared
                                     * through Redis (redis_url) */
    http_streams *streams;          /* their event streams */
    struct http_streams_limits streams_limits;  /* as in force */
    int log_fd;                     /* access log, -1 = off */
    bool log_close;                 /* we opened log_fd */
    struct http__logbuf *logbuf;    /* lines not yet written (log.c) */
    bool cors_any;                  /* cors_origins = "*" */
    atomic_int draining;
    atomic_uint in_flight;          /* requests not yet completed */
    atomic_uint_fast64_t next_id;
    uint64_t id_salt;
    struct http__conns *conns;      /* deadlines, limit, hang-ups */
    struct api_ctx api;             /* what the route functions see */
    const char *labels[HTTP__LABELS_MAX];
    unsigned nlabels, label_static, label_other;
    pthread_mutex_t arena_lock;     /* guards the free list below */
    puz_arena **arena_free;
    unsigned arena_nfree;
};

struct http__conns;     /* conns.c */
struct http__conn_stats {
    unsigned open;              /* connections MHD holds now */
    uint64_t refused;           /* past max_connections */
    uint64_t cut_head, cut_body;    /* past a deadline */
    uint64_t abandoned;         /* hung up while a job was pending */
    uint64_t reclaimed;         /* idle ones shut for a new one */
};

struct http_req;
/* A route of the server itself (health, metrics, the spec, the jobs'
 * event streams): the ones that need MHD. Returns true when the
 * request was handed to another thread: from then on the calling
 * network thread must not touch it until MHD calls back. */
typedef bool (*http__handler)(struct http_req *r);

struct http__route {
    const char *method;     /* "GET" also answers HEAD */
    const char *path;       /* may be a template: "/v1/jobs/{id}" */
    bool json_body;         /* POST with a JSON body */
    http__handler handler;
};

/* Where a request stands in its life (exchange.c). */
enum http__phase {
    HTTP__PHASE_HEAD = 0,   /* being made from its head */
    HTTP__PHASE_BODY,       /* its body arriving */
    HTTP__PHASE_ROUTE,      /* its route running */
    HTTP__PHASE_WORK,       /* a worker has it; the connection waits */
    HTTP__PHASE_REPLY,      /* its answer queued */
};

struct http_req {
    struct http_server *srv;
    struct MHD_Connection *conn;
    puz_arena *arena;               /* the request's memory, this struct
                                     * included */
    const struct api_route *api;        /* matched API route, or NULL */
    const struct http__route *route;    /* matched own route, or NULL */
    unsigned label;                     /* index into srv->labels */
    struct api_path_params params;      /* the route's "{name}"s */
    struct api_call call;               /* the API's view of it */
    char method[12];
    const char *path;               /* arena copy of the URL path */
    const char *origin;             /* allowed CORS origin, or NULL */
    char id[HTTP__ID_MAX];
    char remote[HTTP__ADDR_MAX];
    uint64_t start_us;
    char *body;
    size_t body_len, body_cap;
    uint64_t body_seen;             /* bytes received, kept or not */
    bool too_large;
    bool form_body;                 /* sent as a form: JSON only if it is */
    bool answered;                  /* written by http__req_send_early */
    enum http__phase phase;
    struct MHD_Response *response;  /* ready to queue */
    unsigned status;
    size_t reply_bytes;
    uint64_t expanded;              /* nodes, for the access log */
};

/* request.c */
struct http_req *http__req_create(struct http_server *s,
                                  struct MHD_Connection *c,
                                  const char *url, const char *method);
void http__req_destroy(struct http_req *r);
/* Take body bytes, enforcing max_body_bytes as they arrive. */
void http__req_body(struct http_req *r, const char *data, size_t size);
/* Queue r->response with the common headers; MHD_NO on failure. */
enum MHD_Result http__req_queue(struct http_req *r);
/* Write the answer in r->call.answer now, during the body (a 413):
 * the request then ends with the body, the connection with it. */
void http__req_send_early(struct http_req *r);

/* Replies (network thread, or the worker while it holds r). They set
 * r->response; a NULL response or a failed allocation becomes a plain
 * 500. */
void http__reply(struct http_req *r, unsigned status,
                 struct MHD_Response *resp);
void http__reply_copy(struct http_req *r, unsigned status,
                      const char *content_type, const void *buf,
                      size_t len);
/* r->call.answer, bytes copied, headers added. */
void http__reply_answer(struct http_req *r);
/* Answer JSON (body: a new reference) or a problem, through r->call. */
void http__reply_json(struct http_req *r, unsigned status, json_t *body);
void http__reply_problemf(struct http_req *r, enum api_problem_kind k,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Arenas recycled across requests (thread-safe). */
puz_arena *http__arena_get(struct http_server *s);
void http__arena_put(struct http_server *s, puz_arena *a);
size_t http__arena_cached_bytes(struct http_server *s);

/* exchange.c: one request's life (its phases are told there). */
enum MHD_Result http__on_request(void *cls, struct MHD_Connection *c,
                                 const char *url, const char *method,
                                 const char *version, const char *upload,
                                 size_t *upload_size, void **con_cls);
/* now: puz_clock_mono_us() at the end, which the caller read already. */
void http__on_completed(void *cls, struct MHD_Connection *c,
                        void **con_cls,
                        enum MHD_RequestTerminationCode toe, uint64_t now);

/* routes.c: matching a request to its route, and the server's own. */
/* r->api or r->route (and r->label, r->params) for r's method and path. */
void http__route_match(struct http_req *r);
/* No route takes this method on this path: a static file, OPTIONS, 404
 * or 405 (with the Allow list). */
void http__route_other(struct http_req *r);
bool http__ready(struct http_server *s, json_t **checks);
/* MHD_OPTION_UNESCAPE_CALLBACK: percent-decoding that keeps "%00". */
size_t http__unescape(void *cls, struct MHD_Connection *c, char *s);
/* Fill s->labels (before the metrics are created). */
void http__labels_init(struct http_server *s);
/* Fill s->api from the loaded tables and the config. */
void http__api_init(struct http_server *s);

/* Body bytes read (kept or dropped) before a request over
 * max_body_bytes is cut off: the cap plus max_discard_bytes. */
static inline uint64_t http__discard_limit(const struct http_server *s)
{
    return (uint64_t)s->cfg.api.max_body_bytes + s->cfg.max_discard_bytes;
}

/* bgthread.c: the server's background threads (the watchdog, keysync).
 * A thread sleeps on wake, which this initialises on the monotonic clock
 * (its timed waits use PUZ_CLOCK_MONO). */
void http__bgthread_cond_init(pthread_cond_t *wake);
/* Set *stop under lock, wake the thread that sleeps on wake and join
 * it. */
void http__bgthread_stop(pthread_mutex_t *lock, pthread_cond_t *wake,
                         bool *stop, pthread_t thread);

/* conns.c: the watchdog of connections (see there). The MHD callbacks
 * wrap http__on_request and http__on_completed. */
puz_err http__conns_start(struct http_server *s);
void http__conns_stop(struct http_server *s);
void http__conns_destroy(struct http_server *s);
void http__conns_stats(struct http_server *s, struct http__conn_stats *st);

/* keysync.c: in shared mode with API keys, a thread that counts each
 * key's requests and streams across instances; nothing otherwise. */
puz_err http__keysync_start(struct http_server *s);
void http__keysync_stop(struct http_server *s);
/* Its part of /metrics ("" when it does not run): a heap string the
 * caller frees, NULL when out of memory. */
char *http__keysync_metrics_render(struct http_server *s, size_t *len);
void http__conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
                       enum MHD_ConnectionNotificationCode code);
enum MHD_Result http__conn_access(void *cls, struct MHD_Connection *c,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls);
void http__conn_completed(void *cls, struct MHD_Connection *c,
                          void **con_cls,
                          enum MHD_RequestTerminationCode toe);
/* r's job is pending (suspended connection): if the client hangs up,
 * set *cancel (which must live until r completes) and log 499. Call on
 * the network thread before suspending. */
void http__conn_watch(struct http_req *r, atomic_int *cancel);
/* The client's address of c, formatted once when it connected (NULL:
 * not tracked); http__addr_format formats it ("-" when unknown). */
const char *http__conn_remote(struct MHD_Connection *c);
void http__addr_format(struct MHD_Connection *c, char out[HTTP__ADDR_MAX]);

/* trusted_proxies (proxies.c): parsed once at start (NULL when empty;
 * PUZ_EINVAL with words in msg), and the client of a request: remote,
 * or when remote is a trusted proxy the last address of X-Forwarded-For
 * (xff, may be NULL) not a trusted proxy's, written to out. */
struct http__proxies;
/* The store's /metrics text (store_metrics.c; "" without a store): a
 * heap string the caller frees, NULL when out of memory. */
char *http__store_metrics_render(store *st, size_t *len);
puz_err http__proxies_parse(const char *list, struct http__proxies **out,
                            char *msg, size_t size);
void http__proxies_free(struct http__proxies *p);
const char *http__client_of(const struct http__proxies *p,
                            const char *remote, const char *xff,
                            char *out, size_t size);
/* Answered outside MHD (framing.c): shut the socket, and let no request
 * of this connection reach the handler. */
void http__conn_refuse(struct MHD_Connection *c);

/* framing.c: refuse a request head whose framing cannot be trusted
 * (smuggling material, codings MHD cannot decode). False when it set
 * r->response (with Connection: close) to answer at once. */
bool http__check_framing(struct http_req *r, const char *version);
/* MHD_OPTION_URI_LOG_CALLBACK: a request line with more than
 * HTTP__MAX_QUERY_ARGS query parameters is answered 400 on the spot. */
#define HTTP__MAX_QUERY_ARGS 64
void *http__uri_check(void *cls, const char *uri, struct MHD_Connection *c);

/* The waiting threads (wait_pool): each holds a request at most
 * redis_timeout_ms (a few commands' worth) while Redis stalls. */
#define HTTP__WAIT_THREADS 4

/* job.c: hand a request's remaining work to a pool (the waiting
 * threads' when its route waits on the network, else the solvers').
 * When it returns true the caller must not touch r again: its answer is
 * queued when MHD calls back. False: r is answered already (out of
 * memory). */
bool http__submit(struct http_req *r);
/* The same for the rest of a server route (own, on a waiting thread:
 * it sets r's response, as a handler would). */
bool http__submit_waiting(struct http_req *r, void (*own)(struct http_req *r));

/* link.c: a doubly-linked list whose nodes start with their link (a
 * pointer to one is a pointer to the other); *head is the first node,
 * NULL when the list is empty. */
struct http__link {
    struct http__link *prev, *next;
};
/* Put l first in the list. */
void http__link_push(struct http__link **head, struct http__link *l);
/* Take l, which is in the list, out of it. */
void http__link_remove(struct http__link **head, struct http__link *l);

/* streams.c: a set of job event streams (jobs_stream.c): its list, lock,
 * caps and thread. A stream's bytes not yet sent, [off, len) of buf (heap, cap bytes). */
struct http__pending {
    char *buf;
    size_t cap, len, off;
};
/* Room for n more bytes (emptied first when all was sent); false on
 * ENOMEM. */
bool http__pending_reserve(struct http__pending *p, size_t n);
/* What every stream starts with: its place in its set's list and what
 * the caps count it by. */
struct http__stream {
    struct http__link link;         /* first: the set's list holds it */
    bool linked;                    /* admitted: in the set's list */
    char client[64];                /* for the per-client cap */
    char key[JOBS_OWNER_MAX + 1];   /* for the key's cap; "" = none */
};
/* A set of streams: one lock
 * for its list and every field of its streams, their caps, and the
 * thread that feeds and resumes them. */
struct http__stream_set {
    pthread_mutex_t lock;
    struct http__link *head;        /* its streams, newest first */
    unsigned count;
    struct http_streams_limits lim;
    bool closing;                   /* shutdown: end every stream */
    bool stop;                      /* the thread should exit */
    pthread_t thread;
    bool thread_started;
};
/* The lock and the limits, then the thread fn(arg): false when no
 * thread could be started (http__set_destroy then still works). */
bool http__set_init(struct http__stream_set *set,
                    const struct http_streams_limits *lim,
                    void *(*fn)(void *), void *arg);
/* The thread's question after each round: should it exit? */
bool http__set_stopping(struct http__stream_set *set);
/* Admits st (client and key filled) if one more stream fits the caps
 * (and key_cap, 0 = none) and links it: PUZ_OK, or PUZ_EFULL /
 * PUZ_ELIMITED with *limit naming the limit. same_job says whether two
 * streams watch one job. Takes the lock. */
puz_err http__set_admit(struct http__stream_set *set, struct http__stream *st,
                        bool (*same_job)(const struct http__stream *a,
                                         const struct http__stream *b),
                        unsigned key_cap, struct http_streams_refusal *limit);
/* Out of the list if it was admitted (lock held). */
void http__set_unlink(struct http__stream_set *set, struct http__stream *st);
/* Streams open now (takes the lock). */
unsigned http__set_count(struct http__stream_set *set);
/* The pause of a shutdown's polls (every HTTP__SHUTDOWN_POLL_MS): what
 * they wait for (streams gone, requests completed) is counted by the
 * hot path without a condition variable, which a wait once per process
 * does not justify adding to every request. */
#define HTTP__SHUTDOWN_POLL_MS 5

/* From now on every stream ends; then wait at most wait_ms for them
 * to go, calling kick(arg) (may be NULL) every HTTP__SHUTDOWN_POLL_MS
 * to wake them. */
void http__set_shutdown(struct http__stream_set *set, unsigned wait_ms,
                        void (*kick)(void *arg), void *arg);
/* A content reader with nothing to send, the set's lock held: lets go
 * of the lock and ends the stream (end) or suspends its connection
 * until the set's thread resumes it (*suspended says so). Returns what
 * the reader returns. */
ssize_t http__set_idle(struct http__stream_set *set,
                       struct MHD_Connection *conn, bool *suspended,
                       bool end);
/* Stops and joins the thread, then the lock goes. */
void http__set_destroy(struct http__stream_set *set);
/* Content-Type, Cache-Control and X-Accel-Buffering of a stream. */
void http__sse_headers(struct MHD_Response *resp);

/* jobs_events.c: GET /v1/jobs/{id}/events. */
bool http__handle_jobs_events(struct http_req *r);

/* log.c */
void http__log_access(const struct http_req *r, uint64_t now_us);
/* A line for a work unit this instance ran for a shared job (jobq.h's
 * unit_ran; user is the server): "event":"unit", the job, its trace. */
void http__log_unit(void *user, const struct jobq_unit_report *u);
/* The access log's buffer: lines are written together once it is full
 * or its oldest line is access_log_flush_ms old (at once when that is
 * 0). http__log_flush writes what is held (force) or only what is due;
 * the watchdog calls it every tick, reopen and shutdown with force. */
puz_err http__log_open_buffer(struct http_server *s);
void http__log_flush(struct http_server *s, uint64_t now_us, bool force);
void http__log_close_buffer(struct http_server *s);
void http__log_line(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

#endif
