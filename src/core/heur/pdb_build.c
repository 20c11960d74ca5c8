/*
 * pdb_build.c - builds pattern database tables by breadth-first search
 * backwards from the goal, in the space of (placement of the group's
 * tiles, blank cell). Only the group's tiles' moves cost one; the blank
 * wanders among the other cells for free, so each BFS node is really a
 * placement plus the region of free cells the blank can reach. A plain
 * entry is a placement's first (least) level over its regions; a
 * zero-aware set also keeps each region's own level (za tables).
 *
 * The search state is 2 bits per (placement, blank rank): unseen, one of
 * two alternating frontier codes, or done. Each level scans the whole
 * array for the current code; the scan is cut into chunks that the
 * level's pieces claim, and all writes are atomic ORs (a state only ever
 * gains bits) or ANDs on the output (an entry is written once, at its
 * level).
 * For the 4x4 8-tile group that is 1.04 GB of state plus 259 MB of
 * output; for a 5x5 6-tile group 606 MB plus 64 MB.
 * The core starts no threads: the caller's puz_pdb_opts.run runs the
 * pieces of each level (on its threads), or this file runs them in turn.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heur/pdb_impl.h"
#include "puz_solve.h"

#define CHUNK_WORDS 4096u
#define LO_BITS 0x5555555555555555ull
#define MAX_PIECES 64u
/* Cell arrays have room past the last cell so that the n - 1 cells
 * after any cell can be read blindly. */
#define PAD_CELLS (PUZ__PDB_CELLS + 5u)

typedef unsigned __int128 u128;

struct bfs {
    unsigned n, cells;                /* side, n * n */
    unsigned k;                       /* tiles in the group */
    unsigned free;                    /* cells left for the blank */
    uint32_t full, notl, notr;        /* all cells; not first/last column */
    uint8_t md[PUZ__PDB_MAX_K][PUZ__PDB_CELLS];  /* [slot][cell] */
    int64_t weight[PUZ__PDB_MAX_K];   /* place value of index digit i */
    _Atomic uint64_t *st;             /* 32 states a word */
    uint64_t st_words;
    _Atomic uint64_t *out;            /* 16 entries a word */
    _Atomic uint64_t *za;             /* zero-aware entries, or NULL */
    const struct puz__za *z;
    unsigned depth;
    unsigned cur, nxt;                /* frontier codes of this level */
    atomic_uint_fast64_t next_chunk;
    uint64_t chunks;
};

/* One piece of a level: its own counters, summed after the level. */
struct worker {
    struct bfs *b;
    uint64_t placed;                  /* entries written this level */
    uint64_t marked;                  /* states put on the next level */
    unsigned odd;                     /* parity violations: a bug if > 0 */
};

/* One placement being expanded. */
struct place {
    uint64_t p;                       /* placement index */
    uint32_t occ;                     /* cells holding group tiles */
    uint64_t rest4;                   /* 4x4: free cells, 4 bits each */
    u128 rest5;                       /* 5x5: free cells, 5 bits each */
    uint8_t pos[PUZ__PDB_MAX_K];      /* cell of each slot */
    uint8_t slot_at[PAD_CELLS];       /* slot at cell, or PUZ__PDB_NONE
                                       * (above every slot) */
    int64_t weight_at[PAD_CELLS];     /* its digit's weight, or 0 */
};

/* The functions below take the side n as a constant: each is inlined
 * into a 4x4 and a 5x5 copy of the scan, so the divisions by radices
 * become multiplications and the masks are immediates. */
#define HOT static inline __attribute__((always_inline))

/* Free cell number r of the placement. */
HOT unsigned rest_cell(const struct place *pl, unsigned r,
                       const unsigned cells)
{
    if (cells <= 16)
        return (unsigned)(pl->rest4 >> (4 * r)) & 15;
    return (unsigned)(pl->rest5 >> (5 * r)) & 31;
}

