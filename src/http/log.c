/*
 * log.c - one JSON line per finished request (the access log), and
 * plain one-line notices about the server's life on stderr. Each line
 * is formatted in a local buffer and written with a single write(), so
 * lines from different threads never interleave.
 */
#include "http_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

static void timestamp(char *buf, size_t size)
{
    struct timespec ts;
    struct tm tm;
    char day[24];
    unsigned ms;

    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
    ms = (unsigned)(ts.tv_nsec / 1000000L) % 1000u;
    snprintf(buf, size, "%.23s.%03uZ", day, ms);
}

void http__log_access(const struct http_req *r, uint64_t now_us)
{
    char line[1700], path[1100], method[80], when[40];
    int n;

    if (r->srv->log_fd < 0)
        return;
    json_escape(r->path, path, sizeof(path));
    json_escape(r->method, method, sizeof(method));
    timestamp(when, sizeof(when));
    n = snprintf(line, sizeof(line), "{\"time\":\"%s\",\"id\":\"%s\","
                 "\"remote\":\"%s\",\"method\":\"%s\",\"path\":\"%s\","
                 "\"route\":\"%s\",\"status\":%u,\"duration_ms\":%.3f,"
                 "\"expanded\":%llu,\"bytes\":%zu}\n", when, r->id,
                 r->remote, method, path, r->srv->labels[r->label],
                 r->status, (double)(now_us - r->start_us) / 1000.0,
                 (unsigned long long)r->expanded, r->reply_bytes);
    if (n > 0 && (size_t)n < sizeof(line))
        (void)!write(r->srv->log_fd, line, (size_t)n);
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
