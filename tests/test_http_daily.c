/*
 * test_http_daily.c - the daily puzzle over real HTTP, for what the
 * string tests (test_api_daily.c) cannot see: the templated paths
 * routed by the glue (405 with Allow on the wrong method, HEAD), the
 * client's address taken from the socket for the rate limit with its
 * Retry-After header, a restarted server keeping the leaderboard in its
 * state directory, and a store that cannot be used (a directory that
 * cannot be made, a garbage file, the file deleted while running) never
 * stopping the service: /readyz says why, the daily routes answer 503
 * and solves go on (issue 29 item 8). Issue 31: entries carry a start
 * token from POST .../start; the same nickname again is a 200 with
 * improved false, a spent token a 409. Issue 45: POST .../finish stops
 * the clock, the token alone names the run afterwards; an untimed entry
 * has no token; ?nickname= (percent-encoded) adds that player's
 * standing. Responses are recorded for the OpenAPI check.
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

#include "store.h"
#include "support/htest.h"

#define DAY_ROUTE "/v1/daily/{date}/{size}"
#define ENTRY_ROUTE "/v1/daily/{date}/{size}/entries"
#define START_ROUTE "/v1/daily/{date}/{size}/start"
#define FINISH_ROUTE "/v1/daily/{date}/{size}/finish"

static char dir[64];

/* A server with a store; floor_ms the daily's move floor (these tests
 * enter at once, so most turn it off). */
static http_server *start_floor(unsigned floor_ms)
{
    struct http_config c;

    htest_config(&c);
    snprintf(c.state_dir, sizeof(c.state_dir), "%s/state", dir);
    c.daily_move_floor_ms = floor_ms;
    return htest_start(&c);
}

static http_server *start(void)
{
    return start_floor(0);
}

