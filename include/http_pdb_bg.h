/*
 * http_pdb_bg.h - pattern database sets built (or loaded from the
 * cache) on a thread of their own at low priority while the server
 * already answers, each added to the live tables bundle when complete
 * (puz_tables_add_pdb publishes it whole). /readyz's checks and
 * /v1/catalog report their state and percentage; they never hold
 * readiness back (issue 30: with pdb_background = 1, the 5x5 6-6-6-6
 * tables by default, and the 4x4 and rectangles' sets so that a first
 * start is live at once).
 */
#ifndef HTTP_PDB_BG_H
#define HTTP_PDB_BG_H

#include <stdatomic.h>
#include <stdbool.h>

#include "puz_pdb.h"
#include "puz_tables.h"

enum http_pdb_bg_state {
    HTTP_PDB_BG_BUILDING = 0,   /* building or loading */
    HTTP_PDB_BG_READY,          /* in the bundle: searches use it */
    HTTP_PDB_BG_FAILED,         /* see the log; served without it */
};

typedef struct http_pdb_bg http_pdb_bg;

/* Start building the nparts partitions (at most one of each), one
 * after the other, into dir
 * ("" or NULL: build, never save) and adding each to t, which must
 * outlive the build (see http_pdb_bg_destroy). name: what the reports
 * call them (NULL: the first partition's name). threads: the build's
 * pieces (0 = 2). A set that fails ends the build (FAILED; the sets
 * before it stay in t). */
puz_err http_pdb_bg_start(puz_tables *t, const char *dir,
                          const enum puz_pdb_partition *parts,
                          unsigned nparts, const char *name,
                          unsigned threads, http_pdb_bg **out);

/* Its state; *permille (may be NULL) how far a build is, 0..1000. */
enum http_pdb_bg_state http_pdb_bg_state(const http_pdb_bg *b,
                                         unsigned *permille);

/* "6-6-6-6": the partition being built, or the name given. */
const char *http_pdb_bg_name(const http_pdb_bg *b);

/* Free b once its thread has ended. Returns false, and leaves b and its
 * tables bundle to the process's exit, while the build still runs (a
 * build cannot be stopped halfway; the caller must then not destroy the
 * bundle). */
bool http_pdb_bg_destroy(http_pdb_bg *b);

#endif
