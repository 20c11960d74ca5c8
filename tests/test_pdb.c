/*
 * test_pdb.c - pattern databases: tables against an independent 0-1 BFS,
 * admissibility and consistency on random boards, Korf's instances that
 * 6-6-3 solves quickly (published lengths, replayed paths), goals served
 * by symmetry, the 3x3 exact table against an independent BFS, and cache
 * files: round trip, and every kind of damage rejected, reported and
 * rebuilt. On 5x5: the builder and shared tables against the truth,
 * admissibility, the reflected lookup against an independently
 * reflected board, additivity (groups cycled alone and together, against
 * an independent search), optimal solves with the small 4x6 tables
 * against an independent search, expanded and generated nodes counted
 * by an independent IDA* (4x4 and 5x5), files, and tables that outlive
 * their truncated file. The forbidden-move pruning has its own test
 * (test_movefsm.c).
 *
 * The 6-6-3 and 4x6 tables come from $BUILD/pdb-cache (default
 * build/pdb-cache; tests/support/pdbcache.c builds them there the first
 * time, a few seconds); the cache tests work on copies.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/heur/pdb_impl.h"
#include "core/heur/pdb_parts.h"
#include "pool_pieces.h"
#include "puz_pdb.h"
#include "puz_random.h"
#include "puz_solve.h"
#include "support/pdbcache.h"
#include "support/truth3.h"
#include "support/walk.h"

#define KORF_TSV "tests/data/korf100.tsv"

/* With 6-6-3 every one of Korf's instances solves in under a second here
 * (bench/korf100: at most 0.33 s, 2.7 s for all 100), so all are tested;
 * PUZ_TEST_KORF=N keeps the first N (for valgrind runs), PUZZLED_QUICK
 * the first 20. */
#define KORF_COUNT 100u

struct fixture {
    puz_tables *tables;          /* 6-6-3 and 4x6 (corner class), 3x3 */
    char cached5[512];           /* the 4x6 cache file */
    char dir[256];               /* scratch directory for file tests */
    char cached[512];            /* the 6-6-3 cache file */
};

static void quiet(const struct puz_pdb_progress *p, void *user)
{
    unsigned *notes = user;

    if (p->kind == PUZ_PDB_EV_NOTE && notes != NULL)
        (*notes)++;
}

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    char msg[PUZ_MSG_MAX];
    puz_pdb *d;

    if (fx == NULL)
        return -1;
    snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_pdb.XXXXXX");
    if (mkdtemp(fx->dir) == NULL)
        return -1;
    if (puz_tables_create(&fx->tables) != PUZ_OK ||
        test_pdb_cached(PUZ_PDB_663, &d, fx->cached, sizeof(fx->cached),
                        msg) != 0 ||
        puz_tables_add_pdb(fx->tables, d) != PUZ_OK ||
        test_pdb_cached(PUZ_PDB_4X6, &d, fx->cached5, sizeof(fx->cached5),
                        msg) != 0 ||
        puz_tables_add_pdb(fx->tables, d) != PUZ_OK ||
        puz_tables_add_3x3(fx->tables) != PUZ_OK) {
        fprintf(stderr, "test_pdb: setup failed: %s\n", msg);
        return -1;
    }
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    char cmd[300];

    puz_tables_destroy(fx->tables);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_pdb: could not remove %s\n", fx->dir);
    free(fx);
    return 0;
}

static void board_of(const char *text, struct puz_board *b)
{
    char msg[PUZ_MSG_MAX];

    assert_int_equal(puz_board_parse(text, b, msg), PUZ_OK);
}

