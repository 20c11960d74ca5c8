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
puz_err puz__bq_push(struct puz__bucketq *q, unsigned f, unsigned g,
                     uint32_t node);
/* Smallest f, then largest g; the queue must not be empty. */
uint32_t puz__bq_pop(struct puz__bucketq *q);

#endif
