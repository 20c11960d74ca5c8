/*
 * test_rect_pdb.c - the rectangles' pattern databases against
 * independent truth. A BFS (tests/support/space.c, no solver code)
 * walks the whole 2x5 and 5x2 spaces from the goal: no table value exceeds a board's true distance
 * (saturated 4-bit entries, which 2-row boards have, included), on 2x5
 * and on 5x2 read through the transposed frame. On every shape with
 * tables (and its transpose), boards a random walk away are solved by
 * auto with the tables (IDA* with pdb) in exactly the length an IDA*
 * with Manhattan distance written here finds. A goal with the blank off
 * the corners falls back to the search without tables; a cache file
 * round-trips; the partitions parse by shape; /v1/catalog names the
 * shapes with tables, and auto (idastar, optimal) on them.
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

#include "api.h"
#include "support/apitest.h"
#include "support/pdbcache.h"
#include "support/space.h"
#include "heur/pdb_impl.h"
#include "puz_random.h"
#include "puz_solve.h"

static const enum puz_pdb_partition rects[] = {
    PUZ_PDB_R2X5, PUZ_PDB_R2X6, PUZ_PDB_R3X4,
    PUZ_PDB_R2X7, PUZ_PDB_R3X5, PUZ_PDB_R2X8,
};
#define NRECTS (sizeof(rects) / sizeof(rects[0]))

static puz_tables *tables;

/* The six sets from the build's cache (tests/support/pdbcache.c): built
 * there by the first suite that wants them (this one, or
 * test_pdb_background's), so a clean clone's make test builds each once. */
static int setup(void **state)
{
    char msg[PUZ_MSG_MAX] = "";

    (void)state;
    if (puz_tables_create(&tables) != PUZ_OK)
        return -1;
    for (unsigned i = 0; i < NRECTS; i++)
        if (test_pdb_add(tables, rects[i], msg) != 0) {
            fprintf(stderr, "test_rect_pdb: setup: %s\n", msg);
            return -1;
        }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    puz_tables_destroy(tables);
    return 0;
}

/* Whether some group of d reads a saturated (15) entry for b. */
static bool saturated(const puz_pdb *d, const struct puz__frame *f,
                      const struct puz_board *b)
{
    uint8_t canon[PUZ__PDB_CELLS], pos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];

    puz__frame_map(f, b->cells, canon);
    for (unsigned c = 0; c < d->cells; c++)
        if (canon[c] != 0)
            pos[d->group_of[canon[c]]][d->slot_of[canon[c]]] = (uint8_t)c;
    for (unsigned g = 0; g < d->ngroups; g++)
        if (puz__pdb_lookup(d, g, pos[g]) == 15)
            return true;
    return false;
}

/* Every board of rows x cols (2x5 or 5x2): the tables' value is at most
 * its true distance, also where an entry saturated. */
static void check_space(unsigned rows, unsigned cols)
{
    struct puz_board goal, b;
    struct puz__frame f;
    struct space sp;
    const puz_pdb *d;
    uint32_t sat = 0, exact = 0, reached = 0;

    space_build(&sp, rows, cols);

    assert_int_equal(puz_board_goal_shape(rows, cols, &goal), PUZ_OK);
    d = puz_tables_pdb(tables, &goal);
    assert_non_null(d);
    assert_int_equal(puz_pdb_partition(d), PUZ_PDB_R2X5);
    assert_int_equal(puz__frame_init(&f, &goal), PUZ_OK);
    for (uint32_t r = 0; r < sp.size; r++) {
        unsigned h;
        if (sp.dist[r] == SPACE_UNSEEN)
            continue;
        reached++;
        space_board(&sp, r, &b);
        assert_int_equal(puz_pdb_eval(d, &b, &goal, &h), PUZ_OK);
        if (h > sp.dist[r])
            fail_msg("%ux%u rank %u: table says %u, distance %u", rows, cols,
                     r, h, sp.dist[r]);
        exact += h == sp.dist[r];
        if (saturated(d, &f, &b))
            sat++;
    }
    printf("%ux%u: %u reached, %u exact, %u saturated\n", rows, cols,
           reached, exact, sat);
    /* the 4-bit cap is really exercised, and the tables are strong */
    assert_true(sat > 100);
    assert_true(exact > reached / 20);
    space_free(&sp);
}

