/*
 * routes.c - which route a request goes to (the API's table in
 * src/api/api.c, then the server's own) and the server's own small
 * routes: health, metrics, the spec, CORS preflight, 404/405 with Allow
 * and the web game's static files. A request's life around them is
 * exchange.c's.
 */
#include "http_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "api_jalloc.h"

static bool handle_livez(struct http_req *r);
static bool handle_readyz(struct http_req *r);
static bool handle_metrics(struct http_req *r);
static bool handle_openapi(struct http_req *r);

/* The server's own routes; the API's are api_routes. */
static const struct http__route routes[] = {
    { "GET", "/livez", false, handle_livez },
    { "GET", "/healthz", false, handle_livez },
    { "GET", "/readyz", false, handle_readyz },
    { "GET", "/metrics", false, handle_metrics },
    { "GET", "/openapi.yaml", false, handle_openapi },
    /* An event stream keeps its connection: jobs_events.c. */
    { "GET", "/v1/jobs/{id}/events", false, http__handle_jobs_events },
    { NULL, NULL, false, NULL },
};

/* Every route gets a label of its own, never "other": the API's at most
 * API_ROUTES_MAX, these, then "static" and "other" fit the metrics'
 * table (a route past it would be counted under "other" unseen). */
_Static_assert(API_ROUTES_MAX + sizeof(routes) / sizeof(routes[0]) - 1 + 2
               <= HTTP__LABELS_MAX, "more routes than metric labels: raise "
               "HTTP_METRICS_MAX_ROUTES");

/* The label of a route path: each path once, whatever its methods. */
static unsigned label_of(const struct http_server *s, const char *path)
{
    for (unsigned i = 0; i < s->nlabels; i++)
        if (strcmp(s->labels[i], path) == 0)
            return i;
    return s->label_other;
}

static void add_label(struct http_server *s, const char *path)
{
    /* never false: the _Static_assert above; kept so that a table grown
     * past it can never write beyond labels[] */
    if (s->nlabels + 2 < HTTP__LABELS_MAX
        && label_of(s, path) == s->label_other)
        s->labels[s->nlabels++] = path;
}

void http__labels_init(struct http_server *s)
{
    s->nlabels = 0;
    s->label_other = HTTP__LABELS_MAX;  /* none yet */
    for (const struct api_route *rt = api_routes; rt->path != NULL; rt++)
        add_label(s, rt->path);
    for (const struct http__route *rt = routes; rt->path != NULL; rt++)
        add_label(s, rt->path);
    s->label_static = s->nlabels;
    s->labels[s->nlabels++] = "static";
    s->label_other = s->nlabels;
    s->labels[s->nlabels++] = "other";
}

static const char *bg_state_name(enum http_pdb_bg_state st)
{
    return st == HTTP_PDB_BG_READY ? "ready"
           : st == HTTP_PDB_BG_FAILED ? "failed" : "building";
}

/* A background table build, as /readyz and /v1/catalog show it: never
 * part of readiness. The 5x5 set pdb_5x5 = auto chose says why. */
static json_t *bg_json(const struct http_server *s, const http_pdb_bg *b)
{
    unsigned pm;
    enum http_pdb_bg_state st = http_pdb_bg_state(b, &pm);
    json_t *o = json_pack("{s:s, s:s, s:f}", "partition",
                          http_pdb_bg_name(b), "state", bg_state_name(st),
                          "percent", pm / 10.0);

    if (o != NULL && b == s->pdb_bg && s->pdb_auto != NULL)
        json_object_set_new(o, "chosen", json_string(s->pdb_auto_why));
    return o;
}

/* The background build that will give rows x cols boards their tables,
 * or NULL: none (the tables are loaded at start, or none are asked). */
static const http_pdb_bg *bg_for(const struct http_server *s,
                                 unsigned rows, unsigned cols)
{
    struct puz_board goal;
    enum puz_pdb_partition p;

    if (rows == cols)
        return rows == 5 ? s->pdb_bg : rows == 4 ? s->pdb_bg4 : NULL;
    if (s->pdb_bg_rect == NULL ||
        puz_board_goal_shape(rows, cols, &goal) != PUZ_OK)
        return NULL;
    return puz_pdb_rect_partition(&goal, &p) ? s->pdb_bg_rect : NULL;
}

