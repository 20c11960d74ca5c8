/*
 * tilecost.c - what bringing one tile home costs on its own, for the
 * abstract strip searches of the reduction (reduce.c). Manhattan
 * distance counts the tile's own slides, but the blank has to go round
 * the tile before each slide after the first: a tile moving straight
 * takes 5 moves a cell, a diagonal zig-zag about 3, a wall or a corner
 * more. So the weighted A* over a strip, guided by Manhattan + linear
 * conflict, needed weights of 3-5 to finish at all and then made paths
 * 1.5-2x longer than necessary. Here each cared tile's cost from every
 * cell is exact for that tile alone: a breadth-first search over (tile
 * cell, blank cell) inside the unsolved region (rows >= top, columns
 * >= left: a square's lower right, or a rectangle's), from the tile at home
 * with the blank anywhere, taken at the best blank cell next to the
 * tile (the blank_term of wsearch.c brings the blank there).
 *
 * The sum over the tiles is not admissible (one blank tour can carry
 * two tiles) and is not meant to be: the strip searches only look for
 * short paths, and the answer's lower bound never comes from them.
 *
 * The same for two tiles at once (puz__tcost_pairs): a search over
 * (cell of a, cell of b, blank cell) for the strip's tiles taken two by
 * two in order (neighbours at home, such as the last two of a row,
 * which a single tile's cost sees as easy), so one blank tour is
 * counted once for both and their getting in each other's way is
 * counted at all. Summed with the unpaired tiles' own costs, a third
 * guide for the strip searches (reduce.c).
 */
#include <stdlib.h>
#include <string.h>

#include "large/large.h"

static int in_region(unsigned c, unsigned n, unsigned top, unsigned left)
{
    return c / n >= top && c % n >= left;
}

/* One tile's table: dist over (tile cell, blank cell) of the region
 * with rows >= top and columns >= left, then the best blank next to
 * the tile. */
static void one_tile(struct puz__tcost *tc, const struct puz__moves *mv,
                     unsigned top, unsigned left, unsigned t, unsigned home)
{
    unsigned n = tc->n, cells = tc->cells;
    static const uint16_t far = UINT16_MAX;
    uint16_t dist[PUZ_MAX_CELLS][PUZ_MAX_CELLS];
    uint16_t queue[PUZ_MAX_CELLS * PUZ_MAX_CELLS];
    unsigned qh = 0, qt = 0;

    for (unsigned a = 0; a < cells; a++)
        for (unsigned b = 0; b < cells; b++)
            dist[a][b] = far;
    for (unsigned b = 0; b < cells; b++) {
        if (b == home || !in_region(b, n, top, left))
            continue;
        dist[home][b] = 0;
        queue[qt++] = (uint16_t)(home * PUZ_MAX_CELLS + b);
    }
    /* moves are reversible: a forward search from the goal states */
    while (qh < qt) {
        unsigned st = queue[qh++], tp = st / PUZ_MAX_CELLS;
        unsigned bp = st % PUZ_MAX_CELLS, d0 = dist[tp][bp];
        for (unsigned d = 0; d < 4; d++) {
            unsigned nb = mv->to[bp][d], ntp = tp;
            if (nb == PUZ__WALL || !in_region(nb, n, top, left))
                continue;
            if (nb == tp)
                ntp = bp;       /* the blank swaps with the tile */
            if (dist[ntp][nb] != far)
                continue;
            dist[ntp][nb] = (uint16_t)(d0 + 1);
            queue[qt++] = (uint16_t)(ntp * PUZ_MAX_CELLS + nb);
        }
    }
    for (unsigned p = 0; p < cells; p++) {
        unsigned best = far;
        if (p == home)
            continue;           /* 0, from puz__tcost_init */
        for (unsigned d = 0; d < 4; d++) {
            unsigned b = mv->to[p][d];
            if (b != PUZ__WALL && dist[p][b] < best)
                best = dist[p][b];
        }
        tc->cost[t][p] = (uint8_t)(best > UINT8_MAX ? UINT8_MAX : best);
    }
}

void puz__tcost_init(struct puz__tcost *tc, const struct puz_board *goal,
                     unsigned top, unsigned left, const uint8_t *care,
                     unsigned ncare)
{
    unsigned n = goal->n;
    struct puz__moves mv;

    tc->n = n;
    tc->rows = puz_board_rows(goal);
    tc->cells = tc->rows * n;
    memset(tc->cost, 0, sizeof(tc->cost));
    memset(tc->pair, 0, sizeof(tc->pair));
    puz__moves_init_shape(&mv, tc->rows, n);
    for (unsigned i = 0; i < tc->cells; i++)
        for (unsigned j = 0; j < ncare; j++)
            if (goal->cells[i] == care[j] && care[j] != 0)
                one_tile(tc, &mv, top, left, care[j], i);
}

