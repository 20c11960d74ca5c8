/*
 * searches.h - the search algorithms of this room, as the registry
 * (solve/algorithm.c, each row's run) and the large-board methods call
 * them (private to the core). Each takes a
 * prepared puz__search (base/search.h), sets s->out->status (and the
 * path when solved) and returns PUZ_OK unless something outside the
 * search failed.
 */
#ifndef PUZ_SEARCHES_H
#define PUZ_SEARCHES_H

#include "base/search.h"
#include "heur/heuristic_impl.h"

/* Best-first search (astar.c), with its open list ordered by one of
 * the modes below: A*, greedy, branch and bound, weighted A*. */
puz_err puz__astar(struct puz__search *s);
puz_err puz__greedy(struct puz__search *s);
puz_err puz__bnb(struct puz__search *s);
puz_err puz__wastar(struct puz__search *s);
/* IDA* (idastar.c): the pattern database plug-in on 4x4 and 5x5 with
 * the pdb heuristic, the packed one on 3x3 and 4x4 with table-shaped
 * heuristics, the generic one otherwise. */
puz_err puz__idastar(struct puz__search *s);
/* An optimal path from start to goal by IDA* with the pattern databases
 * of t, which serve goal: what puz_solve does with that algorithm and
 * heuristic, minus the parity check and the answer's bound (the
 * large-board methods' windows and last squares, solvable by
 * construction). Sets out's status, path and counters; limits' max_bytes
 * caps a's budget meanwhile. PUZ_EINVAL when t does not serve goal. */
puz_err puz__idastar_tables(const struct puz_board *start,
                            const struct puz_board *goal,
                            const struct puz_tables *t,
                            const struct puz_limits *l, puz_arena *a,
                            struct puz_result *out);
/* Blind searches (bfs.c, dfs.c), no heuristic. */
puz_err puz__bfs(struct puz__search *s);
puz_err puz__dfs(struct puz__search *s);

/* Modes of astar.c's best-first search: which priority orders the open
 * list. */
#define PUZ__PRIO_ASTAR 0    /* f = g + h, ties to larger g */
#define PUZ__PRIO_GREEDY 1   /* h only */
#define PUZ__PRIO_BNB 2      /* g + h, ties first come first served */
#define PUZ__PRIO_WEIGHTED 3 /* g + weight * h, ties to larger g */

/* Whether s can run on the packed searches' tables (A*'s fast loop,
 * IDA*'s packed plug-in): a 3x3 or 4x4 square whose heuristic gives
 * its h as tables, which then fill *t. */
static inline bool puz__packed_htables(const struct puz__search *s,
                                       struct puz__htables *t)
{
    return (s->n == 3 || s->n == 4) && s->rows == s->n &&
           s->h->as_tables != NULL && s->h->as_tables(s->hctx, t);
}

#endif
