/*
 * test_http_jobs.c - /v1/jobs end to end against a real in-process
 * server: the life cycle (submit, read, list, forget), the event stream
 * read by a real client (libcurl; framing, ids, rate, final event, end
 * of stream, reconnect), cancel latency and the worker freed, the caps
 * (queue, job_max, limits), TTL expiry, unknown / malformed / huge ids,
 * many jobs and streams at once, metrics, and shutdown with running jobs
 * and open streams. Plain responses are recorded for the OpenAPI check.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <curl/curl.h>

#include "base/clock.h"
#include "support/htest.h"

/* Korf's instance 88 with IDA* and linear conflict: minutes of search. */
#define SLOW "{\"board\": \"15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\", " \
    "\"goal\": \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\", " \
    "\"algorithm\": \"idastar\", \"heuristic\": \"linear-conflict\"}"
#define QUICK "{\"board\": \"8 6 7 2 5 4 3 0 1\"}"

/* --- a Server-Sent Events client on libcurl, in a thread ------------- */

#define SSE_MAX 256

struct sse_event {
    char type[32];
    unsigned long long id;
    char *data;
    double at_ms;
};

struct sse {
    char url[256];
    pthread_t thread;
    pthread_mutex_t lock;
    char *buf;                  /* bytes not yet parsed */
    size_t len;
    struct sse_event ev[SSE_MAX];
    unsigned count, comments, retry_ms;
    int bad_lines;              /* lines that are no SSE field */
    long status;
    char content_type[96];
    int curl_code;
    bool finished;
};

static void sse_field(struct sse *s, struct sse_event *e, char *line)
{
    char *v = strchr(line, ':');

    if (line[0] == ':') {
        s->comments++;
        return;
    }
    if (v == NULL) {
        s->bad_lines++;
        return;
    }
    *v++ = '\0';
    if (*v == ' ')
        v++;
    if (strcmp(line, "id") == 0)
        e->id = strtoull(v, NULL, 10);
    else if (strcmp(line, "event") == 0)
        snprintf(e->type, sizeof(e->type), "%s", v);
    else if (strcmp(line, "data") == 0)
        e->data = strdup(v);    /* our events have one data line */
    else if (strcmp(line, "retry") == 0)
        s->retry_ms = (unsigned)atoi(v);
    else
        s->bad_lines++;
}

/* Parse every complete block ("\n\n"-ended) in the buffer. */
static void sse_parse(struct sse *s)
{
    char *end;

    while ((end = memmem(s->buf, s->len, "\n\n", 2)) != NULL) {
        size_t n = (size_t)(end - s->buf) + 2;
        struct sse_event e;
        memset(&e, 0, sizeof(e));
        *end = '\0';
        for (char *line = s->buf, *nl; line != NULL; line = nl) {
            nl = strchr(line, '\n');
            if (nl != NULL)
                *nl++ = '\0';
            if (*line != '\0')
                sse_field(s, &e, line);
        }
        if (e.data != NULL && s->count < SSE_MAX) {
            e.at_ms = wait_now_ms();
            s->ev[s->count++] = e;
        } else {
            free(e.data);
        }
        memmove(s->buf, s->buf + n, s->len - n);
        s->len -= n;
    }
}

static size_t sse_write(char *p, size_t size, size_t n, void *user)
{
    struct sse *s = user;
    size_t bytes = size * n;

    pthread_mutex_lock(&s->lock);
    s->buf = realloc(s->buf, s->len + bytes + 1);
    memcpy(s->buf + s->len, p, bytes);
    s->len += bytes;
    sse_parse(s);
    pthread_mutex_unlock(&s->lock);
    return bytes;
}

static void *sse_run(void *arg)
{
    struct sse *s = arg;
    CURL *c = curl_easy_init();
    char *ct = NULL;
    long status = 0;
    CURLcode rc;

    curl_easy_setopt(c, CURLOPT_URL, s->url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, sse_write);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 30000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ct);
    pthread_mutex_lock(&s->lock);
    s->curl_code = (int)rc;
    s->status = status;
    snprintf(s->content_type, sizeof(s->content_type), "%s",
             ct != NULL ? ct : "");
    s->finished = true;
    pthread_mutex_unlock(&s->lock);
    curl_easy_cleanup(c);
    return NULL;
}

