/*
 * tables.c - the puz_tables bundle: the 3x3 exact tables and the pattern
 * database sets a service loads once and every solve reads, and which of
 * them serves a given goal.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "heur/pdb_impl.h"

struct puz_tables {
    puz_table3 *t3[PUZ__ORBITS];
    /* Atomic: a set built in the background is added while searches
     * read the bundle (puz_tables_add_pdb publishes it complete). */
    puz_pdb *_Atomic pdb[PUZ_PDB_PARTITION_COUNT_][PUZ__ORBITS];
};

puz_err puz_tables_create(puz_tables **out)
{
    *out = calloc(1, sizeof(**out));
    return *out != NULL ? PUZ_OK : PUZ_ENOMEM;
}

void puz_tables_destroy(puz_tables *t)
{
    if (t == NULL)
        return;
    for (unsigned o = 0; o < PUZ__ORBITS; o++) {
        puz_table3_destroy(t->t3[o]);
        for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++)
            puz_pdb_destroy(t->pdb[p][o]);
    }
    free(t);
}

puz_err puz_tables_add_3x3(puz_tables *t)
{
    struct puz_board goal;
    puz_err rc;

    for (unsigned o = 0; o < PUZ__ORBITS; o++) {
        if (t->t3[o] != NULL)
            continue;
        puz__canonical_goal(3, o, &goal);
        rc = puz_table3_create(&goal, &t->t3[o]);
        if (rc != PUZ_OK)
            return rc;
    }
    return PUZ_OK;
}

puz_err puz_tables_add_pdb(puz_tables *t, puz_pdb *d)
{
    puz_pdb *_Atomic *slot = &t->pdb[d->part][d->orbit];
    puz_pdb *none = NULL;

    /* a second partition's set covers only some tiles: it is read
     * through its pair (puz__pdb_pair), never on its own */
    for (unsigned c = 0; c < d->cells; c++)
        if (d->goal.cells[c] != 0 &&
            d->group_of[d->goal.cells[c]] == PUZ__PDB_NONE) {
            puz_pdb_destroy(d);
            return PUZ_EINVAL;
        }
    /* Shared by every search with d from now on; if it cannot be made,
     * each search builds its own as before. Made before d is seen. */
    (void)puz__pdb_attach_fsm(d);
    if (!atomic_compare_exchange_strong(slot, &none, d)) {
        puz_pdb_destroy(d);
        return PUZ_EINVAL;
    }
    return PUZ_OK;
}

/* Of the sets loaded for the goal's size and class, the one with the
 * largest tables: bigger groups give larger estimates. */
const puz_pdb *puz_tables_pdb(const puz_tables *t,
                              const struct puz_board *goal)
{
    const puz_pdb *best = NULL;
    unsigned o;

    if (t == NULL)
        return NULL;
    /* a rectangle's tables serve it and its transpose, corner goals */
    if (!puz_board_square(goal)) {
        for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++) {
            const puz_pdb *d = atomic_load_explicit(
                &t->pdb[p][PUZ__ORBIT_CORNER], memory_order_acquire);
            if (d != NULL && d->rect && puz_pdb_serves(d, goal))
                return d;
        }
        return NULL;
    }
    if (goal->n < 4 || goal->n > 5)
        return NULL;
    o = puz__orbit_of(goal);
    if (o >= PUZ__ORBITS)
        return NULL;
    for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++) {
        const puz_pdb *d = atomic_load_explicit(&t->pdb[p][o],
                                                memory_order_acquire);
        if (d != NULL && !d->rect && d->n == goal->n &&
            (best == NULL || puz_pdb_bytes(d) > puz_pdb_bytes(best)))
            best = d;
    }
    return best;
}

const char *puz_tables_name(const puz_tables *t,
                            const struct puz_board *goal)
{
    const puz_pdb *d = puz_tables_pdb(t, goal);

    return d != NULL ? puz_pdb_partition_name(puz_pdb_partition(d))
                     : "exact";
}

const puz_table3 *puz__tables_table3_class(const puz_tables *t,
                                           const struct puz_board *goal)
{
    unsigned o;

    if (t == NULL || goal->n != 3 || !puz_board_square(goal))
        return NULL;
    o = puz__orbit_of(goal);
    return o < PUZ__ORBITS ? t->t3[o] : NULL;
}

bool puz_tables_serves(const puz_tables *t, const struct puz_board *goal)
{
    return puz__tables_table3_class(t, goal) != NULL ||
           puz_tables_pdb(t, goal) != NULL;
}

puz_err puz_tables_distance3(const puz_tables *t, const struct puz_board *b,
                             const struct puz_board *goal, unsigned *out)
{
    const puz_table3 *t3 = puz__tables_table3_class(t, goal);
    struct puz__frame f;
    struct puz_board c;

    *out = PUZ_TABLE3_UNREACHABLE;
    if (t3 == NULL || b->n != 3 || !puz_board_square(b) ||
        puz__frame_init(&f, goal) != PUZ_OK)
        return PUZ_EINVAL;
    c = f.goal;
    puz__frame_map(&f, b->cells, c.cells);
    c.blank = f.cell[b->blank];
    *out = puz_table3_distance(t3, &c);
    return PUZ_OK;
}

const puz_table3 *puz_tables_table3(const puz_tables *t,
                                    const struct puz_board *goal)
{
    for (unsigned o = 0; o < PUZ__ORBITS; o++)
        if (t->t3[o] != NULL &&
            puz_board_equal(puz_table3_goal(t->t3[o]), goal))
            return t->t3[o];
    return NULL;
}

size_t puz_tables_bytes(const puz_tables *t)
{
    size_t bytes = 0;

    for (unsigned o = 0; o < PUZ__ORBITS; o++) {
        if (t->t3[o] != NULL)
            bytes += PUZ_TABLE3_STATES;
        for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++)
            if (t->pdb[p][o] != NULL)
                bytes += puz_pdb_bytes(t->pdb[p][o]) + t->pdb[p][o]->fsm_bytes;
    }
    return bytes;
}
