/*
 * test_http_static.c - the static file module without a socket: content
 * types, index.html for directories, and every way out of the root that
 * must fail (.., hidden names, empty segments, symlinks leading out);
 * then what is sent (issue 45): the gzip copy only to a client that asks
 * for gzip, a year's caching only for a URL with the file's fingerprint,
 * pages rewritten to load every file by its fingerprint, and the same
 * over real sockets with libcurl (headers, 304, HEAD, bytes sent).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <zlib.h>

#include "http_static.h"
#include "support/htest.h"

#define ROOT "test-output/test_http_static/root"

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A module: its first line, then `lines` lines of filler text. */
static void put_module(const char *path, const char *first, int lines)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(first, f);
    for (int i = 0; i < lines; i++)
        fprintf(f, "// line %d of a module that compresses well\n", i);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    mkdir("test-output", 0755);
    mkdir("test-output/test_http_static", 0755);
    mkdir(ROOT, 0755);
    mkdir(ROOT "/js", 0755);
    put(ROOT "/index.html", "<p>hi</p>");
    put(ROOT "/js/app.js", "1;");
    put(ROOT "/js/index.html", "<p>js</p>");
    put(ROOT "/.secret", "x");
    put_module(ROOT "/js/big.js", "import { dep } from './dep.js';\n", 400);
    put_module(ROOT "/js/dep.js", "export const dep = 1;\n", 100);
    put_module(ROOT "/js/lone.js", "export const lone = 1;\n", 100);
    put_module(ROOT "/js/change.js", "export const c = 1;\n", 100);
    put(ROOT "/page.html", "<!doctype html><link rel=\"stylesheet\" "
        "href=\"js/app.js\"><a href=\"#x\"></a><img src=\"/js/dep.js\">"
        "<img src=\"https://example.org/js/dep.js\">\n"
        "  <script type=\"module\" src=\"js/big.js\"></script>\n");
    put("test-output/test_http_static/outside.txt", "out");
    unlink(ROOT "/out.txt");
    unlink(ROOT "/in.txt");
    assert_int_equal(symlink("../outside.txt", ROOT "/out.txt"), 0);
    assert_int_equal(symlink("js/app.js", ROOT "/in.txt"), 0);
    return 0;
}

static void lookup_ok(http_static *s, const char *path, const char *type,
                      uint64_t size)
{
    struct http_static_file f;

    assert_int_equal(http_static_lookup(s, path, NULL, &f), PUZ_OK);
    assert_true(f.fd >= 0);
    assert_string_equal(f.content_type, type);
    assert_int_equal(f.size, size);
    assert_true(f.etag[0] == '"');
    close(f.fd);
}

static void lookup_fails(http_static *s, const char *path)
{
    struct http_static_file f;

    if (http_static_lookup(s, path, NULL, &f) == PUZ_OK) {
        close(f.fd);
        fail_msg("%s was served", path);
    }
    assert_int_equal(f.fd, -1);
}

static void test_serves_files(void **state)
{
    http_static *s = NULL;
    char msg[256];

    (void)state;
    assert_int_equal(http_static_open(ROOT, &s, msg, sizeof(msg)), PUZ_OK);
    lookup_ok(s, "/", "text/html; charset=utf-8", 9);
    lookup_ok(s, "/index.html", "text/html; charset=utf-8", 9);
    lookup_ok(s, "/js/app.js", "text/javascript; charset=utf-8", 2);
    lookup_ok(s, "/js/", "text/html; charset=utf-8", 9);
    lookup_ok(s, "/in.txt", "text/javascript; charset=utf-8", 2);
    http_static_close(s);
}

static void test_refuses_escapes(void **state)
{
    static const char *const bad[] = {
        "", "index.html", "/..", "/../index.html", "/js/../index.html",
        "/./index.html", "/.secret", "//index.html", "/js//app.js",
        "/out.txt", "/js", "/missing", "/js\\app.js", "/js/app.js/",
    };
    http_static *s = NULL;
    char msg[256];

    (void)state;
    assert_int_equal(http_static_open(ROOT, &s, msg, sizeof(msg)), PUZ_OK);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        lookup_fails(s, bad[i]);
    lookup_fails(NULL, "/index.html");
    http_static_close(s);
}