static struct sse *sse_open(http_server *srv, const char *id)
{
    struct sse *s = calloc(1, sizeof(*s));

    snprintf(s->url, sizeof(s->url), "%s/v1/jobs/%s/events",
             http_server_url(srv), id);
    pthread_mutex_init(&s->lock, NULL);
    assert_int_equal(pthread_create(&s->thread, NULL, sse_run, s), 0);
    return s;
}

struct sse_want {
    struct sse *s;
    unsigned n;         /* events wanted */
    unsigned count;     /* events seen */
};

static bool sse_has(void *arg)
{
    struct sse_want *w = arg;
    bool done;

    pthread_mutex_lock(&w->s->lock);
    w->count = w->s->count;
    done = w->s->finished;
    pthread_mutex_unlock(&w->s->lock);
    return w->count >= w->n || done;
}

/* Wait until at least n events came, or the stream ended; ms at most.
 * Returns the events seen. */
static unsigned sse_wait(struct sse *s, unsigned n, unsigned ms)
{
    struct sse_want w = { s, n, 0 };

    wait_until(sse_has, &w, ms);
    return w.count;
}

static void sse_close(struct sse *s)
{
    pthread_join(s->thread, NULL);
    for (unsigned i = 0; i < s->count; i++)
        free(s->ev[i].data);
    free(s->buf);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* --- fixtures and helpers --------------------------------------------- */

static void job_config(struct http_config *c, unsigned workers,
                       unsigned queue, unsigned max, unsigned ttl_s)
{
    htest_config(c);
    c->api.job_workers = workers;
    c->api.job_queue = queue;
    c->api.job_max = max;
    c->api.job_ttl_s = ttl_s;
    c->max_streams_per_client = 64;     /* every test client is local */
    c->jobs_list_anonymous = 1;
}

static http_server *start(unsigned workers, unsigned queue, unsigned max,
                          unsigned ttl_s)
{
    struct http_config c;

    job_config(&c, workers, queue, max, ttl_s);
    return htest_start(&c);
}

/* POST /v1/jobs; returns the job (new reference), id copied to id. */
static json_t *submit(http_server *srv, const char *body, char *id)
{
    struct htest_resp r;
    char loc[128], want[128];
    json_t *j;

    assert_int_equal(htest_post(srv, "/v1/jobs", body, &r), 0);
    if (r.status != 202)
        fail_msg("POST /v1/jobs: %ld %s", r.status, r.body);
    j = htest_json(&r);
    snprintf(id, 33, "%s", json_string_value(json_object_get(j, "id")));
    assert_int_equal(strlen(id), 32);
    snprintf(want, sizeof(want), "/v1/jobs/%s", id);
    assert_non_null(htest_header(&r, "Location", loc, sizeof(loc)));
    assert_string_equal(loc, want);
    htest_resp_free(&r);
    return j;
}

static json_t *get_job(http_server *srv, const char *id, long *status)
{
    struct htest_req rq = { .route = "/v1/jobs/{id}" };
    struct htest_resp r;
    char path[96];
    json_t *j = NULL;

    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    rq.path = path;
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    *status = r.status;
    if (r.status == 200)
        j = htest_json(&r);
    htest_resp_free(&r);
    return j;
}

static const char *state_of(json_t *j)
{
    const char *s = json_string_value(json_object_get(j, "state"));
    return s != NULL ? s : "";
}

struct job_want {
    http_server *srv;
    const char *id;
    const char *state;  /* NULL: any final one */
    json_t *j;          /* the job as last read (new reference) */
};

static bool job_in_state(void *arg)
{
    struct job_want *w = arg;
    long status;
    const char *s;

    json_decref(w->j);
    w->j = get_job(w->srv, w->id, &status);
    s = state_of(w->j);
    if (w->state != NULL)
        return strcmp(s, w->state) == 0;
    return strcmp(s, "done") == 0 || strcmp(s, "cancelled") == 0
           || strcmp(s, "failed") == 0;
}

/* Poll until the job is in state (or any final one when NULL), ms at
 * most; the job as last read. */
static json_t *wait_job(http_server *srv, const char *id, const char *state,
                        unsigned ms)
{
    struct job_want w = { srv, id, state, NULL };

    wait_until(job_in_state, &w, ms);
    return w.j;
}

static long delete_job(http_server *srv, const char *id, json_t **body,
                       double *ms)
{
    struct htest_req rq = { .method = "DELETE", .route = "/v1/jobs/{id}" };
    struct htest_resp r;
    char path[96];
    long status;

    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    rq.path = path;
    assert_int_equal(htest_do(srv, &rq, &r), 0);
    status = r.status;
    if (ms != NULL)
        *ms = r.seconds * 1000;
    if (body != NULL)
        *body = r.status == 200 ? htest_json(&r) : NULL;
    htest_resp_free(&r);
    return status;
}

/* --- tests ------------------------------------------------------------ */

/* Submit, watch it end, compare the result with POST /v1/solve's answer,
 * find it in the list, forget it. */
static void test_life_cycle(void **state)
{
    http_server *srv = start(1, 4, 100, 3600);
    char id[33];
    json_t *j = submit(srv, QUICK, id), *solve, *res, *list;
    struct htest_resp r;
    long status;
    const char *s = state_of(j);

    (void)state;
    assert_true(strcmp(s, "queued") == 0 || strcmp(s, "running") == 0
                || strcmp(s, "done") == 0);
    assert_non_null(json_object_get(j, "created_at"));
    json_decref(j);
    j = wait_job(srv, id, "done", 10000);
    assert_string_equal(state_of(j), "done");
    assert_true(json_is_string(json_object_get(j, "started_at")));
    assert_true(json_is_string(json_object_get(j, "finished_at")));
    res = json_object_get(j, "result");
    assert_int_equal(htest_post(srv, "/v1/solve", QUICK, &r), 0);
    solve = htest_json(&r);
    htest_resp_free(&r);
    /* Exactly what /v1/solve answers, the timings in stats aside. */
    json_object_del(res, "stats");
    json_object_del(solve, "stats");
    assert_true(json_equal(res, solve));
    json_decref(solve);
    json_decref(j);
    assert_int_equal(htest_get(srv, "/v1/jobs?state=done&limit=5", &r), 0);
    assert_int_equal(r.status, 200);
    list = htest_json(&r);
    htest_resp_free(&r);
    assert_int_equal(json_array_size(json_object_get(list, "jobs")), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(list, "jobs"), 0), "id")), id);
    json_decref(list);
    /* DELETE of a finished job forgets it: 204, then 404. */
    assert_int_equal(delete_job(srv, id, NULL, NULL), 204);
    assert_null(get_job(srv, id, &status));
    assert_int_equal(status, 404);
    assert_int_equal(delete_job(srv, id, NULL, NULL), 404);
    http_server_destroy(srv);
}

