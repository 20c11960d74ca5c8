/*
 * mlc.c - Manhattan distance plus linear conflicts (the same count as
 * h_linear_conflict.c: per line, the fewest tiles that must step aside so
 * the rest are in goal order, two moves each) against any goal, counting
 * only the tiles one cares about. A board seen through a set of cared
 * tiles is an abstract board: the other tiles are interchangeable, which
 * is what lets the reduction search a strip of tiles alone. Admissible
 * for reaching a board where the cared tiles are home, whatever the rest.
 */
#include <string.h>

#include "heur/h_manhattan.h"
#include "large/large.h"

void puz__mlc_init(struct puz__mlc *m, const struct puz_board *goal,
                   const uint8_t *care, unsigned ncare)
{
    unsigned n = goal->n;

    m->n = n;
    m->rows = puz_board_rows(goal);
    memset(m->row, PUZ__NOT_CARED, sizeof(m->row));
    memset(m->col, PUZ__NOT_CARED, sizeof(m->col));
    for (unsigned i = 0; i < m->rows * n; i++) {
        unsigned t = goal->cells[i], keep = care == NULL;
        for (unsigned j = 0; !keep && j < ncare; j++)
            keep = care[j] == t;
        if (t == 0 || !keep)
            continue;
        m->row[t] = (uint8_t)(i / n);
        m->col[t] = (uint8_t)(i % n);
    }
}

/* Tiles of the line of len cells from `first` in steps of `step` that
 * must step aside: those whose goal line (line_of) is this one, ordered
 * by their goal key (key_of). */
static unsigned line_cost(const uint8_t *cells, unsigned first,
                          unsigned len, unsigned step,
                          const uint8_t *line_of, const uint8_t *key_of,
                          unsigned line)
{
    uint8_t keys[PUZ_MAX_SIZE];
    unsigned k = 0;

    for (unsigned i = 0; i < len; i++) {
        unsigned t = cells[first + i * step];
        if (line_of[t] == line)
            keys[k++] = key_of[t];
    }
    return k > 1 ? puz__lc_line_cost(keys, k) : 0;
}

static unsigned row_cost(const struct puz__mlc *m, const uint8_t *cells,
                         unsigned r)
{
    return line_cost(cells, r * m->n, m->n, 1, m->row, m->col, r);
}

static unsigned col_cost(const struct puz__mlc *m, const uint8_t *cells,
                         unsigned c)
{
    return line_cost(cells, c, m->rows, m->n, m->col, m->row, c);
}

static unsigned dist(unsigned a, unsigned b)
{
    return a > b ? a - b : b - a;
}

unsigned puz__mlc_eval(const struct puz__mlc *m, const uint8_t *cells)
{
    unsigned n = m->n, h = 0;

    for (unsigned i = 0; i < m->rows * n; i++) {
        unsigned t = cells[i];
        if (m->row[t] != PUZ__NOT_CARED)
            h += dist(m->row[t], i / n) + dist(m->col[t], i % n);
    }
    for (unsigned r = 0; r < m->rows; r++)
        h += 2 * row_cost(m, cells, r);
    for (unsigned c = 0; c < n; c++)
        h += 2 * col_cost(m, cells, c);
    return h;
}

/* Only the two lines across the move change their conflicts. */
static unsigned lines_cost(const struct puz__mlc *m, const uint8_t *cells,
                           unsigned from, unsigned to)
{
    unsigned n = m->n;

    if (from / n == to / n)     /* horizontal: the columns change */
        return col_cost(m, cells, from % n) + col_cost(m, cells, to % n);
    return row_cost(m, cells, from / n) + row_cost(m, cells, to / n);
}

unsigned puz__mlc_update(const struct puz__mlc *m, uint8_t *cells,
                         unsigned h_before, unsigned from, unsigned to)
{
    unsigned n = m->n, t = cells[to], after, before;
    int md;

    if (m->row[t] == PUZ__NOT_CARED)
        return h_before;
    md = (int)(dist(m->row[t], to / n) + dist(m->col[t], to % n)) -
         (int)(dist(m->row[t], from / n) + dist(m->col[t], from % n));
    after = lines_cost(m, cells, from, to);
    cells[from] = (uint8_t)t;
    cells[to] = 0;
    before = lines_cost(m, cells, from, to);
    cells[to] = (uint8_t)t;
    cells[from] = 0;
    return (unsigned)((int)h_before + md + 2 * ((int)after - (int)before));
}
