/*
 * http_static.h - the web game's files, served from one directory.
 *
 * A URL path maps to a regular file strictly inside the root: no "..",
 * no hidden files, no symlink leading out. "/" and any path ending in
 * "/" serve that directory's index.html.
 *
 * What is sent is chosen per request (http_static_lookup): the gzip copy
 * made at the start to a client that asks for gzip, the file as it is
 * to any other; a year's caching for a URL whose ?v= is the file's
 * fingerprint, revalidation (no-cache) for pages and the service worker.
 */
#ifndef HTTP_STATIC_H
#define HTTP_STATIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puz_err.h"

typedef struct http_static http_static;

struct http_static_file {
    int fd;                     /* open read-only; the caller closes it */
    uint64_t size;              /* of what is sent: the file, or data */
    const void *data;           /* non-NULL: send these bytes (owned by the
                                   http_static), not the fd's */
    const char *content_type;   /* static string */
    const char *cache_control;  /* static string */
    const char *encoding;       /* "gzip", or NULL: the bytes as they are */
    bool vary;                  /* the answer depends on Accept-Encoding */
    char etag[48];              /* quoted: the fingerprint ("-gz" for the
                                   gzip copy), or from size and mtime */
};

/* What a request says about the answer it wants. */
struct http_static_ask {
    const char *accept_encoding;    /* the header, or NULL */
    const char *version;            /* the query's v=, or NULL */
};

/* Serve files below root. PUZ_EIO (msg says why) if root is not a
 * readable directory. */
puz_err http_static_open(const char *root, http_static **out, char *msg,
                         size_t msg_size);
void http_static_close(http_static *s);

/* Open the file for url_path (as the client sent it, already
 * percent-decoded) and choose what to send for ask (NULL: the file as
 * it is). PUZ_EINVAL for a path that may not be served, PUZ_EIO when no
 * such regular file exists; both mean 404. */
puz_err http_static_lookup(const http_static *s, const char *url_path,
                           const struct http_static_ask *ask,
                           struct http_static_file *out);

/* Whether an Accept-Encoding header accepts gzip (RFC 9110 section
 * 12.5.3): "gzip" (or "x-gzip") or "*" with a q above 0, gzip's own
 * entry winning over "*". NULL or empty: no. */
bool http_static_accepts_gzip(const char *accept_encoding);

/* Files packed at the start, and their bytes without and with gzip. */
void http_static_totals(const http_static *s, size_t *files, size_t *plain,
                        size_t *sent);

/* If-None-Match (RFC 9110 section 13.1.2): true when the header lists
 * this etag (weak comparison, whole entity-tags only) or is "*". NULL
 * header: false. */
bool http_static_etag_match(const char *if_none_match, const char *etag);

/* Content-Type by file extension; application/octet-stream if unknown. */
const char *http_static_content_type(const char *path);

#endif
