/*
 * pdb.c - what pattern databases mean: the partitions (as data), the
 * symmetry frames that let one table serve every goal of a class, the
 * groups that share a table, and the additive lookup. Building is in
 * pdb_build.c, files in pdb_file.c, the bundle of tables in tables.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static const struct puz__partition partitions[PUZ_PDB_PARTITION_COUNT_] = {
    { "6-6-3", "663", 4, 7u,
      { 0, 2, 2, 2, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, PUZ__PDB_NONE } },
    { "7-8", "78", 4, 7u,
      { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, PUZ__PDB_NONE } },
    { "6-6-6-6", "6666", 5, 1u,
      { 3, 3, 3, 2, 2, 3, 3, 3, 2, 2, 1, 1, 0, 2, 2, 1, 1, 0, 0, 0,
        1, 1, 0, 0, PUZ__PDB_NONE } },
    { "4x6", "444444", 5, 1u,
      { 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 3, 3, 4, 4, 2, 3, 3, 4, 4, 2,
        5, 5, 5, 5, PUZ__PDB_NONE } },
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

bool puz_pdb_partition_serves(enum puz_pdb_partition p,
                              const struct puz_board *goal)
{
    const struct puz__partition *pt = puz__partition_get(p);
    unsigned o;

    if (pt == NULL || goal->n != pt->n)
        return false;
    o = puz__orbit_of(goal);
    return o < PUZ__ORBITS && (pt->orbits >> o & 1);
}

puz_err puz_pdb_partition_parse(const char *s, enum puz_pdb_partition *out)
{
    *out = PUZ_PDB_663;
    for (unsigned i = 0; i < PUZ_PDB_PARTITION_COUNT_; i++)
        if (strcmp(s, partitions[i].name) == 0 ||
            strcmp(s, partitions[i].alias) == 0) {
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

unsigned puz__orbit_of(const struct puz_board *goal)
{
    unsigned orbit, sym;

    classify(goal->n, goal->blank, &orbit, &sym);
    return orbit;
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
    if (n < 3 || n > 5 || !puz_board_square(goal))
        return PUZ_EINVAL;
    f->n = n;
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
    for (unsigned c = 0; c < f->n * f->n; c++)
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
    d->cells = pt->n * pt->n;
    puz__canonical_goal(d->n, orbit, &d->goal);
    layout_groups(d, pt->by_cell);
    share_tables(d);
    for (unsigned i = 0; i < d->ngroups; i++) {
        d->g[i].entries = 1;
        for (unsigned j = 0; j < d->g[i].k; j++)
            d->g[i].entries *= d->cells - j;
    }
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

size_t puz__pdb_table_bytes(const struct puz_pdb *d,
                            size_t off[PUZ__PDB_MAX_GROUPS])
{
    size_t total = 0;

    for (unsigned i = 0; i < d->ngroups; i++) {
        off[i] = total;
        if (d->g[i].table == i)
            total += (puz__pdb_group_words(d->g[i].k, d->cells) * 8 + 63) &
                     ~(size_t)63;
    }
    return total;
}

void puz__pdb_attach(struct puz_pdb *d, void *mem)
{
    size_t off[PUZ__PDB_MAX_GROUPS];

    puz__pdb_table_bytes(d, off);
    for (unsigned i = 0; i < d->ngroups; i++)
        d->g[i].nib = (const uint64_t *)((uint8_t *)mem +
                                         off[d->g[i].table]);
}

unsigned puz__pdb_sum(const struct puz_pdb *d, const uint8_t *cells)
{
    uint8_t pos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];
    unsigned md = 0, extra = 0, n = d->n;

    for (unsigned c = 0; c < d->cells; c++) {
        unsigned t = cells[c], h, gi;
        if (t == 0)
            continue;
        gi = d->group_of[t];
        pos[gi][d->slot_of[t]] = d->g[gi].cmap[c];
        h = d->home[t];
        md += (unsigned)(abs((int)(c / n) - (int)(h / n)) +
                         abs((int)(c % n) - (int)(h % n)));
    }
    for (unsigned i = 0; i < d->ngroups; i++)
        extra += puz__pdb_lookup(d, i, pos[i]);
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
    return goal->n == d->n && puz__orbit_of(goal) == d->orbit;
}

size_t puz_pdb_bytes(const puz_pdb *d)
{
    return d->data_bytes;
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
    if (b->n != d->n || !puz_pdb_serves(d, goal) ||
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
    free(d->mem);
    free(d->fsm);
    free(d);
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
                     "goals with the blank in a corner)", puz_board_rows(goal),
                     n);
        return PUZ_EINVAL;
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
