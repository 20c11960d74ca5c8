/*
 * bucketq.c - the two-level bucket queue. Arrays grow by doubling inside
 * the arena; the outgrown copies stay there until the request ends.
 */
#include <string.h>

#include "bucketq.h"

/* Grow *arr (elements of size elem, *cap of them) to hold index i. */
static puz_err grow_to(puz_arena *a, void **arr, uint32_t *cap, size_t elem,
                       uint32_t i)
{
    uint32_t n = *cap ? *cap : 8;
    void *p;

    while (n <= i) {
        if (n > UINT32_MAX / 2)
            return PUZ_ENOMEM;
        n *= 2;
    }
    p = puz_arena_calloc(a, n, elem);
    if (p == NULL)
        return PUZ_ENOMEM;
    if (*cap)
        memcpy(p, *arr, (size_t)*cap * elem);
    *arr = p;
    *cap = n;
    return PUZ_OK;
}

puz_err puz__bq_init(struct puz__bucketq *q, puz_arena *a)
{
    memset(q, 0, sizeof(*q));
    q->arena = a;
    q->min_f = UINT32_MAX;
    return grow_to(a, (void **)&q->by_f, &q->f_cap, sizeof(*q->by_f), 63);
}

puz_err puz__bq_push(struct puz__bucketq *q, unsigned f, unsigned g,
                     uint32_t node)
{
    struct puz__fbucket *fb;
    struct puz__stack *st;

    if (f >= q->f_cap && grow_to(q->arena, (void **)&q->by_f, &q->f_cap,
                                 sizeof(*q->by_f), f) != PUZ_OK)
        return PUZ_ENOMEM;
    fb = &q->by_f[f];
    if (g >= fb->g_cap && grow_to(q->arena, (void **)&fb->by_g, &fb->g_cap,
                                  sizeof(*fb->by_g), g) != PUZ_OK)
        return PUZ_ENOMEM;
    st = &fb->by_g[g];
    if (st->count == st->cap &&
        grow_to(q->arena, (void **)&st->items, &st->cap, sizeof(*st->items),
                st->count) != PUZ_OK)
        return PUZ_ENOMEM;
    st->items[st->count++] = node;
    if (fb->count++ == 0 || g > fb->top_g)
        fb->top_g = g;
    if (f < q->min_f)
        q->min_f = f;
    q->count++;
    return PUZ_OK;
}

uint32_t puz__bq_pop(struct puz__bucketq *q)
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
