/*
 * puz_arena.h - bump allocator: the memory of one request (or of one
 * solve), released in one call.
 *
 * Memory is carved from chunks, each twice the last up to 256 MB and
 * never more than the budget leaves; nothing is freed individually, only
 * everything after a mark (puz_arena_release) or all of it.
 * puz_arena_reset() frees all but the first chunk, so one arena serves
 * request after request (the server keeps arenas for reuse);
 * puz_arena_destroy() frees everything. An optional byte budget makes
 * allocations fail (return NULL) instead of growing without bound, which
 * the solver reports as a memory limit. One thread at a time: an arena
 * has no lock.
 */
#ifndef PUZ_ARENA_H
#define PUZ_ARENA_H

#include <stddef.h>

typedef struct puz_arena puz_arena;

/* Create an arena whose first chunk holds at least first_chunk bytes.
 * Returns NULL when the system is out of memory. */
puz_arena *puz_arena_create(size_t first_chunk);
void puz_arena_destroy(puz_arena *a);

/* Release all allocations but keep the first chunk; resets the peak. */
void puz_arena_reset(puz_arena *a);

/* 16-byte aligned block of n bytes owned by the arena, or NULL when the
 * budget is exceeded or the system is out of memory. */
void *puz_arena_alloc(puz_arena *a, size_t n);
/* As puz_arena_alloc, zero-filled. */
void *puz_arena_calloc(puz_arena *a, size_t count, size_t size);
/* Copy of the NUL-terminated string s in the arena. */
char *puz_arena_strdup(puz_arena *a, const char *s);

/* Limit the bytes handed out (0 = unlimited). Applies to later allocations. */
void puz_arena_set_budget(puz_arena *a, size_t max_bytes);
size_t puz_arena_budget(const puz_arena *a);

/* Bytes handed out since create/reset, and the high-water mark. */
size_t puz_arena_used(const puz_arena *a);
size_t puz_arena_peak(const puz_arena *a);
/* Bytes obtained from the system (chunks), for metrics. */
size_t puz_arena_reserved(const puz_arena *a);

/* A point in the arena's life, to come back to: puz_arena_release()
 * frees what was allocated after puz_arena_mark() (chunks go back to
 * the system) and keeps what came before. The mark must be the arena's
 * own, taken since its last reset. The peak is kept. */
struct puz_arena_mark {
    void *chunk;
    size_t chunk_used, used;
};
struct puz_arena_mark puz_arena_mark(const puz_arena *a);
void puz_arena_release(puz_arena *a, struct puz_arena_mark m);

/* Whether p points into memory this arena handed out. */
int puz_arena_owns(const puz_arena *a, const void *p);

#endif
