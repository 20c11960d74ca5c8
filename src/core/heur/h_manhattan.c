/*
 * h_manhattan.c - sum over tiles of rows plus columns to the goal cell.
 * A table of distances per (tile, cell) makes the per-move update one
 * subtraction and one addition.
 */
#include <stdlib.h>
#include <string.h>

#include "heur/h_manhattan.h"

void puz__manhattan_init(struct puz__manhattan *m,
                         const struct puz_board *goal)
{
    unsigned n = goal->n, rows = puz_board_rows(goal), count = rows * n;

    puz__goalpos_init(&m->goal, goal);
    /* rows and columns counted, not divided: every solve builds this */
    for (unsigned t = 1; t < count; t++)
        for (unsigned r = 0, i = 0; r < rows; r++)
            for (unsigned c = 0; c < n; c++, i++)
                m->dist[t][i] = (uint8_t)(abs((int)r - m->goal.row[t]) +
                                          abs((int)c - m->goal.col[t]));
    memset(m->dist[0], 0, count);
}

unsigned puz__manhattan_eval(const struct puz__manhattan *m,
                             const uint8_t *cells)
{
    unsigned h = 0, count = m->goal.cells;

    for (unsigned i = 0; i < count; i++)
        h += m->dist[cells[i]][i];
    return h;
}

bool puz__manhattan_tables(const struct puz__manhattan *m,
                           struct puz__htables *t)
{
    unsigned count = m->goal.cells;

    /* the tabled searches are written for squares */
    if (count > PUZ__HT_CELLS || m->goal.rows != m->goal.n)
        return false;
    memset(t, 0, sizeof(*t));
    for (unsigned tile = 1; tile < count; tile++)
        memcpy(t->tile_cost[tile], m->dist[tile], count);
    return true;
}

static puz_err prepare(const struct puz__hargs *args, void **ctx, char *msg)
{
    struct puz__manhattan *m = puz_arena_alloc(args->arena, sizeof(*m));

    (void)msg;
    if (m == NULL)
        return PUZ_ENOMEM;
    puz__manhattan_init(m, args->goal);
    *ctx = m;
    return PUZ_OK;
}

static unsigned eval(const void *ctx, const uint8_t *cells)
{
    return puz__manhattan_eval(ctx, cells);
}

static unsigned update(const void *ctx, const uint8_t *cells,
                       unsigned h_before, unsigned tile, unsigned from,
                       unsigned to)
{
    const struct puz__manhattan *m = ctx;

    (void)cells;
    return h_before - m->dist[tile][from] + m->dist[tile][to];
}

static unsigned update_packed(const void *ctx, uint64_t board,
                              unsigned h_before, unsigned tile,
                              unsigned from, unsigned to)
{
    const struct puz__manhattan *m = ctx;

    (void)board;
    return h_before - m->dist[tile][from] + m->dist[tile][to];
}

static bool as_tables(const void *ctx, struct puz__htables *t)
{
    return puz__manhattan_tables(ctx, t);
}

const struct puz_heuristic puz__h_manhattan = {
    .name = "manhattan",
    .description = "sum of each tile's row and column distance to its goal",
    PUZ__HEURISTIC_CELLWISE,
};
