/*
 * pdb.c - what pattern databases mean: the partitions (as data), the
 * symmetry frames that let one table serve every goal of a class, the
 * groups that share a table, and the additive lookup. Building is in
 * pdb_build.c, files in pdb_file.c, the bundle of tables in tables.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "heur/pdb_impl.h"

/*
 * The partitions, by goal cell, for the canonical corner goal (blank in
 * the last cell):
 *
 *   6-6-3:  0 2 2 2     7-8:  0 0 0 0     6-6-6-6:  3 3 3 2 2
 *           0 0 1 1           0 0 0 0               3 3 3 2 2
 *           0 0 1 1           1 1 1 1               1 1 0 2 2
 *           0 1 1 .           1 1 1 .               1 1 0 0 0
 *                                                   1 1 0 0 .
 *
 *   4x6 (six groups of 4 tiles, 5x5; built in a second, for tests and
 *   as a cheap 5x5 estimate):  0 0 1 1 2
 *                              0 0 1 1 2
 *                              3 3 4 4 2
 *                              3 3 4 4 2
 *                              5 5 5 5 .
 *
 * Turned by 180 degrees onto Korf's goal (blank in cell 0) these are Korf
 * & Felner's partitions. On 4x4, with the reflected lookup, they give
 * the published averages: 6-6-3 ~620k generated nodes per Korf instance
 * (they report ~618k; splitting the top three rows into halves instead
 * needs 7x more), 7-8 a mean initial h of 45.6 (they report 45.63). On
 * 5x5 groups 2 and 3 are group 1 turned, so they read its table: two
 * tables are built and stored, not four.
 */
#define NO PUZ__PDB_NONE
/* Cells of the 5x5 sets, each also served zero-aware (below). */
#define CELLS_6666 { 3, 3, 3, 2, 2, 3, 3, 3, 2, 2, 1, 1, 0, 2, 2, 1, 1, 0, \
                     0, 0, 1, 1, 0, 0, NO }
#define CELLS_4X6 { 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 2, 3, 3, 4, \
                    4, 2, 5, 5, 5, 5, NO }
/*
 * Second partitions: only the groups that differ from the first one's
 * (the rest, NO, are read from the first set). 6-6-6-6's groups 0 and 2
 * trade cells 12 and 14 (clausecker/24puzzle's partition "1", turned
 * onto our goal); 4x6's top two blocks become two rows of 4.
 *
 *   6-6-6-6b:  . . . 1 1     4x6b:  0 0 0 0 .
 *              . . . 1 1            1 1 1 1 .
 *              . . 1 1 0            . . . . .
 *              . . 0 0 0            . . . . .
 *              . . 0 0 .            . . . . .
 */
#define CELLS_6666B { NO, NO, NO, 1, 1, NO, NO, NO, 1, 1, NO, NO, 1, 1, 0, \
                      NO, NO, 0, 0, 0, NO, NO, 0, 0, NO }
#define CELLS_4X6B { 0, 0, 0, 0, NO, 1, 1, 1, 1, NO, NO, NO, NO, NO, NO, \
                     NO, NO, NO, NO, NO, NO, NO, NO, NO, NO }
static const struct puz__partition partitions[PUZ_PDB_PARTITION_COUNT_] = {
    { "6-6-3", "663", 4, 0, NULL, 7u,
      { 0, 2, 2, 2, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, NO }, false },
    { "7-8", "78", 4, 0, NULL, 7u,
      { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, NO }, false },
    { "6-6-6-6", "6666", 5, 0, NULL, 1u, CELLS_6666, false },
    { "4x6", "444444", 5, 0, NULL, 1u, CELLS_4X6, false },
    /*
     * Rectangles, rows <= columns, blank in the last cell (the corner
     * class only); the transposed shape reads the same tables. Groups
     * are blocks of columns of at most 6 tiles but on 2x5: each set
     * builds in about a second (7-tile groups took 15 s for 2x7 7-6 and
     * 45 s for 3x5 7-7 on one core; docs/rectangles.md).
     *
     *   2x5 8-1:  0 0 0 0 1     2x6 6-5:  0 0 0 1 1 1
     *             0 0 0 0 .               0 0 0 1 1 .
     *
     *   3x4 6-5:  0 0 1 1       2x7 6-6-1:  0 0 0 1 1 1 2
     *             0 0 1 1                   0 0 0 1 1 1 .
     *             0 0 1 .
     *
     *   3x5 6-6-2:  0 0 1 1 2   2x8 6-6-3:  0 0 0 1 1 1 2 2
     *               0 0 1 1 2               0 0 0 1 1 1 2 .
     *               0 0 1 1 .
     */
    { "2x5:8-1", "2x5", 5, 2, "8-1", 1u,
      { 0, 0, 0, 0, 1, 0, 0, 0, 0, NO }, false },
    { "2x6:6-5", "2x6", 6, 2, "6-5", 1u,
      { 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, NO }, false },
    { "3x4:6-5", "3x4", 4, 3, "6-5", 1u,
      { 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, NO }, false },
    { "2x7:6-6-1", "2x7", 7, 2, "6-6-1", 1u,
      { 0, 0, 0, 1, 1, 1, 2, 0, 0, 0, 1, 1, 1, NO }, false },
    { "3x5:6-6-2", "3x5", 5, 3, "6-6-2", 1u,
      { 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, NO }, false },
    { "2x8:6-6-3", "2x8", 8, 2, "6-6-3", 1u,
      { 0, 0, 0, 1, 1, 1, 2, 2, 0, 0, 0, 1, 1, 1, 2, NO }, false },
    /* Zero-aware copies of the 5x5 sets (struct puz__za). */
    { "6-6-6-6z", "6666z", 5, 0, NULL, 1u, CELLS_6666, true },
    { "4x6z", "444444z", 5, 0, NULL, 1u, CELLS_4X6, true },
    { "6-6-6-6zb", "6666zb", 5, 0, NULL, 1u, CELLS_6666B, true },
    { "4x6zb", "444444zb", 5, 0, NULL, 1u, CELLS_4X6B, true },
    /* Pairs (puz__pdb_pair_parts): no tables of their own. */
    { "6-6-6-6z2", "6666z2", 5, 0, NULL, 1u, CELLS_6666, true },
    { "4x6z2", "444444z2", 5, 0, NULL, 1u, CELLS_4X6, true },
};
#undef CELLS_4X6B
#undef CELLS_6666B
#undef CELLS_4X6
#undef CELLS_6666
#undef NO

