/*
 * test_http_floods.c - issue 44 finding 3: the health and readiness
 * probes stay answerable while a client floods the connections, with
 * the shipped k8s settings in small (max_connections, timeouts; no
 * per-address cap, as behind an ingress):
 *  - max_connections + 50 idle sockets: /livez answers 200 within 1 s
 *    on the main port (the oldest idle connection makes room) and on the
 *    probe port (a listener of its own);
 *  - a reconnect flood (a thread opening and dropping connections as
 *    fast as it can) meanwhile;
 *  - connections that were answered and then stay idle (keep-alive, as
 *    the refused event-stream requests of the report did);
 *  - every connection busy (slow bodies): the main port refuses at once
 *    with 503, the probe port still answers;
 *  - the report's case: 100 event-stream requests from one client on a
 *    long job with max_connections 100: 8 streams, 92 refusals (429)
 *    left open as idle keep-alive connections; /livez got 0 of 5.
 * Loopback only, bounded: ~600 sockets at most, a few seconds.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "http/http_int.h"
#include "support/htest.h"

#define MAXC 100                /* max_connections of the test server */
#define FLOOD (MAXC + 50)
#define PROBES 100

/* A connection to 127.0.0.1:port, or -1. */
static int dial(unsigned port)
{
    struct sockaddr_in a = { .sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port) };
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* A free port of loopback (the probe listener's, in the config). */
static unsigned free_port(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    unsigned port = 0;

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0
        && getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

/* The status of GET path on a fresh connection to port, answered
 * within ms (0: none in time, or the connection failed). */
static int get_status(unsigned port, const char *path, int ms)
{
    char req[128], buf[512];
    size_t len = 0;
    int fd = dial(port), status = 0;
    double t0 = wait_now_ms();
    struct pollfd p;

    if (fd < 0)
        return 0;
    snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: t\r\nConnection: "
             "close\r\n\r\n", path);
    if (send(fd, req, strlen(req), MSG_NOSIGNAL) == (ssize_t)strlen(req)) {
        p.fd = fd;
        p.events = POLLIN;
        while (len < 12 && wait_now_ms() - t0 < ms
               && poll(&p, 1, ms - (int)(wait_now_ms() - t0)) > 0) {
            ssize_t n = recv(fd, buf + len, sizeof(buf) - 1 - len, 0);
            if (n <= 0)
                break;
            len += (size_t)n;
        }
        buf[len] = '\0';
        if (len >= 12 && strncmp(buf, "HTTP/1.1 ", 9) == 0)
            status = atoi(buf + 9);
    }
    close(fd);
    return status;
}

/* Of PROBES probes of /livez on port, how many answered 200 within 1 s. */
static int probes_ok(unsigned port, const char *what)
{
    int ok = 0, other = 0;

    for (int i = 0; i < PROBES; i++) {
        int st = get_status(port, "/livez", 1000);
        ok += st == 200;
        if (st != 200 && other++ < 3)
            fprintf(stderr, "%s: probe %d answered %d\n", what, i, st);
        usleep(5000);   /* probes spread over ~0.5 s of the flood, as a
                         * prober's period spreads them */
    }
    fprintf(stderr, "%s: /livez 200 in %d of %d probes (port %u)\n", what,
            ok, PROBES, port);
    return ok;
}

static http_server *start(unsigned *probe_port)
{
    struct http_config c;

    htest_config(&c);
    /* deploy/k8s/configmap.yaml's timeouts, max_connections scaled. */
    c.max_connections = MAXC;
    c.connection_timeout_s = 30;
    c.request_head_timeout_s = 10;
    c.request_body_timeout_s = 20;
    c.max_connections_per_ip = 0;
    c.probe_port = free_port();
    *probe_port = c.probe_port;
    return htest_start(&c);
}

static void close_all(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* Every connection past the first MAXC of FLOOD seen by the server: it
 * made room for it or refused it. */
static bool flood_seen(void *s)
{
    struct http__conn_stats st;

    http__conns_stats(s, &st);
    return st.reclaimed + st.refused >= FLOOD - MAXC;
}

/* 1. Idle sockets past max_connections: both ports answer. */
static void test_idle_flood(void **state)
{
    unsigned pp;
    http_server *s = start(&pp);
    int fds[FLOOD];

    (void)state;
    assert_int_equal(http_server_probe_port(s), pp);
    for (int i = 0; i < FLOOD; i++)
        fds[i] = dial(http_server_port(s));
    assert_true(wait_until(flood_seen, s, 5000));
    assert_true(probes_ok(http_server_port(s), "idle flood, main")
                >= PROBES * 99 / 100);
    assert_true(probes_ok(pp, "idle flood, probe port") >= PROBES * 99 / 100);
    close_all(fds, FLOOD);
    http_server_destroy(s);
}

struct flood {
    unsigned port;
    atomic_bool stop;
    atomic_uint made;
};

/* The flood has gone round its ring twice: dropping and remaking. */
static bool flood_going(void *arg)
{
    struct flood *f = arg;

    return atomic_load(&f->made) >= 400;
}

/* Connections opened as fast as they go; each kept until 200 more are
 * open, then dropped (a reconnecting flood holding ~200 at a time). */
static void *reconnect_flood(void *arg)
{
    struct flood *f = arg;
    int ring[200];
    unsigned i = 0;

    memset(ring, -1, sizeof(ring));
    while (!atomic_load(&f->stop)) {
        if (ring[i % 200] >= 0)
            close(ring[i % 200]);
        ring[i % 200] = dial(f->port);
        i++;
        atomic_store(&f->made, i);
        /* A breath every 50: the server's threads share two cores with
         * this one, as they would not with a remote flood. */
        if (i % 50 == 0)
            usleep(1000);
    }
    close_all(ring, 200);
    return NULL;
}

/* 2. A reconnect flood: both ports answer while it runs. */
static void test_reconnect_flood(void **state)
{
    unsigned pp;
    http_server *s = start(&pp);
    struct flood f = { .port = http_server_port(s) };
    pthread_t t;

    (void)state;
    atomic_init(&f.stop, false);
    atomic_init(&f.made, 0);
    assert_int_equal(pthread_create(&t, NULL, reconnect_flood, &f), 0);
    assert_true(wait_until(flood_going, &f, 5000));
    /* The main port makes room as fast as MHD closes what it cut: best
     * effort under this flood; the probe port is what k8s probes. */
    assert_true(probes_ok(http_server_port(s), "reconnect flood, main")
                >= PROBES * 90 / 100);
    assert_true(probes_ok(pp, "reconnect flood, probe port")
                >= PROBES * 99 / 100);
    atomic_store(&f.stop, true);
    pthread_join(t, NULL);
    fprintf(stderr, "reconnect flood: %u connections\n",
            atomic_load(&f.made));
    http_server_destroy(s);
}

/* 3. Answered, then idle keep-alive (the refused event-stream requests
 * of the report): both ports answer. */
static void test_answered_then_idle(void **state)
{
    unsigned pp;
    http_server *s = start(&pp);
    int fds[FLOOD];
    char buf[2048];
    static const char req[] = "GET /v1/jobs/00000000000000000000000000000000"
                              "/events HTTP/1.1\r\nHost: t\r\n\r\n";

    (void)state;
    for (int i = 0; i < FLOOD; i++) {
        fds[i] = dial(http_server_port(s));
        if (fds[i] >= 0) {
            struct pollfd p = { .fd = fds[i], .events = POLLIN };

            (void)!send(fds[i], req, sizeof(req) - 1, MSG_NOSIGNAL);
            if (poll(&p, 1, 1000) > 0)
                (void)!recv(fds[i], buf, sizeof(buf), 0);
        }
    }
    assert_true(probes_ok(http_server_port(s), "answered then idle, main")
                >= PROBES * 99 / 100);
    assert_true(probes_ok(pp, "answered then idle, probe port")
                >= PROBES * 99 / 100);
    close_all(fds, FLOOD);
    http_server_destroy(s);
}

static bool all_in_flight(void *s)
{
    return htest_in_flight(s) >= MAXC;
}

/* 4. Every connection busy (bodies arriving slowly): nothing is idle to
 * make room, the main port refuses at once with 503; the probe port
 * answers every probe. */
static void test_all_busy(void **state)
{
    unsigned pp;
    http_server *s = start(&pp);
    int fds[MAXC];
    static const char head[] = "POST /v1/solve HTTP/1.1\r\nHost: t\r\n"
                               "Content-Type: application/json\r\n"
                               "Content-Length: 100\r\n\r\n{\"board\"";

    (void)state;
    for (int i = 0; i < MAXC; i++) {
        fds[i] = dial(http_server_port(s));
        if (fds[i] >= 0)
            (void)!send(fds[i], head, sizeof(head) - 1, MSG_NOSIGNAL);
    }
    /* every one past its head: busy, none to shut for room */
    assert_true(wait_until(all_in_flight, s, 5000));
    assert_int_equal(get_status(http_server_port(s), "/livez", 1000), 503);
    assert_true(probes_ok(pp, "all busy, probe port") >= PROBES * 99 / 100);
    assert_int_equal(get_status(pp, "/v1/catalog", 1000), 404);
    close_all(fds, MAXC);
    http_server_destroy(s);
}

/* A job that runs for seconds (a 4x4 walk, IDA* with linear conflict,
 * as test_http_jobs.c's SLOW). */
#define SLOW_JOB "{\"board\": \"15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\", " \
    "\"goal\": \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\", " \
    "\"algorithm\": \"idastar\", \"heuristic\": \"linear-conflict\"}"

/* 5. The report's streams: the refused ones stay as idle keep-alive
 * connections; both ports answer. */
static void test_refused_streams_left_open(void **state)
{
    unsigned pp;
    http_server *s = start(&pp);
    int fds[MAXC];
    char req[160], buf[4096], id[33], path[64];
    struct htest_resp r;
    json_t *j;
    unsigned refused = 0;

    (void)state;
    assert_int_equal(htest_post(s, "/v1/jobs", SLOW_JOB, &r), 0);
    assert_int_equal(r.status, 202);
    j = htest_json(&r);
    snprintf(id, sizeof(id), "%s", json_string_value(json_object_get(j,
                                                                    "id")));
    json_decref(j);
    htest_resp_free(&r);
    snprintf(req, sizeof(req), "GET /v1/jobs/%s/events HTTP/1.1\r\nHost: "
             "t\r\n\r\n", id);
    for (int i = 0; i < MAXC; i++) {
        fds[i] = dial(http_server_port(s));
        if (fds[i] >= 0) {
            struct pollfd p = { .fd = fds[i], .events = POLLIN };
            ssize_t n = 0;

            (void)!send(fds[i], req, strlen(req), MSG_NOSIGNAL);
            if (poll(&p, 1, 1000) > 0)
                n = recv(fds[i], buf, sizeof(buf) - 1, 0);
            buf[n > 0 ? n : 0] = '\0';
            refused += strncmp(buf, "HTTP/1.1 429", 12) == 0;
        }
    }
    fprintf(stderr, "streams: %u of %d refused 429, left open\n", refused,
            MAXC);
    assert_true(refused >= MAXC - 10);
    assert_true(probes_ok(http_server_port(s), "refused streams, main")
                >= PROBES * 99 / 100);
    assert_true(probes_ok(pp, "refused streams, probe port")
                >= PROBES * 99 / 100);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    close_all(fds, MAXC);
    {
        struct htest_req rq = { .method = "DELETE", .path = path,
                                .route = "/v1/jobs/{id}" };

        assert_int_equal(htest_do(s, &rq, &r), 0);
        htest_resp_free(&r);
    }
    http_server_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idle_flood),
        cmocka_unit_test(test_reconnect_flood),
        cmocka_unit_test(test_answered_then_idle),
        cmocka_unit_test(test_all_busy),
        cmocka_unit_test(test_refused_streams_left_open),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
