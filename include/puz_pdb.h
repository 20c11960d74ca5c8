/*
 * puz_pdb.h - pattern databases and the set of shared read-only tables
 * the searches consult.
 *
 * A pattern database (puz_pdb) is one disjoint partition of the tiles
 * (4x4: 6-6-3 or 7-8; 5x5: 6-6-6-6; rectangles up to 16 cells: one set
 * per shape, e.g. 3x5:6-6-2, which also serves 5x3), with a table per
 * group: for every
 * placement of
 * the group's tiles, the fewest moves OF THOSE TILES that bring them home,
 * found by breadth-first search backwards from the goal. Because each
 * table counts only its own tiles' moves, the groups' values add up to an
 * admissible estimate (Korf & Felner 2002). Entries are stored as
 * (value - Manhattan distance of the group) / 2 in 4 bits.
 *
 * A table serves every goal whose blank sits in the same cell up to a
 * symmetry of the square: boards are rotated or reflected and their tiles
 * relabelled so that the goal becomes the canonical one. Three tables
 * per partition therefore cover every 4x4 goal: blank in a corner (the
 * default goal and Korf's goal), on an edge, or in the centre. 5x5 sets
 * exist for the corner class only (the default goal and Korf's).
 *
 * puz_tables is the bundle a service loads once at start-up and passes,
 * read-only, to every solve (struct puz_solve_opts.tables): 3x3 exact
 * distance tables and 4x4 and 5x5 pattern databases. Nothing in it
 * changes after
 * loading, so any number of threads may share one.
 */
#ifndef PUZ_PDB_H
#define PUZ_PDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puz_board.h"
#include "puz_err.h"
#include "puz_table3.h"
#include "puz_tables.h"

typedef struct puz_pdb puz_pdb;

/* Bumped whenever the file layout or the meaning of an entry changes;
 * older cache files are then rejected and rebuilt. */
#define PUZ_PDB_FILE_VERSION 2u

enum puz_pdb_partition {
    PUZ_PDB_663 = 0,    /* groups of 6, 6 and 3 tiles: ~6 MB, seconds */
    PUZ_PDB_78 = 1,     /* groups of 7 and 8 tiles: ~290 MB, minutes */
    PUZ_PDB_6666 = 2,   /* 5x5, four groups of 6 tiles: ~128 MB, minutes */
    PUZ_PDB_4X6 = 3,    /* 5x5, six groups of 4 tiles: 1 MB, a second */
    /* Rectangles (docs/rectangles.md), named by their shape, rows <=
     * columns; each also serves the transposed shape. */
    PUZ_PDB_R2X5 = 4,   /* 2x5 (and 5x2), 8-1 */
    PUZ_PDB_R2X6 = 5,   /* 2x6, 6-5 */
    PUZ_PDB_R3X4 = 6,   /* 3x4, 6-5 */
    PUZ_PDB_R2X7 = 7,   /* 2x7, 6-6-1 */
    PUZ_PDB_R3X5 = 8,   /* 3x5, 6-6-2 */
    PUZ_PDB_R2X8 = 9,   /* 2x8, 6-6-3 */
    /* Zero-aware (docs/pdb.md): the same groups, with an entry for every
     * region of free cells the blank may be in, not their minimum. */
    PUZ_PDB_6666Z = 10, /* 5x5 6-6-6-6z: ~330 MB, minutes */
    PUZ_PDB_4X6Z = 11,  /* 5x5 4x6z: ~3 MB, a second (tests) */
    /* A second partition's own groups, zero-aware (its other groups are
     * 6-6-6-6z's, read from there), and the pairs that max the two
     * partitions' sums (docs/pdb.md). */
    PUZ_PDB_6666ZB = 12, /* 5x5 6-6-6-6zb: two groups, ~230 MB */
    PUZ_PDB_4X6ZB = 13,  /* 5x5 4x6zb: two groups of 4 (tests) */
    PUZ_PDB_6666Z2 = 14, /* 6-6-6-6z and 6-6-6-6zb: ~560 MB */
    PUZ_PDB_4X6Z2 = 15,  /* 4x6z and 4x6zb (tests) */
    PUZ_PDB_PARTITION_COUNT_
};

