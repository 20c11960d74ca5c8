/*
 * test_api_catalog.c - GET /v1/catalog on strings, and the check that
 * keeps the lists in step: openapi.yaml's Algorithm and Heuristic enums
 * must name exactly what the catalog (the core's registries) lists. The
 * comparison is shown to fail when an entry is missing on either side.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "api.h"
#include "api_decode.h"
#include "puz_version.h"
#include "support/apitest.h"
#include "support/tables3.h"

#define NAMES_MAX 32
#define NAME_LEN 32

struct names {
    size_t n;
    char v[NAMES_MAX][NAME_LEN];
};

/* The catalog of a server with the 3x3 tables and t's limits (owned by
 * t). */
static json_t *catalog(struct apitest *t)
{
    apitest_use_tables3(t);
    assert_int_equal(apitest_call(t, "GET", "/v1/catalog", NULL,
                                  NULL)->status, 200);
    assert_string_equal(t->call.answer.content_type, "application/json");
    return apitest_json(t);
}

static void names_of(const json_t *list, struct names *out)
{
    size_t i;
    json_t *e;

    out->n = 0;
    json_array_foreach(list, i, e) {
        assert_true(out->n < NAMES_MAX);
        snprintf(out->v[out->n++], NAME_LEN, "%s", apitest_str(e, "name"));
    }
}

/*
 * The enum of components.schemas.<schema> in openapi.yaml: the first
 * "enum: [a, b,\n c]" after the line "    <schema>:".
 */
/* openapi.yaml's text (a static buffer, read once). */
static char *openapi_text(void)
{
    static char text[1 << 18];
    static size_t len;
    FILE *f;

    if (len > 0)
        return text;
    f = fopen("openapi.yaml", "r");
    assert_non_null(f);
    len = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    assert_true(len > 0 && len < sizeof(text) - 1);
    text[len] = '\0';
    return text;
}

static void openapi_enum(const char *schema, struct names *out)
{
    char *text = openapi_text();
    char head[64], *p, *end;

    snprintf(head, sizeof(head), "\n    %s:\n", schema);
    p = strstr(text, head);
    assert_non_null(p);
    p = strstr(p, "enum: [");
    assert_non_null(p);
    p += 7;
    end = strchr(p, ']');
    assert_non_null(end);
    out->n = 0;
    while (p < end) {
        size_t k;

        p += strspn(p, " ,\n");
        k = strcspn(p, " ,\n]");
        if (k == 0)
            break;
        assert_true(out->n < NAMES_MAX && k < NAME_LEN);
        memcpy(out->v[out->n], p, k);
        out->v[out->n++][k] = '\0';
        p += k;
    }
}

static bool contains(const struct names *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0)
            return true;
    return false;
}

/* Same names, each once, order aside; what differs goes to stderr
 * unless what is NULL (the check's own test, where a difference is made
 * on purpose). */
static bool same_names(const char *what, const struct names *spec,
                       const struct names *cat)
{
    bool same = spec->n == cat->n;

    for (size_t i = 0; i < spec->n; i++)
        if (!contains(cat, spec->v[i])) {
            if (what != NULL)
                fprintf(stderr, "%s: openapi.yaml has '%s', the catalog "
                    "does not\n", what, spec->v[i]);
            same = false;
        }
    for (size_t i = 0; i < cat->n; i++)
        if (!contains(spec, cat->v[i])) {
            if (what != NULL)
                fprintf(stderr, "%s: the catalog has '%s', openapi.yaml "
                    "does not\n", what, cat->v[i]);
            same = false;
        }
    return same;
}

static void check_enum(const char *schema, const json_t *list)
{
    struct names spec, cat, fewer;

    openapi_enum(schema, &spec);
    names_of(list, &cat);
    assert_true(cat.n >= 2);
    assert_true(same_names(schema, &spec, &cat));
    /* The check fails when either side loses an entry (its last one:
     * quietly, as nothing is wrong with the real lists). */
    fewer = cat;
    fewer.n--;
    assert_false(same_names(NULL, &spec, &fewer));
    fewer = spec;
    fewer.n--;
    assert_false(same_names(NULL, &fewer, &cat));
}

