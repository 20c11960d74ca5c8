/*
 * idastar.c - iterative-deepening A*: depth-first probes bounded by
 * f = g + h, each bound the smallest f that exceeded the previous one.
 * Memory is the current path only, so it scales to boards where A*'s
 * closed set would not fit. The board is changed in place and restored on
 * the way back; the heuristic is updated per move, never recomputed; a
 * move never undoes the previous one.
 */
#include <string.h>

#include "search.h"

#define IDA_MAX_DEPTH 1000u
#define IDA_FOUND UINT32_MAX

struct ida {
    struct puz__search *s;
    /* legal blank moves per cell, so the loop never tests for walls */
    uint8_t nmoves[PUZ_MAX_CELLS];
    uint8_t move_dir[PUZ_MAX_CELLS][4];
    uint8_t move_to[PUZ_MAX_CELLS][4];
    uint8_t cells[PUZ_MAX_CELLS];
    uint8_t *path;              /* blank directions, depth entries */
    unsigned bound;
    unsigned next_bound;        /* smallest f seen above bound */
    unsigned found_len;         /* path length once the goal is hit */
    enum puz_status stop;       /* PUZ_SOLVED while the search may go on */
    /* the hot loop's inputs, copied out of s to save pointer chasing */
    unsigned (*update)(const void *, const uint8_t *, unsigned, unsigned,
                       unsigned, unsigned);
    unsigned (*eval)(const void *, const uint8_t *);
    unsigned (*state_update)(const void *, const uint8_t *, const void *,
                             void *, unsigned, unsigned, unsigned, unsigned);
    unsigned char *states;      /* the heuristic's state per depth */
    size_t state_size;
    const void *hctx;
    uint64_t generated;
    uint64_t expanded;
    uint64_t max_nodes;         /* UINT64_MAX when unlimited */
};

static void init_moves(struct ida *ia, unsigned n)
{
    struct puz__moves mv;

    puz__moves_init(&mv, n);
    for (unsigned i = 0; i < n * n; i++) {
        ia->nmoves[i] = 0;
        for (unsigned d = 0; d < 4; d++) {
            if (mv.to[i][d] == 255)
                continue;
            ia->move_dir[i][ia->nmoves[i]] = (uint8_t)d;
            ia->move_to[i][ia->nmoves[i]++] = mv.to[i][d];
        }
    }
}

/* h of the start; with a per-node heuristic state, its stack too. */
static unsigned start_heuristic(struct ida *ia)
{
    const struct puz_heuristic *h = ia->s->h;

    if (h->state_size > 0 && h->state_size <= PUZ__HSTATE_MAX) {
        ia->states = puz_arena_alloc(ia->s->arena,
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
    return memcmp(ia->cells, ia->s->goal->cells, ia->s->cells) == 0;
}

/* Count one expansion and, every 4096, look at the clock and flag. The
 * counters live in ia and reach the result at the checks and the end. */
static int out_of_budget(struct ida *ia)
{
    uint64_t e = ++ia->expanded;

    if (e > ia->max_nodes) {
        ia->stop = PUZ_LIMIT_NODES;
    } else if ((e & 4095) == 0) {
        ia->s->out->stats.expanded = e;
        ia->s->out->stats.generated += ia->generated;
        ia->generated = 0;
        ia->stop = puz__check_limits(ia->s);
    }
    return ia->stop != PUZ_SOLVED;
}

/* Probe below the node with the blank at `blank`, g moves from the start
 * and heuristic h. Returns 1 when the goal was reached. */
static int probe(struct ida *ia, unsigned blank, unsigned g, unsigned h,
                 unsigned back)
{
    unsigned f = g + h;

    if (f > ia->bound) {
        if (f < ia->next_bound)
            ia->next_bound = f;
        return 0;
    }
    if (h == 0 && at_goal(ia)) {
        ia->found_len = g;
        return 1;
    }
    if (g >= IDA_MAX_DEPTH || out_of_budget(ia))
        return 0;
    for (unsigned k = 0; k < ia->nmoves[blank]; k++) {
        unsigned d = ia->move_dir[blank][k], from = ia->move_to[blank][k];
        unsigned tile, ch;
        if (d == back)
            continue;
        tile = ia->cells[from];
        ia->cells[blank] = (uint8_t)tile;
        ia->cells[from] = 0;
        ia->generated++;
        if (ia->state_update != NULL)
            ch = ia->state_update(ia->hctx, ia->cells,
                                  ia->states + g * ia->state_size,
                                  ia->states + (g + 1) * ia->state_size, h,
                                  tile, from, blank);
        else if (ia->update != NULL)
            ch = ia->update(ia->hctx, ia->cells, h, tile, from, blank);
        else
            ch = ia->eval(ia->hctx, ia->cells);
        ia->path[g] = (uint8_t)d;
        if (g + 1 + ch > ia->bound) {   /* pruned: spare the call */
            if (g + 1 + ch < ia->next_bound)
                ia->next_bound = g + 1 + ch;
        } else if (probe(ia, from, g + 1, ch, d ^ 1u)) {
            return 1;
        }
        ia->cells[from] = (uint8_t)tile;
        ia->cells[blank] = 0;
        if (ia->stop != PUZ_SOLVED)
            return 0;
    }
    return 0;
}

puz_err puz__idastar(struct puz__search *s)
{
    struct ida ia;
    unsigned h0;

    memset(&ia, 0, sizeof(ia));
    ia.s = s;
    ia.stop = PUZ_SOLVED;
    init_moves(&ia, s->n);
    memcpy(ia.cells, s->start->cells, s->cells);
    ia.path = puz_arena_alloc(s->arena, IDA_MAX_DEPTH + 1);
    if (ia.path == NULL) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    ia.max_nodes = s->limits->max_nodes ? s->limits->max_nodes : UINT64_MAX;
    ia.update = s->h->update;
    ia.eval = s->h->eval;
    ia.hctx = s->hctx;
    h0 = start_heuristic(&ia);
    for (ia.bound = h0;; ia.bound = ia.next_bound) {
        ia.next_bound = UINT32_MAX;
        s->bound = ia.bound;
        int found = probe(&ia, s->start->blank, 0, h0, PUZ_NO_DIR);

        s->out->stats.generated += ia.generated;
        s->out->stats.expanded = ia.expanded;
        if (s->trace)
            puz_trace_iteration(s->trace, ia.bound, ia.expanded);
        ia.generated = 0;
        if (found) {
            s->out->status = puz__set_path(s, ia.path, ia.found_len) == PUZ_OK
                                 ? PUZ_SOLVED : PUZ_LIMIT_MEMORY;
            return PUZ_OK;
        }
        if (ia.stop != PUZ_SOLVED || ia.next_bound == UINT32_MAX ||
            ia.next_bound > IDA_MAX_DEPTH) {
            s->out->status = ia.stop != PUZ_SOLVED ? ia.stop
                                                    : PUZ_LIMIT_DEPTH;
            return PUZ_OK;
        }
        if (ia.s->out->stats.max_frontier < ia.next_bound)
            ia.s->out->stats.max_frontier = ia.next_bound;
    }
}
