/*
 * table3.c - exact distances for every 3x3 board, by one breadth-first
 * search from the goal (about 181k states, a few milliseconds). The BFS
 * queue is kept: it lists the states in order of distance, which is what
 * drawing a random board of an exact distance needs. Shared read-only
 * data built once, so it lives on the heap rather than in a request arena.
 */
#include <stdlib.h>
#include <string.h>

#include "puz_table3.h"

#define MAX_DIST 40u

struct puz_table3 {
    struct puz_board goal;
    uint8_t *dist;              /* [rank / 2] */
    uint64_t *order;            /* packed states in BFS order */
    uint32_t start_of[MAX_DIST + 2];  /* order[] offsets per distance */
    unsigned max_dist;
};

static const uint32_t factorial[9] = { 1, 1, 2, 6, 24, 120, 720, 5040,
                                       40320 };

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
            smaller = (unsigned)__builtin_popcount(used & ((1u << v) - 1));
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

/* Visit the neighbours of order[i]; append the new ones at *tail. */
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
        if (t->dist[rank] != PUZ_TABLE3_UNREACHABLE)
            continue;
        t->dist[rank] = (uint8_t)(d + 1);
        t->order[(*tail)++] = q;
    }
}

static void build(struct puz_table3 *t)
{
    uint32_t tail = 1;

    memset(t->dist, PUZ_TABLE3_UNREACHABLE, PUZ_TABLE3_STATES);
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
    if (goal != NULL && goal->n != 3)
        return PUZ_EINVAL;
    t = calloc(1, sizeof(*t));
    if (t == NULL)
        return PUZ_ENOMEM;
    if (goal != NULL)
        t->goal = *goal;
    else
        puz_board_goal(3, &t->goal);
    t->dist = malloc(PUZ_TABLE3_STATES);
    t->order = malloc(PUZ_TABLE3_STATES * sizeof(*t->order));
    if (t->dist == NULL || t->order == NULL) {
        puz_table3_destroy(t);
        return PUZ_ENOMEM;
    }
    build(t);
    *out = t;
    return PUZ_OK;
}

void puz_table3_destroy(puz_table3 *t)
{
    if (t == NULL)
        return;
    free(t->dist);
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
    if (b->n != 3 ||
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