static void test_openapi_enums_equal_catalog(void **state)
{
    json_t *j = catalog(*state);

    check_enum("Algorithm", json_object_get(j, "algorithms"));
    check_enum("Heuristic", json_object_get(j, "heuristics"));
}

/* The spec's info.version is the release's (puz_version.h), which the
 * catalog answers: a copy that must not drift. */
static void test_openapi_version(void **state)
{
    const char *info = strstr(openapi_text(), "\ninfo:\n");
    const char *v;

    (void)state;
    assert_non_null(info);
    v = strstr(info, "\n  version: ");
    assert_non_null(v);
    v += strlen("\n  version: ");
    assert_int_equal(strcspn(v, "\n"), strlen(PUZ_VERSION));
    assert_memory_equal(v, PUZ_VERSION, strlen(PUZ_VERSION));
}

/* The version, and every registered algorithm and heuristic, as the
 * core describes it. */
static void test_catalog_lists_registries(void **state)
{
    json_t *j = catalog(*state), *algs, *hs, *e;
    enum puz_algorithm a;

    /* the release, from the one place every front end reads it */
    assert_string_equal(apitest_str(j, "version"), PUZ_VERSION);
    algs = json_object_get(j, "algorithms");
    assert_int_equal(json_array_size(algs), PUZ_ALG_COUNT_);
    for (size_t i = 0; i < json_array_size(algs); i++) {
        e = json_array_get(algs, i);
        assert_int_equal(puz_algorithm_parse(apitest_str(e, "name"), &a),
                         PUZ_OK);
        assert_true(apitest_str(e, "description")[0] != '\0');
        assert_true(json_is_true(json_object_get(e, "optimal"))
                    == puz_algorithm_optimal(a));
    }
    /* The optimal ones, by what the searches are known to be. */
    e = json_array_get(algs, PUZ_ALG_BFS);
    assert_string_equal(apitest_str(e, "name"), "bfs");
    assert_true(json_is_true(json_object_get(e, "optimal")));
    assert_false(json_is_true(json_object_get(e, "uses_heuristic")));
    e = json_array_get(algs, PUZ_ALG_GREEDY);
    assert_false(json_is_true(json_object_get(e, "optimal")));
    e = json_array_get(algs, PUZ_ALG_ANYTIME);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(e, "sizes"), "min")), 5);
    hs = json_object_get(j, "heuristics");
    assert_int_equal(json_array_size(hs), puz_heuristic_count());
    for (size_t i = 0; i < json_array_size(hs); i++) {
        e = json_array_get(hs, i);
        assert_non_null(puz_heuristic_find(apitest_str(e, "name")));
        assert_true(json_is_true(json_object_get(e, "needs_tables"))
                    == (strcmp(apitest_str(e, "name"), "pdb") == 0));
    }
}