static void test_open_errors(void **state)
{
    http_static *s = (http_static *)1;
    char msg[256];

    (void)state;
    assert_int_equal(http_static_open("test-output/no-such-dir", &s, msg,
                                      sizeof(msg)), PUZ_EIO);
    assert_null(s);
    assert_non_null(strstr(msg, "no-such-dir"));
    assert_int_equal(http_static_open(ROOT "/index.html", &s, msg,
                                      sizeof(msg)), PUZ_EIO);
    assert_non_null(strstr(msg, "not a directory"));
}

static void test_content_types(void **state)
{
    (void)state;
    assert_string_equal(http_static_content_type("a/b.CSS"),
                        "text/css; charset=utf-8");
    assert_string_equal(http_static_content_type("x.svg"), "image/svg+xml");
    assert_string_equal(http_static_content_type("x.woff2"), "font/woff2");
    assert_string_equal(http_static_content_type("x.json"),
                        "application/json");
    assert_string_equal(http_static_content_type("Makefile"),
                        "application/octet-stream");
    assert_string_equal(http_static_content_type("dir.d/file"),
                        "application/octet-stream");
}

/* Issue 15 item 9: a FIFO in the root is no file to serve, and looking
 * it up must not block the network thread until a writer comes. */
static void test_fifo_not_served_nor_blocking(void **state)
{
    http_static *s = NULL;
    char msg[256];

    (void)state;
    unlink(ROOT "/pipe.js");
    assert_int_equal(mkfifo(ROOT "/pipe.js", 0644), 0);
    assert_int_equal(http_static_open(ROOT, &s, msg, sizeof(msg)), PUZ_OK);
    alarm(5);           /* a blocking open() fails the test, not hangs */
    lookup_fails(s, "/pipe.js");
    alarm(0);
    http_static_close(s);
    unlink(ROOT "/pipe.js");
}

/* Issue 15 item 9: If-None-Match compares whole entity-tags (weakly),
 * and "*" matches; a substring of a tag does not. */
static void test_if_none_match(void **state)
{
    const char *tag = "\"1a-2b\"";

    (void)state;
    assert_true(http_static_etag_match("\"1a-2b\"", tag));
    assert_true(http_static_etag_match("W/\"1a-2b\"", tag));
    assert_true(http_static_etag_match("\"x\", \"1a-2b\"", tag));
    assert_true(http_static_etag_match("\"x\",W/\"1a-2b\" ", tag));
    assert_true(http_static_etag_match("*", tag));
    assert_false(http_static_etag_match(NULL, tag));
    assert_false(http_static_etag_match("", tag));
    assert_false(http_static_etag_match("\"1a-2b\"x", tag));
    assert_false(http_static_etag_match("x\"1a-2b\"", tag));
    assert_false(http_static_etag_match("\"11a-2b\"", tag));
    assert_false(http_static_etag_match("\"1a-2b", tag));
    assert_false(http_static_etag_match("1a-2b", tag));
    assert_false(http_static_etag_match("\"x\" \"y\"", tag));
}

/* Accept-Encoding as RFC 9110 section 12.5.3 reads it: q=0 refuses. */
static void test_accepts_gzip(void **state)
{
    (void)state;
    assert_true(http_static_accepts_gzip("gzip"));
    assert_true(http_static_accepts_gzip("gzip, deflate, br"));
    assert_true(http_static_accepts_gzip("br;q=1.0, GZIP;q=0.5"));
    assert_true(http_static_accepts_gzip("x-gzip"));
    assert_true(http_static_accepts_gzip("*"));
    assert_true(http_static_accepts_gzip("gzip;q=0.001"));
    assert_true(http_static_accepts_gzip("identity, gzip ; q=1"));
    assert_false(http_static_accepts_gzip(NULL));
    assert_false(http_static_accepts_gzip(""));
    assert_false(http_static_accepts_gzip("identity"));
    assert_false(http_static_accepts_gzip("br, deflate"));
    assert_false(http_static_accepts_gzip("gzip;q=0"));
    assert_false(http_static_accepts_gzip("gzip; q=0.000, br"));
    assert_false(http_static_accepts_gzip("*;q=0"));
    assert_false(http_static_accepts_gzip("*, gzip;q=0"));
    assert_false(http_static_accepts_gzip("gzipped"));
    assert_false(http_static_accepts_gzip("x-gzip;q=0, identity"));
}