/* api_ctx.tables_state: the background build of rows x cols boards'
 * tables, if any. */
static json_t *tables_state(void *user, unsigned rows, unsigned cols)
{
    const http_pdb_bg *b = bg_for(user, rows, cols);

    return b != NULL ? bg_json(user, b) : NULL;
}

/* Every search counts in the metrics, whichever thread ran it. */
static void count_search(void *user, const struct puz_result *res)
{
    struct http_server *s = user;

    http_metrics_solve(s->metrics, res->status, res->stats.time_us,
                       res->stats.expanded);
}

void http__api_init(struct http_server *s)
{
    s->api.lim = &s->cfg.api;
    s->api.tables = s->tables;
    s->api.table3 = s->table3;
    s->api.store = s->store;
    s->api.draining = &s->draining;
    s->api.jobs = s->jobs;
    s->api.keys = s->keys;
    s->api.jobs_list_anonymous = s->cfg.jobs_list_anonymous != 0;
    s->api.salt = s->id_salt;
    s->api.counter = &s->next_id;
    s->api.on_search = count_search;
    s->api.user = s;
    s->api.tables_state = tables_state;
}

static bool method_is(const struct http_req *r, const char *m)
{
    return strcmp(r->method, m) == 0;
}

static bool route_answers(const char *method, const struct http_req *r)
{
    return strcmp(method, r->method) == 0
           || (strcmp(method, "GET") == 0 && method_is(r, "HEAD"));
}

static size_t allow_one(const char *method, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s%s", method,
                     strcmp(method, "GET") == 0 ? ", HEAD, " : ", ");

    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* "GET, HEAD, OPTIONS" for a path; "" if the path is unknown. */
