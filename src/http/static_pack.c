/*
 * static_pack.c - the web game's files as the server sends them, made
 * once when it starts, so that no request pays for it: each file's
 * fingerprint (a content hash, the ?v= that makes a URL safe to cache
 * for a year), a gzip copy of every text file that compression makes
 * smaller, and the HTML pages rewritten so that they load each file by
 * its fingerprint. The JavaScript modules import one another by plain
 * names ('./board.js'); a page gets an import map that sends every such
 * name to its fingerprinted URL, and modulepreload links for the whole
 * graph its module scripts import, so that a browser asks for all of
 * them at once instead of one level of imports per round trip.
 *
 * A file changed on disk after the start no longer matches its entry
 * (static_pack_find) and is served from disk as it is, uncompressed and
 * without a fingerprint, until the server starts again.
 */
#include "http_static_pack.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "http_static.h"

/* Bounds: a static root is a handful of small files; anything past
 * these is served from disk as before (sendfile, no compression). */
#define PACK_MAX_FILES 4096
#define PACK_MAX_FILE (4u << 20)
#define PACK_MAX_TOTAL (64u << 20)
#define PACK_MAX_DEPTH 16

struct static_pack {
    struct static_pack_entry *v;
    size_t n, cap;
    size_t total;               /* raw bytes read so far */
};

/* A growing byte buffer; on failure it keeps failing (ok = 0). */
struct buf {
    char *s;
    size_t n, cap;
    int ok;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (!b->ok)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->cap + n + 1) * 2;
        char *t = realloc(b->s, cap);

        if (t == NULL) {
            b->ok = 0;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

int static_pack_compressible(const char *type)
{
    static const char *const kinds[] = {
        "text/", "application/json", "application/manifest+json",
        "image/svg+xml", "application/yaml", "application/wasm", NULL,
    };

    for (const char *const *k = kinds; *k != NULL; k++) {
        if (strncmp(type, *k, strlen(*k)) == 0)
            return 1;
    }
    return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);

    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_html(const char *rel)
{
    return has_suffix(rel, ".html") || has_suffix(rel, ".htm");
}

static int is_module(const char *rel)
{
    return has_suffix(rel, ".js") || has_suffix(rel, ".mjs");
}

static int by_rel(const void *a, const void *b)
{
    return strcmp(((const struct static_pack_entry *)a)->rel,
                  ((const struct static_pack_entry *)b)->rel);
}

static struct static_pack_entry *find_rel(const static_pack *p,
                                          const char *rel)
{
    struct static_pack_entry key = { .rel = (char *)rel };

    return p->n == 0 ? NULL : bsearch(&key, p->v, p->n, sizeof(*p->v),
                                      by_rel);
}

/* Reads the whole file into e->raw; 0 if it is gone or too big. */
static int read_file(const char *path, const struct stat *st,
                     struct static_pack_entry *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    size_t got = 0;

    if (fd < 0)
        return 0;
    e->raw = malloc((size_t)st->st_size + 1);
    while (e->raw != NULL && got < (size_t)st->st_size) {
        ssize_t n = read(fd, e->raw + got, (size_t)st->st_size - got);

        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (e->raw == NULL || got != (size_t)st->st_size) {
        free(e->raw);
        e->raw = NULL;
        return 0;
    }
    e->raw[got] = '\0';     /* pages and modules are scanned as text */
    return 1;
}

static puz_err add_file(static_pack *p, const char *path, const char *rel,
                        const struct stat *st)
{
    struct static_pack_entry *e;

    if (p->n == PACK_MAX_FILES || (uint64_t)st->st_size > PACK_MAX_FILE
        || p->total + (size_t)st->st_size > PACK_MAX_TOTAL)
        return PUZ_OK;      /* left to the disk */
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        struct static_pack_entry *v = realloc(p->v, cap * sizeof(*v));

        if (v == NULL)
            return PUZ_ENOMEM;
        p->v = v;
        p->cap = cap;
    }
    e = &p->v[p->n];
    memset(e, 0, sizeof(*e));
    if (!read_file(path, st, e))
        return PUZ_OK;
    e->rel = strdup(rel);
    if (e->rel == NULL) {
        free(e->raw);
        return PUZ_ENOMEM;
    }
    e->dev = st->st_dev;
    e->ino = st->st_ino;
    e->size = st->st_size;
    e->mtime = st->st_mtim;
    p->total += (size_t)st->st_size;
    p->n++;
    return PUZ_OK;
}

/* Every visible regular file below root/rel; symlinks are left to the
 * disk (lookup's fences judge them), hidden names are never served. */
static puz_err walk(static_pack *p, const char *root, const char *rel,
                    int depth)
{
    char dir[PATH_MAX], path[PATH_MAX], child[PATH_MAX];
    puz_err rc = PUZ_OK;
    struct dirent *d;
    struct stat st;
    DIR *dh;

    snprintf(dir, sizeof(dir), "%s%s%s", root, rel[0] ? "/" : "", rel);
    dh = depth > PACK_MAX_DEPTH ? NULL : opendir(dir);
    if (dh == NULL)
        return PUZ_OK;
    while (rc == PUZ_OK && (d = readdir(dh)) != NULL) {
        if (d->d_name[0] == '.'
            || snprintf(child, sizeof(child), "%s%s%s", rel,
                        rel[0] ? "/" : "", d->d_name) >= (int)sizeof(child)
            || snprintf(path, sizeof(path), "%s/%s", root, child)
               >= (int)sizeof(path)
            || lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            rc = walk(p, root, child, depth + 1);
        else if (S_ISREG(st.st_mode))
            rc = add_file(p, path, child, &st);
    }
    closedir(dh);
    return rc;
}

static void fingerprint(struct static_pack_entry *e)
{
    const unsigned char *data = e->body ? e->body : e->raw;
    size_t len = e->body ? e->body_len : (size_t)e->size;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int md_len = 0;

    if (EVP_Digest(data, len, md, &md_len, EVP_sha256(), NULL) != 1)
        md_len = 0;
    for (unsigned i = 0; i < STATIC_PACK_HASH_HEX / 2; i++)
        snprintf(e->hash + 2 * i, 3, "%02x", i < md_len ? md[i] : 0);
}

/* gzip (RFC 1952, mtime 0: the same bytes every start) of what is
 * sent, kept only when it saves something worth a header. */
static puz_err gzip_copy(struct static_pack_entry *e)
{
    const unsigned char *data = e->body ? e->body : e->raw;
    size_t len = e->body ? e->body_len : (size_t)e->size;
    z_stream z;
    size_t bound;

    memset(&z, 0, sizeof(z));
    if (len < 256 || deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9,
                                  Z_DEFAULT_STRATEGY) != Z_OK)
        return PUZ_OK;
    bound = deflateBound(&z, (uLong)len);
    e->gz = malloc(bound);
    if (e->gz == NULL) {
        deflateEnd(&z);
        return PUZ_ENOMEM;
    }
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = e->gz;
    z.avail_out = (uInt)bound;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out + 64 > len) {
        free(e->gz);
        e->gz = NULL;
    } else {
        e->gz_len = z.total_out;
    }
    deflateEnd(&z);
    return PUZ_OK;
}

