/*
 * pdb_impl.h - inside the pattern databases (private to the core): the
 * table layout, the symmetry frames that let one table serve many goals,
 * and the index and lookup functions the searches call per node.
 */
#ifndef PUZ_PDB_IMPL_H
#define PUZ_PDB_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "puz_pdb.h"

#define PUZ__PDB_CELLS 16u
#define PUZ__PDB_MAX_GROUPS 3u
#define PUZ__PDB_MAX_K 8u
/* Entries are 4 bits; 15 marks "not reached yet" while building. */
#define PUZ__PDB_UNSET 15u

/* Goal classes: where the goal's blank is, up to symmetry. */
#define PUZ__ORBIT_CORNER 0u
#define PUZ__ORBIT_EDGE 1u
#define PUZ__ORBIT_CENTRE 2u
#define PUZ__ORBITS 3u

/*
 * How a board towards some goal is seen in its class's canonical frame:
 * cells moved by one of the 8 symmetries of the square, tiles relabelled
 * so that the goal becomes the canonical goal (tiles in row-major order,
 * blank in the class's representative cell). Distances are unchanged.
 */
struct puz__frame {
    unsigned n;
    unsigned orbit;
    unsigned sym;                    /* which of the 8 symmetries */
    uint8_t cell[PUZ_MAX_CELLS];     /* original cell -> canonical cell */
    uint8_t inv[PUZ_MAX_CELLS];      /* canonical cell -> original cell */
    uint8_t tile[PUZ_MAX_CELLS];     /* original tile -> canonical tile */
    struct puz_board goal;           /* the canonical goal */
};

/* One group of tiles and its table. */
struct puz__group {
    unsigned k;                          /* tiles in the group */
    uint8_t tile[PUZ__PDB_MAX_K];        /* canonical tiles, index order */
    uint8_t home[PUZ__PDB_MAX_K];        /* their goal cells */
    uint64_t entries;                    /* 16! / (16 - k)! */
    const uint64_t *nib;                 /* 16 entries of 4 bits a word */
};

struct puz_pdb {
    enum puz_pdb_partition part;
    unsigned orbit;
    struct puz_board goal;               /* canonical goal */
    unsigned ngroups;
    struct puz__group g[PUZ__PDB_MAX_GROUPS];
    uint8_t group_of[PUZ__PDB_CELLS];    /* canonical tile -> group */
    uint8_t slot_of[PUZ__PDB_CELLS];     /* canonical tile -> index slot */
    uint8_t home[PUZ__PDB_CELLS];        /* canonical tile -> goal cell */
    bool reflect;        /* goal blank on the main diagonal */
    uint8_t rtile[PUZ__PDB_CELLS];       /* tile's label when transposed */
    uint8_t transpose[PUZ__PDB_CELLS];   /* cell -> transposed cell */
    void *mem;                           /* malloc'd tables, or NULL */
    void *map;                           /* mmap'd file, or NULL */
    size_t map_bytes;
    size_t data_bytes;
    double build_seconds;
};

/* Frames for 3x3 and 4x4 goals; PUZ_EINVAL for other sizes. */
puz_err puz__frame_init(struct puz__frame *f, const struct puz_board *goal);
/* Goal class of a 3x3 or 4x4 goal. */
unsigned puz__orbit_of(const struct puz_board *goal);
/* The canonical goal of class orbit on an n x n board. */
void puz__canonical_goal(unsigned n, unsigned orbit, struct puz_board *out);
/* cells (original frame) -> out (canonical frame). */
void puz__frame_map(const struct puz__frame *f, const uint8_t *cells,
                    uint8_t *out);
/* Name of a goal class: "corner", "edge", "centre". */
const char *puz__orbit_name(unsigned orbit);

/* Fill the group layout of d (everything but the tables) for part and
 * class orbit. */
void puz__pdb_layout(struct puz_pdb *d, enum puz_pdb_partition part,
                     unsigned orbit);
/* Words of table memory for a group of k tiles. */
uint64_t puz__pdb_group_words(unsigned k);
/* Fill group gi's table at out (puz__pdb_group_words words). */
puz_err puz__pdb_build_group(const struct puz_pdb *d, unsigned gi,
                             uint64_t *out, const struct puz_pdb_opts *o,
                             uint64_t started_us, char *msg);
/* 64-bit check value of nwords words (detects any one changed word). */
uint64_t puz__pdb_checksum(const uint64_t *w, uint64_t nwords);

/* Bits set in each byte. The build flags do not assume a CPU with a
 * popcount instruction, and __builtin_popcount then becomes a libgcc
 * call that cost a fifth of the build time. */
extern const uint8_t puz__pdb_bits8[256];

static inline unsigned puz__pdb_pop16(uint32_t x)
{
    return (unsigned)puz__pdb_bits8[x & 255] + puz__pdb_bits8[(x >> 8) & 255];
}

/* Rank of cell among the cells not in used (both within 16 cells). */
static inline unsigned puz__pdb_rank_free(uint32_t used, unsigned cell)
{
    return cell - puz__pdb_pop16(used & ((1u << cell) - 1));
}

/* Rank of k tiles on cells pos[0..k-1] among the 16!/(16-k)! placements:
 * digit i is the cell's rank among cells the earlier tiles left free. */
static inline uint64_t puz__pdb_rank(const uint8_t *pos, unsigned k)
{
    uint32_t used = 0;
    uint64_t idx = 0;

    for (unsigned i = 0; i < k; i++) {
        unsigned p = pos[i];
        idx = idx * (PUZ__PDB_CELLS - i) + puz__pdb_rank_free(used, p);
        used |= 1u << p;
    }
    return idx;
}

static inline unsigned puz__pdb_entry(const uint64_t *nib, uint64_t idx)
{
    return (unsigned)(nib[idx >> 4] >> ((idx & 15) << 2)) & 15u;
}

/*
 * Per-solve view used by h_pdb.c and idastar_pdb.c: the frame of the
 * solve's goal and either a 4x4 set or a 3x3 exact table.
 */
struct puz__pdbctx {
    struct puz__frame fr;
    const struct puz_pdb *db;           /* 4x4, else NULL */
    const puz_table3 *t3;               /* 3x3, else NULL */
    uint8_t md[PUZ__PDB_CELLS][PUZ__PDB_CELLS];  /* [tile][cell], canonical */
};

/* The `pdb` heuristic (h_pdb.c); idastar_pdb.c recognises it by address. */
extern const struct puz_heuristic puz__h_pdb;

/* Prepare ctx for goal from tables; PUZ_EINVAL with msg if none fits. */
puz_err puz__pdbctx_init(struct puz__pdbctx *c,
                         const struct puz_tables *tables,
                         const struct puz_board *goal, char *msg);
/* Additive value of canonical 4x4 cells (no reflection). */
unsigned puz__pdb_sum(const struct puz_pdb *d, const uint8_t *cells);
/* Value of canonical 4x4 cells: the sum, or with reflection the larger
 * of it and the transposed board's sum. */
unsigned puz__pdb_value(const struct puz_pdb *d, const uint8_t *cells);

#endif
