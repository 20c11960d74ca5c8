/*
 * search.c - what every search shares, below all of them: its set-up,
 * the blank's moves, the limit checks with the progress callback, the
 * arena budget of one solve, and writing a found path into the answer.
 * puz_solve() (solve.c) arms these and dispatches; the searches call
 * only down to here, never back into solve.c.
 */
#include "base/search.h"
#include "puz_clock.h"

#include <string.h>

void puz__moves_init(struct puz__moves *m, unsigned n)
{
    puz__moves_init_shape(m, n, n);
}

void puz__moves_init_shape(struct puz__moves *m, unsigned rows, unsigned n)
{
    /* rows and columns counted, not divided: every solve builds this */
    for (unsigned r = 0, i = 0; r < rows; r++) {
        for (unsigned c = 0; c < n; c++, i++) {
            m->to[i][PUZ_UP] = (uint8_t)(r > 0 ? i - n : PUZ__WALL);
            m->to[i][PUZ_DOWN] = (uint8_t)(r + 1 < rows ? i + n : PUZ__WALL);
            m->to[i][PUZ_LEFT] = (uint8_t)(c > 0 ? i - 1 : PUZ__WALL);
            m->to[i][PUZ_RIGHT] = (uint8_t)(c + 1 < n ? i + 1 : PUZ__WALL);
        }
    }
}

void puz__search_init(struct puz__search *s, const struct puz_board *start,
                      const struct puz_board *goal,
                      const struct puz_limits *l, const struct puz_tables *t,
                      puz_arena *a, struct puz_result *out)
{
    memset(s, 0, sizeof(*s));
    puz__search_set_boards(s, start, goal);
    s->limits = l;
    s->tables = t;
    s->arena = a;
    s->out = out;
}

void puz__search_set_boards(struct puz__search *s,
                            const struct puz_board *start,
                            const struct puz_board *goal)
{
    s->start = start;
    s->goal = goal;
    s->n = start->n;
    s->rows = puz_board_rows(start);
    s->cells = s->rows * s->n;
}

void puz__moves_lists(unsigned rows, unsigned cols, uint8_t *nmoves,
                      uint8_t (*dir)[4], uint8_t (*to)[4])
{
    struct puz__moves mv;

    puz__moves_init_shape(&mv, rows, cols);
    for (unsigned c = 0; c < rows * cols; c++) {
        nmoves[c] = 0;
        for (unsigned d = 0; d < 4; d++) {
            if (mv.to[c][d] == PUZ__WALL)
                continue;
            dir[c][nmoves[c]] = (uint8_t)d;
            to[c][nmoves[c]++] = mv.to[c][d];
        }
    }
}

void puz__progress(const struct puz__search *s, bool force)
{
    struct puz__watch *w = s->watch;
    const struct puz_result *r = s->out;
    struct puz_progress p;
    uint64_t now;

    if (w == NULL)
        return;
    now = puz_clock_mono_us();
    if (!force && now < w->next_us)
        return;
    w->next_us = now + PUZ_PROGRESS_US;
    p.algorithm = r->algorithm;
    p.expanded = r->stats.expanded;
    p.generated = r->stats.generated;
    p.elapsed_us = now - s->started_us;
    p.bound = s->bound;
    p.lower_bound = w->proves_bound ? s->bound : 0;
    p.best_length = w->best_length;
    w->fn(&p, w->user);
}

enum puz_status puz__limits_hit(const struct puz_limits *l,
                                uint64_t expanded)
{
    if (l->cancel != NULL && atomic_load_explicit(l->cancel,
                                                  memory_order_relaxed))
        return PUZ_CANCELLED;
    if (l->deadline_us != 0 &&
        (l->clock_us ? l->clock_us() : puz_clock_mono_us()) >= l->deadline_us)
        return PUZ_TIMEOUT;
    if (l->max_nodes != 0 && expanded >= l->max_nodes)
        return PUZ_LIMIT_NODES;
    return PUZ_SOLVED;
}

enum puz_status puz__check_limits(const struct puz__search *s)
{
    puz__progress(s, false);
    return puz__limits_hit(s->limits, s->out->stats.expanded);
}

puz_err puz__set_path(struct puz__search *s, const uint8_t *dirs,
                      unsigned len)
{
    struct puz_result *r = s->out;
    struct puz_board b = *s->start;

    r->moves = puz_arena_alloc(s->arena, len + 1u);
    r->tiles = puz_arena_alloc(s->arena, len + 1u);
    if (r->moves == NULL || r->tiles == NULL) {
        r->moves = r->tiles = NULL;
        return PUZ_ENOMEM;
    }
    for (unsigned i = 0; i < len; i++) {
        r->moves[i] = dirs[i];
        r->tiles[i] = (uint8_t)puz_board_move(&b, (enum puz_dir)dirs[i]);
    }
    r->length = len;
    return PUZ_OK;
}

void puz__arena_cap(puz_arena *a, size_t max_bytes)
{
    size_t used = puz_arena_used(a), budget = puz_arena_budget(a);

    if (max_bytes != 0 && (budget == 0 || used + max_bytes < budget))
        puz_arena_set_budget(a, used + max_bytes);
}