static void test_2x5_space_admissible(void **state)
{
    (void)state;
    check_space(2, 5);
}

static void test_5x2_space_admissible(void **state)
{
    (void)state;
    check_space(5, 2);
}

/* --- independent truth: IDA* with Manhattan distance --------------- */

struct ida {
    unsigned rows, cols, cells;
    uint8_t b[16], home[16];
    unsigned bound, next;
};

static unsigned md_of(const struct ida *s)
{
    unsigned h = 0;

    for (unsigned c = 0; c < s->cells; c++)
        if (s->b[c] != 0) {
            unsigned hc = s->home[s->b[c]];
            h += (unsigned)(abs((int)(c / s->cols) - (int)(hc / s->cols)) +
                            abs((int)(c % s->cols) - (int)(hc % s->cols)));
        }
    return h;
}

static int dfs(struct ida *s, unsigned blank, unsigned g, unsigned h,
               int back)
{
    static const int opp[4] = { 1, 0, 3, 2 };

    if (g + h > s->bound) {
        if (g + h < s->next)
            s->next = g + h;
        return 0;
    }
    if (h == 0)
        return 1;
    for (int d = 0; d < 4; d++) {
        unsigned row = blank / s->cols, col = blank % s->cols, to, t, hc;
        int before, after;
        if (d == back || (d == 0 && row == 0) ||
            (d == 1 && row + 1 == s->rows) || (d == 2 && col == 0) ||
            (d == 3 && col + 1 == s->cols))
            continue;
        to = d == 0 ? blank - s->cols : d == 1 ? blank + s->cols
             : d == 2 ? blank - 1 : blank + 1;
        t = s->b[to];
        hc = s->home[t];
        before = abs((int)(to / s->cols) - (int)(hc / s->cols)) +
                 abs((int)(to % s->cols) - (int)(hc % s->cols));
        after = abs((int)(blank / s->cols) - (int)(hc / s->cols)) +
                abs((int)(blank % s->cols) - (int)(hc % s->cols));
        s->b[blank] = (uint8_t)t;
        s->b[to] = 0;
        if (dfs(s, to, g + 1, (unsigned)((int)h - before + after),
                opp[d]))
            return 1;
        s->b[to] = (uint8_t)t;
        s->b[blank] = 0;
    }
    return 0;
}

static unsigned ida_length(const struct puz_board *b)
{
    struct ida s = { 0 };
    unsigned blank = b->blank;

    s.rows = puz_board_rows(b);
    s.cols = b->n;
    s.cells = s.rows * s.cols;
    for (unsigned c = 0; c < s.cells; c++) {
        s.b[c] = b->cells[c];
        s.home[c + 1 < s.cells ? c + 1 : 0] = (uint8_t)c;
    }
    s.bound = md_of(&s);
    for (;;) {
        s.next = ~0u;
        if (dfs(&s, blank, 0, md_of(&s), -1))
            return s.bound;
        s.bound = s.next;
    }
}

