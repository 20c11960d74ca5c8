/*
 * test_http_static.c - the static file module without a socket: content
 * types, index.html for directories, and every way out of the root that
 * must fail (.., hidden names, empty segments, symlinks leading out).
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

#include "http_static.h"

#define ROOT "test-output/test_http_static/root"

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");

    assert_non_null(f);
    fputs(text, f);
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

    assert_int_equal(http_static_lookup(s, path, &f), PUZ_OK);
    assert_true(f.fd >= 0);
    assert_string_equal(f.content_type, type);
    assert_int_equal(f.size, size);
    assert_true(f.etag[0] == '"');
    close(f.fd);
}

static void lookup_fails(http_static *s, const char *path)
{
    struct http_static_file f;

    if (http_static_lookup(s, path, &f) == PUZ_OK) {
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serves_files),
        cmocka_unit_test(test_refuses_escapes),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_content_types),
        cmocka_unit_test(test_fifo_not_served_nor_blocking),
        cmocka_unit_test(test_if_none_match),
    };

    return cmocka_run_group_tests(tests, setup, NULL);
}
