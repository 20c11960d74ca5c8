/*
 * api.h - the routes of puzzled's JSON API as plain functions of the
 * request's bytes: no socket and no libmicrohttpd in them, and no thread
 * of their own to manage: where a search runs is the caller's (the
 * server's pool, a test inline). The one exception is a job's parallel
 * IDA*, whose units go to pool_run_units (this instance's threads)
 * unless units_via sends them elsewhere.
 *
 * A route function reads a struct api_call (the request: path, id,
 * query, body) and fills its answer (status, content type, extra
 * headers, body bytes). Routes that search split in two: the route
 * function decodes and validates on the calling thread (cheap, so a bad
 * request is answered without ever queueing), and when work remains it
 * leaves the answer empty; the route's work function then does the
 * search, on a worker thread in the server or inline in a test. The
 * server (src/http/) only reads bodies, calls these, hands the work to
 * its pool and queues the answer's bytes.
 *
 * Memory: everything a call allocates, the answer's bytes included,
 * comes from the call's arena and dies with it. jansson allocates from
 * that arena too while api_start() or api_work() runs.
 */
#ifndef API_H
#define API_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api_limits.h"
#include "api_keys.h"
#include "api_problem.h"
#include "puz_arena.h"
#include "puz_pdb.h"
#include "puz_solve.h"
#include "store.h"

struct api_solve_request;      /* api_decode.h */

struct api_call;
struct jobs_view;
struct jobsvc;
struct jobsvc_job;
struct jobsvc_run;
struct jobs_outcome;

/* What every call may read; built once at server start, read-only
 * afterwards (the counter excepted, which is atomic). */
struct api_ctx {
    const struct api_limits *lim;   /* caps and defaults */
    const puz_tables *tables;       /* handed to every solve */
    const puz_table3 *table3;       /* 3x3 default goal, for random */
    store *store;                   /* the daily leaderboard; NULL = off
                                     * (store.h serialises its calls) */
    const atomic_int *draining;     /* nonzero: refuse new searches */
    struct jobsvc *jobs;            /* what the /v1/jobs routes use
                                     * (jobsvc.h: either backend) */
    struct api_keys *keys;          /* API keys; NULL = none configured */
    bool jobs_list_anonymous;       /* GET /v1/jobs without a key lists
                                     * the anonymous jobs (else 401/403) */
    uint64_t salt;                  /* per-process random, for seeds */
    atomic_uint_fast64_t *counter;  /* per-process counter, for seeds */
    /* Called after every finished search (a batch: every board), from
     * whichever thread ran it; NULL = nobody listens. */
    void (*on_search)(void *user, const struct puz_result *res);
    void *user;
    /* The tables of rows x cols boards being built in the background,
     * as a new JSON object ({partition, state, percent}), or NULL: none
     * (then, or when this is NULL, the catalog says nothing of it, and
     * a search asking for "pdb" is not held back). Gets user. */
    json_t *(*tables_state)(void *user, unsigned rows, unsigned cols);
};

/* One query parameter, as the client sent it (value NULL: no '='). */
struct api_param {
    const char *key;
    const char *value;
};

/*
 * The "{name}" segments of a route's path ("/v1/jobs/{id}"), captured
 * by api_route_find in the order they appear. A value is "" when its
 * segment was longer than API_PATH_PARAM_LEN_MAX bytes or held a byte
 * outside A-Z a-z 0-9 - . _ ~ : no route can use such a name, so it
 * answers as it does for an unknown one. Read them with api_path_param.
 */
#define API_PATH_PARAMS_MAX 4
#define API_PATH_PARAM_LEN_MAX 64

struct api_path_params {
    const char *pattern;    /* the matched route's path; NULL: none */
    unsigned n;
    char value[API_PATH_PARAMS_MAX][API_PATH_PARAM_LEN_MAX + 1];
};

struct api_request {
    const char *path;       /* the URL path: "instance" of problems */
    const char *id;         /* request id: "request_id" of problems */
    const char *client;     /* the client's address ("127.0.0.1",
                             * "::1"; "-" when unknown), for per-client
                             * limits; NULL in calls made without one */
    struct api_path_params params;  /* the path's "{name}" segments */
    const char *authorization;  /* the Authorization header, or NULL */
    const char *idempotency_key;    /* the Idempotency-Key header as
                                     * sent (several joined by ", "),
                                     * or NULL (POST /v1/jobs) */
    const char *traceparent;        /* the traceparent header (W3C Trace
                                     * Context), or NULL */
    const char *body;       /* JSON routes: the whole body */
    size_t len;
    const struct api_param *query;
    size_t nquery;
};

#define API_HEADERS_MAX 4

struct api_header {
    const char *name;
    const char *value;      /* arena or static */
};

/* What goes back: status 0 means "not answered yet". */
struct api_answer {
    unsigned status;
    const char *content_type;
    const char *body;       /* len bytes, arena or static; not NUL-ended */
    size_t len;
    struct api_header headers[API_HEADERS_MAX];
    unsigned nheaders;
    uint64_t expanded;      /* nodes the call's searches expanded */
};

typedef void (*api_fn)(struct api_call *c);

