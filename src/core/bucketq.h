/*
 * bucketq.h - A*'s open list as a two-level bucket queue (private to the
 * core): one bucket per f, and inside it one LIFO stack per g, so a pop
 * takes the smallest f and, among equal f, the largest g in O(1)
 * amortised — cheaper than a heap because f and g are small integers.
 */
#ifndef PUZ_BUCKETQ_H
#define PUZ_BUCKETQ_H

#include <stdint.h>

#include "puz_arena.h"
#include "puz_err.h"

struct puz__stack {
    uint32_t *items;
    uint32_t count, cap;
};

struct puz__fbucket {
    struct puz__stack *by_g;    /* by_g[g], g < g_cap */
    uint32_t g_cap;
    uint32_t top_g;             /* no entry above this g */
    uint32_t count;
};

struct puz__bucketq {
    puz_arena *arena;
    struct puz__fbucket *by_f;
    uint32_t f_cap;
    uint32_t min_f;             /* no entry below this f */
    uint64_t count;
};

puz_err puz__bq_init(struct puz__bucketq *q, puz_arena *a);
/* puz__bq_push when a bucket or stack must grow first. */
puz_err puz__bq_push_slow(struct puz__bucketq *q, unsigned f, unsigned g,
                          uint32_t node);

static inline puz_err puz__bq_push(struct puz__bucketq *q, unsigned f,
                                   unsigned g, uint32_t node)
{
    struct puz__fbucket *fb;
    struct puz__stack *st;

    if (f >= q->f_cap)
        return puz__bq_push_slow(q, f, g, node);
    fb = &q->by_f[f];
    if (g >= fb->g_cap)
        return puz__bq_push_slow(q, f, g, node);
    st = &fb->by_g[g];
    if (st->count == st->cap)
        return puz__bq_push_slow(q, f, g, node);
    st->items[st->count++] = node;
    if (fb->count++ == 0 || g > fb->top_g)
        fb->top_g = g;
    if (f < q->min_f)
        q->min_f = f;
    q->count++;
    return PUZ_OK;
}

/* Smallest f, then largest g; the queue must not be empty. */
static inline uint32_t puz__bq_pop(struct puz__bucketq *q)
{
    struct puz__fbucket *fb;
    struct puz__stack *st;

    while (q->by_f[q->min_f].count == 0)
        q->min_f++;
    fb = &q->by_f[q->min_f];
    while (fb->by_g[fb->top_g].count == 0)
        fb->top_g--;
    st = &fb->by_g[fb->top_g];
    fb->count--;
    q->count--;
    return st->items[--st->count];
}

#endif
