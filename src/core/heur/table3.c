/*
 * table3.c - exact distances for every 3x3 board, by one breadth-first
 * search from the goal (about 181k states, a few milliseconds). The BFS
 * queue is kept: it lists the states in order of distance, which is what
 * drawing a random board of an exact distance needs. Beside each
 * distance the BFS records which blank moves lead one step closer, so a
 * shortest path is read off with one lookup per move (puz_table3_walk).
 * Shared read-only data built once, so it lives on the heap rather than
 * in a request arena.
 */
#include <stdlib.h>
#include <string.h>

#include "puz_table3.h"

#define MAX_DIST 40u

struct puz_table3 {
    struct puz_board goal;
    uint8_t *dist;              /* [rank / 2] */
    uint8_t *closer;            /* [rank / 2]: bit d = moving the blank
                                   in direction d gets one step closer */
    uint64_t *order;            /* packed states in BFS order */
    uint32_t start_of[MAX_DIST + 2];  /* order[] offsets per distance */
    uint8_t goal_seq[8];        /* the goal's tiles in reading order */
    unsigned max_dist;
};

static const uint32_t factorial[9] = { 1, 1, 2, 6, 24, 120, 720, 5040,
                                       40320 };

/* Bits set in each 9-bit value: __builtin_popcount is a library call
 * unless the build targets a CPU with the instruction. */
#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
#define B8(n) B6(n), B6(n + 1), B6(n + 1), B6(n + 2)
static const uint8_t bits9[512] = { B8(0), B8(1) };

static uint64_t pack(const uint8_t *cells)
{
    uint64_t p = 0;

    for (unsigned i = 0; i < 9; i++)
        p |= (uint64_t)cells[i] << (4 * i);
    return p;
}

static void unpack(uint64_t p, uint8_t *cells)
{
    for (unsigned i = 0; i < 9; i++)
        cells[i] = (uint8_t)(p >> (4 * i) & 15);
}

/* Index of a reachable state: the blank's cell times 8!/2, plus the
 * Lehmer rank of the eight tiles in reading order, halved. Reachable
 * states all have the same tile-inversion parity, and two orders that
 * differ only in their last two tiles have opposite parities, so the
 * halved rank is unique among them. (Halving the rank of all nine cells
 * would not do: moving the blank between the last two cells keeps a
 * state reachable but changes the nine-cell parity.) */
static uint32_t half_rank(uint64_t p)
{
    uint32_t rank = 0, used = 0, blank = 0;
    unsigned k = 0;

    for (unsigned i = 0; i < 9; i++) {
        unsigned v = (unsigned)(p >> (4 * i) & 15), smaller;
        if (v == 0) {
            blank = i;
            continue;
        }
        if (k < 7) {
            smaller = bits9[used & ((1u << v) - 1)];
            rank += (v - 1 - smaller) * factorial[7 - k];
        }
        used |= 1u << v;
        k++;
    }
    return blank * (PUZ_TABLE3_STATES / 9) + (rank >> 1);
}

static unsigned blank_of(uint64_t p)
{
    for (unsigned i = 0; i < 9; i++)
        if ((p >> (4 * i) & 15) == 0)
            return i;
    return 0;
}

static uint64_t swap_cells(uint64_t p, unsigned blank, unsigned other)
{
    uint64_t tile = p >> (4 * other) & 15;

    p &= ~((uint64_t)15 << (4 * other));
    return p | tile << (4 * blank);
}

/* Visit the neighbours of order[i]; append the new ones at *tail. A
 * neighbour one step farther can come back here in one move: that move
 * (direction k reversed, k ^ 1) brings it closer. */
static void bfs_step(struct puz_table3 *t, uint32_t i, uint32_t *tail)
{
    static const int dr[4] = { -1, 1, 0, 0 }, dc[4] = { 0, 0, -1, 1 };
    uint64_t p = t->order[i];
    unsigned b = blank_of(p), d = t->dist[half_rank(p)];

    for (unsigned k = 0; k < 4; k++) {
        int r = (int)(b / 3) + dr[k], c = (int)(b % 3) + dc[k];
        uint64_t q;
        uint32_t rank;
        if (r < 0 || r > 2 || c < 0 || c > 2)
            continue;
        q = swap_cells(p, b, (unsigned)(r * 3 + c));
        rank = half_rank(q);
        if (t->dist[rank] == PUZ_TABLE3_UNREACHABLE) {
            t->dist[rank] = (uint8_t)(d + 1);
            t->order[(*tail)++] = q;
        }
        if (t->dist[rank] == d + 1)
            t->closer[rank] |= (uint8_t)(1u << (k ^ 1u));
    }
}

