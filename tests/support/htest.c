/*
 * htest.c - in-process HTTP test server and libcurl client, with every
 * response recorded for the OpenAPI check. See htest.h.
 */
#include "htest.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <curl/curl.h>
#include <dirent.h>

#include "http/http_int.h"

/* All process-wide state of the helpers. */
static struct htest_state {
    pthread_once_t once;
    atomic_uint seq;
    char dir[512];      /* where responses are recorded */
    char prog[64];      /* file name prefix: the test binary */
    char www[512];
} htest = { .once = PTHREAD_ONCE_INIT };

struct buf {
    char *data;
    size_t len;
};

static void mkdirs(const char *path)
{
    char tmp[512];

    snprintf(tmp, sizeof(tmp), "%s", path);
    for (char *p = tmp + 1; *p != '\0'; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    }
    mkdir(tmp, 0755);
}

/* Drop this binary's recordings from an earlier run. */
static void clear_old(void)
{
    DIR *d = opendir(htest.dir);
    struct dirent *e;
    char path[1024];
    size_t n = strlen(htest.prog);

    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, htest.prog, n) == 0 && e->d_name[n] == '-') {
            snprintf(path, sizeof(path), "%s/%s", htest.dir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static void make_www(void)
{
    char sub[600], outside[600], link[600];

    snprintf(htest.www, sizeof(htest.www), "test-output/%s/www-%s",
             getenv("BUILD") ? getenv("BUILD") : "build", htest.prog);
    snprintf(sub, sizeof(sub), "%s/sub", htest.www);
    mkdirs(sub);
    write_file(htest.www, "index.html", "<!doctype html><title>puzzled"
               "</title><h1>puzzled</h1>\n");
    write_file(htest.www, "app.js", "console.log('puzzled');\n");
    write_file(htest.www, "style.css", "body { margin: 0 }\n");
    write_file(htest.www, ".env", "SECRET=1\n");
    write_file(sub, "index.html", "<p>sub</p>\n");
    snprintf(outside, sizeof(outside), "test-output/%s/outside-%s.txt",
             getenv("BUILD") ? getenv("BUILD") : "build", htest.prog);
    write_file(".", outside, "outside\n");
    snprintf(link, sizeof(link), "%s/leak.txt", htest.www);
    unlink(link);
    snprintf(sub, sizeof(sub), "../outside-%s.txt", htest.prog);
    if (symlink(sub, link) != 0)
        perror("symlink");
}

static void init_once(void)
{
    const char *build = getenv("BUILD");
    const char *dir = getenv("HTEST_RESPONSES");

    curl_global_init(CURL_GLOBAL_DEFAULT);
    snprintf(htest.prog, sizeof(htest.prog), "%s",
             program_invocation_short_name);
    if (dir != NULL)
        snprintf(htest.dir, sizeof(htest.dir), "%s", dir);
    else
        snprintf(htest.dir, sizeof(htest.dir), "test-output/%s/responses",
                 build != NULL ? build : "build");
    mkdirs(htest.dir);
    clear_old();
    make_www();
}

const char *htest_www(void)
{
    pthread_once(&htest.once, init_once);
    return htest.www;
}

void htest_config(struct http_config *c)
{
    http_config_defaults(c);
    c->port = 0;
    c->workers = 2;
    c->http_threads = 2;
    c->queue = 64;
    strcpy(c->access_log, "off");
    strcpy(c->openapi_path, "openapi.yaml");
    snprintf(c->static_root, sizeof(c->static_root), "%s", htest_www());
    /* No store: tests that need one give it a directory of their own. */
    strcpy(c->state_dir, "off");
}

http_server *htest_start(const struct http_config *c)
{
    http_server *s = NULL;
    char msg[HTTP_SERVER_MSG];

    pthread_once(&htest.once, init_once);
    if (http_server_start(c, &s, msg) != PUZ_OK) {
        fprintf(stderr, "htest_start: %s\n", msg);
        fail();
    }
    return s;
}

http_server *htest_start_quiet(const struct http_config *c)
{
    http_server *s = NULL;
    char msg[HTTP_SERVER_MSG];
    int saved, quiet;

    pthread_once(&htest.once, init_once);
    fflush(stderr);
    saved = dup(STDERR_FILENO);
    quiet = open("/dev/null", O_WRONLY);
    if (saved >= 0 && quiet >= 0)
        dup2(quiet, STDERR_FILENO);
    if (quiet >= 0)
        close(quiet);
    if (http_server_start(c, &s, msg) != PUZ_OK)
        s = NULL;
    if (saved >= 0) {
        dup2(saved, STDERR_FILENO);
        close(saved);
    }
    if (s == NULL) {
        fprintf(stderr, "htest_start_quiet: %s\n", msg);
        fail();
    }
    return s;
}

int htest_group_teardown(void **state)
{
    http_server_destroy(*state);
    return 0;
}

static size_t collect(char *ptr, size_t size, size_t n, void *user)
{
    struct buf *b = user;
    size_t add = size * n;
    char *grown = realloc(b->data, b->len + add + 1);

    if (grown == NULL)
        return 0;
    memcpy(grown + b->len, ptr, add);
    b->data = grown;
    b->len += add;
    b->data[b->len] = '\0';
    return add;
}

const char *htest_header(const struct htest_resp *resp, const char *name,
                         char *buf, size_t size)
{
    size_t n = strlen(name);

    for (const char *l = resp->headers; l != NULL && *l != '\0';) {
        const char *end = strchr(l, '\n');
        size_t len = end != NULL ? (size_t)(end - l) : strlen(l);

        if (len > n && strncasecmp(l, name, n) == 0 && l[n] == ':') {
            const char *v = l + n + 1;
            size_t vlen;

            while (*v == ' ')
                v++;
            vlen = len - (size_t)(v - l);
            while (vlen > 0 && (v[vlen - 1] == '\r' || v[vlen - 1] == ' '))
                vlen--;
            snprintf(buf, size, "%.*s", (int)vlen, v);
            return buf;
        }
        l = end != NULL ? end + 1 : NULL;
    }
    return NULL;
}

/* Headers of the last response only (curl keeps 100 Continue too). */
static json_t *headers_json(const char *raw)
{
    json_t *h = json_object();
    const char *last = raw, *p;
    char name[128], value[1024];

    for (p = raw; p != NULL && (p = strstr(p, "HTTP/")) != NULL; p++)
        if (p == raw || p[-1] == '\n')
            last = p;
    for (const char *l = last; l != NULL && *l != '\0';) {
        const char *end = strchr(l, '\n');
        const char *colon = strchr(l, ':');

        if (colon != NULL && (end == NULL || colon < end)
            && (size_t)(colon - l) < sizeof(name)) {
            size_t i, vlen = (end ? (size_t)(end - colon) : strlen(colon));

            for (i = 0; l + i < colon; i++)
                name[i] = (char)tolower((unsigned char)l[i]);
            name[i] = '\0';
            snprintf(value, sizeof(value), "%.*s", (int)vlen - 1, colon + 1);
            for (i = strlen(value); i > 0 && (value[i - 1] == '\r'
                                              || value[i - 1] == ' '); i--)
                value[i - 1] = '\0';
            json_object_set_new(h, name, json_string(value + strspn(value,
                                                                    " ")));
        }
        l = end != NULL ? end + 1 : NULL;
    }
    return h;
}

static void record(const struct htest_req *rq, const char *method,
                   const struct htest_resp *resp)
{
    char name[700], route[512];
    json_t *rec, *body;
    unsigned n;

    if (rq->no_record || resp->status == 0)
        return;
    snprintf(route, sizeof(route), "%s", rq->route ? rq->route : rq->path);
    if (rq->route == NULL)
        route[strcspn(route, "?")] = '\0';
    body = json_stringn(resp->body ? resp->body : "", resp->len);
    rec = json_pack("{s:s, s:s, s:s, s:i, s:s, s:o, s:o}", "method", method,
                    "path", rq->path, "route", route, "status",
                    (int)resp->status, "content_type", resp->content_type,
                    "headers", headers_json(resp->headers ? resp->headers
                                            : ""),
                    "body", body ? body : json_null());
    n = atomic_fetch_add(&htest.seq, 1);
    snprintf(name, sizeof(name), "%s/%s-%05u.json", htest.dir, htest.prog,
             n);
    if (rec != NULL)
        json_dump_file(rec, name, JSON_INDENT(1));
    json_decref(rec);
}

static struct curl_slist *request_headers(const struct htest_req *rq)
{
    struct curl_slist *h = NULL;
    char line[256];
    const char *ct = rq->content_type;

    if (rq->body != NULL && ct == NULL)
        ct = "application/json";
    if (ct != NULL && *ct != '\0') {
        snprintf(line, sizeof(line), "Content-Type: %s", ct);
        h = curl_slist_append(h, line);
    } else if (rq->body != NULL) {
        h = curl_slist_append(h, "Content-Type:");
    }
    if (rq->chunked)
        h = curl_slist_append(h, "Transfer-Encoding: chunked");
    for (size_t i = 0; rq->headers != NULL && rq->headers[i] != NULL; i++)
        h = curl_slist_append(h, rq->headers[i]);
    return h;
}

/* The body goes through a read callback so it can be chunked. */
struct upload {
    const char *data;
    size_t left;
};

static size_t feed(char *out, size_t size, size_t n, void *user)
{
    struct upload *u = user;
    size_t take = size * n < u->left ? size * n : u->left;

    memcpy(out, u->data, take);
    u->data += take;
    u->left -= take;
    return take;
}

static void setup_body(CURL *c, const struct htest_req *rq,
                       struct upload *up)
{
    up->data = rq->body;
    up->left = rq->body_len ? rq->body_len : strlen(rq->body);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_READFUNCTION, feed);
    curl_easy_setopt(c, CURLOPT_READDATA, up);
    if (!rq->chunked)
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                         (curl_off_t)up->left);
}