static int setup(void **state)
{
    snprintf(dir, sizeof(dir), "/tmp/puzzled-hdaily-XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    *state = start();
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];

    http_server_destroy(*state);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static json_t *get_day(http_server *s, const char *path)
{
    struct htest_req rq = { .path = path, .route = DAY_ROUTE };
    struct htest_resp r;
    json_t *j;

    assert_int_equal(htest_do(s, &rq, &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    htest_resp_free(&r);
    return j;
}

/* A start token of today's 3x3 from POST .../start (a heap string). */
static char *start_token(http_server *s)
{
    struct htest_req rq = { .method = "POST", .route = START_ROUTE,
                            .path = "/v1/daily/today/3/start" };
    struct htest_resp r;
    json_t *j;
    char *tok;

    assert_int_equal(htest_do(s, &rq, &r), 0);
    assert_int_equal(r.status, 201);
    j = htest_json(&r);
    tok = strdup(json_string_value(json_object_get(j, "token")));
    assert_int_equal(strlen(tok), STORE_TOKEN_HEX);
    json_decref(j);
    htest_resp_free(&r);
    return tok;
}

/* The day's 3x3 board solved by the server's own solver; the entry body
 * for nick with those moves and a fresh start token (a heap string). */
static char *honest_entry(http_server *s, const char *nick)
{
    char *tok = start_token(s);
    json_t *day = get_day(s, "/v1/daily/today/3"), *sol, *body;
    char *req, *out;
    struct htest_resp r;

    body = json_pack("{s:O}", "board", json_object_get(day, "board"));
    req = json_dumps(body, 0);
    assert_int_equal(htest_post(s, "/v1/solve", req, &r), 0);
    assert_int_equal(r.status, 200);
    sol = htest_json(&r);
    htest_resp_free(&r);
    json_decref(body);
    free(req);
    body = json_pack("{s:s, s:O, s:s, s:b}", "nickname", nick, "moves",
                     json_object_get(sol, "moves"), "token", tok, "help",
                     0);
    free(tok);
    out = json_dumps(body, 0);
    json_decref(body);
    json_decref(sol);
    json_decref(day);
    return out;
}

static long post_entry(http_server *s, const char *body,
                       struct htest_resp *r)
{
    struct htest_req rq = { .method = "POST", .route = ENTRY_ROUTE,
                            .path = "/v1/daily/today/3/entries",
                            .body = body };

    assert_int_equal(htest_do(s, &rq, r), 0);
    return r->status;
}

static void test_entry_then_flood_from_this_address(void **state)
{
    char *body = honest_entry(*state, "ada"), nick[16];
    struct htest_resp r;
    char retry[16];
    json_t *j, *me;

    assert_int_equal(post_entry(*state, body, &r), 201);
    j = htest_json(&r);
    assert_int_equal(json_integer_value(json_object_get(j, "rank")), 1);
    json_decref(j);
    htest_resp_free(&r);
    free(body);
    for (int i = 1; i < STORE_RATE_MAX; i++) {
        snprintf(nick, sizeof(nick), "ada%d", i);
        body = honest_entry(*state, nick);
        assert_int_equal(post_entry(*state, body, &r), 201);
        htest_resp_free(&r);
        free(body);
    }
    body = honest_entry(*state, "one too many");
    assert_int_equal(post_entry(*state, body, &r), 429);
    json_decref(htest_problem(&r, 429, "rate-limited"));
    assert_non_null(htest_header(&r, "Retry-After", retry, sizeof(retry)));
    assert_string_equal(retry, "60");
    htest_resp_free(&r);
    free(body);
    /* A player's standing: "ADA" is ada's entry; a nickname with a
     * space comes percent-encoded (none entered as it: null). */
    j = get_day(*state, "/v1/daily/today/3?limit=1&nickname=ADA");
    me = json_object_get(j, "standing");
    assert_string_equal(json_string_value(json_object_get(me, "nickname")),
                        "ada");
    assert_int_equal(json_integer_value(json_object_get(me,
                     "total_entries")), STORE_RATE_MAX);
    assert_true(json_integer_value(json_object_get(me, "rank")) >= 1);
    json_decref(j);
    j = get_day(*state, "/v1/daily/today/3?nickname=one%20too%20many");
    assert_true(json_is_null(json_object_get(j, "standing")));
    json_decref(j);
}

/* Issue 44 finding 2 over HTTP: with the shipped move floor an entry
 * right after its start (a solver bot's) is a 422 problem that says
 * why, and the board stays empty. */
static void test_bot_entry_not_ranked(void **state)
{
    char *body;
    struct htest_resp r;
    json_t *j;

    http_server_destroy(*state);
    *state = start_floor(STORE_MOVE_FLOOR_MS);
    body = honest_entry(*state, "bot");
    assert_int_equal(post_entry(*state, body, &r), 422);
    j = htest_problem(&r, 422, "invalid-request");
    assert_non_null(strstr(json_string_value(json_object_get(j, "detail")),
                           "faster than a person"));
    json_decref(j);
    htest_resp_free(&r);
    free(body);
    j = get_day(*state, "/v1/daily/today/3");
    assert_int_equal(json_integer_value(json_object_get(j, "total_entries")),
                     0);
    json_decref(j);
}

static void test_forged_entry_is_a_problem(void **state)
{
    struct htest_resp r;

    assert_int_equal(post_entry(*state, "{\"nickname\":\"eve\",\"moves\":"
                                "[\"up\",\"up\",\"up\",\"up\"],"
                                "\"token\":\"0123456789abcdef0123456789abcdef\","
                                "\"help\":false}", &r), 422);
    json_decref(htest_problem(&r, 422, "invalid-solution"));
    htest_resp_free(&r);
}

/* Issue 31 defect 4 over HTTP: the same nickname again with a run no
 * better is a 200 (improved: false); a spent token a 409. */
static void test_same_nickname_and_spent_token(void **state)
{
    char *body = honest_entry(*state, "bea"), *again;
    struct htest_resp r;
    json_t *j;

    assert_int_equal(post_entry(*state, body, &r), 201);
    htest_resp_free(&r);
    assert_int_equal(post_entry(*state, body, &r), 409);
    j = htest_problem(&r, 409, "conflict");
    assert_string_equal(json_string_value(json_object_get(j, "pointer")),
                        "/token");
    json_decref(j);
    htest_resp_free(&r);
    /* Two moves longer (up and back down at the goal): no better. */
    again = honest_entry(*state, "BEA");
    j = json_loads(again, 0, NULL);
    json_array_append_new(json_object_get(j, "moves"), json_string("up"));
    json_array_append_new(json_object_get(j, "moves"), json_string("down"));
    free(again);
    again = json_dumps(j, 0);
    json_decref(j);
    assert_int_equal(post_entry(*state, again, &r), 200);
    j = htest_json(&r);
    assert_true(json_is_false(json_object_get(j, "improved")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(
        j, "best"), "nickname")), "bea");
    json_decref(j);
    htest_resp_free(&r);
    free(again);
    free(body);
}

static long post_finish(http_server *s, const char *body,
                        struct htest_resp *r)
{
    struct htest_req rq = { .method = "POST", .route = FINISH_ROUTE,
                            .path = "/v1/daily/today/3/finish",
                            .body = body };

    assert_int_equal(htest_do(s, &rq, r), 0);
    return r->status;
}

/* Issue 45 over HTTP: the finish (201, then 200 for a retry), the name
 * by the token alone timed to the finish, the refusals of both, and an
 * untimed entry. */
static void test_finish_then_name(void **state)
{
    char *entry = honest_entry(*state, "cai"), *finish, *name, *untimed;
    json_t *j = json_loads(entry, 0, NULL), *a;
    struct htest_resp r;
    json_int_t ms;

    a = json_pack("{s:s, s:O}", "nickname", "cai", "token",
                  json_object_get(j, "token"));
    name = json_dumps(a, 0);
    json_decref(a);
    json_object_del(j, "nickname");
    finish = json_dumps(j, 0);
    json_object_del(j, "token");
    json_object_set_new(j, "nickname", json_string("nostart"));
    json_object_set_new(j, "untimed", json_true());
    untimed = json_dumps(j, 0);
    json_decref(j);
    assert_int_equal(post_entry(*state, name, &r), 409);    /* unfinished */
    json_decref(htest_problem(&r, 409, "conflict"));
    htest_resp_free(&r);
    assert_int_equal(post_finish(*state, finish, &r), 201);
    a = htest_json(&r);
    ms = json_integer_value(json_object_get(a, "time_ms"));
    json_decref(a);
    htest_resp_free(&r);
    assert_int_equal(post_finish(*state, finish, &r), 200);
    htest_resp_free(&r);
    assert_int_equal(post_entry(*state, entry, &r), 409);   /* finished */
    json_decref(htest_problem(&r, 409, "conflict"));
    htest_resp_free(&r);
    assert_int_equal(post_entry(*state, name, &r), 201);
    a = htest_json(&r);
    assert_int_equal(json_integer_value(json_object_get(a, "time_ms")), ms);
    json_decref(a);
    htest_resp_free(&r);
    assert_int_equal(post_entry(*state, untimed, &r), 201);
    a = htest_json(&r);
    assert_true(json_is_true(json_object_get(a, "untimed")));
    assert_int_equal(json_integer_value(json_object_get(a, "rank")), 2);
    json_decref(a);
    htest_resp_free(&r);
    assert_int_equal(post_finish(*state, "{\"moves\":[\"up\"]}", &r), 422);
    json_decref(htest_problem(&r, 422, "invalid-request"));
    htest_resp_free(&r);
    assert_int_equal(post_finish(*state, "{\"moves\":", &r), 400);
    htest_resp_free(&r);
    free(entry);
    free(finish);
    free(name);
    free(untimed);
}

/* The other refusals, recorded for the OpenAPI check. */
static void test_refusals_are_problems(void **state)
{
    struct htest_req future = { .path = "/v1/daily/2999-01-01/3",
                                .route = DAY_ROUTE },
                     limit = { .path = "/v1/daily/today/3?limit=0",
                               .route = DAY_ROUTE },
                     nick = { .path = "/v1/daily/today/3?nickname=%3Cb%3E",
                              .route = DAY_ROUTE },
                     closed = { .method = "POST", .route = ENTRY_ROUTE,
                                .path = "/v1/daily/2001-01-01/3/entries",
                                .body = "{\"nickname\":\"x\",\"moves\":"
                                        "[\"up\"],\"token\":\"0123456789ab"
                                        "cdef0123456789abcdef\",\"help\":"
                                        "false}" };
    struct htest_resp r;
    json_t *j;

    assert_int_equal(htest_do(*state, &future, &r), 0);
    json_decref(htest_problem(&r, 404, "not-found"));
    htest_resp_free(&r);
    assert_int_equal(htest_do(*state, &limit, &r), 0);
    json_decref(htest_problem(&r, 400, "invalid-query"));
    htest_resp_free(&r);
    assert_int_equal(htest_do(*state, &nick, &r), 0);
    json_decref(htest_problem(&r, 400, "invalid-query"));
    htest_resp_free(&r);
    assert_int_equal(htest_do(*state, &closed, &r), 0);
    json_decref(htest_problem(&r, 409, "conflict"));
    htest_resp_free(&r);
    assert_int_equal(post_entry(*state, "{\"nickname\":", &r), 400);
    htest_resp_free(&r);
    /* The client's time is no longer taken (issue 31): said where. */
    assert_int_equal(post_entry(*state, "{\"nickname\":\"x\",\"moves\":"
                                "[\"up\"],\"time_ms\":0}", &r), 422);
    j = htest_problem(&r, 422, "invalid-request");
    assert_string_equal(json_string_value(json_object_get(j, "pointer")),
                        "/time_ms");
    json_decref(j);
    htest_resp_free(&r);
}

/* state_dir = off: the board still comes, entries are a 501. */
static void test_server_without_store(void **state)
{
    struct http_config c;
    http_server *s;
    struct htest_resp r;
    json_t *day;

    (void)state;
    htest_config(&c);
    s = htest_start(&c);
    day = get_day(s, "/v1/daily/today/3");
    assert_true(json_is_false(json_object_get(day, "leaderboard")));
    json_decref(day);
    assert_int_equal(post_entry(s, "{\"nickname\":\"x\",\"moves\":"
                                "[\"up\"],\"token\":\"0123456789abcdef01"
                                "23456789abcdef\",\"help\":false}", &r),
                     501);
    json_decref(htest_problem(&r, 501, "not-implemented"));
    htest_resp_free(&r);
    http_server_destroy(s);
}

static void test_methods_and_head(void **state)
{
    struct htest_req get = { .path = "/v1/daily/today/3/entries",
                             .route = ENTRY_ROUTE },
                     head = { .method = "HEAD", .path = "/v1/daily/today/4",
                              .route = DAY_ROUTE, .no_record = true };
    struct htest_resp r;
    char allow[32];

    assert_int_equal(htest_do(*state, &get, &r), 0);
    json_decref(htest_problem(&r, 405, "method-not-allowed"));
    assert_non_null(htest_header(&r, "Allow", allow, sizeof(allow)));
    assert_non_null(strstr(allow, "POST"));
    htest_resp_free(&r);
    assert_int_equal(htest_do(*state, &head, &r), 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.len, 0);
    htest_resp_free(&r);
}

static void test_restart_keeps_the_leaderboard(void **state)
{
    char *body = honest_entry(*state, "still here");
    struct htest_resp r;
    json_t *day;

    assert_int_equal(post_entry(*state, body, &r), 201);
    htest_resp_free(&r);
    free(body);
    http_server_destroy(*state);
    *state = start();
    day = get_day(*state, "/v1/daily/today/3");
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(day, "entries"), 0), "nickname")), "still here");
    json_decref(day);
}

