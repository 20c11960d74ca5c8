/*
 * http_jobq.h - the event streams of shared jobs (GET /v1/jobs/{id}/
 * events with redis_url set, jobq.h): Server-Sent Events whose ids are
 * the ids of the job's Redis stream, so a client that reconnects through
 * any instance with Last-Event-ID continues after the last event it
 * got, none lost, none twice (while the stream keeps it: job events are
 * capped, job_events_max).
 *
 * As http_jobs.h's streams: an idle stream suspends its connection; one
 * pump thread reads what is new for the suspended streams (XRANGE after
 * the last id sent, every HTTP_JOBQ_POLL_MS, on jobq's connections),
 * queues it as bytes and resumes the connection. The network thread
 * never waits on Redis. The same limits apply (http_streams_limits).
 */
#ifndef HTTP_JOBQ_H
#define HTTP_JOBQ_H

#include <microhttpd.h>

#include "http_jobs.h"
#include "jobq.h"

#define HTTP_JOBQ_POLL_MS 50

typedef struct http_jstreams http_jstreams;

/* Start the pump for streams of q's jobs. NULL on failure. */
http_jstreams *http_jstreams_create(jobq_t *q,
                                    const struct http_streams_limits *lim);

/*
 * A callback response streaming the events of job (an id the caller
 * found and may see) on connection c; last_id is the client's
 * Last-Event-ID (NULL or not an event id: from the job's latest event
 * on). NULL when refused: *rc and *limit as http_streams_open's.
 */
struct MHD_Response *http_jstreams_open(http_jstreams *s,
                                        struct MHD_Connection *c,
                                        const char *job, const char *last_id,
                                        const char *client, const char *key,
                                        unsigned key_cap, puz_err *rc,
                                        struct http_streams_refusal *limit);

unsigned http_jstreams_count(http_jstreams *s);

/* End every stream (their clients reconnect elsewhere) and wait at most
 * wait_ms for them to close. Idempotent. */
void http_jstreams_shutdown(http_jstreams *s, unsigned wait_ms);

/* Stop the pump and free (after the daemon stopped). NULL: no-op. */
void http_jstreams_destroy(http_jstreams *s);

#endif
