/*
 * idastar_pdb.c - the IDA* plug-in for 4x4 and 5x5 boards (and rectangles
 * up to 16 cells) with the `pdb` heuristic, the way Korf & Felner ran
 * it. The board is searched in the goal's canonical frame; each group's tile cells (in its table's frame)
 * and table entry are kept per node, for the board and for its
 * transpose, so a move re-ranks one group of each and the Manhattan part
 * changes by one tile. h is the Manhattan distance plus twice the larger
 * of the two entry sums.
 *
 * A node's children are looked up together: their table words are
 * prefetched first and read second, so the cache misses of a 5x5 node
 * (tables of 64 MB) overlap instead of queueing. With zero-aware
 * tables (6-6-6-6z) the children within the bound then read their blank
 * region's entries where the moved group cuts the free cells, and with a
 * pair (6-6-6-6z2) those still within it the second partition's sums
 * too (its two own groups; the other two are the first's). Children
 * over the bound are priced without a call. No move undoes the previous
 * one, and on 5x5 no move completes a string the forbidden-move
 * automaton (movefsm.c, built by pdb_fsm.c) rules out, which prunes most
 * duplicate paths up to 12 moves (10 without a shared automaton). The
 * driver (idastar.c) owns iterations, budget and path.
 */
#include <stdlib.h>
#include <string.h>

#include "heur/pdb_impl.h"
#include "search/idastar.h"

/* No 24-puzzle is known to need more than 152 moves (Korf's hardest
 * random instances need about 150); leave room for bad bounds. */
#define MAX_DEPTH 255u
#define HOT static inline __attribute__((always_inline))

/* Per canonical tile, in one partition's tables: its group and slot, for
 * the board and for the transposed board, and its cell in the group's
 * frame per cell (PUZ__PDB_NONE and 0 for a tile in none of its groups:
 * in a pair's second partition, those of the groups it shares). */
struct tile_map {
    uint8_t grp[PUZ__PDB_CELLS], slot[PUZ__PDB_CELLS];
    uint8_t rgrp[PUZ__PDB_CELLS], rslot[PUZ__PDB_CELLS];
    uint8_t tcell[PUZ__PDB_CELLS][PUZ__PDB_CELLS];
    uint8_t rtcell[PUZ__PDB_CELLS][PUZ__PDB_CELLS];
};

struct ipdb {
    struct puz__ida c;
    const struct puz_pdb *d;
    const struct puz__pdbctx *ctx;
    struct puz__moves mv;
    bool reflect;
    bool za;                    /* zero-aware tables (struct puz__za) */
    int hw;                     /* the CPU has a popcount instruction */
    unsigned start_blank, h0;
    uint8_t cells[PUZ__PDB_CELLS];
    uint8_t pos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];   /* by group, slot */
    uint8_t rpos[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];  /* transposed */
    unsigned ent[PUZ__PDB_MAX_GROUPS], rent[PUZ__PDB_MAX_GROUPS];
    unsigned sum, rsum, md;
    struct tile_map tm;
    const uint64_t *nib[PUZ__PDB_MAX_GROUPS];
    unsigned k[PUZ__PDB_MAX_GROUPS];
    const uint32_t *fsm;        /* forbidden-move automaton, or NULL */
    /* A pair (6-6-6-6z2): the second partition's own groups (d2), kept
     * as the first's are; its sum adds the first's groups in `shared`.
     * A tile of a shared group has group PUZ__PDB_NONE here. */
    const struct puz_pdb *d2;
    unsigned shared;
    uint8_t pos2[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];
    uint8_t rpos2[PUZ__PDB_MAX_GROUPS][PUZ__PDB_MAX_K];
    unsigned ent2[PUZ__PDB_MAX_GROUPS], rent2[PUZ__PDB_MAX_GROUPS];
    unsigned sum2, rsum2;       /* over d2's own groups */
    struct tile_map tm2;
    /* d2's set and region numbering: the first's where the two are the
     * same (puz__pdb_pair), so both read one copy */
    const struct puz__za *z2;
};

/* One child of the node being expanded: the move and its new entries. */
struct child {
    uint8_t dir, from, tile, g, rg, p, rp;
    uint8_t g2, rg2, p2, rp2;   /* a pair's second set (PUZ__PDB_NONE) */
    unsigned e, re, h, e2, re2;
    uint32_t fs;
    unsigned md;
    uint64_t idx, ridx;
};

static unsigned h_of(unsigned md, unsigned sum, unsigned rsum)
{
    return md + 2 * (rsum > sum ? rsum : sum);
}