/* The store is not ready: /readyz says so and why, the day's page and
 * entries answer 503 unavailable with Retry-After, solves go on. */
static void assert_store_down(http_server *s, const char *why)
{
    struct htest_req day = { .path = "/v1/daily/today/3",
                             .route = DAY_ROUTE };
    struct htest_resp r;
    char retry[16];
    json_t *j;

    assert_int_equal(htest_get(s, "/readyz", &r), 0);
    assert_int_equal(r.status, 503);
    j = htest_json(&r);
    assert_true(json_is_false(json_object_get(json_object_get(j, "checks"),
                                              "store")));
    assert_non_null(strstr(json_string_value(json_object_get(
        json_object_get(j, "checks"), "store_error")), why));
    json_decref(j);
    htest_resp_free(&r);
    assert_int_equal(htest_do(s, &day, &r), 0);
    json_decref(htest_problem(&r, 503, "unavailable"));
    assert_non_null(htest_header(&r, "Retry-After", retry, sizeof(retry)));
    htest_resp_free(&r);
    assert_int_equal(post_entry(s, "{\"nickname\":\"x\",\"moves\":"
                                "[\"up\"],\"token\":\"0123456789abcdef01"
                                "23456789abcdef\",\"help\":false}", &r),
                     503);
    htest_resp_free(&r);
    assert_int_equal(htest_post(s, "/v1/solve", "{\"board\":"
                                "\"1 2 3 4 5 6 7 0 8\"}", &r), 0);
    assert_int_equal(r.status, 200);
    htest_resp_free(&r);
}