/*
 * The 5x5 sets from strongest to weakest, for pdb_5x5 = auto
 * (puz_pdb_strongest_5x5): by the nodes IDA* searches with them
 * (docs/pdb.md, Korf & Felner's 10 easiest, 2 threads): 6-6-6-6z2 0.238x
 * their published counts, 6-6-6-6z 0.347x, 6-6-6-6 0.550x, at about the
 * same CPU time. The 4x6 sets are far weaker and ordered the same way: a
 * pair maxes its first set's sum with another, and a zero-aware entry is
 * never below the plain one. Their memory is not written here: it comes
 * from their layout (puz_pdb_partition_memory).
 */
static const enum puz_pdb_partition strength_5x5[] = {
    PUZ_PDB_6666Z2, PUZ_PDB_6666Z, PUZ_PDB_6666,
    PUZ_PDB_4X6Z2, PUZ_PDB_4X6Z, PUZ_PDB_4X6,
};

#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
const uint8_t puz__pdb_bits8[256] = {
    B6(0), B6(1), B6(1), B6(2),
};

/* Representative blank cell of each class, per side (3, 4 or 5);
 * PUZ__PDB_NONE: no tables for that class. */
static const uint8_t orbit_rep[3][PUZ__ORBITS] = {
    { 8, 7, 4 }, { 15, 14, 10 }, { 24, PUZ__PDB_NONE, PUZ__PDB_NONE },
};

const struct puz__partition *puz__partition_get(enum puz_pdb_partition part)
{
    return (unsigned)part < PUZ_PDB_PARTITION_COUNT_ ? &partitions[part]
                                                     : NULL;
}

const char *puz_pdb_partition_name(enum puz_pdb_partition p)
{
    const struct puz__partition *pt = puz__partition_get(p);

    return pt != NULL ? pt->name : "unknown";
}

unsigned puz_pdb_partition_size(enum puz_pdb_partition p)
{
    const struct puz__partition *pt = puz__partition_get(p);

    return pt != NULL ? pt->n : 0;
}

unsigned puz_pdb_partition_rows(enum puz_pdb_partition p)
{
    const struct puz__partition *pt = puz__partition_get(p);

    return pt == NULL ? 0 : pt->rows != 0 ? pt->rows : pt->n;
}

bool puz_pdb_partition_rect(enum puz_pdb_partition p)
{
    const struct puz__partition *pt = puz__partition_get(p);

    return pt != NULL && pt->rows != 0;
}

/* Whether a rows x cols board is the rectangle pt is for, either way
 * round. */
static bool rect_fits(const struct puz__partition *pt, unsigned rows,
                      unsigned cols)
{
    return pt->rows != 0 && ((rows == pt->rows && cols == pt->n) ||
                             (rows == pt->n && cols == pt->rows));
}

/* Whether cell is a corner of a rows x cols board. */
static bool corner_cell(unsigned rows, unsigned cols, unsigned cell)
{
    unsigned r = cell / cols, c = cell % cols;

    return (r == 0 || r == rows - 1) && (c == 0 || c == cols - 1);
}

bool puz_pdb_partition_serves(enum puz_pdb_partition p,
                              const struct puz_board *goal)
{
    const struct puz__partition *pt = puz__partition_get(p);
    unsigned o;

    if (pt != NULL && pt->rows != 0)
        return rect_fits(pt, puz_board_rows(goal), goal->n) &&
               puz__orbit_of(goal) == PUZ__ORBIT_CORNER;
    if (pt == NULL || goal->n != pt->n || !puz_board_square(goal))
        return false;
    o = puz__orbit_of(goal);
    return o < PUZ__ORBITS && (pt->orbits >> o & 1);
}

bool puz_pdb_rect_partition(const struct puz_board *goal,
                            enum puz_pdb_partition *out)
{
    for (unsigned i = 0; i < PUZ_PDB_PARTITION_COUNT_; i++)
        if (partitions[i].rows != 0 &&
            puz_pdb_partition_serves((enum puz_pdb_partition)i, goal)) {
            *out = (enum puz_pdb_partition)i;
            return true;
        }
    return false;
}

