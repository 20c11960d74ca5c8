/*
 * arena.c - the per-request bump allocator. Chunks double in size so a
 * solve that grows to millions of nodes makes only a few dozen system
 * allocations; everything is released in one call. It is where a
 * search's memory comes from; the core's other heap users are the shared
 * tables built once and kept (pdb*.c, table3.c, tables.c) and the large
 * boards' searches (anytime.c, pathopt.c, reduce.c, wsearch.c), whose
 * path buffers and repeated short searches free as they go.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puz_arena.h"

#define ALIGN 16u
#define MAX_CHUNK ((size_t)256 << 20)   /* growth stops doubling here */

struct chunk {
    struct chunk *next;
    size_t size;        /* usable bytes after the header */
    size_t used;
    /* data follows, ALIGN-aligned */
};

struct puz_arena {
    struct chunk *head;     /* current chunk; older ones follow */
    struct chunk *first;    /* kept by reset */
    size_t used;            /* bytes handed out */
    size_t peak;
    size_t reserved;        /* bytes obtained from malloc */
    size_t budget;          /* 0 = unlimited */
};

#define HEADER_SIZE ((sizeof(struct chunk) + ALIGN - 1) & ~(size_t)(ALIGN - 1))

static unsigned char *chunk_data(struct chunk *c)
{
    return (unsigned char *)c + HEADER_SIZE;
}

static struct chunk *chunk_new(size_t size)
{
    struct chunk *c;

    if (size > SIZE_MAX - HEADER_SIZE)
        return NULL;
    c = malloc(HEADER_SIZE + size);
    if (c == NULL)
        return NULL;
    c->next = NULL;
    c->size = size;
    c->used = 0;
    return c;
}

puz_arena *puz_arena_create(size_t first_chunk)
{
    puz_arena *a = calloc(1, sizeof(*a));

    if (a == NULL)
        return NULL;
    if (first_chunk < 1024)
        first_chunk = 1024;
    a->first = chunk_new(first_chunk);
    if (a->first == NULL) {
        free(a);
        return NULL;
    }
    a->head = a->first;
    a->reserved = HEADER_SIZE + first_chunk;
    return a;
}

static void free_chain(struct chunk *c, const struct chunk *stop)
{
    while (c != NULL && c != stop) {
        struct chunk *next = c->next;
        free(c);
        c = next;
    }
}

void puz_arena_destroy(puz_arena *a)
{
    if (a == NULL)
        return;
    free_chain(a->head, NULL);
    free(a);
}

void puz_arena_reset(puz_arena *a)
{
    free_chain(a->head, a->first);
    a->head = a->first;
    a->first->used = 0;
    a->first->next = NULL;
    a->used = 0;
    a->peak = 0;
    a->reserved = HEADER_SIZE + a->first->size;
}

/* Add a chunk able to hold n bytes: at least double the current one,
 * but no more than the budget leaves, so what a request reserves from
 * the system stays near what it may use. */
static int grow(puz_arena *a, size_t n)
{
    size_t size = a->head->size;
    struct chunk *c;

    if (size < MAX_CHUNK)
        size *= 2;
    if (a->budget != 0 && a->budget > a->used
        && size > a->budget - a->used)
        size = a->budget - a->used;
    if (size < n)
        size = n;
    c = chunk_new(size);
    if (c == NULL)
        return -1;
    c->next = a->head;
    a->head = c;
    a->reserved += HEADER_SIZE + size;
    return 0;
}

void *puz_arena_alloc(puz_arena *a, size_t n)
{
    struct chunk *c = a->head;
    void *p;

    if (n > SIZE_MAX - ALIGN)
        return NULL;
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (n == 0)
        n = ALIGN;
    if (a->budget != 0 && (a->used > a->budget || n > a->budget - a->used))
        return NULL;
    if (c->size - c->used < n) {
        if (grow(a, n) != 0)
            return NULL;
        c = a->head;
    }
    p = chunk_data(c) + c->used;
    c->used += n;
    a->used += n;
    if (a->used > a->peak)
        a->peak = a->used;
    return p;
}

void *puz_arena_calloc(puz_arena *a, size_t count, size_t size)
{
    void *p;

    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    p = puz_arena_alloc(a, count * size);
    if (p != NULL)
        memset(p, 0, count * size);
    return p;
}

char *puz_arena_strdup(puz_arena *a, const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = puz_arena_alloc(a, len);

    if (p != NULL)
        memcpy(p, s, len);
    return p;
}

void puz_arena_set_budget(puz_arena *a, size_t max_bytes)
{
    a->budget = max_bytes;
}

size_t puz_arena_budget(const puz_arena *a)
{
    return a->budget;
}

size_t puz_arena_used(const puz_arena *a)
{
    return a->used;
}

size_t puz_arena_peak(const puz_arena *a)
{
    return a->peak;
}

size_t puz_arena_reserved(const puz_arena *a)
{
    return a->reserved;
}

struct puz_arena_mark puz_arena_mark(const puz_arena *a)
{
    struct puz_arena_mark m = { a->head, a->head->used, a->used };

    return m;
}

void puz_arena_release(puz_arena *a, struct puz_arena_mark m)
{
    struct chunk *stop = m.chunk;

    free_chain(a->head, stop);
    a->head = stop;
    stop->used = m.chunk_used;
    a->used = m.used;
    a->reserved = 0;
    for (const struct chunk *c = a->head; c != NULL; c = c->next)
        a->reserved += HEADER_SIZE + c->size;
}

int puz_arena_owns(const puz_arena *a, const void *p)
{
    const unsigned char *q = p;

    for (const struct chunk *c = a->head; c != NULL; c = c->next) {
        const unsigned char *d = chunk_data((struct chunk *)c);
        if (q >= d && q < d + c->size)
            return 1;
    }
    return 0;
}