/*
 * One pair's table: a breadth-first search over (cell of a, cell of b,
 * blank cell) inside the region, from both at home with the blank
 * anywhere; then for each (a, b) the best blank next to either (the
 * blank term brings it there). dist is cells^3 bytes, queue 4 times
 * that: 256 KB and 1 MB on 8x8.
 */
/* dist of a state not reached yet; reached ones stop one below it. */
#define UNSEEN 255u

static puz_err one_pair(struct puz__tcost *tc, const struct puz__moves *mv,
                        unsigned top, unsigned left, unsigned ha, unsigned hb,
                        unsigned id)
{
    unsigned n = tc->n, cells = tc->cells;
    size_t ns = (size_t)cells * cells * cells, qh = 0, qt = 0;
    uint8_t *dist = malloc(ns);
    uint32_t *queue = malloc(ns * sizeof(*queue));

    if (dist == NULL || queue == NULL) {
        free(dist);
        free(queue);
        return PUZ_ENOMEM;
    }
    memset(dist, UNSEEN, ns);
    for (unsigned bl = 0; bl < cells; bl++) {
        if (bl == ha || bl == hb || !in_region(bl, n, top, left))
            continue;
        dist[((size_t)ha * cells + hb) * cells + bl] = 0;
        queue[qt++] = (uint32_t)((ha * cells + hb) * cells + bl);
    }
    /* moves are reversible: a forward search from the goal states */
    while (qh < qt) {
        uint32_t st = queue[qh++];
        unsigned bl = st % cells, b = st / cells % cells;
        unsigned a = st / cells / cells;
        unsigned d0 = dist[st];
        for (unsigned d = 0; d < 4; d++) {
            unsigned nbl = mv->to[bl][d], na = a, nb = b;
            size_t ni;
            if (nbl == PUZ__WALL || !in_region(nbl, n, top, left))
                continue;
            if (nbl == a)
                na = bl;        /* the blank swaps with a tile */
            else if (nbl == b)
                nb = bl;
            ni = ((size_t)na * cells + nb) * cells + nbl;
            if (dist[ni] != UNSEEN)
                continue;
            dist[ni] = (uint8_t)(d0 + 1 < UNSEEN - 1 ? d0 + 1 : UNSEEN - 1);
            queue[qt++] = (uint32_t)ni;
        }
    }
    for (unsigned a = 0; a < cells; a++)
        for (unsigned b = 0; b < cells; b++) {
            unsigned best = UNSEEN;
            for (unsigned d = 0; a != b && d < 8; d++) {
                unsigned bl = mv->to[d < 4 ? a : b][d % 4];
                size_t i = ((size_t)a * cells + b) * cells + bl;
                if (bl != PUZ__WALL && bl != a && bl != b && dist[i] < best)
                    best = dist[i];
            }
            tc->pcost[id][a][b] = (uint8_t)(a == ha && b == hb ? 0 : best);
        }
    free(dist);
    free(queue);
    return PUZ_OK;
}

puz_err puz__tcost_pairs(struct puz__tcost *tc, const struct puz_board *goal,
                         unsigned top, unsigned left, const uint8_t *care,
                         unsigned ncare)
{
    unsigned home[256] = { 0 };
    struct puz__moves mv;

    puz__moves_init_shape(&mv, tc->rows, tc->n);
    for (unsigned i = 0; i < tc->cells; i++)
        home[goal->cells[i]] = i;
    for (unsigned j = 0; j + 1 < ncare && j / 2 < PUZ__TC_PAIRS; j += 2) {
        unsigned a = care[j], b = care[j + 1], id = j / 2;
        if (a == 0 || b == 0)
            continue;
        if (one_pair(tc, &mv, top, left, home[a], home[b], id) != PUZ_OK) {
            memset(tc->pair, 0, sizeof(tc->pair));
            return PUZ_ENOMEM;
        }
        tc->pair[a] = tc->pair[b] = (uint8_t)(id + 1);
        tc->mate[a] = (uint8_t)b;
        tc->mate[b] = (uint8_t)a;
        tc->first[a] = 1;
        tc->first[b] = 0;
    }
    return PUZ_OK;
}

unsigned puz__tcost_eval(const struct puz__tcost *tc, const uint8_t *cells)
{
    uint8_t pos[256];
    unsigned h = 0;

    memset(pos, PUZ__NOT_CARED, sizeof(pos));
    for (unsigned i = 0; i < tc->cells; i++)
        if (cells[i] != 0 && cells[i] != PUZ__DONT_CARE)
            pos[cells[i]] = (uint8_t)i;
    for (unsigned i = 0; i < tc->cells; i++) {
        unsigned t = cells[i], q;
        if (t == 0 || t == PUZ__DONT_CARE)
            continue;
        q = tc->pair[t] != 0 ? pos[tc->mate[t]] : PUZ__NOT_CARED;
        if (q == PUZ__NOT_CARED)
            h += tc->cost[t][i];
        else if (tc->first[t])
            h += tc->pcost[tc->pair[t] - 1][i][q];
    }
    return h;
}
