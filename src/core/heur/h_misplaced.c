/*
 * h_misplaced.c - the textbook heuristic: how many tiles (not counting the
 * blank) are off their goal cell. Weak but admissible; kept because the
 * tutorials that taught A* on the 8-puzzle use it.
 */
#include <string.h>

#include "heur/heuristic_impl.h"

static puz_err prepare(const struct puz__hargs *args, void **ctx, char *msg)
{
    (void)msg;
    *ctx = puz__goalpos_new(args->arena, args->goal);
    return *ctx != NULL ? PUZ_OK : PUZ_ENOMEM;
}

static unsigned eval(const void *ctx, const uint8_t *cells)
{
    const struct puz__goalpos *g = ctx;
    unsigned h = 0, count = g->cells;

    for (unsigned i = 0; i < count; i++)
        if (cells[i] != 0 && g->pos[cells[i]] != i)
            h++;
    return h;
}

static unsigned update(const void *ctx, const uint8_t *cells,
                       unsigned h_before, unsigned tile, unsigned from,
                       unsigned to)
{
    const struct puz__goalpos *g = ctx;

    (void)cells;
    return h_before - (g->pos[tile] != from) + (g->pos[tile] != to);
}

static unsigned update_packed(const void *ctx, uint64_t board,
                              unsigned h_before, unsigned tile,
                              unsigned from, unsigned to)
{
    const struct puz__goalpos *g = ctx;

    (void)board;
    return h_before - (g->pos[tile] != from) + (g->pos[tile] != to);
}

static bool as_tables(const void *ctx, struct puz__htables *t)
{
    const struct puz__goalpos *g = ctx;
    unsigned count = g->cells;

    /* the tabled searches are written for squares */
    if (count > PUZ__HT_CELLS || g->rows != g->n)
        return false;
    memset(t, 0, sizeof(*t));
    for (unsigned tile = 1; tile < count; tile++)
        for (unsigned i = 0; i < count; i++)
            t->tile_cost[tile][i] = g->pos[tile] != i;
    return true;
}

const struct puz_heuristic puz__h_misplaced = {
    .name = "misplaced",
    .description = "tiles not on their goal cell (the classic textbook one)",
    PUZ__HEURISTIC_CELLWISE,
};
