/*
 * api_jalloc.c - jansson allocation routed into the arena bound to the
 * calling thread, under its budget: with an arena bound, a refused
 * allocation fails (no fallback to the heap); with none bound, malloc and
 * free as jansson would. See api_jalloc.h for the rule.
 */
#include "api_jalloc.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>

/* Per-thread binding: the only state here besides the install latch. */
static _Thread_local struct jalloc_tls {
    puz_arena *arena;
    unsigned long failures;     /* refused allocations, ever */
    unsigned long base;         /* failures at the outermost bind */
} jalloc_tls;

static pthread_once_t jalloc_once = PTHREAD_ONCE_INIT;

static void *jalloc_malloc(size_t n)
{
    void *p;

    if (jalloc_tls.arena == NULL)
        return malloc(n);
    p = puz_arena_alloc(jalloc_tls.arena, n);
    if (p == NULL)
        jalloc_tls.failures++;
    return p;
}

static void jalloc_free(void *p)
{
    if (p == NULL)
        return;
    if (jalloc_tls.arena != NULL && puz_arena_owns(jalloc_tls.arena, p))
        return;     /* the arena takes it back when the request ends */
    free(p);
}

static void install_once(void)
{
    json_set_alloc_funcs(jalloc_malloc, jalloc_free);
}

void api_jalloc_install(void)
{
    pthread_once(&jalloc_once, install_once);
}

puz_arena *api_jalloc_bind(puz_arena *a)
{
    puz_arena *prev = jalloc_tls.arena;

    if (prev == NULL)
        jalloc_tls.base = jalloc_tls.failures;
    jalloc_tls.arena = a;
    return prev;
}

void api_jalloc_unbind(puz_arena *previous)
{
    jalloc_tls.arena = previous;
}

bool api_jalloc_failed(void)
{
    return jalloc_tls.failures != jalloc_tls.base;
}

unsigned long api_jalloc_failures(void)
{
    return jalloc_tls.failures;
}
