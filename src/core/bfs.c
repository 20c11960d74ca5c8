/*
 * bfs.c - breadth-first and depth-limited depth-first search, the two
 * uninformed baselines. BFS is optimal for unit move costs; the node store
 * doubles as its FIFO because nodes are appended in generation order, so
 * a child can be tested for the goal as it is generated. DFS is graph
 * search that revisits a state only if it reaches it at a smaller depth,
 * which keeps it complete up to its depth limit; its paths are not short.
 */
#include <stdbool.h>
#include <string.h>

#include "nodestore.h"
#include "search.h"

/* Child of node pi in direction d into cells; returns its blank cell. */
static unsigned make_child(const struct puz__nodestore *ns,
                           const struct puz__moves *mv, uint32_t pi,
                           unsigned d, uint8_t *cells)
{
    const struct puz__node *p = puz__ns_at(ns, pi);
    unsigned from = mv->to[p->blank][d];

    memcpy(cells, p->cells, ns->cells);
    cells[p->blank] = cells[from];
    cells[from] = 0;
    return from;
}

static enum puz_status limits_every_1k(const struct puz__search *s)
{
    if (s->limits->max_nodes && s->out->stats.expanded >= s->limits->max_nodes)
        return PUZ_LIMIT_NODES;
    if ((s->out->stats.expanded & 1023) == 0)
        return puz__check_limits(s);
    return PUZ_SOLVED;
}

static int is_goal(const struct puz__search *s, const uint8_t *cells)
{
    return memcmp(cells, s->goal->cells, s->cells) == 0;
}

static enum puz_status solved_at(struct puz__search *s,
                                 const struct puz__nodestore *ns, uint32_t i)
{
    unsigned len = puz__ns_at(ns, i)->g;
    uint8_t *dirs = puz_arena_alloc(s->arena, len + 1u);

    if (dirs == NULL)
        return PUZ_LIMIT_MEMORY;
    puz__ns_path(ns, i, dirs);
    return puz__set_path(s, dirs, len) == PUZ_OK ? PUZ_SOLVED
                                                 : PUZ_LIMIT_MEMORY;
}

/* Generate node head's children; returns PUZ_SOLVED with *found set when
 * the goal appears, PUZ_LIMIT_MEMORY when the store is full. */
static enum puz_status bfs_expand(struct puz__search *s,
                                  struct puz__nodestore *ns,
                                  const struct puz__moves *mv, uint32_t head,
                                  uint32_t *found)
{
    uint8_t cells[PUZ_MAX_CELLS];
    const struct puz__node *p = puz__ns_at(ns, head);
    unsigned back = p->parent == PUZ__NO_PARENT ? PUZ_NO_DIR : p->move ^ 1u;

    for (unsigned d = 0; d < 4; d++) {
        uint32_t hash, ci;
        unsigned blank;
        struct puz__node *c;
        if (d == back || mv->to[puz__ns_at(ns, head)->blank][d] == 255)
            continue;
        blank = make_child(ns, mv, head, d, cells);
        s->out->stats.generated++;
        hash = puz__ns_hash(cells, s->cells);
        if (puz__ns_find(ns, cells, hash) != PUZ__NO_PARENT) {
            s->out->stats.duplicates++;
            continue;
        }
        if (puz__ns_add(ns, cells, hash, &ci) != PUZ_OK)
            return PUZ_LIMIT_MEMORY;
        c = puz__ns_at(ns, ci);
        c->parent = head;
        c->g = (uint16_t)(puz__ns_at(ns, head)->g + 1);
        c->move = (uint8_t)d;
        c->blank = (uint8_t)blank;
        if (is_goal(s, cells)) {
            *found = ci;
            return PUZ_SOLVED;
        }
    }
    return PUZ_SOLVED;
}

puz_err puz__bfs(struct puz__search *s)
{
    struct puz__nodestore ns;
    struct puz__moves mv;
    uint32_t start, found = PUZ__NO_PARENT;

    puz__moves_init(&mv, s->n);
    if (puz__ns_init(&ns, s->arena, s->cells) != PUZ_OK ||
        puz__ns_add(&ns, s->start->cells,
                    puz__ns_hash(s->start->cells, s->cells), &start)) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    puz__ns_at(&ns, start)->blank = s->start->blank;
    if (is_goal(s, s->start->cells))
        found = start;
    for (uint32_t head = 0; found == PUZ__NO_PARENT; head++) {
        enum puz_status st;
        if (head == ns.count) {
            s->out->status = PUZ_UNSOLVABLE;
            return PUZ_OK;
        }
        st = limits_every_1k(s);
        if (st == PUZ_SOLVED) {
            s->out->stats.expanded++;
            st = bfs_expand(s, &ns, &mv, head, &found);
        }
        if (st != PUZ_SOLVED) {
            s->out->status = st;
            return PUZ_OK;
        }
        if (ns.count - head > s->out->stats.max_frontier)
            s->out->stats.max_frontier = ns.count - head;
    }
    s->out->status = solved_at(s, &ns, found);
    return PUZ_OK;
}

