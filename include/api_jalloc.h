/*
 * api_jalloc.h - lets jansson take its memory from a request's arena.
 *
 * jansson's allocator hook is process-wide, so the arena is chosen per
 * thread: between api_jalloc_bind() and the matching unbind, every
 * json_* allocation on this thread comes from that arena (or the heap
 * when the arena's budget is spent), and freeing an arena block is a
 * no-op. With no arena bound jansson uses malloc/free as usual.
 *
 * Rule that keeps this safe: a JSON value built while arena A is bound
 * must be released (json_decref) while A is still bound, or never. The
 * arena's death takes the memory back anyway.
 */
#ifndef API_JALLOC_H
#define API_JALLOC_H

#include "puz_arena.h"

/* Install the hook (once per process; later calls do nothing). */
void api_jalloc_install(void);

/* Bind a (may be NULL = heap) to this thread; returns the previous
 * binding, to hand to api_jalloc_unbind(). */
puz_arena *api_jalloc_bind(puz_arena *a);
void api_jalloc_unbind(puz_arena *previous);

#endif
