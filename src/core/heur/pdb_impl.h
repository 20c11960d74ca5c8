/*
 * pdb_impl.h - inside the pattern databases (private to the core): the
 * table layout, the symmetry frames that let one table serve many goals,
 * and the index and lookup functions the searches call per node.
 */
#ifndef PUZ_PDB_IMPL_H
#define PUZ_PDB_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/movefsm.h"
#include "puz_pdb.h"

/* Largest board with tables: 5x5. Arrays indexed by cell use this. */
#define PUZ__PDB_CELLS 25u
#define PUZ__PDB_MAX_GROUPS 6u
#define PUZ__PDB_MAX_K 8u
/* Entries are 4 bits; 15 marks "not reached yet" while building. */
#define PUZ__PDB_UNSET 15u

/* Goal classes: where the goal's blank is, up to symmetry. On 5x5 only
 * the corner class has a representative (and tables). */
#define PUZ__ORBIT_CORNER 0u
#define PUZ__ORBIT_EDGE 1u
#define PUZ__ORBIT_CENTRE 2u
#define PUZ__ORBITS 3u
#define PUZ__ORBIT_NONE 255u

/* In a byte naming a group, slot or cell: none (the blank's cell is in no
 * group; a class with no tables has no representative cell). */
#define PUZ__PDB_NONE 255u

/*
 * How a board towards some goal is seen in its class's canonical frame:
 * cells moved by one of the 8 symmetries of the square, tiles relabelled
 * so that the goal becomes the canonical goal (tiles in row-major order,
 * blank in the class's representative cell). Distances are unchanged.
 */
struct puz__frame {
    unsigned n;                      /* the goal's columns (row stride) */
    unsigned cells;                  /* the goal's cells */
    unsigned orbit;
    unsigned sym;                    /* which of the 8 symmetries */
    uint8_t cell[PUZ_MAX_CELLS];     /* original cell -> canonical cell */
    uint8_t inv[PUZ_MAX_CELLS];      /* canonical cell -> original cell */
    uint8_t tile[PUZ_MAX_CELLS];     /* original tile -> canonical tile */
    struct puz_board goal;           /* the canonical goal */
};

/*
 * One partition, as data: the board side and the group of every goal
 * cell of the canonical corner goal (blank in the last cell,
 * PUZ__PDB_NONE there).
 * Nothing else in the code knows which partitions exist.
 */
struct puz__partition {
    const char *name;                /* "6-6-3" */
    const char *alias;               /* "663" */
    unsigned n;                      /* board side; a rectangle's columns */
    unsigned rows;                   /* 0: square; a rectangle's rows */
    const char *file;                /* name in cache files; NULL: name */
    unsigned orbits;                 /* goal classes served, bit per class */
    uint8_t by_cell[PUZ__PDB_CELLS];
    bool zero_aware;                 /* entries per blank region too */
};

/* The partition behind enum value part, or NULL. */
const struct puz__partition *puz__partition_get(enum puz_pdb_partition part);

/*
 * One group of tiles and the table it reads. A group whose goal cells
 * are a turned or mirrored copy of an earlier group's (and whose goal
 * leaves the blank free to reach every other cell, so the blank's goal
 * cell does not matter) reads that group's table through cmap: slot i
 * of this group is the tile whose goal cell cmap takes to the earlier
 * group's slot i. Korf's 24-puzzle partition has three such copies.
 */
struct puz__group {
    unsigned k;                          /* tiles in the group */
    unsigned table;                      /* group whose table this reads */
    uint8_t tile[PUZ__PDB_MAX_K];        /* canonical tiles, slot order */
    uint8_t home[PUZ__PDB_MAX_K];        /* their goal cells */
    uint8_t cmap[PUZ__PDB_CELLS];        /* cell -> cell of table's frame */
    uint64_t entries;                    /* cells! / (cells - k)! */
    const uint64_t *nib;                 /* 16 entries of 4 bits a word */
    /* Zero-aware sets: the entries of placements whose free cells fall
     * apart into several regions, one per region (struct puz__za). */
    const uint64_t *za;
};

