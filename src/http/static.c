/*
 * static.c - static files of the web game. Two fences keep requests
 * inside the root: the URL path is checked segment by segment (no "..",
 * no ".", no hidden names), then the resolved real path must still lie
 * under the root's real path, which also stops symlinks pointing out.
 * What is sent for a file comes from the pack made at the start
 * (static_pack.c): its gzip copy when the client asks for gzip, and a
 * year's caching when the URL carries the file's fingerprint.
 */
#include "http_static.h"
#include "http_static_pack.h"

#include <stdbool.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

struct http_static {
    char root[PATH_MAX];    /* real path, no trailing slash */
    size_t root_len;
    static_pack *pack;      /* NULL: every file from disk, as it is */
};

#define CACHE_IMMUTABLE "public, max-age=31536000, immutable"
#define CACHE_REVALIDATE "no-cache"
#define CACHE_SHORT "public, max-age=300"

struct mime {
    const char *ext;
    const char *type;
};

static const struct mime mimes[] = {
    { "html", "text/html; charset=utf-8" },
    { "htm", "text/html; charset=utf-8" },
    { "css", "text/css; charset=utf-8" },
    { "js", "text/javascript; charset=utf-8" },
    { "mjs", "text/javascript; charset=utf-8" },
    { "json", "application/json" },
    { "map", "application/json" },
    { "webmanifest", "application/manifest+json" },
    { "txt", "text/plain; charset=utf-8" },
    { "svg", "image/svg+xml" },
    { "png", "image/png" },
    { "jpg", "image/jpeg" },
    { "jpeg", "image/jpeg" },
    { "gif", "image/gif" },
    { "webp", "image/webp" },
    { "ico", "image/x-icon" },
    { "woff2", "font/woff2" },
    { "woff", "font/woff" },
    { "wasm", "application/wasm" },
    { "yaml", "application/yaml" },
    { NULL, NULL },
};

const char *http_static_content_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');

    if (dot == NULL || (slash != NULL && dot < slash))
        return "application/octet-stream";
    for (const struct mime *m = mimes; m->ext != NULL; m++) {
        if (strcasecmp(dot + 1, m->ext) == 0)
            return m->type;
    }
    return "application/octet-stream";
}

puz_err http_static_open(const char *root, http_static **out, char *msg,
                         size_t msg_size)
{
    http_static *s;
    struct stat st;

    *out = NULL;
    s = calloc(1, sizeof(*s));
    if (s == NULL)
        return PUZ_ENOMEM;
    if (realpath(root, s->root) == NULL || stat(s->root, &st) != 0) {
        snprintf(msg, msg_size, "static root %s: %s", root,
                 strerror(errno));
        free(s);
        return PUZ_EIO;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(msg, msg_size, "static root %s: not a directory", root);
        free(s);
        return PUZ_EIO;
    }
    s->root_len = strlen(s->root);
    /* Without memory for the pack the files are still served, from
     * disk and uncompressed, as they were before there was a pack. */
    if (static_pack_build(s->root, &s->pack) != PUZ_OK)
        s->pack = NULL;
    *out = s;
    return PUZ_OK;
}

void http_static_close(http_static *s)
{
    if (s != NULL)
        static_pack_free(s->pack);
    free(s);
}

void http_static_totals(const http_static *s, size_t *files, size_t *plain,
                        size_t *sent)
{
    static_pack_totals(s ? s->pack : NULL, files, plain, sent);
}

/* Every segment must be a plain visible name; "" only at the end. */
static int path_is_safe(const char *p)
{
    const char *seg = p + 1;

    if (p[0] != '/' || strlen(p) >= 1024 || strchr(p, '\\') != NULL)
        return 0;
    while (*seg != '\0') {
        size_t len = strcspn(seg, "/");

        if (len == 0 || seg[0] == '.')
            return 0;   /* "//", ".", "..", ".hidden" */
        seg += len;
        if (*seg == '/')
            seg++;
    }
    return 1;
}

static void fill_file(struct http_static_file *out, int fd,
                      const struct stat *st, const char *real)
{
    const char *type = http_static_content_type(real);

    const char *base = strrchr(real, '/');

    out->fd = fd;
    out->size = (uint64_t)st->st_size;
    out->data = NULL;
    out->encoding = NULL;
    out->content_type = type;
    out->vary = static_pack_compressible(type) != 0;
    /* Pages, the service worker and the manifest change with a deploy
     * and must be revalidated; other files named without a fingerprint
     * may be cached for a while (ETag makes revalidation cheap). */
    out->cache_control = strncmp(type, "text/html", 9) == 0
                         || strcmp(base, "/sw.js") == 0
                         || strcmp(type, "application/manifest+json") == 0
                         ? CACHE_REVALIDATE : CACHE_SHORT;
    snprintf(out->etag, sizeof(out->etag), "\"%llx-%llx\"",
             (unsigned long long)st->st_size,
             (unsigned long long)st->st_mtime);
}

