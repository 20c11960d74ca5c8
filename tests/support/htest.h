/*
 * htest.h - integration-test helpers for the HTTP service: start a real
 * server in-process on a free loopback port, talk to it with libcurl,
 * and record every response (route, status, headers, body) under
 * test-output/$BUILD/responses/ so tests/scripts/openapi_check.sh can
 * validate each one against openapi.yaml.
 */
#ifndef HTEST_H
#define HTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "http_config.h"
#include "http_server.h"
#include "wait.h"

struct htest_req {
    const char *method;         /* default "GET", or "POST" with a body */
    const char *path;           /* "/v1/solve", with any query */
    const char *route;          /* path template in openapi.yaml; default:
                                 * path without the query */
    const char *body;           /* NULL: none */
    size_t body_len;            /* bytes of body to send; 0: strlen */
    const char *content_type;   /* default application/json with a body;
                                 * "" sends none */
    const char *const *headers; /* extra "Name: value" lines, NULL-ended */
    long timeout_ms;            /* 0: 20 s */
    bool chunked;               /* send the body with chunked encoding */
    bool no_record;             /* keep it out of the recorded set */
};

struct htest_resp {
    long status;                /* 0 when the transfer failed */
    int curl_code;              /* CURLE_OK when it worked */
    char content_type[128];
    char *body;                 /* NUL-terminated, heap */
    size_t len;
    char *headers;              /* raw header block, heap */
    double seconds;             /* total time */
};

/* Test defaults: 127.0.0.1, port 0, 2 workers, access log off, spec
 * from ./openapi.yaml, static files from htest_www(), no store
 * (state_dir off). */
void htest_config(struct http_config *c);

/* A directory of known web files made once per process (index.html,
 * app.js, style.css, sub/index.html, .hidden, a symlink leading out). */
const char *htest_www(void);

/* Start a server; fails the test if it cannot. */
http_server *htest_start(const struct http_config *c);
/* The same with the server's start notes (stderr) hidden: for a config
 * that is odd on purpose, where the note is expected. */
http_server *htest_start_quiet(const struct http_config *c);
/* cmocka group teardown for a suite whose group setup left its one
 * server (htest_start's) in *state: destroys it. */
int htest_group_teardown(void **state);

/* One request. Returns resp->curl_code. Free with htest_resp_free. */
int htest_do(http_server *s, const struct htest_req *rq,
             struct htest_resp *resp);
int htest_get(http_server *s, const char *path, struct htest_resp *resp);
int htest_post(http_server *s, const char *path, const char *body,
               struct htest_resp *resp);
void htest_resp_free(struct htest_resp *resp);

/*
 * Send len raw bytes on a fresh TCP connection (for requests libcurl
 * will not write: broken request lines, NUL bytes, lying headers) and
 * read one response, stopping at its Content-Length or at EOF. rq only
 * names the request for the record (method, path, route, no_record) and
 * bounds the wait (timeout_ms). Returns 0 when a status line came back.
 */
/* A connected loopback socket to s (-1 on failure), for clients that
 * stall on purpose; the caller closes it. */
int htest_raw_open(http_server *s);
int htest_raw(http_server *s, const struct htest_req *rq, const char *bytes,
              size_t len, struct htest_resp *resp);
/* The same on a connection already open (htest_raw_open; fd stays
 * open): for a test that holds a connection before it sends. */
int htest_raw_on(int fd, const struct htest_req *rq, const char *bytes,
                 size_t len, struct htest_resp *resp);

/* Value of a response header (case-insensitive), copied into buf;
 * NULL when absent. */
const char *htest_header(const struct htest_resp *resp, const char *name,
                         char *buf, size_t size);

/* The body as JSON (new reference); fails the test if it is not. */
json_t *htest_json(const struct htest_resp *resp);

/* Assert an RFC 9457 problem with this status and type slug; returns
 * the parsed body (new reference). */
json_t *htest_problem(const struct htest_resp *resp, long status,
                      const char *slug);

/* What the server holds now, read from its own state: conditions for
 * wait_until that need no connection of their own (a scrape of /metrics
 * would take one, and count in what it measures). Connections open (the
 * main port's), requests in flight (head read, not yet completed: every
 * such connection is past reading its head), solver threads busy, and
 * whether a shutdown is draining it. */
unsigned htest_connections(http_server *s);
unsigned htest_in_flight(http_server *s);
unsigned htest_workers_busy(http_server *s);
bool htest_draining(http_server *s);

#endif