/*
 * Zero-aware tables. A plain entry is the minimum over every cell the
 * blank may be on; but where the group's tiles cut the free cells into
 * regions, the blank cannot leave its own, and the region's entry is
 * often larger. 37% of the 177,100 sets of 6 cells of a 5x5 board cut
 * it (2.13 regions on average): their placements get an entry per
 * region in the group's za table, indexed by (set of cells, region,
 * order of the tiles on those cells). The other placements keep the
 * plain entry, which is then exact.
 */
/* Which sets cut, 64 sets a word, and how many cut sets come before
 * the word's first: a set's number among the cut sets is a popcount
 * away, in 44 KB that stay in the core's cache (the per-set array,
 * 0.7 MB, was a second dependent miss after the tables' own). */
struct puz__za_rank {
    uint64_t bits;                       /* bit i: set 64w + i cuts */
    uint32_t before;                     /* cut sets below set 64w */
    uint32_t pad;
};
/* Sets of up to 6 cells of 25 (C(25,6) = 177,100) */
#define PUZ__ZA_MAX_SETS 177100u
#define PUZ__ZA_RANK_WORDS ((PUZ__ZA_MAX_SETS + 63) / 64)

struct puz__za {
    unsigned k;                          /* tiles per group (all alike) */
    unsigned kfact;                      /* k! orders of k tiles */
    uint64_t sets;                       /* cells choose k */
    uint64_t cuts;                       /* sets that cut the free cells */
    uint64_t regions;                    /* regions over the cut sets */
    uint64_t entries;                    /* regions * kfact */
    uint32_t binom[PUZ__PDB_CELLS + 1][PUZ__PDB_MAX_K + 1];
    const uint32_t *cut;                 /* per set: its number among the
                                          * cut sets, or PUZ__ZA_WHOLE (in
                                          * the file; lookups read rank) */
    const struct puz__za_cut *rec;       /* per cut set */
    struct puz__za_rank rank[PUZ__ZA_RANK_WORDS];  /* cut[], smaller */
};
#define PUZ__ZA_WHOLE UINT32_MAX

/* What a search needs of a cut set, in one 32-byte record (one cache
 * line). Per set it would be 5.7 MB where most sets need none of it:
 * the small per-set array (0.7 MB) answers those. */
struct puz__za_cut {
    uint32_t first;                      /* its first region's number */
    uint8_t region[PUZ__PDB_CELLS + 3];  /* per free cell: its region,
                                          * numbered by lowest cell */
};
_Static_assert(sizeof(struct puz__za_cut) == 32, "one cut set's record, "
               "32 bytes: never split over two cache lines");

struct puz_pdb {
    enum puz_pdb_partition part;
    unsigned n, cells;                   /* columns (row stride), cells */
    unsigned rows;                       /* rows (n on a square) */
    bool rect;                           /* a rectangle's tables */
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
    bool zero_aware;
    struct puz__za za;                   /* zero_aware only */
    void *mem;                           /* the tables, or NULL */
    size_t data_bytes;
    double build_seconds;
    /* A pair (6-6-6-6z2): the second partition's own groups, whose sum
     * with this set's groups in `shared` (bit per group: both partitions
     * have them) is a second additive estimate; the larger one is used.
     * Owned; NULL for a single partition. */
    struct puz_pdb *second;
    unsigned shared;
    /* 5x5: the forbidden-move automaton every IDA* with these tables
     * shares (puz__pdb_attach_fsm), or NULL: each search builds its own. */
    uint32_t *fsm;
    size_t fsm_bytes;
};

/* The forbidden-move automaton of 5x5 searches (pdb_fsm.c): children in
 * the order puz__pdb_order5, strings up to len moves: the one a set
 * shares (puz__pdb_attach_fsm, once per load) PUZ__PDB_FSM_LEN_SHARED,
 * one a search builds in its own arena PUZ__PDB_FSM_LEN. */
#define PUZ__PDB_FSM_LEN 10u
#define PUZ__PDB_FSM_LEN_SHARED 12u
extern const uint8_t puz__pdb_order5[4];
puz_err puz__pdb_fsm_build(struct puz__movefsm *fsm, unsigned len,
                           puz_arena *a);
/* Build it once for all of d's searches; PUZ_OK and nothing done for
 * other sizes. */