puz_err puz_pdb_partition_parse(const char *s, enum puz_pdb_partition *out)
{
    unsigned r = 0, c = 0;
    int used = 0;

    *out = PUZ_PDB_663;
    for (unsigned i = 0; i < PUZ_PDB_PARTITION_COUNT_; i++)
        if (strcmp(s, partitions[i].name) == 0 ||
            strcmp(s, partitions[i].alias) == 0) {
            *out = (enum puz_pdb_partition)i;
            return PUZ_OK;
        }
    /* "5x3" or "5x3:7-7": the tables of 3x5 */
    if (sscanf(s, "%ux%u%n", &r, &c, &used) != 2 ||
        (s[used] != '\0' && s[used] != ':'))
        return PUZ_EINVAL;
    for (unsigned i = 0; i < PUZ_PDB_PARTITION_COUNT_; i++)
        if (rect_fits(&partitions[i], r, c) &&
            (s[used] == '\0' ||
             strcmp(s + used + 1, partitions[i].file) == 0)) {
            *out = (enum puz_pdb_partition)i;
            return PUZ_OK;
        }
    return PUZ_EINVAL;
}

const char *puz__orbit_name(unsigned orbit)
{
    static const char *const names[PUZ__ORBITS] = { "corner", "edge",
                                                    "centre" };
    return orbit < PUZ__ORBITS ? names[orbit] : "unknown";
}

/* Symmetry s of the n x n square applied to cell. Order matters only for
 * which one a frame picks first: identity, then the half turn (which
 * maps Korf's goal onto ours), then the rest. */
static unsigned sym_apply(unsigned s, unsigned n, unsigned cell)
{
    unsigned r = cell / n, c = cell % n, m = n - 1, nr, nc;

    switch (s) {
    case 0: nr = r; nc = c; break;
    case 1: nr = m - r; nc = m - c; break;
    case 2: nr = c; nc = r; break;
    case 3: nr = m - c; nc = m - r; break;
    case 4: nr = c; nc = m - r; break;
    case 5: nr = m - c; nc = r; break;
    case 6: nr = r; nc = m - c; break;
    default: nr = m - r; nc = c; break;
    }
    return nr * n + nc;
}

/* The class of blank cell b and the first symmetry taking b to the
 * class's representative. */
static void classify(unsigned n, unsigned b, unsigned *orbit, unsigned *sym)
{
    for (unsigned o = 0; o < PUZ__ORBITS && n >= 3 && n <= 5; o++)
        for (unsigned s = 0; s < 8; s++)
            if (sym_apply(s, n, b) == orbit_rep[n - 3][o]) {
                *orbit = o;
                *sym = s;
                return;
            }
    *orbit = PUZ__ORBIT_NONE;
    *sym = 0;
}

/* Symmetry s of a rows x cols rectangle applied to cell, numbered as
 * sym_apply: 0, 1, 6 and 7 keep the shape, 2 to 5 transpose it (the
 * result is then a cols x rows board). */
static unsigned sym_rect(unsigned s, unsigned rows, unsigned cols,
                         unsigned cell)
{
    unsigned r = cell / cols, c = cell % cols, mr = rows - 1, mc = cols - 1;

    switch (s) {
    case 0: return r * cols + c;
    case 1: return (mr - r) * cols + (mc - c);
    case 2: return c * rows + r;
    case 3: return (mc - c) * rows + (mr - r);
    case 4: return c * rows + (mr - r);
    case 5: return (mc - c) * rows + r;
    case 6: return r * cols + (mc - c);
    default: return (mr - r) * cols + c;
    }
}

/* Rectangles with tables have at most 16 cells; their one class is the
 * blank in a corner. */
#define RECT_MAX_CELLS 16u

unsigned puz__orbit_of(const struct puz_board *goal)
{
    unsigned orbit, sym;

    if (!puz_board_square(goal))
        return puz_board_cells(goal) <= RECT_MAX_CELLS &&
               corner_cell(puz_board_rows(goal), goal->n, goal->blank)
               ? PUZ__ORBIT_CORNER : PUZ__ORBIT_NONE;
    classify(goal->n, goal->blank, &orbit, &sym);
    return orbit;
}

/* The canonical goal of a rectangle's tables: rows <= columns, tiles in
 * row order, blank in the last cell. */
static void rect_goal(unsigned rows, unsigned cols, struct puz_board *out)
{
    unsigned r0 = rows < cols ? rows : cols, c0 = rows < cols ? cols : rows;

    memset(out, 0, sizeof(*out));
    out->n = (uint8_t)c0;
    out->rows = (uint8_t)r0;
    out->blank = (uint8_t)(r0 * c0 - 1);
    for (unsigned c = 0; c + 1 < r0 * c0; c++)
        out->cells[c] = (uint8_t)(c + 1);
}

/* A rectangle's frame: the first symmetry that takes it to rows <=
 * columns with the goal's blank in the last cell. */
static puz_err rect_frame(struct puz__frame *f, const struct puz_board *goal)
{
    unsigned rows = puz_board_rows(goal), cols = goal->n;
    unsigned cells = rows * cols, s;
    bool turn = rows > cols;

    if (cells > RECT_MAX_CELLS ||
        puz__orbit_of(goal) != PUZ__ORBIT_CORNER)
        return PUZ_EINVAL;
    for (s = 0; s < 8; s++) {
        bool swaps = s >= 2 && s <= 5;
        if (swaps == turn && sym_rect(s, rows, cols, goal->blank) ==
                             cells - 1)
            break;
    }
    if (s == 8)
        return PUZ_EINVAL;
    f->n = cols;
    f->cells = cells;
    f->orbit = PUZ__ORBIT_CORNER;
    f->sym = s;
    rect_goal(rows, cols, &f->goal);
    for (unsigned c = 0; c < cells; c++) {
        unsigned to = sym_rect(s, rows, cols, c);
        f->cell[c] = (uint8_t)to;
        f->inv[to] = (uint8_t)c;
        f->tile[goal->cells[c]] = f->goal.cells[to];
    }
    return PUZ_OK;
}

