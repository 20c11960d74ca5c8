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

/* A stack's items need no zeroing: grow by copying into fresh room,
 * starting at 32 entries. */
static puz_err grow_stack(puz_arena *a, struct puz__stack *st)
{
    uint32_t n = st->cap ? st->cap * 2 : 32;
    uint32_t *items;

    if (n < st->cap)
        return PUZ_ENOMEM;
    items = puz_arena_alloc(a, (size_t)n * sizeof(*items));
    if (items == NULL)
        return PUZ_ENOMEM;
    if (st->count)
        memcpy(items, st->items, (size_t)st->count * sizeof(*items));
    st->items = items;
    st->cap = n;
    return PUZ_OK;
}

puz_err puz__bq_init(struct puz__bucketq *q, puz_arena *a)
{
    memset(q, 0, sizeof(*q));
    q->arena = a;
    q->min_f = UINT32_MAX;
    return grow_to(a, (void **)&q->by_f, &q->f_cap, sizeof(*q->by_f), 63);
}

puz_err puz__bq_push_slow(struct puz__bucketq *q, unsigned f, unsigned g,
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
        grow_stack(q->arena, st) != PUZ_OK)
        return PUZ_ENOMEM;
    return puz__bq_push(q, f, g, node);
}