/* "6-6-3", "7-8", "6-6-6-6", "4x6"; "unknown" otherwise. */
const char *puz_pdb_partition_name(enum puz_pdb_partition p);
/* Board side the partition is for (4 or 5; a rectangle's columns; 0 if
 * unknown). */
unsigned puz_pdb_partition_size(enum puz_pdb_partition p);
/* Rows of the partition's board (the side for squares; 0 if unknown). */
unsigned puz_pdb_partition_rows(enum puz_pdb_partition p);
/* Whether the partition is a rectangle's (it then also serves the
 * transposed shape). */
bool puz_pdb_partition_rect(enum puz_pdb_partition p);
/* Whether partition p has tables for goal: goal has p's size and its
 * blank is in a class p serves (4x4: any; 5x5: a corner). */
bool puz_pdb_partition_serves(enum puz_pdb_partition p,
                              const struct puz_board *goal);
/* The rectangle's partition serving goal (a shape with tables, either
 * way round, blank in a corner): true and *out set, else false. */
bool puz_pdb_rect_partition(const struct puz_board *goal,
                            enum puz_pdb_partition *out);
/* Whether the partition is a pair (6-6-6-6z2): two partitions' sets,
 * each with its own cache file, whose larger sum is the estimate; then
 * *first and *second (either may be NULL) name them. */
bool puz_pdb_partition_pair(enum puz_pdb_partition p,
                            enum puz_pdb_partition *first,
                            enum puz_pdb_partition *second);
/* Accepts "6-6-3"/"663", "7-8"/"78", "6-6-6-6"/"6666",
 * "4x6"/"444444", the zero-aware ones with a "z" ("6-6-6-6z"), the
 * second partitions' ("6-6-6-6zb") and pairs ("6-6-6-6z2"), and a
 * rectangle's "RxC:groups" ("3x5:7-7") or its
 * shape alone ("3x5", "5x3"). */
puz_err puz_pdb_partition_parse(const char *s, enum puz_pdb_partition *out);

/*
 * What partition p's tables take in memory, found from its layout
 * without building anything. *tables: the bytes held once built or
 * loaded (puz_pdb_bytes of the set; a pair's two sets together). *build:
 * the most held at once while building it, when nothing is cached: the
 * tables plus one group's search state (2 bits per placement and blank
 * cell: 606 MB for a group of 6 on 5x5) and, for a zero-aware group
 * reading another's table, a scratch copy of it; a pair's first set is
 * held while its second is built. A load from the cache holds only
 * *tables. Either may be NULL. PUZ_EINVAL: no such partition.
 */
puz_err puz_pdb_partition_memory(enum puz_pdb_partition p, size_t *tables,
                                 size_t *build);

/*
 * pdb_5x5 = auto: the strongest 5x5 set (the fewest nodes searched; the
 * order is a list in pdb.c) whose build fits in budget bytes (*build of
 * puz_pdb_partition_memory: what a first start needs). PUZ_OK and *out
 * set; PUZ_ERANGE when not even the smallest set fits, *out then being
 * that smallest set (4x6), for the caller's message.
 */
puz_err puz_pdb_strongest_5x5(size_t budget, enum puz_pdb_partition *out);

/* What a build or a cache lookup reports as it goes. */
enum puz_pdb_event {
    PUZ_PDB_EV_LEVEL,       /* one BFS level of one group finished */
    PUZ_PDB_EV_GROUP_DONE,  /* one group's table is complete */
    PUZ_PDB_EV_NOTE,        /* msg is a one-line report (cache rejected...) */
};

struct puz_pdb_progress {
    enum puz_pdb_event kind;
    const char *partition;  /* "6-6-3", "7-8" or "6-6-6-6" */
    unsigned group, groups; /* 1-based group being built, and how many */
    unsigned tiles;         /* tiles in this group */
    unsigned depth;         /* BFS level just finished (moves of the group) */
    uint64_t placed;        /* placements whose entry is known so far */
    uint64_t placements;    /* entries of this group's table */
    double seconds;         /* since the build of the set began */
    const char *msg;        /* PUZ_PDB_EV_NOTE only; else NULL */
};

/* Called on the thread that called the build, never concurrently. */
typedef void (*puz_pdb_progress_fn)(const struct puz_pdb_progress *p,
                                    void *user);

/* One piece of a build's work; see puz_pdb_run_fn. */
typedef void (*puz_pdb_piece_fn)(void *work, unsigned piece);