static long file_size(const char *path)
{
    struct stat st;

    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

/* The whole of a file, NUL-terminated; the caller frees it. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    long n = file_size(path);
    char *text = malloc((size_t)n + 1);

    assert_non_null(f);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return text;
}

/* gzip data, inflated, must be exactly the file at path. */
static void assert_gunzips_to(const void *data, size_t len, const char *path)
{
    size_t want_len;
    char *want = slurp(path, &want_len);
    unsigned char *got = malloc(want_len + 16);
    z_stream z;

    assert_non_null(got);
    memset(&z, 0, sizeof(z));
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = (unsigned char *)data;
    z.avail_in = (unsigned)len;
    z.next_out = got;
    z.avail_out = (unsigned)want_len + 16;
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    assert_int_equal(z.total_out, want_len);
    assert_memory_equal(got, want, want_len);
    inflateEnd(&z);
    free(got);
    free(want);
}

static void lookup_ask(http_static *s, const char *path, const char *ae,
                       const char *version, struct http_static_file *f)
{
    struct http_static_ask ask = { .accept_encoding = ae,
                                   .version = version };

    assert_int_equal(http_static_lookup(s, path, &ask, f), PUZ_OK);
    close(f->fd);
}

/* The fingerprint in an entity-tag: "hash" or "hash-gz". */
static void hash_of(const char *etag, char *out)
{
    size_t n = strcspn(etag + 1, "-\"");

    memcpy(out, etag + 1, n);
    out[n] = '\0';
}

/* Issue 45: the gzip copy goes only to a client that asks for gzip;
 * any other gets the file as it is; both say Vary. */
static void test_gzip_only_when_asked(void **state)
{
    static const char *const plain[] = {
        NULL, "", "identity", "br", "gzip;q=0", "*;q=0",
    };
    http_static *s = NULL;
    struct http_static_file f;
    char msg[256];

    (void)state;
    assert_int_equal(http_static_open(ROOT, &s, msg, sizeof(msg)), PUZ_OK);
    lookup_ask(s, "/js/big.js", "gzip, deflate, br", NULL, &f);
    assert_non_null(f.encoding);
    assert_string_equal(f.encoding, "gzip");
    assert_true(f.vary);
    assert_true(f.size * 3 < (uint64_t)file_size(ROOT "/js/big.js"));
    assert_gunzips_to(f.data, f.size, ROOT "/js/big.js");
    assert_non_null(strstr(f.etag, "-gz\""));
    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
        lookup_ask(s, "/js/big.js", plain[i], NULL, &f);
        assert_null(f.encoding);
        assert_true(f.vary);
        assert_int_equal(f.size, file_size(ROOT "/js/big.js"));
        assert_null(strstr(f.etag, "-gz"));
    }
    /* Too small to gain: sent as it is, still varying by encoding. */
    lookup_ask(s, "/js/app.js", "gzip", NULL, &f);
    assert_null(f.encoding);
    assert_true(f.vary);
    http_static_close(s);
}

/* A year's caching only for the URL that carries the file's own
 * fingerprint; a wrong or missing one is revalidated soon. */
static void test_fingerprint_caching(void **state)
{
    http_static *s = NULL;
    struct http_static_file f;
    char msg[256], hash[48];

    (void)state;
    assert_int_equal(http_static_open(ROOT, &s, msg, sizeof(msg)), PUZ_OK);
    lookup_ask(s, "/js/dep.js", NULL, NULL, &f);
    hash_of(f.etag, hash);
    assert_int_equal(strlen(hash), 16);
    assert_string_equal(f.cache_control, "public, max-age=300");
    lookup_ask(s, "/js/dep.js", "gzip", hash, &f);
    assert_string_equal(f.cache_control,
                        "public, max-age=31536000, immutable");
    lookup_ask(s, "/js/dep.js", "gzip", "0123456789abcdef", &f);
    assert_string_equal(f.cache_control, "public, max-age=300");
    lookup_ask(s, "/index.html", "gzip", NULL, &f);
    assert_string_equal(f.cache_control, "no-cache");
    http_static_close(s);
}

