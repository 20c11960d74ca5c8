/*
 * pdb.c - what pattern databases mean: the 6-6-3 and 7-8 partitions, the
 * symmetry frames that let one table serve every goal of a class, the
 * additive lookup, and the puz_tables bundle the searches read.
 * Building is in pdb_build.c, files in pdb_file.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdb_impl.h"

struct puz_tables {
    puz_table3 *t3[PUZ__ORBITS];
    puz_pdb *pdb[PUZ_PDB_PARTITION_COUNT_][PUZ__ORBITS];
};

/*
 * Groups by goal cell for the canonical corner goal (blank in cell 15):
 *
 *   6-6-3:  0 2 2 2     7-8:  0 0 0 0
 *           0 0 1 1           0 0 0 0
 *           0 0 1 1           1 1 1 1
 *           0 1 1 .           1 1 1 .
 *
 * Turned by 180 degrees onto Korf's goal (blank in cell 0) these give,
 * with the reflected lookup, Korf & Felner's published averages: 6-6-3
 * ~620k generated nodes per Korf instance (they report ~618k; splitting
 * the top three rows into halves instead needs 7x more), 7-8 a mean
 * initial h of 45.6 (they report 45.63).
 */
static const uint8_t groups_663[PUZ__PDB_CELLS] = {
    0, 2, 2, 2, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 1, 255,
};
static const uint8_t groups_78[PUZ__PDB_CELLS] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 255,
};

#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
const uint8_t puz__pdb_bits8[256] = {
    B6(0), B6(1), B6(1), B6(2),
};

/* Representative blank cell of each class, per side (3 or 4). */
static const uint8_t orbit_rep[2][PUZ__ORBITS] = { { 8, 7, 4 },
                                                   { 15, 14, 10 } };

const char *puz_pdb_partition_name(enum puz_pdb_partition p)
{
    return p == PUZ_PDB_663 ? "6-6-3" : p == PUZ_PDB_78 ? "7-8" : "unknown";
}

puz_err puz_pdb_partition_parse(const char *s, enum puz_pdb_partition *out)
{
    *out = PUZ_PDB_663;
    if (strcmp(s, "6-6-3") == 0 || strcmp(s, "663") == 0)
        return PUZ_OK;
    *out = PUZ_PDB_78;
    if (strcmp(s, "7-8") == 0 || strcmp(s, "78") == 0)
        return PUZ_OK;
    *out = PUZ_PDB_663;
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
    for (unsigned o = 0; o < PUZ__ORBITS; o++)
        for (unsigned s = 0; s < 8; s++)
            if (sym_apply(s, n, b) == orbit_rep[n - 3][o]) {
                *orbit = o;
                *sym = s;
                return;
            }
    *orbit = 0;
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
    unsigned rep = orbit_rep[n - 3][orbit], t = 1;

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
    if (n != 3 && n != 4)
        return PUZ_EINVAL;
    f->n = n;
    classify(n, goal->blank, &f->orbit, &f->sym);
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
 * for the edge and centre classes cell 15 takes the place of the blank's
 * cell in the corner partition. */
static void layout_groups(struct puz_pdb *d, const uint8_t *by_cell)
{
    unsigned rep = d->goal.blank;

    memset(d->g, 0, sizeof(d->g));
    d->ngroups = 0;
    for (unsigned c = 0; c < PUZ__PDB_CELLS; c++) {
        unsigned t = d->goal.cells[c], gi;
        struct puz__group *g;

        if (t == 0)
            continue;
        gi = by_cell[c == 15 ? rep : c];
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
}

void puz__pdb_layout(struct puz_pdb *d, enum puz_pdb_partition part,
                     unsigned orbit)
{
    unsigned rep;

    d->part = part;
    d->orbit = orbit;
    puz__canonical_goal(4, orbit, &d->goal);
    layout_groups(d, part == PUZ_PDB_78 ? groups_78 : groups_663);
    for (unsigned i = 0; i < d->ngroups; i++) {
        d->g[i].entries = 1;
        for (unsigned j = 0; j < d->g[i].k; j++)
            d->g[i].entries *= PUZ__PDB_CELLS - j;
    }
    /* The transposed board is a board towards the same canonical goal
     * only when the transpose keeps the goal's blank in place: then the
     * same tables give a second estimate, and the larger one is used. */
    rep = d->goal.blank;
    d->reflect = sym_apply(2, 4, rep) == rep;
    for (unsigned c = 0; c < PUZ__PDB_CELLS; c++) {
        unsigned tc = sym_apply(2, 4, c);
        d->transpose[c] = (uint8_t)tc;
        d->rtile[d->goal.cells[c]] = d->goal.cells[tc];
    }
}

unsigned puz__pdb_sum(const struct puz_pdb *d, const uint8_t *cells)
{
    uint8_t pos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];
    unsigned md = 0, extra = 0;

    for (unsigned c = 0; c < PUZ__PDB_CELLS; c++) {
        unsigned t = cells[c], h;
        if (t == 0)
            continue;
        pos[d->group_of[t]][d->slot_of[t]] = (uint8_t)c;
        h = d->home[t];
        md += (unsigned)(abs((int)(c / 4) - (int)(h / 4)) +
                         abs((int)(c % 4) - (int)(h % 4)));
    }
    for (unsigned i = 0; i < d->ngroups; i++)
        extra += puz__pdb_entry(d->g[i].nib,
                                puz__pdb_rank(pos[i], d->g[i].k));
    return md + 2 * extra;
}

unsigned puz__pdb_value(const struct puz_pdb *d, const uint8_t *cells)
{
    uint8_t t[PUZ__PDB_CELLS];
    unsigned h = puz__pdb_sum(d, cells), hr;

    if (!d->reflect)
        return h;
    for (unsigned c = 0; c < PUZ__PDB_CELLS; c++)
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
    return goal->n == 4 && puz__orbit_of(goal) == d->orbit;
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
    if (b->n != 4 || !puz_pdb_serves(d, goal) ||
        puz__frame_init(&f, goal) != PUZ_OK)
        return PUZ_EINVAL;
    puz__frame_map(&f, b->cells, cells);
    *out = puz__pdb_value(d, cells);
    return PUZ_OK;
}

puz_err puz_tables_create(puz_tables **out)
{
    *out = calloc(1, sizeof(**out));
    return *out != NULL ? PUZ_OK : PUZ_ENOMEM;
}

void puz_tables_destroy(puz_tables *t)
{
    if (t == NULL)
        return;
    for (unsigned o = 0; o < PUZ__ORBITS; o++) {
        puz_table3_destroy(t->t3[o]);
        for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++)
            puz_pdb_destroy(t->pdb[p][o]);
    }
    free(t);
}

