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
 * counts, no node store and no open list.
 */
#include <string.h>

#include "bucketq.h"
#include "nodestore.h"
#include "pdb_impl.h"
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
    struct puz__moves mv;
    struct puz__pnode *node;
    uint32_t i, slot;

    puz__moves_init(&mv, s->n);
    for (unsigned c = 0; c < s->cells; c++) {
        pk->nmoves[c] = 0;
        for (unsigned d = 0; d < 4; d++) {
            if (mv.to[c][d] == PUZ__WALL)
                continue;
            pk->move_dir[c][pk->nmoves[c]] = (uint8_t)d;
            pk->move_to[c][pk->nmoves[c]++] = mv.to[c][d];
        }
    }
    pk->update = s->h->update;
    pk->eval = s->h->eval;
    pk->update_packed = s->h->update_packed;
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

static void packed_search(struct puz__search *s, int mode)
{
    struct packed pk;

    memset(&pk, 0, sizeof(pk));
    pk.s = s;
    pk.mode = mode;
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

puz_err puz__astar(struct puz__search *s, int mode)
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
