/*
 * idastar_units.c - one IDA* iteration cut into independent work units,
 * so that a caller's threads can share it (puz_solve_opts.threads, .run).
 *
 * The plug-in walks the tree under the bound down to a cut depth, as its
 * probe would, and every node at that depth becomes a unit: its moves
 * from the root, nothing else. The cut is the shallowest depth with at
 * least PUZ_UNITS_PER_THREAD units per thread, or more after a big
 * iteration (ORDER_UNITS below; one walk per depth to count: a few
 * thousand nodes). A unit replays its moves on a private
 * copy of the plug-in's state and probes below; its counts and next
 * bound go to its own slot, so running a unit again (its first run was
 * lost) overwrites rather than adds, and the iteration's counts are the
 * frontier's plus the sum over slots: the same tree, counted whole.
 *
 * Units are handed out nearest the goal first, as the iteration before
 * found them (order_units below): the last iteration then reaches the
 * goal's unit sooner. The first unit to reach the goal wins; the others
 * stop at their next limit check. Every solution an iteration finds has
 * length = its bound (all shorter bounds were exhausted), so stopping
 * them keeps the answer optimal. The core starts no threads: units go to the caller's runner;
 * those it did not finish are given to it again, and the calling thread
 * runs them itself after a call that finished none.
 *
 * A runner may also send a unit elsewhere (another instance: jobq.h):
 * puz_units_describe gives it as data, the other side runs it with
 * puz_solve_unit (puz__ida_one_unit here: the same replay and probe on
 * a search set up from the same start, goal and tables), and
 * puz_units_store files the answer into the unit's slot.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/idastar.h"

#define CUT_MAX PUZ_UNIT_CUT_MAX    /* deepest frontier tried */
#define NO_KEY UINT32_MAX           /* a unit's h not known: goes last */
#define UNIT_PATH_MAX PUZ_UNIT_PATH_MAX  /* a unit's path, on its stack */

struct unit_slot {
    atomic_int done;                /* set by the run that finished it */
    atomic_int claimed;             /* filed by puz_units_store */
    int found;
    unsigned next_bound;
    unsigned min_h;                 /* NO_KEY: not known (run elsewhere) */
    uint64_t expanded, generated;
};

struct puz__ida_units {
    struct puz__search *s;
    const struct puz__ida_plugin *pl;
    const void *self;
    struct puz__ida root;           /* what each unit's search starts as */
    const uint8_t *moves;           /* cut moves per unit */
    unsigned cut;
    struct unit_slot *slot;
    const unsigned *map;            /* this call's piece -> unit */
    atomic_int winner;              /* -1, or the unit whose path is kept */
    atomic_int stop;                /* a limit's status, else PUZ_SOLVED */
    atomic_uint_fast64_t expanded, generated;   /* for limits, progress */
    uint64_t base_expanded, base_generated;     /* before the units */
    atomic_flag busy;               /* one thread in the progress callback */
    uint8_t *path;                  /* the winner's */
    unsigned found_len;
};

static enum puz_status limits_hit(const struct puz__ida_units *u, uint64_t e)
{
    return puz__limits_hit(u->s->limits, e);
}

/* The counts so far (e expanded, g generated) to whoever watches, from
 * one thread at a time: the driver waits in run(), nobody else touches
 * out meanwhile. */
static void watch(struct puz__ida_units *u, uint64_t e, uint64_t g)
{
    if (u->s->watch != NULL && !atomic_flag_test_and_set(&u->busy)) {
        u->s->out->stats.expanded = e;
        u->s->out->stats.generated = g;
        puz__progress(u->s, false);
        atomic_flag_clear(&u->busy);
    }
}

/* Stop every unit when e expansions hit a limit (the first reason
 * stays). Returns the limit's status, else PUZ_SOLVED. */
static enum puz_status stop_at_limit(struct puz__ida_units *u, uint64_t e)
{
    enum puz_status st = limits_hit(u, e);
    int ok = PUZ_SOLVED;

    if (st != PUZ_SOLVED)
        atomic_compare_exchange_strong(&u->stop, &ok, (int)st);
    return st;
}

/* Add de expansions and dg generations to the shared counts; the
 * solve's totals after them into *e and *g. */
static void add_counts(struct puz__ida_units *u, uint64_t de, uint64_t dg,
                       uint64_t *e, uint64_t *g)
{
    *e = u->base_expanded + atomic_fetch_add(&u->expanded, de) + de;
    *g = u->base_generated + atomic_fetch_add(&u->generated, dg) + dg;
}

