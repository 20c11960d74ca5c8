/*
 * test_idastar_units.c - parallel IDA* (puz_solve_opts.threads, .run):
 * an iteration cut into work units gives the same optimal lengths as one
 * thread, on 4x4 (6-6-3) and 5x5 (the small 4x6 tables, built in a
 * second) boards; every iteration but the last expands exactly the
 * nodes one thread does, and each is the frontier's nodes plus the sum
 * over its units; a runner that loses pieces gets them back and the
 * counts stay whole; units described as data, run elsewhere
 * (puz_solve_unit) and filed back give the same answers and counts,
 * lost and twice-filed ones included; a node budget and a cancel stop
 * every unit; units handed out nearest the goal first make the last
 * iteration cheaper than the frontier walk's order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pool_pieces.h"
#include "puz_pdb.h"
#include "puz_solve.h"
#include "puz_tables.h"
#include "puz_trace.h"
#include "support/pdbcache.h"
#include "support/walk.h"

#define MAX_ITER 64u

struct fixture {
    puz_tables *tables;         /* 6-6-3 and 4x6, corner goals */
};

/* What the units hook saw, per iteration. */
struct seen {
    unsigned iterations, rerun, min_units;
    unsigned bound[MAX_ITER];
    uint64_t expanded[MAX_ITER];    /* frontier + sum over units */
};

static void on_units(const struct puz_units_report *r, void *user)
{
    struct seen *s = user;
    uint64_t sum = r->frontier_expanded;

    for (unsigned k = 0; k < r->n; k++)
        sum += r->expanded[k];
    if (s->iterations < MAX_ITER) {
        s->bound[s->iterations] = r->bound;
        s->expanded[s->iterations] = sum;
    }
    s->iterations++;
    s->rerun += r->rerun;
    if (s->min_units == 0 || r->n < s->min_units)
        s->min_units = r->n;
}

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    char msg[PUZ_MSG_MAX] = "";

    if (fx == NULL)
        return -1;
    if (puz_tables_create(&fx->tables) != PUZ_OK ||
        test_pdb_add(fx->tables, PUZ_PDB_663, msg) != 0 ||
        test_pdb_add(fx->tables, PUZ_PDB_4X6, msg) != 0) {
        fprintf(stderr, "test_idastar_units: setup failed: %s\n", msg);
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;

    puz_tables_destroy(fx->tables);
    free(fx);
    return 0;
}

/* A runner that loses pieces the first time it sees them: every third
 * one (by its index in the call) is never run, as if the worker that
 * took it died. */
struct lossy {
    unsigned calls, lost;
};

static void lossy_run(void (*piece)(void *work, unsigned i), void *work,
                      unsigned n, void *user)
{
    struct lossy *l = user;

    l->calls++;
    for (unsigned i = 0; i < n; i++) {
        if (l->calls % 2 == 1 && i % 3 == 1) {
            l->lost++;
            continue;
        }
        piece(work, i);
    }
}

/* A runner that loses everything: the core must run the units itself. */
static void dead_run(void (*piece)(void *work, unsigned i), void *work,
                     unsigned n, void *user)
{
    unsigned *calls = user;

    (void)piece;
    (void)work;
    (void)n;
    (*calls)++;
}

/* Solve with IDA* + pdb; layers (per-iteration expansions) into lay. */
static void solve(const struct fixture *fx, const struct puz_board *b,
                  struct puz_solve_opts *o, struct puz_result *r,
                  struct puz_trace_layer *lay, unsigned *nlay)
{
    puz_arena *a = puz_arena_create(1 << 16);
    puz_trace *t;

