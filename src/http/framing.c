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

#include <string.h>
#include <strings.h>

struct head_scan {
    unsigned host;
    unsigned te;
    unsigned cl;
    const char *te_value;
    const char *bad_name;       /* a field name with whitespace in it */
};

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
        http__reply_problemf(r, HTTP_PROBLEM_NOT_IMPLEMENTED, "transfer "
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
        http__reply_problemf(r, HTTP_PROBLEM_BAD_FRAMING, "header field "
                             "name '%.60s' contains whitespace",
                             sc.bad_name);
    else if (sc.host > 1)
        http__reply_problemf(r, HTTP_PROBLEM_BAD_FRAMING, "%u Host "
                             "headers; send exactly one", sc.host);
    else if (sc.te > 0 && sc.cl > 0)
        http__reply_problemf(r, HTTP_PROBLEM_BAD_FRAMING, "both "
                             "Content-Length and Transfer-Encoding; the "
                             "body cannot be framed (RFC 9112 section 6.3)");
    else if (sc.te > 0 && version != NULL
             && strcmp(version, MHD_HTTP_VERSION_1_0) == 0)
        http__reply_problemf(r, HTTP_PROBLEM_BAD_FRAMING, "Transfer-"
                             "Encoding in an HTTP/1.0 request");
    else if (sc.te > 0)
        check_coding(r, &sc);
    if (r->response == NULL)
        return true;
    MHD_add_response_header(r->response, "Connection", "close");
    return false;
}
