/*
 * idastar_pdb.c - IDA* specialised for 4x4 boards with the `pdb`
 * heuristic, the way Korf & Felner ran it: the board is searched in the
 * goal's canonical frame, each group's tile positions and table entry
 * are kept per node, so a move re-ranks one group (and, with
 * reflection, one group of the transposed board) and the Manhattan part
 * changes by one tile. No move undoes the previous one; the path lives
 * on the stack; the clock and the cancel flag are looked at every 4096
 * expansions. Boards of other sizes or heuristics go to puz__idastar().
 */
#include <string.h>

#include "pdb_impl.h"
#include "search.h"

/* No 15-puzzle needs more than 80 moves; leave room for bad bounds. */
#define MAX_DEPTH 128u

struct ipdb {
    struct puz__search *s;
    const struct puz_pdb *d;
    const struct puz__pdbctx *c;
    struct puz__moves mv;
    uint8_t cells[PUZ__PDB_CELLS];
    uint8_t pos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];   /* by group, slot */
    uint8_t rpos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];  /* transposed */
    unsigned ent[PUZ__PDB_MAX_GROUPS], rent[PUZ__PDB_MAX_GROUPS];
    unsigned sum, rsum, md;
    unsigned bound, next_bound, found_len;
    enum puz_status stop;
    uint8_t path[MAX_DEPTH];
};

/* What one move changed, to put back on the way up. */
struct undo {
    unsigned g, rg, ent, rent, sum, rsum, md;
    uint8_t pos, rpos;
};

static unsigned h_of(const struct ipdb *ip)
{
    unsigned s = ip->rsum > ip->sum ? ip->rsum : ip->sum;

    return ip->md + 2 * s;
}

static void init_state(struct ipdb *ip)
{
    const struct puz_pdb *d = ip->d;

    ip->md = ip->sum = ip->rsum = 0;
    for (unsigned c = 0; c < PUZ__PDB_CELLS; c++) {
        unsigned t = ip->cells[c], rt;
        if (t == 0)
            continue;
        ip->pos[d->group_of[t]][d->slot_of[t]] = (uint8_t)c;
        rt = d->rtile[t];
        ip->rpos[d->group_of[rt]][d->slot_of[rt]] = d->transpose[c];
        ip->md += ip->c->md[t][c];
    }
    for (unsigned g = 0; g < d->ngroups; g++) {
        ip->ent[g] = puz__pdb_entry(d->g[g].nib,
                                    puz__pdb_rank(ip->pos[g], d->g[g].k));
        ip->rent[g] = puz__pdb_entry(d->g[g].nib,
                                     puz__pdb_rank(ip->rpos[g], d->g[g].k));
        ip->sum += ip->ent[g];
        ip->rsum += ip->rent[g];
    }
    if (!d->reflect)
        ip->rsum = 0;
}

/* Tile t slides from cell from into cell to (the blank). */
static void apply(struct ipdb *ip, unsigned t, unsigned from, unsigned to,
                  struct undo *u)
{
    const struct puz_pdb *d = ip->d;
    unsigned g = d->group_of[t], sl = d->slot_of[t], e;

    u->g = g;
    u->ent = ip->ent[g];
    u->sum = ip->sum;
    u->rsum = ip->rsum;
    u->md = ip->md;
    u->pos = ip->pos[g][sl];
    u->rg = u->rent = 0;
    u->rpos = 0;
    ip->md += ip->c->md[t][to];
    ip->md -= ip->c->md[t][from];
    ip->pos[g][sl] = (uint8_t)to;
    e = puz__pdb_entry(d->g[g].nib, puz__pdb_rank(ip->pos[g], d->g[g].k));
    ip->sum += e - ip->ent[g];
    ip->ent[g] = e;
    if (d->reflect) {
        unsigned rt = d->rtile[t], rg = d->group_of[rt];
        unsigned rsl = d->slot_of[rt];
        u->rg = rg;
        u->rent = ip->rent[rg];
        u->rpos = ip->rpos[rg][rsl];
        ip->rpos[rg][rsl] = d->transpose[to];
        e = puz__pdb_entry(d->g[rg].nib,
                           puz__pdb_rank(ip->rpos[rg], d->g[rg].k));
        ip->rsum += e - ip->rent[rg];
        ip->rent[rg] = e;
    }
    ip->cells[to] = (uint8_t)t;
    ip->cells[from] = 0;
}

