/*
 * api_problem.h - RFC 9457 problem details: the one shape of every
 * error puzzled's API returns (application/problem+json).
 *
 * Each kind has a stable type URI, API_PROBLEM_BASE + slug, documented
 * in openapi.yaml; clients may branch on it. `detail` says what to fix.
 */
#ifndef API_PROBLEM_H
#define API_PROBLEM_H

#include <jansson.h>

#include "puz_err.h"

#define API_PROBLEM_BASE "https://puzzled.dev/problems/"
#define API_PROBLEM_DETAIL 512
#define API_PROBLEM_POINTER 64
#define API_PROBLEM_ALLOWED 256

enum api_problem_kind {
    API_PROBLEM_MALFORMED_JSON = 0, /* 400: not JSON; line/column */
    API_PROBLEM_INVALID_QUERY,      /* 400: bad query parameter */
    API_PROBLEM_INVALID_REQUEST,    /* 422: JSON of the wrong shape */
    API_PROBLEM_INVALID_BOARD,      /* 422: board or goal is not valid */
    API_PROBLEM_UNSOLVABLE,         /* 422: parity says no */
    API_PROBLEM_INVALID_OPTION,     /* 422: unknown algorithm, ... */
    API_PROBLEM_NOT_FOUND,          /* 404 */
    API_PROBLEM_METHOD_NOT_ALLOWED, /* 405, with Allow */
    API_PROBLEM_PAYLOAD_TOO_LARGE,  /* 413 */
    API_PROBLEM_UNSUPPORTED_MEDIA,  /* 415 */
    API_PROBLEM_OVERLOADED,         /* 503: queue full */
    API_PROBLEM_SHUTTING_DOWN,      /* 503: draining */
    API_PROBLEM_INTERNAL,           /* 500: our fault, never the client's */
    API_PROBLEM_BAD_FRAMING,        /* 400: message framing or headers
                                      * that cannot be trusted */
    API_PROBLEM_NOT_IMPLEMENTED,    /* 501: a transfer coding we lack,
                                      * a feature switched off */
    API_PROBLEM_INVALID_SOLUTION,   /* 422: moves that do not solve the
                                      * board they claim to */
    API_PROBLEM_RATE_LIMITED,       /* 429: too many from one client */
    API_PROBLEM_CONFLICT,           /* 409: not now (entries closed,
                                      * leaderboard full) */
    API_PROBLEM_ANSWER_TOO_LARGE,   /* 422: the answer would pass
                                      * max_response_bytes or the
                                      * request's memory budget */
    API_PROBLEM_UNAUTHORIZED,       /* 401: a key that is no key */
    API_PROBLEM_FORBIDDEN,          /* 403: not for anonymous callers */
    API_PROBLEM_UNAVAILABLE,        /* 503: a service the route needs
                                     * (the store) cannot be reached */
    API_PROBLEM_CLIENT_CLOSED,      /* 499 (nginx's): the client left; its
                                     * work stopped. Logged, never read */
    API_PROBLEM_INVALID_HEADER,     /* 400: a request header's value
                                     * cannot be used (Idempotency-Key) */
    API_PROBLEM_IDEMPOTENCY_REUSED, /* 422: an Idempotency-Key already
                                     * used with another body */
    API_PROBLEM_KIND_COUNT_
};

struct api_problem {
    enum api_problem_kind kind;
    char detail[API_PROBLEM_DETAIL];
    char pointer[API_PROBLEM_POINTER]; /* JSON pointer into the request,
                                         * "" if none */
    int line, column;                   /* > 0 for malformed JSON */
    char allowed[API_PROBLEM_ALLOWED]; /* valid values, ", "-separated;
                                         * "" if none */
};

/* HTTP status, slug ("invalid-board") and title of a kind. */
unsigned api_problem_status(enum api_problem_kind k);
const char *api_problem_slug(enum api_problem_kind k);
/* The kind of answer an error of the shared vocabulary gets (one table:
 * PUZ_EFULL is 503 overloaded, PUZ_ELIMITED 429, ...). */
enum api_problem_kind api_problem_kind_of(puz_err e);

/* Fill p (clears pointer/line/column/allowed); printf-style detail. */
void api_problem_set(struct api_problem *p, enum api_problem_kind k,
                      const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Set p->pointer from a printf-style JSON pointer ("/boards/%zu"). */
void api_problem_point(struct api_problem *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * New reference to the problem object: type, title, status, detail and,
 * when set, instance (the request path), request_id, pointer, line,
 * column, allowed. instance and request_id may be NULL. NULL on ENOMEM.
 */
json_t *api_problem_json(const struct api_problem *p, const char *instance,
                          const char *request_id);

#endif