static void allow_list(const char *path, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (const struct api_route *rt = api_routes; rt->path != NULL; rt++)
        if (api_path_match(rt->path, path, NULL))
            used += allow_one(rt->method, buf + used, size - used);
    for (const struct http__route *rt = routes; rt->path != NULL; rt++)
        if (api_path_match(rt->path, path, NULL))
            used += allow_one(rt->method, buf + used, size - used);
    if (used > 0)
        snprintf(buf + used, size - used, "OPTIONS");
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/*
 * Percent-decoding of paths and query values, in place. It is MHD's
 * except that "%00" stays as it is: decoded, its NUL would silently cut
 * the string, and "/index.html%00.js" would serve /index.html.
 */
size_t http__unescape(void *cls, struct MHD_Connection *c, char *s)
{
    char *out = s;
    int hi, lo;

    (void)cls;
    (void)c;
    for (const char *in = s; *in != '\0'; out++) {
        hi = in[0] == '%' ? hex_digit(in[1]) : -1;
        lo = hi >= 0 ? hex_digit(in[2]) : -1;
        if (lo >= 0 && (hi | lo) != 0) {
            *out = (char)(hi * 16 + lo);
            in += 3;
        } else {
            *out = *in++;
        }
    }
    *out = '\0';
    return (size_t)(out - s);
}

static bool handle_livez(struct http_req *r)
{
    http__reply_json(r, 200, json_pack("{s:s}", "status", "ok"));
    return false;
}

bool http__ready(struct http_server *s, json_t **checks)
{
    struct pool_stats st;
    bool workers, queue, tables, draining;

    char why[PUZ_MSG_MAX] = "", jobs_why[PUZ_MSG_MAX] = "";
    bool store_ok, jobs_ok;

    pool_get_stats(s->pool, &st);
    workers = st.workers == s->workers;
    queue = st.queued < st.capacity;
    tables = s->table3 != NULL && s->tables != NULL;
    draining = atomic_load(&s->draining) != 0;
    /* The store as its own thread last found it: no I/O here. */
    store_ok = s->store == NULL || store_ready(s->store, why);
    /* Shared jobs as their workers last found them (queue lost, Redis
     * full): counted with the store, so ?ignore=store leaves both. */
    jobs_ok = s->jobs == NULL || jobsvc_ready(s->jobs, jobs_why);
    if (checks != NULL) {
        *checks = json_pack("{s:b, s:b, s:b, s:b, s:b}", "workers",
                            workers, "tables", tables, "queue", queue,
                            "draining", draining, "store", store_ok);
        if (!store_ok && *checks != NULL)
            json_object_set_new(*checks, "store_error", json_string(why));
        if (s->jobs != NULL && *checks != NULL
            && strcmp(jobsvc_backend(s->jobs), "shared") == 0)
            json_object_set_new(*checks, "jobs", json_boolean(jobs_ok));
        if (!jobs_ok && *checks != NULL)
            json_object_set_new(*checks, "jobs_error",
                                json_string(jobs_why));
        if (*checks != NULL && s->pdb_bg4 != NULL)
            json_object_set_new(*checks, "pdb", bg_json(s, s->pdb_bg4));
        if (*checks != NULL && s->pdb_bg != NULL)
            json_object_set_new(*checks, "pdb_5x5", bg_json(s, s->pdb_bg));
        if (*checks != NULL && s->pdb_bg_rect != NULL)
            json_object_set_new(*checks, "pdb_rect",
                                bg_json(s, s->pdb_bg_rect));
    }
    return workers && queue && tables && !draining && store_ok && jobs_ok;
}

/* ?ignore=store: the store's check is shown but does not count, for a
 * readiness probe that should keep routing solves to an instance whose
 * shared store is down (every instance's would be: docs/operations.md). */
static bool handle_readyz(struct http_req *r)
{
    json_t *checks = NULL;
    const char *ignore = MHD_lookup_connection_value(
        r->conn, MHD_GET_ARGUMENT_KIND, "ignore");
    bool ok = http__ready(r->srv, &checks);

    if (!ok && ignore != NULL && strcmp(ignore, "store") == 0
        && checks != NULL
        && (json_is_false(json_object_get(checks, "store"))
            || json_is_false(json_object_get(checks, "jobs")))) {
        json_t *c = json_object_get(checks, "draining");

        ok = json_is_true(json_object_get(checks, "workers"))
             && json_is_true(json_object_get(checks, "tables"))
             && json_is_true(json_object_get(checks, "queue"))
             && json_is_false(c);
    }

    http__reply_json(r, ok ? 200 : 503, json_pack("{s:s, s:o}", "status",
                     ok ? "ready" : "not_ready", "checks", checks));
    return false;
}

/* The tables' part of /metrics: each background build's percentage
 * (100 once in use), and the budget pdb_5x5 = auto chose by. */
static char *tables_metrics_render(const struct http_server *s,
                                   size_t *len)
{
    const http_pdb_bg *bgs[] = { s->pdb_bg4, s->pdb_bg, s->pdb_bg_rect };
    const char *const setting[] = { "pdb", "pdb_5x5", "pdb_rect" };
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);

    if (f == NULL)
        return NULL;
    fprintf(f, "# HELP puzzled_tables_build_percent Tables built or "
            "loaded in the background (pdb_background = 1): how far, by "
            "setting and set.\n# TYPE puzzled_tables_build_percent "
            "gauge\n");
    for (unsigned i = 0; i < 3; i++) {
        unsigned pm;
        enum http_pdb_bg_state st;

        if (bgs[i] == NULL)
            continue;
        st = http_pdb_bg_state(bgs[i], &pm);
        fprintf(f, "puzzled_tables_build_percent{setting=\"%s\","
                "partition=\"%s\",state=\"%s\"} %.1f\n", setting[i],
                http_pdb_bg_name(bgs[i]), bg_state_name(st), pm / 10.0);
    }
    if (s->pdb_auto != NULL)
        fprintf(f, "# HELP puzzled_pdb_budget_bytes pdb_budget, by the "
                "5x5 set pdb_5x5 = auto chose with it.\n# TYPE "
                "puzzled_pdb_budget_bytes gauge\npuzzled_pdb_budget_bytes"
                "{partition=\"%s\"} %zu\n", s->pdb_auto,
                s->cfg.pdb_budget);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* /metrics: the server's counters, the jobs' (either backend), the
 * store's, the key sync's and the tables'. */
#define METRICS_PARTS 5

static bool handle_metrics(struct http_req *r)
{
    struct http_server *s = r->srv;
    struct http_metrics_gauges g = { 0 };
    struct http__conn_stats cs;
    struct pool_stats st;
    char *parts[METRICS_PARTS], *all;
    size_t lens[METRICS_PARTS] = { 0 }, total = 0, at = 0;
    bool ok = true;

    pool_get_stats(s->pool, &st);
    g.queue_depth = st.queued;
    g.queue_capacity = st.capacity;
    g.queue_rejected = st.rejected;
    g.workers = st.workers;
    g.workers_busy = st.busy;
    g.http_threads = s->http_threads;
    g.requests_in_flight = atomic_load(&s->in_flight);
    g.arena_cached_bytes = http__arena_cached_bytes(s);
    g.tables_bytes = puz_tables_bytes(s->tables);
    g.ready = http__ready(s, NULL);
    http__conns_stats(s, &cs);
    g.connections_open = cs.open;
    g.connections_refused = cs.refused;
    g.connections_reclaimed = cs.reclaimed;
    g.cut_head = cs.cut_head;
    g.cut_body = cs.cut_body;
    g.abandoned = cs.abandoned;
    /* Each part of the text from its own module, then one reply. */
    parts[0] = http_metrics_render(s->metrics, &g, &lens[0]);
    parts[1] = http_jobs_metrics_render(s->jobs,
                                        http_streams_count(s->streams),
                                        http_streams_finals_encoded(s->streams),
                                        &lens[1]);
    parts[2] = http__store_metrics_render(s->store, &lens[2]);
    parts[3] = http__keysync_metrics_render(s, &lens[3]);
    parts[4] = tables_metrics_render(s, &lens[4]);
    for (size_t i = 0; i < METRICS_PARTS; i++) {
        ok = ok && parts[i] != NULL;
        total += lens[i];
    }
    all = ok ? malloc(total + 1) : NULL;
    if (all == NULL) {
        http__reply(r, 500, NULL);
    } else {
        for (size_t i = 0; i < METRICS_PARTS; i++) {
            memcpy(all + at, parts[i], lens[i]);
            at += lens[i];
        }
        http__reply_copy(r, 200, "text/plain; version=0.0.4; "
                         "charset=utf-8", all, total);
    }
    free(all);
    for (size_t i = 0; i < METRICS_PARTS; i++)
        free(parts[i]);
    return false;
}

static bool handle_openapi(struct http_req *r)
{
    if (r->srv->openapi == NULL) {
        http__reply_problemf(r, API_PROBLEM_NOT_FOUND, "this server was "
                             "started without its OpenAPI file (%s)",
                             r->srv->cfg.openapi_path);
        return false;
    }
    http__reply_copy(r, 200, "application/yaml", r->srv->openapi,
                     r->srv->openapi_len);
    if (r->response != NULL)
        MHD_add_response_header(r->response, "Cache-Control", "no-cache");
    return false;
}

static void reply_not_found(struct http_req *r)
{
    http__reply_problemf(r, API_PROBLEM_NOT_FOUND, "nothing at %.200s; "
                         "the API lives under /v1 (see /openapi.yaml)",
                         r->path);
}

static void reply_not_allowed(struct http_req *r, const char *allow)
{
    http__reply_problemf(r, API_PROBLEM_METHOD_NOT_ALLOWED, "%s is not "
                         "allowed on %.200s; use %s", r->method, r->path,
                         allow);
    if (r->response != NULL)
        MHD_add_response_header(r->response, "Allow", allow);
}

/* 304 when the client's copy is current; the fd is ours to close. */
static bool not_modified(struct http_req *r, struct http_static_file *f)
{
    const char *inm = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                  "If-None-Match");
    struct MHD_Response *resp;

    if (!http_static_etag_match(inm, f->etag))
        return false;
    close(f->fd);
    resp = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    if (resp != NULL) {
        MHD_add_response_header(resp, "ETag", f->etag);
        MHD_add_response_header(resp, "Cache-Control", f->cache_control);
        if (f->vary)
            MHD_add_response_header(resp, "Vary", "Accept-Encoding");
    }
    http__reply(r, 304, resp);
    return true;
}

