/*
 * test_api_keys.c - API keys (issue 29 item 5), on plain strings: the
 * keys file (hashed keys, limits, errors with their line), who a request
 * is (no header, a key, a wrong key: 401), and what a key may do with
 * jobs: its own and the anonymous ones by id, an operator all; listing
 * only its own (anonymous listing refused unless switched on); its jobs
 * and requests-a-minute caps (429), and (issue 42 item 3) its rpm and
 * streams caps counted across two instances sharing one Redis.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "api.h"
#include "api_keys.h"
#include "jobs.h"
#include "jobsvc.h"
#include "store.h"
#include "support/apitest.h"
#include "support/tredis.h"
#include "support/wait.h"

struct fixture {
    struct apitest t;
    jobsvc *svc;
    api_keys *keys;
    char path[64];
};

/* A keys file with these lines; its path into path. */
static void write_keys(char *path, size_t size, const char *text)
{
    FILE *f;

    snprintf(path, size, "/tmp/puzzled-keys-%d", (int)getpid());
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char alice[65], bob[65], op[65];

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    struct jobs_config jc;
    char text[1024], h[3][65], msg[PUZ_MSG_MAX];

    api_keys_new_token(alice);
    api_keys_new_token(bob);
    api_keys_new_token(op);
    api_keys_hash_hex(alice, h[0]);
    api_keys_hash_hex(bob, h[1]);
    api_keys_hash_hex(op, h[2]);
    snprintf(text, sizeof(text), "# who may call\nalice %s jobs=1 rpm=1000\n"
             "\nbob %s streams=2 rpm=3   # a comment\nops %s operator\n",
             h[0], h[1], h[2]);
    write_keys(f->path, sizeof(f->path), text);
    assert_int_equal(api_keys_load(f->path, &f->keys, msg), PUZ_OK);
    unlink(f->path);
    apitest_init(&f->t);
    jc = (struct jobs_config){ .workers = 1, .queue = 8, .ttl_s = 3600,
                               .max = 100, .results_max_bytes = 1u << 20 };
    assert_int_equal(jobsvc_create_embedded(&jc, api_jobs_run, &f->t.ctx,
                                            &f->svc), PUZ_OK);
    f->t.ctx.jobs = f->svc;
    f->t.ctx.keys = f->keys;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;

    jobsvc_destroy(f->svc);
    api_keys_free(f->keys);
    apitest_fini(&f->t);
    free(f);
    return 0;
}

/* method path with body, as the holder of token (NULL: no header). */
static const struct api_answer *call(struct fixture *f, const char *method,
                                     const char *path, const char *token,
                                     const char *body)
{
    static char auth[200];

    snprintf(auth, sizeof(auth), "Bearer %s", token != NULL ? token : "");
    f->t.authorization = token != NULL ? auth : NULL;
    return apitest_call(&f->t, method, path, NULL, body);
}

/* Submit as token; the job's id into id. */
static void submit(struct fixture *f, const char *token, const char *b,
                   char *id)
{
    const struct api_answer *an = call(f, "POST", "/v1/jobs", token, b);

    if (an->status != 202)
        fail_msg("submit: %u %.*s", an->status, (int)an->len, an->body);
    snprintf(id, 33, "%s", apitest_str(apitest_json(&f->t), "id"));
}

static unsigned get_status(struct fixture *f, const char *id,
                           const char *token)
{
    char path[64];

    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    return call(f, "GET", path, token, NULL)->status;
}

static size_t list_count(struct fixture *f, const char *token)
{
    assert_int_equal(call(f, "GET", "/v1/jobs", token, NULL)->status, 200);
    return json_array_size(json_object_get(apitest_json(&f->t), "jobs"));
}