    assert_non_null(a);
    t = puz_trace_create(a, 0);
    assert_non_null(t);
    o->algorithm = PUZ_ALG_IDASTAR;
    o->heuristic = puz_heuristic_find("pdb");
    o->tables = fx->tables;
    o->trace = t;
    assert_int_equal(puz_solve(b, o, a, r), PUZ_OK);
    assert_int_equal(r->status, PUZ_SOLVED);
    assert_true(r->optimal);
    assert_string_equal(puz_heuristic_name(r->heuristic), "pdb");
    *nlay = puz_trace_layers(t, lay, PUZ_TRACE_LAYERS);
    {
        struct puz_board end;
        assert_int_equal(puz_replay(b, r->moves, r->length, &end),
                         PUZ_OK);
        assert_int_equal(end.cells[end.n * end.n - 1], 0);
    }
    r->moves = r->tiles = NULL;     /* the arena goes */
    puz_arena_destroy(a);
}

/*
 * One board: one thread, then units through runner (run == NULL: one
 * after another here). The same length; every iteration but the last
 * the same expansions; each iteration cut into units is its frontier
 * plus its units.
 */
static void check_board(const struct fixture *fx, const struct puz_board *b,
                        unsigned threads, puz_run_fn run, void *run_user,
                        struct seen *seen)
{
    struct puz_trace_layer l1[PUZ_TRACE_LAYERS], lp[PUZ_TRACE_LAYERS];
    unsigned n1, np;
    struct puz_solve_opts o = { 0 };
    struct puz_result r1, rp;

    solve(fx, b, &o, &r1, l1, &n1);
    memset(&o, 0, sizeof(o));
    memset(seen, 0, sizeof(*seen));
    o.threads = threads;
    o.run = run;
    o.run_user = run_user;
    o.units = on_units;
    o.units_user = seen;
    solve(fx, b, &o, &rp, lp, &np);
    assert_int_equal(rp.length, r1.length);
    assert_int_equal(np, n1);
    for (unsigned i = 0; i + 1 < n1; i++) {
        assert_int_equal(lp[i].f, l1[i].f);
        assert_true(lp[i].expanded == l1[i].expanded);
    }
    /* layers are running totals' differences per bound: match units */
    for (unsigned i = 0; i < seen->iterations && i < MAX_ITER; i++) {
        unsigned j = 0;
        while (j < np && lp[j].f != seen->bound[i])
            j++;
        assert_true(j < np);
        assert_true(lp[j].expanded == seen->expanded[i]);
    }
}

static void boards(unsigned n, unsigned moves, unsigned count, uint64_t seed,
                   struct puz_board *out)
{
    struct puz_board goal;
    struct puz_rng rng;

    assert_int_equal(puz_board_goal(n, &goal), PUZ_OK);
    puz_rng_seed(&rng, seed);
    for (unsigned i = 0; i < count; i++)
        test_walk(&goal, moves, &rng, &out[i]);
}

static void test_4x4_units_same_as_one_thread(void **state)
{
    struct puz_board b[6];
    struct seen seen;

    boards(4, 200, 6, 30, b);
    for (unsigned i = 0; i < 6; i++) {
        check_board(*state, &b[i], 4, NULL, NULL, &seen);
        assert_true(seen.iterations > 0);
        assert_true(seen.min_units >= 4 * PUZ_UNITS_PER_THREAD);
        assert_int_equal(seen.rerun, 0);
    }
}

static void test_5x5_units_same_as_one_thread(void **state)
{
    struct puz_board b[3];
    struct seen seen;

    /* 56 moves each, 2-6 M expansions with the 4x6 tables (other seeds'
     * 80-move walks can need 10^9) */
    boards(5, 80, 3, 33, b);
    for (unsigned i = 0; i < 3; i++) {
        check_board(*state, &b[i], 2, NULL, NULL, &seen);
        assert_true(seen.iterations > 0);
    }
}

static void test_threads_same_as_one_thread(void **state)
{
    struct puz_board b4[4], b5[3];
    struct seen seen;
    unsigned threads = 2;

    boards(4, 200, 4, 32, b4);
    boards(5, 80, 3, 33, b5);
    for (unsigned i = 0; i < 4; i++)
        check_board(*state, &b4[i], 2, pool_run_units, &threads, &seen);
    threads = 3;
    for (unsigned i = 0; i < 3; i++)
        check_board(*state, &b5[i], 3, pool_run_units, &threads, &seen);
}

