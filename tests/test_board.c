/*
 * test_board.c - board parsing in every accepted form, every rejection
 * with its message, moves, and solvability checked against brute force
 * (exhaustive BFS on 2x2 and 3x3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "puz_board.h"
#include "puz_random.h"
#include "support/truth3.h"

static void assert_parses_to_goal3(const char *text)
{
    struct puz_board b, goal;
    char msg[PUZ_MSG_MAX];

    assert_int_equal(puz_board_parse(text, &b, msg), PUZ_OK);
    puz_board_goal(3, &goal);
    assert_true(puz_board_equal(&b, &goal));
    assert_int_equal(b.blank, 8);
}

static void test_parse_forms(void **state)
{
    (void)state;
    assert_parses_to_goal3("1 2 3 4 5 6 7 8 0");
    assert_parses_to_goal3("1,2,3,4,5,6,7,8,0");
    assert_parses_to_goal3("1, 2, 3; 4, 5, 6; 7, 8, 0");
    assert_parses_to_goal3("1 2 3 / 4 5 6 / 7 8 0");
    assert_parses_to_goal3("1 2 3\n4 5 6\n7 8 0\n");
    assert_parses_to_goal3("123456780");
    assert_parses_to_goal3("  123456780  ");
}

static void test_parse_sizes(void **state)
{
    struct puz_board b;
    char msg[PUZ_MSG_MAX];
    char text[512];
    size_t off = 0;

    (void)state;
    assert_int_equal(puz_board_parse("1320", &b, msg), PUZ_OK);
    assert_int_equal(b.n, 2);
    assert_int_equal(b.blank, 3);
    for (unsigned i = 0; i < 64; i++)
        off += (size_t)snprintf(text + off, sizeof(text) - off, "%u ",
                                (i + 1) % 64);
    assert_int_equal(puz_board_parse(text, &b, msg), PUZ_OK);
    assert_int_equal(b.n, 8);
    assert_int_equal(b.cells[0], 1);
    assert_int_equal(b.blank, 63);
}

static void assert_rejects(const char *text, const char *expect)
{
    struct puz_board b;
    char msg[PUZ_MSG_MAX];

    assert_int_equal(puz_board_parse(text, &b, msg), PUZ_EINVAL);
    if (strstr(msg, expect) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", text, msg, expect);
}

static void test_parse_rejections(void **state)
{
    (void)state;
    assert_rejects("1 2 3", "got 3");
    assert_rejects("", "empty");
    assert_rejects("   ,, ", "empty");
    assert_rejects("1", "got 1");
    assert_rejects("0", "got 1");
    assert_rejects("1 2 3 4 5 6 7 8 9", "tile 9 at cell 9 (row 3, column 3) "
                   "is out of range");
    assert_rejects("1 2 3 4 5 6 7 8 -1", "tile -1 at cell 9");
    assert_rejects("1 2 3 4 5 5 7 8 0", "tile 5 appears twice: at cell 5 "
                   "(row 2, column 2) and at cell 6 (row 2, column 3)");
    assert_rejects("0 2 3 4 5 6 7 8 0", "two blanks (0): at cell 1");
    assert_rejects("1 2 3 4 x 6 7 8 0", "value 5 ('x') is not an integer");
    assert_rejects("1 2 3 4 5.5 6 7 8 0", "value 5 ('5.5') is not an "
                   "integer");
    assert_rejects("1 2 3 4 5 6 7 8 99999999999999999999", "not an integer");
    assert_rejects("12345678", "compact digit form needs exactly 4 or 9");
    assert_rejects("1234567890", "compact digit form");
    assert_rejects("113456780", "tile 1 appears twice");
    assert_rejects("1 2 3 4 5 6 7 8 0 9 10 11 12 13 14 15 16 17 18 19 20 21 "
                   "22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 "
                   "41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 "
                   "60 61 62 63 64 65", "too many values");
}

static void test_from_values_sizes(void **state)
{
    long long v[81];
    struct puz_board b;
    char msg[PUZ_MSG_MAX];

    (void)state;
    for (int i = 0; i < 81; i++)
        v[i] = i;
    assert_int_equal(puz_board_from_values(v, 81, &b, msg), PUZ_EINVAL);
    assert_non_null(strstr(msg, "got 81"));
    assert_int_equal(puz_board_from_values(v, 1, &b, msg), PUZ_EINVAL);
    assert_int_equal(puz_board_from_values(v, 0, &b, msg), PUZ_EINVAL);
    assert_int_equal(puz_board_from_values(v, 49, &b, msg), PUZ_OK);
    assert_int_equal(b.n, 7);
    assert_int_equal(b.blank, 0);
}

static void test_moves(void **state)
{
    struct puz_board b, g;
    enum puz_dir d;

    (void)state;
    puz_board_goal(3, &g);
    b = g;
    assert_false(puz_board_can_move(&b, PUZ_DOWN));
    assert_false(puz_board_can_move(&b, PUZ_RIGHT));
    assert_int_equal(puz_board_move(&b, PUZ_DOWN), 0);
    assert_true(puz_board_equal(&b, &g));
    assert_int_equal(puz_board_move(&b, PUZ_UP), 6);   /* 6 slides down */
    assert_int_equal(b.blank, 5);
    assert_int_equal(b.cells[8], 6);
    assert_int_equal(puz_board_move(&b, PUZ_LEFT), 5);
    assert_int_equal(puz_board_dir_of_tile(&b, 5, &d), PUZ_OK);
    assert_int_equal(d, PUZ_RIGHT);
    assert_int_equal(puz_board_dir_of_tile(&b, 1, &d), PUZ_EINVAL);
    assert_int_equal(puz_dir_parse("Left", &d), PUZ_OK);
    assert_int_equal(d, PUZ_LEFT);
    assert_int_equal(puz_dir_parse("u", &d), PUZ_OK);
    assert_int_equal(d, PUZ_UP);
    assert_int_equal(puz_dir_parse("north", &d), PUZ_EINVAL);
    assert_string_equal(puz_dir_name(PUZ_DOWN), "down");
    assert_int_equal(puz_dir_opposite(PUZ_LEFT), PUZ_RIGHT);
}