/* The bytes to send: the pack's (rewritten page, gzip copy), which live
 * as long as the server, or the file by sendfile(), MHD closing the fd. */
static struct MHD_Response *static_body(struct http_static_file *f)
{
    struct MHD_Response *resp;

    if (f->data == NULL)
        return MHD_create_response_from_fd(f->size, f->fd);
    close(f->fd);
    f->fd = -1;
    resp = MHD_create_response_from_buffer((size_t)f->size,
                                           (void *)f->data,
                                           MHD_RESPMEM_PERSISTENT);
    if (resp != NULL && f->encoding != NULL)
        MHD_add_response_header(resp, "Content-Encoding", f->encoding);
    return resp;
}

static void handle_static(struct http_req *r)
{
    struct http_static_ask ask = {
        .accept_encoding = MHD_lookup_connection_value(r->conn,
                               MHD_HEADER_KIND, "Accept-Encoding"),
        .version = MHD_lookup_connection_value(r->conn,
                       MHD_GET_ARGUMENT_KIND, "v"),
    };
    struct http_static_file f;
    struct MHD_Response *resp;

    r->label = r->srv->label_static;
    if (http_static_lookup(r->srv->www, r->path, &ask, &f) != PUZ_OK) {
        reply_not_found(r);
        return;
    }
    if (not_modified(r, &f))
        return;
    resp = static_body(&f);
    if (resp == NULL) {
        if (f.fd >= 0)
            close(f.fd);
        http__reply(r, 500, NULL);
        return;
    }
    MHD_add_response_header(resp, "Content-Type", f.content_type);
    MHD_add_response_header(resp, "Cache-Control", f.cache_control);
    MHD_add_response_header(resp, "ETag", f.etag);
    if (f.vary)
        MHD_add_response_header(resp, "Vary", "Accept-Encoding");
    r->reply_bytes = f.size;
    http__reply(r, 200, resp);
}

