/*
 * http_jobs.h - the event streams of jobs (GET /v1/jobs/{id}/events):
 * Server-Sent Events over libmicrohttpd callback responses, for either
 * backend of the jobs service (jobsvc.h). Shared jobs' events are kept
 * in Redis and their SSE ids are theirs, so a client that reconnects
 * through any instance with Last-Event-ID continues after the last
 * event it got; embedded jobs' are snapshots of the job, numbered by
 * the stream from the client's Last-Event-ID on.
 *
 * A stream writes what is due (the job's latest state at once, then its
 * progress as it changes but at most 4 events a second, and for
 * embedded jobs at least one a second, a heartbeat
 * comment every HTTP_JOBS_HEARTBEAT_MS, the final event and then the
 * end) and, when nothing is due, suspends its connection, so an idle
 * stream costs no network thread. One pump thread reads what is new for
 * the suspended streams (after any job changed, or every
 * HTTP_JOBS_POLL_MS), queues it as bytes and resumes them: the network
 * thread never waits on the service.
 */
#ifndef HTTP_JOBS_H
#define HTTP_JOBS_H

#include <stdint.h>
#include <microhttpd.h>

#include "api.h"
#include "jobs.h"
#include "jobsvc.h"

#define HTTP_JOBS_MIN_GAP_MS 250      /* at most 4 progress events a s */
#define HTTP_JOBS_MAX_GAP_MS 1000     /* embedded: at least one a second */
#define HTTP_JOBS_POLL_MS 50          /* a look at every stream */
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

/* Start the pump for streams of the jobs in j. NULL on failure. */
http_streams *http_streams_create(jobsvc *j,
                                  const struct http_streams_limits *lim);

/*
 * A callback response streaming the events of job (an id the caller
 * found and may see) on connection c for the client at address `client`
 * with API key `key` ("" = none; key_cap its streams at most, 0 = no
 * cap of its own). last_id is the client's Last-Event-ID (NULL or not
 * an event id: from the job's latest event on). NULL when it is
 * refused: *rc PUZ_EFULL (the server's or the job's streams are all
 * taken), PUZ_ELIMITED (this client's or this key's share is open),
 * with *limit naming which; PUZ_ENOMEM.
 */
struct MHD_Response *http_streams_open(http_streams *s,
                                       struct MHD_Connection *c,
                                       const char *job, const char *last_id,
                                       const char *client, const char *key,
                                       unsigned key_cap, puz_err *rc,
                                       struct http_streams_refusal *limit);

/* Final events encoded so far (each once for all the streams of its
 * job). */
uint64_t http_streams_finals_encoded(http_streams *s);

/* Streams open now. */
unsigned http_streams_count(http_streams *s);

/*
 * After jobsvc_shutdown: end every stream, and wait at most wait_ms for
 * all to close. Embedded jobs are all final by then, so their streams
 * send the final event first; shared jobs run on elsewhere, and their
 * clients reconnect there. No stream suspends after this. Idempotent.
 */
void http_streams_shutdown(http_streams *s, unsigned wait_ms);

/* Stop the pump and free (after the daemon stopped). NULL: no-op. */
void http_streams_destroy(http_streams *s);

/* The jobs' lines of /metrics (Prometheus text, jobs_metrics.c), heap,
 * *len bytes; NULL on ENOMEM. open_streams: event streams open now.
 * With the shared backend this asks Redis for the queue's length (at
 * most redis_timeout_ms). */
char *http_jobs_metrics_render(jobsvc *j, unsigned open_streams,
                               uint64_t finals_encoded, size_t *len);

#endif
