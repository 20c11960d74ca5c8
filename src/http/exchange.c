/*
 * exchange.c - one request's life on its connection, read top to bottom:
 * libmicrohttpd calls (through conns.c) http__on_request again and again
 * for the same request, and r->phase says where it stands.
 *
 *   HEAD   the first call: the request and its arena are made, the route
 *          matched (routes.c), framing and the body's headers checked;
 *          a refusal is answered here, before any body byte is read
 *   BODY   body pieces arrive (kept under max_body_bytes; after an early
 *          413, counted and dropped)
 *   ROUTE  the body is complete: the route runs (src/api/, or one of the
 *          server's own routes); it answers at once, or
 *   WORK   hands the rest to a worker (job.c): the connection is
 *          suspended until the worker resumes it with the answer
 *   REPLY  the answer is queued (request.c copies its bytes into an MHD
 *          response with the common headers)
 *
 * and http__on_completed ends it: metrics, the access-log line, the
 * arena back to the cache. libmicrohttpd does not call these two
 * itself: conns.c's http__conn_access and http__conn_completed are the
 * handlers registered with it, which keep the connection's deadlines
 * and limits and then call in here. What this file calls are helpers:
 * request.c (the request, its body, its replies), routes.c (matching,
 * the server's own routes), framing.c (header checks), job.c (the
 * pool).
 */
#include "http_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api_jalloc.h"

/* JSON bodies only: application/json or any +json type, UTF-8. */
static bool json_media_type(const char *ct)
{
    size_t n;
    const char *cs;

    if (ct == NULL)
        return false;
    n = strcspn(ct, "; \t");
    /* "application/+json" has no subtype: not JSON. */
    if (!(n == 16 && strncasecmp(ct, "application/json", 16) == 0)
        && !(n > 12 + 5 && strncasecmp(ct + n - 5, "+json", 5) == 0
             && strncasecmp(ct, "application/", 12) == 0))
        return false;
    cs = strcasestr(ct + n, "charset=");
    return cs == NULL || strncasecmp(cs + 8, "utf-8", 5) == 0
           || strncasecmp(cs + 8, "\"utf-8\"", 7) == 0;
}

/*
 * `curl -d '{"board": ...}'`, as people type it, labels the JSON with
 * curl's default type, application/x-www-form-urlencoded. That label is
 * taken at its word only when the body is not JSON: the body decides
 * (form_json_body), once it is in.
 */
static bool form_media_type(const char *ct)
{
    return ct != NULL && strcspn(ct, "; \t") == 33
           && strncasecmp(ct, "application/x-www-form-urlencoded", 33) == 0;
}

/* A form's body is "name=value&...", never "{" or "["; a JSON text the
 * route reads is an object or an array. A body that starts like one is
 * JSON, and a broken one gets the decoder's 400 with its line and
 * column, as it would with application/json. */
static bool form_json_body(const struct http_req *r)
{
    size_t i = 0;

    while (i < r->body_len && (r->body[i] == ' ' || r->body[i] == '\t'
                               || r->body[i] == '\r' || r->body[i] == '\n'))
        i++;
    return i < r->body_len && (r->body[i] == '{' || r->body[i] == '[');
}

/* The client waits for "100 Continue" before sending its body, so an
 * early answer costs it nothing. */
static bool expects_continue(struct http_req *r)
{
    const char *e = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                "Expect");

    return e != NULL && strcasecmp(e, "100-continue") == 0;
}

/* Content-Type and Content-Length of a JSON route, before the body. */
static void check_body_headers(struct http_req *r)
{
    const char *ct = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                 "Content-Type");
    const char *cl = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                 "Content-Length");
    unsigned long long len = cl != NULL ? strtoull(cl, NULL, 10) : 0;

    if (form_media_type(ct)) {
        r->form_body = true;
    } else if (!json_media_type(ct)) {
        http__reply_problemf(r, API_PROBLEM_UNSUPPORTED_MEDIA, "send the "
                             "body as JSON with Content-Type: "
                             "application/json (got %.100s)",
                             ct != NULL ? ct : "no Content-Type");
    } else if (len > r->srv->cfg.api.max_body_bytes
               && (len > http__discard_limit(r->srv) || expects_continue(r))) {
        /* Refused before reading a byte of it. */
        http__reply_problemf(r, API_PROBLEM_PAYLOAD_TOO_LARGE, "the body "
                             "is %llu bytes; at most %zu are accepted", len,
                             r->srv->cfg.api.max_body_bytes);
    } else if (len > r->srv->cfg.api.max_body_bytes) {
        /* The 413 at once, as nginx does, for the client that waits
         * for it (issue 32); then the body is read and dropped, so the
         * client that sends it all before reading gets the 413 rather
         * than a reset (issue 15 item 7). */
        r->too_large = true;
        http__reply_problemf(r, API_PROBLEM_PAYLOAD_TOO_LARGE, "the body "
                             "is %llu bytes; at most %zu are accepted", len,
                             r->srv->cfg.api.max_body_bytes);
        http__req_send_early(r);
    }
}