/* The k digits of placement index p (digit i has radix cells - i). */
HOT void digits(uint64_t p, unsigned k, unsigned *r, const unsigned cells)
{
    const unsigned c = cells;

    switch (k) {
    case 8: r[7] = (unsigned)(p % (c - 7)); p /= c - 7; /* fall through */
    case 7: r[6] = (unsigned)(p % (c - 6)); p /= c - 6; /* fall through */
    case 6: r[5] = (unsigned)(p % (c - 5)); p /= c - 5; /* fall through */
    case 5: r[4] = (unsigned)(p % (c - 4)); p /= c - 4; /* fall through */
    case 4: r[3] = (unsigned)(p % (c - 3)); p /= c - 3; /* fall through */
    case 3: r[2] = (unsigned)(p % (c - 2)); p /= c - 2; /* fall through */
    case 2: r[1] = (unsigned)(p % (c - 1)); p /= c - 1; /* fall through */
    default: r[0] = (unsigned)p; break;
    }
}

/* Inverse of puz__pdb_rank. The free cells are kept as a list of small
 * fields, so taking the r-th one is a shift, not a loop. */
HOT void unrank(const struct bfs *b, struct place *pl, const unsigned n,
                const unsigned cells)
{
    unsigned r[PUZ__PDB_MAX_K] = { 0 };
    uint64_t l4 = 0xfedcba9876543210ull;
    u128 l5 = 0;

    digits(pl->p, b->k, r, cells);
    if (cells > 16)
        for (unsigned c = 25; c-- > 0;)
            l5 = (l5 << 5) | c;
    memset(pl->slot_at, PUZ__PDB_NONE, cells + n);
    memset(pl->weight_at, 0, (cells + n) * sizeof(pl->weight_at[0]));
    pl->occ = 0;
    for (unsigned i = 0; i < b->k; i++) {
        unsigned cell;
        if (cells <= 16) {
            unsigned sh = 4 * r[i];
            cell = (unsigned)(l4 >> sh) & 15;
            l4 = (l4 & ((1ull << sh) - 1)) | ((l4 >> sh >> 4) << sh);
        } else {
            unsigned sh = 5 * r[i];
            cell = (unsigned)(l5 >> sh) & 31;
            l5 = (l5 & (((u128)1 << sh) - 1)) | ((l5 >> sh >> 5) << sh);
        }
        pl->pos[i] = (uint8_t)cell;
        pl->slot_at[cell] = (uint8_t)i;
        pl->weight_at[cell] = b->weight[i];
        pl->occ |= 1u << cell;
    }
    pl->rest4 = l4;
    pl->rest5 = l5;
}

/* Cells the blank reaches from seed without crossing a group tile. */
HOT uint32_t flood(const struct bfs *b, uint32_t seed, uint32_t open,
                   const unsigned n)
{
    return puz__pdb_flood(seed, open, n, b->notl, b->notr);
}

/* All blank cells of one region are one BFS node: mark them done at
 * once so no other cell of the region is expanded again. */
HOT void mark_region(struct bfs *b, const struct place *pl, uint32_t region,
                     const unsigned cells)
{
    uint64_t bits = 0, e = pl->p * b->free, w = e >> 5;
    unsigned sh = (unsigned)(e & 31) * 2;

    for (unsigned r = 0; r < b->free; r++) {
        unsigned cell = rest_cell(pl, r, cells);
        bits |= (uint64_t)((region >> cell) & 1) * (3ull << (2 * r));
    }
    atomic_fetch_or_explicit(&b->st[w], bits << sh, memory_order_relaxed);
    if (sh + 2 * b->free > 64)
        atomic_fetch_or_explicit(&b->st[w + 1], bits >> (64 - sh),
                                 memory_order_relaxed);
}

/* Entry i of table t (16 a word) is the level of its first expansion:
 * store it there unless set. Returns whether it was written. */