static void test_partition_names(void **state)
{
    enum puz_pdb_partition p;

    (void)state;
    assert_int_equal(puz_pdb_partition_parse("6-6-3", &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_663);
    assert_int_equal(puz_pdb_partition_parse("78", &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_78);
    assert_string_equal(puz_pdb_partition_name(PUZ_PDB_78), "7-8");
    assert_int_equal(puz_pdb_partition_parse("5-5-5", &p), PUZ_EINVAL);
}

/* pdb_5x5 = auto: the memory of a set, from its layout, is what a build
 * of it holds; the strongest set whose build fits a budget is chosen,
 * and a budget below the smallest set's build is refused, naming it. */
static void test_strongest_within_budget(void **state)
{
    static const enum puz_pdb_partition weakest_first[] = {
        PUZ_PDB_4X6, PUZ_PDB_4X6Z, PUZ_PDB_4X6Z2,
        PUZ_PDB_6666, PUZ_PDB_6666Z, PUZ_PDB_6666Z2,
    };
    enum puz_pdb_partition p;
    size_t tables, build, b4, tz, tzb;
    puz_pdb *d = NULL;

    (void)state;
    /* the figures docs/pdb.md gives, from the layouts alone */
    assert_int_equal(puz_pdb_partition_memory(PUZ_PDB_6666, &tables,
                                              &build), PUZ_OK);
    assert_true(tables > 127000000 && tables < 128000000);
    assert_true(build > 730000000 && build < 740000000);
    assert_int_equal(puz_pdb_partition_memory(PUZ_PDB_6666Z, &tz, NULL),
                     PUZ_OK);
    assert_int_equal(puz_pdb_partition_memory(PUZ_PDB_6666ZB, &tzb, NULL),
                     PUZ_OK);
    assert_int_equal(puz_pdb_partition_memory(PUZ_PDB_6666Z2, &tables,
                                              &build), PUZ_OK);
    assert_int_equal(tables, tz + tzb);
    assert_true(tables > 563000000 && tables < 564000000);
    /* the first set is held while the second is built: over 1 GiB */
    assert_true(build > 1160000000 && build < 1175000000);
    assert_int_equal(puz_pdb_partition_memory(PUZ_PDB_PARTITION_COUNT_,
                                              &tables, &build), PUZ_EINVAL);
    assert_int_equal(tables, 0);
    /* what a built set holds is what the layout said */
    assert_int_equal(puz_pdb_build(PUZ_PDB_4X6Z2, NULL, NULL, &d, NULL),
                     PUZ_OK);
    assert_int_equal(puz_pdb_partition_memory(PUZ_PDB_4X6Z2, &tables, NULL),
                     PUZ_OK);
    assert_int_equal(puz_pdb_bytes(d), tables);
    puz_pdb_destroy(d);

    /* each set's own build fits only it and the weaker ones */
    for (size_t i = 0; i < sizeof(weakest_first) / sizeof(p); i++) {
        assert_int_equal(puz_pdb_partition_memory(weakest_first[i], NULL,
                                                  &build), PUZ_OK);
        assert_int_equal(puz_pdb_strongest_5x5(build, &p), PUZ_OK);
        assert_int_equal(p, weakest_first[i]);
        if (i > 0) {
            assert_int_equal(puz_pdb_strongest_5x5(build - 1, &p), PUZ_OK);
            assert_int_equal(p, weakest_first[i - 1]);
        }
    }
    /* the documented budgets: the default's 1.25 GiB, the tests' 64 MB */
    assert_int_equal(puz_pdb_strongest_5x5((size_t)1280 << 20, &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_6666Z2);
    assert_int_equal(puz_pdb_strongest_5x5((size_t)1 << 30, &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_6666Z);
    assert_int_equal(puz_pdb_strongest_5x5((size_t)800 << 20, &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_6666);
    assert_int_equal(puz_pdb_strongest_5x5((size_t)64 << 20, &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_4X6Z2);
    /* below the smallest: refused, naming the smallest */
    assert_int_equal(puz_pdb_partition_memory(PUZ_PDB_4X6, NULL, &b4),
                     PUZ_OK);
    p = PUZ_PDB_6666;
    assert_int_equal(puz_pdb_strongest_5x5(b4 - 1, &p), PUZ_ERANGE);
    assert_int_equal(p, PUZ_PDB_4X6);
    assert_int_equal(puz_pdb_strongest_5x5(0, &p), PUZ_ERANGE);
}

/*
 * Independent truth for one group on an n x n board (n = 4 or 5): a 0-1
 * BFS over (tile cells, blank cell) coded in fields of B = 4 or 5 bits,
 * where sliding a group tile costs 1 and moving the blank over any other
 * cell costs 0; best[placement code] is the least cost over blank cells,
 * and *all (when not NULL; the caller frees it) the cost of every state
 * (code << B | blank), which zero-aware tables must give exactly.
 * Shares no code with pdb_build.c.
 */
static unsigned field_bits(unsigned n)
{
    return n == 4 ? 4 : 5;
}

static void truth_group(const uint8_t *home, unsigned k, unsigned blank,
                        unsigned n, uint8_t *best, uint8_t **all)
{
    unsigned fb = field_bits(n), fm = (1u << fb) - 1;
    size_t states = (size_t)1 << (fb * (k + 1)), head, tail;
    uint8_t *dist = malloc(states);
    uint32_t *dq = malloc(2 * states * sizeof(*dq));
    uint32_t start = blank;

    assert_non_null(dist);
    assert_non_null(dq);
    memset(dist, 255, states);
    memset(best, 255, states >> fb);
    for (unsigned i = 0; i < k; i++)
        start |= (uint32_t)home[i] << (fb * (i + 1));
    head = tail = states;
    dist[start] = 0;
    dq[tail++] = start;
    while (head < tail) {
        uint32_t s = dq[head++];
        unsigned b = s & fm, r = b / n, c = b % n;
        int nb[4] = { r > 0 ? (int)(b - n) : -1,
                      r + 1 < n ? (int)(b + n) : -1,
                      c > 0 ? (int)b - 1 : -1, c + 1 < n ? (int)b + 1 : -1 };
        if (dist[s] < best[s >> fb])
            best[s >> fb] = dist[s];
        for (unsigned d = 0; d < 4; d++) {
            uint32_t t = (s & ~fm) | (uint32_t)nb[d];
            unsigned cost = 0;
            if (nb[d] < 0)
                continue;
            for (unsigned i = 0; i < k; i++)
                if (((s >> (fb * (i + 1))) & fm) == (unsigned)nb[d]) {
                    t = (t & ~(fm << (fb * (i + 1)))) | b << (fb * (i + 1));
                    cost = 1;
                }
            if (dist[t] <= dist[s] + cost)
                continue;
            dist[t] = (uint8_t)(dist[s] + cost);
            if (cost == 0)
                dq[--head] = t;
            else
                dq[tail++] = t;
        }
    }
    free(dq);
    if (all != NULL)
        *all = dist;
    else
        free(dist);
}

/* Compare a built table with the truth on every placement of the tiles
 * whose goal cells are home[]; the table is read through cmap (NULL:
 * identity), the way a group that shares another's table reads it. */
static void check_group_n(const uint8_t *home, unsigned k, unsigned blank,
                          unsigned n, const uint8_t *cmap,
                          const uint64_t *nib)
{
    unsigned fb = field_bits(n), fm = (1u << fb) - 1;
    size_t codes = (size_t)1 << (fb * k), checked = 0;
    uint8_t *best = malloc(codes);

    assert_non_null(best);
    truth_group(home, k, blank, n, best, NULL);
    for (size_t code = 0; code < codes; code++) {
        uint8_t pos[PUZ__PDB_MAX_K], tp[PUZ__PDB_MAX_K];
        unsigned used = 0, md = 0, ok = 1;
        for (unsigned i = 0; i < k && ok; i++) {
            pos[i] = (uint8_t)((code >> (fb * i)) & fm);
            ok &= pos[i] < n * n && !(used >> pos[i] & 1);
            used |= 1u << pos[i];
            md += (unsigned)(abs(pos[i] / (int)n - home[i] / (int)n) +
                             abs(pos[i] % (int)n - home[i] % (int)n));
            /* pos[i] may be past the board (fb bits): map only real cells */
            tp[i] = ok && cmap != NULL ? cmap[pos[i]] : pos[i];
        }
        if (!ok)
            continue;
        assert_int_equal(md + 2 * puz__pdb_entry(nib,
                                                 puz__pdb_rank(tp, k, n * n)),
                         best[code]);
        checked++;
    }
    assert_true(checked > 0);
    free(best);
}

static void check_group(const uint8_t *home, unsigned k, unsigned blank,
                        const uint64_t *nib)
{
    check_group_n(home, k, blank, 4, NULL, nib);
}

/* A group built alone through the builder, on a made-up layout; returns
 * its table (free it). One piece runs without a runner, on this thread
 * (the core's own path); more run on threads (pool_run_pieces). */
static uint64_t *build_custom_n(const uint8_t *home, unsigned k,
                                unsigned blank, unsigned n, unsigned threads)
{
    struct puz_pdb d;
    struct puz_pdb_opts o = { threads, NULL, NULL,
                              threads > 1 ? pool_run_pieces : NULL, NULL };
    uint64_t *out = malloc(puz__pdb_group_words(k, n * n) * 8);
    char msg[PUZ_MSG_MAX];

    assert_non_null(out);
    memset(&d, 0, sizeof(d));
    d.n = n;
    d.cells = n * n;
    d.goal.n = (uint8_t)n;
    d.goal.blank = (uint8_t)blank;
    d.ngroups = 1;
    d.g[0].k = k;
    d.g[0].entries = 1;
    for (unsigned i = 0; i < k; i++) {
        d.g[0].home[i] = home[i];
        d.g[0].entries *= n * n - i;
    }
    assert_int_equal(puz__pdb_build_group(&d, 0, out, &o,
                                          puz_clock_mono_us(), msg),
                     PUZ_OK);
    return out;
}

static void build_custom(const uint8_t *home, unsigned k, unsigned blank,
                         unsigned threads)
{
    uint64_t *out = build_custom_n(home, k, blank, 4, threads);

    check_group(home, k, blank, out);
    free(out);
}

static void test_group_matches_truth_edge_blank(void **state)
{
    /* The goal blank (14) is walled in by the group: the free cells of
     * the goal placement are two regions, only one at distance 0. */
    static const uint8_t home[] = { 10, 13, 15, 11 };

    (void)state;
    build_custom(home, 4, 14, 1);
}

static void test_group_matches_truth_corner_two_threads(void **state)
{
    static const uint8_t home[] = { 0, 1, 2, 4, 8 };

    (void)state;
    build_custom(home, 5, 15, 2);
}

static void test_663_small_group_matches_truth(void **state)
{
    struct fixture *fx = *state;
    struct puz_board goal;
    const puz_pdb *d;

    puz_board_goal(4, &goal);
    d = puz_tables_pdb(fx->tables, &goal);
    assert_non_null(d);
    assert_int_equal(d->ngroups, 3);
    assert_int_equal(d->g[2].k, 3);
    check_group(d->g[2].home, 3, 15, d->g[2].nib);
}

/* Walk from goal; h never exceeds the moves taken, changes parity with
 * every move like the distance does, and is at least the Manhattan
 * distance. (It may change by 3: an entry is the least over all blank
 * cells, so the tables are admissible but not always consistent.) */
static void test_admissible_and_consistent(void **state)
{
    struct fixture *fx = *state;
    const puz_heuristic *md = puz_heuristic_find("manhattan");
    struct puz_board goal, b;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);
    const puz_pdb *d;
    unsigned h, prev = 0, m;

    puz_board_goal(4, &goal);
    d = puz_tables_pdb(fx->tables, &goal);
    b = goal;
    puz_rng_seed(&rng, 42);
    for (unsigned step = 1; step <= 20000; step++) {
        enum puz_dir dir = (enum puz_dir)puz_rng_below(&rng, 4);
        if (!puz_board_can_move(&b, dir))
            continue;
        puz_board_move(&b, dir);
        assert_int_equal(puz_pdb_eval(d, &b, &goal, &h), PUZ_OK);
        assert_int_equal(puz_heuristic_eval(md, &b, &goal, NULL, a, &m,
                                            NULL), PUZ_OK);
        assert_true(h >= m);
        assert_true(((h ^ prev) & 1) == 1);
        assert_true(h <= step);
        prev = h;
    }
    puz_arena_destroy(a);
}

static int read_korf(unsigned id, struct puz_board *b, unsigned *len)
{
    const char *path = getenv("PUZ_KORF_TSV") ? getenv("PUZ_KORF_TSV")
                                              : KORF_TSV;
    FILE *f = fopen(path, "r");
    char line[256], msg[PUZ_MSG_MAX];
    int found = 0;

    assert_non_null(f);
    while (!found && fgets(line, sizeof(line), f) != NULL) {
        char *tiles = strchr(line, '\t'), *tab;
        if (tiles == NULL || (unsigned)atoi(line) != id)
            continue;
        tab = strchr(tiles + 1, '\t');
        assert_non_null(tab);
        *tab = '\0';
        *len = (unsigned)atoi(tab + 1);
        found = puz_board_parse(tiles + 1, b, msg) == PUZ_OK;
    }
    fclose(f);
    return found;
}

/* Solve with idastar + pdb towards goal; check status, replay, length. */
static void solve_check(const puz_tables *t, const struct puz_board *b,
                        const struct puz_board *goal, unsigned want)
{
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    struct puz_board end;
    puz_arena *a = puz_arena_create(1 << 16);

    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    o.goal = goal;
    o.tables = t;
    assert_int_equal(puz_solve(b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_true(r.optimal);
    assert_int_equal(r.length, want);
    assert_int_equal(puz_replay(b, r.moves, r.length, &end), PUZ_OK);
    assert_true(puz_board_equal(&end, goal));
    /* the answer names the set it read */
    assert_non_null(r.tables);
    assert_string_equal(r.tables, puz_pdb_partition_name(
                            puz_pdb_partition(puz_tables_pdb(t, goal))));
    puz_arena_destroy(a);
}

static void test_korf_quick_instances(void **state)
{
    struct fixture *fx = *state;
    struct puz_board korf_goal, b;
    unsigned len = 0;

    /* PUZZLED_QUICK (make test-asan, every solve several times slower):
     * the first 20, as PUZ_TEST_KORF=20; the release run solves all. */
    unsigned count = getenv("PUZ_TEST_KORF") ? (unsigned)atoi(
                         getenv("PUZ_TEST_KORF"))
                     : getenv("PUZZLED_QUICK") ? 20u : KORF_COUNT, total = 0;

    board_of("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &korf_goal);
    for (unsigned id = 1; id <= count && id <= KORF_COUNT; id++) {
        assert_true(read_korf(id, &b, &len));
        solve_check(fx->tables, &b, &korf_goal, len);
        total += len;
    }
    if (count >= KORF_COUNT)
        assert_int_equal(total, 5305);   /* the published sum */
}

/* A random walk of len moves from goal (never straight back). */
static void walk_from(const struct puz_board *goal, unsigned len,
                      struct puz_rng *rng, struct puz_board *out)
{
    enum puz_dir last = PUZ_NO_DIR;

    *out = *goal;
    for (unsigned i = 0; i < len;) {
        enum puz_dir d = (enum puz_dir)puz_rng_below(rng, 4);
        if ((last != PUZ_NO_DIR && d == puz_dir_opposite(last)) ||
            !puz_board_can_move(out, d))
            continue;
        puz_board_move(out, d);
        last = d;
        i++;
    }
}

static unsigned optimal_lc(const struct puz_board *b,
                           const struct puz_board *goal)
{
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 16);
    unsigned len;

    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("linear-conflict");
    o.goal = goal;
    assert_int_equal(puz_solve(b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    len = r.length;
    puz_arena_destroy(a);
    return len;
}

/* One corner table serves every goal with its blank in a corner, by
 * rotating or reflecting and relabelling; other classes are refused. */
static void test_corner_goals_share_tables(void **state)
{
    struct fixture *fx = *state;
    static const char *const goals[] = {
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "5 9 1 0 13 2 14 3 7 6 15 8 4 12 10 11",
        "3 7 11 15 2 6 10 14 1 5 9 13 0 4 8 12",
        "15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0",
    };
    struct puz_board goal, b;
    struct puz_rng rng;

    puz_rng_seed(&rng, 7);
    for (size_t g = 0; g < sizeof(goals) / sizeof(goals[0]); g++) {
        board_of(goals[g], &goal);
        assert_true(puz_tables_serves(fx->tables, &goal));
        for (unsigned k = 0; k < 3; k++) {
            walk_from(&goal, 34, &rng, &b);
            solve_check(fx->tables, &b, &goal, optimal_lc(&b, &goal));
        }
    }
    board_of("1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15", &goal);
    assert_false(puz_tables_serves(fx->tables, &goal));
    board_of("1 2 0 3 4 5 6 7 8 9 10 11 12 13 14 15", &goal);
    assert_false(puz_tables_serves(fx->tables, &goal));
}

/* Goals with the blank on an edge or in the centre get their own tables
 * (built on demand, seconds) and are solved optimally through them. */
static void test_edge_and_centre_goals(void **state)
{
    struct fixture *fx = *state;
    static const char *const goals[] = {
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15",
    };
    struct puz_pdb_opts o = { 2, quiet, NULL, pool_run_pieces, NULL };
    struct puz_board goal, b;
    struct puz_rng rng;
    char dir[sizeof(fx->cached)], msg[PUZ_MSG_MAX];
    puz_tables *t;
    puz_pdb *d;

    snprintf(dir, sizeof(dir), "%s", fx->cached);
    *strrchr(dir, '/') = '\0';
    puz_rng_seed(&rng, 17);
    for (size_t g = 0; g < sizeof(goals) / sizeof(goals[0]); g++) {
        board_of(goals[g], &goal);
        assert_int_equal(puz_pdb_open(dir, PUZ_PDB_663, &goal, &o, &d, msg),
                         PUZ_OK);
        assert_true(puz_pdb_serves(d, &goal));
        assert_int_equal(puz_tables_create(&t), PUZ_OK);
        assert_int_equal(puz_tables_add_pdb(t, d), PUZ_OK);
        for (unsigned k = 0; k < 3; k++) {
            walk_from(&goal, 34, &rng, &b);
            solve_check(t, &b, &goal, optimal_lc(&b, &goal));
        }
        puz_tables_destroy(t);
    }
}

static void test_missing_tables_are_explained(void **state)
{
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    struct puz_board b;
    puz_arena *a = puz_arena_create(1 << 16);

    (void)state;
    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    assert_non_null(o.heuristic);
    board_of("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", &b);
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_EINVAL);
    assert_non_null(strstr(r.reason, "no 4x4 pattern database"));
    board_of("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 "
             "0 24", &b);
    /* 5x5 without tables: linear conflict, and the answer says so */
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_ptr_equal(r.heuristic, puz_heuristic_find("linear-conflict"));
    assert_null(r.tables);   /* no table was read */
    puz_arena_destroy(a);
}

/* Exact on every state, for a goal of each class and a relabelled one;
 * A* with it walks straight down; it is the 3x3 default when loaded. */
static void test_3x3_exact_for_every_goal_class(void **state)
{
    struct fixture *fx = *state;
    static const uint8_t goals[4][9] = {
        { 1, 2, 3, 4, 5, 6, 7, 8, 0 }, { 1, 2, 3, 4, 0, 5, 6, 7, 8 },
        { 1, 0, 2, 3, 4, 5, 6, 7, 8 }, { 0, 8, 7, 6, 5, 4, 3, 2, 1 },
    };
    struct truth3 *t = malloc(sizeof(*t));
    puz_arena *a = puz_arena_create(1 << 16);

    assert_non_null(t);
    for (unsigned g = 0; g < 4; g++) {
        struct puz_board goal, b;
        long long v[9];
        unsigned d, n = 0;
        for (unsigned i = 0; i < 9; i++)
            v[i] = goals[g][i];
        assert_int_equal(puz_board_from_values(v, 9, &goal, NULL), PUZ_OK);
        assert_int_equal(truth3_build(t, goals[g]), 0);
        for (uint32_t r = 0; r < TRUTH3_PERMS; r++) {
            if (t->dist[r] == TRUTH3_NONE)
                continue;
            truth3_unrank(r, b.cells);
            b.n = 3;
            b.rows = 0;     /* a square (the field rectangles added) */
            for (unsigned i = 0; i < 9; i++)
                if (b.cells[i] == 0)
                    b.blank = (uint8_t)i;
            assert_int_equal(puz_tables_distance3(fx->tables, &b, &goal, &d),
                             PUZ_OK);
            assert_int_equal(d, t->dist[r]);
            if (r % 997 == 0 && n++ < 200) {
                struct puz_solve_opts o = { 0 };
                struct puz_result res;
                o.goal = &goal;
                o.tables = fx->tables;
                assert_int_equal(puz_solve(&b, &o, a, &res), PUZ_OK);
                assert_int_equal(res.length, t->dist[r]);
                assert_string_equal(puz_heuristic_name(res.heuristic),
                                    "pdb");
                assert_true(res.stats.expanded <= res.length + 1u);
                puz_arena_reset(a);
            }
        }
    }
    puz_arena_destroy(a);
    free(t);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;

    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static void spit(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");

    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
}

/* Save, load back: same bytes, same values. */
static void test_cache_round_trip(void **state)
{
    struct fixture *fx = *state;
    struct puz_board goal, b;
    struct puz_rng rng;
    const puz_pdb *d;
    puz_pdb *back;
    char path[300], msg[PUZ_MSG_MAX];
    unsigned h1, h2;

    puz_board_goal(4, &goal);
    d = puz_tables_pdb(fx->tables, &goal);
    snprintf(path, sizeof(path), "%s/round-trip.bin", fx->dir);
    assert_int_equal(puz_pdb_save(d, path, msg), PUZ_OK);
    assert_int_equal(puz_pdb_load(path, PUZ_PDB_663, &goal, &back, msg),
                     PUZ_OK);
    assert_int_equal(puz_pdb_bytes(back), puz_pdb_bytes(d));
    assert_memory_equal(back->g[0].nib, d->g[0].nib, puz_pdb_bytes(d));
    assert_true(puz_pdb_build_seconds(back) == 0.0);
    puz_rng_seed(&rng, 3);
    for (unsigned i = 0; i < 100; i++) {
        walk_from(&goal, 60, &rng, &b);
        assert_int_equal(puz_pdb_eval(d, &b, &goal, &h1), PUZ_OK);
        assert_int_equal(puz_pdb_eval(back, &b, &goal, &h2), PUZ_OK);
        assert_int_equal(h1, h2);
    }
    puz_pdb_destroy(back);
}

struct damage {
    const char *what;
    long offset;        /* byte to flip; < 0 counts from the end */
    size_t cut;         /* bytes to drop from the end */
    puz_err want;
};

/* Every kind of damage is refused with a one-line reason. */
static void test_cache_rejects_damage(void **state)
{
    struct fixture *fx = *state;
    static const struct damage cases[] = {
        { "data checksum", -5000, 0, PUZ_ECORRUPT },
        { "data checksum", 4096, 0, PUZ_ECORRUPT },
        { "header checksum", 40, 0, PUZ_ECORRUPT },
        { "not a puzzled", 0, 0, PUZ_ECORRUPT },
        { "version", 8, 0, PUZ_EINVAL },
        { "truncated", -1, 100, PUZ_ECORRUPT },
        { "truncated", -1, 0x7fffffff, PUZ_ECORRUPT },
    };
    char path[300], msg[PUZ_MSG_MAX];
    size_t len;
    uint8_t *orig = slurp(fx->cached, &len);
    puz_pdb *d;

    snprintf(path, sizeof(path), "%s/damaged.bin", fx->dir);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct damage *c = &cases[i];
        size_t n = c->cut >= len ? 0 : len - c->cut;
        if (c->cut == 0) {
            size_t at = c->offset < 0 ? len + (size_t)c->offset
                                      : (size_t)c->offset;
            orig[at] ^= 0x10;
            spit(path, orig, len);
            orig[at] ^= 0x10;
        } else {
            spit(path, orig, n);
        }
        msg[0] = '\0';
        assert_int_equal(puz_pdb_load(path, -1, NULL, &d, msg), c->want);
        assert_null(d);
        assert_non_null(strstr(msg, c->what));
        assert_null(strchr(msg, '\n'));
    }
    free(orig);
}

/* A FIFO in the cache file's place is refused at once, not waited on
 * (opening it for reading blocked start-up until a writer came). */
static void test_cache_fifo_refused_at_once(void **state)
{
    struct fixture *fx = *state;
    char path[300], msg[PUZ_MSG_MAX] = "";
    puz_pdb *d = NULL;

    snprintf(path, sizeof(path), "%s/fifo.bin", fx->dir);
    unlink(path);
    assert_int_equal(mkfifo(path, 0644), 0);
    assert_int_equal(puz_pdb_load(path, -1, NULL, &d, msg), PUZ_ECORRUPT);
    assert_null(d);
    assert_non_null(strstr(msg, "not a regular file"));
    unlink(path);
}

/* Intact files for other tables are refused as mismatched. */
static void test_cache_rejects_other_tables(void **state)
{
    struct fixture *fx = *state;
    struct puz_board edge;
    char msg[PUZ_MSG_MAX];
    puz_pdb *d;

    assert_int_equal(puz_pdb_load(fx->cached, PUZ_PDB_78, NULL, &d, msg),
                     PUZ_EINVAL);
    assert_non_null(strstr(msg, "holds 6-6-3 tables, wanted 7-8"));
    board_of("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", &edge);
    assert_int_equal(puz_pdb_load(fx->cached, PUZ_PDB_663, &edge, &d, msg),
                     PUZ_EINVAL);
    assert_non_null(strstr(msg, "corner"));
    assert_int_equal(puz_pdb_load("/nonexistent/x.bin", -1, NULL, &d, msg),
                     PUZ_EIO);
}

/* A damaged cache file is reported once and replaced by a good one. */
static void test_open_rebuilds_damaged_file(void **state)
{
    struct fixture *fx = *state;
    char dir[300], path[600], name[128], msg[PUZ_MSG_MAX];
    unsigned notes = 0;
    struct puz_pdb_opts o = { 2, quiet, &notes, pool_run_pieces, NULL };
    size_t len;
    /* the 4x6 set: the same open path as every set, rebuilt in a second
     * (6-6-3 took four seconds of CPU for the same proof) */
    uint8_t *buf = slurp(fx->cached5, &len);
    puz_pdb *d;

    snprintf(dir, sizeof(dir), "%s/cache", fx->dir);
    assert_int_equal(mkdir(dir, 0755), 0);
    puz_pdb_filename(PUZ_PDB_4X6, NULL, name, sizeof(name));
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    buf[len / 2] ^= 1;
    spit(path, buf, len);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6, NULL, &o, &d, msg),
                     PUZ_OK);
    assert_int_equal(notes, 1);
    assert_true(puz_pdb_build_seconds(d) > 0.0);
    puz_pdb_destroy(d);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6, NULL, &o, &d, msg),
                     PUZ_OK);
    assert_int_equal(notes, 1);
    assert_true(puz_pdb_build_seconds(d) == 0.0);
    puz_pdb_destroy(d);
    free(buf);
}

/* The one-line note about a rejected cache file is whole, however long
 * the cache directory's path: the reason (here "Is a directory") is
 * never cut short (issue 15: notes ended "...: Is"). */
struct notes_seen {
    unsigned n;
    char line[4][8192];
};

static void keep_notes(const struct puz_pdb_progress *p, void *user)
{
    struct notes_seen *ns = user;

    if (p->kind != PUZ_PDB_EV_NOTE)
        return;
    if (ns->n < 4)
        snprintf(ns->line[ns->n], sizeof(ns->line[0]), "%s", p->msg);
    ns->n++;
}

static void test_open_note_is_whole(void **state)
{
    struct fixture *fx = *state;
    char dir[1024], path[1400], name[128], msg[PUZ_MSG_MAX];
    static struct notes_seen ns;
    struct puz_pdb_opts o = { 2, keep_notes, &ns, pool_run_pieces, NULL };
    size_t len;
    puz_pdb *d;

    len = (size_t)snprintf(dir, sizeof(dir), "%s/", fx->dir);
    while (len < 600)  /* a deep but legal path: 600 bytes */
        len += (size_t)snprintf(dir + len, sizeof(dir) - len, "%s",
                                "a-rather-long-cache-directory-name/");
    dir[len - 1] = '\0';
    for (char *s = dir + strlen(fx->dir) + 1; (s = strchr(s, '/')); s++) {
        *s = '\0';
        assert_int_equal(mkdir(dir, 0755), 0);
        *s = '/';
    }
    assert_int_equal(mkdir(dir, 0755), 0);
    puz_pdb_filename(PUZ_PDB_4X6, NULL, name, sizeof(name));
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    assert_int_equal(mkdir(path, 0755), 0);  /* a directory, not a file */
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6, NULL, &o, &d, msg),
                     PUZ_OK);
    /* Rejected ("...; rebuilding"), then not saved over the directory
     * ("...; tables not saved"): both lines whole. */
    assert_int_equal(ns.n, 2);
    assert_non_null(strstr(ns.line[0], path));
    assert_non_null(strstr(ns.line[0], "regular file"));
    assert_non_null(strstr(ns.line[0], "; rebuilding"));
    assert_non_null(strstr(ns.line[1], "Is a directory"));
    assert_non_null(strstr(ns.line[1], "; tables not saved"));
    puz_pdb_destroy(d);
    rmdir(path);
}

/* ---- 5x5 ---- */

/* The builder on 5x5 boards against the truth: a group whose goal
 * leaves the blank free, and one that walls the goal blank in. */
static void test_5x5_group_matches_truth(void **state)
{
    static const uint8_t open_home[] = { 3, 4, 8 };
    static const uint8_t walled[] = { 19, 23, 18 };
    uint64_t *t;

    (void)state;
    t = build_custom_n(open_home, 3, 24, 5, 2);
    check_group_n(open_home, 3, 24, 5, NULL, t);
    free(t);
    t = build_custom_n(walled, 3, 24, 5, 1);
    check_group_n(walled, 3, 24, 5, NULL, t);
    free(t);
}

/* A group that is another turned or mirrored reads that one's table
 * through its cell map: check such reads against the group's own truth. */
static void test_5x5_shared_table_matches_truth(void **state)
{
    static const uint8_t r[] = { 3, 4, 8 };
    static const uint8_t mirrored[] = { 15, 20, 16 };   /* transposed */
    static const uint8_t turned[] = { 21, 20, 16 };     /* half turn */
    uint8_t transpose[25], half[25];
    uint64_t *t;

    (void)state;
    for (unsigned c = 0; c < 25; c++) {
        transpose[c] = (uint8_t)((c % 5) * 5 + c / 5);
        half[c] = (uint8_t)(24 - c);
    }
    t = build_custom_n(r, 3, 24, 5, 2);
    check_group_n(mirrored, 3, 24, 5, transpose, t);
    check_group_n(turned, 3, 0, 5, half, t);
    free(t);
}

/* 6-6-6-6 (Korf & Felner's, turned onto the blank-last goal) builds two
 * tables: groups 2 and 3 read group 1's through a symmetry. */
static void test_5x5_layouts_share_tables(void **state)
{
    static const struct { enum puz_pdb_partition p; unsigned groups, k;
                          unsigned tables; } cases[] = {
        { PUZ_PDB_6666, 4, 6, 2 },
        { PUZ_PDB_4X6, 6, 4, 4 },
    };
    size_t off[PUZ__PDB_MAX_GROUPS];

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct puz_pdb d;
        unsigned tables = 0;
        memset(&d, 0, sizeof(d));
        assert_int_equal(puz__pdb_layout(&d, cases[i].p, 0), PUZ_OK);
        assert_int_equal(d.n, 5);
        assert_int_equal(d.ngroups, cases[i].groups);
        for (unsigned g = 0; g < d.ngroups; g++) {
            const struct puz__group *gr = &d.g[g], *rg = &d.g[gr->table];
            assert_int_equal(gr->k, cases[i].k);
            tables += gr->table == g;
            for (unsigned j = 0; j < gr->k; j++) {
                assert_int_equal(gr->cmap[gr->home[j]], rg->home[j]);
                assert_int_equal(d.slot_of[gr->tile[j]], j);
                assert_int_equal(d.group_of[gr->tile[j]], g);
            }
        }
        assert_int_equal(tables, cases[i].tables);
        assert_int_equal(puz__pdb_table_bytes(&d, off),
                         tables * ((puz__pdb_group_words(cases[i].k, 25) * 8
                                    + 63) & ~(size_t)63));
    }
    {
        struct puz_pdb d;
        memset(&d, 0, sizeof(d));
        assert_int_equal(puz__pdb_layout(&d, PUZ_PDB_6666, 1), PUZ_EINVAL);
    }
}

static void reflect5(const struct puz_board *goal, const struct puz_board *b,
                     struct puz_board *out)
{
    uint8_t rt[25];

    for (unsigned c = 0; c < 25; c++)
        rt[goal->cells[c]] = goal->cells[(c % 5) * 5 + c / 5];
    *out = *b;
    for (unsigned c = 0; c < 25; c++)
        out->cells[(c % 5) * 5 + c / 5] = rt[b->cells[c]];
    out->blank = (uint8_t)((b->blank % 5) * 5 + b->blank / 5);
}

/* Random walks from both corner goals: h never exceeds the moves taken,
 * flips parity with every move, is at least Manhattan; the board and its
 * reflection about the diagonal get the same value (the lookup of one
 * is the reflected lookup of the other). */
static void test_5x5_admissible_and_reflected(void **state)
{
    struct fixture *fx = *state;
    const puz_heuristic *md = puz_heuristic_find("manhattan");
    struct puz_board goals[2], b, rb;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    puz_board_goal(5, &goals[0]);
    board_of("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 "
             "23 24", &goals[1]);
    puz_rng_seed(&rng, 7);
    for (unsigned gi = 0; gi < 2; gi++) {
        const puz_pdb *d = puz_tables_pdb(fx->tables, &goals[gi]);
        unsigned h, hr, m, prev = 0;
        assert_non_null(d);
        assert_int_equal(puz_pdb_partition(d), PUZ_PDB_4X6);
        b = goals[gi];
        for (unsigned step = 1; step <= 5000; step++) {
            enum puz_dir dir = (enum puz_dir)puz_rng_below(&rng, 4);
            if (!puz_board_can_move(&b, dir))
                continue;
            puz_board_move(&b, dir);
            assert_int_equal(puz_pdb_eval(d, &b, &goals[gi], &h), PUZ_OK);
            assert_int_equal(puz_heuristic_eval(md, &b, &goals[gi], NULL,
                                                a, &m, NULL), PUZ_OK);
            reflect5(&goals[gi], &b, &rb);
            assert_int_equal(puz_pdb_eval(d, &rb, &goals[gi], &hr), PUZ_OK);
            assert_int_equal(h, hr);
            assert_true(h >= m);
            assert_true(((h ^ prev) & 1) == 1);
            assert_true(h <= step);
            prev = h;
        }
    }
    puz_arena_destroy(a);
}

/* Canonical cells of b (towards goal) for d's tables. */
static void canonical_cells(const struct puz_board *goal,
                            const struct puz_board *b, uint8_t *cells)
{
    struct puz__frame f;

    assert_int_equal(puz__frame_init(&f, goal), PUZ_OK);
    puz__frame_map(&f, b->cells, cells);
}

/* The reflected lookup transposes the board inside the tables' frame
 * (d->transpose, d->rtile, which the 5x5 IDA* uses too) and takes the
 * larger sum: that transposed board must be the canonical form of the
 * board reflected about the goal's diagonal, reflected here from the
 * goal alone; its direct lookup then is the reflected lookup. The 4x6
 * partition maps onto itself under the transpose, so both sums are
 * equal there (for 6-6-6-6 they are not: its groups trade places). */
static void test_5x5_reflected_lookup(void **state)
{
    struct fixture *fx = *state;
    struct puz_board goals[2], b, rb;
    struct puz_rng rng;

    puz_board_goal(5, &goals[0]);
    board_of("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 "
             "23 24", &goals[1]);
    puz_rng_seed(&rng, 13);
    for (unsigned i = 0; i < 400; i++) {
        const struct puz_board *goal = &goals[i & 1];
        const puz_pdb *d = puz_tables_pdb(fx->tables, goal);
        uint8_t cells[25], rcells[25], tcells[25];
        unsigned s, rs;
        assert_non_null(d);
        assert_true(d->reflect);
        walk_from(goal, 10 + i % 90, &rng, &b);
        reflect5(goal, &b, &rb);
        canonical_cells(goal, &b, cells);
        canonical_cells(goal, &rb, rcells);
        for (unsigned c = 0; c < 25; c++)
            tcells[d->transpose[c]] = d->rtile[cells[c]];
        assert_memory_equal(tcells, rcells, 25);
        s = puz__pdb_sum(d, cells);
        rs = puz__pdb_sum(d, rcells);
        assert_int_equal(puz__pdb_value(d, cells), s > rs ? s : rs);
        assert_int_equal(puz__pdb_value(d, rcells), s > rs ? s : rs);
        assert_int_equal(s, rs);
    }
}

/* The value kept in parts (pdb_parts.c, the 5x5 weighted A*'s per-node
 * update) is the full lookup's on every board of long walks: 4x4 and
 * 5x5, goals in and out of the tables' frame (the fixture's corner
 * tables, so with reflection); each step's two-lookup update equals a fresh evaluation. */
static void test_parts_match_value(void **state)
{
    struct fixture *fx = *state;
    const char *goals[] = {
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
        "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 0",
        "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24",
    };
    struct puz_rng rng;

    puz_rng_seed(&rng, 29);
    for (size_t gi = 0; gi < sizeof(goals) / sizeof(goals[0]); gi++) {
        struct puz_board goal, b;
        struct puz__pdbctx c;
        struct puz__pdbparts p;
        uint8_t slot_of[256], st[25], canon[25];
        char msg[PUZ_MSG_MAX];
        unsigned cells, k = 1, md, md2;
        uint64_t parts;

        board_of(goals[gi], &goal);
        cells = goal.n * goal.n;
        if (puz__pdbctx_init(&c, fx->tables, &goal, msg) != PUZ_OK)
            fail_msg("%s: %s", goals[gi], msg);
        walk_from(&goal, 200, &rng, &b);
        memset(slot_of, 0xFF, sizeof(slot_of));
        for (unsigned i = 0; i < cells; i++)
            if (b.cells[i] != 0)
                slot_of[b.cells[i]] = (uint8_t)k++;
        assert_true(puz__pdbparts_init(&p, &c, slot_of));
        assert_true(c.db->reflect);
        for (unsigned i = 0; i < cells; i++)
            st[b.cells[i] == 0 ? 0 : slot_of[b.cells[i]]] = (uint8_t)i;
        parts = puz__pdbparts_eval(&p, st, &md);
        for (unsigned step = 0; step < 3000; step++) {
            enum puz_dir d = (enum puz_dir)puz_rng_below(&rng, 4);
            unsigned from = b.blank, t;
            if (!puz_board_can_move(&b, d))
                continue;
            puz_board_move(&b, d);
            t = b.cells[from];
            st[0] = b.blank;
            st[slot_of[t]] = (uint8_t)from;
            md = md + p.md[slot_of[t]][from] - p.md[slot_of[t]][b.blank];
            parts = puz__pdbparts_update(&p, parts, slot_of[t], st);
            assert_true(parts == puz__pdbparts_eval(&p, st, &md2));
            assert_int_equal(md, md2);
            canonical_cells(&goal, &b, canon);
            assert_int_equal(puz__pdbparts_h(&p, parts, md),
                             puz__pdb_value(c.db, canon));
        }
    }
}

/* Rotate three of group g's tiles round its 2x2 block of home cells
 * (top-left cell home0) on the goal board. */
static void cycle_block(struct puz_board *b, unsigned home0, unsigned turn)
{
    unsigned c[4] = { home0, home0 + 1, home0 + 6, home0 + 5 };
    unsigned skip = turn % 4, k = 0, cell[3];
    uint8_t t;

    for (unsigned i = 0; i < 4; i++)
        if (i != skip)
            cell[k++] = c[i];
    t = b->cells[cell[0]];
    b->cells[cell[0]] = b->cells[cell[1]];
    b->cells[cell[1]] = b->cells[cell[2]];
    b->cells[cell[2]] = t;
}

static unsigned manhattan5(const uint8_t *cells)
{
    unsigned md = 0;

    for (unsigned c = 0; c < 25; c++)
        if (cells[c] != 0) {
            unsigned h = cells[c] - 1u;
            md += (unsigned)(abs((int)(c / 5) - (int)(h / 5)) +
                             abs((int)(c % 5) - (int)(h % 5)));
        }
    return md;
}

/* Additivity, on the 4x6 tables' 2x2 groups: with two groups' tiles
 * cycled in their home blocks, the extra over Manhattan is the sum of
 * the extras with each group cycled alone (no group's value depends on
 * another's tiles), and the total never exceeds the optimal length found
 * by an independent search (the groups' costs add up admissibly). */
static void test_5x5_additive(void **state)
{
    static const unsigned blocks[4] = { 0, 2, 10, 12 };  /* groups 0 1 3 4 */
    struct fixture *fx = *state;
    struct puz_board goal, a, b, c;
    const puz_pdb *d;
    unsigned extra = 0;

    puz_board_goal(5, &goal);
    d = puz_tables_pdb(fx->tables, &goal);
    for (unsigned i = 0; i < 6; i++) {
        unsigned g1 = i % 4, g2 = (i + 1 + i / 4) % 4;
        unsigned e1, e2, ec;
        a = goal;
        b = goal;
        cycle_block(&a, blocks[g1], i);
        cycle_block(&b, blocks[g2], i + 1);
        c = a;
        cycle_block(&c, blocks[g2], i + 1);
        e1 = puz__pdb_sum(d, a.cells) - manhattan5(a.cells);
        e2 = puz__pdb_sum(d, b.cells) - manhattan5(b.cells);
        ec = puz__pdb_sum(d, c.cells) - manhattan5(c.cells);
        assert_int_equal(ec, e1 + e2);
        extra += ec;
        if (i < 3)
            assert_true(puz__pdb_value(d, c.cells) <= optimal_lc(&c, &goal));
    }
    assert_true(extra > 0);
}

/* Solve with idastar + pdb (the 5x5 plug-in, small tables, the
 * forbidden-move automaton) and compare with the generic IDA* + linear
 * conflict, which shares no code with it. */
static void test_5x5_optimal_against_independent_search(void **state)
{
    struct fixture *fx = *state;
    struct puz_board goals[2], b, end;
    struct puz_rng rng;
    uint64_t pdb_nodes = 0, lc_nodes = 0;

    puz_board_goal(5, &goals[0]);
    board_of("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 "
             "23 24", &goals[1]);
    puz_rng_seed(&rng, 2024);
    for (unsigned i = 0; i < 6; i++) {
        const struct puz_board *goal = &goals[i & 1];
        struct puz_solve_opts o = { 0 };
        struct puz_result r, ref;
        puz_arena *a = puz_arena_create(1 << 16);
        walk_from(goal, 36 + 2 * i, &rng, &b);
        o.algorithm = PUZ_ALG_IDASTAR;
        o.goal = goal;
        o.heuristic = puz_heuristic_find("linear-conflict");
        assert_int_equal(puz_solve(&b, &o, a, &ref), PUZ_OK);
        assert_int_equal(ref.status, PUZ_SOLVED);
        o.heuristic = puz_heuristic_find("pdb");
        o.tables = fx->tables;
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_int_equal(r.status, PUZ_SOLVED);
        assert_true(r.optimal);
        assert_int_equal(r.length, ref.length);
        pdb_nodes += r.stats.expanded;
        lc_nodes += ref.stats.expanded;
        assert_int_equal(puz_replay(&b, r.moves, r.length, &end), PUZ_OK);
        assert_true(puz_board_equal(&end, goal));
        puz_arena_destroy(a);
    }
    /* the tables (and the pruning) are used: on one board the fixed move
     * order can make the last iteration longer, not over all six */
    assert_true(2 * pdb_nodes < lc_nodes);
}

/* A 5x5 set that joined the tables carries one forbidden-move automaton
 * for all its searches (counted in the tables' bytes), built once for
 * strings of 12 moves. A search without it builds its own, of 10 moves
 * (~5 MB of arena, not the 12-move one's ~75 MB): the same lengths, more
 * nodes, and the arena holds the builder's memory. */
static void test_5x5_shared_fsm(void **state)
{
    struct fixture *fx = *state;
    struct puz_board goal, b;
    struct puz_rng rng;
    unsigned fewer = 0;
    puz_pdb *d;

    puz_board_goal(5, &goal);
    d = (puz_pdb *)puz_tables_pdb(fx->tables, &goal);
    assert_non_null(d);
    assert_non_null(d->fsm);
    assert_true(d->fsm_bytes > 0 && d->fsm_bytes < (1u << 20));
    assert_true(puz_tables_bytes(fx->tables) >= d->data_bytes + d->fsm_bytes);
    puz_rng_seed(&rng, 77);
    for (unsigned i = 0; i < 3; i++) {
        struct puz_solve_opts o = { 0 };
        struct puz_result shared, own;
        puz_arena *a = puz_arena_create(1 << 16);
        uint32_t *fsm = d->fsm;
        walk_from(&goal, 40 + 2 * i, &rng, &b);
        o.algorithm = PUZ_ALG_IDASTAR;
        o.heuristic = puz_heuristic_find("pdb");
        o.tables = fx->tables;
        assert_int_equal(puz_solve(&b, &o, a, &shared), PUZ_OK);
        d->fsm = NULL;                  /* as if it could not be made */
        assert_int_equal(puz_solve(&b, &o, a, &own), PUZ_OK);
        d->fsm = fsm;
        assert_int_equal(shared.status, PUZ_SOLVED);
        assert_int_equal(shared.length, own.length);
        assert_true(shared.stats.expanded <= own.stats.expanded);
        fewer += shared.stats.expanded < own.stats.expanded;
        assert_true(shared.stats.arena_peak + (1u << 20)
                    < own.stats.arena_peak);
        puz_arena_destroy(a);
    }
    assert_true(fewer > 0);
}

/*
 * Counting like the papers: an independent IDA* over a cell array, h
 * from scratch at every node (puz__pdb_value, never the plug-in's per
 * node entries), the plug-in's child order (direction order on 4x4,
 * puz__pdb_order5 on 5x5), its parent pruning and, on 5x5, the set's
 * forbidden-move automaton. A node is expanded when it is within the
 * bound and not the goal; each of its children that survives the walls,
 * the parent and the automaton is generated, whether or not it then
 * exceeds the bound. The plug-in must report the same two counts.
 */
struct cref {
    const struct puz_pdb *d;
    const uint32_t *fsm;            /* 5x5: the set's automaton */
    unsigned n, bound, next;
    uint64_t expanded, generated;
    uint8_t cells[PUZ__PDB_CELLS], path[256];
};

static int cref_dfs(struct cref *r, unsigned blank, unsigned g,
                    unsigned back, uint32_t fs)
{
    unsigned h = puz__pdb_value(r->d, r->cells);

    if (g + h > r->bound) {
        if (g + h < r->next)
            r->next = g + h;
        return 0;
    }
    if (h == 0)
        return (int)g + 1;
    r->expanded++;
    for (unsigned oi = 0; oi < 4; oi++) {
        unsigned d = r->n == 5 ? puz__pdb_order5[oi] : oi;
        int to = test_walk_step(r->n, blank, d), found;
        uint32_t nfs = 0;
        if (to < 0 || d == back)
            continue;
        if (r->fsm != NULL) {
            nfs = r->fsm[4 * fs + d];
            if (nfs == PUZ__FSM_DEAD)
                continue;
        }
        r->generated++;
        r->cells[blank] = r->cells[to];
        r->cells[to] = 0;
        r->path[g] = (uint8_t)d;
        found = cref_dfs(r, (unsigned)to, g + 1, d ^ 1u, nfs);
        r->cells[to] = r->cells[blank];
        r->cells[blank] = 0;
        if (found)
            return found;
    }
    return 0;
}

static unsigned cref_solve(struct cref *r, const struct puz_board *b)
{
    memcpy(r->cells, b->cells, sizeof(r->cells));
    r->bound = puz__pdb_value(r->d, r->cells);
    for (;;) {
        int found;
        r->next = UINT32_MAX;
        found = cref_dfs(r, b->blank, 0, PUZ_NO_DIR, 0);
        if (found)
            return (unsigned)found - 1;
        assert_true(r->next != UINT32_MAX);
        r->bound = r->next;
    }
}

/* The plug-in's counts (serial) equal the reference's; cut into units
 * (two threads, run here one after another) the length is the same and
 * the counts keep their shape: every expanded node but the roots was
 * generated, and no node has more than three children but a root. */
static void counts_on(const puz_tables *t, unsigned n, unsigned walk,
                      unsigned boards, unsigned seed)
{
    struct puz_board goal, b;
    struct puz_rng rng;
    uint64_t total = 0;

    assert_int_equal(puz_board_goal(n, &goal), PUZ_OK);
    puz_rng_seed(&rng, seed);
    for (unsigned i = 0; i < boards; i++) {
        struct cref r = { .n = n };
        struct puz_solve_opts o = { 0 };
        struct puz_result res, par;
        puz_arena *a = puz_arena_create(1 << 16);
        unsigned len;
        walk_from(&goal, walk + 2 * i, &rng, &b);
        r.d = puz_tables_pdb(t, &goal);
        assert_non_null(r.d);
        r.fsm = n == 5 ? r.d->fsm : NULL;
        if (n == 5)
            assert_non_null(r.fsm);
        len = cref_solve(&r, &b);
        o.algorithm = PUZ_ALG_IDASTAR;
        o.heuristic = puz_heuristic_find("pdb");
        o.goal = &goal;
        o.tables = t;
        assert_int_equal(puz_solve(&b, &o, a, &res), PUZ_OK);
        assert_int_equal(res.status, PUZ_SOLVED);
        assert_int_equal(res.length, len);
        assert_memory_equal(res.moves, r.path, len);
        if (res.stats.expanded != r.expanded ||
            res.stats.generated != r.generated)
            fail_msg("%ux%u board %u: expanded %llu generated %llu, "
                     "reference %llu %llu", n, n, i,
                     (unsigned long long)res.stats.expanded,
                     (unsigned long long)res.stats.generated,
                     (unsigned long long)r.expanded,
                     (unsigned long long)r.generated);
        assert_true(res.stats.expanded <= res.stats.generated);
        o.threads = 2;
        assert_int_equal(puz_solve(&b, &o, a, &par), PUZ_OK);
        assert_int_equal(par.status, PUZ_SOLVED);
        assert_int_equal(par.length, len);
        assert_true(par.stats.expanded <= par.stats.generated + 64);
        assert_true(par.stats.generated <= 3 * par.stats.expanded + 64);
        total += r.expanded;
        puz_arena_destroy(a);
    }
    assert_true(total > 1000);      /* trees worth counting */
}

static void test_counts_match_reference_4x4(void **state)
{
    struct fixture *fx = *state;

    counts_on(fx->tables, 4, 40, 6, 47);
}

static void test_counts_match_reference_5x5(void **state)
{
    struct fixture *fx = *state;

    counts_on(fx->tables, 5, 36, 4, 4711);
}

/* 5x5 files: round trip, damage, and a file for other tables. */
static void test_5x5_cache_files(void **state)
{
    struct fixture *fx = *state;
    struct puz_board goal, edge;
    char path[600], msg[PUZ_MSG_MAX];
    size_t len;
    uint8_t *buf = slurp(fx->cached5, &len);
    const puz_pdb *d;
    puz_pdb *back;

    puz_board_goal(5, &goal);
    d = puz_tables_pdb(fx->tables, &goal);
    assert_int_equal(puz_pdb_load(fx->cached5, PUZ_PDB_4X6, &goal, &back,
                                  msg), PUZ_OK);
    assert_int_equal(puz_pdb_bytes(back), puz_pdb_bytes(d));
    assert_memory_equal(back->mem, d->mem, puz_pdb_bytes(d));
    puz_pdb_destroy(back);
    assert_int_equal(puz_pdb_load(fx->cached5, PUZ_PDB_6666, NULL, &back,
                                  msg), PUZ_EINVAL);
    assert_non_null(strstr(msg, "holds 4x6 tables, wanted 6-6-6-6"));
    board_of("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 "
             "0 24", &edge);
    assert_int_equal(puz_pdb_load(fx->cached5, -1, &edge, &back, msg),
                     PUZ_EINVAL);
    assert_int_equal(puz_pdb_load(fx->cached, -1, &goal, &back, msg),
                     PUZ_EINVAL);
    assert_non_null(strstr(msg, "another board size"));
    snprintf(path, sizeof(path), "%s/damaged5.bin", fx->dir);
    buf[len - 7] ^= 4;
    spit(path, buf, len);
    assert_int_equal(puz_pdb_load(path, -1, NULL, &back, msg), PUZ_ECORRUPT);
    assert_non_null(strstr(msg, "data checksum"));
    free(buf);
}

/* 5x5 goals without tables (blank not in a corner) still solve with
 * heuristic pdb asked for: through linear conflict, and the answer says
 * so. */
static void test_5x5_other_goals_fall_back(void **state)
{
    struct fixture *fx = *state;
    struct puz_board goal, b;
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    struct puz_rng rng;
    puz_arena *a = puz_arena_create(1 << 16);

    board_of("1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15 16 17 18 19 20 21 22 "
             "23 24", &goal);
    puz_rng_seed(&rng, 9);
    walk_from(&goal, 20, &rng, &b);
    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    o.goal = &goal;
    o.tables = fx->tables;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_true(r.optimal);
    assert_ptr_equal(r.heuristic, puz_heuristic_find("linear-conflict"));
    puz_arena_destroy(a);
}

/* The anytime search on a 5x5 the tables serve reads them (its weighted
 * A* tries and the pdb windows): the answer names the set, as an
 * optimal solve's does (it named none: issue 47, "a solve names the
 * tables it used"). Without tables it names none. */
static void test_5x5_anytime_names_its_tables(void **state)
{
    struct fixture *fx = *state;
    struct puz_solve_opts o = { .algorithm = PUZ_ALG_ANYTIME };
    puz_arena *a = puz_arena_create(1 << 16);
    struct puz_rng rng;
    struct puz_result r;
    struct puz_board b;

    /* 200 steps from the default goal (the corner class the 4x6 serve) */
    puz_rng_seed(&rng, 5);
    assert_int_equal(puz_random_board(5, 200, NULL, NULL, &rng, &b), PUZ_OK);
    o.tables = fx->tables;
    o.limits.deadline_us = puz_clock_mono_us() + 300000;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_ptr_equal(r.heuristic, puz_heuristic_find("pdb"));
    assert_non_null(r.tables);
    assert_string_equal(r.tables, "4x6");
    puz_arena_reset(a);
    o.tables = NULL;
    o.limits.deadline_us = puz_clock_mono_us() + 300000;
    assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
    assert_int_equal(r.status, PUZ_SOLVED);
    assert_null(r.tables);
    puz_arena_destroy(a);
}

/* Issue 15: the tables of a running process must survive their cache
 * file being truncated in place (a mapping turned that into SIGBUS). A
 * child process loads, the file is cut to nothing, the child looks up
 * values; it must exit normally with the same values. */
static void test_loaded_tables_survive_truncated_file(void **state)
{
    struct fixture *fx = *state;
    char path[300];
    size_t len;
    uint8_t *buf = slurp(fx->cached, &len);
    int status = 0;
    pid_t pid;

    snprintf(path, sizeof(path), "%s/truncate-me.bin", fx->dir);
    spit(path, buf, len);
    free(buf);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct puz_board goal, b;
        struct puz_rng rng;
        char msg[PUZ_MSG_MAX];
        unsigned h1[50], h2;
        puz_pdb *d;
        FILE *f;
        puz_board_goal(4, &goal);
        if (puz_pdb_load(path, PUZ_PDB_663, NULL, &d, msg) != PUZ_OK)
            _exit(2);
        puz_rng_seed(&rng, 5);
        for (unsigned i = 0; i < 50; i++) {
            walk_from(&goal, 60, &rng, &b);
            puz_pdb_eval(d, &b, &goal, &h1[i]);
        }
        f = fopen(path, "r+");
        if (f == NULL || ftruncate(fileno(f), 0) != 0)
            _exit(3);
        fclose(f);
        puz_rng_seed(&rng, 5);
        for (unsigned i = 0; i < 50; i++) {
            walk_from(&goal, 60, &rng, &b);
            puz_pdb_eval(d, &b, &goal, &h2);
            if (h2 != h1[i])
                _exit(4);
        }
        puz_pdb_destroy(d);
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_false(WIFSIGNALED(status));
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* ---- zero-aware sets ---- */

/* The 4x6z set, built here (about a second). */
static puz_pdb *build_4x6z(void)
{
    struct puz_pdb_opts o = { 2, quiet, NULL, pool_run_pieces, NULL };
    char msg[PUZ_MSG_MAX] = "";
    puz_pdb *d = NULL;

    assert_int_equal(puz_pdb_build(PUZ_PDB_4X6Z, NULL, &o, &d, msg),
                     PUZ_OK);
    assert_true(d->zero_aware);
    return d;
}

/*
 * Group gi of a zero-aware set against the truth on every state: where
 * the group's tiles leave the free cells in one piece, its value is the
 * plain minimum; where they cut them, each blank cell must get exactly
 * its own region's distance. Read through the group's cell map, as the
 * searches read it (groups sharing a table have their own za table, in
 * the shared table's frame). Returns how many states the regions raise
 * above the plain minimum.
 */
static size_t check_za_group(const struct puz_pdb *d, unsigned gi)
{
    const struct puz__group *g = &d->g[gi];
    size_t codes = (size_t)1 << (5 * g->k), raised = 0;
    uint8_t *best = malloc(codes), *all = NULL;

    assert_non_null(best);
    truth_group(g->home, g->k, d->goal.blank, 5, best, &all);
    for (size_t code = 0; code < codes; code++) {
        uint8_t pos[PUZ__PDB_MAX_K], tp[PUZ__PDB_MAX_K];
        uint32_t used = 0;
        unsigned md = 0, ok = 1, pieces = 0;
        for (unsigned i = 0; i < g->k && ok; i++) {
            pos[i] = (uint8_t)((code >> (5 * i)) & 31);
            ok &= pos[i] < 25 && !(used >> pos[i] & 1);
            used |= 1u << (pos[i] & 31);
            md += (unsigned)(abs(pos[i] / 5 - g->home[i] / 5) +
                             abs(pos[i] % 5 - g->home[i] % 5));
            tp[i] = ok ? g->cmap[pos[i]] : 0;
        }
        if (!ok)
            continue;
        for (unsigned b = 0; b < 25; b++) {
            size_t st = code << 5 | b;
            if (used >> b & 1)
                continue;
            assert_int_not_equal(all[st], 255);
            assert_int_equal(md + 2 * puz__pdb_lookup_blank(d, gi, tp,
                                                            g->cmap[b]),
                             all[st]);
            raised += all[st] > best[code];
            pieces++;
        }
        assert_true(pieces == 25 - g->k);
    }
    free(all);
    free(best);
    return raised;
}

/* Every group of 4x6z, its own table's and the shared ones', exact on
 * every (placement, blank cell). */
static void test_za_matches_truth(void **state)
{
    puz_pdb *d = build_4x6z();
    unsigned shared = 0;

    (void)state;
    for (unsigned gi = 0; gi < d->ngroups; gi++) {
        shared += d->g[gi].table != gi;
        /* every group's tiles cut off a corner or an edge somewhere */
        assert_true(check_za_group(d, gi) > 0);
    }
    assert_true(shared > 0);
    puz_pdb_destroy(d);
}

/* IDA* with 4x6z against IDA* + linear conflict (independent) on random
 * boards towards both corner goals: the same optimal lengths, also cut
 * into units (the parallel search), an estimate never below the plain
 * 4x6 one and sometimes above it, and fewer nodes than with 4x6 over
 * the boards. */
static void test_za_optimal_and_stronger(void **state)
{
    struct fixture *fx = *state;
    puz_pdb *dz = build_4x6z();
    const puz_pdb *dp;
    puz_tables *tz;
    struct puz_board goals[2], b, end;
    struct puz_rng rng;
    uint64_t zn = 0, pn = 0;
    unsigned above = 0;

    assert_int_equal(puz_tables_create(&tz), PUZ_OK);
    assert_int_equal(puz_tables_add_pdb(tz, dz), PUZ_OK);
    puz_board_goal(5, &goals[0]);
    board_of("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 "
             "23 24", &goals[1]);
    dp = puz_tables_pdb(fx->tables, &goals[0]);
    assert_int_equal(puz_pdb_partition(dp), PUZ_PDB_4X6);
    puz_rng_seed(&rng, 30);
    for (unsigned i = 0; i < 8; i++) {
        const struct puz_board *goal = &goals[i & 1];
        struct puz_solve_opts o = { 0 };
        struct puz_result rz, rp, ru;
        puz_arena *a = puz_arena_create(1 << 16);
        unsigned hz, hp, len;
        walk_from(goal, 34 + 2 * i, &rng, &b);
        len = optimal_lc(&b, goal);
        assert_int_equal(puz_pdb_eval(dz, &b, goal, &hz), PUZ_OK);
        assert_int_equal(puz_pdb_eval(dp, &b, goal, &hp), PUZ_OK);
        assert_true(hz >= hp && hz <= len);
        above += hz > hp;
        o.algorithm = PUZ_ALG_IDASTAR;
        o.goal = goal;
        o.heuristic = puz_heuristic_find("pdb");
        o.tables = tz;
        assert_int_equal(puz_solve(&b, &o, a, &rz), PUZ_OK);
        o.tables = fx->tables;
        assert_int_equal(puz_solve(&b, &o, a, &rp), PUZ_OK);
        /* cut into units (run here, one after another): same answer */
        o.tables = tz;
        o.threads = 4;
        assert_int_equal(puz_solve(&b, &o, a, &ru), PUZ_OK);
        assert_int_equal(ru.status, PUZ_SOLVED);
        assert_int_equal(ru.length, len);
        assert_int_equal(rz.status, PUZ_SOLVED);
        assert_true(rz.optimal);
        assert_int_equal(rz.length, len);
        assert_int_equal(rp.length, len);
        assert_int_equal(puz_replay(&b, rz.moves, rz.length, &end), PUZ_OK);
        assert_true(puz_board_equal(&end, goal));
        zn += rz.stats.generated;
        pn += rp.stats.generated;
        puz_arena_destroy(a);
    }
    assert_true(above > 0);
    assert_true(zn < pn);
    puz_tables_destroy(tz);
}

/*
 * A pair (4x6z2: 4x6z and the second partition 4x6zb, whose two rows of
 * 4 replace 4x6's top two blocks): its own groups exact against the
 * truth, the shared groups found, opened through the cache (both files),
 * and IDA* with it against IDA* + linear conflict on random boards
 * towards both corner goals: the same optimal lengths (also cut into
 * units), every state of each path estimated at most its distance, the
 * estimate never below 4x6z's and above it on some, fewer nodes.
 */
static void test_pair_optimal_and_stronger(void **state)
{
    struct fixture *fx = *state;
    struct puz_pdb_opts po = { 2, quiet, NULL, pool_run_pieces, NULL };
    char dir[300], msg[PUZ_MSG_MAX] = "";
    puz_pdb *pair = NULL, *dz = build_4x6z(), *again = NULL, *half = NULL;
    puz_tables *tp, *tz;
    struct puz_board goals[2], b, end;
    struct puz_rng rng;
    uint64_t pn = 0, zn = 0;
    unsigned above = 0;

    snprintf(dir, sizeof(dir), "%s/pair", fx->dir);
    mkdir(dir, 0755);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6Z2, NULL, &po, &pair, msg),
                     PUZ_OK);
    assert_int_equal(puz_pdb_partition(pair), PUZ_PDB_4X6Z2);
    assert_non_null(pair->second);
    assert_int_equal(pair->second->ngroups, 2);
    assert_int_equal(pair->shared, 0x3cu);  /* 4x6's groups 2 to 5 */
    for (unsigned gi = 0; gi < pair->second->ngroups; gi++)
        assert_true(check_za_group(pair->second, gi) > 0);
    assert_int_equal(puz_pdb_bytes(pair), puz_pdb_bytes(dz) +
                     puz_pdb_bytes(pair->second));
    /* a pair is kept as its two files, read back by the next open */
    assert_int_not_equal(puz_pdb_save(pair, "/nonexistent/x", msg), PUZ_OK);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6Z2, NULL, &po, &again,
                                  msg), PUZ_OK);
    assert_true(puz_pdb_build_seconds(again) == 0.0);
    assert_memory_equal(again->second->mem, pair->second->mem,
                        puz_pdb_bytes(pair->second));
    puz_pdb_destroy(again);
    /* a second partition's set alone covers 8 of the 24 tiles: never a
     * bundle's set on its own */
    assert_int_equal(puz_pdb_build(PUZ_PDB_4X6ZB, NULL, &po, &half, msg),
                     PUZ_OK);
    assert_int_equal(puz_tables_create(&tp), PUZ_OK);
    assert_int_equal(puz_tables_add_pdb(tp, half), PUZ_EINVAL);
    assert_int_equal(puz_tables_add_pdb(tp, pair), PUZ_OK);
    assert_int_equal(puz_tables_create(&tz), PUZ_OK);
    assert_int_equal(puz_tables_add_pdb(tz, dz), PUZ_OK);
    puz_board_goal(5, &goals[0]);
    board_of("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 "
             "23 24", &goals[1]);
    puz_rng_seed(&rng, 31);
    for (unsigned i = 0; i < 8; i++) {
        const struct puz_board *goal = &goals[i & 1];
        struct puz_solve_opts o = { 0 };
        struct puz_result rp, rz, ru;
        puz_arena *a = puz_arena_create(1 << 16);
        struct puz_board at;
        unsigned hp, hz, len;
        walk_from(goal, 34 + 2 * i, &rng, &b);
        len = optimal_lc(&b, goal);
        assert_int_equal(puz_pdb_eval(pair, &b, goal, &hp), PUZ_OK);
        assert_int_equal(puz_pdb_eval(dz, &b, goal, &hz), PUZ_OK);
        assert_true(hp >= hz && hp <= len);
        o.algorithm = PUZ_ALG_IDASTAR;
        o.goal = goal;
        o.heuristic = puz_heuristic_find("pdb");
        o.tables = tp;
        assert_int_equal(puz_solve(&b, &o, a, &rp), PUZ_OK);
        o.tables = tz;
        assert_int_equal(puz_solve(&b, &o, a, &rz), PUZ_OK);
        o.tables = tp;
        o.threads = 4;
        assert_int_equal(puz_solve(&b, &o, a, &ru), PUZ_OK);
        assert_int_equal(rp.status, PUZ_SOLVED);
        assert_true(rp.optimal);
        assert_int_equal(rp.length, len);
        assert_int_equal(rz.length, len);
        assert_int_equal(ru.length, len);
        /* admissible on every state of the path */
        at = b;
        for (unsigned m = 0; m <= rp.length; m++) {
            assert_int_equal(puz_pdb_eval(pair, &at, goal, &hp), PUZ_OK);
            assert_true(hp <= rp.length - m);
            if (m < rp.length) {
                assert_int_equal(puz_replay(&at, &rp.moves[m], 1, &end),
                                 PUZ_OK);
                at = end;
            }
        }
        assert_true(puz_board_equal(&at, goal));
        pn += rp.stats.generated;
        zn += rz.stats.generated;
        puz_arena_destroy(a);
    }
    /* the second partition raises the estimate of many boards */
    for (unsigned i = 0; i < 200; i++) {
        unsigned hp, hz;
        walk_from(&goals[0], 40 + i % 20, &rng, &b);
        assert_int_equal(puz_pdb_eval(pair, &b, &goals[0], &hp), PUZ_OK);
        assert_int_equal(puz_pdb_eval(dz, &b, &goals[0], &hz), PUZ_OK);
        assert_true(hp >= hz);
        above += hp > hz;
    }
    assert_true(above > 0);
    assert_true(pn < zn);
    /* the plug-in's counts with the pair (zero-aware entries, second
     * sums, reflection) equal the reference's, whose h is found from
     * scratch at every node */
    counts_on(tp, 5, 36, 4, 4712);
    puz_tables_destroy(tz);
    puz_tables_destroy(tp);
}