struct length_scan {
    const char *first;
    bool conflict;
};

static enum MHD_Result scan_length(void *cls, enum MHD_ValueKind kind,
                                   const char *key, const char *value)
{
    struct length_scan *sc = cls;

    (void)kind;
    if (strcasecmp(key, "Content-Length") != 0)
        return MHD_YES;
    if (sc->first == NULL)
        sc->first = value;
    else if (strcmp(sc->first, value != NULL ? value : "") != 0)
        sc->conflict = true;
    return MHD_YES;
}

/*
 * Two different Content-Length values (MHD takes the first) leave the
 * body's end ambiguous, the stuff of request smuggling behind a proxy
 * that takes the other one: RFC 9112 section 6.3 says refuse, and the
 * early answer closes the connection.
 */
static void check_length_conflict(struct http_req *r)
{
    struct length_scan sc = { NULL, false };

    MHD_get_connection_values(r->conn, MHD_HEADER_KIND, scan_length, &sc);
    if (sc.conflict)
        http__reply_problemf(r, API_PROBLEM_MALFORMED_JSON, "conflicting "
                             "Content-Length headers; the body cannot be "
                             "framed, send exactly one");
}

/* The 413 written at once (the client may be waiting for it), the rest
 * of the body then read and dropped up to the discard limit. */
static void refuse_body(struct http_req *r)
{
    http__reply_problemf(r, API_PROBLEM_PAYLOAD_TOO_LARGE, "the body "
                         "exceeds %zu bytes", r->srv->cfg.api.max_body_bytes);
    http__req_send_early(r);
}

/* HEAD: the first call, with the whole head. */
static enum MHD_Result first_call(struct http_server *s,
                                  struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  void **con_cls)
{
    struct http_req *r = http__req_create(s, c, url, method);

    if (r == NULL)
        return MHD_NO;  /* out of memory: MHD closes the connection */
    *con_cls = r;
    http__route_match(r);
    if (http__check_framing(r, version))   /* framing.c (harden) */
        check_length_conflict(r);
    if (r->response == NULL && ((r->api != NULL && r->api->json_body)
                                || (r->route != NULL
                                    && r->route->json_body)))
        check_body_headers(r);
    /* A body refused on its headers is answered before it is read (MHD
     * then closes the connection); everything else waits for the end of
     * the request, which keeps the connection alive. */
    if (r->response != NULL) {
        r->phase = HTTP__PHASE_REPLY;
        return http__req_queue(r);
    }
    r->phase = HTTP__PHASE_BODY;
    return MHD_YES;
}

struct query_scan {
    struct http_req *r;
    struct api_param *params;
    size_t n, cap;
};

static enum MHD_Result scan_query(void *cls, enum MHD_ValueKind kind,
                                  const char *key, const char *value)
{
    struct query_scan *q = cls;
    struct api_param *grown;

    (void)kind;
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 8;
        grown = puz_arena_alloc(q->r->arena, q->cap * sizeof(*grown));
        if (grown == NULL)
            return MHD_NO;
        if (q->n > 0)
            memcpy(grown, q->params, q->n * sizeof(*grown));
        q->params = grown;
    }
    q->params[q->n].key = key;
    q->params[q->n].value = value;
    q->n++;
    return MHD_YES;
}

/* Every Idempotency-Key line, joined by ", " as RFC 9110 joins a
 * field's lines (the API refuses more than one key). */
struct idem_scan {
    struct http_req *r;
    const char *value;
};

static enum MHD_Result scan_idem(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    struct idem_scan *x = cls;
    size_t had, len;
    char *joined;

    (void)kind;
    if (strcasecmp(key, "Idempotency-Key") != 0)
        return MHD_YES;
    if (value == NULL)
        value = "";
    if (x->value == NULL) {
        x->value = value;
        return MHD_YES;
    }
    had = strlen(x->value);
    len = strlen(value);
    joined = puz_arena_alloc(x->r->arena, had + 2 + len + 1);
    if (joined == NULL) {
        x->value = ", ";    /* two keys all the same: refused */
        return MHD_NO;
    }
    memcpy(joined, x->value, had);
    memcpy(joined + had, ", ", 2);
    memcpy(joined + had + 2, value, len + 1);
    x->value = joined;
    return MHD_YES;
}

/* The API's view of the request: body, query, path, its parameters,
 * the client's address and the request id. */
