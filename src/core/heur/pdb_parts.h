/*
 * pdb_parts.h - a pattern database value kept in parts so that a search
 * storing its nodes updates it per move with two lookups (pdb_parts.c;
 * private to the core).
 */
#ifndef PUZ_PDB_PARTS_H
#define PUZ_PDB_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "heur/pdb_impl.h"

/* At most 16 parts of 4 bits: a uint64_t per node. */
#define PUZ__PDBPARTS_MAX 16u

/*
 * Built for one search over full boards of the solve's original frame,
 * whose state is st[slot] = cell, slot 0 the blank and slot_of[tile] the
 * slot of each tile.
 */
struct puz__pdbparts {
    const struct puz_pdb *d;
    unsigned nv;                                  /* parts */
    uint8_t group[PUZ__PDBPARTS_MAX];             /* part -> group */
    uint8_t k[PUZ__PDBPARTS_MAX];
    uint8_t slot[PUZ__PDBPARTS_MAX][PUZ__PDB_MAX_K];   /* state slots */
    uint8_t cmap[PUZ__PDBPARTS_MAX][PUZ__PDB_CELLS];   /* cell -> table's */
    uint8_t vof[2][PUZ__PDB_CELLS];       /* slot -> part, (transposed) */
    uint8_t md[PUZ__PDB_CELLS][PUZ__PDB_CELLS];        /* [slot][cell] */
};

/* Whether c's tables can be kept in parts (a 4x4 or 5x5 set: up to 6
 * groups, twice with reflection); fills p when so. */
bool puz__pdbparts_init(struct puz__pdbparts *p, const struct puz__pdbctx *c,
                        const uint8_t *slot_of);
/* Parts of state st from scratch; *md its Manhattan sum. */
uint64_t puz__pdbparts_eval(const struct puz__pdbparts *p, const uint8_t *st,
                            unsigned *md);
/* The two steps of an update, so that a search can fetch the entries
 * of every child before it reads them: where[] the entries the tile of
 * `slot` needs in state st (the lookup's ranks, prefetched), then the
 * parts with those entries. */
void puz__pdbparts_locate(const struct puz__pdbparts *p, unsigned slot,
                          const uint8_t *st, uint64_t where[2]);
uint64_t puz__pdbparts_apply(const struct puz__pdbparts *p, uint64_t parts,
                             unsigned slot, const uint64_t where[2]);
/* Parts after the tile of `slot` moved (st is the state after). */
uint64_t puz__pdbparts_update(const struct puz__pdbparts *p, uint64_t parts,
                              unsigned slot, const uint8_t *st);
/* The heuristic value: md + 2 x the larger sum (as puz__pdb_value). */
unsigned puz__pdbparts_h(const struct puz__pdbparts *p, uint64_t parts,
                         unsigned md);

#endif
