/*
 * http_static.h - the web game's files, served from one directory.
 *
 * A URL path maps to a regular file strictly inside the root: no "..",
 * no hidden files, no symlink leading out. "/" and any path ending in
 * "/" serve that directory's index.html.
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
    uint64_t size;
    const char *content_type;   /* static string */
    const char *cache_control;  /* static string */
    char etag[48];              /* quoted, from size and mtime */
};

/* Serve files below root. PUZ_EIO (msg says why) if root is not a
 * readable directory. */
puz_err http_static_open(const char *root, http_static **out, char *msg,
                         size_t msg_size);
void http_static_close(http_static *s);

/* Open the file for url_path (as the client sent it, already
 * percent-decoded). PUZ_EINVAL for a path that may not be served,
 * PUZ_EIO when no such regular file exists; both mean 404. */
puz_err http_static_lookup(const http_static *s, const char *url_path,
                           struct http_static_file *out);

/* If-None-Match (RFC 9110 section 13.1.2): true when the header lists
 * this etag (weak comparison, whole entity-tags only) or is "*". NULL
 * header: false. */
bool http_static_etag_match(const char *if_none_match, const char *etag);

/* Content-Type by file extension; application/octet-stream if unknown. */
const char *http_static_content_type(const char *path);

#endif