/* m for the partition set of d's tables (d itself, or a pair's second). */
static void init_tile_map(struct tile_map *m, const struct puz_pdb *d,
                          const struct puz_pdb *set)
{
    for (unsigned t = 1; t < d->cells; t++) {
        unsigned rt = d->rtile[t];
        m->grp[t] = set->group_of[t];
        m->slot[t] = set->slot_of[t];
        m->rgrp[t] = set->group_of[rt];
        m->rslot[t] = set->slot_of[rt];
        for (unsigned c = 0; c < d->cells; c++) {
            m->tcell[t][c] = m->grp[t] == PUZ__PDB_NONE ? 0
                             : set->g[m->grp[t]].cmap[c];
            m->rtcell[t][c] = m->rgrp[t] == PUZ__PDB_NONE ? 0
                : set->g[m->rgrp[t]].cmap[d->transpose[c]];
        }
    }
}

static void init_tiles(struct ipdb *ip)
{
    const struct puz_pdb *d = ip->d;

    init_tile_map(&ip->tm, d, d);
    for (unsigned g = 0; g < d->ngroups; g++) {
        ip->nib[g] = d->g[g].nib;
        ip->k[g] = d->g[g].k;
    }
    if (ip->d2 != NULL)
        init_tile_map(&ip->tm2, d, ip->d2);
}

/* The entries of d's groups with their tiles at pos (the board) and rpos
 * (its transpose, read only with reflect) and the blank at cell blank,
 * into ent and rent, and their sums. */
static void group_entries(const struct puz_pdb *d, bool reflect,
                          unsigned blank, uint8_t (*pos)[PUZ__PDB_MAX_K],
                          uint8_t (*rpos)[PUZ__PDB_MAX_K], unsigned *ent,
                          unsigned *rent, unsigned *sum, unsigned *rsum)
{
    *sum = *rsum = 0;
    /* Without reflection rpos holds no placement: looking it up would
     * rank garbage cells (out of range; seen by UBSan on centre goals). */
    for (unsigned g = 0; g < d->ngroups; g++) {
        const uint8_t *cm = d->g[g].cmap;
        ent[g] = puz__pdb_lookup_blank(d, g, pos[g], cm[blank]);
        rent[g] = reflect ? puz__pdb_lookup_blank(d, g, rpos[g],
                                                  cm[d->transpose[blank]])
                          : 0;
        *sum += ent[g];
        *rsum += rent[g];
    }
}

/* A pair's second sums: d2's own groups plus the shared ones of d. */
static void init_state2(struct ipdb *ip, unsigned blank)
{
    const struct puz_pdb *d2 = ip->d2;

    for (unsigned c = 0; c < d2->cells; c++) {
        unsigned t = ip->cells[c];
        if (t == 0)
            continue;
        if (ip->tm2.grp[t] != PUZ__PDB_NONE)
            ip->pos2[ip->tm2.grp[t]][ip->tm2.slot[t]] = ip->tm2.tcell[t][c];
        if (ip->tm2.rgrp[t] != PUZ__PDB_NONE)
            ip->rpos2[ip->tm2.rgrp[t]][ip->tm2.rslot[t]] = ip->tm2.rtcell[t][c];
    }
    group_entries(d2, ip->reflect, blank, ip->pos2, ip->rpos2, ip->ent2,
                  ip->rent2, &ip->sum2, &ip->rsum2);
}

static void init_state(struct ipdb *ip)
{
    const struct puz_pdb *d = ip->d;
    unsigned blank = 0;

    ip->md = 0;
    for (unsigned c = 0; c < d->cells; c++) {
        unsigned t = ip->cells[c];
        if (t == 0) {
            blank = c;
            continue;
        }
        ip->pos[ip->tm.grp[t]][ip->tm.slot[t]] = ip->tm.tcell[t][c];
        ip->rpos[ip->tm.rgrp[t]][ip->tm.rslot[t]] = ip->tm.rtcell[t][c];
        ip->md += ip->ctx->md[t][c];
    }
    group_entries(d, ip->reflect, blank, ip->pos, ip->rpos, ip->ent,
                  ip->rent, &ip->sum, &ip->rsum);
    if (ip->d2 != NULL)
        init_state2(ip, blank);
}

/* The shared groups' entries, board and transposed (a pair). */
static inline void shared_sums(const struct ipdb *ip, unsigned *sh,
                               unsigned *rsh)
{
    *sh = *rsh = 0;
    for (unsigned g = 0; g < ip->d->ngroups; g++)
        if (ip->shared >> g & 1) {
            *sh += ip->ent[g];
            *rsh += ip->rent[g];
        }
}

/* The root's h: a pair's larger sum where it has one. */
static unsigned h_root(const struct ipdb *ip)
{
    unsigned h = h_of(ip->md, ip->sum, ip->rsum), sh, rsh, h2;

    if (ip->d2 == NULL)
        return h;
    shared_sums(ip, &sh, &rsh);
    h2 = h_of(ip->md, ip->sum2 + sh, ip->rsum2 + rsh);
    return h2 > h ? h2 : h;
}

/*
 * Ranking counts the group's cells below each cell. The build flags do
 * not assume a popcount instruction, so the probe is compiled twice: with
 * the byte-table count of pdb_impl.h, and (hw) for CPUs that have the
 * instruction, picked at run time. Same values, fewer loads per node.
 */