enum puz_status puz__ida_unit_check(struct puz__ida *ida)
{
    struct puz__ida_units *u = ida->units;
    uint64_t e, g;
    enum puz_status st;

    add_counts(u, ida->expanded - ida->reported,
               ida->generated - ida->reported_gen, &e, &g);

    ida->reported = ida->expanded;
    ida->reported_gen = ida->generated;
    st = (enum puz_status)atomic_load(&u->stop);
    if (st != PUZ_SOLVED)
        return st;
    if (atomic_load(&u->winner) >= 0)
        return PUZ_CANCELLED;       /* another unit has the answer */
    watch(u, e, g);
    return stop_at_limit(u, e);
}

/* A finished unit's numbers into its slot (and the shared counts and
 * the winner's path); the slot marked done last. */
static void file_unit(struct puz__ida_units *u, unsigned k, int found,
                      unsigned next_bound, uint64_t expanded,
                      uint64_t generated, const uint8_t *path, unsigned len)
{
    struct unit_slot *sl = &u->slot[k];
    int none = -1;

    sl->expanded = expanded;
    sl->generated = generated;
    sl->next_bound = next_bound;
    sl->found = found;
    if (found && atomic_compare_exchange_strong(&u->winner, &none, (int)k)) {
        memcpy(u->path, path, len);
        u->found_len = len;
    }
    atomic_store_explicit(&sl->done, 1, memory_order_release);
}

static void run_unit(void *work, unsigned i)
{
    struct puz__ida_units *u = work;
    unsigned k = u->map[i];
    uint8_t path[UNIT_PATH_MAX];
    struct puz__ida ida = u->root;
    uint64_t e, g;
    int found;

    if (atomic_load(&u->winner) >= 0 ||
        atomic_load(&u->stop) != PUZ_SOLVED)
        return;                     /* not needed any more */
    ida.path = path;
    ida.units = u;
    ida.min_h = NO_KEY;
    found = u->pl->unit(&ida, u->self, u->moves + (size_t)k * u->cut,
                        u->cut);
    add_counts(u, ida.expanded - ida.reported,
               ida.generated - ida.reported_gen, &e, &g);
    /* a unit under 4096 expansions never met a limit check: without this
     * a run of small units (nearest first puts them anywhere) went past
     * a node budget unchecked */
    stop_at_limit(u, e);
    u->slot[k].min_h = ida.min_h;
    file_unit(u, k, found, ida.next_bound, ida.expanded, ida.generated,
              path, ida.found_len);
}

void puz_units_describe(const void *work, unsigned i, struct puz_unit *out)
{
    const struct puz__ida_units *u = work;
    unsigned k = u->map[i];

    memset(out, 0, sizeof(*out));
    out->bound = u->root.bound;
    out->cut = u->cut;
    memcpy(out->moves, u->moves + (size_t)k * u->cut, u->cut);
}

void puz_units_store(void *work, unsigned i, const struct puz_unit_result *r)
{
    struct puz__ida_units *u = work;
    unsigned k = u->map[i];
    uint64_t e, g;
    int zero = 0;

    if (r->status != PUZ_SOLVED || (r->found && (r->length > UNIT_PATH_MAX
                                                  || r->length == 0)))
        return;
    /* claimed by the first filing: a second result of the same unit
     * (it ran twice) is the same tree and is dropped */
    if (!atomic_compare_exchange_strong(&u->slot[k].claimed, &zero, 1))
        return;
    add_counts(u, r->expanded, r->generated, &e, &g);
    watch(u, e, g);     /* the remote units' work as it comes in */
    file_unit(u, k, r->found, r->next_bound, r->expanded, r->generated,
              r->path, r->length);
    if (!r->found)
        stop_at_limit(u, e);
}

bool puz_units_over(const void *work)
{
    const struct puz__ida_units *u = work;

    return atomic_load(&u->winner) >= 0 ||
           atomic_load(&u->stop) != PUZ_SOLVED;
}