static void finish(CURL *c, struct htest_resp *resp, struct buf *body,
                   struct buf *hdrs)
{
    char *ct = NULL;

    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->status);
    curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ct);
    curl_easy_getinfo(c, CURLINFO_TOTAL_TIME, &resp->seconds);
    snprintf(resp->content_type, sizeof(resp->content_type), "%s",
             ct ? ct : "");
    resp->body = body->data ? body->data : calloc(1, 1);
    resp->len = body->len;
    resp->headers = hdrs->data ? hdrs->data : calloc(1, 1);
    if (resp->curl_code != CURLE_OK)
        resp->status = 0;
}

int htest_do(http_server *s, const struct htest_req *rq,
             struct htest_resp *resp)
{
    const char *method = rq->method ? rq->method
                         : rq->body ? "POST" : "GET";
    struct buf body = { 0 }, hdrs = { 0 };
    struct upload up;
    struct curl_slist *h = request_headers(rq);
    char url[1200];
    CURL *c = curl_easy_init();

    memset(resp, 0, sizeof(*resp));
    snprintf(url, sizeof(url), "%s%s", http_server_url(s), rq->path);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "HEAD") == 0)
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    if (rq->body != NULL)
        setup_body(c, rq, &up);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, collect);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &hdrs);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, rq->timeout_ms ? rq->timeout_ms
                     : 20000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);
    resp->curl_code = (int)curl_easy_perform(c);
    finish(c, resp, &body, &hdrs);
    curl_easy_cleanup(c);
    curl_slist_free_all(h);
    record(rq, method, resp);
    return resp->curl_code;
}