static void test_lost_units_run_again(void **state)
{
    struct puz_board b[3];
    struct seen seen;
    struct lossy l = { 0, 0 };
    unsigned calls = 0;

    boards(4, 200, 3, 34, b);
    for (unsigned i = 0; i < 3; i++)
        check_board(*state, &b[i], 2, lossy_run, &l, &seen);
    assert_true(l.lost > 0);
    assert_true(seen.rerun > 0);
    /* a runner that never runs anything: the core does it all */
    check_board(*state, &b[0], 2, dead_run, &calls, &seen);
    assert_true(calls > 0);
    assert_true(seen.rerun > 0);
}

/* A runner that sends every piece "elsewhere": described as data, run
 * by puz_solve_unit on an arena and opts of its own (as another
 * instance would, with the same tables), and filed back. The first call
 * loses every fourth piece (its worker died) and files every fifth
 * twice (a unit given out again whose first run came back late). */
struct remote {
    const struct puz_board *start;
    const puz_tables *tables;
    unsigned calls, lost, twice, ran;
};

static void remote_run(void (*piece)(void *work, unsigned i), void *work,
                       unsigned n, void *user)
{
    struct remote *rm = user;

    (void)piece;
    rm->calls++;
    for (unsigned i = 0; i < n && !puz_units_over(work); i++) {
        struct puz_solve_opts o = { 0 };
        struct puz_unit un;
        struct puz_unit_result res;
        puz_arena *a = puz_arena_create(1 << 12);

        assert_non_null(a);
        puz_units_describe(work, i, &un);
        o.tables = rm->tables;
        assert_int_equal(puz_solve_unit(rm->start, &o, &un, a, &res),
                         PUZ_OK);
        assert_int_equal(res.status, PUZ_SOLVED);
        rm->ran++;
        if (rm->calls == 1 && i % 4 == 3) {
            rm->lost++;
        } else {
            puz_units_store(work, i, &res);
            if (rm->calls == 1 && i % 5 == 0) {
                puz_units_store(work, i, &res);
                rm->twice++;
            }
        }
        puz_arena_destroy(a);
    }
}

static void test_units_run_elsewhere(void **state)
{
    const struct fixture *fx = *state;
    struct puz_board b4[3], b5[2];
    struct seen seen;

    boards(4, 200, 3, 35, b4);
    boards(5, 80, 2, 33, b5);
    for (unsigned i = 0; i < 5; i++) {
        const struct puz_board *b = i < 3 ? &b4[i] : &b5[i - 3];
        struct remote rm = { b, fx->tables, 0, 0, 0, 0 };

        check_board(fx, b, 2, remote_run, &rm, &seen);
        assert_true(rm.ran > 0);
        assert_true(rm.lost > 0);
        assert_true(rm.twice > 0);
        assert_true(seen.rerun >= rm.lost);
    }
}

/* What cannot be a unit of the search is refused, not searched. */
static void test_unit_refused(void **state)
{
    const struct fixture *fx = *state;
    struct puz_board b[1], b3;
    struct puz_solve_opts o = { 0 };
    struct puz_unit un = { 40, 2, { 0, 1 } };
    struct puz_unit_result res;
    puz_arena *a = puz_arena_create(1 << 12);

    boards(4, 200, 1, 35, b);
    o.tables = fx->tables;
    un.moves[1] = 7;                /* not a direction */
    assert_int_equal(puz_solve_unit(&b[0], &o, &un, a, &res), PUZ_EINVAL);
    assert_int_not_equal(res.status, PUZ_SOLVED);
    un.moves[1] = 1;
    un.cut = 50;                    /* deeper than any cut */
    assert_int_equal(puz_solve_unit(&b[0], &o, &un, a, &res), PUZ_EINVAL);
    un.cut = 2;
    o.tables = NULL;                /* no tables: no unit of pdb IDA* */
    assert_int_equal(puz_solve_unit(&b[0], &o, &un, a, &res), PUZ_EINVAL);
    assert_int_not_equal(res.status, PUZ_SOLVED);
    o.tables = fx->tables;
    assert_int_equal(puz_board_goal(3, &b3), PUZ_OK);
    assert_int_equal(puz_solve_unit(&b3, &o, &un, a, &res), PUZ_EINVAL);
    puz_arena_destroy(a);
}

