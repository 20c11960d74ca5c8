/*
 * bucketq.c - the two-level bucket queue's slow paths: rows and stacks
 * grow by doubling inside the arena (the outgrown copies stay there
 * until the request ends), and the walk to the next non-empty stack.
 */
#include <string.h>

#include "search/bucketq.h"

/* Rows hold g_cap stacks each: enough for every g of a 3x3 search, so
 * that only deeper searches pay for regrowing them. */
#define FIRST_G 32u
#define FIRST_F 64u

/* A stack's items need no zeroing: grow by copying into fresh room,
 * doubling (from 32 entries for a stack a grown row gave no room). */
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

/* Make room for rows up to f: double f_cap until it is past f. */
static puz_err grow_f(struct puz__bucketq *q, unsigned f)
{
    uint32_t n = q->f_cap;
    struct puz__stack **rows;
    uint32_t *top;

    while (n <= f) {
        if (n > UINT32_MAX / 2)
            return PUZ_ENOMEM;
        n *= 2;
    }
    rows = puz_arena_calloc(q->arena, n, sizeof(*rows));
    top = puz_arena_calloc(q->arena, n, sizeof(*top));
    if (rows == NULL || top == NULL)
        return PUZ_ENOMEM;
    memcpy(rows, q->rows, q->f_cap * sizeof(*rows));
    memcpy(top, q->top, q->f_cap * sizeof(*top));
    q->rows = rows;
    q->top = top;
    q->f_cap = n;
    return PUZ_OK;
}

/* Make every row hold stacks up to g (rows are copied into longer
 * ones). */
static puz_err grow_g(struct puz__bucketq *q, unsigned g)
{
    uint32_t n = q->g_cap;

    while (n <= g) {
        if (n > UINT32_MAX / 2)
            return PUZ_ENOMEM;
        n *= 2;
    }
    for (uint32_t f = 0; f < q->f_cap; f++) {
        struct puz__stack *row;
        if (q->rows[f] == NULL)
            continue;
        row = puz_arena_calloc(q->arena, n, sizeof(*row));
        if (row == NULL)
            return PUZ_ENOMEM;
        memcpy(row, q->rows[f], q->g_cap * sizeof(*row));
        q->rows[f] = row;
    }
    q->g_cap = n;
    return PUZ_OK;
}

/* A row's stacks start with ROW_ITEMS entries each, carved from one
 * block: a search touches dozens of (f, g) stacks, and giving each its
 * first room on its first push was a slow push per stack. */
#define ROW_ITEMS 16u

static puz_err new_row(struct puz__bucketq *q, unsigned f)
{
    struct puz__stack *row = puz_arena_calloc(q->arena, q->g_cap,
                                              sizeof(*row));
    uint32_t *items = puz_arena_alloc(q->arena, (size_t)q->g_cap *
                                      ROW_ITEMS * sizeof(*items));

    if (row == NULL || items == NULL)
        return PUZ_ENOMEM;
    for (uint32_t g = 0; g < q->g_cap; g++) {
        row[g].items = items + (size_t)g * ROW_ITEMS;
        row[g].cap = ROW_ITEMS;
    }
    q->rows[f] = row;
    return PUZ_OK;
}

puz_err puz__bq_init(struct puz__bucketq *q, puz_arena *a)
{
    memset(q, 0, sizeof(*q));
    q->arena = a;
    q->g_cap = FIRST_G;
    q->min_f = UINT32_MAX;
    q->rows = puz_arena_calloc(a, FIRST_F, sizeof(*q->rows));
    q->top = puz_arena_calloc(a, FIRST_F, sizeof(*q->top));
    if (q->rows == NULL || q->top == NULL)
        return PUZ_ENOMEM;
    q->f_cap = FIRST_F;
    return PUZ_OK;
}

puz_err puz__bq_push_slow(struct puz__bucketq *q, unsigned f, unsigned g,
                          uint32_t node)
{
    struct puz__stack *st;

    if (f >= q->f_cap && grow_f(q, f) != PUZ_OK)
        return PUZ_ENOMEM;
    if (g >= q->g_cap && grow_g(q, g) != PUZ_OK)
        return PUZ_ENOMEM;
    if (q->rows[f] == NULL && new_row(q, f) != PUZ_OK)
        return PUZ_ENOMEM;
    st = &q->rows[f][g];
    if (st->count == st->cap && grow_stack(q->arena, st) != PUZ_OK)
        return PUZ_ENOMEM;
    return puz__bq_push(q, f, g, node);
}

struct puz__stack *puz__bq_seek(struct puz__bucketq *q)
{
    for (;; q->min_f++) {
        struct puz__stack *row = q->rows[q->min_f];
        for (uint32_t g = q->top[q->min_f]; row != NULL; g--) {
            if (row[g].count != 0) {
                q->top[q->min_f] = g;
                return &row[g];
            }
            if (g == 0)
                break;
        }
        q->top[q->min_f] = 0;
    }
}