HOT unsigned popc(uint32_t x, const unsigned n, const int hw)
{
    if (hw)
        return (unsigned)__builtin_popcount(x);
    return puz__pdb_pop(x, n == 0 ? 16 : n * n);
}

/* The copies of the search below take n as a constant: 4 or 5 for the
 * squares, 0 for every rectangle (at most 16 cells, read from the
 * tables), so the squares' copies are what they were. */
HOT unsigned ncells(const struct ipdb *ip, const unsigned n)
{
    return n == 0 ? ip->d->cells : n * n;
}

/* Rank a group's k cells with slot sl moved to cell p (puz__pdb_rank). */
HOT uint64_t rank_moved(const struct ipdb *ip, const uint8_t *pos,
                        unsigned k, unsigned sl, unsigned p, const unsigned n,
                        const int hw)
{
    uint32_t used = 0;
    uint64_t idx = 0;

    for (unsigned i = 0; i < k; i++) {
        unsigned c = i == sl ? p : pos[i];
        idx = idx * (ncells(ip, n) - i) + c -
              popc(used & ((1u << c) - 1), n, hw);
        used |= 1u << c;
    }
    return idx;
}

/*
 * Zero-aware tables, in two steps so that a node's children overlap
 * their misses (za_refine, pair_refine): the number among the cut sets
 * of group g's set with slot sl moved to p (its record prefetched) and
 * *order, or PUZ__ZA_WHOLE; then (za_at) the index with the blank on
 * cell blank, its table word prefetched. Only the moved tile's group
 * can change region: every other group sees the blank step between two
 * of its free cells.
 */
HOT uint32_t za_cut_moved(const struct puz__za *z, const uint8_t *pos,
                          unsigned k, unsigned sl, unsigned p,
                          unsigned *order, const int hw)
{
    uint8_t moved[PUZ__PDB_MAX_K];
    uint32_t cut;

    memcpy(moved, pos, PUZ__PDB_MAX_K);
    moved[sl] = (uint8_t)p;
    cut = k == 6 ? puz__za_cut_k(z, moved, 6, hw, order)
                 : puz__za_cut_k(z, moved, k, hw, order);
    if (cut != PUZ__ZA_WHOLE)
        __builtin_prefetch(&z->rec[cut]);
    return cut;
}

HOT uint64_t za_at(const struct puz__za *z, const uint64_t *za, uint32_t cut,
                   unsigned order, unsigned blank)
{
    uint64_t zi = puz__za_index_cut(z, cut, order, blank);

    __builtin_prefetch(&za[zi >> 4]);
    return zi;
}

/* First pass over the children: which tile moves, the new indices, and
 * a prefetch of every table word they need. Returns how many. */
HOT unsigned gen_children(struct ipdb *ip, unsigned blank, unsigned back,
                          uint32_t fs, struct child *ch, const unsigned n,
                          const int hw)
{
    unsigned cnt = 0;

    /* 4x4 in direction order (PUZ_UP..PUZ_RIGHT): a table read per child
     * there cost 2% more instructions on Korf's 100 */
    for (unsigned oi = 0; oi < 4; oi++) {
        unsigned dir = n == 5 ? puz__pdb_order5[oi] : oi;
        unsigned from = ip->mv.to[blank][dir], t;
        struct child *c = &ch[cnt];
        if (from == PUZ__WALL || dir == back)
            continue;
        if (n == 5) {
            c->fs = ip->fsm != NULL ? ip->fsm[4 * fs + dir] : 0;
            if (c->fs == PUZ__FSM_DEAD)
                continue;
            /* the child's row, read when it is expanded: the automaton
             * (783 KB) misses the core's cache, a tenth of the time */
            if (ip->fsm != NULL)
                __builtin_prefetch(&ip->fsm[4 * c->fs]);
        }
        t = ip->cells[from];
        c->dir = (uint8_t)dir;
        c->from = (uint8_t)from;
        c->tile = (uint8_t)t;
        c->g = ip->tm.grp[t];
        c->p = ip->tm.tcell[t][blank];
        c->idx = rank_moved(ip, ip->pos[c->g], ip->k[c->g], ip->tm.slot[t],
                            c->p, n, hw);
        __builtin_prefetch(&ip->nib[c->g][c->idx >> 4]);
        if (ip->reflect) {
            c->rg = ip->tm.rgrp[t];
            c->rp = ip->tm.rtcell[t][blank];
            c->ridx = rank_moved(ip, ip->rpos[c->rg], ip->k[c->rg],
                                 ip->tm.rslot[t], c->rp, n, hw);
            __builtin_prefetch(&ip->nib[c->rg][c->ridx >> 4]);
        } else {
            c->rg = c->rp = 0;
            c->ridx = 0;
            c->re = 0;
        }
        cnt++;
    }
    return cnt;
}