static void build(struct puz_table3 *t)
{
    uint32_t tail = 1;

    memset(t->dist, PUZ_TABLE3_UNREACHABLE, PUZ_TABLE3_STATES);
    memset(t->closer, 0, PUZ_TABLE3_STATES);
    t->order[0] = pack(t->goal.cells);
    t->dist[half_rank(t->order[0])] = 0;
    for (uint32_t i = 0; i < tail; i++)
        bfs_step(t, i, &tail);
    t->max_dist = t->dist[half_rank(t->order[tail - 1])];
    for (unsigned d = 0; d <= MAX_DIST + 1; d++)
        t->start_of[d] = tail;
    for (uint32_t i = tail; i-- > 0;)
        t->start_of[t->dist[half_rank(t->order[i])]] = i;
}

puz_err puz_table3_create(const struct puz_board *goal, puz_table3 **out)
{
    puz_table3 *t;

    *out = NULL;
    if (goal != NULL && (goal->n != 3 || !puz_board_square(goal)))
        return PUZ_EINVAL;
    t = calloc(1, sizeof(*t));
    if (t == NULL)
        return PUZ_ENOMEM;
    if (goal != NULL)
        t->goal = *goal;
    else
        puz_board_goal(3, &t->goal);
    t->dist = malloc(PUZ_TABLE3_STATES);
    t->closer = malloc(PUZ_TABLE3_STATES);
    t->order = malloc(PUZ_TABLE3_STATES * sizeof(*t->order));
    if (t->dist == NULL || t->closer == NULL || t->order == NULL) {
        puz_table3_destroy(t);
        return PUZ_ENOMEM;
    }
    build(t);
    for (unsigned i = 0, k = 0; i < 9; i++)
        if (t->goal.cells[i] != 0)
            t->goal_seq[k++] = t->goal.cells[i];
    *out = t;
    return PUZ_OK;
}

void puz_table3_destroy(puz_table3 *t)
{
    if (t == NULL)
        return;
    free(t->dist);
    free(t->closer);
    free(t->order);
    free(t);
}

const struct puz_board *puz_table3_goal(const puz_table3 *t)
{
    return &t->goal;
}

unsigned puz_table3_distance(const puz_table3 *t, const struct puz_board *b)
{
    bool solvable;

    /* An unreachable board shares its halved rank with a reachable one. */
    if (b->n != 3 || !puz_board_square(b) ||
        puz_board_solvable(b, &t->goal, &solvable, NULL) != PUZ_OK ||
        !solvable)
        return PUZ_TABLE3_UNREACHABLE;
    return t->dist[half_rank(pack(b->cells))];
}

unsigned puz_table3_max_distance(const puz_table3 *t)
{
    return t->max_dist;
}

uint32_t puz_table3_count_at(const puz_table3 *t, unsigned d)
{
    if (d > t->max_dist)
        return 0;
    return t->start_of[d + 1] - t->start_of[d];
}

puz_err puz_table3_state_at(const puz_table3 *t, unsigned d, uint32_t k,
                            struct puz_board *out)
{
    memset(out, 0, sizeof(*out));
    if (k >= puz_table3_count_at(t, d))
        return PUZ_ERANGE;
    out->n = 3;
    unpack(t->order[t->start_of[d] + k], out->cells);
    out->blank = (uint8_t)blank_of(t->order[t->start_of[d] + k]);
    return PUZ_OK;
}

/* The table's direction of each of b's directions, from the frame's
 * cell map (a symmetry of the square maps every move the same way). */
static void frame_dirs(const uint8_t *cell, uint8_t *tdir)
{
    static const int8_t step[4] = { -3, 3, -1, 1 };

    for (unsigned d = 0; d < 4; d++) {
        int diff = cell != NULL ? (int)cell[4 + step[d]] - (int)cell[4]
                                : step[d];
        for (unsigned e = 0; e < 4; e++)
            if (step[e] == diff)
                tdir[d] = (uint8_t)e;
    }
}

/*
 * The walk keeps half_rank() up to date instead of recomputing it: the
 * eight tiles in reading order (seq) and their Lehmer digits (how many
 * smaller tiles follow each). A sideways move keeps the reading order,
 * so only the blank's part of the rank changes; a vertical move makes
 * one tile jump over the two between its old and new cell, which
 * changes three digits by known amounts.
 */
struct walker {
    uint8_t seq[8];
    uint8_t digit[8];
    unsigned blank;
    uint32_t rank;              /* half_rank() of the state */
};

#define BLANK_STEP (PUZ_TABLE3_STATES / 9)
/* A pick[] entry naming no direction (real ones, d << 4 | d', are below
 * 0x40). */
