/*
 * sse.c - Server-Sent Events framing. An event is a block of "field:
 * value" lines ended by an empty line; a line may end in LF, CR or
 * CRLF, so data is split at any of them and every piece gets its own
 * "data:" field (the client joins them again with LF).
 */
#include "http_sse.h"

#include <stdio.h>
#include <string.h>

struct out {
    char *buf;
    size_t cap, len;
    int full;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->full || o->len + n > o->cap) {
        o->full = 1;
        return;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void puts_(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* "data: " lines, one per line of s. */
static void put_data(struct out *o, const char *s)
{
    for (;;) {
        size_t n = strcspn(s, "\r\n");
        puts_(o, "data: ");
        put(o, s, n);
        puts_(o, "\n");
        s += n;
        if (*s == '\0')
            return;
        s += s[0] == '\r' && s[1] == '\n' ? 2 : 1;
    }
}

static int finish(struct out *o, size_t *len)
{
    if (o->full)
        return -1;
    *len = o->len;
    return 0;
}

int http_sse_event(char *buf, size_t cap, size_t *len, uint64_t id,
                   const char *type, const char *data)
{
    struct out o = { buf, cap, *len, 0 };
    size_t before = *len;
    char num[32];

    snprintf(num, sizeof(num), "id: %llu\n", (unsigned long long)id);
    puts_(&o, num);
    if (finish(&o, len) == 0
        && http_sse_event_body(buf, cap, len, type, data) == 0)
        return 0;
    *len = before;
    return -1;
}

int http_sse_event_body(char *buf, size_t cap, size_t *len,
                        const char *type, const char *data)
{
    struct out o = { buf, cap, *len, 0 };
    size_t before = *len;

    if (type != NULL && type[0] != '\0') {
        puts_(&o, "event: ");
        put(&o, type, strcspn(type, "\r\n"));
        puts_(&o, "\n");
    }
    put_data(&o, data != NULL ? data : "");
    puts_(&o, "\n");
    if (o.full)
        *len = before;
    return finish(&o, len);
}

int http_sse_comment(char *buf, size_t cap, size_t *len, const char *text)
{
    struct out o = { buf, cap, *len, 0 };

    puts_(&o, ": ");
    for (const char *p = text; *p != '\0'; p++)
        put(&o, *p == '\r' || *p == '\n' ? " " : p, 1);
    puts_(&o, "\n\n");
    return finish(&o, len);
}

int http_sse_retry(char *buf, size_t cap, size_t *len, unsigned ms)
{
    struct out o = { buf, cap, *len, 0 };
    char num[32];

    snprintf(num, sizeof(num), "retry: %u\n\n", ms);
    puts_(&o, num);
    return finish(&o, len);
}
