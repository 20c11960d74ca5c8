/*
 * framing.c - checks of the request head that libmicrohttpd 0.9.75 does
 * not make, run once per request as soon as the head is in (before any
 * body byte is read). Each refuses a message whose end cannot be
 * trusted, the stuff of request smuggling behind a proxy that frames it
 * differently (RFC 9112 sections 6.1 and 6.3): the answer goes out at
 * once with Connection: close, and nothing after it on that connection
 * is read.
 *
 * What MHD rejects itself (a malformed Content-Length, a request line
 * or header line it cannot parse) never reaches this file: see
 * docs/operations.md, "HTTP framing".
 */
#include "http_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

struct head_scan {
    unsigned host;
    unsigned te;
    unsigned cl;
    const char *te_value;
    const char *bad_name;       /* a field name with whitespace in it */
    const char *bad_value;      /* a field whose value holds a control */
};

/* A control byte other than HTAB in a field value: CR, LF (what is left
 * of obsolete line folding), DEL ... RFC 9110 section 5.5 says refuse. */
static bool value_has_control(const char *v)
{
    for (; v != NULL && *v != '\0'; v++)
        if (((unsigned char)*v < 0x20 && *v != '\t') || *v == 0x7F)
            return true;
    return false;
}

static enum MHD_Result scan_head(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    struct head_scan *sc = cls;

    (void)kind;
    if (key == NULL)
        return MHD_YES;
    /* "Host : x" arrives as the field "Host "; RFC 9112 section 5.1
     * says a server must reject it (a proxy may read it as Host). */
    if (sc->bad_name == NULL && strpbrk(key, " \t") != NULL)
        sc->bad_name = key;
    if (sc->bad_value == NULL && value_has_control(value))
        sc->bad_value = key;
    if (strcasecmp(key, "Host") == 0)
        sc->host++;
    else if (strcasecmp(key, "Content-Length") == 0)
        sc->cl++;
    else if (strcasecmp(key, "Transfer-Encoding") == 0) {
        sc->te++;
        sc->te_value = value != NULL ? value : "";
    }
    return MHD_YES;
}

/* MHD decodes chunked only when the value is exactly "chunked"; any
 * other value (a stacked "gzip, chunked", "identity", "chunked " with
 * trailing space) would leave it reading until the client gives up. */
static void check_coding(struct http_req *r, const struct head_scan *sc)
{
    if (sc->te > 1 || strcasecmp(sc->te_value, "chunked") != 0)
        http__reply_problemf(r, API_PROBLEM_NOT_IMPLEMENTED, "transfer "
                             "coding '%.60s' is not supported; send the "
                             "body with Content-Length or as plain "
                             "'chunked'", sc->te > 1 ? "(several headers)"
                             : sc->te_value);
}

bool http__check_framing(struct http_req *r, const char *version)
{
    struct head_scan sc;

    memset(&sc, 0, sizeof(sc));
    MHD_get_connection_values(r->conn, MHD_HEADER_KIND, scan_head, &sc);
    if (sc.bad_name != NULL)
        http__reply_problemf(r, API_PROBLEM_BAD_FRAMING, "header field "
                             "name '%.60s' contains whitespace",
                             sc.bad_name);
    else if (sc.bad_value != NULL)
        http__reply_problemf(r, API_PROBLEM_BAD_FRAMING, "the value of "
                             "header field '%.60s' contains a control "
                             "character (CR, LF, ...)", sc.bad_value);
    else if (sc.host > 1)
        http__reply_problemf(r, API_PROBLEM_BAD_FRAMING, "%u Host "
                             "headers; send exactly one", sc.host);
    else if (sc.te > 0 && sc.cl > 0)
        http__reply_problemf(r, API_PROBLEM_BAD_FRAMING, "both "
                             "Content-Length and Transfer-Encoding; the "
                             "body cannot be framed (RFC 9112 section 6.3)");
    else if (sc.te > 0 && version != NULL
             && strcmp(version, MHD_HTTP_VERSION_1_0) == 0)
        http__reply_problemf(r, API_PROBLEM_BAD_FRAMING, "Transfer-"
                             "Encoding in an HTTP/1.0 request");
    else if (sc.te > 0)
        check_coding(r, &sc);
    if (r->response == NULL)
        return true;
    MHD_add_response_header(r->response, "Connection", "close");
    return false;
}

/*
 * Too many query parameters. libmicrohttpd 0.9.75 parses them into its
 * per-connection pool, and past about 500 it runs out, sends nothing at
 * all and never calls us: the client waited for the timeout and nobody
 * logged a thing. Its URI callback sees the request line before that
 * parse, so we answer 400 there, directly on the socket (nothing else
 * is being written on it: the previous answer, if any, is complete),
 * log and count it, and shut the connection.
 */
static void refuse_query(struct http_server *s, struct MHD_Connection *c,
                         const char *uri, unsigned args)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    char path[256], head[512];
    struct api_problem p;
    struct http_req *r;
    json_t *j;
    char *body;
    int n;

    snprintf(path, sizeof(path), "%.*s", (int)strcspn(uri, "?"), uri);
    r = http__req_create(s, c, path, "-");
    if (r == NULL || ci == NULL)
        goto out;
    api_problem_set(&p, API_PROBLEM_INVALID_QUERY, "%u query parameters; "
                     "at most %u are read", args, HTTP__MAX_QUERY_ARGS);
    j = api_problem_json(&p, path, r->id);
    body = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (body != NULL) {
        r->reply_bytes = strlen(body);
        n = snprintf(head, sizeof(head), "HTTP/1.1 400 Bad Request\r\n"
                     "Content-Type: application/problem+json\r\n"
                     "X-Request-Id: %s\r\nConnection: close\r\n"
                     "Content-Length: %zu\r\n\r\n", r->id, r->reply_bytes);
        (void)!send((int)ci->connect_fd, head, (size_t)n,
                    MSG_DONTWAIT | MSG_NOSIGNAL | MSG_MORE);
        (void)!send((int)ci->connect_fd, body, r->reply_bytes,
                    MSG_DONTWAIT | MSG_NOSIGNAL);
        free(body);
    }
    r->status = 400;
    http_metrics_request(s->metrics, r->label, r->status,
                         puz_clock_mono_us() - r->start_us);
    http__log_access(r, puz_clock_mono_us());
    http__conn_refuse(c);
out:
    if (r != NULL)
        http__req_destroy(r);
}

void *http__uri_check(void *cls, const char *uri, struct MHD_Connection *c)
{
    const char *q = uri != NULL ? strchr(uri, '?') : NULL;
    unsigned args = 1;

    if (q == NULL)
        return NULL;
    for (; *q != '\0'; q++)
        args += *q == '&';
    if (args > HTTP__MAX_QUERY_ARGS)
        refuse_query(cls, c, uri, args);
    return NULL;    /* MHD's con_cls stays NULL: the request is ours later */
}
