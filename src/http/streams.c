/*
 * streams.c - what the two kinds of job event streams share (the
 * embedded jobs' jobs_stream.c and the shared jobs' jobq_stream.c): a
 * stream's pending bytes, the check of the streams' limits and the
 * response's headers.
 */
#include "http_int.h"

#include <stdlib.h>

bool http__pending_reserve(struct http__pending *p, size_t n)
{
    size_t want = p->cap ? p->cap : 4096;
    char *grown;

    if (p->off == p->len)
        p->off = p->len = 0;
    if (p->len + n <= p->cap)
        return true;
    while (want < p->len + n)
        want *= 2;
    grown = realloc(p->buf, want);
    if (grown == NULL)
        return false;
    p->buf = grown;
    p->cap = want;
    return true;
}

puz_err http__streams_admit(const struct http_streams_limits *lim,
                            const struct http__streams_tally *t,
                            unsigned key_cap,
                            struct http_streams_refusal *limit)
{
    if (lim->max != 0 && t->all >= lim->max) {
        *limit = (struct http_streams_refusal){ "max_streams", lim->max };
        return PUZ_EFULL;
    }
    if (key_cap != 0 && t->of_key >= key_cap) {
        *limit = (struct http_streams_refusal){ "the key's streams",
                                                key_cap };
        return PUZ_ELIMITED;
    }
    if (lim->per_job != 0 && t->on_job >= lim->per_job) {
        *limit = (struct http_streams_refusal){ "max_streams_per_job",
                                                lim->per_job };
        return PUZ_EFULL;
    }
    if (lim->per_client != 0 && t->from_client >= lim->per_client) {
        *limit = (struct http_streams_refusal){ "max_streams_per_client",
                                                lim->per_client };
        return PUZ_ELIMITED;
    }
    return PUZ_OK;
}

void http__sse_headers(struct MHD_Response *resp)
{
    MHD_add_response_header(resp, "Content-Type", "text/event-stream");
    MHD_add_response_header(resp, "Cache-Control", "no-cache");
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
}
