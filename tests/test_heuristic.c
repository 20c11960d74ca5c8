/*
 * test_heuristic.c - every heuristic is admissible (never above the true
 * distance, checked on all 181,440 3x3 states against an independent
 * BFS, for two goals), zero at the goal, ordered as promised
 * (misplaced <= manhattan <= linear-conflict), and its incremental update
 * (and per-node state update, where it has one) agrees with a full
 * evaluation along long random walks on every size, as do its tables
 * (as_tables, what the packed A* and IDA* read) on 3x3 and 4x4.
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
#include "support/truth3.h"

static const char *const formulas[] = { "misplaced", "manhattan",
                                        "linear-conflict" };

static void check_admissible_3x3(const uint8_t *goal_cells)
{
    struct truth3 *t = malloc(sizeof(*t));
    struct puz_board goal = { .n = 3 }, b = { .n = 3 };
    puz_arena *a = puz_arena_create(1 << 16);
    unsigned long long sum[3] = { 0 };

    assert_non_null(t);
    assert_int_equal(truth3_build(t, goal_cells), 0);
    memcpy(goal.cells, goal_cells, 9);
    for (uint32_t r = 0; r < TRUTH3_PERMS; r++) {
        unsigned h[3];
        if (t->dist[r] == TRUTH3_NONE)
            continue;
        truth3_unrank(r, b.cells);
        for (int k = 0; k < 3; k++) {
            puz_arena_reset(a);
            assert_int_equal(puz_heuristic_eval(puz_heuristic_find(
                                                    formulas[k]), &b, &goal,
                                                NULL, a, &h[k], NULL),
                             PUZ_OK);
            if (h[k] > t->dist[r])
                fail_msg("%s overestimates: %u > %u", formulas[k], h[k],
                         t->dist[r]);
            sum[k] += h[k];
        }
        assert_true(h[0] <= h[1] && h[1] <= h[2]);
        if (t->dist[r] == 0)
            assert_true(h[0] == 0 && h[1] == 0 && h[2] == 0);
    }
    /* linear conflict must actually add something over Manhattan */
    assert_true(sum[2] > sum[1] && sum[1] > sum[0]);
    puz_arena_destroy(a);
    free(t);
}

