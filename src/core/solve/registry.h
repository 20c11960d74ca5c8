/*
 * registry.h - the registry's one private entry (algorithm.c): running
 * the algorithm a row names, so puz_solve() holds no list of algorithms
 * of its own and a new one is its row and its file.
 */
#ifndef PUZ_SOLVE_REGISTRY_H
#define PUZ_SOLVE_REGISTRY_H

#include "base/search.h"
#include "puz_algorithm.h"

/* Runs algorithm a on the prepared search s (its run sets
 * s->out->status); PUZ_EINVAL for AUTO or a value out of range. */
puz_err puz__algorithm_run(enum puz_algorithm a, struct puz__search *s);

#endif
