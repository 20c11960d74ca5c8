/*
 * api_jalloc.h - lets jansson take its memory from a request's arena.
 *
 * jansson's allocator hook is process-wide, so the arena is chosen per
 * thread: between api_jalloc_bind() and the matching unbind, every
 * json_* allocation on this thread comes from that arena and counts
 * against its budget; past the budget it fails (jansson returns NULL,
 * never the heap: a request's JSON is part of its memory), and
 * api_jalloc_failed() says so, lest the half-built value be sent.
 * Freeing an arena block is a no-op. With no arena bound jansson uses
 * malloc/free as usual.
 *
 * Rule that keeps this safe: a JSON value built while arena A is bound
 * must be released (json_decref) while A is still bound, or never. The
 * arena's death takes the memory back anyway.
 */
#ifndef API_JALLOC_H
#define API_JALLOC_H

#include <stdbool.h>

#include "puz_arena.h"

/* Install the hook (once per process; later calls do nothing). */
void api_jalloc_install(void);

/* Bind a (may be NULL = heap) to this thread; returns the previous
 * binding, to hand to api_jalloc_unbind(). */
puz_arena *api_jalloc_bind(puz_arena *a);
void api_jalloc_unbind(puz_arena *previous);

/* Whether an allocation was refused (an arena's budget spent) on this
 * thread since its outermost binding, the one made with no arena bound:
 * a value built since then may lack parts. */
bool api_jalloc_failed(void);
/* Allocations refused on this thread so far: compare before and after
 * building a value to know whether it is whole. */
unsigned long api_jalloc_failures(void);

#endif
