/*
 * blind.h - the steps the two uninformed searches (bfs.c, dfs.c) share:
 * making a child in the node store, the periodic limit check and the
 * goal test. Private to the core.
 */
#ifndef PUZ_BLIND_H
#define PUZ_BLIND_H

#include <string.h>

#include "search/nodestore.h"
#include "search/searches.h"

/* Child of node pi in direction d into cells; returns its blank cell. */
static inline unsigned puz__blind_child(const struct puz__nodestore *ns,
                                        const struct puz__moves *mv,
                                        uint32_t pi, unsigned d,
                                        uint8_t *cells)
{
    const struct puz__node *p = puz__ns_at(ns, pi);
    unsigned from = mv->to[p->blank][d];

    memcpy(cells, p->cells, ns->cells);
    cells[p->blank] = cells[from];
    cells[from] = 0;
    return from;
}

/* The node cap, then every PUZ__CHECK_MASK + 1 expansions the rest. */
static inline enum puz_status
puz__blind_limits(const struct puz__search *s)
{
    if (s->limits->max_nodes && s->out->stats.expanded >= s->limits->max_nodes)
        return PUZ_LIMIT_NODES;
    if ((s->out->stats.expanded & PUZ__CHECK_MASK) == 0)
        return puz__check_limits(s);
    return PUZ_SOLVED;
}

static inline int puz__blind_is_goal(const struct puz__search *s,
                                     const uint8_t *cells)
{
    return memcmp(cells, s->goal->cells, s->cells) == 0;
}

#endif
