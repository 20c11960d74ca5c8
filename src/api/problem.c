/*
 * problem.c - the catalogue of problem kinds (status, type URI, title)
 * and their JSON form. The slugs are part of the public API: never rename
 * one, add a new kind instead.
 */
#include "api_problem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct kind_info {
    unsigned status;
    const char *slug;
    const char *title;
};

static const struct kind_info kinds[API_PROBLEM_KIND_COUNT_] = {
    [API_PROBLEM_MALFORMED_JSON] = { 400, "malformed-json",
                                      "Malformed JSON" },
    [API_PROBLEM_INVALID_QUERY] = { 400, "invalid-query",
                                     "Invalid query parameter" },
    [API_PROBLEM_INVALID_REQUEST] = { 422, "invalid-request",
                                       "Invalid request" },
    [API_PROBLEM_INVALID_BOARD] = { 422, "invalid-board",
                                     "Invalid board" },
    [API_PROBLEM_UNSOLVABLE] = { 422, "unsolvable",
                                  "Board cannot reach the goal" },
    [API_PROBLEM_INVALID_OPTION] = { 422, "invalid-option",
                                      "Invalid option" },
    [API_PROBLEM_NOT_FOUND] = { 404, "not-found", "Not found" },
    [API_PROBLEM_METHOD_NOT_ALLOWED] = { 405, "method-not-allowed",
                                          "Method not allowed" },
    [API_PROBLEM_PAYLOAD_TOO_LARGE] = { 413, "payload-too-large",
                                         "Request body too large" },
    [API_PROBLEM_UNSUPPORTED_MEDIA] = { 415, "unsupported-media-type",
                                         "Unsupported media type" },
    [API_PROBLEM_OVERLOADED] = { 503, "overloaded",
                                  "Server overloaded" },
    [API_PROBLEM_SHUTTING_DOWN] = { 503, "shutting-down",
                                     "Server shutting down" },
    [API_PROBLEM_INTERNAL] = { 500, "internal-error",
                                "Internal server error" },
    [API_PROBLEM_BAD_FRAMING] = { 400, "bad-request", "Bad request" },
    [API_PROBLEM_NOT_IMPLEMENTED] = { 501, "not-implemented",
                                       "Not implemented" },
    [API_PROBLEM_INVALID_SOLUTION] = { 422, "invalid-solution",
                                        "Moves do not solve the board" },
    [API_PROBLEM_RATE_LIMITED] = { 429, "rate-limited",
                                    "Too many requests" },
    [API_PROBLEM_CONFLICT] = { 409, "conflict",
                                "Not possible now" },
    [API_PROBLEM_ANSWER_TOO_LARGE] = { 422, "answer-too-large",
                                        "Answer too large" },
    [API_PROBLEM_UNAUTHORIZED] = { 401, "unauthorized", "Unauthorized" },
    [API_PROBLEM_FORBIDDEN] = { 403, "forbidden", "Forbidden" },
    [API_PROBLEM_UNAVAILABLE] = { 503, "unavailable",
                                  "Service unavailable" },
    [API_PROBLEM_CLIENT_CLOSED] = { 499, "client-closed-request",
                                    "Client closed request" },
    [API_PROBLEM_INVALID_HEADER] = { 400, "invalid-header",
                                     "Invalid header" },
    [API_PROBLEM_IDEMPOTENCY_REUSED] = { 422, "idempotency-key-reused",
                                         "Idempotency-Key already used" },
};

static const struct kind_info *info(enum api_problem_kind k)
{
    if ((unsigned)k >= API_PROBLEM_KIND_COUNT_)
        k = API_PROBLEM_INTERNAL;
    return &kinds[k];
}

unsigned api_problem_status(enum api_problem_kind k)
{
    return info(k)->status;
}

const char *api_problem_slug(enum api_problem_kind k)
{
    return info(k)->slug;
}

/* The one map from the error vocabulary (puz_err.h) to the answer's
 * kind, hence its HTTP status. */
