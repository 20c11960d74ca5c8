/*
 * http_jobs.h - the event streams of jobs (GET /v1/jobs/{id}/events):
 * Server-Sent Events over libmicrohttpd callback responses.
 *
 * A stream writes what is due (the current state at once, progress when
 * the job changed but at most 4 a second and at least once a second,
 * a heartbeat comment every HTTP_JOBS_HEARTBEAT_MS, the final event and
 * then the end) and, when nothing is due, suspends its connection, so an
 * idle stream costs no network thread. One ticker thread resumes the
 * streams that have something due: after any job changed, or when a
 * timer is up.
 */
#ifndef HTTP_JOBS_H
#define HTTP_JOBS_H

#include <stdint.h>
#include <microhttpd.h>

#include "api.h"
#include "jobs.h"
#include "jobsvc.h"

#define HTTP_JOBS_MIN_GAP_MS 250      /* at most 4 progress events a s */
#define HTTP_JOBS_MAX_GAP_MS 1000     /* at least one a second */
#define HTTP_JOBS_HEARTBEAT_MS 15000
#define HTTP_JOBS_RETRY_MS 2000       /* EventSource reconnect delay */

typedef struct http_streams http_streams;

/* What streams may hold, so they never take every connection: the
 * health, metrics and control routes (DELETE of the job) stay
 * reachable in the slots streams cannot take. */
struct http_streams_limits {
    unsigned max;           /* streams open at once, all jobs */
    unsigned per_job;       /* on one job */
    unsigned per_client;    /* from one client address */
    unsigned lifetime_s;    /* a stream ends after this and the client
                             * reconnects (Last-Event-ID); 0 = never */
    struct api_keys *keys;  /* counts each key's streams (with other
                             * instances' in shared mode); NULL = none */
};

/* Which limit refused a stream (http_streams_open's *limit): its
 * setting's name and the number in force. */
struct http_streams_refusal {
    const char *setting;    /* "max_streams", "max_streams_per_job", ... */
    unsigned cap;
};

/* Start the ticker for streams of the jobs in j, whose events the API
 * encodes (api_jobs_event with api, read only when a stream opens).
 * NULL on failure. */
http_streams *http_streams_create(const struct api_ctx *api, jobs_t *j,
                                  const struct http_streams_limits *lim);

/*
 * A callback response streaming job's events on connection c for the
 * client at address `client` with API key `key` ("" = none; key_cap its
 * streams at most, 0 = no cap of its own); it takes over the caller's reference to
 * job. last_id is the client's Last-Event-ID (NULL or not a number:
 * start at 1); the stream's ids continue from it, so they keep growing
 * across reconnects. NULL when it is refused (the reference is
 * released then too): *rc PUZ_EFULL (the server's or the job's streams
 * are all taken), PUZ_ELIMITED (this client's or this key's share is
 * open), with *limit naming which; PUZ_ENOMEM.
 */
struct MHD_Response *http_streams_open(http_streams *s,
                                       struct MHD_Connection *c,
                                       jobs_job *job, const char *last_id,
                                       const char *client, const char *key,
                                       unsigned key_cap, puz_err *rc,
                                       struct http_streams_refusal *limit);

/* Final events encoded so far (each once for all the streams of its
 * job). */
uint64_t http_streams_finals_encoded(http_streams *s);

/* Streams open now. */
unsigned http_streams_count(http_streams *s);

/*
 * After jobs_shutdown (every job final): wake every stream so it sends
 * its final event and ends, and wait at most wait_ms for all to close.
 * No stream suspends after this. Idempotent.
 */
void http_streams_shutdown(http_streams *s, unsigned wait_ms);

/* Stop the ticker and free (after the daemon stopped). NULL: no-op. */
void http_streams_destroy(http_streams *s);

/* The jobs' lines of /metrics (Prometheus text, jobs_metrics.c), heap,
 * *len bytes; NULL on ENOMEM. open_streams: event streams open now.
 * With the shared backend this asks Redis for the queue's length (at
 * most redis_timeout_ms). */
char *http_jobs_metrics_render(jobsvc *j, unsigned open_streams,
                               uint64_t finals_encoded, size_t *len);

#endif