void puz__canonical_goal(unsigned n, unsigned orbit, struct puz_board *out)
{
    unsigned rep = orbit < PUZ__ORBITS ? orbit_rep[n - 3][orbit]
                                       : PUZ__PDB_NONE, t = 1;

    if (rep == PUZ__PDB_NONE)
        rep = n * n - 1;

    memset(out, 0, sizeof(*out));
    out->n = (uint8_t)n;
    out->blank = (uint8_t)rep;
    for (unsigned c = 0; c < n * n; c++)
        out->cells[c] = (uint8_t)(c == rep ? 0 : t++);
}

puz_err puz__frame_init(struct puz__frame *f, const struct puz_board *goal)
{
    unsigned n = goal->n;

    memset(f, 0, sizeof(*f));
    if (!puz_board_square(goal))
        return rect_frame(f, goal);
    if (n < 3 || n > 5)
        return PUZ_EINVAL;
    f->n = n;
    f->cells = n * n;
    classify(n, goal->blank, &f->orbit, &f->sym);
    if (f->orbit == PUZ__ORBIT_NONE)
        return PUZ_EINVAL;
    puz__canonical_goal(n, f->orbit, &f->goal);
    for (unsigned c = 0; c < n * n; c++) {
        unsigned to = sym_apply(f->sym, n, c);
        f->cell[c] = (uint8_t)to;
        f->inv[to] = (uint8_t)c;
        f->tile[goal->cells[c]] = f->goal.cells[to];
    }
    return PUZ_OK;
}

void puz__frame_map(const struct puz__frame *f, const uint8_t *cells,
                    uint8_t *out)
{
    for (unsigned c = 0; c < f->cells; c++)
        out[f->cell[c]] = f->tile[cells[c]];
}

/* Which canonical tiles go in which group, slot order = goal cell order;
 * for the edge and centre classes the last cell takes the place of the
 * blank's cell in the corner partition. */
static void layout_groups(struct puz_pdb *d, const uint8_t *by_cell)
{
    unsigned rep = d->goal.blank, last = d->cells - 1;

    memset(d->g, 0, sizeof(d->g));
    d->ngroups = 0;
    for (unsigned c = 0; c < d->cells; c++) {
        unsigned t = d->goal.cells[c], gi;
        struct puz__group *g;

        if (t == 0)
            continue;
        gi = by_cell[c == last ? rep : c];
        if (gi == PUZ__PDB_NONE) {
            /* a second partition's: the first set's group reads it */
            d->group_of[t] = d->slot_of[t] = PUZ__PDB_NONE;
            d->home[t] = (uint8_t)c;
            continue;
        }
        g = &d->g[gi];
        d->group_of[t] = (uint8_t)gi;
        d->slot_of[t] = (uint8_t)g->k;
        d->home[t] = (uint8_t)c;
        g->tile[g->k] = (uint8_t)t;
        g->home[g->k] = (uint8_t)c;
        g->k++;
        if (gi + 1 > d->ngroups)
            d->ngroups = gi + 1;
    }
    for (unsigned i = 0; i < d->ngroups; i++) {
        d->g[i].table = i;
        for (unsigned c = 0; c < d->cells; c++)
            d->g[i].cmap[c] = (uint8_t)c;
    }
}

/* Whether, with group g at home, the goal's blank reaches every other
 * cell: then the blank's goal cell does not matter to g's table. */
static bool open_home(const struct puz_pdb *d, const struct puz__group *g)
{
    unsigned n = d->n, reached = 1, todo[PUZ__PDB_CELLS], top = 0;
    bool seen[PUZ__PDB_CELLS] = { false };

    for (unsigned i = 0; i < g->k; i++)
        seen[g->home[i]] = true;
    seen[d->goal.blank] = true;
    todo[top++] = d->goal.blank;
    while (top > 0) {
        unsigned c = todo[--top], r = c / n, col = c % n;
        unsigned nb[4] = { r > 0 ? c - n : c, r + 1 < n ? c + n : c,
                           col > 0 ? c - 1 : c, col + 1 < n ? c + 1 : c };
        for (unsigned j = 0; j < 4; j++)
            if (!seen[nb[j]]) {
                seen[nb[j]] = true;
                todo[top++] = nb[j];
                reached++;
            }
    }
    return reached == d->cells - g->k;
}

/* Make group gi read r's table through symmetry s if s maps gi's goal
 * cells onto r's: gi's slots are reordered to follow r's. */
static bool try_share(struct puz_pdb *d, unsigned gi, unsigned r, unsigned s)
{
    struct puz__group *g = &d->g[gi], old = *g;
    const struct puz__group *rg = &d->g[r];
    uint8_t from[PUZ__PDB_MAX_K];

    /* First find the whole correspondence, then change anything. */
    for (unsigned m = 0; m < rg->k; m++) {
        unsigned i = 0;
        while (i < old.k && sym_apply(s, d->n, old.home[i]) != rg->home[m])
            i++;
        if (i == old.k)
            return false;
        from[m] = (uint8_t)i;
    }
    for (unsigned m = 0; m < rg->k; m++) {
        g->tile[m] = old.tile[from[m]];
        g->home[m] = old.home[from[m]];
        d->slot_of[g->tile[m]] = (uint8_t)m;
    }
    g->table = r;
    for (unsigned c = 0; c < d->cells; c++)
        g->cmap[c] = (uint8_t)sym_apply(s, d->n, c);
    return true;
}

