/*
 * idastar.c - iterative-deepening A*: depth-first probes bounded by
 * f = g + h, each bound the smallest f that exceeded the previous one.
 * Memory is the current path only, so it scales to boards where A*'s
 * closed set would not fit.
 *
 * This file is the one driver (iterations, budget, clock, path) and the
 * generic plug-in: any size, any heuristic through its hooks. The board
 * is changed in place and restored on the way back; the heuristic is
 * updated per move, never recomputed; a move never undoes the previous
 * one. 4x4 and 5x5 with pattern databases use the specialised plug-in of
 * idastar_pdb.c instead, 3x3 and 4x4 with the table-shaped heuristics
 * that of idastar_packed.c.
 */
#include <string.h>

#include "heur/pdb_impl.h"
#include "search/idastar.h"

#define IDA_MAX_DEPTH 1000u

struct ida {
    struct puz__ida c;
    /* legal blank moves per cell, so the loop never tests for walls */
    uint8_t nmoves[PUZ_MAX_CELLS];
    uint8_t move_dir[PUZ_MAX_CELLS][4];
    uint8_t move_to[PUZ_MAX_CELLS][4];
    uint8_t cells[PUZ_MAX_CELLS];
    unsigned start_blank, h0;
    /* the hot loop's inputs, copied out of s to save pointer chasing */
    unsigned (*update)(const void *, const uint8_t *, unsigned, unsigned,
                       unsigned, unsigned);
    unsigned (*eval)(const void *, const uint8_t *);
    unsigned (*state_update)(const void *, const uint8_t *, const void *,
                             void *, unsigned, unsigned, unsigned, unsigned);
    unsigned char *states;      /* the heuristic's state per depth */
    size_t state_size;
    const void *hctx;
};

puz_err puz__ida_init(struct puz__ida *ida, struct puz__search *s,
                      unsigned max_depth)
{
    memset(ida, 0, sizeof(*ida));
    ida->s = s;
    ida->stop = PUZ_SOLVED;
    ida->max_depth = max_depth;
    ida->max_nodes = s->limits->max_nodes ? s->limits->max_nodes
                                          : UINT64_MAX;
    ida->path = puz_arena_alloc(s->arena, max_depth + 1);
    return ida->path != NULL ? PUZ_OK : PUZ_ENOMEM;
}

puz_err puz__ida_run(struct puz__ida *ida, unsigned h0,
                     const struct puz__ida_plugin *pl, void *self)
{
    struct puz__search *s = ida->s;

    if (s->unit != NULL)            /* puz_solve_unit: one unit, no loop */
        return puz__ida_one_unit(ida, pl, self);
    for (ida->bound = h0;; ida->bound = ida->next_bound) {
        int found;

        ida->next_bound = UINT32_MAX;
        s->bound = ida->bound;          /* for progress reports */
        if (pl->unit != NULL && s->opts != NULL && s->opts->threads > 1)
            found = puz__ida_iterate_units(ida, pl, self);
        else
            found = pl->iterate(ida, self);
        s->out->stats.generated += ida->generated;
        s->out->stats.expanded = ida->expanded;
        if (s->trace)
            puz_trace_iteration(s->trace, ida->bound, ida->expanded);
        ida->generated = 0;
        if (found) {
            if (pl->map_path != NULL)
                pl->map_path(self, ida->path, ida->found_len);
            s->out->status = puz__set_path(s, ida->path, ida->found_len)
                                     == PUZ_OK ? PUZ_SOLVED
                                               : PUZ_LIMIT_MEMORY;
            return PUZ_OK;
        }
        if (ida->stop != PUZ_SOLVED || ida->next_bound == UINT32_MAX ||
            ida->next_bound > ida->max_depth) {
            s->out->status = ida->stop != PUZ_SOLVED ? ida->stop
                                                     : PUZ_LIMIT_DEPTH;
            return PUZ_OK;
        }
        if (s->out->stats.max_frontier < ida->next_bound)
            s->out->stats.max_frontier = ida->next_bound;
    }
}

/* h of the start; with a per-node heuristic state, its stack too. */
static unsigned start_heuristic(struct ida *ia)
{
    struct puz__search *s = ia->c.s;
    const struct puz_heuristic *h = s->h;

    if (h->state_size > 0 && h->state_size <= PUZ__HSTATE_MAX) {
        ia->states = puz_arena_alloc(s->arena,
                                     (IDA_MAX_DEPTH + 2) * h->state_size);
        if (ia->states != NULL) {
            ia->state_size = h->state_size;
            ia->state_update = h->state_update;
            return h->state_init(ia->hctx, ia->cells, ia->states);
        }
    }
    return h->eval(ia->hctx, ia->cells);
}

