/*
 * http_problem.h - RFC 9457 problem details: the one shape of every
 * error puzzled's API returns (application/problem+json).
 *
 * Each kind has a stable type URI, HTTP_PROBLEM_BASE + slug, documented
 * in openapi.yaml; clients may branch on it. `detail` says what to fix.
 */
#ifndef HTTP_PROBLEM_H
#define HTTP_PROBLEM_H

#include <jansson.h>

#define HTTP_PROBLEM_BASE "https://puzzled.dev/problems/"
#define HTTP_PROBLEM_DETAIL 512
#define HTTP_PROBLEM_POINTER 64
#define HTTP_PROBLEM_ALLOWED 256

enum http_problem_kind {
    HTTP_PROBLEM_MALFORMED_JSON = 0, /* 400: not JSON; line/column */
    HTTP_PROBLEM_INVALID_QUERY,      /* 400: bad query parameter */
    HTTP_PROBLEM_INVALID_REQUEST,    /* 422: JSON of the wrong shape */
    HTTP_PROBLEM_INVALID_BOARD,      /* 422: board or goal is not valid */
    HTTP_PROBLEM_UNSOLVABLE,         /* 422: parity says no */
    HTTP_PROBLEM_INVALID_OPTION,     /* 422: unknown algorithm, ... */
    HTTP_PROBLEM_NOT_FOUND,          /* 404 */
    HTTP_PROBLEM_METHOD_NOT_ALLOWED, /* 405, with Allow */
    HTTP_PROBLEM_PAYLOAD_TOO_LARGE,  /* 413 */
    HTTP_PROBLEM_UNSUPPORTED_MEDIA,  /* 415 */
    HTTP_PROBLEM_OVERLOADED,         /* 503: queue full */
    HTTP_PROBLEM_SHUTTING_DOWN,      /* 503: draining */
    HTTP_PROBLEM_INTERNAL,           /* 500: our fault, never the client's */
    HTTP_PROBLEM_BAD_FRAMING,        /* 400: message framing or headers
                                      * that cannot be trusted */
    HTTP_PROBLEM_NOT_IMPLEMENTED,    /* 501: a transfer coding we lack,
                                      * a feature switched off */
    HTTP_PROBLEM_INVALID_SOLUTION,   /* 422: moves that do not solve the
                                      * board they claim to */
    HTTP_PROBLEM_RATE_LIMITED,       /* 429: too many from one client */
    HTTP_PROBLEM_CONFLICT,           /* 409: not now (entries closed,
                                      * leaderboard full) */
    HTTP_PROBLEM_ANSWER_TOO_LARGE,   /* 422: the answer would pass
                                      * max_response_bytes or the
                                      * request's memory budget */
    HTTP_PROBLEM_KIND_COUNT_
};

struct http_problem {
    enum http_problem_kind kind;
    char detail[HTTP_PROBLEM_DETAIL];
    char pointer[HTTP_PROBLEM_POINTER]; /* JSON pointer into the request,
                                         * "" if none */
    int line, column;                   /* > 0 for malformed JSON */
    char allowed[HTTP_PROBLEM_ALLOWED]; /* valid values, ", "-separated;
                                         * "" if none */
};

/* HTTP status, slug ("invalid-board") and title of a kind. */
unsigned http_problem_status(enum http_problem_kind k);
const char *http_problem_slug(enum http_problem_kind k);
const char *http_problem_title(enum http_problem_kind k);

/* Fill p (clears pointer/line/column/allowed); printf-style detail. */
void http_problem_set(struct http_problem *p, enum http_problem_kind k,
                      const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set p->pointer from a printf-style JSON pointer ("/boards/%zu"). */
void http_problem_point(struct http_problem *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * New reference to the problem object: type, title, status, detail and,
 * when set, instance (the request path), request_id, pointer, line,
 * column, allowed. instance and request_id may be NULL. NULL on ENOMEM.
 */
json_t *http_problem_json(const struct http_problem *p, const char *instance,
                          const char *request_id);

#endif