/* allow ("GET, DELETE, OPTIONS") without DELETE, into buf. */
static const char *without_delete(const char *allow, char *buf,
                                  size_t size)
{
    const char *d = strstr(allow, "DELETE, ");

    if (d == NULL)
        return allow;
    snprintf(buf, size, "%.*s%s", (int)(d - allow), allow, d + 8);
    return buf;
}

/* OPTIONS: the Allow list, and the CORS preflight answer. */
static void handle_options(struct http_req *r, const char *allow)
{
    char methods[96];
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);

    if (resp != NULL) {
        MHD_add_response_header(resp, "Allow", allow);
        if (r->origin != NULL) {
            /* Any origin may read and submit, not cancel: a DELETE
             * comes only from the origins the operator named. */
            MHD_add_response_header(resp, "Access-Control-Allow-Methods",
                                    r->srv->cors_any ? without_delete(allow,
                                    methods, sizeof(methods)) : allow);
            MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                                    "Content-Type, X-Request-Id, "
                                    "Authorization, Last-Event-ID");
            MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
        }
    }
    http__reply(r, 204, resp);
}

/* Whether path names a served static file (for 405 vs 404). */
static bool static_exists(struct http_req *r)
{
    struct http_static_file f;

    if (http_static_lookup(r->srv->www, r->path, NULL, &f) != PUZ_OK)
        return false;
    close(f.fd);
    return true;
}

void http__route_match(struct http_req *r)
{
    r->api = api_route_find(r->method, r->path, &r->params);
    if (r->api != NULL) {
        r->label = label_of(r->srv, r->api->path);
        return;
    }
    for (const struct http__route *rt = routes; rt->path != NULL; rt++) {
        if (route_answers(rt->method, r)
            && api_path_match(rt->path, r->path, &r->params)) {
            r->route = rt;
            r->label = label_of(r->srv, rt->path);
            return;
        }
    }
}

void http__route_other(struct http_req *r)
{
    char allow[96];
    bool api = strncmp(r->path, "/v1/", 4) == 0;

    allow_list(r->path, allow, sizeof(allow));
    if (allow[0] == '\0' && !api && (method_is(r, "GET")
                                     || method_is(r, "HEAD"))) {
        handle_static(r);   /* answers 404 itself when there is no file */
        return;
    }
    if (allow[0] == '\0' && !api && static_exists(r))
        snprintf(allow, sizeof(allow), "GET, HEAD, OPTIONS");
    if (allow[0] == '\0')
        reply_not_found(r);
    else if (method_is(r, "OPTIONS"))
        handle_options(r, allow);
    else
        reply_not_allowed(r, allow);
}