/* Second pass: read the entries and price each child. */
HOT void price_children(struct ipdb *ip, unsigned blank, struct child *ch,
                        unsigned cnt)
{
    for (unsigned i = 0; i < cnt; i++) {
        struct child *c = &ch[i];
        unsigned md = ip->md + ip->ctx->md[c->tile][blank] -
                      ip->ctx->md[c->tile][c->from];
        unsigned sum, rsum = 0;

        c->e = puz__pdb_entry(ip->nib[c->g], c->idx);
        sum = ip->sum - ip->ent[c->g] + c->e;
        if (ip->reflect) {
            c->re = puz__pdb_entry(ip->nib[c->rg], c->ridx);
            rsum = ip->rsum - ip->rent[c->rg] + c->re;
        }
        c->md = md;
        c->h = h_of(md, sum, rsum);
    }
    ip->c.generated += cnt;
}

/*
 * Zero-aware tables: the children within the bound get their blank
 * region's entries where the moved group's tiles cut the free cells (a
 * child over the bound on plain entries is over it on these too, and
 * its plain f is still a valid next bound, so those cost nothing).
 * Indices and prefetches first, reads second, as for the plain entries
 * (finding every child's index with the plain ones, to overlap the two
 * rounds of cache misses, was slower: many children are pruned).
 */
HOT void za_refine(struct ipdb *ip, unsigned g, struct child *ch,
                   unsigned cnt, const int hw)
{
    const struct puz__za *z = &ip->d->za;
    uint32_t cut[4], rcut[4];
    unsigned ord[4], rord[4];
    uint64_t zi[4], rzi[4];

    for (unsigned i = 0; i < cnt; i++) {
        const struct child *c = &ch[i];
        unsigned t = c->tile;
        cut[i] = rcut[i] = PUZ__ZA_WHOLE;
        if (g + 1 + c->h > ip->c.bound)
            continue;
        cut[i] = za_cut_moved(z, ip->pos[c->g], ip->k[c->g], ip->tm.slot[t],
                              c->p, &ord[i], hw);
        if (ip->reflect)
            rcut[i] = za_cut_moved(z, ip->rpos[c->rg], ip->k[c->rg],
                                   ip->tm.rslot[t], c->rp, &rord[i], hw);
    }
    for (unsigned i = 0; i < cnt; i++) {
        const struct child *c = &ch[i];
        unsigned t = c->tile;
        zi[i] = cut[i] == PUZ__ZA_WHOLE ? UINT64_MAX
                : za_at(z, ip->d->g[c->g].za, cut[i], ord[i],
                        ip->tm.tcell[t][c->from]);
        rzi[i] = rcut[i] == PUZ__ZA_WHOLE ? UINT64_MAX
                 : za_at(z, ip->d->g[c->rg].za, rcut[i], rord[i],
                         ip->tm.rtcell[t][c->from]);
    }
    for (unsigned i = 0; i < cnt; i++) {
        struct child *c = &ch[i];
        unsigned rsum = 0;
        if (zi[i] == UINT64_MAX && rzi[i] == UINT64_MAX)
            continue;
        if (zi[i] != UINT64_MAX)
            c->e = puz__pdb_entry(ip->d->g[c->g].za, zi[i]);
        if (rzi[i] != UINT64_MAX)
            c->re = puz__pdb_entry(ip->d->g[c->rg].za, rzi[i]);
        if (ip->reflect)
            rsum = ip->rsum - ip->rent[c->rg] + c->re;
        c->h = h_of(c->md, ip->sum - ip->ent[c->g] + c->e, rsum);
    }
}

/*
 * A pair's second set's entry of group g2 (its tiles pos with slot sl
 * moved to p; table frame), first step: the cut set's number (*cut, its
 * record prefetched, and *order) where the moved group cuts the free
 * cells; else PUZ__ZA_WHOLE and the plain table's index, prefetched.
 * pair_refine then finds the za index (za_at) where *cut says so.
 */
HOT uint64_t pair_index(const struct ipdb *ip, const uint8_t *pos,
                        unsigned g2, unsigned sl, unsigned p, uint32_t *cut,
                        unsigned *order, const int hw)
{
    const struct puz_pdb *d2 = ip->d2;
    uint64_t i;

    *cut = za_cut_moved(ip->z2, pos, d2->g[g2].k, sl, p, order, hw);
    if (*cut != PUZ__ZA_WHOLE)
        return 0;
    i = rank_moved(ip, pos, d2->g[g2].k, sl, p, 5, hw);
    __builtin_prefetch(&d2->g[g2].nib[i >> 4]);
    return i;
}

HOT unsigned pair_entry(const struct ipdb *ip, unsigned g2, uint64_t i,
                        int za)
{
    return puz__pdb_entry(za ? ip->d2->g[g2].za : ip->d2->g[g2].nib, i);
}

/*
 * A pair: the children still within the bound get the second
 * partition's sums (its own moved group re-read, zero-aware where it
 * cuts; the shared groups' entries are the first set's, just priced),
 * and h becomes the larger estimate. A child over the bound already
 * stays over, so it costs nothing more.
 */
