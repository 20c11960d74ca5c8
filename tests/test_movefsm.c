/*
 * test_movefsm.c - the forbidden-move automaton must never cut every
 * shortest path to a board. Against an independent breadth-first search
 * of the real board (walls included): every board the plain search
 * reaches at distance d, the search that skips forbidden strings (and
 * moves straight back) reaches at distance d too. On the whole 3x3 state
 * space from every blank cell, and on 4x4 and 5x5 to a depth past the
 * longest forbidden string, for two direction orders. Plus: the
 * automaton forbids what it must (the 2x2 six-move loops), and a
 * too-small arena is refused, not half-used.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/base/movefsm.h"
#include "puz_board.h"

/* Room for every board the searches meet (5x5 from the centre, 14
 * moves: 469,004) at under half load */
#define CAP_BITS 20

/* The length and order the 5x5 IDA* uses (idastar_pdb.c), and another. */
#define LEN 10u
static const uint8_t korf_order[4] = { PUZ_DOWN, PUZ_RIGHT, PUZ_LEFT,
                                       PUZ_UP };
static const uint8_t plain_order[4] = { PUZ_UP, PUZ_DOWN, PUZ_LEFT,
                                        PUZ_RIGHT };

/* A board packed 5 bits a cell, 12 cells a word; the last cell of a 5x5
 * board is left out (the others decide it). */
struct key {
    uint64_t w[2];
};

/* A node of the pruned search: its board, last move, automaton state. */
struct pkey {
    struct key b;
    uint32_t fs, last;
};

struct set {
    struct key *k;
    uint8_t *dist;           /* 255 = empty slot */
    size_t cap;
};

static struct key pack(const uint8_t *cells, unsigned ncells)
{
    struct key k = { { 0, 0 } };

    for (unsigned c = 0; c < ncells && c < 24; c++)
        k.w[c / 12] |= (uint64_t)cells[c] << (5 * (c % 12));
    return k;
}