static bool put_entry(struct bfs *b, struct worker *w, _Atomic uint64_t *t,
                      uint64_t i, const struct place *pl)
{
    unsigned md = 0, extra, sh = (unsigned)(i & 15) * 4, have;
    _Atomic uint64_t *word = &t[i >> 4];

    have = (unsigned)(atomic_load_explicit(word, memory_order_relaxed) >>
                      sh) & 15;
    if (have != PUZ__PDB_UNSET)
        return false;
    for (unsigned j = 0; j < b->k; j++)
        md += b->md[j][pl->pos[j]];
    if (md > b->depth || ((b->depth - md) & 1)) {
        w->odd++;
        return false;
    }
    /* 15 means unset; a larger entry stays 15 (saturated, never
     * wrapped), which is still a lower bound. None occurs on squares (the
     * largest is 9, in the 8-tile group); 2-row boards have them. */
    extra = (b->depth - md) / 2;
    if (extra >= PUZ__PDB_UNSET)
        return false;
    atomic_fetch_and_explicit(word, ~((uint64_t)(PUZ__PDB_UNSET ^ extra)
                                      << sh), memory_order_relaxed);
    return true;
}

/* The first expansion of a placement is at its distance: store it; on a
 * zero-aware set, the first of each (placement, region) of a cut set
 * too, in the za table. */
static void record(struct bfs *b, struct worker *w, const struct place *pl,
                   uint32_t region)
{
    uint64_t zi;

    if (put_entry(b, w, b->out, pl->p, pl))
        w->placed++;
    if (b->za == NULL)
        return;
    zi = puz__za_index(b->z, pl->pos, (unsigned)__builtin_ctz(region));
    if (zi != UINT64_MAX)
        (void)put_entry(b, w, b->za, zi, pl);
}

static void mark_next(struct bfs *b, struct worker *w, uint64_t e)
{
    _Atomic uint64_t *word = &b->st[e >> 5];
    unsigned sh = (unsigned)(e & 31) * 2;

    if ((atomic_load_explicit(word, memory_order_relaxed) >> sh) & 3)
        return;
    atomic_fetch_or_explicit(word, (uint64_t)b->nxt << sh,
                             memory_order_relaxed);
    w->marked++;
}

/*
 * Index change when the tile on cell a slides up or down to c = a -+ n.
 * Only digit i and the digits of later tiles on the n - 1 cells between
 * a and c move (a sideways slide is exactly one step of digit i). Much
 * cheaper than ranking the child afresh, and free of branches.
 */
HOT int64_t vertical_delta(const struct bfs *b, const struct place *pl,
                           unsigned a, unsigned c, const unsigned n)
{
    unsigned lo = a < c ? a : c, i = pl->slot_at[a], earlier = 0;
    int64_t d = 0;

    for (unsigned x = lo + 1; x < lo + n; x++) {
        unsigned sl = pl->slot_at[x];
        earlier += sl < i;
        d += pl->weight_at[x] & -(int64_t)(sl > i);
    }
    d += (int64_t)(n - earlier) * b->weight[i];
    return c > a ? d : -d;
}

/* Every way a group tile next to the blank's region slides into it; the
 * blank then sits where the tile was. The children's words are random
 * in a table far larger than the caches, and each locked OR waits for
 * every load before it, so fetch them all before marking any. */
HOT void children(struct bfs *b, struct worker *w, const struct place *pl,
                  uint32_t region, const unsigned n, const unsigned cells)
{
    const int step[4] = { -(int)n, (int)n, -1, 1 };
    uint32_t can[4] = {
        pl->occ & (region << n), pl->occ & (region >> n),
        pl->occ & ((region << 1) & b->notl),
        pl->occ & ((region >> 1) & b->notr),
    };
    uint64_t child[4 * PUZ__PDB_MAX_K];
    unsigned cnt = 0;

    for (unsigned dir = 0; dir < 4; dir++)
        for (uint32_t m = can[dir]; m != 0; m &= m - 1) {
            unsigned a = (unsigned)__builtin_ctz(m);
            unsigned c = (unsigned)((int)a + step[dir]);
            int64_t d = dir < 2 ? vertical_delta(b, pl, a, c, n)
                                : step[dir] * b->weight[pl->slot_at[a]];
            unsigned below = puz__pdb_pop(pl->occ & ((1u << a) - 1),
                                          cells);
            child[cnt] = (pl->p + (uint64_t)d) * b->free + a - below -
                         (c < a);
            __builtin_prefetch((const void *)&b->st[child[cnt] >> 5], 1);
            cnt++;
        }
    for (unsigned j = 0; j < cnt; j++)
        mark_next(b, w, child[j]);
}

