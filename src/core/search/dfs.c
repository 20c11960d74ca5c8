/*
 * dfs.c - depth-limited depth-first search, the other uninformed
 * baseline (bfs.c). Graph search that revisits a state only if it
 * reaches it at a smaller depth, which keeps it complete up to its depth
 * limit (at most PUZ_DFS_MAX_DEPTH, the node store's uint16_t depths);
 * its paths are not short.
 */
#include <stdbool.h>
#include <string.h>

#include "search/blind.h"

_Static_assert(PUZ_DFS_MAX_DEPTH <= UINT16_MAX - 1,
               "dfs depths are kept in the node store's uint16_t g");

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
    unsigned blank = puz__blind_child(&df->ns, &df->mv, top, d, cells);
    struct puz__node *c;

    *status = PUZ_LIMIT_MEMORY;
    s->out->stats.generated++;
    df->dirs[df->depth] = (uint8_t)d;
    if (puz__blind_is_goal(s, cells)) {
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
            st = puz__blind_limits(s);
            if (st != PUZ_SOLVED)
                return st;
            s->out->stats.expanded++;
        }
        if (d >= 4 || df->depth >= df->limit) {
            df->depth--;            /* wraps to UINT32_MAX at the root */
            continue;
        }
        if (df->mv.to[p->blank][d] == PUZ__WALL ||
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
    if (df.limit > PUZ_DFS_MAX_DEPTH)
        df.limit = PUZ_DFS_MAX_DEPTH;
    puz__moves_init_shape(&df.mv, s->rows, s->n);
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
    if (puz__blind_is_goal(s, s->start->cells)) {
        s->out->status = puz__set_path(s, df.dirs, 0) == PUZ_OK
                             ? PUZ_SOLVED : PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    df.stack[0].node = start;
    df.stack[0].next_dir = 0;   /* arena memory is not zeroed */
    s->out->status = dfs_run(&df);
    return PUZ_OK;
}
