/*
 * puz_tables.h - the bundle of shared read-only tables the searches
 * consult: what a service loads once at start-up and passes, read-only,
 * to every solve (struct puz_solve_opts.tables): 3x3 exact distance
 * tables and 4x4, 5x5 and rectangles' pattern databases. Nothing in it
 * changes after
 * loading, so any number of threads may share one.
 */
#ifndef PUZ_TABLES_H
#define PUZ_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "puz_board.h"
#include "puz_err.h"
#include "puz_table3.h"

typedef struct puz_tables puz_tables;
typedef struct puz_pdb puz_pdb;

/* An empty bundle. Free with puz_tables_destroy. */
puz_err puz_tables_create(puz_tables **out);
/* Frees the bundle and every table in it. NULL is fine. */
void puz_tables_destroy(puz_tables *t);

/* Exact 3x3 distance tables for all three goal classes (a few ms), so
 * the 3x3 `pdb` heuristic serves every 3x3 goal. */
puz_err puz_tables_add_3x3(puz_tables *t);
/* Add d (a puz_pdb, puz_pdb.h); the bundle owns it from now on, also
 * when this fails (PUZ_EINVAL: a set of that partition and class is
 * already there, or d is a second partition's set, read only through
 * its pair: puz_pdb_partition_pair). The one change a bundle takes while searches read it
 * (a set built in the background): they see no set or all of it. */
puz_err puz_tables_add_pdb(puz_tables *t, puz_pdb *d);

/* Whether the `pdb` heuristic can run for goal's size and class. */
bool puz_tables_serves(const puz_tables *t, const struct puz_board *goal);
/* The strongest set serving goal (the largest tables: 7-8 before
 * 6-6-3, 6-6-6-6 before 4x6), or NULL. */
const puz_pdb *puz_tables_pdb(const puz_tables *t,
                              const struct puz_board *goal);
/* The name of the set a search towards goal reads, as answers give it:
 * the partition of puz_tables_pdb ("6-6-6-6z2"), else "exact" (3x3). */
const char *puz_tables_name(const puz_tables *t,
                            const struct puz_board *goal);
/* Exact distance of the 3x3 board b to goal through the table of goal's
 * class (PUZ_EINVAL: not 3x3, or no 3x3 tables loaded). */
puz_err puz_tables_distance3(const puz_tables *t, const struct puz_board *b,
                             const struct puz_board *goal, unsigned *out);
/* The 3x3 table whose goal is exactly goal (not only of its class), or
 * NULL; it belongs to the bundle. For random boards of an exact
 * distance, which need the table of the very goal they aim at. */
const puz_table3 *puz_tables_table3(const puz_tables *t,
                                    const struct puz_board *goal);
/* Bytes of all tables held, for metrics. */
size_t puz_tables_bytes(const puz_tables *t);

#endif