static const enum api_problem_kind kind_of_err[] = {
    [PUZ_OK] = API_PROBLEM_INTERNAL,            /* not an error: a bug */
    [PUZ_EINVAL] = API_PROBLEM_INVALID_REQUEST,
    [PUZ_ENOMEM] = API_PROBLEM_ANSWER_TOO_LARGE,
    [PUZ_EUNSOLVABLE] = API_PROBLEM_UNSOLVABLE,
    [PUZ_ERANGE] = API_PROBLEM_INVALID_OPTION,
    [PUZ_EIO] = API_PROBLEM_INTERNAL,
    [PUZ_ECORRUPT] = API_PROBLEM_INTERNAL,
    [PUZ_EFULL] = API_PROBLEM_OVERLOADED,
    [PUZ_ECLOSED] = API_PROBLEM_SHUTTING_DOWN,
    [PUZ_ETIMEDOUT] = API_PROBLEM_OVERLOADED,
    [PUZ_EFINISHED] = API_PROBLEM_CONFLICT,
    [PUZ_ELIMITED] = API_PROBLEM_RATE_LIMITED,
};

enum api_problem_kind api_problem_kind_of(puz_err e)
{
    if ((unsigned)e >= sizeof(kind_of_err) / sizeof(kind_of_err[0]))
        return API_PROBLEM_INTERNAL;
    return kind_of_err[e];
}

void api_problem_set(struct api_problem *p, enum api_problem_kind k,
                      const char *fmt, ...)
{
    va_list ap;

    p->kind = k;
    p->pointer[0] = '\0';
    p->line = 0;
    p->column = 0;
    p->allowed[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(p->detail, sizeof(p->detail), fmt, ap);
    va_end(ap);
}

void api_problem_point(struct api_problem *p, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(p->pointer, sizeof(p->pointer), fmt, ap);
    va_end(ap);
}

/*
 * json_string() refuses invalid UTF-8, and a detail or path may quote
 * client bytes (a URL with %ff in it): replace every non-ASCII byte with
 * '?' then, rather than lose the whole answer.
 */
static json_t *safe_string(const char *s)
{
    char buf[API_PROBLEM_DETAIL];
    json_t *j = json_string(s);
    size_t i;

    if (j != NULL)
        return j;
    for (i = 0; s[i] != '\0' && i + 1 < sizeof(buf); i++)
        buf[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
    buf[i] = '\0';
    return json_string(buf);
}

static int add_extensions(json_t *o, const struct api_problem *p)
{
    json_t *list;
    const char *s, *comma;
    int rc = 0;

    if (p->pointer[0] != '\0')
        rc |= json_object_set_new(o, "pointer", safe_string(p->pointer));
    if (p->line > 0) {
        rc |= json_object_set_new(o, "line", json_integer(p->line));
        rc |= json_object_set_new(o, "column", json_integer(p->column));
    }
    if (p->allowed[0] != '\0') {
        list = json_array();
        for (s = p->allowed; s != NULL; s = comma ? comma + 2 : NULL) {
            comma = strstr(s, ", ");
            rc |= json_array_append_new(list, json_stringn(s, comma
                                        ? (size_t)(comma - s) : strlen(s)));
        }
        rc |= json_object_set_new(o, "allowed", list);
    }
    return rc;
}

json_t *api_problem_json(const struct api_problem *p, const char *instance,
                          const char *request_id)
{
    const struct kind_info *k = info(p->kind);
    char type[128];
    json_t *o = json_object();
    int rc = 0;

    if (o == NULL)
        return NULL;
    snprintf(type, sizeof(type), "%s%s", API_PROBLEM_BASE, k->slug);
    rc |= json_object_set_new(o, "type", json_string(type));
    rc |= json_object_set_new(o, "title", json_string(k->title));
    rc |= json_object_set_new(o, "status", json_integer(k->status));
    rc |= json_object_set_new(o, "detail", safe_string(p->detail));
    if (instance != NULL)
        rc |= json_object_set_new(o, "instance", safe_string(instance));
    if (request_id != NULL)
        rc |= json_object_set_new(o, "request_id", safe_string(request_id));
    rc |= add_extensions(o, p);
    if (rc != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}