/* e < 2^32 for every group size used (16!/7! and 25!/19! placements
 * times the free cells at most), so the division is a 32-bit one. */
HOT void expand(struct bfs *b, struct worker *w, uint64_t e,
                const unsigned n, const unsigned cells)
{
    struct place pl;
    uint32_t q = (uint32_t)e / b->free, region;
    unsigned blank;

    pl.p = q;
    unrank(b, &pl, n, cells);
    blank = rest_cell(&pl, (uint32_t)e - q * b->free, cells);
    region = flood(b, 1u << blank, ~pl.occ & b->full, n);
    mark_region(b, &pl, region, cells);
    record(b, w, &pl, region);
    children(b, w, &pl, region, n, cells);
}

/* Claim chunks of the state array and expand every state of the current
 * code in them. A state may have turned done since the word was read
 * (its region was expanded through another cell), so look again. */
HOT void scan_n(struct worker *w, const unsigned n, const unsigned cells)
{
    struct bfs *b = w->b;
    uint64_t ch;

    for (;;) {
        ch = atomic_fetch_add_explicit(&b->next_chunk, 1,
                                       memory_order_relaxed);
        if (ch >= b->chunks)
            return;
        uint64_t end = (ch + 1) * CHUNK_WORDS;
        for (uint64_t i = ch * CHUNK_WORDS; i < end && i < b->st_words;
             i++) {
            uint64_t v = atomic_load_explicit(&b->st[i],
                                              memory_order_relaxed);
            uint64_t lo = v & LO_BITS, hi = (v >> 1) & LO_BITS;
            uint64_t m = b->cur == 1 ? lo & ~hi : hi & ~lo;
            for (; m != 0; m &= m - 1) {
                unsigned j = (unsigned)__builtin_ctzll(m) >> 1;
                v = atomic_load_explicit(&b->st[i], memory_order_relaxed);
                if (((v >> (2 * j)) & 3) == b->cur)
                    expand(b, w, i * 32 + j, n, cells);
            }
        }
    }
}

static void scan(void *work, unsigned piece)
{
    struct worker *w = (struct worker *)work + piece;

    /* squares get copies with the side a constant; the rectangles'
     * tables are small enough for one copy that reads it */
    if (w->b->cells == 16 && w->b->n == 4)
        scan_n(w, 4, 16);
    else if (w->b->cells == 25)
        scan_n(w, 5, 25);
    else
        scan_n(w, w->b->n, w->b->cells);
}

/* One BFS level in n pieces: through the caller's run (its threads),
 * else one after another here. */
static void run_level(struct bfs *b, struct worker *ws, unsigned n,
                      const struct puz_pdb_opts *o)
{
    atomic_store(&b->next_chunk, 0);
    if (o != NULL && o->run != NULL) {
        o->run(scan, ws, n, o->run_user);
        return;
    }
    for (unsigned t = 0; t < n; t++)
        scan(ws, t);
}

static void report_level(const struct puz_pdb *d, unsigned gi,
                         const struct puz_pdb_opts *o, uint64_t started_us,
                         unsigned depth, uint64_t placed,
                         enum puz_pdb_event kind)
{
    struct puz_pdb_progress p = { 0 };