HOT void pair_refine(struct ipdb *ip, unsigned blank, unsigned g,
                     struct child *ch, unsigned cnt, const int hw)
{
    uint64_t i2[4], ri2[4];
    uint32_t cut[4], rcut[4];
    unsigned ord[4], rord[4];
    int z2[4], rz2[4];
    unsigned sh, rsh;

    for (unsigned i = 0; i < cnt; i++) {
        struct child *c = &ch[i];
        unsigned t = c->tile;
        c->g2 = c->rg2 = PUZ__PDB_NONE;
        cut[i] = rcut[i] = PUZ__ZA_WHOLE;
        if (g + 1 + c->h > ip->c.bound)
            continue;
        c->g2 = ip->tm2.grp[t];
        c->rg2 = ip->reflect ? ip->tm2.rgrp[t] : PUZ__PDB_NONE;
        if (c->g2 != PUZ__PDB_NONE) {
            c->p2 = ip->tm2.tcell[t][blank];
            i2[i] = pair_index(ip, ip->pos2[c->g2], c->g2, ip->tm2.slot[t],
                               c->p2, &cut[i], &ord[i], hw);
        }
        if (c->rg2 != PUZ__PDB_NONE) {
            c->rp2 = ip->tm2.rtcell[t][blank];
            ri2[i] = pair_index(ip, ip->rpos2[c->rg2], c->rg2,
                                ip->tm2.rslot[t], c->rp2, &rcut[i], &rord[i],
                                hw);
        }
    }
    for (unsigned i = 0; i < cnt; i++) {
        const struct child *c = &ch[i];
        unsigned t = c->tile;
        z2[i] = cut[i] != PUZ__ZA_WHOLE;
        rz2[i] = rcut[i] != PUZ__ZA_WHOLE;
        if (z2[i])
            i2[i] = za_at(ip->z2, ip->d2->g[c->g2].za, cut[i], ord[i],
                          ip->tm2.tcell[t][c->from]);
        if (rz2[i])
            ri2[i] = za_at(ip->z2, ip->d2->g[c->rg2].za, rcut[i], rord[i],
                           ip->tm2.rtcell[t][c->from]);
    }
    shared_sums(ip, &sh, &rsh);
    for (unsigned i = 0; i < cnt; i++) {
        struct child *c = &ch[i];
        unsigned s2 = ip->sum2, rs2 = ip->rsum2, h2;
        if (g + 1 + c->h > ip->c.bound)
            continue;
        if (c->g2 != PUZ__PDB_NONE) {
            c->e2 = pair_entry(ip, c->g2, i2[i], z2[i]);
            s2 = s2 - ip->ent2[c->g2] + c->e2;
            s2 += sh;
        } else {
            s2 += sh - ip->ent[c->g] + c->e;
        }
        if (c->rg2 != PUZ__PDB_NONE) {
            c->re2 = pair_entry(ip, c->rg2, ri2[i], rz2[i]);
            rs2 = rs2 - ip->rent2[c->rg2] + c->re2 + rsh;
        } else if (ip->reflect) {
            rs2 += rsh - ip->rent[c->rg] + c->re;
        }
        h2 = h_of(c->md, s2, ip->reflect ? rs2 : 0);
        if (h2 > c->h)
            c->h = h2;
    }
}

/* Price the children: plain entries, then zero-aware ones (5x5), then a
 * pair's second partition. */
HOT void price(struct ipdb *ip, unsigned blank, unsigned g, struct child *ch,
               unsigned cnt, const unsigned n, const int hw)
{
    price_children(ip, blank, ch, cnt);
    if (n == 5 && ip->za)
        za_refine(ip, g, ch, cnt, hw);
    if (n == 5 && ip->d2 != NULL)
        pair_refine(ip, blank, g, ch, cnt, hw);
}

/* The probe for each side and popcount flavour. */
#define PROBE_ARGS struct ipdb *ip, unsigned blank, unsigned g, unsigned h, \
                   unsigned back, uint32_t fs
static int probe4(PROBE_ARGS);
static int probe5(PROBE_ARGS);
static int probe4_hw(PROBE_ARGS);
static int probe5_hw(PROBE_ARGS);
static int probe_rect(PROBE_ARGS);
static int probe_rect_hw(PROBE_ARGS);

HOT int probe_again(PROBE_ARGS, const unsigned n, const int hw)
{
    if (n == 0)
        return hw ? probe_rect_hw(ip, blank, g, h, back, fs)
                  : probe_rect(ip, blank, g, h, back, fs);
    if (n == 4)
        return hw ? probe4_hw(ip, blank, g, h, back, fs)
                  : probe4(ip, blank, g, h, back, fs);
    return hw ? probe5_hw(ip, blank, g, h, back, fs)
              : probe5(ip, blank, g, h, back, fs);
}

