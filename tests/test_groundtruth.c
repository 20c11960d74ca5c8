/*
 * test_groundtruth.c - the solver against exhaustive truth. An independent
 * BFS (tests/support/truth3.c) gives the distance of every 3x3 state;
 * A* with manhattan and linear-conflict must return a legal path of
 * exactly that length on every one of the 181,440 states, and the other
 * optimal searches on a seeded random sample (5,000 for the informed
 * ones, fewer for the blind) plus one state at every distance 0..31. The exact table (puz_table3) must agree everywhere.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "puz_random.h"
#include "puz_solve.h"
#include "puz_table3.h"
#include "support/truth3.h"

static const uint8_t default_goal[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };

struct fixture {
    struct truth3 truth;
    uint32_t solvable[181440];   /* ranks of the reachable states */
    uint32_t count;
    uint32_t farthest[2];
    uint32_t by_dist[32];        /* one state at each distance 0..31 */
};

static int setup(void **state)
{
    struct fixture *fx = malloc(sizeof(*fx));
    unsigned far = 0;

    if (fx == NULL || truth3_build(&fx->truth, default_goal) != 0)
        return -1;
    fx->count = 0;
    memset(fx->by_dist, 0xff, sizeof(fx->by_dist));
    for (uint32_t r = 0; r < TRUTH3_PERMS; r++) {
        if (fx->truth.dist[r] == TRUTH3_NONE)
            continue;
        fx->solvable[fx->count++] = r;
        if (fx->truth.dist[r] < 32 && fx->by_dist[fx->truth.dist[r]] == UINT32_MAX)
            fx->by_dist[fx->truth.dist[r]] = r;
        if (fx->truth.dist[r] == 31 && far < 2)
            fx->farthest[far++] = r;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    free(*state);
    return 0;
}

static void board_of(uint32_t rank, struct puz_board *b)
{
    memset(b, 0, sizeof(*b));
    b->n = 3;
    truth3_unrank(rank, b->cells);
    for (unsigned i = 0; i < 9; i++)
        if (b->cells[i] == 0)
            b->blank = (uint8_t)i;
}

static void test_state_space_shape(void **state)
{
    struct fixture *fx = *state;
    unsigned at31 = 0;

    assert_int_equal(fx->count, 181440);
    assert_int_equal(fx->truth.max_dist, 31);
    for (uint32_t i = 0; i < fx->count; i++)
        at31 += fx->truth.dist[fx->solvable[i]] == 31;
    assert_int_equal(at31, 2);
}

/* Solve rank with opts and check: solved, legal, optimal length, sane
 * stats. Returns 0, or -1 with why filled. Asserts nothing itself so
 * that worker threads can run it. */
static int verify(const struct fixture *fx, uint32_t rank,
                  const struct puz_solve_opts *o, puz_arena *a, char *why,
                  size_t why_size)
{
    struct puz_board b, end, goal;
    struct puz_result r;
    unsigned want = fx->truth.dist[rank];
    char text[64];

    board_of(rank, &b);
    puz_board_format(&b, text, sizeof(text));
    puz_board_goal(3, &goal);
    puz_arena_reset(a);
    if (puz_solve(&b, o, a, &r) != PUZ_OK || r.status != PUZ_SOLVED ||
        r.length != want) {
        snprintf(why, why_size, "%s+%s on '%s': status %s length %u, "
                 "optimal is %u", puz_algorithm_name(r.algorithm),
                 r.heuristic ? puz_heuristic_name(r.heuristic) : "-", text,
                 puz_status_name(r.status), r.length, want);
        return -1;
    }
    if (puz_replay(&b, r.moves, r.length, &end) != PUZ_OK ||
        !puz_board_equal(&end, &goal)) {
        snprintf(why, why_size, "'%s': the path is illegal or misses the "
                 "goal", text);
        return -1;
    }
    if (!r.optimal || r.stats.expanded < r.length ||
        (r.length > 0 && r.stats.generated < r.stats.expanded)) {
        snprintf(why, why_size, "'%s': optimal flag %d, expanded %llu, "
                 "generated %llu", text, r.optimal,
                 (unsigned long long)r.stats.expanded,
                 (unsigned long long)r.stats.generated);
        return -1;
    }
    for (unsigned i = 0; i < r.length; i++) {
        if (r.tiles[i] < 1 || r.tiles[i] > 8) {
            snprintf(why, why_size, "'%s': tile %u slid", text, r.tiles[i]);
            return -1;
        }
    }
    return 0;
}

/* A share of the ranks to check on one of two threads. */
struct job {
    const struct fixture *fx;
    const struct puz_solve_opts *opts;
    const uint32_t *ranks;
    uint32_t count;
    int failed;
    char why[PUZ_MSG_MAX];
};

static void *run_job(void *arg)
{
    struct job *j = arg;
    /* big enough for a whole BFS, so reset keeps it and no solve pays
     * for fresh pages */
    puz_arena *a = puz_arena_create(64 << 20);

    j->failed = a == NULL;
    snprintf(j->why, sizeof(j->why), "out of memory");
    for (uint32_t i = 0; a != NULL && i < j->count && !j->failed; i++)
        j->failed = verify(j->fx, j->ranks[i], j->opts, a, j->why,
                           sizeof(j->why)) != 0;
    puz_arena_destroy(a);
    return NULL;
}

/* Check ranks[0..count) with opts on two threads (the machine has two
 * cores); fail the test with the first problem found. */
static void check_ranks(const struct fixture *fx,
                        const struct puz_solve_opts *o,
                        const uint32_t *ranks, uint32_t count)
{
    struct job jobs[2];
    pthread_t tid;
    uint32_t half = count / 2;

    jobs[0] = (struct job){ fx, o, ranks, half, 0, "" };
    jobs[1] = (struct job){ fx, o, ranks + half, count - half, 0, "" };
    assert_int_equal(pthread_create(&tid, NULL, run_job, &jobs[1]), 0);
    run_job(&jobs[0]);
    assert_int_equal(pthread_join(tid, NULL), 0);
    for (int k = 0; k < 2; k++)
        if (jobs[k].failed)
            fail_msg("%s", jobs[k].why);
}

/*
 * PUZZLED_QUICK=1 (set by make test-asan, where every solve costs ten
 * times more) samples a tenth as much and turns the full sweeps into
 * samples; the plain `make test` keeps the whole state space.
 */
static bool quick(void)
{
    const char *q = getenv("PUZZLED_QUICK");

    return q != NULL && *q != '\0' && strcmp(q, "0") != 0;
}

/* The two 31-move states, one state at every distance 0..30 and count
 * seeded random ones (which fall mostly at 20-24 moves). */
static void sample(void **state, enum puz_algorithm alg, const char *h,
                   unsigned count)
{
    struct fixture *fx = *state;
    struct puz_solve_opts o = { .algorithm = alg };
    uint32_t *ranks = malloc((count + 2 + 31) * sizeof(*ranks));
    uint32_t n = 0;
    struct puz_rng rng;

    if (quick())
        count /= 10;
    assert_non_null(ranks);
    o.heuristic = h ? puz_heuristic_find(h) : NULL;
    puz_rng_seed(&rng, 20261201);
    ranks[n++] = fx->farthest[0];
    ranks[n++] = fx->farthest[1];
    for (unsigned d = 0; d < 31; d++) {
        assert_int_not_equal(fx->by_dist[d], UINT32_MAX);
        ranks[n++] = fx->by_dist[d];
    }
    for (unsigned k = 0; k < count; k++)
        ranks[n++] = fx->solvable[puz_rng_below(&rng, fx->count)];
    check_ranks(fx, &o, ranks, n);
    free(ranks);
}

static void sweep_all(void **state, const char *heuristic)
{
    struct fixture *fx = *state;
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_ASTAR };

    if (quick()) {
        sample(state, PUZ_ALG_ASTAR, heuristic, 20000);
        return;
    }
    o.heuristic = puz_heuristic_find(heuristic);
    assert_non_null(o.heuristic);
    check_ranks(fx, &o, fx->solvable, fx->count);
}