static void test_keys_file(void **state)
{
    static const char *const bad[] = {
        "alice 123\n",                                   /* short hash */
        "al ice " "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n",
        "bob 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef "
        "jobs=x\n",
        "a 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
        "a 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n",
    };
    struct fixture *f = *state;
    char path[64], msg[PUZ_MSG_MAX];
    api_keys *k = NULL;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        write_keys(path, sizeof(path), bad[i]);
        assert_int_equal(api_keys_load(path, &k, msg), PUZ_EINVAL);
        assert_null(k);
        assert_non_null(strstr(msg, "line"));
        unlink(path);
    }
    assert_int_equal(api_keys_load("/nonexistent/keys", &k, msg), PUZ_EIO);
    assert_int_equal(api_keys_count(f->keys), 3);
    assert_non_null(api_keys_find(f->keys, alice));
    assert_string_equal(api_keys_find(f->keys, op)->name, "ops");
    assert_true(api_keys_find(f->keys, op)->operator);
    assert_null(api_keys_find(f->keys, "not-a-key"));
    assert_null(api_keys_find(f->keys, ""));
}

static void test_who_asks(void **state)
{
    struct fixture *f = *state;
    const struct api_answer *an;

    assert_int_equal(call(f, "GET", "/v1/catalog", NULL, NULL)->status, 200);
    assert_int_equal(call(f, "GET", "/v1/catalog", alice, NULL)->status,
                     200);
    an = call(f, "GET", "/v1/catalog", "wrong", NULL);
    assert_int_equal(an->status, 401);
    assert_int_equal(an->nheaders, 1);
    assert_string_equal(an->headers[0].name, "WWW-Authenticate");
    /* rpm=3: the fourth request of the minute is 429 with Retry-After
     * (at a minute's edge the count starts again: allow one more) */
    for (int i = 0; i < 3; i++)
        call(f, "GET", "/v1/catalog", bob, NULL);
    an = call(f, "GET", "/v1/catalog", bob, NULL);
    if (an->status == 200)
        an = call(f, "GET", "/v1/catalog", bob, NULL);
    assert_int_equal(an->status, 429);
    assert_string_equal(an->headers[0].name, "Retry-After");
}

static void test_jobs_belong_to_keys(void **state)
{
    struct fixture *f = *state;
    char mine[33], anon[33], path[64];

    submit(f, alice, APITEST_QUICK_BODY, mine);
    submit(f, NULL, APITEST_QUICK_BODY, anon);
    /* a key's job: that key and the operator, nobody else */
    assert_int_equal(get_status(f, mine, alice), 200);
    assert_int_equal(get_status(f, mine, op), 200);
    assert_int_equal(get_status(f, mine, NULL), 404);
    assert_int_equal(get_status(f, mine, bob), 404);
    snprintf(path, sizeof(path), "/v1/jobs/%s", mine);
    assert_int_equal(call(f, "DELETE", path, bob, NULL)->status, 404);
    /* an anonymous job: whoever has its id */
    assert_int_equal(get_status(f, anon, bob), 200);
    assert_int_equal(get_status(f, anon, NULL), 200);
    /* lists: one's own; the operator's everyone's; anonymous refused */
    assert_int_equal(list_count(f, alice), 1);
    assert_int_equal(list_count(f, op), 2);
    assert_int_equal(call(f, "GET", "/v1/jobs", NULL, NULL)->status, 401);
    f->t.ctx.jobs_list_anonymous = true;
    assert_int_equal(list_count(f, NULL), 1);   /* the anonymous one */
    f->t.ctx.jobs_list_anonymous = false;
    f->t.ctx.keys = NULL;     /* no keys at all: 403, not 401 */
    assert_int_equal(call(f, "GET", "/v1/jobs", NULL, NULL)->status, 403);
    f->t.ctx.keys = f->keys;
}

static void test_key_job_cap(void **state)
{
    struct fixture *f = *state;
    char first[33], path[64];

    submit(f, alice, APITEST_LONG_BODY, first);     /* jobs=1 */
    assert_int_equal(call(f, "POST", "/v1/jobs", alice,
                          APITEST_LONG_BODY)->status, 429);
    /* other keys and anonymous callers are not held by alice's cap */
    assert_int_equal(call(f, "POST", "/v1/jobs", op,
                          APITEST_QUICK_BODY)->status, 202);
    snprintf(path, sizeof(path), "/v1/jobs/%s", first);
    assert_int_equal(call(f, "DELETE", path, alice, NULL)->status, 200);
    assert_int_equal(call(f, "POST", "/v1/jobs", alice,
                          APITEST_QUICK_BODY)->status, 202);
}

