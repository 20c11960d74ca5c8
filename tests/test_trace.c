/*
 * test_trace.c - the optional A* trace (puz_trace.h): it records the
 * first K expansions in order with g, h and the children pushed, the
 * first step is the start board, the search's answer is the same with and
 * without it, and a recorder refuses sizes outside 1..PUZ_TRACE_MAX.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "puz_solve.h"
#include "puz_trace.h"
#include "support/boards.h"

static struct puz_solve_opts astar(const char *heuristic, puz_trace *t)
{
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_ASTAR };

    o.heuristic = puz_heuristic_find(heuristic);
    o.trace = t;
    return o;
}

static void test_trace_records_first_expansions(void **state)
{
    struct puz_board b = test_board("1 2 3 4 0 6 7 5 8");
    puz_arena *a = puz_arena_create(1 << 20);
    puz_trace *t = puz_trace_create(a, 3);
    struct puz_solve_opts o = astar("manhattan", t);
    struct puz_result r;
    const struct puz_trace_step *s0;

    (void)state;
    assert_non_null(t);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_int_equal(r.length, 2);
    /* Start, then the board one move closer, then the goal is popped
       (not expanded): two expansions. */
    assert_int_equal(puz_trace_count(t), 2);
    s0 = puz_trace_step(t, 0);
    assert_memory_equal(s0->node.cells, b.cells, 9);
    assert_int_equal(s0->node.g, 0);
    assert_int_equal(s0->node.h, 2);
    assert_int_equal(s0->open_size, 1);
    assert_int_equal(s0->nchildren, 4);    /* blank in the middle */
    for (unsigned i = 0; i < s0->nchildren; i++)
        assert_int_equal(s0->children[i].g, 1);
    assert_int_equal(puz_trace_step(t, 1)->node.h, 1);
    assert_null(puz_trace_step(t, 2));
    puz_arena_destroy(a);
}

static void test_trace_stops_at_its_cap(void **state)
{
    struct puz_board b = test_board("8 6 7 2 5 4 3 0 1");
    puz_arena *a = puz_arena_create(1 << 20);
    puz_trace *t = puz_trace_create(a, 5);
    struct puz_solve_opts o = astar("misplaced", t);
    struct puz_result r;

    (void)state;
    o.limits.max_nodes = 50;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(puz_trace_count(t), 5);
    /* f never falls along A*'s order with a consistent heuristic. */
    for (unsigned i = 1; i < 5; i++) {
        const struct puz_trace_step *p = puz_trace_step(t, i - 1);
        const struct puz_trace_step *s = puz_trace_step(t, i);
        assert_true(p->node.g + p->node.h <= s->node.g + s->node.h);
    }
    puz_arena_destroy(a);
}

static void test_trace_does_not_change_the_answer(void **state)
{
    struct puz_board b = test_board("8 6 7 2 5 4 3 0 1");
    puz_arena *a = puz_arena_create(1 << 22);
    struct puz_solve_opts plain = astar("linear-conflict", NULL);
    struct puz_solve_opts traced = astar("linear-conflict", NULL);
    struct puz_result r1, r2;

    (void)state;
    assert_int_equal(puz_solve(&b, &plain, a, &r1), PUZ_OK);
    traced.trace = puz_trace_create(a, PUZ_TRACE_MAX);
    assert_int_equal(puz_solve(&b, &traced, a, &r2), PUZ_OK);
    assert_int_equal(r1.length, 31);
    assert_int_equal(r2.length, 31);
    assert_int_equal(r1.stats.expanded, r2.stats.expanded);
    assert_memory_equal(r1.moves, r2.moves, 31);
    assert_int_equal(puz_trace_count(traced.trace), PUZ_TRACE_MAX);
    puz_arena_destroy(a);
}

static void test_trace_create_refuses_bad_sizes(void **state)
{
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    assert_null(puz_trace_create(a, PUZ_TRACE_MAX + 1));
    assert_int_equal(puz_trace_count(NULL), 0);
    assert_null(puz_trace_step(NULL, 0));
    puz_arena_destroy(a);
}

/* Layers add up to every expansion: A* by f, IDA* by iteration. */
static void test_layers_count_every_expansion(void **state)
{
    struct puz_board b = test_board("8 6 7 2 5 4 3 0 1");
    puz_arena *a = puz_arena_create(1 << 22);
    struct puz_trace_layer layers[PUZ_TRACE_LAYERS];
    enum puz_algorithm algs[] = { PUZ_ALG_ASTAR, PUZ_ALG_IDASTAR };

    (void)state;
    for (unsigned i = 0; i < 2; i++) {
        struct puz_solve_opts o = astar("manhattan", NULL);
        struct puz_result r;
        uint64_t sum = 0;
        unsigned n;
        puz_arena_reset(a);
        o.algorithm = algs[i];
        o.trace = puz_trace_create(a, 0);
        assert_non_null(o.trace);
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_int_equal(r.length, 31);
        n = puz_trace_layers(o.trace, layers, PUZ_TRACE_LAYERS);
        assert_true(n >= 2);
        for (unsigned k = 0; k < n; k++) {
            sum += layers[k].expanded;
            if (k > 0)
                assert_true(layers[k].f > layers[k - 1].f);
        }
        assert_int_equal(layers[n - 1].f, 31);
        assert_int_equal(sum, r.stats.expanded);
        assert_int_equal(puz_trace_count(o.trace), 0);
    }
    puz_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_records_first_expansions),
        cmocka_unit_test(test_trace_stops_at_its_cap),
        cmocka_unit_test(test_trace_does_not_change_the_answer),
        cmocka_unit_test(test_trace_create_refuses_bad_sizes),
        cmocka_unit_test(test_layers_count_every_expansion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
