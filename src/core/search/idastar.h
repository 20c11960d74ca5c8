/*
 * idastar.h - the one IDA* driver (idastar.c) and what a node expansion
 * plugs into it (private to the core).
 *
 * The driver owns what every IDA* shares: the iteration over f bounds,
 * the node budget, the clock and cancel checks, the counters, the depth
 * cap, and turning the found path into the answer. A plug-in owns the
 * depth-first probe under one bound, specialised for a board size and a
 * heuristic. There are three: the generic one (any size, any heuristic
 * through its hooks) in idastar.c, the pattern database one for 4x4 and
 * 5x5 in idastar_pdb.c, and the packed-board one for 3x3 and 4x4 with
 * the table-shaped heuristics in idastar_packed.c. puz__idastar picks the
 * first that applies: pdb, packed, generic.
 */
#ifndef PUZ_IDASTAR_H
#define PUZ_IDASTAR_H

#include <stdint.h>

#include "search/searches.h"

/* What the driver and a plug-in share during one search. */
struct puz__ida {
    struct puz__search *s;
    unsigned bound;             /* the f bound of this iteration */
    unsigned next_bound;        /* smallest f seen above it */
    unsigned max_depth;         /* room in path; deeper bounds stop */
    unsigned found_len;         /* path length once the goal is hit */
    enum puz_status stop;       /* PUZ_SOLVED while the search may go on */
    uint64_t expanded;          /* all iterations so far */
    uint64_t generated;         /* this iteration; the driver sums them */
    uint64_t max_nodes;         /* UINT64_MAX when unlimited */
    uint8_t *path;              /* blank directions, max_depth of them */
    /* Set while this is one work unit of a parallel iteration
     * (idastar_units.c): its limit checks go through the shared state. */
    struct puz__ida_units *units;
    uint64_t reported;          /* expansions already added to units */
    uint64_t reported_gen;      /* and generations */
    /* The smallest h of a node this probe expanded (a plug-in that cuts
     * units keeps it), and the last iteration's units with theirs:
     * idastar_units.c orders the next iteration's units by it. */
    unsigned min_h;
    const struct puz__ida_hist *hist;
};

/* A limit check of a unit: adds its counts to the shared ones, stops it
 * when another unit has found the goal or a limit was hit. */
enum puz_status puz__ida_unit_check(struct puz__ida *ida);

/*
 * A plug-in: iterate() probes from the root under ida->bound, feeding
 * every f above it to puz__ida_over() and counting expansions with
 * puz__ida_expand(); it returns 1 with ida->path and ida->found_len set
 * when it reached the goal. map_path (may be NULL) turns the found
 * directions into the caller's frame in place.
 */
struct puz__ida_plugin {
    int (*iterate)(struct puz__ida *ida, void *self);
    void (*map_path)(const void *self, uint8_t *dirs, unsigned len);
    /*
     * For parallel iterations (both NULL: always serial). frontier walks
     * the tree under ida->bound exactly as iterate would, down to depth
     * cut, counting its expansions in ida; each node at depth cut is a
     * unit: its cut moves go to moves + cut * k (moves NULL: only
     * counted), *count is how many. Returns 1 (ida->path, found_len set)
     * when the goal lies above the cut.
     */
    int (*frontier)(struct puz__ida *ida, void *self, unsigned cut,
                    uint8_t *moves, unsigned *count);
    /*
     * Run one unit: replay its cut moves from the root on a private copy
     * of self (self is only read: units run at once on many threads),
     * then probe below as iterate does, with ida (the unit's own: bound,
     * counters from 0, a path buffer of max_depth + 1) taking the counts.
     * Returns 1 with ida->path and found_len set on reaching the goal.
     */
    int (*unit)(struct puz__ida *ida, const void *self,
                const uint8_t *moves, unsigned cut);
};

/* One iteration cut into units and run through s->opts->run; the same
 * contract as plugin->iterate. In idastar_units.c. */
int puz__ida_iterate_units(struct puz__ida *ida,
                           const struct puz__ida_plugin *pl, void *self);

/* puz_solve_unit's work: s->unit run as pl->unit would run it inside
 * an iteration, into s->unit_out. PUZ_EINVAL when pl cannot cut units
 * or the unit does not fit. In idastar_units.c. */
puz_err puz__ida_one_unit(struct puz__ida *ida,
                          const struct puz__ida_plugin *pl, void *self);

/* Count one expansion; every PUZ__IDA_CHECK_MASK + 1 look at the clock
 * and the cancel flag.
 * Returns nonzero when the search must stop (ida->stop says why). */
static inline int puz__ida_expand(struct puz__ida *ida)
{
    uint64_t e = ++ida->expanded;

    if (e > ida->max_nodes) {
        ida->stop = PUZ_LIMIT_NODES;
    } else if ((e & PUZ__IDA_CHECK_MASK) == 0 && ida->units != NULL) {
        ida->stop = puz__ida_unit_check(ida);
    } else if ((e & PUZ__IDA_CHECK_MASK) == 0) {
        /* the counters reach the result here, where progress reads them */
        ida->s->out->stats.expanded = e;
        ida->s->out->stats.generated += ida->generated;
        ida->generated = 0;
        ida->stop = puz__check_limits(ida->s);
    }
    return ida->stop != PUZ_SOLVED;
}

/* A node or child with f over the bound: remember the smallest such f. */
static inline void puz__ida_over(struct puz__ida *ida, unsigned f)
{
    if (f < ida->next_bound)
        ida->next_bound = f;
}

/* Prepare ida for s (limits, counters) with room for max_depth moves
 * from s's arena; PUZ_ENOMEM when the arena cannot hold the path. */
puz_err puz__ida_init(struct puz__ida *ida, struct puz__search *s,
                      unsigned max_depth);
/* Run the iterations from root value h0 until the goal, a limit or no
 * bound is left; sets s->out's status, path and counters. */
puz_err puz__ida_run(struct puz__ida *ida, unsigned h0,
                     const struct puz__ida_plugin *pl, void *self);

/* The pattern database plug-in (idastar_pdb.c): 4x4 and 5x5 boards with
 * the `pdb` heuristic and a set loaded. PUZ_EINVAL when it does not
 * apply (then nothing was searched). */
puz_err puz__idastar_pdb(struct puz__search *s);

/* The packed-board plug-in (idastar_packed.c): 3x3 and 4x4 boards with a
 * heuristic that has tables (puz__htables), searched within max_depth
 * moves. PUZ_EINVAL when it does not apply or finds no room (then
 * nothing was searched or counted). */
puz_err puz__idastar_packed(struct puz__search *s, unsigned max_depth);

#endif
