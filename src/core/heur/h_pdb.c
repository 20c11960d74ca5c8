/*
 * h_pdb.c - the `pdb` heuristic for the generic searches: on 3x3 the
 * exact distance from the table, on 4x4 the additive pattern database
 * value on 4x4 and 5x5 (the strongest set loaded for the goal's class).
 * Boards are seen through the goal's symmetry frame, so one table serves
 * every goal of a class. idastar_pdb.c has a faster IDA* expansion that
 * uses the same context but keeps the group indices per node.
 */
#include <string.h>

#include "heur/heuristic_impl.h"
#include "heur/pdb_impl.h"

static puz_err prepare(const struct puz__hargs *args, void **ctx, char *msg)
{
    struct puz__pdbctx *c = puz_arena_alloc(args->arena, sizeof(*c));
    puz_err rc;

    *ctx = NULL;
    if (c == NULL)
        return PUZ_ENOMEM;
    rc = puz__pdbctx_init(c, args->tables, args->goal, msg);
    if (rc == PUZ_OK)
        *ctx = c;
    return rc;
}

static unsigned eval3(const struct puz__pdbctx *c, const uint8_t *cells)
{
    struct puz_board b = c->fr.goal;

    puz__frame_map(&c->fr, cells, b.cells);
    for (unsigned i = 0; i < 9; i++)
        if (b.cells[i] == 0)
            b.blank = (uint8_t)i;
    return puz_table3_distance(c->t3, &b);
}

static unsigned eval(const void *ctx, const uint8_t *cells)
{
    const struct puz__pdbctx *c = ctx;
    uint8_t canon[PUZ__PDB_CELLS];

    if (c->t3 != NULL)
        return eval3(c, cells);
    puz__frame_map(&c->fr, cells, canon);
    return puz__pdb_value(c->db, canon);
}

/*
 * Only the moved tile's group changes: look its entry up before and after
 * the move and adjust the Manhattan part by the one tile. With reflection
 * the other half of the maximum is unknown here, so evaluate afresh.
 */
static unsigned update(const void *ctx, const uint8_t *cells,
                       unsigned h_before, unsigned tile, unsigned from,
                       unsigned to)
{
    const struct puz__pdbctx *c = ctx;
    const struct puz_pdb *d = c->db;
    uint8_t pos[PUZ__PDB_MAX_K];
    unsigned ct, gi, after, before;
    const uint8_t *cm;

    if (d == NULL || d->reflect)
        return eval(ctx, cells);
    ct = c->fr.tile[tile];
    gi = d->group_of[ct];
    cm = d->g[gi].cmap;
    for (unsigned i = 0; i < d->cells; i++) {
        unsigned t = c->fr.tile[cells[i]];
        if (t != 0 && d->group_of[t] == gi)
            pos[d->slot_of[t]] = cm[c->fr.cell[i]];
    }
    after = puz__pdb_lookup(d, gi, pos);
    pos[d->slot_of[ct]] = cm[c->fr.cell[from]];
    before = puz__pdb_lookup(d, gi, pos);
    return h_before + c->md[ct][c->fr.cell[to]] - c->md[ct][c->fr.cell[from]]
           + 2 * after - 2 * before;
}

const struct puz_heuristic puz__h_pdb = {
    .name = "pdb",
    .description = "pattern databases: exact table on 3x3, additive "
                   "6-6-3 or 7-8 (with reflection) on 4x4, 6-6-6-6, "
                   "zero-aware 6-6-6-6z or the larger of two zero-aware "
                   "partitions' sums, 6-6-6-6z2 (with reflection) on 5x5",
    .admissible = true,
    .tables = true,
    .min_size = 3,
    .max_size = 5,
    .prepare = prepare,
    .eval = eval,
    .update = update,
};
