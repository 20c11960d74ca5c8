/*
 * trace.c - the recorder behind puz_trace.h: a fixed array of steps in
 * the request's arena, filled as the search expands boards. Past `max`
 * steps every call returns at once.
 */
#include <string.h>

#include "puz_trace.h"

struct puz_trace {
    unsigned max, count;
    int open;           /* the last step may still get children */
    struct puz_trace_step *steps;
};

puz_trace *puz_trace_create(puz_arena *a, unsigned max)
{
    puz_trace *t;

    if (max == 0 || max > PUZ_TRACE_MAX)
        return NULL;
    t = puz_arena_alloc(a, sizeof(*t));
    if (t == NULL)
        return NULL;
    t->steps = puz_arena_alloc(a, max * sizeof(*t->steps));
    if (t->steps == NULL)
        return NULL;
    t->max = max;
    t->count = 0;
    t->open = 0;
    return t;
}

unsigned puz_trace_count(const puz_trace *t)
{
    return t ? t->count : 0;
}

const struct puz_trace_step *puz_trace_step(const puz_trace *t, unsigned i)
{
    return t && i < t->count ? &t->steps[i] : NULL;
}

static void fill(struct puz_trace_node *n, const uint8_t *cells,
                 unsigned cells_n, unsigned g, unsigned h)
{
    memset(n->cells, 0, sizeof(n->cells));
    memcpy(n->cells, cells, cells_n);
    n->g = (uint16_t)g;
    n->h = (uint16_t)h;
}

void puz_trace_expand(puz_trace *t, const uint8_t *cells, unsigned cells_n,
                      unsigned g, unsigned h, uint64_t open_size)
{
    struct puz_trace_step *step;

    if (t->count >= t->max) {
        t->open = 0;
        return;
    }
    step = &t->steps[t->count++];
    fill(&step->node, cells, cells_n, g, h);
    step->open_size = open_size;
    step->nchildren = 0;
    t->open = 1;
}

void puz_trace_child(puz_trace *t, const uint8_t *cells, unsigned cells_n,
                     unsigned g, unsigned h)
{
    struct puz_trace_step *step;

    if (!t->open)
        return;
    step = &t->steps[t->count - 1];
    if (step->nchildren < 4)
        fill(&step->children[step->nchildren++], cells, cells_n, g, h);
}