    if (o == NULL || o->progress == NULL)
        return;
    p.kind = kind;
    p.partition = puz_pdb_partition_name(d->part);
    /* Groups that read another's table are not built: count tables
     * (on a zero-aware set every group has its own za table). */
    for (unsigned i = 0; i < d->ngroups; i++)
        if (d->g[i].table == i || d->zero_aware) {
            p.groups++;
            p.group += i <= gi;
        }
    p.tiles = d->g[gi].k;
    p.depth = depth;
    p.placed = placed;
    p.placements = d->g[gi].entries;
    p.seconds = (double)(puz_clock_mono_us() - started_us) / 1e6;
    o->progress(&p, o->user);
}

/* Level 0: the group at home, the blank in the goal's blank cell (other
 * free regions of the goal placement are not free to reach). A group
 * reading another's table (g) searches in that table's frame, where its
 * goal blank is on blank. */
static void bfs_init(struct bfs *b, const struct puz_pdb *d,
                     const struct puz__group *g, unsigned blank)
{
    uint8_t home[PUZ__PDB_MAX_K];
    uint32_t occ = 0;
    unsigned n = d->n, cells = d->cells;
    uint64_t e;

    b->n = n;
    b->cells = cells;
    b->k = g->k;
    b->free = cells - g->k;
    b->full = (uint32_t)((1ull << cells) - 1);
    b->notl = b->notr = 0;
    for (unsigned c = 0; c < cells; c++) {
        b->notl |= (uint32_t)(c % n != 0) << c;
        b->notr |= (uint32_t)(c % n != n - 1) << c;
    }
    for (unsigned i = g->k; i-- > 0;)
        b->weight[i] = i + 1 == g->k ? 1 : b->weight[i + 1] *
                                           (int64_t)(cells - i - 1);
    for (unsigned i = 0; i < g->k; i++) {
        home[i] = g->home[i];
        occ |= 1u << home[i];
        for (unsigned c = 0; c < cells; c++)
            b->md[i][c] = (uint8_t)(abs((int)(c / n) - (int)(home[i] / n)) +
                                    abs((int)(c % n) - (int)(home[i] % n)));
    }
    e = puz__pdb_rank(home, g->k, cells) * b->free +
        puz__pdb_rank_free(occ, blank, cells);
    atomic_store(&b->st[e >> 5], 1ull << (2 * (e & 31)));
}

/* Run the levels until one finds nothing new; return the deepest. */
static unsigned run_levels(struct bfs *b, struct worker *ws, unsigned nt,
                           const struct puz_pdb *d, unsigned gi,
                           const struct puz_pdb_opts *o, uint64_t t0)
{
    uint64_t placed = 0, marked;

    for (b->depth = 0;; b->depth++) {
        b->cur = 1 + (b->depth & 1);
        b->nxt = 3 - b->cur;
        for (unsigned t = 0; t < nt; t++)
            ws[t].placed = ws[t].marked = 0;
        run_level(b, ws, nt, o);
        marked = 0;
        for (unsigned t = 0; t < nt; t++) {
            placed += ws[t].placed;
            marked += ws[t].marked;
        }
        report_level(d, gi, o, t0, b->depth, placed, PUZ_PDB_EV_LEVEL);
        if (marked == 0)
            return b->depth;
    }
}

uint64_t puz__pdb_group_words(unsigned k, unsigned cells)
{
    uint64_t entries = 1;

    for (unsigned j = 0; j < k; j++)
        entries *= cells - j;
    return (entries + 15) / 16;
}

/* Entries of a za table still unset after its search (none expected:
 * every region of every placement is reached). */
static uint64_t za_unset(const struct puz_pdb *d, const uint64_t *za)
{
    uint64_t n = 0;

    for (uint64_t i = 0; i < d->za.entries; i++)
        n += puz__pdb_entry(za, i) == PUZ__PDB_UNSET;
    return n;
}

/* The search behind group gi's tables: its plain table into out (for a
 * group reading another's table, a scratch copy) and, on a zero-aware
 * set, its za table into za. */