static void share_tables(struct puz_pdb *d)
{
    for (unsigned gi = 1; gi < d->ngroups; gi++) {
        if (!open_home(d, &d->g[gi]))
            continue;
        for (unsigned r = 0; r < gi && d->g[gi].table == gi; r++) {
            if (d->g[r].table != r || d->g[r].k != d->g[gi].k ||
                !open_home(d, &d->g[r]))
                continue;
            for (unsigned s = 0; s < 8; s++)
                if (try_share(d, gi, r, s))
                    break;
        }
    }
}

/* Regions the free cells of the k-cell set occ fall into. */
static unsigned za_regions(uint32_t occ)
{
    uint32_t open = ~occ & 0x1ffffffu, rest = open;
    unsigned r = 0;

    while (rest != 0) {
        rest &= ~puz__pdb_flood(rest & -rest, open, 5, PUZ__PDB_NOTL5,
                                PUZ__PDB_NOTR5);
        r++;
    }
    return r;
}

/* Next set of as many cells as x, in colexicographic order (Gosper). */
static uint32_t next_set(uint32_t x)
{
    uint32_t low = x & -x, up = x + low;

    return up | (((x ^ up) / low) >> 2);
}

/*
 * A zero-aware set's sizes: every group has the same k (one numbering of
 * sets serves all), and the za tables hold one entry per (cut set,
 * region, order). A few milliseconds: every set of k of 25 cells.
 */
static puz_err za_layout(struct puz_pdb *d)
{
    struct puz__za *z = &d->za;
    unsigned k = d->g[0].k;

    if (d->n != 5)
        return PUZ_EINVAL;
    for (unsigned i = 1; i < d->ngroups; i++)
        if (d->g[i].k != k)
            return PUZ_EINVAL;
    memset(z, 0, sizeof(*z));
    z->k = k;
    z->kfact = 1;
    for (unsigned j = 2; j <= k; j++)
        z->kfact *= j;
    for (unsigned c = 0; c <= PUZ__PDB_CELLS; c++)
        for (unsigned j = 0; j <= PUZ__PDB_MAX_K; j++)
            z->binom[c][j] = j == 0 ? 1 : c == 0 ? 0
                             : z->binom[c - 1][j - 1] + z->binom[c - 1][j];
    z->sets = z->binom[PUZ__PDB_CELLS][k];
    if (z->sets > PUZ__ZA_MAX_SETS)
        return PUZ_EINVAL;
    for (uint32_t occ = (1u << k) - 1, i = 0; occ < (1u << PUZ__PDB_CELLS);
         occ = next_set(occ), i++) {
        unsigned r = za_regions(occ);
        struct puz__za_rank *w = &z->rank[i >> 6];
        if ((i & 63) == 0)
            w->before = (uint32_t)z->cuts;
        w->bits |= (uint64_t)(r > 1) << (i & 63);
        z->regions += r > 1 ? r : 0;
        z->cuts += r > 1;
    }
    z->entries = z->regions * z->kfact;
    d->zero_aware = true;
    return PUZ_OK;
}

/* Fill cut[] (every set: its number among the cut sets, or WHOLE) and
 * rec[] (every cut set: its first region number, and each free cell's
 * region, numbered by lowest cell). */
static void za_number(const struct puz__za *z, uint32_t *cut,
                      struct puz__za_cut *rec)
{
    uint32_t next = 0, i = 0, ncut = 0;

    for (uint32_t occ = (1u << z->k) - 1; occ < (1u << PUZ__PDB_CELLS);
         occ = next_set(occ), i++) {
        uint32_t open = ~occ & 0x1ffffffu, rest = open;
        unsigned r = 0;
        struct puz__za_cut one;

        memset(&one, 0, sizeof(one));
        while (rest != 0) {
            uint32_t m = puz__pdb_flood(rest & -rest, open, 5,
                                        PUZ__PDB_NOTL5, PUZ__PDB_NOTR5);
            rest &= ~m;
            for (; m != 0; m &= m - 1)
                one.region[__builtin_ctz(m)] = (uint8_t)r;
            r++;
        }
        cut[i] = PUZ__ZA_WHOLE;
        if (r < 2)
            continue;
        one.first = next;
        next += r;
        rec[ncut] = one;
        cut[i] = ncut++;
    }
}