static bool readyz_ok(void *arg)
{
    struct htest_resp r;

    assert_int_equal(htest_get(arg, "/readyz", &r), 0);
    htest_resp_free(&r);
    return r.status == 200;
}

/* Waits (up to 8 s: the store's backoff is at most 5 s) for /readyz. */
static void wait_ready(http_server *s)
{
    if (!wait_until(readyz_ok, s, 8000))
        fail_msg("the store did not come back");
}

/* Issue 29 item 8: a state directory that cannot be made no longer
 * stops the whole service (it used to: exit 1, a crash loop). */
static void test_unusable_state_dir_serves_the_rest(void **state)
{
    struct http_config c;
    http_server *s = NULL;
    char msg[HTTP_SERVER_MSG];

    (void)state;
    htest_config(&c);
    snprintf(c.state_dir, sizeof(c.state_dir), "/proc/no-such/puzzled");
    assert_int_equal(http_server_start(&c, &s, msg), PUZ_OK);
    assert_store_down(s, "/proc/no-such/puzzled");
    http_server_destroy(s);
}

/* A garbage puzzled.db: the rest serves; the store comes back once the
 * file is put right, without a restart. */
static void test_garbage_store_file_serves_the_rest(void **state)
{
    char path[160], cmd[200];
    FILE *f;

    http_server_destroy(*state);
    snprintf(path, sizeof(path), "%s/state/%s", dir, STORE_FILE);
    snprintf(cmd, sizeof(cmd), "rm -f '%s'*", path);
    assert_int_equal(system(cmd), 0);
    f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < 512; i++)
        fputs("not a database. ", f);
    fclose(f);
    *state = start();
    assert_non_null(*state);
    assert_store_down(*state, "not a database");
    assert_int_equal(unlink(path), 0);
    wait_ready(*state);
    json_decref(get_day(*state, "/v1/daily/today/3"));
}

