/*
 * http_sse.h - Server-Sent Events framing (the WHATWG HTML "event
 * stream" format): events with an id, a type and data, comment lines as
 * heartbeats, and the retry hint. Pure text in caller buffers: what the
 * event stream of a job sends, testable without a socket.
 */
#ifndef HTTP_SSE_H
#define HTTP_SSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Append "id: ID\nevent: TYPE\ndata: ...\n\n" to buf (cap bytes, used
 * so far *len). Each line of data gets its own "data: " prefix, so a
 * newline in data never ends the event early; CR and CRLF count as line
 * ends too. Returns 0, or -1 (buf untouched) when it does not fit.
 */
int http_sse_event(char *buf, size_t cap, size_t *len, uint64_t id,
                   const char *type, const char *data);

/* The same event without its id line ("event: TYPE\ndata: ...\n\n"):
 * the part every stream of a job sends alike, encoded once. */
int http_sse_event_body(char *buf, size_t cap, size_t *len,
                        const char *type, const char *data);

/* Append ": TEXT\n\n" (TEXT on one line; line breaks become spaces), a
 * comment every client ignores: the heartbeat. 0 or -1 as above. */
int http_sse_comment(char *buf, size_t cap, size_t *len, const char *text);

/* Append "retry: MS\n\n": how long a client waits before reconnecting. */
int http_sse_retry(char *buf, size_t cap, size_t *len, unsigned ms);

#endif