puz_err puz__pdb_layout(struct puz_pdb *d, enum puz_pdb_partition part,
                        unsigned orbit)
{
    const struct puz__partition *pt = puz__partition_get(part);
    unsigned rep;

    if (pt == NULL || orbit >= PUZ__ORBITS || !(pt->orbits >> orbit & 1))
        return PUZ_EINVAL;
    d->part = part;
    d->orbit = orbit;
    d->n = pt->n;
    d->rows = pt->rows != 0 ? pt->rows : pt->n;
    d->rect = pt->rows != 0;
    d->cells = d->rows * pt->n;
    if (d->rect)
        rect_goal(d->rows, d->n, &d->goal);
    else
        puz__canonical_goal(d->n, orbit, &d->goal);
    layout_groups(d, pt->by_cell);
    /* A rectangle's groups are few and of different shapes: each reads
     * its own table, and no transposed board goes to the same goal. */
    if (d->rect) {
        for (unsigned i = 0; i < d->ngroups; i++) {
            d->g[i].entries = 1;
            for (unsigned j = 0; j < d->g[i].k; j++)
                d->g[i].entries *= d->cells - j;
        }
        d->reflect = false;
        for (unsigned c = 0; c < d->cells; c++) {
            d->transpose[c] = (uint8_t)c;
            d->rtile[c] = (uint8_t)c;
        }
        return PUZ_OK;
    }
    share_tables(d);
    for (unsigned i = 0; i < d->ngroups; i++) {
        d->g[i].entries = 1;
        for (unsigned j = 0; j < d->g[i].k; j++)
            d->g[i].entries *= d->cells - j;
    }
    if (pt->zero_aware && za_layout(d) != PUZ_OK)
        return PUZ_EINVAL;
    /* The transposed board is a board towards the same canonical goal
     * only when the transpose keeps the goal's blank in place: then the
     * same tables give a second estimate, and the larger one is used. */
    rep = d->goal.blank;
    d->reflect = sym_apply(2, d->n, rep) == rep;
    for (unsigned c = 0; c < d->cells; c++) {
        unsigned tc = sym_apply(2, d->n, c);
        d->transpose[c] = (uint8_t)tc;
        d->rtile[d->goal.cells[c]] = d->goal.cells[tc];
    }
    return PUZ_OK;
}

#define ALIGN64(x) (((x) + 63) & ~(size_t)63)

/* After the plain tables, a zero-aware set stores each group's za table
 * and then the sets' first region numbers. */
size_t puz__pdb_table_bytes(const struct puz_pdb *d,
                            size_t off[PUZ__PDB_MAX_GROUPS])
{
    size_t total = 0;

    for (unsigned i = 0; i < d->ngroups; i++) {
        off[i] = total;
        if (d->g[i].table == i)
            total += ALIGN64(puz__pdb_group_words(d->g[i].k, d->cells) * 8);
    }
    if (d->zero_aware)
        total += d->ngroups * ALIGN64((d->za.entries + 15) / 16 * 8) +
                 ALIGN64(d->za.sets * sizeof(uint32_t)) +
                 ALIGN64(d->za.cuts * sizeof(struct puz__za_cut));
    return total;
}

/* Transparent huge pages' size on x86-64 and most arm64 kernels. */
#define HUGE_BYTES ((size_t)2 << 20)

void *puz__pdb_alloc(size_t bytes)
{
    void *mem;

    if (bytes < HUGE_BYTES)
        return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    bytes = (bytes + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
    mem = aligned_alloc(HUGE_BYTES, bytes);
#ifdef MADV_HUGEPAGE
    /* Only advice: where the kernel has no huge pages to give (or
     * transparent huge pages are off) the 4 KB pages serve as before. */
    if (mem != NULL)
        (void)madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    return mem;
}

/* Where group gi's za table starts, and after them the sets' numbers
 * and the cut sets' records. */
static size_t za_offset(const struct puz_pdb *d, unsigned gi)
{
    size_t plain = 0;

    for (unsigned i = 0; i < d->ngroups; i++)
        if (d->g[i].table == i)
            plain += ALIGN64(puz__pdb_group_words(d->g[i].k, d->cells) * 8);
    return plain + gi * ALIGN64((d->za.entries + 15) / 16 * 8);
}

void puz__pdb_attach(struct puz_pdb *d, void *mem)
{
    size_t off[PUZ__PDB_MAX_GROUPS];

    puz__pdb_table_bytes(d, off);
    for (unsigned i = 0; i < d->ngroups; i++) {
        d->g[i].nib = (const uint64_t *)((uint8_t *)mem +
                                         off[d->g[i].table]);
        d->g[i].za = d->zero_aware
                     ? (const uint64_t *)((uint8_t *)mem + za_offset(d, i))
                     : NULL;
    }
    if (d->zero_aware) {
        size_t at = za_offset(d, d->ngroups);
        d->za.cut = (const uint32_t *)((uint8_t *)mem + at);
        d->za.rec = (const struct puz__za_cut *)
                    ((uint8_t *)mem + at +
                     ALIGN64(d->za.sets * sizeof(uint32_t)));
    }
}

void puz__pdb_za_number(struct puz_pdb *d)
{
    za_number(&d->za, (uint32_t *)(uintptr_t)d->za.cut,
              (struct puz__za_cut *)(uintptr_t)d->za.rec);
}

/* Manhattan distance of canonical cells and each group's entry (a pair's
 * second set: its own groups). */
static unsigned group_entries(const struct puz_pdb *d, const uint8_t *cells,
                              unsigned ent[PUZ__PDB_MAX_GROUPS])
{
    uint8_t pos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];
    unsigned md = 0, n = d->n, blank = 0;

    for (unsigned c = 0; c < d->cells; c++) {
        unsigned t = cells[c], h, gi;
        if (t == 0) {
            blank = c;
            continue;
        }
        gi = d->group_of[t];
        if (gi != PUZ__PDB_NONE)
            pos[gi][d->slot_of[t]] = d->g[gi].cmap[c];
        h = d->home[t];
        md += (unsigned)(abs((int)(c / n) - (int)(h / n)) +
                         abs((int)(c % n) - (int)(h % n)));
    }
    for (unsigned i = 0; i < d->ngroups; i++)
        ent[i] = puz__pdb_lookup_blank(d, i, pos[i], d->g[i].cmap[blank]);
    return md;
}

