/*
 * apitest.h - the fixture the API suites (tests/test_api_*.c) share: a
 * route run on plain strings, no socket, no server. One struct holds
 * the limits, the context the routes read, the request arena and the
 * last call; helpers read its answer as JSON, headers and problems.
 */
#ifndef APITEST_H
#define APITEST_H

#include <stdatomic.h>
#include <jansson.h>

#include "api.h"

#define APITEST_QUERY_MAX 8

/* A job body that runs for seconds (Korf's #88, IDA* with Manhattan),
 * long enough to watch, and one answered at once. */
#define APITEST_LONG_BODY "{\"board\": \"15 2 12 11 14 13 9 5 1 3 8 7 0 " \
    "10 6 4\", \"goal\": \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\", " \
    "\"algorithm\": \"idastar\", \"heuristic\": \"manhattan\"}"
#define APITEST_QUICK_BODY "{\"board\": \"1 2 3 4 5 6 0 7 8\"}"

struct apitest {
    struct api_limits lim;          /* api_limits_defaults; tests tune it */
    struct api_ctx ctx;             /* lim, draining and counter set */
    atomic_int draining;
    atomic_uint_fast64_t counter;
    puz_arena *arena;               /* the request's, reset every call */
    struct api_call call;           /* the last call and its answer */
    const char *client;             /* next calls' client ("127.0.0.1") */
    const char *authorization;      /* next calls' Authorization, or NULL */
    const char *idempotency_key;    /* next calls' Idempotency-Key, or
                                     * NULL */
    const char *traceparent;        /* next calls' traceparent, or NULL */
    char path[512];
    char query[256];
    struct api_param params[APITEST_QUERY_MAX];
    json_t *json;                   /* the last apitest_json, owned */
};

/* Fill t for a call: defaults, an arena, no tables, jobs or store. */
void apitest_init(struct apitest *t);
/* Free what t owns (arena, last JSON); not the tables, jobs or store. */
void apitest_fini(struct apitest *t);
/* The 3x3 exact tables (support/tables3.h's group fixture) and the
 * 3x3 goal's table in t->ctx. */
void apitest_use_tables3(struct apitest *t);

/* cmocka setup / teardown for a suite that needs nothing more: *state
 * is a heap struct apitest. */
int apitest_setup(void **state);
int apitest_teardown(void **state);

/*
 * Build the request method path?query with body (query "k=v&k2", either
 * may be NULL) into t->call, ready for api_start / api_work, without
 * running it. Fails the test when no route takes it.
 */
const struct api_route *apitest_prepare(struct apitest *t,
                                        const char *method, const char *path,
                                        const char *query, const char *body);
/* The same, run to the end (api_run); returns &t->call.answer. */
const struct api_answer *apitest_call(struct apitest *t, const char *method,
                                      const char *path, const char *query,
                                      const char *body);

/* The last answer's body as JSON; fails the test when it is not. Owned
 * by t: valid until the next apitest_json / apitest_call / fini
 * (json_incref to keep it longer). */
json_t *apitest_json(struct apitest *t);
/* The last answer's header name, or NULL. */
const char *apitest_header(const struct apitest *t, const char *name);
/* Assert the last answer is a problem of this status whose type ends
 * in slug, for request "test-id"; returns its body (as apitest_json). */
json_t *apitest_problem(struct apitest *t, unsigned status,
                        const char *slug);
/* o's string member key, or "" (never NULL). */
const char *apitest_str(const json_t *o, const char *key);

#endif
