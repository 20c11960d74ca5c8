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
 * cell, blank cell) inside the unsolved square, from the tile at home
 * with the blank anywhere, taken at the best blank cell next to the
 * tile (the blank_term of wsearch.c brings the blank there).
 *
 * The sum over the tiles is not admissible (one blank tour can carry
 * two tiles) and is not meant to be: the strip searches only look for
 * short paths, and the answer's lower bound never comes from them.
 */
#include <string.h>

#include "large.h"

/* One tile's table: dist over (tile cell, blank cell) of the square
 * with rows and columns >= lo, then the best blank next to the tile. */
static void one_tile(struct puz__tcost *tc, const struct puz__moves *mv,
                     unsigned lo, unsigned t, unsigned home)
{
    unsigned n = tc->n, cells = n * n;
    static const uint16_t far = UINT16_MAX;
    uint16_t dist[PUZ_MAX_CELLS][PUZ_MAX_CELLS];
    uint16_t queue[PUZ_MAX_CELLS * PUZ_MAX_CELLS];
    unsigned qh = 0, qt = 0;

    for (unsigned a = 0; a < cells; a++)
        for (unsigned b = 0; b < cells; b++)
            dist[a][b] = far;
    for (unsigned b = 0; b < cells; b++) {
        if (b == home || b / n < lo || b % n < lo)
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
            if (nb == PUZ__WALL || nb / n < lo || nb % n < lo)
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
        tc->cost[t][p] = (uint8_t)(best > 255 ? 255 : best);
    }
}

void puz__tcost_init(struct puz__tcost *tc, const struct puz_board *goal,
                     unsigned lo, const uint8_t *care, unsigned ncare)
{
    unsigned n = goal->n;
    struct puz__moves mv;

    tc->n = n;
    memset(tc->cost, 0, sizeof(tc->cost));
    puz__moves_init(&mv, n);
    for (unsigned i = 0; i < n * n; i++)
        for (unsigned j = 0; j < ncare; j++)
            if (goal->cells[i] == care[j] && care[j] != 0)
                one_tile(tc, &mv, lo, care[j], i);
}

unsigned puz__tcost_eval(const struct puz__tcost *tc, const uint8_t *cells)
{
    unsigned h = 0;

    for (unsigned i = 0; i < tc->n * tc->n; i++)
        if (cells[i] != 0 && cells[i] != PUZ__DONT_CARE)
            h += tc->cost[cells[i]][i];
    return h;
}
