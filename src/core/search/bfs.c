/*
 * bfs.c - breadth-first search, the uninformed baseline (dfs.c is the
 * other one). BFS is optimal for unit move costs; the node store doubles
 * as its FIFO because nodes are appended in generation order, so a child
 * can be tested for the goal as it is generated.
 */
#include <string.h>

#include "search/blind.h"

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
        if (d == back || mv->to[puz__ns_at(ns, head)->blank][d] == PUZ__WALL)
            continue;
        blank = puz__blind_child(ns, mv, head, d, cells);
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
        if (puz__blind_is_goal(s, cells)) {
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

    puz__moves_init_shape(&mv, s->rows, s->n);
    if (puz__ns_init(&ns, s->arena, s->cells) != PUZ_OK ||
        puz__ns_add(&ns, s->start->cells,
                    puz__ns_hash(s->start->cells, s->cells), &start)) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    puz__ns_at(&ns, start)->blank = s->start->blank;
    if (puz__blind_is_goal(s, s->start->cells))
        found = start;
    for (uint32_t head = 0; found == PUZ__NO_PARENT; head++) {
        enum puz_status st;
        if (head == ns.count) {
            s->out->status = PUZ_UNSOLVABLE;
            return PUZ_OK;
        }
        st = puz__blind_limits(s);
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