static puz_err build_bfs(const struct puz_pdb *d, unsigned gi, uint64_t *out,
                         uint64_t *za, const struct puz_pdb_opts *o,
                         uint64_t started_us, char *msg)
{
    const struct puz__group *g = &d->g[gi], *tg = &d->g[g->table];
    struct worker ws[MAX_PIECES];
    struct bfs b;
    unsigned nt = o != NULL && o->threads != 0 ? o->threads : 2, odd = 0;
    uint64_t words = puz__pdb_group_words(g->k, d->cells), unset = 0;

    if (nt > MAX_PIECES)
        nt = MAX_PIECES;
    memset(&b, 0, sizeof(b));
    memset(ws, 0, sizeof(ws));
    if ((g->table != gi && za == NULL) ||
        (!d->rect && (d->n < 4 || d->n > 5)) ||
        (d->rect && d->cells > 16) ||
        g->entries * (d->cells - g->k) >= (1ull << 32)) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: group %u cannot be built "
                     "(shared table, or too large)", gi + 1);
        return PUZ_EINVAL;
    }
    b.st_words = (g->entries * (d->cells - g->k) + 31) / 32;
    b.chunks = (b.st_words + CHUNK_WORDS - 1) / CHUNK_WORDS;
    b.st = calloc(b.st_words, sizeof(*b.st));
    if (b.st == NULL) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no memory for the %llu-byte "
                     "search state", (unsigned long long)b.st_words * 8);
        return PUZ_ENOMEM;
    }
    memset(out, 0xff, words * sizeof(*out));   /* every entry UNSET */
    b.out = (_Atomic uint64_t *)out;
    if (za != NULL) {
        memset(za, 0xff, (d->za.entries + 15) / 16 * sizeof(*za));
        b.za = (_Atomic uint64_t *)za;
        b.z = &d->za;
    }
    for (unsigned t = 0; t < nt; t++)
        ws[t].b = &b;
    bfs_init(&b, d, tg, g->table == gi ? d->goal.blank
                                       : g->cmap[d->goal.blank]);
    run_levels(&b, ws, nt, d, gi, o, started_us);
    for (unsigned t = 0; t < nt; t++)
        odd += ws[t].odd;
    free(b.st);
    report_level(d, gi, o, started_us, b.depth, g->entries,
                 PUZ_PDB_EV_GROUP_DONE);
    if (odd != 0 && msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "pdb: %u entries broke the parity rule",
                 odd);
    if (odd == 0 && za != NULL && (unset = za_unset(d, za)) != 0 &&
        msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "pdb: group %u: %llu zero-aware entries "
                 "never reached", gi + 1, (unsigned long long)unset);
    return odd == 0 && unset == 0 ? PUZ_OK : PUZ_ECORRUPT;
}

puz_err puz__pdb_build_group(const struct puz_pdb *d, unsigned gi,
                             uint64_t *out, const struct puz_pdb_opts *o,
                             uint64_t started_us, char *msg)
{
    return build_bfs(d, gi, out, NULL, o, started_us, msg);
}

/*
 * A zero-aware group: its za table, and its plain table where it reads
 * its own. A group reading another's table has its own za table (the
 * regions depend on where its goal blank is), so its search runs too,
 * with its plain table into scratch memory that must equal the shared
 * one (a check of the sharing, free here).
 */
static puz_err build_za_group(const struct puz_pdb *d, unsigned gi,
                              const struct puz_pdb_opts *o,
                              uint64_t started_us, char *msg)
{
    const struct puz__group *g = &d->g[gi];
    uint64_t words = puz__pdb_group_words(g->k, d->cells), *plain;
    uint64_t *za = (uint64_t *)(uintptr_t)g->za;
    puz_err rc;

    if (g->table == gi)
        return build_bfs(d, gi, (uint64_t *)(uintptr_t)g->nib, za, o,
                         started_us, msg);
    plain = malloc(words * sizeof(*plain));
    if (plain == NULL)
        return PUZ_ENOMEM;
    rc = build_bfs(d, gi, plain, za, o, started_us, msg);
    if (rc == PUZ_OK &&
        memcmp(plain, d->g[g->table].nib, words * sizeof(*plain)) != 0) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: group %u differs from the "
                     "table it shares", gi + 1);
        rc = PUZ_ECORRUPT;
    }
    free(plain);
    return rc;
}