static void check_shape(unsigned rows, unsigned cols, unsigned boards,
                        unsigned walk, uint64_t seed)
{
    struct puz_rng rng;
    struct puz_board goal, b;

    puz_rng_seed(&rng, seed);
    assert_int_equal(puz_board_goal_shape(rows, cols, &goal), PUZ_OK);
    assert_true(puz_tables_serves(tables, &goal));
    for (unsigned i = 0; i < boards; i++) {
        struct puz_solve_opts o = { 0 };
        struct puz_result r;
        puz_arena *a = puz_arena_create(0);
        unsigned want, h;

        assert_int_equal(puz_random_board_shape(rows, cols, walk, NULL,
                                                NULL, &rng, &b), PUZ_OK);
        want = ida_length(&b);
        o.tables = tables;
        assert_int_equal(puz_solve(&b, &o, a, &r), PUZ_OK);
        assert_int_equal(r.status, PUZ_SOLVED);
        assert_int_equal(r.algorithm, PUZ_ALG_IDASTAR);
        assert_string_equal(puz_heuristic_name(r.heuristic), "pdb");
        if (r.length != want)
            fail_msg("%ux%u board %u: pdb %u moves, independent %u", rows,
                     cols, i, r.length, want);
        assert_int_equal(puz_pdb_eval(puz_tables_pdb(tables, &goal), &b,
                                      &goal, &h), PUZ_OK);
        assert_true(h <= want);
        puz_arena_destroy(a);
    }
}

static void test_random_boards_optimal(void **state)
{
    static const unsigned shapes[][2] = {
        { 2, 5 }, { 2, 6 }, { 3, 4 }, { 2, 7 }, { 3, 5 }, { 2, 8 },
    };

    (void)state;
    for (unsigned i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        check_shape(shapes[i][0], shapes[i][1], 4, 36, 100 + i);
        /* the transposed shape reads the same tables */
        check_shape(shapes[i][1], shapes[i][0], 4, 36, 200 + i);
    }
}

/* Without tables auto is what it was; with them, 2x8's auto is
 * optimal instead of anytime. A goal with the blank off the corners
 * is not served and falls back. */
static void test_auto_choice(void **state)
{
    struct puz_board goal;

    (void)state;
    assert_int_equal(puz_algorithm_resolve_tables(PUZ_ALG_AUTO, 2, 8,
                                                  false),
                     PUZ_ALG_ANYTIME);
    assert_int_equal(puz_algorithm_resolve_tables(PUZ_ALG_AUTO, 8, 2,
                                                  true),
                     PUZ_ALG_IDASTAR);
    assert_int_equal(puz_algorithm_resolve_tables(PUZ_ALG_AUTO, 4, 4,
                                                  true),
                     PUZ_ALG_IDASTAR);
    assert_int_equal(puz_algorithm_resolve_tables(PUZ_ALG_AUTO, 4, 5,
                                                  true),
                     PUZ_ALG_ANYTIME);
    assert_int_equal(puz_board_goal_shape(3, 4, &goal), PUZ_OK);
    /* blank moved to cell 5 (row 1, column 1): no corner */
    goal.cells[11] = goal.cells[5];
    goal.cells[5] = 0;
    goal.blank = 5;
    assert_false(puz_tables_serves(tables, &goal));
    assert_null(puz_tables_pdb(tables, &goal));
    /* 4x5 and 3x6 have no tables */
    assert_int_equal(puz_board_goal_shape(4, 5, &goal), PUZ_OK);
    assert_false(puz_tables_serves(tables, &goal));
    assert_int_equal(puz_board_goal_shape(3, 6, &goal), PUZ_OK);
    assert_false(puz_tables_serves(tables, &goal));
}