/* What applying a child changed, to undo it. */
struct undo {
    unsigned md, sum, rsum, ent, rent;
    unsigned sum2, rsum2, ent2, rent2;
    uint8_t p, rp, p2, rp2;
};

/* A pair's second set: child c's own moved group (apply2) and back. */
HOT void apply2(struct ipdb *ip, const struct child *c, struct undo *u)
{
    unsigned t = c->tile;

    if (c->g2 != PUZ__PDB_NONE) {
        u->ent2 = ip->ent2[c->g2];
        u->p2 = ip->pos2[c->g2][ip->tm2.slot[t]];
        ip->pos2[c->g2][ip->tm2.slot[t]] = c->p2;
        ip->ent2[c->g2] = c->e2;
        ip->sum2 = u->sum2 - u->ent2 + c->e2;
    }
    if (c->rg2 != PUZ__PDB_NONE) {
        u->rent2 = ip->rent2[c->rg2];
        u->rp2 = ip->rpos2[c->rg2][ip->tm2.rslot[t]];
        ip->rpos2[c->rg2][ip->tm2.rslot[t]] = c->rp2;
        ip->rent2[c->rg2] = c->re2;
        ip->rsum2 = u->rsum2 - u->rent2 + c->re2;
    }
}

HOT void undo2(struct ipdb *ip, const struct child *c, const struct undo *u)
{
    unsigned t = c->tile;

    ip->sum2 = u->sum2;
    ip->rsum2 = u->rsum2;
    if (c->g2 != PUZ__PDB_NONE) {
        ip->pos2[c->g2][ip->tm2.slot[t]] = u->p2;
        ip->ent2[c->g2] = u->ent2;
    }
    if (c->rg2 != PUZ__PDB_NONE) {
        ip->rpos2[c->rg2][ip->tm2.rslot[t]] = u->rp2;
        ip->rent2[c->rg2] = u->rent2;
    }
}

/* Make child c of the node with the blank at `blank`, g moves in, the
 * current node. */
HOT void apply(struct ipdb *ip, unsigned blank, unsigned g,
               const struct child *c, struct undo *u)
{
    unsigned t = c->tile, sl = ip->tm.slot[t], rsl = ip->tm.rslot[t];

    u->md = ip->md;
    u->sum = ip->sum;
    /* a pair's fields (apply2); set here too so no path reads them unset */
    u->sum2 = ip->sum2;
    u->rsum2 = ip->rsum2;
    u->ent2 = u->rent2 = 0;
    u->p2 = u->rp2 = 0;
    u->rsum = ip->rsum;
    u->ent = ip->ent[c->g];
    u->rent = ip->rent[c->rg];
    u->p = ip->pos[c->g][sl];
    u->rp = ip->rpos[c->rg][rsl];
    ip->cells[blank] = (uint8_t)t;
    ip->cells[c->from] = 0;
    ip->md = u->md + ip->ctx->md[t][blank] - ip->ctx->md[t][c->from];
    ip->pos[c->g][sl] = c->p;
    ip->ent[c->g] = c->e;
    ip->sum = u->sum - u->ent + c->e;
    if (ip->reflect) {
        ip->rpos[c->rg][rsl] = c->rp;
        ip->rent[c->rg] = c->re;
        ip->rsum = u->rsum - u->rent + c->re;
    }
    if (ip->d2 != NULL)
        apply2(ip, c, u);
    ip->c.path[g] = c->dir;
}

/* Back to the node apply() left. */
HOT void undo(struct ipdb *ip, unsigned blank, const struct child *c,
              const struct undo *u)
{
    unsigned t = c->tile;

    ip->cells[c->from] = (uint8_t)t;
    ip->cells[blank] = 0;
    ip->md = u->md;
    ip->pos[c->g][ip->tm.slot[t]] = u->p;
    ip->ent[c->g] = u->ent;
    ip->sum = u->sum;
    if (ip->reflect) {
        ip->rpos[c->rg][ip->tm.rslot[t]] = u->rp;
        ip->rent[c->rg] = u->rent;
        ip->rsum = u->rsum;
    }
    if (ip->d2 != NULL)
        undo2(ip, c, u);
}

/* Make child c the current node, probe below it, and undo it. */
HOT int descend(struct ipdb *ip, unsigned blank, unsigned g,
                const struct child *c, const unsigned n, const int hw)
{
    struct undo u;

    apply(ip, blank, g, c, &u);
    if (probe_again(ip, c->from, g + 1, c->h, c->dir ^ 1u,
                    n == 5 ? c->fs : 0, n, hw))
        return 1;
    undo(ip, blank, c, &u);
    return 0;
}

/* Probe below the node with the blank at `blank`, g moves in, value h
 * (never over the bound: children over it are not entered).
 *
 * Generated nodes are counted as the papers (and the other plug-ins)
 * count them: a child when the search reaches it in the loop, over the
 * bound or not. price() counts a node's children all at once, so when
 * the goal turns up below child i the siblings after it, never reached,
 * are taken back here rather than counted one by one on the hot path
 * (the last iteration only: a few dozen nodes). The counters are
 * unsigned: a flush in between leaves a difference that still sums. */