/*
 * spec as seen from the file base (both relative to the root): "/x"
 * from the root, "./x", "../x" and "x" from base's directory. 0 for
 * anything that is not a plain local path (a scheme, "//host", a query
 * or fragment, a ".." above the root).
 */
static int resolve(const char *base, const char *spec, size_t spec_len,
                   char *out, size_t size)
{
    const char *slash = strrchr(base, '/');
    size_t n = spec[0] == '/' ? 0 : slash ? (size_t)(slash - base) : 0;
    size_t i = spec[0] == '/' ? 1 : 0;

    if (spec_len == 0 || spec_len >= size || n >= size
        || strcspn(spec, ":?#\\\"'") < spec_len
        || (spec_len > 1 && spec[0] == '/' && spec[1] == '/'))
        return 0;
    memcpy(out, base, n);
    out[n] = '\0';
    while (i < spec_len) {
        size_t seg = strcspn(spec + i, "/");

        seg = seg > spec_len - i ? spec_len - i : seg;
        if (seg == 2 && strncmp(spec + i, "..", 2) == 0) {
            char *up = strrchr(out, '/');

            if (n == 0)
                return 0;
            n = up ? (size_t)(up - out) : 0;
        } else if (!(seg == 1 && spec[i] == '.') && seg > 0) {
            if (n + seg + 2 >= size)
                return 0;
            if (n > 0)
                out[n++] = '/';
            memcpy(out + n, spec + i, seg);
            n += seg;
        }
        out[n] = '\0';
        i += seg + 1;
    }
    return n > 0;
}