int htest_get(http_server *s, const char *path, struct htest_resp *resp)
{
    struct htest_req rq = { .path = path };

    return htest_do(s, &rq, resp);
}

int htest_post(http_server *s, const char *path, const char *body,
               struct htest_resp *resp)
{
    struct htest_req rq = { .path = path, .body = body };

    return htest_do(s, &rq, resp);
}

void htest_resp_free(struct htest_resp *resp)
{
    free(resp->body);
    free(resp->headers);
    resp->body = resp->headers = NULL;
}

json_t *htest_json(const struct htest_resp *resp)
{
    json_error_t err;
    json_t *j = json_loadb(resp->body, resp->len, 0, &err);

    if (j == NULL) {
        fprintf(stderr, "not JSON (%s): %.300s\n", err.text, resp->body);
        fail();
    }
    return j;
}

json_t *htest_problem(const struct htest_resp *resp, long status,
                      const char *slug)
{
    char type[128];
    json_t *j;

    if (resp->status != status)
        fprintf(stderr, "expected %ld, got %ld: %.400s\n", status,
                resp->status, resp->body);
    assert_int_equal(resp->status, status);
    assert_string_equal(resp->content_type, "application/problem+json");
    j = htest_json(resp);
    snprintf(type, sizeof(type), "https://puzzled.dev/problems/%s", slug);
    assert_string_equal(json_string_value(json_object_get(j, "type")), type);
    assert_int_equal(json_integer_value(json_object_get(j, "status")),
                     status);
    assert_non_null(json_string_value(json_object_get(j, "title")));
    assert_non_null(json_string_value(json_object_get(j, "detail")));
    return j;
}