HOT int probe_n(PROBE_ARGS, const unsigned n, const int hw)
{
    struct child ch[4];
    unsigned cnt;

    if (h == 0) {
        ip->c.found_len = g;
        return 1;
    }
    if (g + 1 >= MAX_DEPTH || puz__ida_expand(&ip->c))
        return 0;
    if (h < ip->c.min_h)
        ip->c.min_h = h;        /* how near the goal this probe came */
    cnt = gen_children(ip, blank, back, fs, ch, n, hw);
    price(ip, blank, g, ch, cnt, n, hw);
    for (unsigned i = 0; i < cnt; i++) {
        if (g + 1 + ch[i].h > ip->c.bound) {
            puz__ida_over(&ip->c, g + 1 + ch[i].h);
            continue;
        }
        if (descend(ip, blank, g, &ch[i], n, hw)) {
            ip->c.generated -= cnt - 1 - i;     /* never reached */
            return 1;
        }
        if (ip->c.stop != PUZ_SOLVED)
            return 0;
    }
    return 0;
}

static int probe4(PROBE_ARGS)
{
    return probe_n(ip, blank, g, h, back, fs, 4, 0);
}

static int probe5(PROBE_ARGS)
{
    return probe_n(ip, blank, g, h, back, fs, 5, 0);
}

__attribute__((target("popcnt"))) static int probe4_hw(PROBE_ARGS)
{
    return probe_n(ip, blank, g, h, back, fs, 4, 1);
}

__attribute__((target("popcnt"))) static int probe5_hw(PROBE_ARGS)
{
    return probe_n(ip, blank, g, h, back, fs, 5, 1);
}

static int probe_rect(PROBE_ARGS)
{
    return probe_n(ip, blank, g, h, back, fs, 0, 0);
}

__attribute__((target("popcnt"))) static int probe_rect_hw(PROBE_ARGS)
{
    return probe_n(ip, blank, g, h, back, fs, 0, 1);
}

/* The side the copies take: 0 for a rectangle. */
static unsigned side_of(const struct ipdb *ip)
{
    return ip->d->rect ? 0 : ip->d->n;
}

static int iterate(struct puz__ida *c, void *self)
{
    struct ipdb *ip = self;
    unsigned b = ip->start_blank, h = ip->h0;

    (void)c;
    if (ip->d->rect)
        return ip->hw ? probe_rect_hw(ip, b, 0, h, PUZ_NO_DIR, 0)
                      : probe_rect(ip, b, 0, h, PUZ_NO_DIR, 0);
    if (ip->d->n == 4)
        return ip->hw ? probe4_hw(ip, b, 0, h, PUZ_NO_DIR, 0)
                      : probe4(ip, b, 0, h, PUZ_NO_DIR, 0);
    return ip->hw ? probe5_hw(ip, b, 0, h, PUZ_NO_DIR, 0)
                  : probe5(ip, b, 0, h, PUZ_NO_DIR, 0);
}

/* Where the frontier walk records its units. */
struct cut {
    unsigned depth, count;
    uint8_t *moves;             /* NULL: count only */
};

/*
 * probe_n's walk above the cut, node for node (the same goal test,
 * depth cap, pruning, order and counts, without the limit checks: a few
 * thousand nodes), recording each node at the cut instead of probing
 * it. Leaves the state as it found it, also when it finds the goal.
 */
static int collect(struct ipdb *ip, unsigned blank, unsigned g, unsigned h,
                   unsigned back, uint32_t fs, struct cut *ct)
{
    const unsigned n = side_of(ip);
    struct child ch[4];
    unsigned cnt;

    if (g == ct->depth) {
        if (ct->moves != NULL)
            memcpy(ct->moves + (size_t)ct->count * g, ip->c.path, g);
        ct->count++;
        return 0;
    }
    if (h == 0) {
        ip->c.found_len = g;
        return 1;
    }
    if (g + 1 >= MAX_DEPTH)
        return 0;
    ip->c.expanded++;
    cnt = gen_children(ip, blank, back, fs, ch, n, 0);
    price(ip, blank, g, ch, cnt, n, 0);
    for (unsigned i = 0; i < cnt; i++) {
        struct undo u;
        int found;
        if (g + 1 + ch[i].h > ip->c.bound) {
            puz__ida_over(&ip->c, g + 1 + ch[i].h);
            continue;
        }
        apply(ip, blank, g, &ch[i], &u);
        found = collect(ip, ch[i].from, g + 1, ch[i].h, ch[i].dir ^ 1u,
                        n == 5 ? ch[i].fs : 0, ct);
        undo(ip, blank, &ch[i], &u);
        if (found) {
            ip->c.generated -= cnt - 1 - i;
            return 1;
        }
    }
    return 0;
}