puz_err puz__pdb_attach_fsm(struct puz_pdb *d);

/* Frames for 3x3 and 4x4 goals, 5x5 corner goals and corner goals of
 * rectangles up to 16 cells (canonical shape: rows <= columns, blank in
 * the last cell); PUZ_EINVAL for the rest. */
puz_err puz__frame_init(struct puz__frame *f, const struct puz_board *goal);
/* Goal class of a goal (PUZ__ORBIT_NONE: no class with tables). */
unsigned puz__orbit_of(const struct puz_board *goal);
/* The canonical goal of class orbit on an n x n board. */
void puz__canonical_goal(unsigned n, unsigned orbit, struct puz_board *out);
/* cells (original frame) -> out (canonical frame). */
void puz__frame_map(const struct puz__frame *f, const uint8_t *cells,
                    uint8_t *out);
/* Name of a goal class: "corner", "edge", "centre". */
const char *puz__orbit_name(unsigned orbit);

/* Fill the group layout of d (everything but the tables) for part and
 * class orbit; PUZ_EINVAL if the partition does not serve that class. */
puz_err puz__pdb_layout(struct puz_pdb *d, enum puz_pdb_partition part,
                        unsigned orbit);
/* Words of table memory for a group of k tiles on a board of cells. */
uint64_t puz__pdb_group_words(unsigned k, unsigned cells);
/* Bytes of the tables d stores (groups reading another's table store
 * none), each table 64-byte aligned; table gi starts at *off[gi]. */
size_t puz__pdb_table_bytes(const struct puz_pdb *d,
                            size_t off[PUZ__PDB_MAX_GROUPS]);
/*
 * Memory for tables of bytes bytes (free()d), 64-byte aligned; from 2 MB
 * on, aligned to and advised for transparent huge pages: every lookup is
 * a random read in tens of megabytes, and kernels in THP "madvise" mode
 * (this one) give huge pages only on request. A few percent on the
 * 24-puzzle (docs/pdb.md).
 */
void *puz__pdb_alloc(size_t bytes);
/* Point every group's nib into mem (laid out as puz__pdb_table_bytes). */
void puz__pdb_attach(struct puz_pdb *d, void *mem);
/* Zero-aware sets: number the cut sets' regions into the attached
 * memory (the build does this; a file brings it). */
void puz__pdb_za_number(struct puz_pdb *d);
/* Fill group gi's table at out (puz__pdb_group_words words). The group
 * must read its own table (g[gi].table == gi). */
puz_err puz__pdb_build_group(const struct puz_pdb *d, unsigned gi,
                             uint64_t *out, const struct puz_pdb_opts *o,
                             uint64_t started_us, char *msg);
/* 64-bit check value of nwords words (detects any one changed word). */
uint64_t puz__pdb_checksum(const uint64_t *w, uint64_t nwords);

/* Bits set in each byte. The build flags do not assume a CPU with a
 * popcount instruction, and __builtin_popcount then becomes a libgcc
 * call that cost a fifth of the build time. */
extern const uint8_t puz__pdb_bits8[256];

/* Bits set in x, which has bits only below cell `cells` (16 or 25): a
 * compile-time cells lets the 4x4 callers skip the upper bytes. */
static inline unsigned puz__pdb_pop(uint32_t x, unsigned cells)
{
    unsigned n = (unsigned)puz__pdb_bits8[x & 255] +
                 puz__pdb_bits8[(x >> 8) & 255];

    if (cells > 16)
        n += (unsigned)puz__pdb_bits8[(x >> 16) & 255] +
             puz__pdb_bits8[x >> 24];
    return n;
}

/* Rank of cell among the cells not in used. */
static inline unsigned puz__pdb_rank_free(uint32_t used, unsigned cell,
                                          unsigned cells)
{
    return cell - puz__pdb_pop(used & ((1u << cell) - 1), cells);
}

/* Rank of k tiles on cells pos[0..k-1] among the cells!/(cells-k)!
 * placements: digit i is the cell's rank among cells the earlier tiles
 * left free. */