/* One block for the tables, each 64-byte aligned. */
static puz_err alloc_tables(struct puz_pdb *d, char *msg)
{
    size_t off[PUZ__PDB_MAX_GROUPS], bytes = puz__pdb_table_bytes(d, off);
    uint8_t *mem = puz__pdb_alloc(bytes);

    if (mem == NULL) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no memory for %zu bytes of "
                     "tables", bytes);
        return PUZ_ENOMEM;
    }
    memset(mem, 0, bytes);
    d->mem = mem;
    d->data_bytes = bytes;
    puz__pdb_attach(d, mem);
    return PUZ_OK;
}

puz_err puz_pdb_build(enum puz_pdb_partition part,
                      const struct puz_board *goal,
                      const struct puz_pdb_opts *opts, puz_pdb **out,
                      char *msg)
{
    unsigned size = puz_pdb_partition_size(part), orbit = 0;
    enum puz_pdb_partition pa, pb;
    struct puz_pdb *d, *second;
    uint64_t t0 = puz_clock_mono_us();
    puz_err rc;

    *out = NULL;
    /* a pair: its two sets, joined */
    if (puz__pdb_pair_parts(part, &pa, &pb)) {
        rc = puz_pdb_build(pa, goal, opts, &d, msg);
        if (rc != PUZ_OK)
            return rc;
        rc = puz_pdb_build(pb, goal, opts, &second, msg);
        if (rc == PUZ_OK && puz__pdb_pair(d, second, part) != PUZ_OK) {
            puz_pdb_destroy(second);
            rc = PUZ_EINVAL;
        }
        if (rc != PUZ_OK) {
            puz_pdb_destroy(d);
            return rc;
        }
        d->build_seconds = (double)(puz_clock_mono_us() - t0) / 1e6;
        *out = d;
        return PUZ_OK;
    }
    if (goal != NULL && puz_pdb_partition_rect(part))
        orbit = puz_pdb_partition_serves(part, goal) ? PUZ__ORBIT_CORNER
                                                     : PUZ__ORBIT_NONE;
    else if (goal != NULL)
        orbit = goal->n == size && puz_board_square(goal)
                ? puz__orbit_of(goal) : PUZ__ORBIT_NONE;
    d = calloc(1, sizeof(*d));
    if (d == NULL)
        return PUZ_ENOMEM;
    if (size == 0 || puz__pdb_layout(d, part, orbit) != PUZ_OK) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: %s tables exist for %ux%u "
                     "goals%s only", puz_pdb_partition_name(part),
                     puz_pdb_partition_rows(part), size,
                     size == 5 || puz_pdb_partition_rect(part)
                     ? " with the blank in a corner" : "");
        free(d);
        return PUZ_EINVAL;
    }
    rc = alloc_tables(d, msg);
    if (rc == PUZ_OK && d->zero_aware)
        puz__pdb_za_number(d);
    /* shared tables first: a zero-aware group compares its copy */
    for (unsigned i = 0; i < d->ngroups && rc == PUZ_OK; i++)
        if (d->g[i].table == i)
            rc = d->zero_aware ? build_za_group(d, i, opts, t0, msg)
                 : puz__pdb_build_group(d, i, (uint64_t *)d->g[i].nib,
                                        opts, t0, msg);
    for (unsigned i = 0; i < d->ngroups && rc == PUZ_OK; i++)
        if (d->g[i].table != i && d->zero_aware)
            rc = build_za_group(d, i, opts, t0, msg);
    if (rc != PUZ_OK) {
        puz_pdb_destroy(d);
        return rc;
    }
    d->build_seconds = (double)(puz_clock_mono_us() - t0) / 1e6;
    *out = d;
    return PUZ_OK;
}