static void test_admissible_on_every_3x3_state(void **state)
{
    static const uint8_t blank_last[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
    static const uint8_t blank_first[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };

    (void)state;
    check_admissible_3x3(blank_last);
    check_admissible_3x3(blank_first);
}

/* Walk randomly; after each move the updated h must equal a fresh eval. */
static void check_updates(const puz_heuristic *h, unsigned n,
                          struct puz_rng *rng, puz_arena *a)
{
    struct puz_board goal, b;
    struct puz__hargs args = { &goal, NULL, a };
    void *ctx = NULL;
    unsigned value, svalue = 0;
    unsigned char s1[PUZ__HSTATE_MAX], s2[PUZ__HSTATE_MAX], *state = s1;

    puz_board_goal(n, &goal);
    assert_int_equal(h->prepare(&args, &ctx, NULL), PUZ_OK);
    b = goal;
    value = h->eval(ctx, b.cells);
    assert_int_equal(value, 0);
    assert_true(h->state_size <= sizeof(s1));
    if (h->state_size > 0)
        assert_int_equal(h->state_init(ctx, b.cells, state), 0);
    for (int step = 0; step < 3000; step++) {
        unsigned d = (unsigned)puz_rng_below(rng, 4), from, to, tile;
        if (!puz_board_can_move(&b, (enum puz_dir)d))
            continue;
        to = b.blank;
        tile = puz_board_move(&b, (enum puz_dir)d);
        from = b.blank;
        if (h->update != NULL)
            value = h->update(ctx, b.cells, value, tile, from, to);
        else
            value = h->eval(ctx, b.cells);
        if (value != h->eval(ctx, b.cells))
            fail_msg("%s on %ux%u: update gives %u, eval %u at step %d",
                     h->name, n, n, value, h->eval(ctx, b.cells), step);
        if (h->state_size > 0) {
            unsigned char *next = state == s1 ? s2 : s1;
            svalue = h->state_update(ctx, b.cells, state, next, svalue,
                                     tile, from, to);
            state = next;
            if (svalue != value)
                fail_msg("%s on %ux%u: state update gives %u, eval %u at "
                         "step %d", h->name, n, n, svalue, value, step);
        }
    }
}

static void test_updates_match_eval_on_every_size(void **state)
{
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    puz_rng_seed(&rng, 7);
    for (unsigned n = 2; n <= 8; n++) {
        for (int k = 0; k < 3; k++) {
            puz_arena_reset(a);
            check_updates(puz_heuristic_find(formulas[k]), n, &rng, a);
        }
    }
    puz_arena_destroy(a);
}

/* h as the tables say (puz__htables): tile costs plus twice the line
 * costs of every row and column. */
static unsigned tables_value(const struct puz__htables *t,
                             const struct puz_board *b)
{
    unsigned n = b->n, h = 0;

    for (unsigned i = 0; i < n * n; i++)
        h += t->tile_cost[b->cells[i]][i];
    for (unsigned line = 0; t->line_cost != NULL && line < n; line++) {
        unsigned row = 0, col = 0;
        for (unsigned k = 0; k < n; k++) {
            row += t->row_digit[b->cells[line * n + k]][line * n + k];
            col += t->col_digit[b->cells[k * n + line]][k * n + line];
        }
        h += 2u * t->line_cost[row] + 2u * t->line_cost[col];
    }
    return h;
}

/* The searches that read a heuristic as tables (A* and IDA* on 3x3 and
 * 4x4) get the value eval gives: on every 3x3 state for two goals, and
 * along random walks on 4x4. */
static void test_tables_match_eval(void **state)
{
    static const uint8_t goals[2][9] = { { 1, 2, 3, 4, 5, 6, 7, 8, 0 },
                                         { 0, 1, 2, 3, 4, 5, 6, 7, 8 } };
    struct truth3 *tr = malloc(sizeof(*tr));
    puz_arena *a = puz_arena_create(1 << 16);
    struct puz_rng rng;

    (void)state;
    assert_non_null(tr);
    puz_rng_seed(&rng, 11);
    for (int k = 0; k < 3; k++) {
        const puz_heuristic *h = puz_heuristic_find(formulas[k]);
        for (int g = 0; g < 3; g++) {
            struct puz_board goal = { .n = 3 }, b = { .n = 3 };
            struct puz__hargs args = { &goal, NULL, a };
            struct puz__htables t;
            void *ctx = NULL;
            puz_arena_reset(a);
            if (g < 2) {
                memcpy(goal.cells, goals[g], 9);
                goal.blank = (uint8_t)(g == 0 ? 8 : 0);
            } else {
                puz_board_goal(4, &goal);
            }
            assert_int_equal(h->prepare(&args, &ctx, NULL), PUZ_OK);
            assert_true(h->as_tables(ctx, &t));
            if (g == 2) {
                for (int i = 0; i < 2000; i++) {
                    assert_int_equal(puz_random_board(4, 80, &goal, NULL,
                                                      &rng, &b), PUZ_OK);
                    assert_int_equal(tables_value(&t, &b),
                                     h->eval(ctx, b.cells));
                }
                continue;
            }
            assert_int_equal(truth3_build(tr, goals[g]), 0);
            for (uint32_t r = 0; r < TRUTH3_PERMS; r++) {
                if (tr->dist[r] == TRUTH3_NONE)
                    continue;
                truth3_unrank(r, b.cells);
                if (tables_value(&t, &b) != h->eval(ctx, b.cells))
                    fail_msg("%s: tables give %u, eval %u", h->name,
                             tables_value(&t, &b), h->eval(ctx, b.cells));
            }
        }
    }
    puz_arena_destroy(a);
    free(tr);
}

static void test_known_values(void **state)
{
    struct puz_board goal, b;
    char msg[PUZ_MSG_MAX];
    puz_arena *a = puz_arena_create(1 << 16);
    unsigned h;

    (void)state;
    puz_board_goal(3, &goal);
    /* 2 1 3 / 4 5 6 / 7 8 0: tiles 1 and 2 swapped in their goal row */
    assert_int_equal(puz_board_parse("2 1 3 4 5 6 7 8 0", &b, msg), PUZ_OK);
    puz_heuristic_eval(puz_heuristic_find("misplaced"), &b, &goal, NULL, a,
                       &h, msg);
    assert_int_equal(h, 2);
    puz_heuristic_eval(puz_heuristic_find("manhattan"), &b, &goal, NULL, a,
                       &h, msg);
    assert_int_equal(h, 2);
    puz_heuristic_eval(puz_heuristic_find("linear-conflict"), &b, &goal,
                       NULL, a, &h, msg);
    assert_int_equal(h, 4);
    /* 3 2 1 in the top row: two of the three must step aside */
    assert_int_equal(puz_board_parse("3 2 1 4 5 6 7 8 0", &b, msg), PUZ_OK);
    puz_heuristic_eval(puz_heuristic_find("linear-conflict"), &b, &goal,
                       NULL, a, &h, msg);
    assert_int_equal(h, 4 + 2 * 2);
    puz_arena_destroy(a);
}

static void test_registry(void **state)
{
    (void)state;
    assert_true(puz_heuristic_count() >= 3);
    for (size_t i = 0; i < puz_heuristic_count(); i++) {
        const puz_heuristic *h = puz_heuristic_at(i);
        assert_ptr_equal(puz_heuristic_find(puz_heuristic_name(h)), h);
        assert_true(puz_heuristic_admissible(h));
        assert_true(strlen(puz_heuristic_description(h)) > 10);
    }
    assert_null(puz_heuristic_at(puz_heuristic_count()));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_admissible_on_every_3x3_state),
        cmocka_unit_test(test_updates_match_eval_on_every_size),
        cmocka_unit_test(test_tables_match_eval),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
