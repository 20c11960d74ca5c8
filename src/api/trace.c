/*
 * trace.c - W3C Trace Context (https://www.w3.org/TR/trace-context/) for
 * jobs: a job keeps the trace id of the request that submitted it (its
 * traceparent header, or a new trace when it sent none or one that is
 * not valid, as the recommendation asks), and every answer about the job
 * carries a traceparent naming that trace, with the job as its span, so
 * a client, a proxy and the job's instances can be joined by one id.
 * The access log names the trace of every call that has one
 * (api_call_trace_id), so one grep finds a job's submission, its polls
 * and streams, and the units other instances ran for it.
 */
#include "api_int.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>

/* n lowercase hex digits at s, not all zeros. */
static bool hex_id(const char *s, size_t n)
{
    return strspn(s, "0123456789abcdef") >= n
           && strspn(s, "0") < n;
}

/* version "-" trace-id "-" parent-id "-" flags: version 00 exactly so;
 * a later version (not ff) may add fields after a '-'. */
static bool traceparent_ok(const char *h)
{
    size_t len = h != NULL ? strlen(h) : 0;

    return len >= 55 && strspn(h, "0123456789abcdef") >= 2 && h[2] == '-'
           && strncmp(h, "ff", 2) != 0 && hex_id(h + 3, JOBS_TRACE_LEN)
           && h[35] == '-' && hex_id(h + 36, 16) && h[52] == '-'
           && strspn(h + 53, "0123456789abcdef") >= 2
           && (len == 55 || (strncmp(h, "00", 2) != 0 && h[55] == '-'));
}

/* The trace-id field of traceparent h (known to be one) into out. */
static void trace_field(const char *h, char *out)
{
    memcpy(out, h + 3, JOBS_TRACE_LEN);
    out[JOBS_TRACE_LEN] = '\0';
}

void api__trace_id(const struct api_call *c, char *out)
{
    const char *h = c->rq.traceparent;
    unsigned char raw[JOBS_TRACE_LEN / 2];

    if (traceparent_ok(h)) {
        trace_field(h, out);
        return;
    }
    if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
        memset(raw, 0, sizeof(raw));
    raw[0] |= 1;        /* never all zeros: that would be invalid */
    for (size_t i = 0; i < sizeof(raw); i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
}

void api__trace_header(struct api_call *c, const char *trace,
                       const char *job)
{
    char h[64];

    if (trace[0] == '\0')
        return;
    /* flags 00: nothing here records (samples) the trace */
    snprintf(h, sizeof(h), "00-%.32s-%.16s-00", trace, job);
    api_answer_header(c, "traceparent", h);
}

bool api_call_trace_id(const struct api_call *c, char *out)
{
    const struct api_answer *an = &c->answer;

    out[0] = '\0';
    for (unsigned i = 0; i < an->nheaders; i++)
        if (strcmp(an->headers[i].name, "traceparent") == 0) {
            trace_field(an->headers[i].value, out);
            return true;
        }
    if (!traceparent_ok(c->rq.traceparent))
        return false;
    trace_field(c->rq.traceparent, out);
    return true;
}