puz_err puz__ida_one_unit(struct puz__ida *ida,
                          const struct puz__ida_plugin *pl, void *self)
{
    struct puz__search *s = ida->s;
    const struct puz_unit *un = s->unit;
    struct puz_unit_result *r = s->unit_out;
    int found;

    if (pl->unit == NULL || un->cut == 0 || un->cut > CUT_MAX ||
        un->bound >= UNIT_PATH_MAX || un->bound > ida->max_depth ||
        un->cut > un->bound) {
        snprintf(s->out->reason, sizeof(s->out->reason), "not a unit of "
                 "this search (IDA* with pdb tables cuts units)");
        return PUZ_EINVAL;
    }
    for (unsigned g = 0; g < un->cut; g++)
        if (un->moves[g] > 3) {
            snprintf(s->out->reason, sizeof(s->out->reason),
                     "a unit's move is a direction 0-3");
            return PUZ_EINVAL;
        }
    ida->bound = un->bound;
    ida->next_bound = UINT32_MAX;
    s->bound = un->bound;
    found = pl->unit(ida, self, un->moves, un->cut);
    r->found = found != 0;
    r->status = found ? PUZ_SOLVED : ida->stop;
    r->next_bound = ida->next_bound;
    r->expanded = ida->expanded;
    /* the limit checks moved counts into out as they went */
    r->generated = s->out->stats.generated + ida->generated;
    r->length = found ? ida->found_len : 0;
    if (found)
        memcpy(r->path, ida->path, ida->found_len);
    s->out->stats.expanded = r->expanded;
    s->out->stats.generated = r->generated;
    s->out->status = r->status;
    return PUZ_OK;
}

/* The shallowest cut with at least target units, or the depth where
 * none is left; *n of them. 0 when the goal lies above the cut (then
 * units are not worth it). The counting walks leave ida as it was. */
static unsigned pick_cut(struct puz__ida *ida,
                         const struct puz__ida_plugin *pl, void *self,
                         unsigned target, unsigned *n)
{
    for (unsigned cut = 1; cut < CUT_MAX; cut++) {
        struct puz__ida snap = *ida;
        int found;

        *n = 0;
        found = pl->frontier(ida, self, cut, NULL, n);
        *ida = snap;
        if (found)
            return 0;
        if (*n == 0 || *n >= target)
            return cut;
    }
    return CUT_MAX - 1;
}

/* Hand the pending units to the runner until every one has finished, a
 * unit found the goal or a limit stopped them. Returns the re-runs. */
static unsigned run_rounds(struct puz__ida_units *u, unsigned *map,
                           unsigned pending)
{
    const struct puz_solve_opts *o = u->s->opts;
    unsigned rerun = 0;
    int serial = o->run == NULL;

    while (pending > 0) {
        unsigned left = 0;

        u->map = map;
        if (serial) {
            for (unsigned i = 0; i < pending; i++)
                run_unit(u, i);
        } else {
            o->run(run_unit, u, pending, o->run_user);
        }
        if (atomic_load(&u->winner) >= 0 ||
            atomic_load(&u->stop) != PUZ_SOLVED)
            break;
        for (unsigned i = 0; i < pending; i++)
            if (!atomic_load_explicit(&u->slot[map[i]].done,
                                      memory_order_acquire))
                map[left++] = map[i];
        /* a call that finished nothing: this thread runs the rest */
        serial = serial || left == pending;
        rerun += left;
        pending = left;
    }
    return rerun;
}

static void report(const struct puz__ida_units *u, const unsigned *order,
                   unsigned n, unsigned rerun, uint64_t frontier)
{
    const struct puz_solve_opts *o = u->s->opts;
    struct puz_units_report r = { u->root.bound, u->cut, n, rerun,
                                  frontier, NULL };
    uint64_t *e;

    if (o->units == NULL)
        return;
    e = puz_arena_alloc(u->s->arena, (n + 1) * sizeof(*e));
    if (e == NULL)
        return;
    for (unsigned i = 0; i < n; i++)
        e[i] = u->slot[order != NULL ? order[i] : i].expanded;
    r.expanded = e;
    o->units(&r, o->units_user);
}

/* Sum the slots into ida; 1 with the winner's path when there is one. */
static int combine(struct puz__ida *ida, struct puz__ida_units *u,
                   unsigned n)
{
    for (unsigned k = 0; k < n; k++) {
        ida->expanded += u->slot[k].expanded;
        ida->generated += u->slot[k].generated;
        if (u->slot[k].next_bound < ida->next_bound)
            ida->next_bound = u->slot[k].next_bound;
    }
    if (atomic_load(&u->winner) >= 0) {
        memcpy(ida->path, u->path, u->found_len);
        ida->found_len = u->found_len;
        return 1;
    }
    ida->stop = (enum puz_status)atomic_load(&u->stop);
    return 0;
}

