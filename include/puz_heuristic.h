/*
 * puz_heuristic.h - the catalogue of distance estimates the searches use.
 *
 * Each heuristic lives in its own file under src/core/heur/ and registers
 * one entry in the table in heuristic.c; this header only lets callers
 * find them by name, list them and evaluate one on a board.
 */
#ifndef PUZ_HEURISTIC_H
#define PUZ_HEURISTIC_H

#include <stdbool.h>
#include <stddef.h>

#include "puz_arena.h"
#include "puz_board.h"
#include "puz_err.h"

typedef struct puz_heuristic puz_heuristic;
/* Shared read-only tables (pattern databases); defined by puz_pdb.h. */
struct puz_tables;

/* Lookup by name ("misplaced", "manhattan", "linear-conflict", ...);
 * NULL if unknown. */
const puz_heuristic *puz_heuristic_find(const char *name);
size_t puz_heuristic_count(void);
const puz_heuristic *puz_heuristic_at(size_t i);
const char *puz_heuristic_name(const puz_heuristic *h);
const char *puz_heuristic_description(const puz_heuristic *h);
/* Never overestimates the true distance. */
bool puz_heuristic_admissible(const puz_heuristic *h);
/* Reads loaded tables (puz_tables.h): it serves a goal only when tables
 * for that goal are loaded. */
bool puz_heuristic_needs_tables(const puz_heuristic *h);
/* The board sizes it can serve at all. */
void puz_heuristic_sizes(const puz_heuristic *h, unsigned *min_size,
                         unsigned *max_size);

/* h(b) against goal; tables may be NULL for heuristics that need none.
 * On PUZ_EINVAL msg (PUZ_MSG_MAX, may be NULL) says why (e.g. no table
 * for this size). Scratch memory comes from a. */
puz_err puz_heuristic_eval(const puz_heuristic *h, const struct puz_board *b,
                           const struct puz_board *goal,
                           const struct puz_tables *tables, puz_arena *a,
                           unsigned *out, char *msg);

#endif
