/*
 * space.c - a BFS over the whole state space of a small rectangle
 * (space.h): each board is its Lehmer rank, so the distances are one
 * byte per permutation and no solver code is involved.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "space.h"

/* Lehmer rank of cells[0..k) (a permutation of 0..k-1), O(k^2). */
static uint32_t rank_of(const uint8_t *cells, unsigned k)
{
    uint32_t r = 0;

    for (unsigned i = 0; i < k; i++) {
        unsigned smaller = 0;
        for (unsigned j = i + 1; j < k; j++)
            smaller += cells[j] < cells[i];
        r = r * (k - i) + smaller;
    }
    return r;
}

static void unrank(uint32_t r, unsigned k, uint8_t *cells)
{
    uint8_t digit[16], used[16] = { 0 };

    for (unsigned i = k; i-- > 0;) {
        digit[i] = (uint8_t)(r % (k - i));
        r /= k - i;
    }
    for (unsigned i = 0; i < k; i++) {
        unsigned d = digit[i], v = 0;
        for (;; v++)
            if (!used[v] && d-- == 0)
                break;
        used[v] = 1;
        cells[i] = (uint8_t)v;
    }
}

void space_build(struct space *sp, unsigned rows, unsigned cols)
{
    uint8_t cells[16];
    uint32_t *queue, head = 0, tail = 0;
    unsigned k = rows * cols;

    sp->rows = rows;
    sp->cols = cols;
    sp->cells = k;
    sp->size = 1;
    for (unsigned i = 2; i <= k; i++)
        sp->size *= i;
    sp->dist = malloc(sp->size);
    queue = malloc((size_t)sp->size / 2 * sizeof(*queue));
    assert_non_null(sp->dist);
    assert_non_null(queue);
    memset(sp->dist, SPACE_UNSEEN, sp->size);
    for (unsigned i = 0; i < k; i++)
        cells[i] = (uint8_t)((i + 1) % k);
    queue[tail++] = rank_of(cells, k);
    sp->dist[queue[0]] = 0;
    while (head < tail) {
        uint32_t r = queue[head++];
        unsigned b = 0;
        unrank(r, k, cells);
        while (cells[b] != 0)
            b++;
        for (int d = 0; d < 4; d++) {
            unsigned br = b / cols, bc = b % cols, to;
            uint32_t cr;
            if ((d == 0 && br == 0) || (d == 1 && br + 1 == rows) ||
                (d == 2 && bc == 0) || (d == 3 && bc + 1 == cols))
                continue;
            to = d == 0 ? b - cols : d == 1 ? b + cols : d == 2 ? b - 1
                                                                  : b + 1;
            cells[b] = cells[to];
            cells[to] = 0;
            cr = rank_of(cells, k);
            if (sp->dist[cr] == SPACE_UNSEEN) {
                sp->dist[cr] = (uint8_t)(sp->dist[r] + 1);
                queue[tail++] = cr;
            }
            cells[to] = cells[b];
            cells[b] = 0;
        }
    }
    assert_int_equal(tail, sp->size / 2);   /* half the boards: parity */
    free(queue);
}

void space_free(struct space *sp)
{
    free(sp->dist);
    sp->dist = NULL;
}

void space_board(const struct space *sp, uint32_t r, struct puz_board *b)
{
    long long v[16];
    uint8_t cells[16];

    unrank(r, sp->cells, cells);
    for (unsigned i = 0; i < sp->cells; i++)
        v[i] = cells[i];
    assert_int_equal(puz_board_from_shape(v, sp->cells, sp->rows, sp->cols,
                                          b, NULL), PUZ_OK);
}