static inline uint64_t puz__pdb_rank(const uint8_t *pos, unsigned k,
                                     unsigned cells)
{
    uint32_t used = 0;
    uint64_t idx = 0;

    for (unsigned i = 0; i < k; i++) {
        unsigned p = pos[i];
        idx = idx * (cells - i) + puz__pdb_rank_free(used, p, cells);
        used |= 1u << p;
    }
    return idx;
}

static inline unsigned puz__pdb_entry(const uint64_t *nib, uint64_t idx)
{
    return (unsigned)(nib[idx >> 4] >> ((idx & 15) << 2)) & 15u;
}

/* Entry of group gi for its tiles on pos (cells in the table's frame). */
static inline unsigned puz__pdb_lookup(const struct puz_pdb *d, unsigned gi,
                                       const uint8_t *pos)
{
    return puz__pdb_entry(d->g[gi].nib,
                          puz__pdb_rank(pos, d->g[gi].k, d->cells));
}

/* Cells the blank reaches from seed among open cells of an n-wide
 * board (notl/notr: cells not in the first/last column). */
static inline uint32_t puz__pdb_flood(uint32_t seed, uint32_t open,
                                      unsigned n, uint32_t notl,
                                      uint32_t notr)
{
    uint32_t m = seed, prev;

    do {
        prev = m;
        m |= ((m << n) | (m >> n) | ((m << 1) & notl) |
              ((m >> 1) & notr)) & open;
    } while (m != prev);
    return m;
}

/* 5x5 column masks for puz__pdb_flood. */
#define PUZ__PDB_NOTL5 0x1ef7bdeu
#define PUZ__PDB_NOTR5 0x0f7bdefu

/* Set bits of x (below bit 25): the instruction where hw (the callers'
 * copies built for CPUs that have it), else puz__pdb_pop. */
static inline __attribute__((always_inline)) unsigned
puz__za_pop(uint32_t x, const int hw)
{
    return hw ? (unsigned)__builtin_popcount(x) : puz__pdb_pop(x, 25);
}

/* Set number set's number among the cut sets (z->cut[set], from the
 * 44 KB of z->rank), or PUZ__ZA_WHOLE. */
static inline __attribute__((always_inline)) uint32_t
puz__za_cut_of(const struct puz__za *z, uint32_t set, const int hw)
{
    const struct puz__za_rank *w = &z->rank[set >> 6];
    uint64_t below = w->bits & ((UINT64_C(1) << (set & 63)) - 1);

    if (!(w->bits >> (set & 63) & 1))
        return PUZ__ZA_WHOLE;
    return w->before + puz__za_pop((uint32_t)below, hw) +
           puz__za_pop((uint32_t)(below >> 32), hw);
}

/*
 * Index in a group's za table of its tiles on pos (slot order) with the
 * blank on cell blank (both in the table's frame), or UINT64_MAX when
 * the tiles leave the free cells in one piece (the plain entry holds):
 * puz__za_index_k. In two steps for callers that overlap the misses of
 * several: puz__za_cut_k, the set's number among the cut sets (or
 * PUZ__ZA_WHOLE) and the tiles' *order, then puz__za_index_cut, which
 * reads the cut set's record for the blank's region. Sets are numbered
 * in colexicographic order, regions by their lowest cell (looked up:
 * flooding per child cost a third of the search's speed), orders as
 * puz__pdb_rank numbers placements (on the set's k cells). Each tile's rank among the set's cells is found on its own
 * (a popcount), so the terms are independent: walking the set's bits in
 * order, and ranking the order through an array, made the index cost
 * what a whole node costs.
 */
static inline __attribute__((always_inline)) uint32_t
puz__za_cut_k(const struct puz__za *z, const uint8_t *pos, const unsigned k,
              const int hw, unsigned *order)
{
    uint32_t occ = 0, set = 0, cut;
    unsigned c[PUZ__PDB_MAX_K], used = 0;

    for (unsigned i = 0; i < k; i++)
        occ |= 1u << pos[i];
    for (unsigned i = 0; i < k; i++) {
        c[i] = puz__za_pop(occ & ((1u << pos[i]) - 1), hw);
        set += z->binom[pos[i]][c[i] + 1];
    }
    cut = puz__za_cut_of(z, set, hw);
    *order = 0;
    if (cut == PUZ__ZA_WHOLE)
        return cut;
    for (unsigned i = 0; i < k; i++) {
        *order = *order * (k - i) + c[i] -
                 puz__pdb_bits8[used & ((1u << c[i]) - 1)];
        used |= 1u << c[i];
    }
    return cut;
}