static void test_cache_round_trip(void **state)
{
    char dir[] = "/tmp/test_rect_pdb_XXXXXX", path[512], name[128];
    char msg[PUZ_MSG_MAX] = "";
    struct puz_board goal, g44;
    puz_pdb *d = NULL, *e = NULL;

    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(puz_board_goal_shape(4, 3, &goal), PUZ_OK);
    assert_int_equal(puz_pdb_open(dir, PUZ_PDB_R3X4, &goal, NULL, &d, msg),
                     PUZ_OK);
    puz_pdb_filename(PUZ_PDB_R3X4, &goal, name, sizeof(name));
    assert_string_equal(name, "pdb-3x4-6-5-corner-v2.bin");
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    assert_int_equal(access(path, R_OK), 0);
    assert_int_equal(puz_pdb_load(path, PUZ_PDB_R3X4, &goal, &e, msg),
                     PUZ_OK);
    assert_int_equal(puz_pdb_bytes(d), puz_pdb_bytes(e));
    assert_memory_equal(d->mem, e->mem, puz_pdb_bytes(d));
    assert_true(puz_pdb_build_seconds(e) == 0);
    puz_pdb_destroy(e);
    e = NULL;
    /* the wrong shape is refused, not misread */
    assert_int_equal(puz_board_goal(4, &g44), PUZ_OK);
    assert_int_equal(puz_pdb_load(path, -1, &g44, &e, msg), PUZ_EINVAL);
    assert_null(e);
    unlink(path);
    rmdir(dir);
    puz_pdb_destroy(d);
}

static void test_parse(void **state)
{
    enum puz_pdb_partition p;

    (void)state;
    assert_int_equal(puz_pdb_partition_parse("3x5:6-6-2", &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_R3X5);
    assert_int_equal(puz_pdb_partition_parse("5x3", &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_R3X5);
    assert_int_equal(puz_pdb_partition_parse("8x2:6-6-3", &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_R2X8);
    assert_int_equal(puz_pdb_partition_parse("6-6-3", &p), PUZ_OK);
    assert_int_equal(p, PUZ_PDB_663);
    assert_int_equal(puz_pdb_partition_parse("3x5:7-7", &p), PUZ_EINVAL);
    assert_int_equal(puz_pdb_partition_parse("4x5", &p), PUZ_EINVAL);
    assert_int_equal(puz_pdb_partition_rows(PUZ_PDB_R3X4), 3);
    assert_int_equal(puz_pdb_partition_size(PUZ_PDB_R3X4), 4);
    assert_true(puz_pdb_partition_rect(PUZ_PDB_R2X8));
    assert_false(puz_pdb_partition_rect(PUZ_PDB_78));
}

/* The catalog's shapes[] name the tables and auto's optimal choice
 * where they are loaded, and nothing where they are not. */
static void test_catalog(void **state)
{
    struct apitest t;
    const json_t *shapes;
    unsigned with = 0;

    (void)state;
    apitest_init(&t);
    t.ctx.tables = tables;
    assert_int_equal(apitest_call(&t, "GET", "/v1/catalog", NULL, NULL)
                     ->status, 200);
    shapes = json_object_get(apitest_json(&t), "shapes");
    for (size_t i = 0; i < json_array_size(shapes); i++) {
        const json_t *s = json_array_get(shapes, i);
        unsigned r = (unsigned)json_integer_value(json_object_get(s, "rows"));
        unsigned c = (unsigned)json_integer_value(json_object_get(s, "cols"));
        const json_t *tb = json_object_get(s, "tables");
        unsigned lo = r < c ? r : c, hi = r < c ? c : r;
        bool has = r * c <= 16 && r * c >= 10 && (lo == 2 || lo == 3);
        char want[32];

        if (!has) {
            assert_true(json_is_null(tb));
            continue;
        }
        with++;
        assert_true(json_is_string(tb));
        snprintf(want, sizeof(want), "%ux%u:", lo, hi);
        assert_memory_equal(json_string_value(tb), want, strlen(want));
        assert_string_equal(apitest_str(s, "algorithm"), "idastar");
        assert_string_equal(apitest_str(s, "heuristic"), "pdb");
        assert_true(json_is_true(json_object_get(s, "optimal")));
    }
    assert_int_equal(with, 12);
    apitest_fini(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_2x5_space_admissible),
        cmocka_unit_test(test_5x2_space_admissible),
        cmocka_unit_test(test_random_boards_optimal),
        cmocka_unit_test(test_auto_choice),
        cmocka_unit_test(test_cache_round_trip),
        cmocka_unit_test(test_catalog),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