static int frontier(struct puz__ida *c, void *self, unsigned cut,
                    uint8_t *moves, unsigned *count)
{
    struct ipdb *ip = self;
    struct cut ct = { cut, 0, moves };
    int found;

    (void)c;
    found = collect(ip, ip->start_blank, 0, ip->h0, PUZ_NO_DIR, 0, &ct);
    *count = ct.count;
    return found;
}

/* One unit: its moves replayed on a copy of the root's state (the
 * replay is counted by the frontier walk, not here), then the probe. */
static int unit(struct puz__ida *ida, const void *self, const uint8_t *moves,
                unsigned cut)
{
    struct ipdb w;
    const unsigned n = side_of(self);
    unsigned blank, h, back = PUZ_NO_DIR;
    uint32_t fs = 0;
    int found;

    memcpy(&w, self, sizeof(w));
    w.c = *ida;
    blank = w.start_blank;
    h = w.h0;
    for (unsigned g = 0; g < cut; g++) {
        struct child ch[4];
        struct undo u;
        unsigned cnt = gen_children(&w, blank, back, fs, ch, n, 0), i = 0;

        price(&w, blank, g, ch, cnt, n, 0);
        while (i + 1 < cnt && ch[i].dir != moves[g])
            i++;
        apply(&w, blank, g, &ch[i], &u);
        blank = ch[i].from;
        h = ch[i].h;
        back = ch[i].dir ^ 1u;
        fs = n == 5 ? ch[i].fs : 0;
    }
    w.c.generated = 0;
    if (n == 0)
        found = w.hw ? probe_rect_hw(&w, blank, cut, h, back, fs)
                     : probe_rect(&w, blank, cut, h, back, fs);
    else if (n == 4)
        found = w.hw ? probe4_hw(&w, blank, cut, h, back, fs)
                     : probe4(&w, blank, cut, h, back, fs);
    else
        found = w.hw ? probe5_hw(&w, blank, cut, h, back, fs)
                     : probe5(&w, blank, cut, h, back, fs);
    *ida = w.c;
    return found;
}

/* Canonical blank moves back to the caller's frame. */
static void map_path(const void *self, uint8_t *dirs, unsigned len)
{
    const struct ipdb *ip = self;
    const struct puz__frame *f = &ip->ctx->fr;
    unsigned blank = ip->start_blank, n = f->n;

    for (unsigned i = 0; i < len; i++) {
        unsigned next = ip->mv.to[blank][dirs[i]];
        int diff = (int)f->inv[next] - (int)f->inv[blank];
        dirs[i] = (uint8_t)(diff == -(int)n ? PUZ_UP : diff == (int)n
                            ? PUZ_DOWN : diff == -1 ? PUZ_LEFT : PUZ_RIGHT);
        blank = next;
    }
}

static const struct puz__ida_plugin plugin = { iterate, map_path, frontier,
                                              unit };

puz_err puz__idastar_pdb(struct puz__search *s)
{
    const struct puz__pdbctx *ctx = s->hctx;
    struct puz__movefsm fsm;
    struct ipdb *ip;

    if (s->h != &puz__h_pdb || ctx == NULL || ctx->db == NULL ||
        ctx->db->cells != s->cells ||
        (!ctx->db->rect && ctx->db->n != s->n))
        return PUZ_EINVAL;
    /* ~1.4 KB of per-tile tables: from the arena, not the stack. */
    ip = puz_arena_alloc(s->arena, sizeof(*ip));
    if (ip == NULL || puz__ida_init(&ip->c, s, MAX_DEPTH) != PUZ_OK) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    ip->ctx = ctx;
    ip->d = ctx->db;
    ip->reflect = ip->d->reflect;
    ip->za = ip->d->zero_aware;
    ip->d2 = ip->d->n == 5 ? ip->d->second : NULL;
    ip->shared = ip->d->shared;
    if (ip->d2 != NULL)
        ip->z2 = ip->d2->za.rec == ip->d->za.rec ? &ip->d->za : &ip->d2->za;
    ip->hw = __builtin_cpu_supports("popcnt");
    /* moves in the tables' frame (a rectangle's may be transposed) */
    if (ip->d->rect)
        puz__moves_init_shape(&ip->mv, ip->d->rows, ip->d->n);
    else
        puz__moves_init(&ip->mv, s->n);
    puz__frame_map(&ctx->fr, s->start->cells, ip->cells);
    ip->start_blank = ctx->fr.cell[s->start->blank];
    init_tiles(ip);
    init_state(ip);
    ip->h0 = h_root(ip);
    /* without room for the automaton the search runs unpruned */
    ip->fsm = ip->d->fsm;
    if (ip->fsm == NULL && s->n == 5 && !ip->d->rect &&
        puz__pdb_fsm_build(&fsm, PUZ__PDB_FSM_LEN, s->arena) == PUZ_OK)
        ip->fsm = fsm.next;
    return puz__ida_run(&ip->c, ip->h0, &plugin, ip);
}