static size_t hash(const struct key *k, uint64_t extra, size_t cap)
{
    uint64_t h = (k->w[0] * 0x9e3779b97f4a7c15ull) ^
                 ((k->w[1] ^ extra) * 0xc2b2ae3d27d4eb4full);

    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static size_t slot_of(const struct set *s, const struct key *k)
{
    size_t j = hash(k, 0, s->cap);

    while (s->dist[j] != 255 && memcmp(&s->k[j], k, sizeof(*k)) != 0)
        j = (j + 1) & (s->cap - 1);
    return j;
}

/* One node of either search: the board, its blank, the last move, and
 * (pruned search) the automaton state. */
struct node {
    uint8_t cells[25];
    uint8_t blank, last;
    uint32_t fs;
};

/* The board with tiles in order and the blank at cell blank. */
static void start_node(struct node *x, unsigned n, unsigned blank)
{
    for (unsigned c = 0, t = 1; c < n * n; c++)
        x->cells[c] = (uint8_t)(c == blank ? 0 : t++);
    x->blank = (uint8_t)blank;
    x->last = PUZ_NO_DIR;
    x->fs = 0;
}

/* Slide the tile on cell to into the blank. */
static void slide(struct node *x, int to)
{
    x->cells[x->blank] = x->cells[to];
    x->cells[to] = 0;
    x->blank = (uint8_t)to;
}

static int neighbour(unsigned n, unsigned b, unsigned dir)
{
    unsigned r = b / n, c = b % n;

    switch (dir) {
    case PUZ_UP: return r > 0 ? (int)(b - n) : -1;
    case PUZ_DOWN: return r + 1 < n ? (int)(b + n) : -1;
    case PUZ_LEFT: return c > 0 ? (int)b - 1 : -1;
    default: return c + 1 < n ? (int)b + 1 : -1;
    }
}

/* out = x with the blank moved in dir, that move its last; false when
 * dir leads off the board. */
static bool step(const struct node *x, unsigned n, unsigned dir,
                 struct node *out)
{
    int to = neighbour(n, x->blank, dir);

    if (to < 0)
        return false;
    *out = *x;
    slide(out, to);
    out->last = (uint8_t)dir;
    return true;
}

/*
 * Plain breadth-first search from the board with the blank at `blank`
 * (to depth max_depth), recording every board's distance; then the
 * pruned search, level by level, keeping only nodes at their board's
 * distance (a shortest path's prefixes are shortest paths), deduplicated
 * on (board, last move, automaton state). Every board of the plain
 * search must be reached at its distance. Returns the boards checked.
 */
static size_t check_from(unsigned n, unsigned blank, unsigned max_depth,
                         const struct puz__movefsm *m)
{
    unsigned cells = n * n;
    size_t cap = (size_t)1 << CAP_BITS, boards = 0, reached = 1;
    struct set all = { calloc(cap, sizeof(struct key)), malloc(cap), cap };
    struct node *cur = malloc(cap / 2 * sizeof(*cur));
    struct node *next = malloc(cap / 2 * sizeof(*next));
    uint8_t *seen = calloc(cap, 1);          /* reached by the pruned one */
    struct pkey *pk = calloc(cap, sizeof(*pk)); /* pruned nodes seen */
    size_t ncur = 1, nnext;
    uint8_t *pused = calloc(cap, 1);
    struct key k;

    assert_non_null(all.k);
    assert_non_null(all.dist);
    assert_non_null(cur);
    assert_non_null(next);
    assert_non_null(seen);
    assert_non_null(pk);
    assert_non_null(pused);
    memset(all.dist, 255, cap);
    start_node(&cur[0], n, blank);
    k = pack(cur[0].cells, cells);
    all.k[slot_of(&all, &k)] = k;
    all.dist[slot_of(&all, &k)] = 0;
    seen[slot_of(&all, &k)] = 1;

    /* plain search: distances of every board to max_depth */
    for (unsigned d = 0; d < max_depth && ncur > 0; d++) {
        nnext = 0;
        for (size_t i = 0; i < ncur; i++)
            for (unsigned dir = 0; dir < 4; dir++) {
                struct node c;
                size_t j;
                if (!step(&cur[i], n, dir, &c))
                    continue;
                k = pack(c.cells, cells);
                j = slot_of(&all, &k);
                if (all.dist[j] != 255)
                    continue;
                assert_true(nnext < cap / 2 && boards < cap / 2);
                all.k[j] = k;
                all.dist[j] = (uint8_t)(d + 1);
                next[nnext++] = c;
                boards++;
            }
        memcpy(cur, next, nnext * sizeof(*cur));
        ncur = nnext;
    }

    /* pruned search, kept to shortest paths */
    start_node(&cur[0], n, blank);
    ncur = 1;
    for (unsigned d = 0; d < max_depth && ncur > 0; d++) {
        nnext = 0;
        for (size_t i = 0; i < ncur; i++)
            for (unsigned dir = 0; dir < 4; dir++) {
                struct node c;
                struct pkey dk;
                size_t j;
                if ((cur[i].last != PUZ_NO_DIR && dir == (cur[i].last ^ 1u)) ||
                    !step(&cur[i], n, dir, &c))
                    continue;
                c.fs = m->next[4 * cur[i].fs + dir];
                if (c.fs == PUZ__FSM_DEAD)
                    continue;
                k = pack(c.cells, cells);
                j = slot_of(&all, &k);
                if (all.dist[j] != d + 1)
                    continue;                /* not a shortest path */
                reached += !seen[j];
                seen[j] = 1;
                memset(&dk, 0, sizeof(dk));
                dk.b = k;
                dk.fs = c.fs;
                dk.last = dir;
                j = hash(&k, (uint64_t)c.fs << 2 | dir, cap);
                while (pused[j] && memcmp(&pk[j], &dk, sizeof(dk)) != 0)
                    j = (j + 1) & (cap - 1);
                if (pused[j])
                    continue;
                pused[j] = 1;
                pk[j] = dk;
                assert_true(nnext < cap / 2);
                next[nnext++] = c;
            }
        memcpy(cur, next, nnext * sizeof(*cur));
        ncur = nnext;
    }
    assert_int_equal(reached, boards + 1);
    free(all.k);
    free(all.dist);
    free(cur);
    free(next);
    free(seen);
    free(pk);
    free(pused);
    return boards;
}

static void build(struct puz__movefsm *m, const uint8_t *order,
                  puz_arena *a)
{
    assert_int_equal(puz__movefsm_build(m, LEN, order, a), PUZ_OK);
    assert_non_null(m->next);
    assert_true(m->words > 1000);
    assert_true(m->states > m->words);
}

/* All 181,440 boards of the 3x3 space, from every blank cell (in the
 * other order from a corner, an edge cell and the centre). */
static void test_3x3_whole_space(void **state)
{
    puz_arena *a = puz_arena_create(1 << 16);
    struct puz__movefsm m;

    (void)state;
    build(&m, korf_order, a);
    for (unsigned b = 0; b < 9; b++)
        assert_int_equal(check_from(3, b, 40, &m), 181439);
    build(&m, plain_order, a);
    for (unsigned b = 0; b < 5; b += 2)
        assert_int_equal(check_from(3, b == 2 ? 1 : b, 40, &m), 181439);
    puz_arena_destroy(a);
}

/* 4x4 and 5x5 from a corner, an edge cell and an inner cell, 14 moves
 * deep (longer than any forbidden string, so they combine). */
static void test_4x4_and_5x5_to_depth_14(void **state)
{
    static const unsigned starts[2][3] = { { 15, 13, 5 }, { 24, 2, 12 } };
    const uint8_t *orders[2] = { korf_order, plain_order };

    (void)state;
    for (unsigned o = 0; o < 2; o++) {
        puz_arena *a = puz_arena_create(1 << 16);
        struct puz__movefsm m;
        build(&m, orders[o], a);
        for (unsigned n = 4; n <= 5; n++)
            for (unsigned i = 0; i < 3; i++)
                assert_true(check_from(n, starts[n - 4][i], 14, &m) >
                            10000);
        puz_arena_destroy(a);
    }
}

static uint32_t run(const struct puz__movefsm *m, const char *moves)
{
    uint32_t s = 0;

    for (const char *p = moves; *p != '\0' && s != PUZ__FSM_DEAD; p++) {
        unsigned d = *p == 'U' ? PUZ_UP : *p == 'D' ? PUZ_DOWN
                   : *p == 'L' ? PUZ_LEFT : PUZ_RIGHT;
        s = m->next[4 * s + d];
    }
    return s;
}

/* Round a 2x2 block six moves one way and six the other give the same
 * board: exactly one of each pair is forbidden, wherever it starts in a
 * path, and the 12-move full loop (back to the start) is too. */
static void test_forbids_2x2_loops(void **state)
{
    static const char *pairs[][2] = {
        { "RDLURD", "DRULDR" }, { "LDRULD", "DLURDL" },
        { "RULDRU", "URDLUR" }, { "LURDLU", "ULDRUL" },
    };
    puz_arena *a = puz_arena_create(1 << 16);
    struct puz__movefsm m;
    char buf[32];

    (void)state;
    build(&m, korf_order, a);
    for (unsigned i = 0; i < 4; i++) {
        int d0 = run(&m, pairs[i][0]) == PUZ__FSM_DEAD;
        int d1 = run(&m, pairs[i][1]) == PUZ__FSM_DEAD;
        assert_int_equal(d0 + d1, 1);
        snprintf(buf, sizeof(buf), "UL%s", d0 ? pairs[i][0] : pairs[i][1]);
        assert_int_equal(run(&m, buf), PUZ__FSM_DEAD);
    }
    assert_int_equal(run(&m, "RDLURDLURDLU"), PUZ__FSM_DEAD);
    assert_true(run(&m, "RDLU") != PUZ__FSM_DEAD);
    assert_true(run(&m, "RRDDLLUU") != PUZ__FSM_DEAD);
    puz_arena_destroy(a);
}

/* An arena without room: PUZ_ENOMEM and an empty automaton. */
static void test_small_arena_refused(void **state)
{
    puz_arena *a = puz_arena_create(1 << 12);
    struct puz__movefsm m;

    (void)state;
    puz_arena_set_budget(a, 1 << 16);
    assert_int_equal(puz__movefsm_build(&m, LEN, korf_order, a),
                     PUZ_ENOMEM);
    assert_null(m.next);
    assert_int_equal(m.states, 0);
    puz_arena_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3x3_whole_space),
        cmocka_unit_test(test_4x4_and_5x5_to_depth_14),
        cmocka_unit_test(test_forbids_2x2_loops),
        cmocka_unit_test(test_small_arena_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
