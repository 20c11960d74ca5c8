/*
 * nodestore.h - the states a graph search has seen (private to the core):
 * fixed-size records in arena blocks that never move, and an open-address
 * hash index over them for duplicate detection. Used by A*, greedy,
 * branch and bound, BFS and DFS.
 */
#ifndef PUZ_NODESTORE_H
#define PUZ_NODESTORE_H

#include <stdint.h>

#include "puz_arena.h"
#include "puz_err.h"

#define PUZ__NO_PARENT UINT32_MAX

struct puz__node {
    uint32_t parent;   /* index of the node we came from */
    uint32_t hash;
    uint16_t g;        /* moves from the start */
    uint16_t h;        /* heuristic value */
    uint8_t move;      /* blank direction that led here */
    uint8_t blank;
    uint8_t closed;
    uint8_t cells[];   /* n*n bytes */
};

struct puz__nodestore {
    puz_arena *arena;
    unsigned cells;         /* bytes of state per node */
    size_t stride;          /* bytes per record */
    unsigned char **blocks;
    uint32_t block_cap;     /* entries in blocks[] */
    uint32_t count;         /* nodes stored */
    uint32_t *slots;        /* hash index: node index + 1, 0 = empty */
    uint32_t slot_mask;
};

puz_err puz__ns_init(struct puz__nodestore *ns, puz_arena *a, unsigned cells);
static inline struct puz__node *puz__ns_at(const struct puz__nodestore *ns,
                                           uint32_t i)
{
    return (struct puz__node *)(ns->blocks[i >> 12] +
                                (size_t)(i & 4095u) * ns->stride);
}
uint32_t puz__ns_hash(const uint8_t *cells, unsigned count);
/* Index of the node with these cells, or PUZ__NO_PARENT. */
uint32_t puz__ns_find(const struct puz__nodestore *ns, const uint8_t *cells,
                      uint32_t hash);
/* Append a node with cells (not yet present) and index it; *out is its
 * index. PUZ_ENOMEM when the arena budget is spent. */
puz_err puz__ns_add(struct puz__nodestore *ns, const uint8_t *cells,
                    uint32_t hash, uint32_t *out);
/* Blank directions from the start to node i (len = its g), into dirs. */
void puz__ns_path(const struct puz__nodestore *ns, uint32_t i, uint8_t *dirs);

/*
 * The packed store, for boards of at most 16 cells: the state is one
 * 64-bit word (4 bits a cell, cell i in bits 4i..4i+3), so a record is
 * 16 bytes, comparing two states is one instruction and the hash one
 * multiplication. Records sit in one array (doubled by copying as it
 * fills, so hold indices, not pointers, across an add); the index is a
 * table of record numbers + 1, kept at most an eighth full while small
 * and half full once large (slots_for in nodestore.c says why).
 */
struct puz__pnode {
    uint64_t key;
    uint32_t parent;    /* record index, PUZ__NO_PARENT for the start */
    uint16_t g;
    uint8_t h;          /* heuristic value (at most 255 on 4x4) */
    uint8_t meta;       /* blank cell << 3 | closed << 2 | move */
};

#define PUZ__PN_BLANK(m) ((unsigned)(m) >> 3)
#define PUZ__PN_CLOSED 4u
#define PUZ__PN_MOVE(m) ((unsigned)(m) & 3u)

struct puz__pstore {
    puz_arena *arena;
    struct puz__pnode *nodes;
    uint32_t count, cap;
    uint32_t *slots;
    uint32_t slot_mask;
    unsigned shift;         /* 64 - log2(slots) */
};

puz_err puz__ps_init(struct puz__pstore *ps, puz_arena *a);

static inline uint32_t puz__ps_slot(const struct puz__pstore *ps,
                                    uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> ps->shift);
}

/* Index of the record with this key, or PUZ__NO_PARENT; *slot gets the
 * slot where it was found or would go. */
static inline uint32_t puz__ps_find(const struct puz__pstore *ps,
                                    uint64_t key, uint32_t *slot)
{
    uint32_t s = puz__ps_slot(ps, key);

    for (;; s = (s + 1) & ps->slot_mask) {
        uint32_t v = ps->slots[s];
        if (v == 0 || ps->nodes[v - 1].key == key) {
            *slot = s;
            return v - 1;       /* 0 - 1 = PUZ__NO_PARENT */
        }
    }
}

puz_err puz__ps_add_slow(struct puz__pstore *ps, uint64_t key,
                         uint32_t *out);

/* Append a record for key (not present; slot from puz__ps_find) and
 * return its index in *out; PUZ_ENOMEM when the arena budget is spent.
 * The record's other fields are left for the caller to set. */
static inline puz_err puz__ps_add(struct puz__pstore *ps, uint64_t key,
                                  uint32_t slot, uint32_t *out)
{
    if (ps->count == ps->cap)
        return puz__ps_add_slow(ps, key, out);
    ps->slots[slot] = ps->count + 1;
    ps->nodes[ps->count].key = key;
    *out = ps->count++;
    return PUZ_OK;
}

#endif