/* A long job's stream: state at once, progress 1..4 a second with
 * growing ids, DELETE stops the search fast and frees the worker, the
 * final event carries the whole job, then the stream ends. */
static void test_stream_and_cancel(void **state)
{
    http_server *srv = start(1, 4, 100, 3600);
    char id[33], id2[33];
    json_t *j = submit(srv, SLOW, id), *data;
    struct sse *s = sse_open(srv, id);
    double ms;
    unsigned n;

    (void)state;
    json_decref(j);
    assert_true(sse_wait(s, 6, 10000) >= 6);
    json_decref(wait_job(srv, id, "running", 5000));
    assert_int_equal(delete_job(srv, id, &j, &ms), 200);
    printf("DELETE of a running job answered in %.1f ms\n", ms);
    assert_string_equal(state_of(j), "cancelled");
    assert_string_equal(json_string_value(json_object_get(j, "reason")),
                        "cancelled by the client");
    json_decref(j);
    assert_true(ms < 1000);
    n = sse_wait(s, SSE_MAX, 10000);
    pthread_mutex_lock(&s->lock);
    assert_true(s->finished);
    assert_int_equal(s->curl_code, CURLE_OK);      /* a clean end */
    assert_int_equal(s->status, 200);
    assert_non_null(strstr(s->content_type, "text/event-stream"));
    assert_int_equal(s->retry_ms, 2000);
    assert_int_equal(s->bad_lines, 0);
    for (unsigned i = 0; i < n; i++) {
        assert_true(i == 0 || s->ev[i].id > s->ev[i - 1].id);
        data = json_loads(s->ev[i].data, 0, NULL);
        assert_non_null(data);
        if (i + 1 < n) {
            assert_string_equal(s->ev[i].type, "progress");
            assert_non_null(json_object_get(data, "expanded"));
            /* At most 4 a second (the first two may come together),
             * counted from the second event on with one event's slack:
             * on a loaded machine one may reach the client late and the
             * next right behind it (seen beside a CI run at load 18), though
             * the server paced them. */
            if (i >= 3)
                assert_true(s->ev[i].at_ms - s->ev[1].at_ms
                            > (double)(i - 2) * 150);
        } else {
            assert_string_equal(s->ev[i].type, "cancelled");
            assert_string_equal(state_of(data), "cancelled");
            assert_non_null(json_object_get(data, "progress"));
        }
        json_decref(data);
    }
    pthread_mutex_unlock(&s->lock);
    sse_close(s);
    /* The only job worker is free: a quick job finishes at once. */
    json_decref(submit(srv, QUICK, id2));
    j = wait_job(srv, id2, "done", 5000);
    assert_string_equal(state_of(j), "done");
    json_decref(j);
    /* A reconnect to a finished job gets the final event and the end. */
    s = sse_open(srv, id2);
    assert_int_equal(sse_wait(s, 2, 5000), 1);
    assert_string_equal(s->ev[0].type, "done");
    sse_close(s);
    http_server_destroy(srv);
}

