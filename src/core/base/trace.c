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
    uint64_t by_f[PUZ_TRACE_LAYERS];
    uint64_t ida_seen;  /* IDA*'s running total at its last iteration */
};

puz_trace *puz_trace_create(puz_arena *a, unsigned max)
{
    puz_trace *t;

    if (max > PUZ_TRACE_MAX)
        return NULL;
    t = puz_arena_alloc(a, sizeof(*t));
    if (t == NULL)
        return NULL;
    memset(t, 0, sizeof(*t));
    t->steps = max ? puz_arena_alloc(a, max * sizeof(*t->steps)) : NULL;
    if (max && t->steps == NULL)
        return NULL;
    t->max = max;
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

    t->by_f[g + h < PUZ_TRACE_LAYERS ? g + h : PUZ_TRACE_LAYERS - 1]++;
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

void puz_trace_iteration(puz_trace *t, unsigned bound, uint64_t expanded)
{
    t->by_f[bound < PUZ_TRACE_LAYERS ? bound : PUZ_TRACE_LAYERS - 1] +=
        expanded - t->ida_seen;
    t->ida_seen = expanded;
}

unsigned puz_trace_layers(const puz_trace *t, struct puz_trace_layer *out,
                          unsigned max)
{
    unsigned n = 0;

    for (unsigned f = 0; t != NULL && f < PUZ_TRACE_LAYERS && n < max; f++) {
        if (t->by_f[f] == 0)
            continue;
        out[n].f = f;
        out[n++].expanded = t->by_f[f];
    }
    return n;
}