static void revert(struct ipdb *ip, unsigned t, unsigned from, unsigned to,
                   const struct undo *u)
{
    const struct puz_pdb *d = ip->d;

    ip->cells[from] = (uint8_t)t;
    ip->cells[to] = 0;
    ip->pos[u->g][d->slot_of[t]] = u->pos;
    ip->ent[u->g] = u->ent;
    if (d->reflect) {
        unsigned rt = d->rtile[t];
        ip->rpos[u->rg][d->slot_of[rt]] = u->rpos;
        ip->rent[u->rg] = u->rent;
    }
    ip->sum = u->sum;
    ip->rsum = u->rsum;
    ip->md = u->md;
}

/* Count one expansion; every 4096 look at the clock and the flag. */
static int out_of_budget(struct ipdb *ip)
{
    struct puz__search *s = ip->s;
    uint64_t e = ++s->out->stats.expanded;

    if (s->limits->max_nodes && e > s->limits->max_nodes)
        ip->stop = PUZ_LIMIT_NODES;
    else if ((e & 4095) == 0)
        ip->stop = puz__check_limits(s);
    return ip->stop != PUZ_SOLVED;
}

/* Probe below the node with the blank at `blank`, g moves in, value h.
 * A child over the bound is priced without recursing into it. */
static int probe(struct ipdb *ip, unsigned blank, unsigned g, unsigned h,
                 unsigned back)
{
    struct undo u;

    if (h == 0) {
        ip->found_len = g;
        return 1;
    }
    if (g + 1 >= MAX_DEPTH || out_of_budget(ip))
        return 0;
    for (unsigned dir = 0; dir < 4; dir++) {
        unsigned from = ip->mv.to[blank][dir], t, ch;
        if (from == 255 || dir == back)
            continue;
        t = ip->cells[from];
        apply(ip, t, from, blank, &u);
        ip->s->out->stats.generated++;
        ch = h_of(ip);
        if (g + 1 + ch > ip->bound) {
            if (g + 1 + ch < ip->next_bound)
                ip->next_bound = g + 1 + ch;
        } else {
            ip->path[g] = (uint8_t)dir;
            if (probe(ip, from, g + 1, ch, dir ^ 1u))
                return 1;
        }
        revert(ip, t, from, blank, &u);
        if (ip->stop != PUZ_SOLVED)
            return 0;
    }
    return 0;
}

/* Canonical blank moves back to the caller's frame. */
static puz_err store_path(struct ipdb *ip, unsigned blank)
{
    const struct puz__frame *f = &ip->c->fr;
    uint8_t dirs[MAX_DEPTH];

    for (unsigned i = 0; i < ip->found_len; i++) {
        unsigned next = ip->mv.to[blank][ip->path[i]];
        int diff = (int)f->inv[next] - (int)f->inv[blank];
        dirs[i] = (uint8_t)(diff == -4 ? PUZ_UP : diff == 4 ? PUZ_DOWN
                            : diff == -1 ? PUZ_LEFT : PUZ_RIGHT);
        blank = next;
    }
    return puz__set_path(ip->s, dirs, ip->found_len);
}

static void search(struct ipdb *ip, unsigned blank)
{
    unsigned h0 = h_of(ip);

    for (ip->bound = h0;; ip->bound = ip->next_bound) {
        ip->next_bound = UINT32_MAX;
        ip->s->bound = ip->bound;
        if (probe(ip, blank, 0, h0, PUZ_NO_DIR)) {
            ip->s->out->status = store_path(ip, blank) == PUZ_OK
                                     ? PUZ_SOLVED : PUZ_LIMIT_MEMORY;
            return;
        }
        if (ip->stop != PUZ_SOLVED || ip->next_bound >= MAX_DEPTH) {
            ip->s->out->status = ip->stop != PUZ_SOLVED ? ip->stop
                                                        : PUZ_LIMIT_DEPTH;
            return;
        }
        if (ip->s->out->stats.max_frontier < ip->next_bound)
            ip->s->out->stats.max_frontier = ip->next_bound;
    }
}

puz_err puz__idastar_pdb(struct puz__search *s)
{
    const struct puz__pdbctx *c = s->hctx;
    struct ipdb ip;
    unsigned blank;

    if (s->n != 4 || s->h != &puz__h_pdb || c == NULL || c->db == NULL)
        return puz__idastar(s);
    memset(&ip, 0, sizeof(ip));
    ip.s = s;
    ip.c = c;
    ip.d = c->db;
    ip.stop = PUZ_SOLVED;
    puz__moves_init(&ip.mv, 4);
    puz__frame_map(&c->fr, s->start->cells, ip.cells);
    blank = c->fr.cell[s->start->blank];
    init_state(&ip);
    search(&ip, blank);
    return PUZ_OK;
}