static void expect_404(http_server *srv, const char *method,
                       const char *path, const char *route)
{
    struct htest_req rq = { .method = method, .path = path,
                            .route = route };
    struct htest_resp r;

    assert_int_equal(htest_do(srv, &rq, &r), 0);
    json_decref(htest_problem(&r, 404, "not-found"));
    htest_resp_free(&r);
}

static void test_unknown_and_malformed_ids(void **state)
{
    http_server *srv = start(1, 4, 100, 3600);
    static char huge[12000];
    const char *ids[] = {
        "0123456789abcdef0123456789abcdef",     /* well formed, unknown */
        "0123456789ABCDEF0123456789ABCDEF",     /* upper case */
        "nope", "..", "%2e%2e", "0123456789abcdef0123456789abcdef0",
    };
    char path[160];

    (void)state;
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        snprintf(path, sizeof(path), "/v1/jobs/%s", ids[i]);
        expect_404(srv, "GET", path, "/v1/jobs/{id}");
        expect_404(srv, "DELETE", path, "/v1/jobs/{id}");
        snprintf(path, sizeof(path), "/v1/jobs/%s/events", ids[i]);
        expect_404(srv, "GET", path, "/v1/jobs/{id}/events");
    }
    snprintf(huge, sizeof(huge), "/v1/jobs/");
    memset(huge + 9, 'a', 8000);
    expect_404(srv, "GET", huge, "/v1/jobs/{id}");
    http_server_destroy(srv);
}

