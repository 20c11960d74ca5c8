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

#endif
