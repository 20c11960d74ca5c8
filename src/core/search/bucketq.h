/*
 * bucketq.h - A*'s open list as a two-level bucket queue (private to the
 * core): one row of stacks per f, one LIFO stack per g in the row, so a
 * pop takes the smallest f and, among equal f, the largest g in O(1)
 * amortised — cheaper than a heap because f and g are small integers.
 *
 * A pop looks at the stack (min_f, top[min_f]) only: A* mostly pops
 * the child it pushed last, which is there; when that stack is empty,
 * puz__bq_seek walks on to the next one (lower g, then higher f).
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

struct puz__bucketq {
    puz_arena *arena;
    struct puz__stack **rows;   /* rows[f][g], f < f_cap, g < g_cap;
                                   rows[f] NULL until f is pushed */
    uint32_t *top;              /* top[f]: no entry at f above this g */
    uint32_t f_cap, g_cap;
    uint32_t min_f;             /* no entry below this f */
};

puz_err puz__bq_init(struct puz__bucketq *q, puz_arena *a);
/* puz__bq_push when a row or stack must grow first. */
puz_err puz__bq_push_slow(struct puz__bucketq *q, unsigned f, unsigned g,
                          uint32_t node);
/* The first non-empty stack at or after (min_f, top[min_f]) in pop
 * order, with min_f and top moved to it; the queue must not be empty. */
struct puz__stack *puz__bq_seek(struct puz__bucketq *q);

/* The bounds move by selects, not branches: whether a child lands above
 * the current top is a coin toss the branch predictor loses. */
static inline puz_err puz__bq_push(struct puz__bucketq *q, unsigned f,
                                   unsigned g, uint32_t node)
{
    struct puz__stack *st;
    uint32_t top;

    if (f >= q->f_cap || g >= q->g_cap || q->rows[f] == NULL)
        return puz__bq_push_slow(q, f, g, node);
    st = &q->rows[f][g];
    if (st->count == st->cap)
        return puz__bq_push_slow(q, f, g, node);
    st->items[st->count++] = node;
    top = q->top[f];
    q->top[f] = g > top ? g : top;
    q->min_f = f < q->min_f ? f : q->min_f;
    return PUZ_OK;
}

/* Smallest f, then largest g; the queue must not be empty. */
static inline uint32_t puz__bq_pop(struct puz__bucketq *q)
{
    uint32_t f = q->min_f;
    struct puz__stack *st = &q->rows[f][q->top[f]];

    if (st->count == 0)
        st = puz__bq_seek(q);
    return st->items[--st->count];
}

#endif