static void test_caps(void **state)
{
    http_server *srv = start(1, 1, 100, 3600);
    char a[33], b[33];
    struct htest_resp r;
    char retry[16];
    json_t *j;

    (void)state;
    json_decref(submit(srv, SLOW, a));
    json_decref(wait_job(srv, a, "running", 5000));
    json_decref(submit(srv, SLOW, b));          /* waits */
    assert_int_equal(htest_post(srv, "/v1/jobs", SLOW, &r), 0);
    json_decref(htest_problem(&r, 503, "overloaded"));
    assert_non_null(htest_header(&r, "Retry-After", retry, sizeof(retry)));
    htest_resp_free(&r);
    /* A queued job cancels at once. */
    assert_int_equal(delete_job(srv, b, &j, NULL), 200);
    assert_string_equal(state_of(j), "cancelled");
    assert_true(json_is_null(json_object_get(j, "started_at")));
    json_decref(j);
    assert_int_equal(delete_job(srv, a, NULL, NULL), 200);
    /* Bad bodies and queries are refused like /v1/solve's. */
    assert_int_equal(htest_post(srv, "/v1/jobs", "{\"board\": 1}", &r), 0);
    json_decref(htest_problem(&r, 422, "invalid-board"));
    htest_resp_free(&r);
    assert_int_equal(htest_get(srv, "/v1/jobs?state=bogus", &r), 0);
    json_decref(htest_problem(&r, 400, "invalid-query"));
    htest_resp_free(&r);
    assert_int_equal(htest_get(srv, "/v1/jobs?limit=0", &r), 0);
    json_decref(htest_problem(&r, 400, "invalid-query"));
    htest_resp_free(&r);
    http_server_destroy(srv);
}

/* A job with its own limit ends done, with the limit in its result. */
static void test_limits_end_done(void **state)
{
    http_server *srv = start(1, 4, 100, 3600);
    char id[33];
    json_t *j;

    (void)state;
    json_decref(submit(srv, "{\"board\": \"15 2 12 11 14 13 9 5 1 3 8 7 0 "
                       "10 6 4\", \"goal\": \"0 1 2 3 4 5 6 7 8 9 10 11 12 "
                       "13 14 15\", \"algorithm\": \"idastar\", "
                       "\"limits\": {\"max_nodes\": 20000}}", id));
    j = wait_job(srv, id, NULL, 10000);
    assert_string_equal(state_of(j), "done");
    assert_string_equal(json_string_value(json_object_get(json_object_get(
        j, "result"), "status")), "limit_nodes");
    json_decref(j);
    http_server_destroy(srv);
}

static void test_ttl_and_max(void **state)
{
    http_server *srv = start(1, 8, 2, 1);
    char a[33], b[33], c[33];
    long status;

    (void)state;
    json_decref(submit(srv, QUICK, a));
    json_decref(wait_job(srv, a, "done", 5000));
    json_decref(submit(srv, QUICK, b));
    json_decref(wait_job(srv, b, "done", 5000));
    json_decref(submit(srv, QUICK, c));     /* job_max 2: a goes */
    assert_null(get_job(srv, a, &status));
    assert_int_equal(status, 404);
    json_decref(wait_job(srv, c, "done", 5000));
    /* job_ttl_s 1 passes on the clock (no sleep): all go */
    puz__clock_advance_us(1000000);
    assert_null(get_job(srv, b, &status));
    assert_int_equal(status, 404);
    assert_null(get_job(srv, c, &status));
    http_server_destroy(srv);
}


