/*
 * test_pdb_background.c - 5x5 tables built in the background (issue 30,
 * pdb_background = 1): the server is ready at once, /readyz's checks and
 * /v1/catalog report the build (building with a percentage, then
 * ready), and from then on a 5x5 idastar + pdb solve uses the tables.
 * The small 4x6 set (a second to build) stands in for 6-6-6-6, which
 * takes minutes: the code path is the same. The 4x4 and rectangles'
 * sets go to the background too, and a pdb search asked for before its
 * tables are there gets a 503 that says so. pdb_5x5 = auto with a small
 * pdb_budget picks a small set the same way (issue 47).
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

#include "http_server.h"
#include "http_config.h"
#include "support/htest.h"
#include "support/pdbcache.h"

#define BOARD5 "\"board\": \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 " \
               "19 20 21 22 0 23 24\""

/* The catalog's 5x5 entry (a new reference). */
static json_t *catalog5(http_server *s)
{
    struct htest_resp r;
    json_t *j, *sizes, *e = NULL;
    size_t i;

    assert_int_equal(htest_get(s, "/v1/catalog", &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    assert_non_null(j);
    sizes = json_object_get(j, "sizes");
    json_array_foreach(sizes, i, e) {
        if (json_integer_value(json_object_get(e, "size")) == 5)
            break;
    }
    assert_non_null(e);
    json_incref(e);
    json_decref(j);
    htest_resp_free(&r);
    return e;
}

/* The 5x5 tables' build is ready (s: the server). */
static bool build_ready(void *s)
{
    json_t *e = catalog5(s);
    bool ready = strcmp(json_string_value(json_object_get(json_object_get(
                        e, "tables_build"), "state")), "ready") == 0;

    json_decref(e);
    return ready;
}

/* A 5x5 idastar + pdb solve's heuristic; its answer names the tables
 * it read: tables (NULL: none). */
static const char *heuristic_of_solve(http_server *s, const char *tables,
                                      char *buf, size_t n)
{
    struct htest_resp r;
    json_t *j, *t;

    assert_int_equal(htest_post(s, "/v1/solve", "{" BOARD5 ", \"algorithm\":"
                                " \"idastar\", \"heuristic\": \"pdb\"}", &r),
                     0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    snprintf(buf, n, "%s", json_string_value(json_object_get(j,
                                                              "heuristic")));
    t = json_object_get(j, "tables");
    if (tables == NULL)
        assert_null(t);
    else
        assert_string_equal(json_string_value(t), tables);
    json_decref(j);
    htest_resp_free(&r);
    return buf;
}

/* Right after the start: ready at once, whatever the build is doing;
 * /readyz names the set being built (pdb_5x5 = auto also says why: the
 * budget it fits) and so does /metrics. Whether it was still building. */
static int start_reports(http_server *s, const char *value, size_t budget,
                         const char *part)
{
    char metric[160];
    struct htest_resp r;
    json_t *j, *bg;
    int building;

    assert_int_equal(htest_get(s, "/readyz", &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    bg = json_object_get(json_object_get(j, "checks"), "pdb_5x5");
    assert_non_null(bg);
    assert_string_equal(json_string_value(json_object_get(bg, "partition")),
                        part);
    building = strcmp(json_string_value(json_object_get(bg, "state")),
                      "building") == 0;
    /* auto says why this set: the budget it fits; /metrics too */
    if (strcmp(value, "auto") == 0)
        assert_non_null(strstr(json_string_value(json_object_get(bg,
                               "chosen")), "fits pdb_budget"));
    else
        assert_null(json_object_get(bg, "chosen"));
    json_decref(j);
    htest_resp_free(&r);
    assert_int_equal(htest_get(s, "/metrics", &r), 0);
    snprintf(metric, sizeof(metric), "\npuzzled_tables_build_percent{"
             "setting=\"pdb_5x5\",partition=\"%s\",state=\"", part);
    assert_non_null(strstr(r.body, metric));
    snprintf(metric, sizeof(metric), "\npuzzled_pdb_budget_bytes{"
             "partition=\"%s\"} %zu\n", part, budget);
    if (strcmp(value, "auto") == 0)
        assert_non_null(strstr(r.body, metric));
    else
        assert_null(strstr(r.body, "\npuzzled_pdb_budget_bytes{"));
    htest_resp_free(&r);
    return building;
}

/* pdb_5x5 = value (with pdb_budget = budget when not 0) builds part in
 * the background: reported building with a percentage that only grows,
 * then ready and used; the next start loads the cache. */
static void background_build(const char *value, size_t budget,
                             const char *part)
{
    struct http_config c;
    char dir[] = "/tmp/test_pdb_bg.XXXXXX", cmd[64], h[32];
    http_server *s;
    json_t *bg, *e;
    int saw_building = 0, ready = 0;
    double last = 0.0;

    assert_non_null(mkdtemp(dir));
    htest_config(&c);
    strcpy(c.pdb, "none");
    snprintf(c.pdb_5x5, sizeof(c.pdb_5x5), "%s", value);
    if (budget != 0)
        c.pdb_budget = budget;
    c.pdb_background = 1;
    snprintf(c.pdb_dir, sizeof(c.pdb_dir), "%s", dir);
    s = htest_start(&c);
    saw_building = start_reports(s, value, budget, part);
    for (int i = 0; i < 600 && !ready; i++) {
        const char *st;
        double pct;
        e = catalog5(s);
        bg = json_object_get(e, "tables_build");
        assert_non_null(bg);
        st = json_string_value(json_object_get(bg, "state"));
        pct = json_number_value(json_object_get(bg, "percent"));
        assert_true(pct >= last && pct <= 100.0);
        last = pct;
        assert_string_not_equal(st, "failed");
        if (strcmp(st, "building") == 0) {
            saw_building = 1;
            /* 100 % only once it serves (it said so for the seconds
               between the last group and the load) */
            assert_true(pct < 100.0);
            assert_true(json_is_null(json_object_get(e, "tables")));
        } else {
            ready = 1;
            assert_true(pct == 100.0);
            assert_string_equal(json_string_value(json_object_get(e,
                                "tables")), part);
        }
        json_decref(e);
        /* The sampling period, not a wait: every turn checks the
         * build's progress, and 600 of them bound the test. */
        if (!ready)
            usleep(100000);
    }
    assert_true(ready);
    assert_true(saw_building);
    assert_string_equal(heuristic_of_solve(s, part, h, sizeof(h)), "pdb");
    http_server_destroy(s);
    /* the next start loads the cached file, in the background too */
    s = htest_start(&c);
    /* a load at nice 19: a minute on a loaded (or sanitized) machine */
    assert_true(wait_until(build_ready, s, 60000));
    assert_string_equal(heuristic_of_solve(s, part, h, sizeof(h)), "pdb");
    http_server_destroy(s);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_background_build_reported_then_used(void **state)
{
    (void)state;
    background_build("4x6", 0, "4x6");
}

/* A pair (4x6z and 4x6zb, the larger sum): two sets, one percentage. */
static void test_background_pair(void **state)
{
    (void)state;
    background_build("4x6z2", 0, "4x6z2");
}

/* pdb_5x5 = auto with a small budget: the strongest set whose build
 * fits 64 MB is the small pair (6-6-6-6 needs 0.73 GB), built in the
 * background like a named one, and the solves then name it. */
static void test_auto_builds_strongest_within_budget(void **state)
{
    (void)state;
    background_build("auto", (size_t)64 << 20, "4x6z2");
}

/* A server in the background mode with pdb_5x5 = pdb5 (and pdb_budget =
 * budget when not 0) that, as the catalog says, neither has nor builds
 * 5x5 tables. */
static http_server *start_without_5x5(const char *pdb5, size_t budget)
{
    struct http_config c;
    http_server *s;
    json_t *e;

    htest_config(&c);
    strcpy(c.pdb, "none");
    strcpy(c.pdb_5x5, pdb5);
    if (budget != 0)
        c.pdb_budget = budget;
    c.pdb_background = 1;
    s = htest_start(&c);
    e = catalog5(s);
    assert_null(json_object_get(e, "tables_build"));
    assert_true(json_is_null(json_object_get(e, "tables")));
    json_decref(e);
    return s;
}

/* A budget below the smallest set's build: no 5x5 tables, no build;
 * pdb on 5x5 answers with linear conflict and names no tables. */
static void test_auto_below_smallest_set_is_none(void **state)
{
    char h[32];
    http_server *s;

    (void)state;
    s = start_without_5x5("auto", 1 << 20);  /* 4x6 needs 2.2 MB */
    assert_string_equal(heuristic_of_solve(s, NULL, h, sizeof(h)),
                        "linear-conflict");
    http_server_destroy(s);
}

/* checks.<name> of /readyz: its state ("building", "ready", ...). */
static void check_state(http_server *s, const char *name, char *st,
                        size_t n, double *pct)
{
    struct htest_resp r;
    json_t *j, *bg;

    assert_int_equal(htest_get(s, "/readyz", &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    bg = json_object_get(json_object_get(j, "checks"), name);
    assert_non_null(bg);
    snprintf(st, n, "%s", json_string_value(json_object_get(bg, "state")));
    if (pct != NULL)
        *pct = json_number_value(json_object_get(bg, "percent"));
    json_decref(j);
    htest_resp_free(&r);
}

/* A solve asking for pdb while its tables build: when the build was
 * going on before and after the request, the answer is the 503 that
 * says so (with Retry-After), or 200 with pdb where the board's own set
 * is already in (rectangles: one set after another); once ready, 200
 * with pdb. Returns whether it was refused. */
static bool pdb_solve_while(http_server *s, const char *check,
                            const char *body)
{
    char before[16], after[16];
    struct htest_resp r;
    json_t *j;
    bool during, refused = false;

    check_state(s, check, before, sizeof(before), NULL);
    assert_int_equal(htest_post(s, "/v1/solve", body, &r), 0);
    check_state(s, check, after, sizeof(after), NULL);
    during = strcmp(before, "building") == 0 && strcmp(after, "building")
             == 0;
    j = htest_json(&r);
    if (during && r.status != 200) {
        refused = true;
        assert_int_equal(r.status, 503);
        assert_non_null(strstr(r.headers, "Retry-After: "));
        assert_string_equal(json_string_value(json_object_get(j, "type")),
                            "https://puzzled.dev/problems/unavailable");
        assert_non_null(strstr(json_string_value(json_object_get(
                        j, "detail")), "being built in the background"));
    } else if (during || strcmp(before, "ready") == 0) {
        assert_int_equal(r.status, 200);
        assert_string_equal(json_string_value(json_object_get(
                            j, "heuristic")), "pdb");
    }
    json_decref(j);
    htest_resp_free(&r);
    return refused;
}

/* The catalog entry for rows x cols (a size when square, else a shape;
 * a new reference). */
static json_t *catalog_entry(http_server *s, unsigned rows, unsigned cols)
{
    struct htest_resp r;
    json_t *j, *e = NULL, *found = NULL;
    size_t i;

    assert_int_equal(htest_get(s, "/v1/catalog", &r), 0);
    j = htest_json(&r);
    json_array_foreach(json_object_get(j, rows == cols ? "sizes" : "shapes"),
                       i, e) {
        if (rows == cols ? json_integer_value(json_object_get(e, "size"))
                           == (json_int_t)rows
            : json_integer_value(json_object_get(e, "rows")) ==
              (json_int_t)rows && json_integer_value(json_object_get(
                  e, "cols")) == (json_int_t)cols)
            found = json_incref(e);
    }
    assert_non_null(found);
    json_decref(j);
    htest_resp_free(&r);
    return found;
}

#define BOARD4 "{\"board\": \"5 1 2 3 9 6 7 4 13 10 11 8 0 14 15 12\", " \
               "\"algorithm\": \"idastar\", \"heuristic\": \"pdb\"}"
#define BOARD3x4 "{\"board\": \"1 2 3 4 5 6 7 8 9 10 0 11\", \"rows\": 3, " \
                 "\"cols\": 4, \"heuristic\": \"pdb\"}"

/*
 * pdb_background = 1 takes the 4x4 set (pdb) and every rectangle's
 * (pdb_rect) off the start too: a first start with an empty pdb_dir
 * answers at once, reports each build, answers pdb asked for before its
 * tables are there with a 503 that says why, and uses them once ready.
 * The rectangles only without PUZZLED_QUICK: five of their six sets are
 * there already (copied from the build's cache, tests/support/pdbcache.c,
 * where test_rect_pdb keeps them), so what is built is 3x4's, the board
 * the refused and then served solves ask for: building all six again
 * was ~12 CPU-s of make test (the builder's truth is test_rect_pdb's).
 */
static void seed_rectangles(const char *dir)
{
    static const enum puz_pdb_partition cached[] = {
        PUZ_PDB_R2X5, PUZ_PDB_R2X6, PUZ_PDB_R2X7, PUZ_PDB_R3X5, PUZ_PDB_R2X8,
    };
    char path[512], cmd[1200], msg[PUZ_MSG_MAX];

    for (size_t i = 0; i < sizeof(cached) / sizeof(cached[0]); i++) {
        assert_int_equal(test_pdb_cached(cached[i], NULL, path, sizeof(path),
                                         msg), 0);
        snprintf(cmd, sizeof(cmd), "cp '%s' '%s/'", path, dir);
        assert_int_equal(system(cmd), 0);
    }
}

static void test_background_small_sets(void **state)
{
    bool rect = getenv("PUZZLED_QUICK") == NULL;
    char dir[] = "/tmp/test_pdb_bg.XXXXXX", cmd[64], st[16], st2[16];
    struct http_config c;
    struct htest_resp r;
    http_server *s;
    json_t *e;
    double pct = 0.0, last = 0.0;
    int refused = 0, refused_rect = 0;

    (void)state;
    assert_non_null(mkdtemp(dir));
    if (rect)
        seed_rectangles(dir);
    htest_config(&c);
    strcpy(c.pdb, "6-6-3");
    strcpy(c.pdb_5x5, "none");
    c.pdb_rect = rect;
    c.pdb_background = 1;
    snprintf(c.pdb_dir, sizeof(c.pdb_dir), "%s", dir);
    s = htest_start(&c);
    /* nothing of 6-6-3 can be built yet: seconds of work at nice 19 */
    check_state(s, "pdb", st, sizeof(st), NULL);
    assert_string_equal(st, "building");
    e = catalog_entry(s, 4, 4);
    assert_true(json_is_null(json_object_get(e, "tables")));
    assert_non_null(json_object_get(e, "tables_build"));
    json_decref(e);
    /* the default answers meanwhile, without the tables */
    assert_int_equal(htest_post(s, "/v1/solve", "{\"board\": \"5 1 2 3 9 6 "
                                "7 4 13 10 11 8 0 14 15 12\"}", &r), 0);
    assert_int_equal(r.status, 200);
    htest_resp_free(&r);
    if (rect) {
        e = catalog_entry(s, 3, 4);
        assert_non_null(json_object_get(e, "tables_build"));
        json_decref(e);
        e = catalog_entry(s, 2, 3);     /* no tables for it: no build */
        assert_null(json_object_get(e, "tables_build"));
        json_decref(e);
    }
    for (int i = 0; i < 1200; i++) {
        refused += pdb_solve_while(s, "pdb", BOARD4);
        if (rect)
            refused_rect += pdb_solve_while(s, "pdb_rect", BOARD3x4);
        check_state(s, "pdb", st, sizeof(st), NULL);
        strcpy(st2, "ready");
        if (rect) {
            check_state(s, "pdb_rect", st2, sizeof(st2), &pct);
            assert_true(pct >= last && pct <= 100.0);
            last = pct;
        }
        assert_string_not_equal(st, "failed");
        assert_string_not_equal(st2, "failed");
        if (strcmp(st, "ready") == 0 && strcmp(st2, "ready") == 0)
            break;
        /* The sampling period, not a wait: every turn sends solves that
         * must be refused while the build runs and checks its progress;
         * a faster pace would only load the build (nice 19). */
        usleep(100000);
    }
    assert_string_equal(st, "ready");
    assert_string_equal(st2, "ready");
    assert_true(refused > 0);
    assert_true(!rect || refused_rect > 0);
    /* and used */
    assert_false(pdb_solve_while(s, "pdb", BOARD4));
    if (rect)
        assert_false(pdb_solve_while(s, "pdb_rect", BOARD3x4));
    e = catalog_entry(s, 4, 4);
    assert_string_equal(json_string_value(json_object_get(e, "tables")),
                        "6-6-3");
    json_decref(e);
    http_server_destroy(s);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_off_is_none(void **state)
{
    (void)state;
    http_server_destroy(start_without_5x5("off", 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_background_build_reported_then_used),
        cmocka_unit_test(test_background_pair),
        cmocka_unit_test(test_auto_builds_strongest_within_budget),
        cmocka_unit_test(test_auto_below_smallest_set_is_none),
        cmocka_unit_test(test_background_small_sets),
        cmocka_unit_test(test_off_is_none),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