/* The next quoted module specifier at or after *at in a module's text
 * (after `from` or a bare `import`); NULL when there are no more. */
static const char *next_import(const char *at, size_t *len)
{
    for (const char *p = at; *p != '\0'; p++) {
        const char *q = NULL;

        if (strncmp(p, "from", 4) == 0)
            q = p + 4;
        else if (strncmp(p, "import", 6) == 0)
            q = p + 6;
        if (q == NULL || (p > at && (p[-1] == '_' || p[-1] == '.'
                                     || (p[-1] >= 'a' && p[-1] <= 'z'))))
            continue;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '\'' || *q == '"') {
            const char *end = strchr(q + 1, *q);

            if (end != NULL && strchr("./", q[1]) != NULL) {
                *len = (size_t)(end - q - 1);
                return q + 1;
            }
        }
    }
    return NULL;
}

/* Marks, in order, every module the page's module scripts import, at
 * any depth (order[] gets entry indices; 'seen' is p->n bytes). */
static size_t import_graph(const static_pack *p, size_t *order,
                           size_t n, unsigned char *seen)
{
    for (size_t k = 0; k < n; k++) {
        const struct static_pack_entry *m = &p->v[order[k]];
        const char *spec = (const char *)m->raw;
        char rel[PATH_MAX];
        size_t len;

        while ((spec = next_import(spec, &len)) != NULL) {
            const struct static_pack_entry *dep;

            if (resolve(m->rel, spec, len, rel, sizeof(rel))
                && (dep = find_rel(p, rel)) != NULL && is_module(dep->rel)
                && !seen[dep - p->v]) {
                seen[dep - p->v] = 1;
                order[n++] = (size_t)(dep - p->v);
            }
            spec += len;
        }
    }
    return n;
}

/* The import map, and modulepreload links for the n modules of order[]
 * (the page's module scripts first, then what they import). */
static void modules_block(const static_pack *p, struct buf *b,
                          const size_t *order, size_t n)
{
    const char *sep = "";

    buf_str(b, "<script type=\"importmap\">{\"imports\":{");
    for (size_t i = 0; i < p->n; i++) {
        /* The service worker is registered by its plain name only. */
        if (!is_module(p->v[i].rel) || strcmp(p->v[i].rel, "sw.js") == 0)
            continue;
        buf_str(b, sep);
        buf_str(b, "\"/");
        buf_str(b, p->v[i].rel);
        buf_str(b, "\":\"/");
        buf_str(b, p->v[i].rel);
        buf_str(b, "?v=");
        buf_str(b, p->v[i].hash);
        buf_str(b, "\"");
        sep = ",";
    }
    buf_str(b, "}}</script>\n  ");
    for (size_t k = 0; k < n; k++) {
        buf_str(b, "<link rel=\"modulepreload\" href=\"/");
        buf_str(b, p->v[order[k]].rel);
        buf_str(b, "?v=");
        buf_str(b, p->v[order[k]].hash);
        buf_str(b, "\">\n  ");
    }
}

#define MODULE_TAG "<script type=\"module\""

/* The page's module scripts (src="..."), into order[]. */
static size_t page_modules(const static_pack *p,
                           const struct static_pack_entry *page,
                           size_t *order, unsigned char *seen)
{
    const char *at = (const char *)page->raw;
    char rel[PATH_MAX];
    size_t n = 0;

    while ((at = strstr(at, MODULE_TAG)) != NULL) {
        const char *src = strstr(at, "src=\""), *close = strchr(at, '>');
        const struct static_pack_entry *m;

        at += strlen(MODULE_TAG);
        if (src == NULL || close == NULL || src > close)
            continue;
        src += 5;
        if (resolve(page->rel, src, strcspn(src, "\""), rel, sizeof(rel))
            && (m = find_rel(p, rel)) != NULL && !seen[m - p->v]) {
            seen[m - p->v] = 1;
            order[n++] = (size_t)(m - p->v);
        }
    }
    return n;
}

/* Copies an attribute value, with ?v=<fingerprint> when it names a
 * packed file; returns how much of the text it used. */
static size_t copy_value(const static_pack *p, const char *page_rel,
                         const char *v, struct buf *b)
{
    size_t len = strcspn(v, "\"");
    const struct static_pack_entry *e;
    char rel[PATH_MAX];

    buf_add(b, v, len);
    if (resolve(page_rel, v, len, rel, sizeof(rel))
        && (e = find_rel(p, rel)) != NULL && !is_html(e->rel)) {
        buf_str(b, "?v=");
        buf_str(b, e->hash);
    }
    return len;
}