/* /metrics says no job event stream is open. */
static bool no_streams(void *arg)
{
    struct htest_resp r;
    bool none;

    if (htest_get(arg, "/metrics", &r) != 0)
        return false;
    none = r.body != NULL
           && strstr(r.body, "puzzled_job_event_streams 0\n") != NULL;
    htest_resp_free(&r);
    return none;
}
/* Many quick jobs, each watched by its own stream, all at once. */
static void test_many_jobs_and_streams(void **state)
{
    enum { N = 12 };
    http_server *srv = start(2, 32, 100, 3600);
    char ids[N][33];
    struct sse *s[N];
    struct htest_resp r;

    (void)state;
    for (int i = 0; i < N; i++) {
        json_decref(submit(srv, i % 4 == 0 ? SLOW : QUICK, ids[i]));
        s[i] = sse_open(srv, ids[i]);
    }
    for (int i = 0; i < N; i += 4)
        assert_int_equal(delete_job(srv, ids[i], NULL, NULL), 200);
    for (int i = 0; i < N; i++) {
        unsigned n = sse_wait(s[i], SSE_MAX, 20000);
        pthread_mutex_lock(&s[i]->lock);
        assert_true(s[i]->finished);
        assert_true(n >= 1);
        assert_string_equal(s[i]->ev[n - 1].type,
                            i % 4 == 0 ? "cancelled" : "done");
        pthread_mutex_unlock(&s[i]->lock);
        sse_close(s[i]);
    }
    /* The server counts a stream closed once its pump sees the client
     * gone, a moment after sse_close: wait for it. */
    assert_true(wait_until(no_streams, srv, 10000));
    assert_int_equal(htest_get(srv, "/metrics", &r), 0);
    assert_non_null(strstr(r.body, "puzzled_jobs{state=\"done\"} 9"));
    assert_non_null(strstr(r.body, "puzzled_jobs_finished_total{state="
                           "\"cancelled\"} 3"));
    assert_non_null(strstr(r.body, "puzzled_job_event_streams 0"));
    assert_non_null(strstr(r.body, "puzzled_job_duration_seconds_count 12"));
    htest_resp_free(&r);
    http_server_destroy(srv);
}

/* The status of GET path (0 when the request failed). */
static long status_of(http_server *srv, const char *path)
{
    struct htest_resp r;
    long st = htest_get(srv, path, &r) == 0 ? r.status : 0;

    if (st != 0)
        htest_resp_free(&r);
    return st;
}

struct sse_set {
    struct sse **s;
    int n;
};

/* How many of the n streams ended with a 503. */
static unsigned refused(struct sse **s, int n)
{
    unsigned k = 0;

    for (int i = 0; i < n; i++) {
        pthread_mutex_lock(&s[i]->lock);
        k += s[i]->finished && s[i]->status == 503;
        pthread_mutex_unlock(&s[i]->lock);
    }
    return k;
}

static bool one_refused(void *arg)
{
    const struct sse_set *set = arg;

    return refused(set->s, set->n) > 0;
}

/* Issue 29 item 4: streams on one long job could hold every connection
 * (/livez and the job's DELETE got 503). Now they are capped in all
 * (3/4 of max_connections at most), per job and per client, and the
 * probes and the DELETE get in. */
static void test_streams_capped(void **state)
{
    enum { N = 15 };
    struct http_config c;
    http_server *srv;
    struct sse *s[N + 1];
    struct sse_set set = { s, N + 1 };
    char id[33], url[96];

    (void)state;
    job_config(&c, 1, 4, 10, 3600);
    c.max_connections = 20;             /* streams: 15 at most */
    srv = htest_start(&c);
    json_decref(submit(srv, SLOW, id));
    for (int i = 0; i < N + 1; i++)
        s[i] = sse_open(srv, id);
    for (int i = 0; i < N; i++)
        sse_wait(s[i], 1, 5000);
    /* One of the sixteen is refused at once (which one is a race). */
    wait_until(one_refused, &set, 5000);
    assert_int_equal(refused(s, N + 1), 1);
    assert_int_equal(status_of(srv, "/livez"), 200);
    assert_int_equal(status_of(srv, "/readyz"), 200);
    snprintf(url, sizeof(url), "/v1/jobs/%s", id);
    assert_int_equal(delete_job(srv, id, NULL, NULL), 200);
    for (int i = 0; i < N + 1; i++) {
        sse_wait(s[i], SSE_MAX, 10000);
        sse_close(s[i]);
    }
    http_server_destroy(srv);

    /* per client */
    job_config(&c, 1, 4, 10, 3600);
    c.max_streams_per_client = 2;
    srv = htest_start(&c);
    json_decref(submit(srv, SLOW, id));
    s[0] = sse_open(srv, id);
    s[1] = sse_open(srv, id);
    sse_wait(s[0], 1, 5000);
    sse_wait(s[1], 1, 5000);
    s[2] = sse_open(srv, id);
    sse_wait(s[2], 1, 5000);
    pthread_mutex_lock(&s[2]->lock);
    assert_true(s[2]->finished);
    assert_int_equal(s[2]->status, 429);
    pthread_mutex_unlock(&s[2]->lock);
    assert_int_equal(delete_job(srv, id, NULL, NULL), 200);
    for (int i = 0; i < 3; i++) {
        sse_wait(s[i], SSE_MAX, 10000);
        sse_close(s[i]);
    }
    http_server_destroy(srv);
}