static int at_goal(const struct ida *ia)
{
    const struct puz__search *s = ia->c.s;

    return memcmp(ia->cells, s->goal->cells, s->cells) == 0;
}

/* Probe below the node with the blank at `blank`, g moves from the start
 * and heuristic h. Returns 1 when the goal was reached. */
static int probe(struct ida *ia, unsigned blank, unsigned g, unsigned h,
                 unsigned back)
{
    unsigned f = g + h;

    if (f > ia->c.bound) {
        puz__ida_over(&ia->c, f);
        return 0;
    }
    if (h == 0 && at_goal(ia)) {
        ia->c.found_len = g;
        return 1;
    }
    if (g >= ia->c.max_depth || puz__ida_expand(&ia->c))
        return 0;
    for (unsigned k = 0; k < ia->nmoves[blank]; k++) {
        unsigned d = ia->move_dir[blank][k], from = ia->move_to[blank][k];
        unsigned tile, ch;
        if (d == back)
            continue;
        tile = ia->cells[from];
        ia->cells[blank] = (uint8_t)tile;
        ia->cells[from] = 0;
        ia->c.generated++;
        if (ia->state_update != NULL)
            ch = ia->state_update(ia->hctx, ia->cells,
                                  ia->states + g * ia->state_size,
                                  ia->states + (g + 1) * ia->state_size, h,
                                  tile, from, blank);
        else if (ia->update != NULL)
            ch = ia->update(ia->hctx, ia->cells, h, tile, from, blank);
        else
            ch = ia->eval(ia->hctx, ia->cells);
        ia->c.path[g] = (uint8_t)d;
        if (g + 1 + ch > ia->c.bound)   /* pruned: spare the call */
            puz__ida_over(&ia->c, g + 1 + ch);
        else if (probe(ia, from, g + 1, ch, d ^ 1u))
            return 1;
        ia->cells[from] = (uint8_t)tile;
        ia->cells[blank] = 0;
        if (ia->c.stop != PUZ_SOLVED)
            return 0;
    }
    return 0;
}

static int iterate(struct puz__ida *c, void *self)
{
    struct ida *ia = self;

    (void)c;
    return probe(ia, ia->start_blank, 0, ia->h0, PUZ_NO_DIR);
}

static const struct puz__ida_plugin generic = { iterate, NULL, NULL, NULL };

puz_err puz__idastar(struct puz__search *s)
{
    struct ida ia;

    if (s->h == &puz__h_pdb && puz__idastar_pdb(s) != PUZ_EINVAL)
        return PUZ_OK;
    if (puz__idastar_packed(s, IDA_MAX_DEPTH) != PUZ_EINVAL)
        return PUZ_OK;
    memset(&ia, 0, sizeof(ia));
    if (puz__ida_init(&ia.c, s, IDA_MAX_DEPTH) != PUZ_OK) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    puz__moves_lists(s->rows, s->n, ia.nmoves, ia.move_dir, ia.move_to);
    memcpy(ia.cells, s->start->cells, s->cells);
    ia.update = s->h->update;
    ia.eval = s->h->eval;
    ia.hctx = s->hctx;
    ia.start_blank = s->start->blank;
    ia.h0 = start_heuristic(&ia);
    return puz__ida_run(&ia.c, ia.h0, &generic, &ia);
}

puz_err puz__idastar_tables(const struct puz_board *start,
                            const struct puz_board *goal,
                            const struct puz_tables *t,
                            const struct puz_limits *l, puz_arena *a,
                            struct puz_result *out)
{
    struct puz__search s;
    struct puz__hargs args = { goal, t, a };
    size_t budget = puz_arena_budget(a);
    puz_err rc;

    memset(out, 0, sizeof(*out));
    out->algorithm = PUZ_ALG_IDASTAR;
    out->heuristic = &puz__h_pdb;
    puz__search_init(&s, start, goal, l, t, a, out);
    s.started_us = puz_clock_mono_us();
    s.h = &puz__h_pdb;
    puz__arena_cap(a, l->max_bytes);
    rc = s.h->prepare(&args, &s.hctx, out->reason);
    if (rc == PUZ_OK && s.hctx == NULL)
        rc = PUZ_EINVAL;
    if (rc == PUZ_OK)
        rc = puz__idastar(&s);
    puz_arena_set_budget(a, budget);
    if (rc == PUZ_ENOMEM) {     /* as puz_solve: reported as limit_memory */
        out->status = PUZ_LIMIT_MEMORY;
        rc = PUZ_OK;
    }
    if (out->status != PUZ_SOLVED)
        out->length = 0;
    return rc;
}