/* The page with every href/src that names a packed file fingerprinted,
 * and the modules block before its first module script. */
static puz_err rewrite_page(static_pack *p, struct static_pack_entry *page)
{
    size_t *order = calloc(p->n + 1, sizeof(*order));
    unsigned char *seen = calloc(p->n + 1, 1);
    struct buf b = { .ok = 1 };
    const char *t = (const char *)page->raw;
    size_t roots, n;
    int placed = 0;

    if (order == NULL || seen == NULL) {
        free(order);
        free(seen);
        return PUZ_ENOMEM;
    }
    roots = page_modules(p, page, order, seen);
    n = import_graph(p, order, roots, seen);
    while (*t != '\0') {
        if (!placed && roots > 0 && strncmp(t, MODULE_TAG, strlen(MODULE_TAG)) == 0) {
            modules_block(p, &b, order, n);
            placed = 1;
        }
        if ((strncmp(t, " href=\"", 7) == 0 || strncmp(t, " src=\"", 6) == 0)) {
            size_t k = t[1] == 'h' ? 7 : 6;

            buf_add(&b, t, k);
            t += k;
            t += copy_value(p, page->rel, t, &b);
            continue;
        }
        buf_add(&b, t++, 1);
    }
    free(order);
    free(seen);
    if (!b.ok) {
        free(b.s);
        return PUZ_ENOMEM;
    }
    page->body = (unsigned char *)b.s;
    page->body_len = b.n;
    return PUZ_OK;
}

/* Fingerprints first (a page names the others by theirs), then the
 * pages, then compression of what each entry sends. */
static puz_err finish(static_pack *p)
{
    puz_err rc = PUZ_OK;

    qsort(p->v, p->n, sizeof(*p->v), by_rel);
    for (size_t i = 0; i < p->n; i++)
        fingerprint(&p->v[i]);
    for (size_t i = 0; i < p->n && rc == PUZ_OK; i++) {
        if (is_html(p->v[i].rel)) {
            rc = rewrite_page(p, &p->v[i]);
            if (rc == PUZ_OK)
                fingerprint(&p->v[i]);
        }
    }
    for (size_t i = 0; i < p->n && rc == PUZ_OK; i++) {
        if (static_pack_compressible(http_static_content_type(p->v[i].rel)))
            rc = gzip_copy(&p->v[i]);
    }
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].raw);
        p->v[i].raw = NULL;
    }
    return rc;
}

puz_err static_pack_build(const char *root, static_pack **out)
{
    static_pack *p = calloc(1, sizeof(*p));
    puz_err rc;

    *out = NULL;
    if (p == NULL)
        return PUZ_ENOMEM;
    rc = walk(p, root, "", 0);
    if (rc == PUZ_OK)
        rc = finish(p);
    if (rc != PUZ_OK) {
        static_pack_free(p);
        return rc;
    }
    *out = p;
    return PUZ_OK;
}

void static_pack_free(static_pack *p)
{
    if (p == NULL)
        return;
    for (size_t i = 0; i < p->n; i++) {
        free(p->v[i].rel);
        free(p->v[i].body);
        free(p->v[i].gz);
        free(p->v[i].raw);
    }
    free(p->v);
    free(p);
}

const struct static_pack_entry *static_pack_find(const static_pack *p,
                                                 const char *rel,
                                                 const struct stat *st)
{
    const struct static_pack_entry *e = p ? find_rel(p, rel) : NULL;

    if (e == NULL || e->dev != st->st_dev || e->ino != st->st_ino
        || e->size != st->st_size
        || e->mtime.tv_sec != st->st_mtim.tv_sec
        || e->mtime.tv_nsec != st->st_mtim.tv_nsec)
        return NULL;
    return e;
}

void static_pack_totals(const static_pack *p, size_t *files, size_t *plain,
                        size_t *sent)
{
    *files = *plain = *sent = 0;
    for (size_t i = 0; p != NULL && i < p->n; i++) {
        const struct static_pack_entry *e = &p->v[i];
        size_t len = e->body ? e->body_len : (size_t)e->size;

        (*files)++;
        *plain += len;
        *sent += e->gz ? e->gz_len : len;
    }
}