/* A zero-aware set's file holds its za tables and region numbers: saved
 * by the first open, read by the second, byte for byte the build. */
static void test_za_cache_round_trip(void **state)
{
    struct fixture *fx = *state;
    struct puz_pdb_opts o = { 2, quiet, NULL, pool_run_pieces, NULL };
    char dir[300], msg[PUZ_MSG_MAX] = "";
    puz_pdb *built, *back;

    snprintf(dir, sizeof(dir), "%s/za", fx->dir);
    mkdir(dir, 0755);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6Z, NULL, &o, &built, msg),
                     PUZ_OK);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6Z, NULL, &o, &back, msg),
                     PUZ_OK);
    assert_true(back->zero_aware);
    assert_int_equal(puz_pdb_bytes(back), puz_pdb_bytes(built));
    assert_memory_equal(back->mem, built->mem, puz_pdb_bytes(built));
    assert_true((const void *)back->za.cut > back->mem);
    assert_memory_equal(back->za.cut, built->za.cut,
                        built->za.sets * sizeof(*built->za.cut));
    assert_memory_equal(back->za.rec, built->za.rec,
                        built->za.cuts * sizeof(*built->za.rec));
    puz_pdb_destroy(back);
    puz_pdb_destroy(built);
}

/* The cut sets' numbers the lookups find through z->rank (44 KB) equal
 * the per-set array the file keeps, for every set of 4 and of 6 cells;
 * and a pair's second set reads the first's records (the same). */
