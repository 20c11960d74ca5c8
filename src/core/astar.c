/*
 * astar.c - best-first graph search: A* (f = g + h, ties to larger g) over
 * a bucket queue, and over a binary min-heap greedy best-first (h only),
 * weighted A* (g + w*h: paths at most w times optimal, far fewer nodes)
 * and the textbook least-cost branch and bound (g + h, first come first
 * served).
 *
 * The goal is tested when a node is POPPED, not when it is generated:
 * testing at generation (as some tutorials do) can return a longer path
 * because a cheaper route to the goal may still be waiting in the heap.
 * A cheaper path to a known node updates it and pushes it again (the old
 * heap entry is skipped when popped), so even an inconsistent admissible
 * heuristic yields optimal paths.
 */
#include <string.h>

#include "bucketq.h"
#include "nodestore.h"
#include "search.h"

struct heap_entry {
    uint64_t key;
    uint32_t node;
};

struct heap {
    puz_arena *arena;
    struct heap_entry *items;
    uint32_t count, cap;
};

static puz_err heap_push(struct heap *hp, uint64_t key, uint32_t node)
{
    uint32_t i;

    if (hp->count == hp->cap) {
        uint32_t cap = hp->cap ? hp->cap * 2 : 1024;
        struct heap_entry *items = puz_arena_alloc(hp->arena,
                                                   cap * sizeof(*items));
        if (items == NULL || cap < hp->cap)
            return PUZ_ENOMEM;
        if (hp->count)
            memcpy(items, hp->items, hp->count * sizeof(*items));
        hp->items = items;
        hp->cap = cap;
    }
    i = hp->count++;
    while (i > 0 && hp->items[(i - 1) / 2].key > key) {
        hp->items[i] = hp->items[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    hp->items[i].key = key;
    hp->items[i].node = node;
    return PUZ_OK;
}

static uint32_t heap_pop(struct heap *hp)
{
    uint32_t top = hp->items[0].node, i = 0;
    struct heap_entry last = hp->items[--hp->count];

    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= hp->count)
            break;
        if (c + 1 < hp->count && hp->items[c + 1].key < hp->items[c].key)
            c++;
        if (hp->items[c].key >= last.key)
            break;
        hp->items[i] = hp->items[c];
        i = c;
    }
    hp->items[i] = last;
    return top;
}

struct bestfirst {
    struct puz__search *s;
    int mode;
    struct puz__nodestore ns;
    struct heap open;           /* greedy and branch and bound */
    struct puz__bucketq buckets;    /* A* */
    uint64_t open_count;
    struct puz__moves moves;
    uint64_t pushes;        /* FIFO tie-break for branch and bound */
};

static uint64_t priority(struct bestfirst *bf, const struct puz__node *node)
{
    uint64_t g = node->g, h = node->h;

    switch (bf->mode) {
    case PUZ__PRIO_GREEDY:
        return h << 32 | (UINT32_MAX - g);
    case PUZ__PRIO_BNB:
        return (g + h) << 40 | (bf->pushes++ & ((1ull << 40) - 1));
    case PUZ__PRIO_WEIGHTED:
        return (g + bf->s->weight * h) << 32 | (UINT32_MAX - g);
    default:
        return (g + h) << 32 | (UINT32_MAX - g);
    }
}

static puz_err push(struct bestfirst *bf, uint32_t i)
{
    struct puz__node *node = puz__ns_at(&bf->ns, i);
    puz_err rc;

    if (bf->mode == PUZ__PRIO_ASTAR)
        rc = puz__bq_push(&bf->buckets, node->g + node->h, node->g, i);
    else
        rc = heap_push(&bf->open, priority(bf, node), i);
    if (rc == PUZ_OK && ++bf->open_count > bf->s->out->stats.max_frontier)
        bf->s->out->stats.max_frontier = bf->open_count;
    return rc;
}

static uint32_t pop(struct bestfirst *bf)
{
    bf->open_count--;
    if (bf->mode == PUZ__PRIO_ASTAR)
        return puz__bq_pop(&bf->buckets);
    return heap_pop(&bf->open);
}

/* Generate the child of node p (index pi) reached by moving the blank in
 * direction d; add or improve it in the store and the heap. */