/* An Idempotency-Key is the key holder's: alice's replay is her first
 * job even at her cap (jobs=1: a replay makes nothing), from another
 * address too; the operator's same key and body are a job of its own. */
static void test_idem_scoped_to_key(void **state)
{
    struct fixture *f = *state;
    char first[33], again[33];

    f->t.idempotency_key = "\"retry-me\"";
    submit(f, alice, APITEST_LONG_BODY, first);     /* jobs=1 */
    f->t.client = "198.51.100.9";
    submit(f, alice, APITEST_LONG_BODY, again);
    assert_string_equal(again, first);
    assert_string_equal(apitest_header(&f->t, "Idempotent-Replayed"),
                        "true");
    submit(f, op, APITEST_LONG_BODY, again);
    assert_string_not_equal(again, first);
    assert_null(apitest_header(&f->t, "Idempotent-Replayed"));
}

/* One instance's sync (keysync.c's step): its use in, the others' out. */
static void sync_keys(api_keys *k, store *st, const char *inst,
                      uint64_t now)
{
    struct store_key_use use[4];
    size_t n = api_keys_use_collect(k, now, use, 4);
    char msg[PUZ_MSG_MAX];

    if (store_key_use_sync(st, inst, (int64_t)now, use, n, msg) != PUZ_OK)
        fail_msg("store_key_use_sync: %s", msg);
    api_keys_use_apply(k, now, use, n);
}

struct keys_sync {
    api_keys *k;
    store *st;
    const char *inst;
    uint64_t now;
};

/* One more sync of inst; true once no other instance holds a stream of
 * carol's. */
static bool streams_gone(void *arg)
{
    struct keys_sync *ks = arg;

    sync_keys(ks->k, ks->st, ks->inst, ks->now);
    return api_keys_streams_elsewhere(ks->k, "carol") == 0;
}

/* How many of n requests of key at at_ms pass (retry: the last one's). */
static unsigned taken(api_keys *k, const struct api_key *key, uint64_t at_ms,
                      unsigned n, unsigned *retry)
{
    unsigned ok = 0;

    for (unsigned i = 0; i < n; i++)
        ok += api_keys_take_request(k, key, at_ms, retry);
    return ok;
}

/* rpm=N is a sliding minute: ten requests in a minute's last second
 * leave room for one more in the next minute's first second, not ten
 * (a calendar minute let 2N through across its edge: shared_keys.sh saw
 * 15 and 18 of 20 with rpm=10 when its run crossed a minute), the room
 * grows as that minute slides out of the window, Retry-After says when
 * the next request passes, and a minute with no minute before it is a
 * plain N. */
static void test_rpm_sliding_minute(void **state)
{
    char text[256], h[65], path[64], msg[PUZ_MSG_MAX], tok[65];
    const uint64_t m = UINT64_C(29000000) * 60000;     /* a minute's start */
    const struct api_key *key;
    api_keys *k = NULL;
    unsigned retry;

    (void)state;
    api_keys_new_token(tok);
    api_keys_hash_hex(tok, h);
    snprintf(text, sizeof(text), "dave %s rpm=10\n", h);
    write_keys(path, sizeof(path), text);
    assert_int_equal(api_keys_load(path, &k, msg), PUZ_OK);
    unlink(path);
    key = api_keys_find(k, tok);
    assert_non_null(key);
    assert_int_equal(taken(k, key, m + 59500, 10, &retry), 10);
    assert_false(api_keys_take_request(k, key, m + 59600, &retry));
    /* 0.5 s into the next minute the last one still weighs 9.92 */
    assert_int_equal(taken(k, key, m + 60500, 10, &retry), 1);
    /* 10 * 54/60 + 1 < 10 from 6.001 s on */
    assert_int_equal(retry, 6);
    assert_false(api_keys_take_request(k, key, m + 65900, &retry));
    assert_true(api_keys_take_request(k, key, m + 66100, &retry));
    /* half way: 10 * 30/60 + cur < 10 while cur < 5 (2 taken: 3 more) */
    assert_int_equal(taken(k, key, m + 90000, 10, &retry), 3);
    /* a second into the minute after (5 in the one before):
     * 5 * 59/60 + cur < 10 while cur < 6 */
    assert_int_equal(taken(k, key, m + 121000, 10, &retry), 6);
    /* an idle minute between: nothing weighs */
    assert_int_equal(taken(k, key, m + 241000, 12, &retry), 10);
    api_keys_free(k);
}