/* The packed entry's bytes for this request: the rewritten page, the
 * gzip copy for a client that takes it, the fingerprint as the ETag. */
static void choose(struct http_static_file *out,
                   const struct static_pack_entry *e,
                   const struct http_static_ask *ask)
{
    bool gz = e->gz != NULL && ask != NULL
              && http_static_accepts_gzip(ask->accept_encoding);

    if (e->body != NULL) {
        out->data = e->body;
        out->size = e->body_len;
    }
    if (gz) {
        out->data = e->gz;
        out->size = e->gz_len;
        out->encoding = "gzip";
    }
    /* Each representation its own entity-tag (RFC 9110 section 8.8.3). */
    snprintf(out->etag, sizeof(out->etag), "\"%s%s\"", e->hash,
             gz ? "-gz" : "");
    if (ask != NULL && ask->version != NULL
        && strcmp(ask->version, e->hash) == 0)
        out->cache_control = CACHE_IMMUTABLE;
}

puz_err http_static_lookup(const http_static *s, const char *url_path,
                           const struct http_static_ask *ask,
                           struct http_static_file *out)
{
    const struct static_pack_entry *e;

    char want[PATH_MAX], real[PATH_MAX];
    size_t len = strlen(url_path);
    struct stat st;
    int fd;

    out->fd = -1;
    if (s == NULL || !path_is_safe(url_path))
        return PUZ_EINVAL;
    if (snprintf(want, sizeof(want), "%s%s%s", s->root, url_path,
                 url_path[len - 1] == '/' ? "index.html" : "")
        >= (int)sizeof(want))
        return PUZ_EINVAL;
    if (realpath(want, real) == NULL)
        return PUZ_EIO;
    if (strncmp(real, s->root, s->root_len) != 0
        || real[s->root_len] != '/')
        return PUZ_EINVAL;
    /* O_NONBLOCK: opening a FIFO (or a device) would otherwise block
     * this network thread until a writer shows up; fstat below lets
     * regular files only through, for which the flag changes nothing. */
    fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0)
        return PUZ_EIO;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return PUZ_EIO;
    }
    fill_file(out, fd, &st, real);
    e = static_pack_find(s->pack, real + s->root_len + 1, &st);
    if (e != NULL)
        choose(out, e, ask);
    return PUZ_OK;
}

/* Whether one Accept-Encoding member's parameters say q=0 (refused). */
static bool q_is_zero(const char *p, const char *end)
{
    for (; p < end; p++) {
        if ((*p == 'q' || *p == 'Q') && p[1] == '=') {
            p += 2;
            if (*p != '0')
                return false;
            for (p++; p < end && (*p == '.' || *p == '0'); p++)
                ;
            return p >= end || *p == ' ' || *p == '\t' || *p == ';';
        }
    }
    return false;
}

bool http_static_accepts_gzip(const char *accept_encoding)
{
    int gzip = -1, star = -1;     /* -1 not named, 0 refused, 1 taken */
    const char *p = accept_encoding;

    while (p != NULL && *p != '\0') {
        const char *end = p + strcspn(p, ","), *name;
        size_t len;

        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        name = p;
        len = strcspn(name, " \t;,");
        if ((len == 4 && strncasecmp(name, "gzip", 4) == 0)
            || (len == 6 && strncasecmp(name, "x-gzip", 6) == 0))
            gzip = !q_is_zero(name + len, end);
        else if (len == 1 && name[0] == '*')
            star = !q_is_zero(name + len, end);
        p = *end == ',' ? end + 1 : end;
    }
    return gzip >= 0 ? gzip == 1 : star == 1;
}

/* Skip optional whitespace and commas between list members. */
static const char *skip_ows(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == ',')
        p++;
    return p;
}

bool http_static_etag_match(const char *if_none_match, const char *etag)
{
    size_t n = strlen(etag);
    const char *p = if_none_match, *end;

    if (p == NULL)
        return false;
    for (p = skip_ows(p); *p != '\0'; p = skip_ows(end)) {
        if (*p == '*')
            return true;        /* any current representation */
        /* Weak comparison (RFC 9110 section 8.8.3.2): W/ is ignored. */
        if (strncmp(p, "W/", 2) == 0)
            p += 2;
        if (*p != '"')
            return false;       /* not an entity-tag: the list is broken */
        end = strchr(p + 1, '"');
        if (end == NULL)
            return false;
        end++;
        if (*end != '\0' && *end != ',' && *end != ' ' && *end != '\t')
            return false;       /* '"a"x': not a list of entity-tags */
        if ((size_t)(end - p) == n && strncmp(p, etag, n) == 0)
            return true;
    }
    return false;
}