static void test_za_rank_matches_cut(void **state)
{
    const enum puz_pdb_partition parts[] = { PUZ_PDB_4X6Z, PUZ_PDB_6666Z };
    struct fixture *fx = *state;
    struct puz_pdb_opts o = { 2, quiet, NULL, pool_run_pieces, NULL };
    char dir[300], msg[PUZ_MSG_MAX] = "";
    puz_pdb *pair = NULL;

    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        struct puz_pdb *d = calloc(1, sizeof(*d));
        uint32_t *cut, whole = 0;
        struct puz__za_cut *rec;
        assert_non_null(d);
        assert_int_equal(puz__pdb_layout(d, parts[i], 0), PUZ_OK);
        cut = malloc(d->za.sets * sizeof(*cut));
        rec = malloc(d->za.cuts * sizeof(*rec));
        assert_true(cut != NULL && rec != NULL);
        d->za.cut = cut;
        d->za.rec = rec;
        puz__pdb_za_number(d);
        for (uint32_t set = 0; set < d->za.sets; set++) {
            assert_int_equal(puz__za_cut_of(&d->za, set, 0), cut[set]);
            assert_int_equal(puz__za_cut_of(&d->za, set, 1), cut[set]);
            whole += cut[set] == PUZ__ZA_WHOLE;
        }
        assert_int_equal(whole + d->za.cuts, d->za.sets);
        free(rec);
        free(cut);
        free(d);
    }
    snprintf(dir, sizeof(dir), "%s/pair", fx->dir);
    mkdir(dir, 0755);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_4X6Z2, NULL, &o, &pair, msg),
                     PUZ_OK);
    assert_ptr_equal(pair->second->za.rec, pair->za.rec);
    puz_pdb_destroy(pair);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partition_names),
        cmocka_unit_test(test_group_matches_truth_edge_blank),
        cmocka_unit_test(test_group_matches_truth_corner_two_threads),
        cmocka_unit_test(test_663_small_group_matches_truth),
        cmocka_unit_test(test_admissible_and_consistent),
        cmocka_unit_test(test_korf_quick_instances),
        cmocka_unit_test(test_corner_goals_share_tables),
        cmocka_unit_test(test_edge_and_centre_goals),
        cmocka_unit_test(test_missing_tables_are_explained),
        cmocka_unit_test(test_3x3_exact_for_every_goal_class),
        cmocka_unit_test(test_cache_round_trip),
        cmocka_unit_test(test_cache_rejects_damage),
        cmocka_unit_test(test_cache_fifo_refused_at_once),
        cmocka_unit_test(test_cache_rejects_other_tables),
        cmocka_unit_test(test_open_rebuilds_damaged_file),
        cmocka_unit_test(test_open_note_is_whole),
        cmocka_unit_test(test_5x5_group_matches_truth),
        cmocka_unit_test(test_5x5_shared_table_matches_truth),
        cmocka_unit_test(test_5x5_layouts_share_tables),
        cmocka_unit_test(test_5x5_admissible_and_reflected),
        cmocka_unit_test(test_5x5_reflected_lookup),
        cmocka_unit_test(test_parts_match_value),
        cmocka_unit_test(test_5x5_additive),
        cmocka_unit_test(test_5x5_optimal_against_independent_search),
        cmocka_unit_test(test_5x5_shared_fsm),
        cmocka_unit_test(test_counts_match_reference_4x4),
        cmocka_unit_test(test_counts_match_reference_5x5),
        cmocka_unit_test(test_5x5_cache_files),
        cmocka_unit_test(test_5x5_other_goals_fall_back),
        cmocka_unit_test(test_5x5_anytime_names_its_tables),
        cmocka_unit_test(test_loaded_tables_survive_truncated_file),
        cmocka_unit_test(test_za_matches_truth),
        cmocka_unit_test(test_za_optimal_and_stronger),
        cmocka_unit_test(test_za_cache_round_trip),
        cmocka_unit_test(test_pair_optimal_and_stronger),
        cmocka_unit_test(test_strongest_within_budget),
        cmocka_unit_test(test_za_rank_matches_cut),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
