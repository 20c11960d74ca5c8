/*
 * request.c - one HTTP request's life: its arena (recycled through a
 * small free list), its id, its body read under the size cap, and the
 * reply it ends with. Replies are copied into MHD memory
 * (MHD_RESPMEM_MUST_COPY) as soon as they are built, so nothing MHD
 * holds ever points into an arena that dies with the request.
 */
#include "http_int.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "puz_version.h"

puz_arena *http__arena_get(struct http_server *s)
{
    puz_arena *a = NULL;

    pthread_mutex_lock(&s->arena_lock);
    if (s->arena_nfree > 0)
        a = s->arena_free[--s->arena_nfree];
    pthread_mutex_unlock(&s->arena_lock);
    if (a == NULL)
        a = puz_arena_create(s->cfg.api.arena_chunk_bytes);
    return a;
}

void http__arena_put(struct http_server *s, puz_arena *a)
{
    if (a == NULL)
        return;
    puz_arena_reset(a);     /* keeps only the first chunk */
    puz_arena_set_budget(a, 0);
    pthread_mutex_lock(&s->arena_lock);
    if (s->arena_nfree < s->cfg.arena_cache) {
        s->arena_free[s->arena_nfree++] = a;
        a = NULL;
    }
    pthread_mutex_unlock(&s->arena_lock);
    puz_arena_destroy(a);
}

size_t http__arena_cached_bytes(struct http_server *s)
{
    size_t total = 0;

    pthread_mutex_lock(&s->arena_lock);
    for (unsigned i = 0; i < s->arena_nfree; i++)
        total += puz_arena_reserved(s->arena_free[i]);
    pthread_mutex_unlock(&s->arena_lock);
    return total;
}

/* Client ids are echoed only when short and made of safe characters. */
static bool id_acceptable(const char *id)
{
    size_t n = id != NULL ? strlen(id) : 0;

    if (n == 0 || n > 64)
        return false;
    return strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                  "0123456789._:-") == n;
}

static void make_id(struct http_req *r)
{
    const char *given = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                    "X-Request-Id");
    uint64_t x;

    if (id_acceptable(given)) {
        strcpy(r->id, given);
        return;
    }
    /* splitmix64 of a per-process random salt plus a counter: unique
     * within the process, unguessable across restarts. */
    x = r->srv->id_salt + 0x9E3779B97F4A7C15ull
        * (atomic_fetch_add(&r->srv->next_id, 1) + 1);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    for (int i = 15; i >= 0; i--, x >>= 4)   /* "%016llx", on every request */
        r->id[i] = "0123456789abcdef"[x & 15];
    r->id[16] = '\0';
}

void http__addr_format(struct MHD_Connection *c, char out[HTTP__ADDR_MAX])
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
        c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = ci != NULL ? ci->client_addr : NULL;

    strcpy(out, "-");
    if (sa != NULL && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)
                  ->sin_addr, out, HTTP__ADDR_MAX);
    else if (sa != NULL && sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)
                  sa)->sin6_addr, out, HTTP__ADDR_MAX);
}

/* Formatted once per connection (conns.c), not once per request. */
static void remote_addr(struct http_req *r)
{
    const char *known = http__conn_remote(r->conn);

    if (known != NULL)
        memcpy(r->remote, known, HTTP__ADDR_MAX);
    else
        http__addr_format(r->conn, r->remote);
}

/* The Origin header if CORS allows it (exact match in the list). */
static const char *allowed_origin(struct http_req *r)
{
    const char *o = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                "Origin");
    const char *list = r->srv->cfg.cors_origins;
    size_t n;

    if (o == NULL || *o == '\0')
        return NULL;
    if (r->srv->cors_any)
        return "*";
    n = strlen(o);
    for (const char *p = list; *p != '\0'; p += strcspn(p, ",")) {
        p += strspn(p, ", ");
        if (strncmp(p, o, n) == 0 && (p[n] == '\0' || p[n] == ','
                                      || p[n] == ' '))
            return puz_arena_strdup(r->arena, o);
    }
    return NULL;
}

struct http_req *http__req_create(struct http_server *s,
                                  struct MHD_Connection *c,
                                  const char *url, const char *method)
{
    puz_arena *a = http__arena_get(s);
    struct http_req *r;
    size_t mlen = strlen(method);

    if (a == NULL)
        return NULL;
    r = puz_arena_calloc(a, 1, sizeof(*r));
    if (r == NULL) {
        http__arena_put(s, a);
        return NULL;
    }
    r->srv = s;
    r->conn = c;
    r->arena = a;
    r->label = s->label_other;
    r->start_us = puz_clock_mono_us();
    /* cut to fit, as "%s" would: r came zeroed, so it stays a string */
    if (mlen >= sizeof(r->method))
        mlen = sizeof(r->method) - 1;
    memcpy(r->method, method, mlen);
    r->path = puz_arena_strdup(a, url);
    if (r->path == NULL)
        r->path = "/";
    make_id(r);
    remote_addr(r);
    r->origin = allowed_origin(r);
    api_call_init(&r->call, &s->api, &(struct api_request){
                      .path = r->path, .id = r->id }, a);
    atomic_fetch_add(&s->in_flight, 1);
    return r;
}

void http__req_destroy(struct http_req *r)
{
    struct http_server *s = r->srv;

    if (r->response != NULL)
        MHD_destroy_response(r->response);
    /* Searches run in a scratch arena beside this one (api__search). */
    http_metrics_arena(s->metrics, puz_arena_peak(r->arena)
                                   + r->call.scratch_peak);
    http__arena_put(s, r->arena);   /* r itself lives in the arena */
    atomic_fetch_sub(&s->in_flight, 1);
}