struct api_call {
    const struct api_ctx *ctx;
    struct api_request rq;
    puz_arena *arena;
    const atomic_int *cancel;   /* the work stops soon after *cancel != 0;
                                 * may be NULL */
    const struct api_key *key;  /* who asks (api_start); NULL: anyone */
    void *state;                /* from the route function to its work */
    struct api_answer answer;
    puz_arena *scratch;         /* searches and per-board JSON, beside
                                 * arena and under the same budget
                                 * (api_work frees it) */
    size_t scratch_peak;        /* its high-water mark, for metrics */
    /* Where the call's searches report progress, and their final
     * numbers (a job's run, api_jobs.c); NULL = nobody listens. */
    puz_progress_fn progress;
    void *progress_user;
    /* A job's work sets it (api_jobs.c): handed the decoded request,
     * it may point a parallel IDA*'s runner elsewhere (the shared jobs'
     * units across instances, jobsvc_run_units); NULL: this instance's
     * threads (pool_run_units). */
    void (*units_via)(const struct api_call *c,
                      const struct api_solve_request *q,
                      struct puz_solve_opts *o);
    void *units_user;           /* units_via's (not state: routes' work
                                 * replace state as they go) */
};

/*
 * A route: method ("GET" also answers HEAD) and path, where a segment
 * "{name}" matches any one non-empty segment (see api_path_params);
 * json_body
 * for POST routes with a JSON body; fn runs on the thread that read the
 * request; work, when not NULL, is what fn leaves for a worker (fn then
 * returns with answer.status == 0). waits: the work waits on the
 * network (the shared jobs' Redis), not on a CPU, so the server runs it
 * on threads of its own rather than the solvers': neither a network
 * thread nor a solve ever waits behind it.
 */
struct api_route {
    const char *method;
    const char *path;
    bool json_body;
    api_fn fn;
    api_fn work;
    bool waits;
};

/* The route table, ended by an entry whose path is NULL. Its bound is
 * part of the type so that the server can size its metric labels at
 * build time (routes.c): a table with more than API_ROUTES_MAX routes
 * plus its end does not compile (excess elements in the initializer). */
#define API_ROUTES_MAX 16
extern const struct api_route api_routes[API_ROUTES_MAX + 1];

/* The route for method and path (HEAD finds GET routes), or NULL; its
 * path's "{name}" segments go to *pp when pp is not NULL. */
const struct api_route *api_route_find(const char *method, const char *path,
                                       struct api_path_params *pp);

/* Whether path fits pattern: its literal bytes equal, each "{name}" one
 * non-empty segment (no '/'). Captures into *pp when pp is not NULL
 * (also for the server's own routes). */
bool api_path_match(const char *pattern, const char *path,
                    struct api_path_params *pp);

/* The value of the "{name}" segment of the call's path ("" when it
 * could not be a name, see api_path_params); NULL when the route's
 * path has no such segment. */
const char *api_path_param(const struct api_call *c, const char *name);

/* Set up c for one request; rq is copied. */
void api_call_init(struct api_call *c, const struct api_ctx *ctx,
                   const struct api_request *rq, puz_arena *a);

/* Who asks (c->key): no Authorization is anyone; "Bearer KEY" must name
 * a key of the keys file (a wrong key is an error, never anonymous),
 * within its requests a minute. False with 401 or 429 answered.
 * api_start does it; the glue's own routes that act for a caller (the
 * jobs' event stream) call it themselves. */
bool api_call_authorize(struct api_call *c);

/* Run rt->fn with the JSON allocator bound to c->arena. Returns true
 * when the answer is ready, false when rt->work must run next. */
bool api_start(const struct api_route *rt, struct api_call *c);

/* Run rt->work (same binding); the answer is ready afterwards. */
void api_work(const struct api_route *rt, struct api_call *c);

/* Both in a row, on this thread: for tests and tools. */
void api_run(const struct api_route *rt, struct api_call *c);

/* The job named by the call's "{id}" segment, the caller allowed to
 * see it (with answer, its answer too): true with *job held (give it
 * back with jobsvc_job_release), or false with the 404 (or the 503:
 * the jobs' store cannot be reached) answered. The glue's event stream
 * uses it too. */
bool api_jobs_find(struct api_call *c, bool answer, struct jobsvc_job *job);

/*
 * A job as JSON bytes, for the glue's event stream: the whole job
 * (final true: id, state, times, progress and its result, error or
 * reason) or a progress event (its numbers with id and state), from a
 * view of it. *buf is from malloc, *len its length; false when memory
 * ran out.
 */
bool api_jobs_view_event(const struct jobs_view *v, bool final,
                         char **buf, size_t *len);

/* What a job runs (a jobsvc_run_fn, user = the api_ctx): its request
 * decoded as POST /v1/jobs decodes it, then /v1/solve's work. */
void api_jobs_run(void *user, const char *body, size_t len,
                  const struct jobsvc_run *run, struct jobs_outcome *out);

/*
 * Answers. They never fail: when memory runs out the answer becomes a
 * plain-text 500. api_answer_json takes body (a new reference or NULL)
 * and encodes it into the arena; problems carry instance and
 * request_id from the request, and Retry-After when the status is 503.
 */
void api_answer_json(struct api_call *c, unsigned status, json_t *body);
void api_answer_problem(struct api_call *c, const struct api_problem *p);
void api_answer_problemf(struct api_call *c, enum api_problem_kind k,
                         const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void api_answer_problemv(struct api_call *c, enum api_problem_kind k,
                         const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
void api_answer_bytes(struct api_call *c, unsigned status,
                      const char *content_type, const void *buf,
                      size_t len);
/* Add a header (name static; value copied into the arena). */
void api_answer_header(struct api_call *c, const char *name,
                       const char *value);
/* The W3C trace-id (32 hex digits) that joins this call to others, for
 * the access log: the one its answer's traceparent names (an answer about
 * a job carries the job's trace), else the request's valid traceparent's.
 * False, out "", when neither has one. out holds 33 bytes. */
bool api_call_trace_id(const struct api_call *c, char *out);

#endif