/* The index of a cut set's placement (puz__za_cut_k's cut and order)
 * with the blank on cell blank. */
static inline __attribute__((always_inline)) uint64_t
puz__za_index_cut(const struct puz__za *z, uint32_t cut, unsigned order,
                  unsigned blank)
{
    const struct puz__za_cut *r = &z->rec[cut];

    return (uint64_t)(r->first + r->region[blank]) * z->kfact + order;
}

static inline __attribute__((always_inline)) uint64_t
puz__za_index_k(const struct puz__za *z, const uint8_t *pos, unsigned blank,
                const unsigned k, const int hw)
{
    unsigned order;
    uint32_t cut = puz__za_cut_k(z, pos, k, hw, &order);

    if (cut == PUZ__ZA_WHOLE)
        return UINT64_MAX;
    return puz__za_index_cut(z, cut, order, blank);
}

/* The same for any caller; 6-tile groups (6-6-6-6z) get a copy with k a
 * constant. */
static inline uint64_t puz__za_index(const struct puz__za *z,
                                     const uint8_t *pos, unsigned blank)
{
    if (z->k == 6)
        return puz__za_index_k(z, pos, blank, 6, 0);
    return puz__za_index_k(z, pos, blank, z->k, 0);
}

/* Entry of group gi for its tiles on pos with the blank on cell blank
 * (table frame): the zero-aware one where the set has it. */
static inline unsigned puz__pdb_lookup_blank(const struct puz_pdb *d,
                                             unsigned gi, const uint8_t *pos,
                                             unsigned blank)
{
    uint64_t zi;

    if (d->zero_aware &&
        (zi = puz__za_index(&d->za, pos, blank)) != UINT64_MAX)
        return puz__pdb_entry(d->g[gi].za, zi);
    return puz__pdb_lookup(d, gi, pos);
}

/*
 * Per-solve view used by h_pdb.c and the IDA* plug-ins: the frame of the
 * solve's goal and either a pattern database set or a 3x3 exact table.
 */
struct puz__pdbctx {
    struct puz__frame fr;
    const struct puz_pdb *db;           /* 4x4 or 5x5, else NULL */
    const puz_table3 *t3;               /* 3x3, else NULL */
    uint8_t md[PUZ__PDB_CELLS][PUZ__PDB_CELLS];  /* [tile][cell], canonical */
};

/* The 3x3 exact table of goal's class in t, or NULL (tables.c). */
const puz_table3 *puz__tables_table3_class(const puz_tables *t,
                                           const struct puz_board *goal);

/* The `pdb` heuristic (h_pdb.c); idastar.c recognises it by address. */
extern const struct puz_heuristic puz__h_pdb;

/* Prepare ctx for goal from tables; PUZ_EINVAL with msg if none fits. */
puz_err puz__pdbctx_init(struct puz__pdbctx *c,
                         const struct puz_tables *tables,
                         const struct puz_board *goal, char *msg);
/* Additive value of canonical cells (no reflection); for a pair the
 * larger of its two partitions' values. */
unsigned puz__pdb_sum(const struct puz_pdb *d, const uint8_t *cells);
/* The two partitions a pair partition joins: true and *first, *second
 * set for a pair (6-6-6-6z2: 6-6-6-6z and 6-6-6-6zb), else false. */
bool puz__pdb_pair_parts(enum puz_pdb_partition part,
                         enum puz_pdb_partition *first,
                         enum puz_pdb_partition *second);
/* Join second (its partition the pair's second) to first, which then
 * owns it and answers as the pair; PUZ_EINVAL (nothing changed) when
 * they do not fit together. */
puz_err puz__pdb_pair(struct puz_pdb *first, struct puz_pdb *second,
                      enum puz_pdb_partition pair);
/* Value of canonical cells: the sum, or with reflection the larger of
 * it and the transposed board's sum. */
unsigned puz__pdb_value(const struct puz_pdb *d, const uint8_t *cells);

#endif