/* Issue 42 item 3: with a shared store a key's rpm=10 and streams=2
 * hold across two instances (two tables, two stores, one Redis of the
 * test's own); before, each instance counted its own (20 requests a
 * minute, 4 streams). An instance that stops syncing stops counting
 * after STORE_KEY_USE_TTL_MS. */
static void test_key_caps_across_instances(void **state)
{
    char text[256], h[65], path[64], url[160], msg[PUZ_MSG_MAX], tok[65];
    api_keys *a = NULL, *b = NULL;
    store *sa = NULL, *sb = NULL;
    struct store_options o = { .redis_url = url, .redis_prefix = "kc:",
                               .timeout_ms = 500 };
    const uint64_t now = UINT64_C(29000000) * 60000 + 1000;
    unsigned retry, ok = 0;
    struct keys_sync ks;

    (void)state;
    if (tredis_start(url, sizeof(url)) != 0)
        fail_msg("redis-server cannot be started (make test installs it)");
    api_keys_new_token(tok);
    api_keys_hash_hex(tok, h);
    snprintf(text, sizeof(text), "carol %s streams=2 rpm=10\n", h);
    write_keys(path, sizeof(path), text);
    assert_int_equal(api_keys_load(path, &a, msg), PUZ_OK);
    assert_int_equal(api_keys_load(path, &b, msg), PUZ_OK);
    unlink(path);
    assert_int_equal(store_start(&o, &sa, msg), PUZ_OK);
    assert_int_equal(store_start(&o, &sb, msg), PUZ_OK);
    assert_true(store_ready(sa, msg) && store_ready(sb, msg));
    for (int i = 0; i < 6; i++)
        assert_true(api_keys_take_request(a, api_keys_find(a, tok), now,
                                          &retry));
    sync_keys(a, sa, "A", now);
    sync_keys(b, sb, "B", now);
    for (int i = 0; i < 8; i++)
        ok += api_keys_take_request(b, api_keys_find(b, tok), now, &retry);
    assert_int_equal(ok, 4);
    assert_true(retry > 0);
    sync_keys(b, sb, "B", now);
    sync_keys(a, sa, "A", now);
    assert_false(api_keys_take_request(a, api_keys_find(a, tok), now,
                                       &retry));
    /* The next minute starts afresh. */
    assert_true(api_keys_take_request(a, api_keys_find(a, tok),
                                      now + 60000, &retry));
    /* Streams: two open on A are B's to count. */
    api_keys_stream_count(a, "carol", 1);
    api_keys_stream_count(a, "carol", 1);
    sync_keys(a, sa, "A", now);
    sync_keys(b, sb, "B", now);
    assert_int_equal(api_keys_streams_elsewhere(b, "carol"), 2);
    assert_int_equal(api_keys_streams_elsewhere(a, "carol"), 0);
    api_keys_stream_count(a, "carol", -1);
    sync_keys(a, sa, "A", now);
    sync_keys(b, sb, "B", now);
    assert_int_equal(api_keys_streams_elsewhere(b, "carol"), 1);
    /* A dies (no more syncs): its stream stops counting once Redis
     * expires A's count (PX STORE_KEY_USE_TTL_MS, on Redis's own clock,
     * which no test can move): B syncs until it sees that. */
    ks = (struct keys_sync){ b, sb, "B", now };
    assert_true(wait_until(streams_gone, &ks, STORE_KEY_USE_TTL_MS + 5000));
    assert_int_equal(api_keys_streams_elsewhere(b, "carol"), 0);
    store_close(sa);
    store_close(sb);
    api_keys_free(a);
    api_keys_free(b);
    tredis_stop();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_keys_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_who_asks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_jobs_belong_to_keys, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_key_job_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_idem_scoped_to_key, setup,
                                        teardown),
        cmocka_unit_test(test_rpm_sliding_minute),
        cmocka_unit_test(test_key_caps_across_instances),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