unsigned puz__pdb_sum(const struct puz_pdb *d, const uint8_t *cells)
{
    unsigned ent[PUZ__PDB_MAX_GROUPS], ent2[PUZ__PDB_MAX_GROUPS];
    unsigned md = group_entries(d, cells, ent), extra = 0, extra2 = 0;

    for (unsigned i = 0; i < d->ngroups; i++) {
        extra += ent[i];
        if (d->shared >> i & 1)
            extra2 += ent[i];
    }
    if (d->second != NULL) {
        (void)group_entries(d->second, cells, ent2);
        for (unsigned i = 0; i < d->second->ngroups; i++)
            extra2 += ent2[i];
        if (extra2 > extra)
            extra = extra2;
    }
    return md + 2 * extra;
}

unsigned puz__pdb_value(const struct puz_pdb *d, const uint8_t *cells)
{
    uint8_t t[PUZ__PDB_CELLS];
    unsigned h = puz__pdb_sum(d, cells), hr;

    if (!d->reflect)
        return h;
    for (unsigned c = 0; c < d->cells; c++)
        t[d->transpose[c]] = d->rtile[cells[c]];
    hr = puz__pdb_sum(d, t);
    return hr > h ? hr : h;
}

enum puz_pdb_partition puz_pdb_partition(const puz_pdb *d)
{
    return d->part;
}

const struct puz_board *puz_pdb_goal(const puz_pdb *d)
{
    return &d->goal;
}

bool puz_pdb_serves(const puz_pdb *d, const struct puz_board *goal)
{
    if (d->rect)
        return puz_pdb_partition_serves(d->part, goal);
    return goal->n == d->n && puz_board_square(goal) &&
           puz__orbit_of(goal) == d->orbit;
}

size_t puz_pdb_bytes(const puz_pdb *d)
{
    return d->data_bytes + (d->second != NULL ? d->second->data_bytes : 0);
}

/*
 * One set's (not a pair's) memory: its tables, and the most its build
 * holds at once. Groups are searched one after another, each with a
 * search state of 2 bits per (placement, blank cell) freed when it ends
 * (pdb_build.c, build_bfs); a zero-aware group reading another's plain
 * table also writes its own copy into scratch memory, to compare.
 */
static puz_err set_memory(enum puz_pdb_partition part, size_t *tables,
                          size_t *build)
{
    struct puz_pdb *d = calloc(1, sizeof(*d));
    size_t off[PUZ__PDB_MAX_GROUPS], most = 0;

    if (d == NULL)
        return PUZ_ENOMEM;
    if (puz__pdb_layout(d, part, PUZ__ORBIT_CORNER) != PUZ_OK) {
        free(d);
        return PUZ_EINVAL;
    }
    *tables = puz__pdb_table_bytes(d, off);
    for (unsigned i = 0; i < d->ngroups; i++) {
        const struct puz__group *g = &d->g[i];
        size_t st = (size_t)((g->entries * (d->cells - g->k) + 31) / 32 * 8);

        if (g->table != i && !d->zero_aware)
            continue;           /* reads another's table: not searched */
        if (g->table != i)
            st += (size_t)puz__pdb_group_words(g->k, d->cells) * 8;
        most = st > most ? st : most;
    }
    *build = *tables + most;
    free(d);
    return PUZ_OK;
}

puz_err puz_pdb_partition_memory(enum puz_pdb_partition p, size_t *tables,
                                 size_t *build)
{
    enum puz_pdb_partition a, b;
    size_t ta = 0, ba = 0, tb = 0, bb = 0;
    puz_err rc;

    if (tables != NULL)
        *tables = 0;
    if (build != NULL)
        *build = 0;
    if ((unsigned)p >= PUZ_PDB_PARTITION_COUNT_)
        return PUZ_EINVAL;
    /* a pair's first set stays in memory while its second is built */
    if (puz__pdb_pair_parts(p, &a, &b)) {
        rc = set_memory(a, &ta, &ba);
        if (rc == PUZ_OK)
            rc = set_memory(b, &tb, &bb);
        bb += ta;
    } else {
        rc = set_memory(p, &ta, &ba);
    }
    if (rc != PUZ_OK)
        return rc;
    if (tables != NULL)
        *tables = ta + tb;
    if (build != NULL)
        *build = ba > bb ? ba : bb;
    return PUZ_OK;
}

puz_err puz_pdb_strongest_5x5(size_t budget, enum puz_pdb_partition *out)
{
    size_t n = sizeof(strength_5x5) / sizeof(strength_5x5[0]), build;
    puz_err rc;

    *out = strength_5x5[n - 1];
    for (size_t i = 0; i < n; i++) {
        rc = puz_pdb_partition_memory(strength_5x5[i], NULL, &build);
        if (rc != PUZ_OK)
            return rc;
        if (build <= budget) {
            *out = strength_5x5[i];
            return PUZ_OK;
        }
    }
    return PUZ_ERANGE;
}

double puz_pdb_build_seconds(const puz_pdb *d)
{
    return d->build_seconds;
}

puz_err puz_pdb_eval(const puz_pdb *d, const struct puz_board *b,
                     const struct puz_board *goal, unsigned *out)
{
    struct puz__frame f;
    uint8_t cells[PUZ__PDB_CELLS];

    *out = 0;
    if (!puz_board_same_shape(b, goal) || !puz_pdb_serves(d, goal) ||
        puz__frame_init(&f, goal) != PUZ_OK)
        return PUZ_EINVAL;
    puz__frame_map(&f, b->cells, cells);
    *out = puz__pdb_value(d, cells);
    return PUZ_OK;
}