static void test_budget_stops_all_units(void **state)
{
    const struct fixture *fx = *state;
    struct puz_board b[6];
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    unsigned threads = 2;
    puz_arena *a = puz_arena_create(1 << 16);

    boards(4, 200, 6, 30, b);       /* b[5]: 390 k expansions, 56 moves */
    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    o.tables = fx->tables;
    o.threads = threads;
    o.run = pool_run_units;
    o.run_user = &threads;
    o.limits.max_nodes = 50000;
    assert_int_equal(puz_solve(&b[5], &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_LIMIT_NODES);
    /* checked every 4096 expansions per unit, not exactly */
    assert_true(r.stats.expanded >= 50000);
    assert_true(r.stats.expanded < 50000 + 2 * 4096 + 1000);
    puz_arena_destroy(a);
}

/* Serial units (threads 2, run NULL) in one order or the other: the
 * length, and each iteration's expansions into seen. */
static unsigned solve_in_order(const struct fixture *fx,
                               const struct puz_board *b, bool walk,
                               struct seen *seen)
{
    struct puz_trace_layer lay[PUZ_TRACE_LAYERS];
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    unsigned nlay;

    memset(seen, 0, sizeof(*seen));
    o.threads = 2;
    o.units = on_units;
    o.units_user = seen;
    o.units_walk_order = walk;
    solve(fx, b, &o, &r, lay, &nlay);
    assert_true(seen->iterations > 1 && seen->iterations <= MAX_ITER);
    return r.length;
}

/*
 * The last iteration stops at the first unit that reaches the goal, so
 * the order units are handed out in decides what it costs. Nearest the
 * goal first (the default: by the smallest h each unit's subtree
 * expanded in the iteration before) against the frontier walk's order:
 * the same lengths, every iteration but the last the same, and the last
 * ones cheaper in all (when written: 2,125,486 expansions against
 * 8,271,326, 0.26x; 0.21x-0.29x on each 5x5 board, and one 4x4 board
 * dearer). A reversed or ignored order fails.
 */
static void test_last_iteration_nearest_first(void **state)
{
    const struct fixture *fx = *state;
    struct puz_board b4[6], b5[3];
    uint64_t near = 0, walk = 0;

    boards(4, 200, 6, 30, b4);
    boards(5, 80, 3, 33, b5);
    for (unsigned i = 0; i < 9; i++) {
        const struct puz_board *b = i < 6 ? &b4[i] : &b5[i - 6];
        struct seen sn, sw;
        unsigned ln = solve_in_order(fx, b, false, &sn);
        unsigned last;

        assert_int_equal(solve_in_order(fx, b, true, &sw), ln);
        assert_int_equal(sn.iterations, sw.iterations);
        last = sn.iterations - 1;
        for (unsigned k = 0; k < last; k++) {
            assert_int_equal(sn.bound[k], sw.bound[k]);
            assert_true(sn.expanded[k] == sw.expanded[k]);
        }
        near += sn.expanded[last];
        walk += sw.expanded[last];
        printf("board %u: %u moves, last iteration %llu nearest first, "
               "%llu walk order\n", i, ln,
               (unsigned long long)sn.expanded[last],
               (unsigned long long)sw.expanded[last]);
    }
    assert_true(near < walk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_4x4_units_same_as_one_thread),
        cmocka_unit_test(test_5x5_units_same_as_one_thread),
        cmocka_unit_test(test_threads_same_as_one_thread),
        cmocka_unit_test(test_lost_units_run_again),
        cmocka_unit_test(test_units_run_elsewhere),
        cmocka_unit_test(test_unit_refused),
        cmocka_unit_test(test_budget_stops_all_units),
        cmocka_unit_test(test_last_iteration_nearest_first),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