static int raw_connect(http_server *s)
{
    struct sockaddr_in sa;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (fd < 0)
        return -1;
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)http_server_port(s));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether buf holds a whole response: headers plus Content-Length. */
static bool raw_complete(const struct buf *b, size_t *head)
{
    const char *end = b->data ? strstr(b->data, "\r\n\r\n") : NULL;
    const char *cl;
    size_t want = 0;

    if (end == NULL)
        return false;
    *head = (size_t)(end - b->data) + 4;
    cl = strcasestr(b->data, "\r\nContent-Length:");
    if (cl != NULL && cl < end)
        want = strtoul(cl + 17, NULL, 10);
    else if (cl == NULL || cl > end)
        return false;   /* no length: read to EOF */
    return b->len >= *head + want;
}

/* Read until a whole response or EOF or the deadline. */
static void raw_read(int fd, long timeout_ms, struct buf *b)
{
    double deadline = wait_now_ms() + (double)timeout_ms;
    char chunk[4096];
    size_t head;
    ssize_t n;

    while (!raw_complete(b, &head) && wait_now_ms() < deadline) {
        struct pollfd p = { .fd = fd, .events = POLLIN };

        if (poll(&p, 1, 50) <= 0)
            continue;
        n = recv(fd, chunk, sizeof(chunk), 0);
        if (n <= 0 || collect(chunk, 1, (size_t)n, b) != (size_t)n)
            break;
    }
}

static void raw_parse(const struct buf *b, struct htest_resp *resp)
{
    const char *end = b->data ? strstr(b->data, "\r\n\r\n") : NULL;
    size_t head;
    char ct[128];

    if (b->data == NULL || end == NULL
        || sscanf(b->data, "HTTP/1.%*d %ld", &resp->status) != 1) {
        resp->status = 0;
        resp->body = calloc(1, 1);
        resp->headers = calloc(1, 1);
        return;
    }
    head = (size_t)(end - b->data) + 4;
    resp->headers = strndup(b->data, head);
    resp->len = b->len - head;
    resp->body = malloc(resp->len + 1);
    memcpy(resp->body, b->data + head, resp->len);
    resp->body[resp->len] = '\0';
    if (htest_header(resp, "Content-Type", ct, sizeof(ct)) != NULL)
        snprintf(resp->content_type, sizeof(resp->content_type), "%s", ct);
}

int htest_raw_open(http_server *s)
{
    return raw_connect(s);
}

int htest_raw_on(int fd, const struct htest_req *rq, const char *bytes,
                 size_t len, struct htest_resp *resp)
{
    struct buf b = { 0 };
    size_t sent = 0;
    ssize_t n;

    memset(resp, 0, sizeof(*resp));
    /* The server may answer and close before taking every byte. */
    while (fd >= 0 && sent < len) {
        n = send(fd, bytes + sent, len - sent, MSG_NOSIGNAL);
        if (n <= 0)
            break;
        sent += (size_t)n;
    }
    if (fd >= 0)
        raw_read(fd, rq->timeout_ms ? rq->timeout_ms : 5000, &b);
    raw_parse(&b, resp);
    free(b.data);
    resp->curl_code = resp->status != 0 ? 0 : -1;
    record(rq, rq->method ? rq->method : "GET", resp);
    return resp->curl_code;
}

int htest_raw(http_server *s, const struct htest_req *rq, const char *bytes,
              size_t len, struct htest_resp *resp)
{
    int fd = raw_connect(s);
    int rc = htest_raw_on(fd, rq, bytes, len, resp);

    if (fd >= 0)
        close(fd);
    return rc;
}

unsigned htest_connections(http_server *s)
{
    struct http__conn_stats st;

    http__conns_stats(s, &st);
    return st.open;
}

unsigned htest_in_flight(http_server *s)
{
    return atomic_load(&s->in_flight);
}

unsigned htest_workers_busy(http_server *s)
{
    struct pool_stats st = { 0 };

    if (s->pool != NULL)
        pool_get_stats(s->pool, &st);
    return st.busy;
}

bool htest_draining(http_server *s)
{
    return atomic_load(&s->draining) != 0;
}