#define NO_PICK 255u
/* What digit k adds to the halved rank: (7 - k)! / 2; the last two
 * digits are left out by the halving. */
static const uint32_t weight[8] = { 2520, 360, 60, 12, 3, 1, 0, 0 };

static void walker_init(struct walker *w, const uint8_t *cells)
{
    unsigned k = 0;

    w->blank = 0;
    for (unsigned i = 0; i < 9; i++) {
        if (cells[i] == 0)
            w->blank = i;
        else
            w->seq[k++] = cells[i];
    }
    w->rank = w->blank * BLANK_STEP;
    for (unsigned i = 0; i < 8; i++) {
        w->digit[i] = 0;
        for (unsigned j = i + 1; j < 8; j++)
            w->digit[i] += w->seq[j] < w->seq[i];
        w->rank += w->digit[i] * weight[i];
    }
}

/* Set digit i to v and adjust the rank. */
static inline void set_digit(struct walker *w, unsigned i, unsigned v)
{
    w->rank += (v - w->digit[i]) * weight[i];
    w->digit[i] = (uint8_t)v;
}

/* Move the blank to cell next (a neighbour). */
static void walker_move(struct walker *w, unsigned next)
{
    unsigned b = w->blank, i, t, x, y, dt, dx, dy;
    uint8_t *q = w->seq, *g = w->digit;

    w->blank = next;
    w->rank += (next - b) * BLANK_STEP;     /* unsigned wrap: fine */
    if (next + 3 == b) {            /* up: t x y -> x y t */
        i = next;
        t = q[i], x = q[i + 1], y = q[i + 2];
        dt = g[i], dx = g[i + 1], dy = g[i + 2];
        q[i] = (uint8_t)x, q[i + 1] = (uint8_t)y, q[i + 2] = (uint8_t)t;
        set_digit(w, i, dx + (t < x));
        set_digit(w, i + 1, dy + (t < y));
        set_digit(w, i + 2, dt - (x < t) - (y < t));
    } else if (b + 3 == next) {     /* down: x y t -> t x y */
        i = b;
        x = q[i], y = q[i + 1], t = q[i + 2];
        dx = g[i], dy = g[i + 1], dt = g[i + 2];
        q[i] = (uint8_t)t, q[i + 1] = (uint8_t)x, q[i + 2] = (uint8_t)y;
        set_digit(w, i, dt + (x < t) + (y < t));
        set_digit(w, i + 1, dx - (t < x));
        set_digit(w, i + 2, dy - (t < y));
    }
}

unsigned puz_table3_walk(const puz_table3 *t, const struct puz_board *b,
                         const uint8_t *cell, const uint8_t *tile,
                         uint8_t *dirs, unsigned *generated)
{
    static const int8_t step[4] = { -3, 3, -1, 1 };
    static const uint8_t nmoves[9] = { 2, 3, 2, 3, 4, 3, 2, 3, 2 };
    uint8_t tdir[4], mine[4], pick[16], cells[9];
    struct walker w;
    unsigned len, gen = 0;

    if (generated != NULL)
        *generated = 0;
    frame_dirs(cell, tdir);
    /* pick[m]: for a set m of the table's closer directions, b's last
     * direction (in the order up, down, left, right) among them, as b's
     * direction in the high bits and the table's in the low ones;
     * NO_PICK for the empty set. */
    pick[0] = NO_PICK;
    for (unsigned d = 0; d < 4; d++)
        mine[tdir[d]] = (uint8_t)(d << 4 | tdir[d]);
    for (unsigned m = 1; m < 16; m++) {
        unsigned low = mine[__builtin_ctz(m)], rest = pick[m & (m - 1)];
        pick[m] = (uint8_t)(rest != NO_PICK && rest > low ? rest : low);
    }
    for (unsigned i = 0; i < 9; i++)
        cells[cell != NULL ? cell[i] : i] = tile != NULL ? tile[b->cells[i]]
                                                        : b->cells[i];
    walker_init(&w, cells);
    len = t->dist[w.rank];
    for (unsigned k = 0; k < len; k++) {
        unsigned m = pick[t->closer[w.rank]];
        if (m == NO_PICK)
            return PUZ_TABLE3_UNREACHABLE;
        gen += nmoves[w.blank] - (k > 0);
        dirs[k] = (uint8_t)(m >> 4);
        walker_move(&w, (unsigned)((int)w.blank + step[m & 15u]));
    }
    /* A board of the other parity class shares its ranks with one of
     * this class and walks alongside it, but ends beside the goal. */
    if (memcmp(w.seq, t->goal_seq, 8) != 0 || w.blank != t->goal.blank)
        return PUZ_TABLE3_UNREACHABLE;
    if (generated != NULL)
        *generated = gen;
    return len;
}