void puz_pdb_destroy(puz_pdb *d)
{
    if (d == NULL)
        return;
    puz_pdb_destroy(d->second);
    free(d->mem);
    free(d->fsm);
    free(d);
}

bool puz_pdb_partition_pair(enum puz_pdb_partition p,
                            enum puz_pdb_partition *first,
                            enum puz_pdb_partition *second)
{
    enum puz_pdb_partition a, b;

    if (!puz__pdb_pair_parts(p, &a, &b))
        return false;
    if (first != NULL)
        *first = a;
    if (second != NULL)
        *second = b;
    return true;
}

bool puz__pdb_pair_parts(enum puz_pdb_partition part,
                         enum puz_pdb_partition *first,
                         enum puz_pdb_partition *second)
{
    if (part != PUZ_PDB_6666Z2 && part != PUZ_PDB_4X6Z2)
        return false;
    *first = part == PUZ_PDB_6666Z2 ? PUZ_PDB_6666Z : PUZ_PDB_4X6Z;
    *second = part == PUZ_PDB_6666Z2 ? PUZ_PDB_6666ZB : PUZ_PDB_4X6ZB;
    return true;
}

/*
 * The second set's sum counts its own groups and the first set's groups
 * none of whose tiles it has: those must cover the rest of the tiles
 * (checked), so that the second sum is over disjoint groups, as the
 * first is, and admissible.
 */
puz_err puz__pdb_pair(struct puz_pdb *first, struct puz_pdb *second,
                      enum puz_pdb_partition pair)
{
    enum puz_pdb_partition a, b;
    unsigned shared = 0;

    if (!puz__pdb_pair_parts(pair, &a, &b) || first->part != a ||
        second->part != b || first->second != NULL ||
        first->orbit != second->orbit || first->cells != second->cells)
        return PUZ_EINVAL;
    for (unsigned gi = 0; gi < first->ngroups; gi++) {
        bool mine = true;
        for (unsigned i = 0; i < first->g[gi].k; i++)
            if (second->group_of[first->g[gi].tile[i]] != PUZ__PDB_NONE)
                mine = false;
        if (mine)
            shared |= 1u << gi;
    }
    for (unsigned t = 1; t < first->cells; t++)
        if (second->group_of[t] == PUZ__PDB_NONE &&
            !(shared >> first->group_of[t] & 1))
            return PUZ_EINVAL;
    first->second = second;
    first->shared = shared;
    first->part = pair;
    /* Both sets number their sets and regions alike (the same k): the
     * search then reads one copy of the records for both, half the
     * cache lines (za_numbering_of in idastar_pdb.c). */
    if (first->zero_aware && second->zero_aware &&
        first->za.k == second->za.k && first->za.cuts == second->za.cuts &&
        memcmp(first->za.rec, second->za.rec,
               first->za.cuts * sizeof(*first->za.rec)) == 0)
        second->za.rec = first->za.rec;
    return PUZ_OK;
}

/* Frame, table and canonical Manhattan distances for one solve. */
puz_err puz__pdbctx_init(struct puz__pdbctx *c,
                         const struct puz_tables *tables,
                         const struct puz_board *goal, char *msg)
{
    unsigned n = goal->n;

    memset(c, 0, sizeof(*c));
    if (puz__frame_init(&c->fr, goal) != PUZ_OK) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no pattern databases for "
                     "%ux%u boards with this goal (3x3 and 4x4 goals, 5x5 "
                     "goals and rectangles up to 16 cells with the blank "
                     "in a corner)", puz_board_rows(goal), n);
        return PUZ_EINVAL;
    }
    if (!puz_board_square(goal)) {
        c->db = puz_tables_pdb(tables, goal);
        if (c->db == NULL) {
            if (msg != NULL)
                snprintf(msg, PUZ_MSG_MAX, "pdb: no pattern database "
                         "loaded for %ux%u boards",
                         puz_board_rows(goal), n);
            return PUZ_EINVAL;
        }
        for (unsigned t = 1; t < c->db->cells; t++)
            for (unsigned p = 0; p < c->db->cells; p++) {
                unsigned h = c->db->home[t], w = c->db->n;
                c->md[t][p] = (uint8_t)(abs((int)(p / w) - (int)(h / w)) +
                                        abs((int)(p % w) - (int)(h % w)));
            }
        return PUZ_OK;
    }
    c->t3 = n == 3 ? puz__tables_table3_class(tables, goal) : NULL;
    c->db = puz_tables_pdb(tables, goal);
    if (c->t3 == NULL && c->db == NULL) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no %s loaded for goals with "
                     "the blank in a%s %s cell", n == 3 ? "3x3 table"
                     : n == 4 ? "4x4 pattern database"
                              : "5x5 pattern database",
                     c->fr.orbit == 1 ? "n" : "",
                     puz__orbit_name(c->fr.orbit));
        return PUZ_EINVAL;
    }
    for (unsigned t = 1; t < n * n && c->db != NULL; t++)
        for (unsigned p = 0; p < n * n; p++) {
            unsigned h = c->db->home[t];
            c->md[t][p] = (uint8_t)(abs((int)(p / n) - (int)(h / n)) +
                                    abs((int)(p % n) - (int)(h % n)));
        }
    return PUZ_OK;
}