static puz_err visit_child(struct bestfirst *bf, uint32_t pi, unsigned d)
{
    struct puz__search *s = bf->s;
    const struct puz__node *p = puz__ns_at(&bf->ns, pi);
    uint8_t cells[PUZ_MAX_CELLS];
    unsigned from = bf->moves.to[p->blank][d], tile, h;
    uint32_t hash, ci;
    struct puz__node *c;

    memcpy(cells, p->cells, s->cells);
    tile = cells[from];
    cells[p->blank] = (uint8_t)tile;
    cells[from] = 0;
    h = s->h->update ? s->h->update(s->hctx, cells, p->h, tile, from,
                                    p->blank)
                     : s->h->eval(s->hctx, cells);
    s->out->stats.generated++;
    hash = puz__ns_hash(cells, s->cells);
    ci = puz__ns_find(&bf->ns, cells, hash);
    if (ci != PUZ__NO_PARENT) {
        c = puz__ns_at(&bf->ns, ci);
        if (bf->mode == PUZ__PRIO_GREEDY || c->g <= p->g + 1u) {
            s->out->stats.duplicates++;
            return PUZ_OK;
        }
    } else {
        if (puz__ns_add(&bf->ns, cells, hash, &ci) != PUZ_OK)
            return PUZ_ENOMEM;
        p = puz__ns_at(&bf->ns, pi);
        c = puz__ns_at(&bf->ns, ci);
        c->blank = (uint8_t)from;
        c->h = (uint16_t)h;
    }
    c->g = (uint16_t)(p->g + 1);
    c->parent = pi;
    c->move = (uint8_t)d;
    c->closed = 0;
    if (s->trace)
        puz_trace_child(s->trace, cells, s->cells, c->g, c->h);
    return push(bf, ci);
}

static puz_err expand(struct bestfirst *bf, uint32_t pi)
{
    const struct puz__node *p = puz__ns_at(&bf->ns, pi);
    unsigned back = p->parent == PUZ__NO_PARENT ? PUZ_NO_DIR : p->move ^ 1u;

    if (p->g == UINT16_MAX - 1)
        return PUZ_OK;          /* cannot record a longer path */
    bf->s->out->stats.expanded++;
    if (bf->s->trace)
        puz_trace_expand(bf->s->trace, p->cells, bf->s->cells, p->g, p->h,
                         bf->open_count + 1);
    for (unsigned d = 0; d < 4; d++) {
        if (d == back || bf->moves.to[p->blank][d] == 255)
            continue;
        if (visit_child(bf, pi, d) != PUZ_OK)
            return PUZ_ENOMEM;
    }
    return PUZ_OK;
}

static puz_err finish(struct bestfirst *bf, uint32_t gi)
{
    const struct puz__node *goal = puz__ns_at(&bf->ns, gi);
    uint8_t *dirs = puz_arena_alloc(bf->s->arena, goal->g + 1u);

    if (dirs == NULL)
        return PUZ_ENOMEM;
    puz__ns_path(&bf->ns, gi, dirs);
    return puz__set_path(bf->s, dirs, goal->g);
}

static puz_err add_start(struct bestfirst *bf)
{
    struct puz__search *s = bf->s;
    const uint8_t *cells = s->start->cells;
    uint32_t i;
    struct puz__node *node;

    if (puz__ns_add(&bf->ns, cells, puz__ns_hash(cells, s->cells), &i))
        return PUZ_ENOMEM;
    node = puz__ns_at(&bf->ns, i);
    node->blank = s->start->blank;
    node->h = (uint16_t)s->h->eval(s->hctx, cells);
    return push(bf, i);
}

static enum puz_status run(struct bestfirst *bf)
{
    struct puz__search *s = bf->s;

    while (bf->open_count > 0) {
        uint32_t i = pop(bf);
        struct puz__node *node = puz__ns_at(&bf->ns, i);
        if (node->closed)
            continue;           /* stale entry of an improved node */
        node->closed = 1;
        if (memcmp(node->cells, s->goal->cells, s->cells) == 0)
            return finish(bf, i) == PUZ_OK ? PUZ_SOLVED : PUZ_LIMIT_MEMORY;
        if (s->limits->max_nodes &&
            s->out->stats.expanded >= s->limits->max_nodes)
            return PUZ_LIMIT_NODES;
        if ((s->out->stats.expanded & 1023) == 0) {
            enum puz_status st;
            s->bound = node->g + node->h;   /* for progress */
            st = puz__check_limits(s);
            if (st != PUZ_SOLVED)
                return st;
        }
        if (expand(bf, i) != PUZ_OK)
            return PUZ_LIMIT_MEMORY;
    }
    return PUZ_UNSOLVABLE;      /* exhausted: cannot happen after parity */
}

puz_err puz__astar(struct puz__search *s, int mode)
{
    struct bestfirst bf;

    memset(&bf, 0, sizeof(bf));
    bf.s = s;
    bf.mode = mode;
    bf.open.arena = s->arena;
    puz__moves_init(&bf.moves, s->n);
    if (puz__ns_init(&bf.ns, s->arena, s->cells) != PUZ_OK ||
        (mode == PUZ__PRIO_ASTAR &&
         puz__bq_init(&bf.buckets, s->arena) != PUZ_OK) ||
        add_start(&bf) != PUZ_OK) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    s->out->status = run(&bf);
    return PUZ_OK;
}
