/*
 * test_idastar.c - IDA* answers and counts against an independent IDA*
 * written here: cells in an array, h evaluated from scratch at every
 * node (the heuristic's eval, never its per-move update or its tables),
 * the same move order, parent pruning and budget rule as the contract in
 * idastar.h. puz_solve's IDA* (the packed plug-in on 3x3 and 4x4) must
 * return the same path and the same expanded and generated counts, for
 * every table-shaped heuristic, the default goal and another one, and
 * stop at a node budget exactly where the reference does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/heur/heuristic_impl.h"
#include "puz_random.h"
#include "puz_solve.h"
#include "support/walk.h"

struct ref {
    const struct puz_heuristic *h;
    void *ctx;
    const struct puz_board *goal;
    unsigned n, bound, next;
    uint64_t expanded, generated, max_nodes;
    int stopped;
    uint8_t cells[PUZ_MAX_CELLS], path[128];
};

static int at_goal(const struct ref *r)
{
    return memcmp(r->cells, r->goal->cells, r->n * r->n) == 0;
}

static int dfs(struct ref *r, unsigned blank, unsigned g, unsigned back)
{
    unsigned h = r->h->eval(r->ctx, r->cells);

    if (g + h > r->bound) {
        if (g + h < r->next)
            r->next = g + h;
        return 0;
    }
    if (h == 0 && at_goal(r))
        return (int)g + 1;
    if (++r->expanded > r->max_nodes) {
        r->stopped = 1;
        return 0;
    }
    for (unsigned d = 0; d < 4; d++) {
        int to = test_walk_step(r->n, blank, d), found;
        if (to < 0 || d == back)
            continue;
        r->cells[blank] = r->cells[to];
        r->cells[to] = 0;
        r->generated++;
        r->path[g] = (uint8_t)d;
        found = dfs(r, (unsigned)to, g + 1, d ^ 1u);
        r->cells[to] = r->cells[blank];
        r->cells[blank] = 0;
        if (found || r->stopped)
            return found;
    }
    return 0;
}

/* Runs the reference; returns the path length or -1 when it stopped. */
static int ref_solve(struct ref *r, const struct puz_board *b)
{
    memcpy(r->cells, b->cells, sizeof(r->cells));
    r->bound = r->h->eval(r->ctx, r->cells);
    r->expanded = r->generated = 0;
    r->stopped = 0;
    for (;;) {
        int found;
        r->next = UINT32_MAX;
        found = dfs(r, b->blank, 0, PUZ_NO_DIR);
        if (found)
            return found - 1;
        if (r->stopped)
            return -1;
        r->bound = r->next;
    }
}

static void check_board(const char *hname, const struct puz_board *b,
                        const struct puz_board *goal, uint64_t max_nodes)
{
    struct puz__hargs args = { goal, NULL, NULL };
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_IDASTAR, .goal = goal };
    struct ref r = { .goal = goal, .n = goal->n, .max_nodes = UINT64_MAX };
    struct puz_result res;
    puz_arena *a = puz_arena_create(1 << 16);
    char msg[PUZ_MSG_MAX];
    int len;

    args.arena = a;
    r.h = puz_heuristic_find(hname);
    o.heuristic = r.h;
    o.limits.max_nodes = max_nodes;
    if (max_nodes != 0)
        r.max_nodes = max_nodes;
    assert_int_equal(r.h->prepare(&args, &r.ctx, msg), PUZ_OK);
    len = ref_solve(&r, b);
    assert_int_equal(puz_solve(b, &o, a, &res), PUZ_OK);
    if (len < 0) {
        assert_int_equal(res.status, PUZ_LIMIT_NODES);
    } else {
        assert_int_equal(res.status, PUZ_SOLVED);
        assert_int_equal(res.length, (unsigned)len);
        assert_memory_equal(res.moves, r.path, (size_t)len);
    }
    if (res.stats.expanded != r.expanded || res.stats.generated !=
        r.generated)
        fail_msg("%s on %ux%u: expanded %llu generated %llu, reference "
                 "%llu %llu", hname, goal->n, goal->n,
                 (unsigned long long)res.stats.expanded,
                 (unsigned long long)res.stats.generated,
                 (unsigned long long)r.expanded,
                 (unsigned long long)r.generated);
    puz_arena_destroy(a);
}

/* A goal other than the default: the blank first, tiles in order. */
static void blank_first_goal(unsigned n, struct puz_board *g)
{
    memset(g, 0, sizeof(*g));
    g->n = n;
    g->blank = 0;
    for (unsigned i = 0; i < n * n; i++)
        g->cells[i] = (uint8_t)i;
}

static void sweep(unsigned n, unsigned boards, unsigned min_moves,
                  unsigned spread, uint64_t max_nodes)
{
    static const char *const hs[] = { "misplaced", "manhattan",
                                      "linear-conflict" };
    struct puz_board goals[2];
    struct puz_rng rng;

    assert_int_equal(puz_board_goal(n, &goals[0]), PUZ_OK);
    blank_first_goal(n, &goals[1]);
    puz_rng_seed(&rng, 17 + n);
    for (unsigned i = 0; i < boards; i++) {
        const struct puz_board *goal = &goals[i % 2];
        unsigned moves = min_moves + (unsigned)puz_rng_below(&rng, spread);
        struct puz_board b;
        test_walk(goal, moves, &rng, &b);
        for (unsigned k = 0; k < 3; k++)
            check_board(hs[k], &b, goal, max_nodes);
    }
}

static void test_3x3_against_reference(void **state)
{
    (void)state;
    sweep(3, 120, 8, 20, 0);
}

static void test_4x4_against_reference(void **state)
{
    (void)state;
    sweep(4, 24, 10, 20, 0);
}

static void test_node_budget_stops_where_reference_does(void **state)
{
    (void)state;
    sweep(3, 30, 18, 10, 40);
    sweep(4, 10, 30, 10, 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3x3_against_reference),
        cmocka_unit_test(test_4x4_against_reference),
        cmocka_unit_test(test_node_budget_stops_where_reference_does),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
