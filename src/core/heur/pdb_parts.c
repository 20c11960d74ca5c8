/*
 * pdb_parts.c - the pattern database value kept in parts, for searches
 * that store each node (wsearch.c's weighted A* on 5x5): one entry per
 * group, and with reflection one per group of the transposed board, 4
 * bits each in a 64-bit word, plus the Manhattan sum. A move changes one tile,
 * so a child costs two table lookups (its group, its transposed group)
 * instead of the eight of a full evaluation; on the 128 MB 6-6-6-6
 * tables each lookup is a cache miss, and they were most of a node's
 * time.
 */
#include <string.h>

#include "heur/pdb_parts.h"

/* The canonical tile whose transposed label is u (rtile is its own
 * inverse for a transpose, but find it rather than rely on that). */
static unsigned untranspose(const struct puz_pdb *d, unsigned u)
{
    for (unsigned x = 0; x < d->cells; x++)
        if (d->rtile[x] == u)
            return x;
    return 0;
}

bool puz__pdbparts_init(struct puz__pdbparts *p, const struct puz__pdbctx *c,
                        const uint8_t *slot_of)
{
    const struct puz_pdb *d = c->db;
    const struct puz__frame *fr = &c->fr;
    uint8_t orig[PUZ__PDB_CELLS];       /* canonical tile -> original */

    memset(p, 0, sizeof(*p));
    if (d == NULL || d->ngroups * (d->reflect ? 2u : 1u) > PUZ__PDBPARTS_MAX)
        return false;
    p->d = d;
    for (unsigned t = 0; t < d->cells; t++)
        orig[fr->tile[t]] = (uint8_t)t;
    p->nv = d->ngroups * (d->reflect ? 2u : 1u);
    for (unsigned v = 0; v < p->nv; v++) {
        unsigned gi = v % d->ngroups;
        bool refl = v >= d->ngroups;
        p->group[v] = (uint8_t)gi;
        p->k[v] = (uint8_t)d->g[gi].k;
        for (unsigned j = 0; j < d->g[gi].k; j++) {
            unsigned ct = d->g[gi].tile[j];
            if (refl)
                ct = untranspose(d, ct);
            p->slot[v][j] = slot_of[orig[ct]];
            p->vof[refl][slot_of[orig[ct]]] = (uint8_t)v;
        }
        for (unsigned cell = 0; cell < d->cells; cell++) {
            unsigned cc = fr->cell[cell];
            p->cmap[v][cell] = d->g[gi].cmap[refl ? d->transpose[cc] : cc];
        }
    }
    for (unsigned t = 1; t < d->cells; t++)
        for (unsigned cell = 0; cell < d->cells; cell++)
            p->md[slot_of[t]][cell] = c->md[fr->tile[t]][fr->cell[cell]];
    return true;
}

static unsigned lookup(const struct puz__pdbparts *p, unsigned v,
                       const uint8_t *st)
{
    uint8_t pos[PUZ__PDB_MAX_K];

    for (unsigned j = 0; j < p->k[v]; j++)
        pos[j] = p->cmap[v][st[p->slot[v][j]]];
    return puz__pdb_lookup(p->d, p->group[v], pos);
}

uint64_t puz__pdbparts_eval(const struct puz__pdbparts *p, const uint8_t *st,
                            unsigned *md)
{
    uint64_t parts = 0;

    *md = 0;
    for (unsigned s = 1; s < p->d->cells; s++)
        *md += p->md[s][st[s]];
    for (unsigned v = 0; v < p->nv; v++)
        parts |= (uint64_t)lookup(p, v, st) << (4 * v);
    return parts;
}

void puz__pdbparts_locate(const struct puz__pdbparts *p, unsigned slot,
                          const uint8_t *st, uint64_t where[2])
{
    for (unsigned r = 0; r < (p->d->reflect ? 2u : 1u); r++) {
        unsigned v = p->vof[r][slot];
        uint8_t pos[PUZ__PDB_MAX_K];
        for (unsigned j = 0; j < p->k[v]; j++)
            pos[j] = p->cmap[v][st[p->slot[v][j]]];
        where[r] = puz__pdb_rank(pos, p->k[v], p->d->cells);
        __builtin_prefetch(&p->d->g[p->group[v]].nib[where[r] >> 4]);
    }
}

uint64_t puz__pdbparts_apply(const struct puz__pdbparts *p, uint64_t parts,
                             unsigned slot, const uint64_t where[2])
{
    for (unsigned r = 0; r < (p->d->reflect ? 2u : 1u); r++) {
        unsigned v = p->vof[r][slot];
        uint64_t e = puz__pdb_entry(p->d->g[p->group[v]].nib, where[r]);
        parts = (parts & ~((uint64_t)15 << (4 * v))) | e << (4 * v);
    }
    return parts;
}

uint64_t puz__pdbparts_update(const struct puz__pdbparts *p, uint64_t parts,
                              unsigned slot, const uint8_t *st)
{
    uint64_t where[2];

    puz__pdbparts_locate(p, slot, st, where);
    return puz__pdbparts_apply(p, parts, slot, where);
}

unsigned puz__pdbparts_h(const struct puz__pdbparts *p, uint64_t parts,
                         unsigned md)
{
    unsigned a = 0, b = 0, g = p->d->ngroups;

    for (unsigned v = 0; v < g; v++)
        a += (parts >> (4 * v)) & 15u;
    for (unsigned v = g; v < p->nv; v++)
        b += (parts >> (4 * v)) & 15u;
    return md + 2 * (a > b ? a : b);
}