puz_err puz_tables_add_3x3(puz_tables *t)
{
    struct puz_board goal;
    puz_err rc;

    for (unsigned o = 0; o < PUZ__ORBITS; o++) {
        if (t->t3[o] != NULL)
            continue;
        puz__canonical_goal(3, o, &goal);
        rc = puz_table3_create(&goal, &t->t3[o]);
        if (rc != PUZ_OK)
            return rc;
    }
    return PUZ_OK;
}

puz_err puz_tables_add_pdb(puz_tables *t, puz_pdb *d)
{
    puz_pdb **slot = &t->pdb[d->part][d->orbit];

    if (*slot != NULL) {
        puz_pdb_destroy(d);
        return PUZ_EINVAL;
    }
    *slot = d;
    return PUZ_OK;
}

const puz_pdb *puz_tables_pdb(const puz_tables *t,
                              const struct puz_board *goal)
{
    unsigned o;

    if (t == NULL || goal->n != 4)
        return NULL;
    o = puz__orbit_of(goal);
    return t->pdb[PUZ_PDB_78][o] ? t->pdb[PUZ_PDB_78][o]
                                 : t->pdb[PUZ_PDB_663][o];
}

static const puz_table3 *table3_for(const puz_tables *t,
                                    const struct puz_board *goal)
{
    return t != NULL && goal->n == 3 ? t->t3[puz__orbit_of(goal)] : NULL;
}

bool puz_tables_serves(const puz_tables *t, const struct puz_board *goal)
{
    return table3_for(t, goal) != NULL || puz_tables_pdb(t, goal) != NULL;
}

puz_err puz_tables_distance3(const puz_tables *t, const struct puz_board *b,
                             const struct puz_board *goal, unsigned *out)
{
    const puz_table3 *t3 = table3_for(t, goal);
    struct puz__frame f;
    struct puz_board c;

    *out = PUZ_TABLE3_UNREACHABLE;
    if (t3 == NULL || b->n != 3 || puz__frame_init(&f, goal) != PUZ_OK)
        return PUZ_EINVAL;
    c = f.goal;
    puz__frame_map(&f, b->cells, c.cells);
    c.blank = f.cell[b->blank];
    *out = puz_table3_distance(t3, &c);
    return PUZ_OK;
}

const puz_table3 *puz_tables_table3(const puz_tables *t,
                                    const struct puz_board *goal)
{
    for (unsigned o = 0; o < PUZ__ORBITS; o++)
        if (t->t3[o] != NULL &&
            puz_board_equal(puz_table3_goal(t->t3[o]), goal))
            return t->t3[o];
    return NULL;
}

size_t puz_tables_bytes(const puz_tables *t)
{
    size_t bytes = 0;

    for (unsigned o = 0; o < PUZ__ORBITS; o++) {
        if (t->t3[o] != NULL)
            bytes += PUZ_TABLE3_STATES;
        for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++)
            if (t->pdb[p][o] != NULL)
                bytes += t->pdb[p][o]->data_bytes;
    }
    return bytes;
}

/* Frame, table and canonical Manhattan distances for one solve. */
puz_err puz__pdbctx_init(struct puz__pdbctx *c,
                         const struct puz_tables *tables,
                         const struct puz_board *goal, char *msg)
{
    memset(c, 0, sizeof(*c));
    if (puz__frame_init(&c->fr, goal) != PUZ_OK) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no pattern databases for "
                     "%ux%u boards (3x3 and 4x4 only)", goal->n, goal->n);
        return PUZ_EINVAL;
    }
    c->t3 = table3_for(tables, goal);
    c->db = puz_tables_pdb(tables, goal);
    if (c->t3 == NULL && c->db == NULL) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no %s loaded for goals with "
                     "the blank in a%s %s cell", goal->n == 3 ? "3x3 table"
                     : "4x4 pattern database", c->fr.orbit == 1 ? "n" : "",
                     puz__orbit_name(c->fr.orbit));
        return PUZ_EINVAL;
    }
    for (unsigned t = 1; t < goal->n * goal->n && c->db != NULL; t++)
        for (unsigned p = 0; p < PUZ__PDB_CELLS; p++) {
            unsigned h = c->db->home[t];
            c->md[t][p] = (uint8_t)(abs((int)(p / 4) - (int)(h / 4)) +
                                    abs((int)(p % 4) - (int)(h % 4)));
        }
    return PUZ_OK;
}
