/*
 * nodestore.c - node records in 4096-node arena blocks (so a pointer to a
 * node stays valid while the store grows) and a linear-probing hash index
 * kept under half full; and the packed store for boards of up to 16
 * cells (one array of 16-byte records, an index kept sparser while small).
 */
#include <string.h>

#include "search/nodestore.h"

#define BLOCK_NODES 4096u

puz_err puz__ns_init(struct puz__nodestore *ns, puz_arena *a, unsigned cells)
{
    memset(ns, 0, sizeof(*ns));
    ns->arena = a;
    ns->cells = cells;
    ns->stride = (sizeof(struct puz__node) + cells + 7) & ~(size_t)7;
    ns->block_cap = 16;
    ns->blocks = puz_arena_calloc(a, ns->block_cap, sizeof(*ns->blocks));
    ns->slot_mask = 1023;
    ns->slots = puz_arena_calloc(a, ns->slot_mask + 1, sizeof(*ns->slots));
    return ns->blocks != NULL && ns->slots != NULL ? PUZ_OK : PUZ_ENOMEM;
}

uint32_t puz__ns_hash(const uint8_t *cells, unsigned count)
{
    uint64_t h = 0x9e3779b97f4a7c15ull, tail = 0;
    unsigned i = 0;

    for (; i + 8 <= count; i += 8) {
        uint64_t w;
        memcpy(&w, cells + i, 8);       /* fixed size: compiles to a load */
        h ^= w;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    for (; i < count; i++)
        tail = tail << 8 | cells[i];
    h ^= tail;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 32;
    return (uint32_t)h;
}

/* Boards are short: an inline loop beats a call to memcmp. */
static inline int same_cells(const uint8_t *a, const uint8_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

uint32_t puz__ns_find(const struct puz__nodestore *ns, const uint8_t *cells,
                      uint32_t hash)
{
    for (uint32_t s = hash & ns->slot_mask;; s = (s + 1) & ns->slot_mask) {
        uint32_t v = ns->slots[s];
        const struct puz__node *node;
        if (v == 0)
            return PUZ__NO_PARENT;
        node = puz__ns_at(ns, v - 1);
        if (node->hash == hash && same_cells(node->cells, cells, ns->cells))
            return v - 1;
    }
}

static void index_node(uint32_t *slots, uint32_t mask, uint32_t hash,
                       uint32_t i)
{
    uint32_t s = hash & mask;

    while (slots[s] != 0)
        s = (s + 1) & mask;
    slots[s] = i + 1;
}

/* Double the index; the old one stays in the arena until the request
 * ends (arenas do not free), which costs at most as much again. */
static puz_err grow_index(struct puz__nodestore *ns)
{
    uint32_t mask = ns->slot_mask * 2 + 1;
    uint32_t *slots;

    if (mask < ns->slot_mask)
        return PUZ_ENOMEM;
    slots = puz_arena_calloc(ns->arena, (size_t)mask + 1, sizeof(*slots));
    if (slots == NULL)
        return PUZ_ENOMEM;
    for (uint32_t i = 0; i < ns->count; i++)
        index_node(slots, mask, puz__ns_at(ns, i)->hash, i);
    ns->slots = slots;
    ns->slot_mask = mask;
    return PUZ_OK;
}

static puz_err add_block(struct puz__nodestore *ns)
{
    uint32_t b = ns->count / BLOCK_NODES;

    if (b == ns->block_cap) {
        unsigned char **blocks = puz_arena_calloc(ns->arena,
                                                  (size_t)ns->block_cap * 2,
                                                  sizeof(*blocks));
        if (blocks == NULL)
            return PUZ_ENOMEM;
        memcpy(blocks, ns->blocks, ns->block_cap * sizeof(*blocks));
        ns->blocks = blocks;
        ns->block_cap *= 2;
    }
    ns->blocks[b] = puz_arena_alloc(ns->arena, BLOCK_NODES * ns->stride);
    return ns->blocks[b] != NULL ? PUZ_OK : PUZ_ENOMEM;
}

puz_err puz__ns_add(struct puz__nodestore *ns, const uint8_t *cells,
                    uint32_t hash, uint32_t *out)
{
    struct puz__node *node;

    *out = PUZ__NO_PARENT;
    if (ns->count >= UINT32_MAX - BLOCK_NODES)
        return PUZ_ENOMEM;
    if ((uint64_t)(ns->count + 1) * 2 > (uint64_t)ns->slot_mask + 1 &&
        grow_index(ns) != PUZ_OK)
        return PUZ_ENOMEM;
    if (ns->count % BLOCK_NODES == 0 && add_block(ns) != PUZ_OK)
        return PUZ_ENOMEM;
    node = puz__ns_at(ns, ns->count);
    memset(node, 0, sizeof(*node));
    node->hash = hash;
    node->parent = PUZ__NO_PARENT;
    memcpy(node->cells, cells, ns->cells);
    index_node(ns->slots, ns->slot_mask, hash, ns->count);
    *out = ns->count++;
    return PUZ_OK;
}

void puz__ns_path(const struct puz__nodestore *ns, uint32_t i, uint8_t *dirs)
{
    const struct puz__node *node = puz__ns_at(ns, i);

    for (unsigned k = node->g; k-- > 0;) {
        dirs[k] = node->move;
        node = puz__ns_at(ns, node->parent);
    }
}

/*
 * How many index slots for `cap` records. Nearly every child a search
 * looks up is new, and a lookup that misses stops at the first empty
 * slot: kept at most an eighth full, the first slot is empty almost
 * always, so the probe loop is one well-predicted step. Past
 * PS_SPARSE_SLOTS slots (512 KB, 16384 records) the index fills up to
 * half, as a large search's memory is the records' and should not be the
 * index's.
 */
#define PS_FIRST_NODES 1024u
#define PS_SPARSE_SLOTS 131072u

static uint32_t slots_for(uint32_t cap)
{
    if ((uint64_t)cap * 8 <= PS_SPARSE_SLOTS)
        return cap * 8;
    return cap * 2 > PS_SPARSE_SLOTS ? cap * 2 : PS_SPARSE_SLOTS;
}

static unsigned log2_of(uint32_t pow2)
{
    unsigned k = 0;

    while ((1u << k) < pow2)
        k++;
    return k;
}

puz_err puz__ps_init(struct puz__pstore *ps, puz_arena *a)
{
    uint32_t slots = slots_for(PS_FIRST_NODES);

    memset(ps, 0, sizeof(*ps));
    ps->arena = a;
    ps->cap = PS_FIRST_NODES;
    ps->nodes = puz_arena_alloc(a, ps->cap * sizeof(*ps->nodes));
    ps->slot_mask = slots - 1;
    ps->shift = 64 - log2_of(slots);
    ps->slots = puz_arena_calloc(a, slots, sizeof(*ps->slots));
    return ps->nodes != NULL && ps->slots != NULL ? PUZ_OK : PUZ_ENOMEM;
}

/* Double the records, and the index when slots_for says so; the
 * outgrown copies stay in the arena until the request ends (at most as
 * much again). */
static puz_err ps_grow(struct puz__pstore *ps)
{
    uint32_t cap = ps->cap * 2, count = slots_for(cap), mask = count - 1;
    struct puz__pnode *nodes;
    uint32_t *slots;

    if (cap < ps->cap || count < ps->slot_mask)
        return PUZ_ENOMEM;
    nodes = puz_arena_alloc(ps->arena, (size_t)cap * sizeof(*nodes));
    if (nodes == NULL)
        return PUZ_ENOMEM;
    memcpy(nodes, ps->nodes, (size_t)ps->count * sizeof(*nodes));
    ps->nodes = nodes;
    ps->cap = cap;
    if (mask == ps->slot_mask)
        return PUZ_OK;          /* the index has room still */
    slots = puz_arena_calloc(ps->arena, count, sizeof(*slots));
    if (slots == NULL)
        return PUZ_ENOMEM;
    ps->slots = slots;
    ps->slot_mask = mask;
    ps->shift = 64 - log2_of(count);
    for (uint32_t i = 0; i < ps->count; i++) {
        uint32_t s = puz__ps_slot(ps, nodes[i].key);
        while (slots[s] != 0)
            s = (s + 1) & mask;
        slots[s] = i + 1;
    }
    return PUZ_OK;
}

/* puz__ps_add when the records are full: grow, then add. */
puz_err puz__ps_add_slow(struct puz__pstore *ps, uint64_t key,
                         uint32_t *out)
{
    uint32_t slot;

    *out = PUZ__NO_PARENT;
    if (ps->count >= UINT32_MAX / 2 || ps_grow(ps) != PUZ_OK)
        return PUZ_ENOMEM;
    puz__ps_find(ps, key, &slot);       /* the index moved */
    return puz__ps_add(ps, key, slot, out);
}