/* A page loads each file by its fingerprint: href/src rewritten, an
 * import map for the modules' plain names, and modulepreload links for
 * the graph its module script imports; nothing else touched. */
static void test_page_rewritten(void **state)
{
    http_static *s = NULL;
    struct http_static_file f, big, dep, lone, app;
    char msg[256], want[256], h[4][48];
    char *page;

    (void)state;
    assert_int_equal(http_static_open(ROOT, &s, msg, sizeof(msg)), PUZ_OK);
    lookup_ask(s, "/js/big.js", NULL, NULL, &big);
    lookup_ask(s, "/js/dep.js", NULL, NULL, &dep);
    lookup_ask(s, "/js/lone.js", NULL, NULL, &lone);
    lookup_ask(s, "/js/app.js", NULL, NULL, &app);
    hash_of(big.etag, h[0]);
    hash_of(dep.etag, h[1]);
    hash_of(lone.etag, h[2]);
    hash_of(app.etag, h[3]);
    lookup_ask(s, "/page.html", NULL, NULL, &f);
    assert_non_null(f.data);
    page = strndup(f.data, (size_t)f.size);
    snprintf(want, sizeof(want), "href=\"js/app.js?v=%s\"", h[3]);
    assert_non_null(strstr(page, want));
    snprintf(want, sizeof(want), "src=\"/js/dep.js?v=%s\"", h[1]);
    assert_non_null(strstr(page, want));
    snprintf(want, sizeof(want), "src=\"js/big.js?v=%s\"", h[0]);
    assert_non_null(strstr(page, want));
    assert_non_null(strstr(page, "src=\"https://example.org/js/dep.js\""));
    assert_non_null(strstr(page, "href=\"#x\""));
    snprintf(want, sizeof(want), "\"/js/lone.js\":\"/js/lone.js?v=%s\"",
             h[2]);
    assert_non_null(strstr(page, want));
    snprintf(want, sizeof(want), "<link rel=\"modulepreload\" "
             "href=\"/js/dep.js?v=%s\">", h[1]);
    assert_non_null(strstr(page, want));
    assert_null(strstr(page, "modulepreload\" href=\"/js/lone.js"));
    /* The import map comes before the module script, as it must. */
    assert_true(strstr(page, "importmap") < strstr(page, "type=\"module\""));
    free(page);
    http_static_close(s);
}

/* A file changed after the start is sent as it now is, never the old
 * gzip copy, and its old fingerprint no longer earns a year. */
static void test_changed_file_served_fresh(void **state)
{
    http_static *s = NULL;
    struct http_static_file f;
    char msg[256], hash[48];

    (void)state;
    put_module(ROOT "/js/change.js", "export const c = 1;\n", 100);
    assert_int_equal(http_static_open(ROOT, &s, msg, sizeof(msg)), PUZ_OK);
    lookup_ask(s, "/js/change.js", "gzip", NULL, &f);
    assert_non_null(f.encoding);
    hash_of(f.etag, hash);
    put_module(ROOT "/js/change.js", "export const c = 2;\n", 120);
    lookup_ask(s, "/js/change.js", "gzip", hash, &f);
    assert_null(f.encoding);
    assert_null(f.data);
    assert_int_equal(f.size, file_size(ROOT "/js/change.js"));
    assert_string_equal(f.cache_control, "public, max-age=300");
    http_static_close(s);
}

/* The same over real sockets (libcurl sends exactly the headers given,
 * and leaves the body as it came). */