/* Issue 29 item 3: a finished job's final event is encoded once for all
 * of its streams (each stream encoded and copied the whole answer on
 * the network thread); a stream past stream_max_s ends with a comment
 * and its client continues from Last-Event-ID. */
static void test_final_event_shared_and_lifetime(void **state)
{
    enum { N = 8 };
    struct http_config c;
    http_server *srv;
    struct sse *s[N];
    struct htest_resp r;
    char id[33];
    unsigned n;

    (void)state;
    job_config(&c, 1, 4, 10, 3600);
    c.stream_max_s = 1;
    srv = htest_start(&c);
    json_decref(submit(srv, SLOW, id));
    for (int i = 0; i < N; i++)
        s[i] = sse_open(srv, id);
    for (int i = 0; i < N; i++)
        sse_wait(s[i], 1, 5000);
    /* A second in, every stream has ended: lifetime over, no final. */
    for (int i = 0; i < N; i++) {
        n = sse_wait(s[i], SSE_MAX, 5000);
        pthread_mutex_lock(&s[i]->lock);
        assert_true(s[i]->finished);
        assert_true(n >= 1);
        assert_string_not_equal(s[i]->ev[n - 1].type, "cancelled");
        assert_true(s[i]->comments >= 1);
        pthread_mutex_unlock(&s[i]->lock);
        sse_close(s[i]);
    }
    assert_int_equal(delete_job(srv, id, NULL, NULL), 200);
    for (int i = 0; i < N; i++)
        s[i] = sse_open(srv, id);
    for (int i = 0; i < N; i++) {
        n = sse_wait(s[i], SSE_MAX, 5000);
        pthread_mutex_lock(&s[i]->lock);
        assert_true(n >= 1);
        assert_string_equal(s[i]->ev[n - 1].type, "cancelled");
        pthread_mutex_unlock(&s[i]->lock);
        sse_close(s[i]);
    }
    assert_int_equal(htest_get(srv, "/metrics", &r), 0);
    /* eight streams of one finished job: one encoding (at most two,
     * should the first stream have ended before the last began) */
    if (strstr(r.body, "puzzled_job_final_events_encoded_total 1\n") == NULL
        && strstr(r.body, "puzzled_job_final_events_encoded_total 2\n")
           == NULL)
        fail_msg("final events encoded: %s",
                 strstr(r.body, "puzzled_job_final_events_encoded_total"));
    htest_resp_free(&r);
    http_server_destroy(srv);
}

/* Shutdown with a running job, a queued one and open streams: both end
 * cancelled with the reason, the streams get their final event and end,
 * and the shutdown does not wait for the search. */
static void test_shutdown_with_running_jobs(void **state)
{
    http_server *srv = start(1, 4, 100, 3600);
    char a[33], b[33];
    struct sse *sa, *sb;
    double t0;
    json_t *data;

    (void)state;
    json_decref(submit(srv, SLOW, a));
    json_decref(submit(srv, SLOW, b));
    sa = sse_open(srv, a);
    sb = sse_open(srv, b);
    assert_true(sse_wait(sa, 2, 5000) >= 2);
    assert_true(sse_wait(sb, 2, 5000) >= 2);
    t0 = wait_now_ms();
    http_server_shutdown(srv);
    printf("shutdown with a running job and 2 streams: %.0f ms\n",
           wait_now_ms() - t0);
    assert_true(wait_now_ms() - t0 < 5000);
    for (struct sse **p = (struct sse *[]){ sa, sb, NULL }; *p; p++) {
        unsigned n = sse_wait(*p, SSE_MAX, 5000);
        assert_true((*p)->finished);
        assert_int_equal((*p)->curl_code, CURLE_OK);
        assert_string_equal((*p)->ev[n - 1].type, "cancelled");
        data = json_loads((*p)->ev[n - 1].data, 0, NULL);
        assert_string_equal(json_string_value(json_object_get(data,
                            "reason")), "the server is shutting down");
        json_decref(data);
        sse_close(*p);
    }
    http_server_destroy(srv);
}