static void api_request(struct http_req *r)
{
    struct query_scan q = { r, NULL, 0, 0 };
    struct api_request rq = { 0 };
    struct idem_scan idem = { r, NULL };

    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, scan_query,
                              &q);
    MHD_get_connection_values(r->conn, MHD_HEADER_KIND, scan_idem, &idem);
    rq.idempotency_key = idem.value;
    rq.path = r->path;
    rq.id = r->id;
    rq.authorization = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                   "Authorization");
    rq.traceparent = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                 "traceparent");
    /* Behind a trusted proxy, the client it names (proxies.c). */
    if (r->srv->proxies != NULL) {
        char *buf = puz_arena_alloc(r->arena, HTTP__ADDR_MAX);

        rq.client = buf == NULL ? r->remote : http__client_of(
            r->srv->proxies, r->remote, MHD_lookup_connection_value(
                r->conn, MHD_HEADER_KIND, "X-Forwarded-For"), buf,
            HTTP__ADDR_MAX);
    } else {
        rq.client = r->remote;
    }
    rq.params = r->params;
    rq.body = r->body;
    rq.len = r->body_len;
    rq.query = q.params;
    rq.nquery = q.n;
    api_call_init(&r->call, &r->srv->api, &rq, r->arena);
}

/* ROUTE: the whole body is in; run the route. True when a worker took
 * it (WORK), false when it answered (REPLY). */
static bool dispatch(struct http_req *r)
{
    bool handed_off;
    puz_arena *prev;

    r->phase = HTTP__PHASE_ROUTE;
    if (r->too_large) {
        http__reply_problemf(r, API_PROBLEM_PAYLOAD_TOO_LARGE, "the body "
                             "exceeds %zu bytes", r->srv->cfg.api.max_body_bytes);
        return false;
    }
    if (r->form_body && !form_json_body(r)) {
        http__reply_problemf(r, API_PROBLEM_UNSUPPORTED_MEDIA, "the body "
                             "is a form (application/x-www-form-urlencoded),"
                             " not JSON; send a JSON object, best with "
                             "Content-Type: application/json");
        return false;
    }
    if (r->route != NULL) {
        api_request(r);     /* the same view: path parameters, query */
        prev = api_jalloc_bind(r->arena);
        handed_off = r->route->handler(r);
        api_jalloc_unbind(prev);
        return handed_off;
    }
    if (r->api == NULL) {
        http__route_other(r);
        return false;
    }
    api_request(r);
    if (!api_start(r->api, &r->call))
        return http__submit(r);
    http__reply_answer(r);
    return false;
}

enum MHD_Result http__on_request(void *cls, struct MHD_Connection *c,
                                 const char *url, const char *method,
                                 const char *version, const char *upload,
                                 size_t *upload_size, void **con_cls)
{
    struct http_req *r = *con_cls;

    if (r == NULL)
        return first_call(cls, c, url, method, version, con_cls);
    switch (r->phase) {
    case HTTP__PHASE_BODY:
        if (*upload_size > 0) {
            http__req_body(r, upload, *upload_size);
            *upload_size = 0;
            if (r->too_large && !r->answered)
                refuse_body(r);     /* a chunked body past the cap */
            /* Past what we drop for the 413's sake (a chunked body has
             * no length to refuse early): stop reading, MHD closes. */
            if (r->too_large && r->body_seen > http__discard_limit(r->srv))
                return MHD_NO;
            return MHD_YES;
        }
        if (r->answered)
            return MHD_NO;  /* its 413 went out early; the body is in */
        if (dispatch(r)) {
            r->phase = HTTP__PHASE_WORK;
            return MHD_YES; /* r is the worker's until it resumes us */
        }
        break;
    case HTTP__PHASE_WORK:      /* resumed: the worker's answer */
        if (r->response == NULL && r->call.answer.status != 0)
            http__reply_answer(r);
        break;
    default:
        break;
    }
    r->phase = HTTP__PHASE_REPLY;
    if (r->response == NULL)
        http__reply(r, 500, NULL);  /* a handler forgot to answer */
    return http__req_queue(r);
}

void http__on_completed(void *cls, struct MHD_Connection *c,
                        void **con_cls, enum MHD_RequestTerminationCode toe,
                        uint64_t now)
{
    struct http_req *r = *con_cls;

    (void)cls;
    (void)c;
    if (r == NULL)
        return;
    *con_cls = NULL;
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK && r->status == 0)
        r->status = 499;    /* the client went away before an answer */
    /* Logged before counted: a request /metrics counts is in the log's
     * buffer already (http_signals.sh waits on that). */
    http__log_access(r, now);
    http_metrics_request(r->srv->metrics, r->label, r->status,
                         now - r->start_us);
    http__req_destroy(r);
}