static void test_astar_manhattan_every_state(void **state)
{
    sweep_all(state, "manhattan");
}

static void test_astar_linear_conflict_every_state(void **state)
{
    sweep_all(state, "linear-conflict");
}

static void test_astar_misplaced_sample(void **state)
{
    sample(state, PUZ_ALG_ASTAR, "misplaced", 5000);
}

static void test_idastar_sample(void **state)
{
    sample(state, PUZ_ALG_IDASTAR, "linear-conflict", 5000);
    sample(state, PUZ_ALG_IDASTAR, "manhattan", 5000);
}

static void test_bnb_sample(void **state)
{
    sample(state, PUZ_ALG_BNB, NULL, 2000);
}

/* Blind searches cost what the whole ball around the start costs (BFS
 * ~100k states for a typical 22-move board), so they take fewer random
 * boards: every distance is still covered by the fixed ones. */
static void test_bfs_sample(void **state)
{
    sample(state, PUZ_ALG_BFS, NULL, 500);
}

/* The exact table must agree with the independent BFS on every state. */
static void test_table3_matches_truth(void **state)
{
    struct fixture *fx = *state;
    puz_table3 *t;
    uint32_t per_dist[32] = { 0 };

    assert_int_equal(puz_table3_create(NULL, &t), PUZ_OK);
    assert_int_equal(puz_table3_max_distance(t), 31);
    for (uint32_t r = 0; r < TRUTH3_PERMS; r++) {
        struct puz_board b;
        board_of(r, &b);
        assert_int_equal(puz_table3_distance(t, &b),
                         fx->truth.dist[r] == TRUTH3_NONE
                             ? PUZ_TABLE3_UNREACHABLE : fx->truth.dist[r]);
        if (fx->truth.dist[r] != TRUTH3_NONE)
            per_dist[fx->truth.dist[r]]++;
    }
    for (unsigned d = 0; d <= 31; d++) {
        struct puz_board b;
        assert_int_equal(puz_table3_count_at(t, d), per_dist[d]);
        assert_int_equal(puz_table3_state_at(t, d, per_dist[d] - 1, &b),
                         PUZ_OK);
        assert_int_equal(truth3_distance(&fx->truth, b.cells), d);
    }
    assert_int_equal(puz_table3_count_at(t, 32), 0);
    puz_table3_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_state_space_shape),
        cmocka_unit_test(test_table3_matches_truth),
        cmocka_unit_test(test_astar_manhattan_every_state),
        cmocka_unit_test(test_astar_linear_conflict_every_state),
        cmocka_unit_test(test_astar_misplaced_sample),
        cmocka_unit_test(test_idastar_sample),
        cmocka_unit_test(test_bnb_sample),
        cmocka_unit_test(test_bfs_sample),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