struct dfs_frame {
    uint32_t node;
    uint8_t next_dir;
};

struct dfs {
    struct puz__search *s;
    struct puz__nodestore ns;
    struct puz__moves mv;
    struct dfs_frame *stack;    /* stack[k] is the node at depth k */
    uint8_t *dirs;              /* dirs[k] led from stack[k] to stack[k+1] */
    unsigned depth, limit;
};

/* Try the child of the top frame in direction d: push it if it is new or
 * reached at a smaller depth than before. Returns true when the search
 * must stop, with *status saying why (solved or out of memory). */
static bool dfs_try(struct dfs *df, unsigned d, enum puz_status *status)
{
    struct puz__search *s = df->s;
    uint8_t cells[PUZ_MAX_CELLS];
    uint32_t top = df->stack[df->depth].node, hash, ci;
    unsigned blank = make_child(&df->ns, &df->mv, top, d, cells);
    struct puz__node *c;

    *status = PUZ_LIMIT_MEMORY;
    s->out->stats.generated++;
    df->dirs[df->depth] = (uint8_t)d;
    if (is_goal(s, cells)) {
        if (puz__set_path(s, df->dirs, df->depth + 1) == PUZ_OK)
            *status = PUZ_SOLVED;
        return true;
    }
    hash = puz__ns_hash(cells, s->cells);
    ci = puz__ns_find(&df->ns, cells, hash);
    if (ci != PUZ__NO_PARENT && puz__ns_at(&df->ns, ci)->g <= df->depth + 1) {
        s->out->stats.duplicates++;
        return false;
    }
    if (ci == PUZ__NO_PARENT && puz__ns_add(&df->ns, cells, hash, &ci))
        return true;
    c = puz__ns_at(&df->ns, ci);
    c->g = (uint16_t)(df->depth + 1);
    c->blank = (uint8_t)blank;
    c->move = (uint8_t)d;
    df->depth++;
    df->stack[df->depth].node = ci;
    df->stack[df->depth].next_dir = 0;
    return false;
}

static enum puz_status dfs_run(struct dfs *df)
{
    struct puz__search *s = df->s;

    while (df->depth != UINT32_MAX) {
        struct dfs_frame *f = &df->stack[df->depth];
        const struct puz__node *p = puz__ns_at(&df->ns, f->node);
        unsigned d = f->next_dir++;
        enum puz_status st;
        if (d == 0) {
            st = limits_every_1k(s);
            if (st != PUZ_SOLVED)
                return st;
            s->out->stats.expanded++;
        }
        if (d >= 4 || df->depth >= df->limit) {
            df->depth--;            /* wraps to UINT32_MAX at the root */
            continue;
        }
        if (df->mv.to[p->blank][d] == 255 ||
            (df->depth > 0 && d == (p->move ^ 1u)))
            continue;
        if (dfs_try(df, d, &st))
            return st;
        if (df->depth + 1 > s->out->stats.max_frontier)
            s->out->stats.max_frontier = df->depth + 1;
    }
    return PUZ_LIMIT_DEPTH;
}

puz_err puz__dfs(struct puz__search *s)
{
    struct dfs df;
    uint32_t start;

    memset(&df, 0, sizeof(df));
    df.s = s;
    df.limit = s->limits->max_depth ? s->limits->max_depth
                                    : PUZ_DFS_DEFAULT_DEPTH;
    if (df.limit > UINT16_MAX - 1)
        df.limit = UINT16_MAX - 1;
    puz__moves_init(&df.mv, s->n);
    df.stack = puz_arena_alloc(s->arena, (df.limit + 1) * sizeof(*df.stack));
    df.dirs = puz_arena_alloc(s->arena, df.limit + 1);
    if (df.stack == NULL || df.dirs == NULL ||
        puz__ns_init(&df.ns, s->arena, s->cells) != PUZ_OK ||
        puz__ns_add(&df.ns, s->start->cells,
                    puz__ns_hash(s->start->cells, s->cells), &start)) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    puz__ns_at(&df.ns, start)->blank = s->start->blank;
    if (is_goal(s, s->start->cells)) {
        s->out->status = puz__set_path(s, df.dirs, 0) == PUZ_OK
                             ? PUZ_SOLVED : PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    df.stack[0].node = start;
    df.stack[0].next_dir = 0;   /* arena memory is not zeroed */
    s->out->status = dfs_run(&df);
    return PUZ_OK;
}
