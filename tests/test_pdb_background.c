/*
 * test_pdb_background.c - 5x5 tables built in the background (issue 30,
 * pdb_background = 1): the server is ready at once, /readyz's checks and
 * /v1/catalog report the build (building with a percentage, then
 * ready), and from then on a 5x5 idastar + pdb solve uses the tables.
 * The small 4x6 set (a second to build) stands in for 6-6-6-6, which
 * takes minutes: the code path is the same.
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

static const char *heuristic_of_solve(http_server *s, char *buf, size_t n)
{
    struct htest_resp r;
    json_t *j;

    assert_int_equal(htest_post(s, "/v1/solve", "{" BOARD5 ", \"algorithm\":"
                                " \"idastar\", \"heuristic\": \"pdb\"}", &r),
                     0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    snprintf(buf, n, "%s", json_string_value(json_object_get(j,
                                                              "heuristic")));
    json_decref(j);
    htest_resp_free(&r);
    return buf;
}

/* pdb_5x5 = part built in the background: reported building with a
 * percentage that only grows, then ready and used; the next start loads
 * the cache. */
static void background_build(const char *part)
{
    struct http_config c;
    char dir[] = "/tmp/test_pdb_bg.XXXXXX", cmd[64], h[32];
    struct htest_resp r;
    http_server *s;
    json_t *j, *bg, *e;
    int saw_building = 0, ready = 0;
    double last = 0.0;

    assert_non_null(mkdtemp(dir));
    htest_config(&c);
    strcpy(c.pdb, "none");
    snprintf(c.pdb_5x5, sizeof(c.pdb_5x5), "%s", part);
    c.pdb_background = 1;
    snprintf(c.pdb_dir, sizeof(c.pdb_dir), "%s", dir);
    s = htest_start(&c);
    /* ready at once, whatever the build is doing */
    assert_int_equal(htest_get(s, "/readyz", &r), 0);
    assert_int_equal(r.status, 200);
    j = htest_json(&r);
    bg = json_object_get(json_object_get(j, "checks"), "pdb_5x5");
    assert_non_null(bg);
    assert_string_equal(json_string_value(json_object_get(bg, "partition")),
                        part);
    saw_building = strcmp(json_string_value(json_object_get(bg, "state")),
                          "building") == 0;
    json_decref(j);
    htest_resp_free(&r);
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
            assert_true(json_is_null(json_object_get(e, "tables")));
        } else {
            ready = 1;
            assert_true(pct == 100.0);
            assert_string_equal(json_string_value(json_object_get(e,
                                "tables")), part);
        }
        json_decref(e);
        if (!ready)
            usleep(100000);
    }
    assert_true(ready);
    assert_true(saw_building);
    assert_string_equal(heuristic_of_solve(s, h, sizeof(h)), "pdb");
    http_server_destroy(s);
    /* the next start loads the cached file, in the background too */
    s = htest_start(&c);
    for (int i = 0; i < 600; i++) {
        e = catalog5(s);
        ready = strcmp(json_string_value(json_object_get(json_object_get(
                       e, "tables_build"), "state")), "ready") == 0;
        json_decref(e);
        if (ready)
            break;
        usleep(20000);
    }
    assert_true(ready);
    assert_string_equal(heuristic_of_solve(s, h, sizeof(h)), "pdb");
    http_server_destroy(s);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_background_build_reported_then_used(void **state)
{
    (void)state;
    background_build("4x6");
}

/* A pair (4x6z and 4x6zb, the larger sum): two sets, one percentage. */
static void test_background_pair(void **state)
{
    (void)state;
    background_build("4x6z2");
}

static void test_off_is_none(void **state)
{
    struct http_config c;
    http_server *s;
    json_t *e;

    (void)state;
    htest_config(&c);
    strcpy(c.pdb, "none");
    strcpy(c.pdb_5x5, "off");
    c.pdb_background = 1;
    s = htest_start(&c);
    e = catalog5(s);
    assert_null(json_object_get(e, "tables_build"));
    assert_true(json_is_null(json_object_get(e, "tables")));
    json_decref(e);
    http_server_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_background_build_reported_then_used),
        cmocka_unit_test(test_background_pair),
        cmocka_unit_test(test_off_is_none),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
