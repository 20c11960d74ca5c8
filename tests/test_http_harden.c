/*
 * test_http_harden.c - the probes of issue 15 (hardening, round two),
 * each one the attack as it was reported: request smuggling framing,
 * slow clients, bodies refused early, a FIFO among the static files,
 * If-None-Match, the connection limit. Raw sockets throughout, since
 * libcurl would repair most of these requests; nothing here is
 * recorded for the OpenAPI check (transport-level answers).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/htest.h"

static http_server *srv;

#define HOST "Host: t\r\n"
#define JSON "Content-Type: application/json\r\n"

struct raw {
    char buf[65536];
    size_t len;
    bool closed;        /* the server closed the connection */
    double ms;          /* until closed, or until the wait ran out */
};

static void send_all(int fd, const char *bytes, size_t len)
{
    size_t done = 0;
    ssize_t n;

    while (done < len) {
        n = send(fd, bytes + done, len - done, MSG_NOSIGNAL);
        if (n <= 0)
            return;     /* the server may close early; fine */
        done += (size_t)n;
    }
}

/* Read whatever comes within wait_ms (stopping at EOF). */
static void raw_collect(int fd, int wait_ms, struct raw *out)
{
    double t0 = htest_now_ms(), left;
    struct pollfd p = { .fd = fd, .events = POLLIN };
    ssize_t n;

    out->len = 0;
    out->closed = false;
    for (;;) {
        left = wait_ms - (htest_now_ms() - t0);
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            break;
        n = recv(fd, out->buf + out->len, sizeof(out->buf) - 1 - out->len,
                 0);
        if (n <= 0) {
            out->closed = true;
            break;
        }
        out->len += (size_t)n;
    }
    out->buf[out->len] = '\0';
    out->ms = htest_now_ms() - t0;
}

/* One exchange on a fresh connection. */
static void raw_send(http_server *s, const char *bytes, int wait_ms,
                     struct raw *out)
{
    int fd = htest_raw_open(s);

    assert_true(fd >= 0);
    send_all(fd, bytes, strlen(bytes));
    raw_collect(fd, wait_ms, out);
    close(fd);
}

static unsigned count_of(const char *hay, const char *needle)
{
    unsigned n = 0;

    for (const char *p = strstr(hay, needle); p != NULL;
         p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Exactly one answer with this status (and slug), then EOF promptly. */
static void expect_one_then_close(const struct raw *r, const char *what,
                                  const char *status, const char *slug)
{
    if (count_of(r->buf, "HTTP/1.1 ") != 1 || strstr(r->buf, status) == NULL
        || (slug != NULL && strstr(r->buf, slug) == NULL) || !r->closed)
        fprintf(stderr, "case %s (closed %d after %.0f ms):\n%s\n", what,
                r->closed, r->ms, r->buf);
    assert_int_equal(count_of(r->buf, "HTTP/1.1 "), 1);
    assert_non_null(strstr(r->buf, status));
    if (slug != NULL)
        assert_non_null(strstr(r->buf, slug));
    assert_true(r->closed);
    assert_true(r->ms < 1500);
}

static int setup(void **state)
{
    struct http_config c;

    (void)state;
    htest_config(&c);
    srv = htest_start(&c);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    http_server_destroy(srv);
    return 0;
}

/* Item 3: Content-Length with Transfer-Encoding is refused and the
 * connection closed, so the request smuggled behind it never runs. */
static void test_cl_and_te_refused_and_closed(void **state)
{
    static const char *const reqs[] = {
        "POST /v1/solve HTTP/1.1\r\n" HOST JSON "Content-Length: 30\r\n"
        "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        "GET /livez HTTP/1.1\r\n" HOST "\r\n",
        "GET /livez HTTP/1.1\r\n" HOST "Transfer-Encoding: chunked\r\n"
        "Content-Length: 5\r\n\r\n0\r\n\r\n"
        "GET /readyz HTTP/1.1\r\n" HOST "\r\n",
    };
    struct raw r;

    (void)state;
    for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
        raw_send(srv, reqs[i], 3000, &r);
        expect_one_then_close(&r, "CL+TE", " 400 ", "bad-request");
        assert_null(strstr(r.buf, "\"status\":\"ok\""));
        assert_null(strstr(r.buf, "ready"));
    }
}

/* Item 3: two Host headers, whitespace before a colon: 400. */
static void test_ambiguous_headers_refused(void **state)
{
    static const char *const reqs[] = {
        "GET /livez HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /livez HTTP/1.1\r\n" HOST "X-Foo : b\r\n\r\n",
        "GET /livez HTTP/1.1\r\n" HOST "Content-Length\t: 0\r\n\r\n",
    };
    struct raw r;

    (void)state;
    for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
        raw_send(srv, reqs[i], 3000, &r);
        expect_one_then_close(&r, reqs[i], " 400 ", "bad-request");
    }
}

/* Item 3: codings MHD cannot decode are answered 501 at once (they
 * used to hang until the client left). */
static void test_unknown_codings_answered_at_once(void **state)
{
    static const char *const codings[] = {
        "gzip, chunked", "identity", "xchunked", "chunked ", "chunked, "
        "chunked", "gzip",
    };
    char req[512];
    struct raw r;

    (void)state;
    for (size_t i = 0; i < sizeof(codings) / sizeof(codings[0]); i++) {
        snprintf(req, sizeof(req), "POST /v1/solve HTTP/1.1\r\n" HOST JSON
                 "Transfer-Encoding: %s\r\n\r\n0\r\n\r\n", codings[i]);
        raw_send(srv, req, 3000, &r);
        expect_one_then_close(&r, codings[i], " 501 ", "not-implemented");
    }
    /* Two Transfer-Encoding fields stack as well. */
    raw_send(srv, "POST /v1/solve HTTP/1.1\r\n" HOST JSON
             "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
             "0\r\n\r\n", 3000, &r);
    expect_one_then_close(&r, "two TE", " 501 ", "not-implemented");
    /* Plain chunked still works, and keeps the connection. */
    raw_send(srv, "POST /v1/solve HTTP/1.1\r\n" HOST JSON
             "Transfer-Encoding: chunked\r\n\r\n"
             "1d\r\n{\"board\":\"1 2 3 4 5 6 7 0 8\"}\r\n0\r\n\r\n", 500, &r);
    assert_non_null(strstr(r.buf, "HTTP/1.1 200 "));
    assert_false(r.closed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cl_and_te_refused_and_closed),
        cmocka_unit_test(test_ambiguous_headers_refused),
        cmocka_unit_test(test_unknown_codings_answered_at_once),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