/* Units, slots, piece map and the winner's path, from the arena. */
static int alloc_units(struct puz__ida_units *u, puz_arena *a, unsigned n,
                       uint8_t **moves, unsigned **map)
{
    *moves = puz_arena_alloc(a, (size_t)n * u->cut + 1);
    *map = puz_arena_alloc(a, (size_t)n * sizeof(**map));
    u->slot = puz_arena_alloc(a, (size_t)n * sizeof(*u->slot));
    u->path = puz_arena_alloc(a, UNIT_PATH_MAX);
    if (*moves == NULL || *map == NULL || u->slot == NULL || u->path == NULL)
        return 0;
    for (unsigned k = 0; k < n; k++) {
        atomic_init(&u->slot[k].done, 0);
        atomic_init(&u->slot[k].claimed, 0);
        u->slot[k].found = 0;
        u->slot[k].next_bound = UINT32_MAX;
        u->slot[k].min_h = NO_KEY;
        u->slot[k].expanded = u->slot[k].generated = 0;
        (*map)[k] = k;
    }
    return 1;
}

/*
 * The order units are handed out in: nearest the goal first. Every
 * iteration but the last runs all its units, so the order only matters
 * in the last one, which stops at the first unit that reaches the goal.
 * The unit holding it is, almost always, among those whose subtrees came
 * nearest the goal (the smallest h expanded) in the iteration before:
 * on Korf & Felner's easiest 24-puzzles the goal's unit had the smallest
 * or near-smallest such h every time, while in the walk's own order it
 * came after units with up to three times its work (docs/pdb.md). A
 * unit is matched to the last iteration's units by its moves: the one
 * its moves start with (this cut is as deep or deeper), or the nearest
 * of those whose moves start with its own (shallower). A unit with no
 * match (its subtree lay above the last bound) or matched only to units
 * run elsewhere goes last. Ties keep the walk's order.
 *
 * Moves are packed 2 bits each from the top of a 64-bit word (a cut is
 * under 32 moves), so words sort as the move strings do and a prefix is
 * a mask.
 */
struct hist_unit {
    uint64_t moves;
    unsigned min_h;
};

/* An iteration's units, with how near the goal each one's probe came. */
struct puz__ida_hist {
    unsigned cut, n;
    const struct hist_unit *u;      /* sorted by moves */
    uint64_t expanded;              /* the whole iteration's */
};

/*
 * The finer the cut, the sharper the order: on the 10 easiest
 * 24-puzzles (6-6-6-6z2, 2 threads) at least 32 units per iteration
 * expanded 9.06e8 nodes in all, 256 8.04e8 and 2048 7.84e8, against
 * 1.23e9 in the walk's order. A unit costs a replay of its moves and a
 * copy of the plug-in's state (~2 KB), and a slot and its moves in the
 * arena, so an iteration is cut finer only when the one before was big:
 * a unit per ORDER_NODES of its expansions, at most ORDER_UNITS.
 */
#define ORDER_NODES (UINT64_C(1) << 16)
#define ORDER_UNITS 1024u

static uint64_t pack_moves(const uint8_t *m, unsigned cut)
{
    uint64_t w = 0;

    for (unsigned i = 0; i < cut; i++)
        w |= (uint64_t)(m[i] & 3u) << (62 - 2 * i);
    return w;
}

