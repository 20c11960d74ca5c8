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
 *
 * With the exact 3x3 table as its heuristic (`pdb` on 3x3, the server's
 * default) A* expands exactly the nodes of one shortest path, so that
 * path is read off the table instead (table_walk): same path, same
 * counts, no node store and no open list. Boards of up to 16 cells run
 * on packed states (packed_search), and A* there with misplaced,
 * Manhattan or linear conflict on a copy of that loop specialised for
 * the side and the heuristic (fast_run).
 */
#include <string.h>

#include "heur/pdb_impl.h"
#include "search/bucketq.h"
#include "search/nodestore.h"
#include "search/searches.h"

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
        if (d == back || bf->moves.to[p->blank][d] == PUZ__WALL)
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
        if ((s->out->stats.expanded & PUZ__CHECK_MASK) == 0) {
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

/*
 * Boards of up to 16 cells (3x3, 4x4) run on packed states: the same
 * search, node for node (same order of children, same ties, same counts),
 * over puz__pstore's 16-byte records. A child's heuristic is computed
 * only when the child is new: a known state keeps the value it has.
 */
struct packed {
    struct puz__search *s;
    int mode;
    struct puz__pstore ps;
    struct heap open;               /* greedy, branch and bound, weighted */
    struct puz__bucketq buckets;    /* A* */
    uint64_t open_count, max_frontier, pushes;
    uint64_t expanded, generated, duplicates;
    uint64_t goal;
    unsigned (*update)(const void *, const uint8_t *, unsigned, unsigned,
                       unsigned, unsigned);
    unsigned (*eval)(const void *, const uint8_t *);
    unsigned (*update_packed)(const void *, uint64_t, unsigned, unsigned,
                              unsigned, unsigned);
    const void *hctx;
    uint8_t nmoves[16];
    uint8_t move_dir[16][4];
    uint8_t move_to[16][4];
};

static uint64_t pack16(const uint8_t *cells, unsigned count)
{
    uint64_t key = 0;

    for (unsigned i = 0; i < count; i++)
        key |= (uint64_t)cells[i] << (4 * i);
    return key;
}

static puz_err packed_push(struct packed *pk, uint32_t i)
{
    const struct puz__pnode *node = &pk->ps.nodes[i];
    unsigned g = node->g, h = node->h;
    puz_err rc;

    switch (pk->mode) {
    case PUZ__PRIO_ASTAR:
        rc = puz__bq_push(&pk->buckets, g + h, g, i);
        break;
    case PUZ__PRIO_GREEDY:
        rc = heap_push(&pk->open, (uint64_t)h << 32 | (UINT32_MAX - g), i);
        break;
    case PUZ__PRIO_BNB:
        rc = heap_push(&pk->open, (uint64_t)(g + h) << 40 |
                       (pk->pushes++ & ((1ull << 40) - 1)), i);
        break;
    default:
        rc = heap_push(&pk->open, ((uint64_t)g + (uint64_t)pk->s->weight * h)
                       << 32 | (UINT32_MAX - g), i);
        break;
    }
    if (++pk->open_count > pk->max_frontier)
        pk->max_frontier = pk->open_count;
    return rc;
}

/* The heuristic of the child that moving `tile` from `from` to `to`
 * makes, cells being the parent's (restored before returning). */
static unsigned packed_h(const struct packed *pk, uint8_t *cells, unsigned h,
                         unsigned tile, unsigned from, unsigned to)
{
    unsigned ch;

    cells[to] = (uint8_t)tile;
    cells[from] = 0;
    ch = pk->update ? pk->update(pk->hctx, cells, h, tile, from, to)
                    : pk->eval(pk->hctx, cells);
    cells[from] = (uint8_t)tile;
    cells[to] = 0;
    return ch;
}

static puz_err packed_expand(struct packed *pk, uint32_t pi)
{
    const struct puz__pnode *p = &pk->ps.nodes[pi];
    uint64_t key = p->key;
    unsigned g = p->g, h = p->h, blank = PUZ__PN_BLANK(p->meta);
    unsigned back = p->parent == PUZ__NO_PARENT ? PUZ_NO_DIR
                                                 : PUZ__PN_MOVE(p->meta) ^ 1u;
    uint8_t cells[16];

    if (g == UINT16_MAX - 1)
        return PUZ_OK;          /* cannot record a longer path */
    pk->expanded++;
    for (unsigned i = 0; pk->update_packed == NULL && i < pk->s->cells; i++)
        cells[i] = (uint8_t)(key >> (4 * i) & 15u);
    for (unsigned k = 0; k < pk->nmoves[blank]; k++) {
        unsigned d = pk->move_dir[blank][k], from = pk->move_to[blank][k];
        uint64_t tile = key >> (4 * from) & 15u, ckey;
        uint32_t ci, slot;
        struct puz__pnode *c;
        if (d == back)
            continue;
        ckey = key ^ tile << (4 * from) ^ tile << (4 * blank);
        pk->generated++;
        ci = puz__ps_find(&pk->ps, ckey, &slot);
        if (ci != PUZ__NO_PARENT) {
            c = &pk->ps.nodes[ci];
            if (pk->mode == PUZ__PRIO_GREEDY || c->g <= g + 1u) {
                pk->duplicates++;
                continue;
            }
        } else {
            unsigned ch = pk->update_packed
                ? pk->update_packed(pk->hctx, ckey, h, (unsigned)tile, from,
                                    blank)
                : packed_h(pk, cells, h, (unsigned)tile, from, blank);
            if (puz__ps_add(&pk->ps, ckey, slot, &ci) != PUZ_OK)
                return PUZ_ENOMEM;
            c = &pk->ps.nodes[ci];
            c->h = (uint8_t)ch;
        }
        c->g = (uint16_t)(g + 1);
        c->parent = pi;
        c->meta = (uint8_t)(from << 3 | d);
        if (packed_push(pk, ci) != PUZ_OK)
            return PUZ_ENOMEM;
    }
    return PUZ_OK;
}

static void packed_sync(struct packed *pk)
{
    struct puz_stats *st = &pk->s->out->stats;

    st->expanded = pk->expanded;
    st->generated = pk->generated;
    st->duplicates = pk->duplicates;
    st->max_frontier = pk->max_frontier;
}

static enum puz_status packed_finish(struct packed *pk, uint32_t gi)
{
    const struct puz__pnode *node = &pk->ps.nodes[gi];
    uint8_t *dirs = puz_arena_alloc(pk->s->arena, node->g + 1u);

    if (dirs == NULL)
        return PUZ_LIMIT_MEMORY;
    for (unsigned k = node->g; k-- > 0;) {
        dirs[k] = (uint8_t)PUZ__PN_MOVE(node->meta);
        node = &pk->ps.nodes[node->parent];
    }
    return puz__set_path(pk->s, dirs, pk->ps.nodes[gi].g) == PUZ_OK
               ? PUZ_SOLVED : PUZ_LIMIT_MEMORY;
}

static enum puz_status packed_run(struct packed *pk)
{
    struct puz__search *s = pk->s;
    uint64_t max_nodes = s->limits->max_nodes;

    while (pk->open_count > 0) {
        uint32_t i;
        struct puz__pnode *node;
        pk->open_count--;
        i = pk->mode == PUZ__PRIO_ASTAR ? puz__bq_pop(&pk->buckets)
                                        : heap_pop(&pk->open);
        node = &pk->ps.nodes[i];
        if (node->meta & PUZ__PN_CLOSED)
            continue;           /* stale entry of an improved node */
        node->meta |= PUZ__PN_CLOSED;
        if (node->key == pk->goal)
            return packed_finish(pk, i);
        if (max_nodes && pk->expanded >= max_nodes)
            return PUZ_LIMIT_NODES;
        if ((pk->expanded & PUZ__CHECK_MASK) == 0) {
            enum puz_status st;
            packed_sync(pk);
            s->bound = node->g + node->h;   /* for progress */
            st = puz__check_limits(s);
            if (st != PUZ_SOLVED)
                return st;
        }
        if (packed_expand(pk, i) != PUZ_OK)
            return PUZ_LIMIT_MEMORY;
    }
    return PUZ_UNSOLVABLE;      /* exhausted: cannot happen after parity */
}

static puz_err packed_start(struct packed *pk)
{
    struct puz__search *s = pk->s;
    struct puz__pnode *node;
    uint32_t i, slot;

    puz__moves_lists(s->rows, s->n, pk->nmoves, pk->move_dir, pk->move_to);
    pk->update = s->h->update;
    pk->eval = s->h->eval;
    /* linear conflict's packed update reads its line tables, built for
     * squares: a rectangle's child is unpacked and updated by cells */
    pk->update_packed = s->rows == s->n ? s->h->update_packed : NULL;
    pk->hctx = s->hctx;
    pk->goal = pack16(s->goal->cells, s->cells);
    pk->open.arena = s->arena;
    if (puz__ps_init(&pk->ps, s->arena) != PUZ_OK ||
        (pk->mode == PUZ__PRIO_ASTAR &&
         puz__bq_init(&pk->buckets, s->arena) != PUZ_OK))
        return PUZ_ENOMEM;
    puz__ps_find(&pk->ps, pack16(s->start->cells, s->cells), &slot);
    if (puz__ps_add(&pk->ps, pack16(s->start->cells, s->cells), slot, &i))
        return PUZ_ENOMEM;
    node = &pk->ps.nodes[i];
    node->parent = PUZ__NO_PARENT;
    node->g = 0;
    node->h = (uint8_t)s->h->eval(s->hctx, s->start->cells);
    node->meta = (uint8_t)(s->start->blank << 3);
    return packed_push(pk, i);
}

/*
 * A* itself (f = g + h, ties to larger g) on 3x3 and 4x4 with a
 * heuristic that can be written as tables (puz__htables: misplaced,
 * Manhattan, linear conflict) runs packed_run and packed_expand again
 * with the side and the heuristic's shape fixed at compile time and the
 * four directions unrolled. A new child's h comes from a step built for
 * the solve, indexed by (blank cell, direction, tile): the tile-cost
 * change, and for linear conflict the one line whose cost can change
 * (the tile's goal line, when the move enters or leaves it) with what the
 * move adds to its code. No child costs a call through a pointer. The
 * search is packed_run's node for node.
 */
#define HOT static inline __attribute__((always_inline))

struct astep {
    int8_t dh;          /* tile cost at the blank's cell minus at the tile's */
    uint8_t line;       /* first cell of the line whose cost can change
                           (when none can, any line, with dcode 0: one
                           branch less) */
    int16_t dcode;      /* what the move adds to that line's code */
};

struct fast {
    const struct astep *step;       /* [(blank * 4 + dir) * 16 + tile] */
    const uint16_t (*row_digit)[PUZ__HT_CELLS];
    const uint16_t (*col_digit)[PUZ__HT_CELLS];
    const uint8_t *line_cost;
    uint8_t legal[PUZ__HT_CELLS];   /* bit d: the blank can move in d */
};

/* The code of the line of n cells from `first` in steps of `stride`. */
HOT unsigned line_code(uint64_t key, const uint16_t (*digit)[PUZ__HT_CELLS],
                       unsigned first, const unsigned stride,
                       const unsigned n)
{
#define DIGIT(k) digit[key >> (4 * (first + (k) * stride)) & 15u] \
                     [first + (k) * stride]
    unsigned code = DIGIT(0) + DIGIT(1) + DIGIT(2);

    return n == 4 ? code + DIGIT(3) : code;
#undef DIGIT
}

/*
 * What the loop changes most, as locals (fast_run's `st`, never passed to
 * a function that is not inlined), so that it can live in registers: the
 * store's arrays and counts, and the counters. save() writes them back
 * to pk before anything out of line reads pk, load() reads them after
 * the store has grown.
 */
struct fstate {
    struct puz__pnode *nodes;
    uint32_t *slots;
    uint32_t slot_mask, count, cap;
    unsigned shift;
    uint64_t open, max_frontier, expanded, generated, duplicates;
};

HOT void load(struct fstate *st, const struct packed *pk)
{
    st->nodes = pk->ps.nodes;
    st->slots = pk->ps.slots;
    st->slot_mask = pk->ps.slot_mask;
    st->count = pk->ps.count;
    st->cap = pk->ps.cap;
    st->shift = pk->ps.shift;
}

HOT void save(const struct fstate *st, struct packed *pk)
{
    pk->ps.count = st->count;
    pk->open_count = st->open;
    pk->max_frontier = st->max_frontier;
    pk->expanded = st->expanded;
    pk->generated = st->generated;
    pk->duplicates = st->duplicates;
}

/* The child of node pi (key, g, h) that moving the blank from b in
 * direction d makes (the tile at f slides into b), as packed_expand
 * makes it: puz__ps_find and puz__ps_add on st. */
HOT puz_err fast_child(struct packed *pk, const struct fast *fs,
                       struct fstate *st, uint64_t key, uint32_t pi,
                       unsigned g, unsigned h, unsigned b, unsigned f,
                       unsigned d, const unsigned n, const int lines)
{
    uint64_t tile = key >> (4 * f) & 15u;
    uint64_t ckey = key ^ tile << (4 * f) ^ tile << (4 * b);
    uint32_t slot = (uint32_t)((ckey * 0x9e3779b97f4a7c15ull) >> st->shift);
    const struct astep *e;
    struct puz__pnode *c;
    uint32_t v, ci;
    unsigned ch;

    st->generated++;
    for (;; slot = (slot + 1) & st->slot_mask) {
        v = st->slots[slot];
        if (v == 0)
            break;
        if (st->nodes[v - 1].key != ckey)
            continue;
        c = &st->nodes[v - 1];
        if (c->g <= g + 1u) {
            st->duplicates++;
            return PUZ_OK;
        }
        ci = v - 1;
        goto improved;
    }
    e = &fs->step[(b * 4 + d) * PUZ__HT_CELLS + tile];
    ch = h + (unsigned)(int)e->dh;
    if (lines) {        /* a step that changes no cost has dcode 0 */
        unsigned code = d < 2 ? line_code(key, fs->row_digit, e->line, 1, n)
                              : line_code(key, fs->col_digit, e->line, n, n);
        ch += 2u * fs->line_cost[code + (unsigned)(int)e->dcode] -
              2u * fs->line_cost[code];
    }
    if (st->count == st->cap) {
        puz_err rc;
        save(st, pk);
        rc = puz__ps_add_slow(&pk->ps, ckey, &ci);
        load(st, pk);
        if (rc != PUZ_OK)
            return PUZ_ENOMEM;
    } else {
        st->slots[slot] = st->count + 1;
        st->nodes[st->count].key = ckey;
        ci = st->count++;
    }
    c = &st->nodes[ci];
    c->h = (uint8_t)ch;
improved:
    c->g = (uint16_t)(g + 1);
    c->parent = pi;
    c->meta = (uint8_t)(f << 3 | d);
    st->open++;
    return puz__bq_push(&pk->buckets, g + 1u + c->h, g + 1u, ci);
}

/* The open count only grows during an expansion, so its peak is taken
 * once, after the children (or the one that failed). */
HOT puz_err fast_expand(struct packed *pk, const struct fast *fs,
                        struct fstate *st, uint32_t pi, const unsigned n,
                        const int lines)
{
    const struct puz__pnode *p = &st->nodes[pi];
    uint64_t key = p->key;
    unsigned g = p->g, h = p->h, b = PUZ__PN_BLANK(p->meta);
    unsigned mask = fs->legal[b];
    puz_err rc = PUZ_OK;

    if (g == UINT16_MAX - 1)
        return PUZ_OK;          /* cannot record a longer path */
    if (p->parent != PUZ__NO_PARENT)
        mask &= ~(1u << (PUZ__PN_MOVE(p->meta) ^ 1u));
    st->expanded++;
    if (mask & 1u << PUZ_UP)
        rc = fast_child(pk, fs, st, key, pi, g, h, b, b - n, PUZ_UP, n,
                        lines);
    if (rc == PUZ_OK && (mask & 1u << PUZ_DOWN))
        rc = fast_child(pk, fs, st, key, pi, g, h, b, b + n, PUZ_DOWN, n,
                        lines);
    if (rc == PUZ_OK && (mask & 1u << PUZ_LEFT))
        rc = fast_child(pk, fs, st, key, pi, g, h, b, b - 1, PUZ_LEFT, n,
                        lines);
    if (rc == PUZ_OK && (mask & 1u << PUZ_RIGHT))
        rc = fast_child(pk, fs, st, key, pi, g, h, b, b + 1, PUZ_RIGHT, n,
                        lines);
    st->max_frontier = st->open > st->max_frontier ? st->open
                                                   : st->max_frontier;
    return rc;
}

/* packed_run for A*, with fast_expand. */
HOT enum puz_status fast_loop(struct packed *pk, const struct fast *fs,
                              struct fstate *st, const unsigned n,
                              const int lines)
{
    struct puz__search *s = pk->s;
    uint64_t max_nodes = s->limits->max_nodes, goal = pk->goal;

    while (st->open > 0) {
        uint32_t i;
        struct puz__pnode *node;
        st->open--;
        i = puz__bq_pop(&pk->buckets);
        node = &st->nodes[i];
        if (node->meta & PUZ__PN_CLOSED)
            continue;           /* stale entry of an improved node */
        node->meta |= PUZ__PN_CLOSED;
        if (node->key == goal)
            return packed_finish(pk, i);
        if (max_nodes && st->expanded >= max_nodes)
            return PUZ_LIMIT_NODES;
        if ((st->expanded & PUZ__CHECK_MASK) == 0) {
            enum puz_status status;
            save(st, pk);
            packed_sync(pk);
            s->bound = node->g + node->h;   /* for progress */
            status = puz__check_limits(s);
            if (status != PUZ_SOLVED)
                return status;
        }
        if (fast_expand(pk, fs, st, i, n, lines) != PUZ_OK)
            return PUZ_LIMIT_MEMORY;
    }
    return PUZ_UNSOLVABLE;      /* exhausted: cannot happen after parity */
}

HOT enum puz_status fast_run(struct packed *pk, const struct fast *fs,
                             const unsigned n, const int lines)
{
    struct fstate st;
    enum puz_status status;

    load(&st, pk);
    st.open = pk->open_count;
    st.max_frontier = pk->max_frontier;
    st.expanded = pk->expanded;
    st.generated = pk->generated;
    st.duplicates = pk->duplicates;
    status = fast_loop(pk, fs, &st, n, lines);
    save(&st, pk);
    return status;
}

static enum puz_status fast_run3(struct packed *pk, const struct fast *fs)
{
    return fast_run(pk, fs, 3, 0);
}

static enum puz_status fast_run3_lc(struct packed *pk, const struct fast *fs)
{
    return fast_run(pk, fs, 3, 1);
}

static enum puz_status fast_run4(struct packed *pk, const struct fast *fs)
{
    return fast_run(pk, fs, 4, 0);
}

static enum puz_status fast_run4_lc(struct packed *pk, const struct fast *fs)
{
    return fast_run(pk, fs, 4, 1);
}

/* Each tile's goal row and column, no division in the loops below. */
struct goal_lines {
    uint8_t row[PUZ__HT_CELLS], col[PUZ__HT_CELLS];
};

/* The step of moving the blank from b to f (direction d) for each tile. */
static void build_steps(struct astep *step, const struct puz__htables *t,
                        const struct goal_lines *gl, unsigned n, unsigned b,
                        unsigned d, unsigned f)
{
    struct astep *e = &step[(b * 4 + d) * PUZ__HT_CELLS];
    unsigned rb = b / n, cb = b % n, rf = f / n, cf = f % n;

    for (unsigned tile = 1; tile < n * n; tile++) {
        e[tile].dh = (int8_t)(t->tile_cost[tile][b] - t->tile_cost[tile][f]);
        e[tile].line = (uint8_t)(d < 2 ? rb * n : cb);  /* any line */
        e[tile].dcode = 0;
        if (t->line_cost == NULL)
            continue;
        if (d < 2 && (gl->row[tile] == rb || gl->row[tile] == rf)) {
            e[tile].line = (uint8_t)(gl->row[tile] * n);
            e[tile].dcode = (int16_t)(t->row_digit[tile][b] -
                                      t->row_digit[tile][f]);
        } else if (d >= 2 && (gl->col[tile] == cb || gl->col[tile] == cf)) {
            e[tile].line = gl->col[tile];
            e[tile].dcode = (int16_t)(t->col_digit[tile][b] -
                                      t->col_digit[tile][f]);
        }
    }
}

/* Run the search with fast_run when the heuristic has tables here;
 * false when it has not (and nothing was done). */
static bool fast_search(struct packed *pk)
{
    struct puz__search *s = pk->s;
    struct astep step[PUZ__HT_CELLS * 4 * PUZ__HT_CELLS];
    struct puz__htables t;
    struct goal_lines gl;
    struct puz__moves mv;
    struct fast fs;
    bool lines;

    if (!puz__packed_htables(s, &t))
        return false;
    lines = t.line_cost != NULL;
    fs.step = step;
    fs.row_digit = t.row_digit;
    fs.col_digit = t.col_digit;
    fs.line_cost = t.line_cost;
    for (unsigned r = 0, i = 0; r < s->n; r++)
        for (unsigned c = 0; c < s->n; c++, i++) {
            gl.row[s->goal->cells[i]] = (uint8_t)r;
            gl.col[s->goal->cells[i]] = (uint8_t)c;
        }
    puz__moves_init(&mv, s->n);
    for (unsigned b = 0; b < s->cells; b++) {
        fs.legal[b] = 0;
        for (unsigned d = 0; d < 4; d++) {
            if (mv.to[b][d] == PUZ__WALL)
                continue;
            fs.legal[b] |= (uint8_t)(1u << d);
            build_steps(step, &t, &gl, s->n, b, d, mv.to[b][d]);
        }
    }
    if (packed_start(pk) != PUZ_OK)
        s->out->status = PUZ_LIMIT_MEMORY;
    else if (s->n == 3)
        s->out->status = lines ? fast_run3_lc(pk, &fs) : fast_run3(pk, &fs);
    else
        s->out->status = lines ? fast_run4_lc(pk, &fs) : fast_run4(pk, &fs);
    return true;
}

static void packed_search(struct puz__search *s, int mode)
{
    struct packed pk;

    memset(&pk, 0, sizeof(pk));
    pk.s = s;
    pk.mode = mode;
    if (mode != PUZ__PRIO_ASTAR || !fast_search(&pk))
        s->out->status = packed_start(&pk) == PUZ_OK ? packed_run(&pk)
                                                     : PUZ_LIMIT_MEMORY;
    packed_sync(&pk);
}

/*
 * A* with an exact heuristic and ties to larger g pops, at each depth,
 * the last child pushed whose f equals the start's: the last optimal
 * move in direction order, which is the move puz_table3_walk takes. It
 * expands each node on that path once and generates all of its children
 * but the parent; none is a duplicate (they all lie one level deeper), so
 * the counts below are the ones A* itself would report. Returns false
 * when the table does not apply and the search must run.
 */
static bool table_walk(struct puz__search *s)
{
    static const int8_t step[4] = { -3, 3, -1, 1 };
    const struct puz__pdbctx *c = s->hctx;
    struct puz_result *r = s->out;
    uint8_t cells[9];
    unsigned len, gen, blank = s->start->blank;

    if (s->h != &puz__h_pdb || c->t3 == NULL || s->trace != NULL)
        return false;   /* a traced solve shows the search itself */
    r->moves = puz_arena_alloc(s->arena, 32);
    r->tiles = puz_arena_alloc(s->arena, 32);
    if (r->moves == NULL || r->tiles == NULL) {
        r->moves = r->tiles = NULL;
        r->status = PUZ_LIMIT_MEMORY;
        return true;
    }
    len = puz_table3_walk(c->t3, s->start, c->fr.cell, c->fr.tile, r->moves,
                          &gen);
    if (len == PUZ_TABLE3_UNREACHABLE ||
        (s->limits->max_nodes != 0 && len > s->limits->max_nodes))
        return false;   /* let the search hit the limit the same way */
    r->status = len > 0 ? puz__check_limits(s) : PUZ_SOLVED;
    if (r->status != PUZ_SOLVED)
        return true;
    memcpy(cells, s->start->cells, 9);
    for (unsigned i = 0; i < len; i++) {     /* the tiles that slide */
        unsigned next = (unsigned)((int)blank + step[r->moves[i]]);
        r->tiles[i] = cells[next];
        cells[blank] = cells[next];
        blank = next;
    }
    r->length = len;
    r->stats.expanded = len;
    r->stats.generated = gen;
    r->stats.max_frontier = 1u + gen - len;
    return true;
}

/* The best-first search in one of the PUZ__PRIO_ modes. */
static puz_err best_first(struct puz__search *s, int mode)
{
    struct bestfirst bf;

    if (mode == PUZ__PRIO_ASTAR && table_walk(s))
        return PUZ_OK;
    if (s->cells <= 16 && s->trace == NULL) {   /* traces: generic path */
        packed_search(s, mode);
        return PUZ_OK;
    }
    memset(&bf, 0, sizeof(bf));
    bf.s = s;
    bf.mode = mode;
    bf.open.arena = s->arena;
    puz__moves_init_shape(&bf.moves, s->rows, s->n);
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

/* The registry's four best-first algorithms (solve/algorithm.c): one
 * search, four orders of its open list. */
puz_err puz__astar(struct puz__search *s)
{
    return best_first(s, PUZ__PRIO_ASTAR);
}

puz_err puz__greedy(struct puz__search *s)
{
    return best_first(s, PUZ__PRIO_GREEDY);
}

puz_err puz__bnb(struct puz__search *s)
{
    return best_first(s, PUZ__PRIO_BNB);
}

puz_err puz__wastar(struct puz__search *s)
{
    return best_first(s, PUZ__PRIO_WEIGHTED);
}