static void test_http_gzip_headers(void **state)
{
    const char *gz[] = { "Accept-Encoding: gzip, br", NULL };
    const char *no_gz[] = { "Accept-Encoding: br, gzip;q=0", NULL };
    struct htest_req rq = { .path = "/js/big.js", .route = "/{asset}",
                            .no_record = true };
    struct http_config c;
    struct htest_resp r;
    http_server *srv;
    char v[128], cond[160];
    const char *gz_cond[] = { "Accept-Encoding: gzip", cond, NULL };
    long size = file_size(ROOT "/js/big.js");

    (void)state;
    htest_config(&c);
    snprintf(c.static_root, sizeof(c.static_root), "%s", ROOT);
    srv = htest_start(&c);
    /* No Accept-Encoding: the file as it is. */
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    assert_int_equal(r.status, 200);
    assert_null(htest_header(&r, "Content-Encoding", v, sizeof(v)));
    assert_string_equal(htest_header(&r, "Vary", v, sizeof(v)),
                        "Accept-Encoding");
    assert_int_equal(r.len, size);
    htest_resp_free(&r);
    rq.headers = no_gz;
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    assert_null(htest_header(&r, "Content-Encoding", v, sizeof(v)));
    assert_int_equal(r.len, size);
    htest_resp_free(&r);
    /* Asked for: gzip, a third of the bytes or fewer, inflating to it. */
    rq.headers = gz;
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(htest_header(&r, "Content-Encoding", v, sizeof(v)),
                        "gzip");
    assert_string_equal(htest_header(&r, "Vary", v, sizeof(v)),
                        "Accept-Encoding");
    assert_true(r.len * 3 < (size_t)size);
    assert_gunzips_to(r.body, r.len, ROOT "/js/big.js");
    snprintf(cond, sizeof(cond), "If-None-Match: %s",
             htest_header(&r, "ETag", v, sizeof(v)));
    htest_resp_free(&r);
    /* Its entity-tag revalidates: 304, still saying Vary. */
    rq.headers = gz_cond;
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    assert_int_equal(r.status, 304);
    assert_string_equal(htest_header(&r, "Vary", v, sizeof(v)),
                        "Accept-Encoding");
    htest_resp_free(&r);
    /* HEAD: the same headers, no body. */
    rq.headers = gz;
    rq.method = "HEAD";
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(htest_header(&r, "Content-Encoding", v, sizeof(v)),
                        "gzip");
    assert_int_equal(r.len, 0);
    htest_resp_free(&r);
    http_server_destroy(srv);
}

/* A fingerprinted URL is cached for a year, the page never without
 * asking, over real sockets. */
static void test_http_cache_headers(void **state)
{
    struct htest_req rq = { .path = "/page.html", .route = "/{asset}",
                            .no_record = true };
    struct http_config c;
    struct htest_resp r;
    http_server *srv;
    char v[128], path[128];
    const char *at;

    (void)state;
    htest_config(&c);
    snprintf(c.static_root, sizeof(c.static_root), "%s", ROOT);
    srv = htest_start(&c);
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    assert_string_equal(htest_header(&r, "Cache-Control", v, sizeof(v)),
                        "no-cache");
    at = strstr(r.body, "src=\"/js/dep.js?v=");
    assert_non_null(at);
    snprintf(path, sizeof(path), "%.*s", (int)strcspn(at + 5, "\""),
             at + 5);
    htest_resp_free(&r);
    rq.path = path;
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(htest_header(&r, "Cache-Control", v, sizeof(v)),
                        "public, max-age=31536000, immutable");
    htest_resp_free(&r);
    http_server_destroy(srv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepts_gzip),
        cmocka_unit_test(test_gzip_only_when_asked),
        cmocka_unit_test(test_fingerprint_caching),
        cmocka_unit_test(test_page_rewritten),
        cmocka_unit_test(test_changed_file_served_fresh),
        cmocka_unit_test(test_http_gzip_headers),
        cmocka_unit_test(test_http_cache_headers),
        cmocka_unit_test(test_serves_files),
        cmocka_unit_test(test_refuses_escapes),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_content_types),
        cmocka_unit_test(test_fifo_not_served_nor_blocking),
        cmocka_unit_test(test_if_none_match),
    };

    return cmocka_run_group_tests(tests, setup, NULL);
}