static uint64_t prefix_mask(unsigned len)
{
    return len == 0 ? 0 : ~UINT64_C(0) << (64 - 2 * len);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* hist_unit starts with its moves: sorted as words. */
static int cmp_hist(const void *a, const void *b)
{
    return cmp_u64(&((const struct hist_unit *)a)->moves,
                   &((const struct hist_unit *)b)->moves);
}

/* The smallest h of h's units that share moves with w (cut moves). */
static unsigned hist_key(const struct puz__ida_hist *h, uint64_t w,
                         unsigned cut)
{
    uint64_t mask = prefix_mask(cut < h->cut ? cut : h->cut), p = w & mask;
    unsigned lo = 0, hi = h->n, key = NO_KEY;

    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if ((h->u[mid].moves & mask) < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < h->n && (h->u[lo].moves & mask) == p; lo++)
        if (h->u[lo].min_h < key)
            key = h->u[lo].min_h;
    return key;
}

/* Sort map (the identity on entry) by the keys; without memory the
 * walk's order stays. */
static void order_units(const struct puz__ida_units *u, unsigned *map,
                        unsigned n, const struct puz__ida_hist *h,
                        puz_arena *a)
{
    uint64_t *kv;

    if (h == NULL || h->n == 0 ||
        (kv = puz_arena_alloc(a, (size_t)n * sizeof(*kv))) == NULL)
        return;
    for (unsigned k = 0; k < n; k++)
        kv[k] = (uint64_t)hist_key(h, pack_moves(u->moves + (size_t)k *
                                                 u->cut, u->cut), u->cut)
                << 32 | k;
    qsort(kv, n, sizeof(*kv), cmp_u64);
    for (unsigned k = 0; k < n; k++)
        map[k] = (unsigned)(kv[k] & UINT32_MAX);
}

/* This iteration's units for the next one's order_units; NULL without
 * memory (the next keeps the walk's order). */
static const struct puz__ida_hist *keep_hist(const struct puz__ida_units *u,
                                             unsigned n, uint64_t expanded,
                                             puz_arena *a)
{
    struct puz__ida_hist *h = puz_arena_alloc(a, sizeof(*h));
    struct hist_unit *hu = puz_arena_alloc(a, (size_t)n * sizeof(*hu));

    if (h == NULL || hu == NULL)
        return NULL;
    for (unsigned k = 0; k < n; k++) {
        hu[k].moves = pack_moves(u->moves + (size_t)k * u->cut, u->cut);
        hu[k].min_h = u->slot[k].min_h;
    }
    qsort(hu, n, sizeof(*hu), cmp_hist);
    h->cut = u->cut;
    h->n = n;
    h->u = hu;
    h->expanded = expanded;
    return h;
}

int puz__ida_iterate_units(struct puz__ida *ida,
                           const struct puz__ida_plugin *pl, void *self)
{
    struct puz__ida_units u;
    unsigned threads = ida->s->opts->threads, n = 0, cnt = 0, rerun, target;

    uint64_t before = ida->expanded;
    uint8_t *moves;
    unsigned *map, *order;

    if (ida->max_depth >= UNIT_PATH_MAX)
        return pl->iterate(ida, self);
    if (threads > PUZ_THREADS_MAX)
        threads = PUZ_THREADS_MAX;
    memset(&u, 0, sizeof(u));
    u.s = ida->s;
    u.pl = pl;
    u.self = self;
    target = threads * PUZ_UNITS_PER_THREAD;
    if (ida->hist != NULL && !ida->s->opts->units_walk_order) {
        uint64_t finer = ida->hist->expanded / ORDER_NODES;
        if (finer > ORDER_UNITS)
            finer = ORDER_UNITS;
        if (finer > target)
            target = (unsigned)finer;
    }
    u.cut = pick_cut(ida, pl, self, target, &n);
    if (u.cut == 0 || n == 0 ||
        !alloc_units(&u, ida->s->arena, n, &moves, &map)) {
        ida->hist = NULL;
        return pl->iterate(ida, self);
    }
    /* the same walk, counted and recorded this time */
    if (pl->frontier(ida, self, u.cut, moves, &cnt))
        return 1;
    u.moves = moves;
    if (!ida->s->opts->units_walk_order)
        order_units(&u, map, n, ida->hist, ida->s->arena);
    /* the order handed out, for the units report (run_rounds edits map) */
    order = ida->s->opts->units == NULL ? NULL
            : puz_arena_alloc(ida->s->arena, (size_t)n * sizeof(*order));
    if (order != NULL)
        memcpy(order, map, (size_t)n * sizeof(*order));
    u.root = *ida;
    u.root.expanded = u.root.generated = 0;
    u.root.reported = u.root.reported_gen = 0;
    u.root.next_bound = UINT32_MAX;
    u.root.max_nodes = UINT64_MAX;  /* checked on the shared count */
    u.root.hist = NULL;
    u.base_expanded = ida->expanded;
    u.base_generated = ida->s->out->stats.generated + ida->generated;
    atomic_init(&u.winner, -1);
    atomic_init(&u.stop, PUZ_SOLVED);
    atomic_init(&u.expanded, 0);
    atomic_init(&u.generated, 0);
    atomic_flag_clear(&u.busy);
    rerun = run_rounds(&u, map, n);
    report(&u, order, n, rerun, ida->expanded - before);
    if (combine(ida, &u, n))
        return 1;
    ida->hist = keep_hist(&u, n, ida->expanded - before, ida->s->arena);
    return 0;
}