/* The file deleted under a running server: the next entry is not
 * acknowledged (it went into a deleted file), readiness says so, and a
 * new file is made. */
static void test_deleted_store_file_not_acknowledged(void **state)
{
    char *body = honest_entry(*state, "before"),
         *during = honest_entry(*state, "during"), *after;
    char cmd[200];
    struct htest_resp r;

    assert_int_equal(post_entry(*state, body, &r), 201);
    htest_resp_free(&r);
    snprintf(cmd, sizeof(cmd), "rm -f '%s/state/%s'*", dir, STORE_FILE);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(post_entry(*state, during, &r), 503);
    json_decref(htest_problem(&r, 503, "unavailable"));
    htest_resp_free(&r);
    wait_ready(*state);
    /* The new file knows no token of the old one: a fresh start. */
    after = honest_entry(*state, "after");
    assert_int_equal(post_entry(*state, after, &r), 201);
    htest_resp_free(&r);
    free(after);
    free(during);
    free(body);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_entry_then_flood_from_this_address),
        T(test_forged_entry_is_a_problem),
        T(test_bot_entry_not_ranked),
        T(test_same_nickname_and_spent_token),
        T(test_finish_then_name),
        T(test_refusals_are_problems),
        T(test_methods_and_head),
        T(test_restart_keeps_the_leaderboard),
        cmocka_unit_test(test_unusable_state_dir_serves_the_rest),
        T(test_garbage_store_file_serves_the_rest),
        T(test_deleted_store_file_not_acknowledged),
        cmocka_unit_test(test_server_without_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