void http__req_body(struct http_req *r, const char *data, size_t size)
{
    size_t cap = r->srv->cfg.api.max_body_bytes, want;
    char *grown;

    r->body_seen += size;
    if (r->too_large || r->body_seen > cap) {
        r->too_large = true;    /* keep reading, drop the bytes */
        return;
    }
    if (r->body_len + size > r->body_cap) {
        want = r->body_cap ? r->body_cap * 2 : 4096;
        while (want < r->body_len + size)
            want *= 2;
        want = want > cap ? cap : want;
        grown = puz_arena_alloc(r->arena, want);
        if (grown == NULL) {
            r->too_large = true;
            return;
        }
        if (r->body_len > 0)
            memcpy(grown, r->body, r->body_len);
        r->body = grown;
        r->body_cap = want;
    }
    memcpy(r->body + r->body_len, data, size);
    r->body_len += size;
}

static void add_cors(struct http_req *r, struct MHD_Response *resp)
{
    if (r->origin == NULL)
        return;
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", r->origin);
    MHD_add_response_header(resp, "Access-Control-Expose-Headers",
                            "X-Request-Id, Retry-After, Allow");
    if (!r->srv->cors_any)
        MHD_add_response_header(resp, "Vary", "Origin");
}

enum MHD_Result http__req_queue(struct http_req *r)
{
    struct MHD_Response *resp = r->response;
    enum MHD_Result rc;

    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, "X-Request-Id", r->id);
    MHD_add_response_header(resp, "Server", "puzzled/" PUZ_VERSION);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    if (MHD_get_response_header(resp, "Cache-Control") == NULL)
        MHD_add_response_header(resp, "Cache-Control", "no-store");
    add_cors(r, resp);
    if (atomic_load(&r->srv->draining))
        MHD_add_response_header(resp, "Connection", "close");
    rc = MHD_queue_response(r->conn, r->status, resp);
    MHD_destroy_response(resp);     /* the connection holds its own ref */
    r->response = NULL;
    return rc;
}

/*
 * The answer built so far (r->call.answer), written on the socket now,
 * while MHD is still reading the body, with Connection: close. MHD
 * cannot do this: a response queued before the body is in makes it
 * stop reading and close, and closing on unread bytes resets the
 * connection, so a client still sending would lose the answer. Nothing
 * else is being written on the socket (the previous answer, if any, is
 * complete), and a problem fits one non-blocking send.
 */
void http__req_send_early(struct http_req *r)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(r->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    const struct api_answer *an = &r->call.answer;
    const char *reason = MHD_get_reason_phrase_for(an->status);
    char head[1024];
    int n;

    if (r->response != NULL)
        MHD_destroy_response(r->response);
    r->response = NULL;
    r->status = an->status;
    r->reply_bytes = an->len;
    r->answered = true;
    if (ci == NULL)
        return;
    n = snprintf(head, sizeof(head), "HTTP/1.1 %u %s\r\nContent-Type: %s"
                 "\r\nX-Request-Id: %s\r\nX-Content-Type-Options: nosniff"
                 "\r\nCache-Control: no-store\r\n%s%s%s%s"
                 "Connection: close\r\nContent-Length: %zu\r\n\r\n",
                 an->status, reason != NULL ? reason : "",
                 an->content_type != NULL ? an->content_type : "text/plain",
                 r->id, r->origin != NULL ? "Access-Control-Allow-Origin: "
                                          : "",
                 r->origin != NULL ? r->origin : "",
                 r->origin != NULL ? "\r\n" : "",
                 r->origin != NULL && !r->srv->cors_any ? "Vary: Origin\r\n"
                                                        : "",
                 an->len);
    if (n <= 0 || (size_t)n >= sizeof(head))
        return;
    (void)!send((int)ci->connect_fd, head, (size_t)n,
                MSG_DONTWAIT | MSG_NOSIGNAL | MSG_MORE);
    (void)!send((int)ci->connect_fd, an->body, an->len,
                MSG_DONTWAIT | MSG_NOSIGNAL);
}

void http__reply(struct http_req *r, unsigned status,
                 struct MHD_Response *resp)
{
    static const char oops[] = "internal error\n";

    if (r->response != NULL)
        MHD_destroy_response(r->response);
    if (resp == NULL) {
        status = 500;
        resp = MHD_create_response_from_buffer(sizeof(oops) - 1,
                                               (void *)oops,
                                               MHD_RESPMEM_PERSISTENT);
        if (resp != NULL)
            MHD_add_response_header(resp, "Content-Type", "text/plain");
    }
    r->response = resp;
    r->status = status;
}

void http__reply_copy(struct http_req *r, unsigned status,
                      const char *content_type, const void *buf,
                      size_t len)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        len, (void *)buf, MHD_RESPMEM_MUST_COPY);

    if (resp != NULL && content_type != NULL)
        MHD_add_response_header(resp, "Content-Type", content_type);
    r->reply_bytes = len;
    http__reply(r, status, resp);
}

/* The answer of the API call (or of an own route that built one). */
void http__reply_answer(struct http_req *r)
{
    const struct api_answer *an = &r->call.answer;

    r->expanded = an->expanded;
    http__reply_copy(r, an->status, an->content_type, an->body, an->len);
    for (unsigned i = 0; r->response != NULL && i < an->nheaders; i++)
        MHD_add_response_header(r->response, an->headers[i].name,
                                an->headers[i].value);
}

void http__reply_json(struct http_req *r, unsigned status, json_t *body)
{
    api_answer_json(&r->call, status, body);
    http__reply_answer(r);
}

void http__reply_problemf(struct http_req *r, enum api_problem_kind k,
                          const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    api_answer_problemv(&r->call, k, fmt, ap);
    va_end(ap);
    http__reply_answer(r);
}
