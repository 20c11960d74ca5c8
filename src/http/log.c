/*
 * log.c - one JSON line per finished request (the access log) and per
 * work unit run here for a shared job (named by its job and trace, so a
 * job's units are found in every instance's log), and
 * plain one-line notices about the server's life on stderr. Each line
 * is formatted in a local buffer and appended whole to the log's buffer,
 * which is written with one write() when it is full or its oldest line
 * is access_log_flush_ms old (the watchdog looks every tick), on reopen
 * and at shutdown - so lines never interleave, and a busy server makes
 * one write for hundreds of requests instead of one each.
 */
#include "http_int.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LOGBUF_BYTES (32u << 10)

struct http__logbuf {
    pthread_mutex_t lock;
    uint64_t flush_us;          /* 0: every line at once */
    uint64_t first_us;          /* when the oldest held line came */
    size_t len;
    char bytes[LOGBUF_BYTES];
};

/* JSON string body of s: quotes, backslashes, control and non-ASCII
 * bytes escaped (a path is client bytes, not necessarily UTF-8). */
static size_t json_escape(const char *s, char *out, size_t size)
{
    size_t o = 0;

    for (; *s != '\0' && o + 7 < size; s++) {
        unsigned char c = (unsigned char)*s;

        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = (char)c;
        } else if (c < 0x20 || c >= 0x7f) {
            o += (size_t)snprintf(out + o, size - o, "\\u%04x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    out[o] = '\0';
    return o;
}

/* The line being built: bytes are appended while they fit; a line that
 * does not fit is dropped whole, never written cut. */
struct line {
    char *p, *end;
    bool ok;
};

static void put(struct line *l, const char *s, size_t n)
{
    if (!l->ok || (size_t)(l->end - l->p) < n) {
        l->ok = false;
        return;
    }
    memcpy(l->p, s, n);
    l->p += n;
}

static void put_str(struct line *l, const char *s)
{
    put(l, s, strlen(s));
}

/* v in decimal, at least width digits (zero-padded). */
static void put_uint(struct line *l, unsigned long long v, unsigned width)
{
    char d[24];
    unsigned n = 0;

    do {
        d[sizeof(d) - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0 || n < width);
    put(l, d + sizeof(d) - n, n);
}

/* us microseconds as milliseconds with 3 decimals. */
static void put_ms(struct line *l, uint64_t us)
{
    put_uint(l, us / 1000, 1);
    put(l, ".", 1);
    put_uint(l, us % 1000, 3);
}

/*
 * "2026-12-02T17:19:13.123Z". The part up to the seconds is formatted
 * once a second per thread: the access log is on every request's path,
 * and gmtime + strftime cost more than the rest of the line.
 */
static void put_time(struct line *l)
{
    static _Thread_local time_t sec = (time_t)-1;
    static _Thread_local char day[24];
    int64_t ms = puz_clock_wall_ms();
    time_t now = (time_t)(ms / 1000);
    struct tm tm;

    if (now != sec) {
        gmtime_r(&now, &tm);
        strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S.", &tm);
        sec = now;
    }
    put_str(l, day);
    put_uint(l, (unsigned long long)(ms % 1000), 3);
    put(l, "Z", 1);
}

/* Write the held lines; the caller holds b->lock. */
static void write_held(const struct http_server *s, struct http__logbuf *b)
{
    if (b->len > 0)
        (void)!write(s->log_fd, b->bytes, b->len);
    b->len = 0;
}

/* One whole line into the buffer (written first if it has no room), or
 * straight to the file when nothing is buffered. Held lines go out
 * under the lock, so they keep their order. */
static void log_append(struct http_server *s, const char *line, size_t n,
                       uint64_t now_us)
{
    struct http__logbuf *b = s->logbuf;

    if (b == NULL) {
        (void)!write(s->log_fd, line, n);
        return;
    }
    pthread_mutex_lock(&b->lock);
    if (b->len + n > sizeof(b->bytes))
        write_held(s, b);
    if (b->len == 0)
        b->first_us = now_us;
    memcpy(b->bytes + b->len, line, n);
    b->len += n;
    if (now_us - b->first_us >= b->flush_us)
        write_held(s, b);
    pthread_mutex_unlock(&b->lock);
}

void http__log_access(const struct http_req *r, uint64_t now_us)
{
    char buf[1750], path[1100], method[80], trace[JOBS_TRACE_LEN + 1];
    struct line l = { buf, buf + sizeof(buf), true };
    uint64_t us = now_us - r->start_us;

    if (r->srv->log_fd < 0)
        return;
    json_escape(r->path, path, sizeof(path));
    json_escape(r->method, method, sizeof(method));
    put_str(&l, "{\"time\":\"");
    put_time(&l);
    put_str(&l, "\",\"id\":\"");
    put_str(&l, r->id);
    put_str(&l, "\",\"remote\":\"");
    put_str(&l, r->remote);
    put_str(&l, "\",\"method\":\"");
    put_str(&l, method);
    put_str(&l, "\",\"path\":\"");
    put_str(&l, path);
    put_str(&l, "\",\"route\":\"");
    put_str(&l, r->srv->labels[r->label]);
    put_str(&l, "\",\"status\":");
    put_uint(&l, r->status, 1);
    put_str(&l, ",\"duration_ms\":");
    put_ms(&l, us);
    put_str(&l, ",\"expanded\":");
    put_uint(&l, (unsigned long long)r->expanded, 1);
    put_str(&l, ",\"bytes\":");
    put_uint(&l, r->reply_bytes, 1);
    if (api_call_trace_id(&r->call, trace)) {
        put_str(&l, ",\"trace\":\"");
        put_str(&l, trace);
        put(&l, "\"", 1);
    }
    put(&l, "}\n", 2);
    if (l.ok)
        log_append(r->srv, buf, (size_t)(l.p - buf), now_us);
}

void http__log_unit(void *user, const struct jobq_unit_report *u)
{
    struct http_server *s = user;
    char buf[512], job[JOBS_ID_LEN * 6 + 8], trace[JOBS_TRACE_LEN * 6 + 8],
         round[256];
    struct line l = { buf, buf + sizeof(buf), true };
    uint64_t now_us = puz_clock_mono_us();

    if (s->log_fd < 0)
        return;
    json_escape(u->job, job, sizeof(job));
    json_escape(u->trace, trace, sizeof(trace));
    json_escape(u->round, round, sizeof(round));
    put_str(&l, "{\"time\":\"");
    put_time(&l);
    put_str(&l, "\",\"event\":\"unit\",\"job\":\"");
    put_str(&l, job);
    put_str(&l, "\",\"trace\":\"");
    put_str(&l, trace);
    put_str(&l, "\",\"round\":\"");
    put_str(&l, round);
    put_str(&l, "\",\"unit\":");
    put_uint(&l, u->index, 1);
    put_str(&l, u->found ? ",\"found\":true" : ",\"found\":false");
    put_str(&l, ",\"duration_ms\":");
    put_ms(&l, u->elapsed_us);
    put_str(&l, ",\"expanded\":");
    put_uint(&l, (unsigned long long)u->expanded, 1);
    put_str(&l, ",\"generated\":");
    put_uint(&l, (unsigned long long)u->generated, 1);
    put(&l, "}\n", 2);
    if (l.ok)
        log_append(s, buf, (size_t)(l.p - buf), now_us);
}

puz_err http__log_open_buffer(struct http_server *s)
{
    struct http__logbuf *b;

    if (s->log_fd < 0 || s->cfg.access_log_flush_ms == 0)
        return PUZ_OK;
    b = malloc(sizeof(*b));
    if (b == NULL)
        return PUZ_ENOMEM;
    pthread_mutex_init(&b->lock, NULL);
    b->flush_us = (uint64_t)s->cfg.access_log_flush_ms * 1000u;
    b->first_us = 0;
    b->len = 0;
    s->logbuf = b;
    return PUZ_OK;
}

void http__log_flush(struct http_server *s, uint64_t now_us, bool force)
{
    struct http__logbuf *b = s->logbuf;

    if (b == NULL)
        return;
    pthread_mutex_lock(&b->lock);
    if (force || now_us - b->first_us >= b->flush_us)
        write_held(s, b);
    pthread_mutex_unlock(&b->lock);
}

void http__log_close_buffer(struct http_server *s)
{
    if (s->logbuf == NULL)
        return;
    http__log_flush(s, 0, true);
    pthread_mutex_destroy(&s->logbuf->lock);
    free(s->logbuf);
    s->logbuf = NULL;
}

void http__log_line(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof(line) - 1)
        n = (int)sizeof(line) - 2;
    line[n++] = '\n';
    (void)!write(STDERR_FILENO, line, (size_t)n);
}