/* POST /v1/jobs with these extra header lines (NULL-ended). */
static void post_keyed(http_server *srv, const char *body,
                       const char *const *headers, struct htest_resp *r)
{
    struct htest_req rq = { .method = "POST", .path = "/v1/jobs",
                            .body = body, .headers = headers };

    assert_int_equal(htest_do(srv, &rq, r), 0);
}

/* Idempotency-Key over HTTP (issue 42): a retry with the key and body
 * gets the first job marked replayed (the header in either form),
 * another body 422, two key headers 400; recorded for openapi_check. */
static void test_idempotency_key(void **state)
{
    http_server *srv = start(1, 4, 8, 60);
    static const char *const quoted[] = {
        "Idempotency-Key: \"4b1c5e6a-0d7f-4e0b-9a51-2f6b8f1d3c20\"", NULL };
    static const char *const bare[] = {
        "Idempotency-Key: 4b1c5e6a-0d7f-4e0b-9a51-2f6b8f1d3c20", NULL };
    static const char *const two[] = {
        "Idempotency-Key: \"a\"", "Idempotency-Key: \"b\"", NULL };
    struct htest_resp r;
    char id[33], buf[128];
    json_t *j;

    (void)state;
    post_keyed(srv, QUICK, quoted, &r);
    j = htest_json(&r);
    assert_int_equal(r.status, 202);
    snprintf(id, sizeof(id), "%s", json_string_value(json_object_get(j,
                                                                   "id")));
    assert_null(htest_header(&r, "Idempotent-Replayed", buf, sizeof(buf)));
    json_decref(j);
    htest_resp_free(&r);
    json_decref(wait_job(srv, id, "done", 20000));
    post_keyed(srv, QUICK, bare, &r);
    j = htest_json(&r);
    assert_int_equal(r.status, 202);
    assert_string_equal(json_string_value(json_object_get(j, "id")), id);
    assert_string_equal(state_of(j), "done");
    assert_string_equal(htest_header(&r, "Idempotent-Replayed", buf,
                                     sizeof(buf)), "true");
    assert_non_null(htest_header(&r, "Location", buf, sizeof(buf)));
    json_decref(j);
    htest_resp_free(&r);
    post_keyed(srv, "{\"board\": \"1 2 3 4 5 6 7 0 8\"}", quoted, &r);
    json_decref(htest_problem(&r, 422, "idempotency-key-reused"));
    htest_resp_free(&r);
    post_keyed(srv, QUICK, two, &r);
    j = htest_problem(&r, 400, "invalid-header");
    assert_non_null(strstr(json_string_value(json_object_get(j, "detail")),
                           "Idempotency-Key"));
    json_decref(j);
    htest_resp_free(&r);
    http_server_destroy(srv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idempotency_key),
        cmocka_unit_test(test_life_cycle),
        cmocka_unit_test(test_stream_and_cancel),
        cmocka_unit_test(test_unknown_and_malformed_ids),
        cmocka_unit_test(test_caps),
        cmocka_unit_test(test_limits_end_done),
        cmocka_unit_test(test_ttl_and_max),
        cmocka_unit_test(test_many_jobs_and_streams),
        cmocka_unit_test(test_streams_capped),
        cmocka_unit_test(test_final_event_shared_and_lifetime),
        cmocka_unit_test(test_shutdown_with_running_jobs),
    };
    curl_global_init(CURL_GLOBAL_ALL);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