/* Every 3x3 permutation: parity test agrees with reachability by BFS. */
static void check_all_3x3(const uint8_t *goal_cells)
{
    struct truth3 *t = malloc(sizeof(*t));
    struct puz_board goal = { .n = 3 }, b = { .n = 3 };
    uint32_t solvable_count = 0;

    assert_non_null(t);
    assert_int_equal(truth3_build(t, goal_cells), 0);
    memcpy(goal.cells, goal_cells, 9);
    for (uint32_t r = 0; r < TRUTH3_PERMS; r++) {
        bool ok;
        truth3_unrank(r, b.cells);
        for (unsigned i = 0; i < 9; i++)
            if (b.cells[i] == 0)
                b.blank = (uint8_t)i;
        assert_int_equal(puz_board_solvable(&b, &goal, &ok, NULL), PUZ_OK);
        assert_int_equal(ok, t->dist[r] != TRUTH3_NONE);
        solvable_count += ok;
    }
    assert_int_equal(solvable_count, 181440);
    free(t);
}

static void test_solvable_3x3_brute_force(void **state)
{
    static const uint8_t blank_last[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
    static const uint8_t blank_first[9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    static const uint8_t spiral[9] = { 1, 2, 3, 8, 0, 4, 7, 6, 5 };

    (void)state;
    check_all_3x3(blank_last);
    check_all_3x3(blank_first);
    check_all_3x3(spiral);
}

/* 2x2: BFS over the 24 permutations by moving the blank. */
static void test_solvable_2x2_brute_force(void **state)
{
    struct puz_board goal, queue[24], b;
    int seen[4][4][4][4] = { { { { 0 } } } };
    int head = 0, tail = 0, perms = 0;

    (void)state;
    puz_board_goal(2, &goal);
    queue[tail++] = goal;
    seen[1][2][3][0] = 1;
    while (head < tail) {
        struct puz_board cur = queue[head++];
        for (unsigned d = 0; d < 4; d++) {
            b = cur;
            if (puz_board_move(&b, (enum puz_dir)d) == 0)
                continue;
            int *s = &seen[b.cells[0]][b.cells[1]][b.cells[2]][b.cells[3]];
            if (!*s) {
                *s = 1;
                queue[tail++] = b;
            }
        }
    }
    assert_int_equal(tail, 12);
    for (int p = 0; p < 256; p++) {
        long long v[4] = { p & 3, p >> 2 & 3, p >> 4 & 3, p >> 6 };
        bool ok;
        if (puz_board_from_values(v, 4, &b, NULL) != PUZ_OK)
            continue;
        perms++;
        assert_int_equal(puz_board_solvable(&b, &goal, &ok, NULL), PUZ_OK);
        assert_int_equal(ok, seen[v[0]][v[1]][v[2]][v[3]]);
    }
    assert_int_equal(perms, 24);
}

/* Even sizes: random walks stay solvable; one swap of two tiles never is. */
static void test_solvable_even_sizes(void **state)
{
    struct puz_rng rng;

    (void)state;
    puz_rng_seed(&rng, 42);
    for (unsigned n = 2; n <= 8; n++) {
        for (int k = 0; k < 200; k++) {
            struct puz_board goal, b;
            bool ok;
            unsigned i = 0, j = 1;
            puz_board_goal(n, &goal);
            if (n == 3)
                continue;       /* odd: covered exhaustively above */
            assert_int_equal(puz_random_board(n, 50 + (unsigned)k, NULL,
                                              NULL, &rng, &b), PUZ_OK);
            assert_int_equal(puz_board_solvable(&b, &goal, &ok, NULL), 0);
            assert_true(ok);
            if (b.cells[i] == 0) i = 2;
            if (b.cells[j] == 0) j = 2;
            uint8_t t = b.cells[i];
            b.cells[i] = b.cells[j];
            b.cells[j] = t;
            assert_int_equal(puz_board_solvable(&b, &goal, &ok, NULL), 0);
            assert_false(ok);
        }
    }
}

static void test_solvable_messages(void **state)
{
    struct puz_board b, goal, g4;
    char why[PUZ_MSG_MAX];
    bool ok;

    (void)state;
    puz_board_goal(3, &goal);
    puz_board_parse("1 2 3 4 5 6 8 7 0", &b, NULL);
    assert_int_equal(puz_board_solvable(&b, &goal, &ok, why), PUZ_OK);
    assert_false(ok);
    assert_non_null(strstr(why, "inversions: 1 (odd)"));
    assert_non_null(strstr(why, "cannot reach the goal"));
    puz_board_parse("8 6 7 2 5 4 3 0 1", &b, NULL);
    assert_int_equal(puz_board_solvable(&b, &goal, &ok, why), PUZ_OK);
    assert_true(ok);
    assert_non_null(strstr(why, "(even)"));
    puz_board_goal(4, &g4);
    puz_board_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0", &b, NULL);
    assert_int_equal(puz_board_solvable(&b, &g4, &ok, why), PUZ_OK);
    assert_false(ok);
    assert_non_null(strstr(why, "blank 0 row(s)"));
    assert_int_equal(puz_board_solvable(&b, &goal, &ok, why), PUZ_EINVAL);
    assert_non_null(strstr(why, "4x4 but the goal is 3x3"));
}

static void test_format(void **state)
{
    struct puz_board b;
    char buf[256];

    (void)state;
    puz_board_parse("8 6 7 2 5 4 3 0 1", &b, NULL);
    puz_board_format(&b, buf, sizeof(buf));
    assert_string_equal(buf, "8 6 7 2 5 4 3 0 1");
    puz_board_format_grid(&b, buf, sizeof(buf));
    assert_string_equal(buf, " 8 6 7\n 2 5 4\n 3 . 1\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_forms),
        cmocka_unit_test(test_parse_sizes),
        cmocka_unit_test(test_parse_rejections),
        cmocka_unit_test(test_from_values_sizes),
        cmocka_unit_test(test_moves),
        cmocka_unit_test(test_solvable_3x3_brute_force),
        cmocka_unit_test(test_solvable_2x2_brute_force),
        cmocka_unit_test(test_solvable_even_sizes),
        cmocka_unit_test(test_solvable_messages),
        cmocka_unit_test(test_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