/* Defaults per size, the loaded tables and the server's caps. */
static void test_catalog_defaults_tables_caps(void **state)
{
    struct apitest *t = *state;
    json_t *j, *sizes, *s3, *s4, *s5, *caps;

    t->lim.solve_timeout_ms = 1234;
    t->lim.batch_max = 7;
    j = catalog(t);
    sizes = json_object_get(j, "sizes");
    assert_int_equal(json_array_size(sizes), PUZ_MAX_SIZE - PUZ_MIN_SIZE + 1);
    s3 = json_array_get(sizes, 3 - PUZ_MIN_SIZE);
    s4 = json_array_get(sizes, 4 - PUZ_MIN_SIZE);
    s5 = json_array_get(sizes, 5 - PUZ_MIN_SIZE);
    assert_int_equal(json_integer_value(json_object_get(s3, "size")), 3);
    assert_string_equal(apitest_str(s3, "algorithm"), "astar");
    assert_string_equal(apitest_str(s3, "heuristic"), "pdb");      /* loaded */
    assert_string_equal(apitest_str(s3, "tables"), "exact");
    assert_true(json_is_true(json_object_get(s3, "optimal")));
    assert_string_equal(apitest_str(s4, "algorithm"), "idastar");
    assert_string_equal(apitest_str(s4, "heuristic"), "linear-conflict");
    assert_true(json_is_null(json_object_get(s4, "tables")));
    assert_string_equal(apitest_str(s5, "algorithm"), "anytime");
    assert_false(json_is_true(json_object_get(s5, "optimal")));
    caps = json_object_get(j, "caps");
    assert_int_equal(json_integer_value(json_object_get(caps,
                                                        "timeout_ms")), 1234);
    assert_int_equal(json_integer_value(json_object_get(caps, "batch_max")),
                     7);
    assert_int_equal(json_integer_value(json_object_get(
        json_object_get(caps, "weight"), "max")), PUZ_WASTAR_WEIGHT_MAX);
    assert_int_equal(json_integer_value(json_object_get(caps, "max_depth")),
                     API_DECODE_MAX_DEPTH);
}

/* The one heuristic decision, which the CLI's choice of tables follows:
 * wastar and greedy use the tables like A*, bnb and blind searches not. */
static void test_heuristic_decision(void **state)
{
    const puz_heuristic *pdb = puz_heuristic_find("pdb");
    const puz_heuristic *lc = puz_heuristic_find("linear-conflict");
    const puz_heuristic *mh = puz_heuristic_find("manhattan");

    (void)state;
    assert_ptr_equal(puz_algorithm_heuristic(PUZ_ALG_WASTAR, NULL, 4, true),
                     pdb);
    assert_ptr_equal(puz_algorithm_heuristic(PUZ_ALG_WASTAR, NULL, 4,
                                             false), lc);
    assert_ptr_equal(puz_algorithm_heuristic(PUZ_ALG_AUTO, mh, 4, true), mh);
    assert_ptr_equal(puz_algorithm_heuristic(PUZ_ALG_BNB, NULL, 4, true),
                     puz_heuristic_find("misplaced"));
    assert_null(puz_algorithm_heuristic(PUZ_ALG_BFS, NULL, 3, true));
    assert_true(puz_algorithm_uses_tables(PUZ_ALG_WASTAR, NULL, 4));
    assert_true(puz_algorithm_uses_tables(PUZ_ALG_GREEDY, pdb, 4));
    assert_true(puz_algorithm_uses_tables(PUZ_ALG_AUTO, NULL, 5));
    assert_false(puz_algorithm_uses_tables(PUZ_ALG_IDASTAR, mh, 4));
    assert_false(puz_algorithm_uses_tables(PUZ_ALG_BNB, NULL, 4));
    assert_false(puz_algorithm_uses_tables(PUZ_ALG_CONSTRUCTIVE, NULL, 4));
    /* anytime below 5x5 is the size's optimal default */
    assert_int_equal(puz_algorithm_resolve(PUZ_ALG_ANYTIME, 4),
                     PUZ_ALG_IDASTAR);
    assert_int_equal(puz_algorithm_resolve(PUZ_ALG_AUTO, 3), PUZ_ALG_ASTAR);
    assert_int_equal(puz_algorithm_resolve(PUZ_ALG_AUTO, 6), PUZ_ALG_ANYTIME);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_openapi_enums_equal_catalog,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test_setup_teardown(test_catalog_lists_registries,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test_setup_teardown(test_catalog_defaults_tables_caps,
                                        apitest_setup, apitest_teardown),
        cmocka_unit_test(test_heuristic_decision),
        cmocka_unit_test(test_openapi_version),
    };

    return cmocka_run_group_tests(tests, test_tables3_setup,
                                  test_tables3_teardown);
}