/*
 * Runs piece(work, i) for every i < n, in any order and on any threads,
 * and returns when every one has finished (with the memory effects of a
 * thread join). The pieces of one call share the tables through atomics
 * only. The core starts no threads: a caller who wants a build spread
 * over cores supplies this (pool_run_pieces in include/pool_pieces.h
 * runs each piece on a thread of its own).
 */
typedef void (*puz_pdb_run_fn)(puz_pdb_piece_fn piece, void *work,
                               unsigned n, void *user);

struct puz_pdb_opts {
    /* pieces each BFS level is cut into, meant to run at once on as many
     * threads (at most 64); 0 = 2 */
    unsigned threads;
    puz_pdb_progress_fn progress;   /* may be NULL */
    void *user;                     /* handed to progress */
    puz_pdb_run_fn run;             /* NULL: the pieces one after another
                                     * on the calling thread */
    void *run_user;                 /* handed to run */
};

/*
 * Build the tables of partition part for goal's symmetry class (goal of
 * the partition's size; NULL = default goal). Each BFS level is
 * opts->threads pieces run through opts->run (both cores: 6-6-3 in
 * seconds; one after another without run); peak memory is about 1.3 GB for 7-8, 0.75 GB
 * for 6-6-6-6 and 30 MB for 6-6-3. On
 * success *out is a new table set: free it with puz_pdb_destroy.
 * msg (PUZ_MSG_MAX, may be NULL) says what went wrong otherwise.
 */
puz_err puz_pdb_build(enum puz_pdb_partition part,
                      const struct puz_board *goal,
                      const struct puz_pdb_opts *opts, puz_pdb **out,
                      char *msg);

/* Write d to path atomically (a temporary file renamed into place). */
puz_err puz_pdb_save(const puz_pdb *d, const char *path, char *msg);

/*
 * Read the file at path into memory and check it: magic, version, byte
 * order, header and data checksums, sizes. The tables are a private copy
 * (not a mapping), so a cache file truncated or rewritten later cannot
 * hurt a running process. PUZ_ECORRUPT when the file is
 * damaged or truncated, PUZ_EINVAL when it is intact but for another
 * partition or goal class (part < 0 or goal NULL: accept any), PUZ_EIO
 * when it cannot be read. msg gets one line naming the defect.
 */
puz_err puz_pdb_load(const char *path, int part,
                     const struct puz_board *goal, puz_pdb **out,
                     char *msg);

/*
 * Load the cached tables for part and goal from dir, or build them when
 * the file is missing, damaged or mismatched, and then save them there
 * (dir NULL: build only, never save). A rejected file is reported as
 * one PUZ_PDB_EV_NOTE line through opts->progress before the rebuild.
 */
puz_err puz_pdb_open(const char *dir, enum puz_pdb_partition part,
                     const struct puz_board *goal,
                     const struct puz_pdb_opts *opts, puz_pdb **out,
                     char *msg);

void puz_pdb_destroy(puz_pdb *d);

/* File name the cache uses for part and goal, e.g.
 * "pdb-4x4-7-8-corner-v2.bin" (no directory). */
void puz_pdb_filename(enum puz_pdb_partition part,
                      const struct puz_board *goal, char *buf, size_t size);

enum puz_pdb_partition puz_pdb_partition(const puz_pdb *d);
/* The canonical goal the tables were built for (4x4: blank in cell 15,
 * 14 or 10; 5x5: 24); every goal of the same class is served by
 * remapping. */
const struct puz_board *puz_pdb_goal(const puz_pdb *d);
/* Whether d serves goal (same size, blank in the same symmetry class). */
bool puz_pdb_serves(const puz_pdb *d, const struct puz_board *goal);
/* Bytes of table data held. */
size_t puz_pdb_bytes(const puz_pdb *d);
/* Wall-clock seconds the build took; 0 when loaded from a file. */
double puz_pdb_build_seconds(const puz_pdb *d);

/* The additive estimate of b towards goal (goal served by d):
 * for the corner and centre classes, the larger of the lookups of b and
 * of b reflected about the main diagonal (Korf & Felner). */
puz_err puz_pdb_eval(const puz_pdb *d, const struct puz_board *b,
                     const struct puz_board *goal, unsigned *out);

#endif
