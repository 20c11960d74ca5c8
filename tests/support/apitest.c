/*
 * apitest.c - the API suites' shared fixture (see apitest.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "apitest.h"
#include "tables3.h"

void apitest_init(struct apitest *t)
{
    memset(t, 0, sizeof(*t));
    api_limits_defaults(&t->lim);
    t->ctx.lim = &t->lim;
    t->ctx.draining = &t->draining;
    t->ctx.counter = &t->counter;
    t->client = "127.0.0.1";
    t->arena = puz_arena_create(1 << 16);
    assert_non_null(t->arena);
}

void apitest_fini(struct apitest *t)
{
    json_decref(t->json);
    t->json = NULL;
    puz_arena_destroy(t->arena);
    t->arena = NULL;
}

void apitest_use_tables3(struct apitest *t)
{
    struct puz_board goal;

    assert_non_null(test_tables3);
    puz_board_goal(3, &goal);
    t->ctx.tables = test_tables3;
    t->ctx.table3 = puz_tables_table3(test_tables3, &goal);
}

int apitest_setup(void **state)
{
    struct apitest *t = malloc(sizeof(*t));

    if (t == NULL)
        return -1;
    apitest_init(t);
    *state = t;
    return 0;
}

int apitest_teardown(void **state)
{
    apitest_fini(*state);
    free(*state);
    return 0;
}

/* Split t->query ("k=v&k2") into t->params, in place. */
static size_t split_query(struct apitest *t)
{
    char *save = NULL;
    size_t n = 0;

    for (char *kv = strtok_r(t->query, "&", &save);
         kv != NULL && n < APITEST_QUERY_MAX;
         kv = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(kv, '=');

        if (eq != NULL)
            *eq = '\0';
        t->params[n].key = kv;
        t->params[n++].value = eq != NULL ? eq + 1 : NULL;
    }
    return n;
}

const struct api_route *apitest_prepare(struct apitest *t,
                                        const char *method, const char *path,
                                        const char *query, const char *body)
{
    struct api_request rq = { .id = "test-id" };
    const struct api_route *rt;

    snprintf(t->path, sizeof(t->path), "%s", path);
    snprintf(t->query, sizeof(t->query), "%s", query != NULL ? query : "");
    rt = api_route_find(method, t->path, &rq.params);
    if (rt == NULL)
        fail_msg("no route takes %s %s", method, path);
    rq.path = t->path;
    rq.client = t->client;
    rq.authorization = t->authorization;
    rq.idempotency_key = t->idempotency_key;
    rq.traceparent = t->traceparent;
    rq.query = t->params;
    rq.nquery = split_query(t);
    rq.body = body;
    rq.len = body != NULL ? strlen(body) : 0;
    puz_arena_reset(t->arena);
    api_call_init(&t->call, &t->ctx, &rq, t->arena);
    return rt;
}

const struct api_answer *apitest_call(struct apitest *t, const char *method,
                                      const char *path, const char *query,
                                      const char *body)
{
    api_run(apitest_prepare(t, method, path, query, body), &t->call);
    return &t->call.answer;
}

json_t *apitest_json(struct apitest *t)
{
    const struct api_answer *an = &t->call.answer;
    json_error_t e;

    json_decref(t->json);
    t->json = json_loadb(an->body, an->len, 0, &e);
    if (t->json == NULL)
        fail_msg("%u, not JSON (%s): %.*s", an->status, e.text,
                 (int)an->len, an->body != NULL ? an->body : "");
    return t->json;
}

const char *apitest_header(const struct apitest *t, const char *name)
{
    const struct api_answer *an = &t->call.answer;

    for (unsigned i = 0; i < an->nheaders; i++)
        if (strcmp(an->headers[i].name, name) == 0)
            return an->headers[i].value;
    return NULL;
}

json_t *apitest_problem(struct apitest *t, unsigned status,
                        const char *slug)
{
    const struct api_answer *an = &t->call.answer;
    json_t *j = apitest_json(t);
    const char *type = apitest_str(j, "type");
    size_t n = strlen(type), k = strlen(slug);

    if (an->status != status || n < k || strcmp(type + n - k, slug) != 0)
        fail_msg("want %u ...%s, got %u %.*s", status, slug, an->status,
                 (int)an->len, an->body);
    assert_string_equal(an->content_type, "application/problem+json");
    assert_string_equal(apitest_str(j, "request_id"), "test-id");
    return j;
}

const char *apitest_str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));

    return s != NULL ? s : "";
}
