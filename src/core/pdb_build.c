/*
 * pdb_build.c - builds pattern database tables by breadth-first search
 * backwards from the goal, in the space of (placement of the group's
 * tiles, blank cell). Only the group's tiles' moves cost one; the blank
 * wanders among the other cells for free, so each BFS node is really a
 * placement plus the region of free cells the blank can reach.
 *
 * The search state is 2 bits per (placement, blank rank): unseen, one of
 * two alternating frontier codes, or done. Each level scans the whole
 * array for the current code; the scan is cut into chunks that worker
 * threads claim, and all writes are atomic ORs (a state only ever gains
 * bits) or ANDs on the output (an entry is written once, at its level).
 * For the 8-tile group that is 1.04 GB of state plus 259 MB of output.
 * This is the only place in the core that starts threads.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdb_impl.h"
#include "puz_solve.h"

#define CHUNK_WORDS 4096u
#define LO_BITS 0x5555555555555555ull
#define MAX_THREADS 64u

struct bfs {
    unsigned k;                       /* tiles in the group */
    unsigned free;                    /* cells left for the blank */
    uint8_t md[PUZ__PDB_MAX_K][PUZ__PDB_CELLS];  /* [slot][cell] */
    int64_t weight[PUZ__PDB_MAX_K];   /* place value of index digit i */
    _Atomic uint64_t *st;             /* 32 states a word */
    uint64_t st_words;
    _Atomic uint64_t *out;            /* 16 entries a word */
    unsigned depth;
    unsigned cur, nxt;                /* frontier codes of this level */
    atomic_uint_fast64_t next_chunk;
    uint64_t chunks;
};

struct worker {
    struct bfs *b;
    pthread_t thread;
    uint64_t placed;                  /* entries written this level */
    uint64_t marked;                  /* states put on the next level */
    unsigned odd;                     /* parity violations: a bug if > 0 */
};

/* One placement being expanded. Arrays indexed by cell have room past
 * cell 15 so that the three cells after any cell can be read blindly. */
struct place {
    uint64_t p;                       /* placement index */
    uint32_t occ;                     /* cells holding group tiles */
    uint64_t rest;                    /* free cells in order, 4 bits each */
    uint8_t pos[PUZ__PDB_MAX_K];      /* cell of each slot */
    uint8_t slot_at[PUZ__PDB_CELLS + 4];   /* slot at cell, 255 if none */
    int64_t weight_at[PUZ__PDB_CELLS + 4]; /* its digit's weight, or 0 */
};

/* Inverse of puz__pdb_rank. The radices are constants per digit, so
 * every division compiles to a multiplication; the free cells are kept
 * as a list of nibbles, so taking the r-th one is a shift, not a loop. */
static void unrank(const struct bfs *b, struct place *pl)
{
    unsigned r[PUZ__PDB_MAX_K] = { 0 };
    uint64_t p = pl->p, list = 0xfedcba9876543210ull;

    switch (b->k) {
    case 8: r[7] = (unsigned)(p % 9); p /= 9; /* fall through */
    case 7: r[6] = (unsigned)(p % 10); p /= 10; /* fall through */
    case 6: r[5] = (unsigned)(p % 11); p /= 11; /* fall through */
    case 5: r[4] = (unsigned)(p % 12); p /= 12; /* fall through */
    case 4: r[3] = (unsigned)(p % 13); p /= 13; /* fall through */
    case 3: r[2] = (unsigned)(p % 14); p /= 14; /* fall through */
    case 2: r[1] = (unsigned)(p % 15); p /= 15; /* fall through */
    default: r[0] = (unsigned)p; break;
    }
    memset(pl->slot_at, 255, sizeof(pl->slot_at));
    memset(pl->weight_at, 0, sizeof(pl->weight_at));
    pl->occ = 0;
    for (unsigned i = 0; i < b->k; i++) {
        unsigned sh = 4 * r[i], cell = (unsigned)(list >> sh) & 15;
        list = (list & ((1ull << sh) - 1)) | ((list >> sh >> 4) << sh);
        pl->pos[i] = (uint8_t)cell;
        pl->slot_at[cell] = (uint8_t)i;
        pl->weight_at[cell] = b->weight[i];
        pl->occ |= 1u << cell;
    }
    pl->rest = list;
}

/* Cells the blank reaches from seed without crossing a group tile. */
static uint32_t flood(uint32_t seed, uint32_t open)
{
    uint32_t m = seed, prev;

    do {
        prev = m;
        m |= ((m << 4) | (m >> 4) | ((m << 1) & 0xeeee) |
              ((m >> 1) & 0x7777)) & open;
    } while (m != prev);
    return m;
}

/* All blank cells of one region are one BFS node: mark them done at
 * once so no other cell of the region is expanded again. */
static void mark_region(struct bfs *b, const struct place *pl,
                        uint32_t region)
{
    uint64_t bits = 0, e = pl->p * b->free, w = e >> 5;
    unsigned sh = (unsigned)(e & 31) * 2;

    for (unsigned r = 0; r < b->free; r++) {
        unsigned cell = (unsigned)(pl->rest >> (4 * r)) & 15;
        bits |= (uint64_t)((region >> cell) & 1) * (3ull << (2 * r));
    }
    atomic_fetch_or_explicit(&b->st[w], bits << sh, memory_order_relaxed);
    if (sh + 2 * b->free > 64)
        atomic_fetch_or_explicit(&b->st[w + 1], bits >> (64 - sh),
                                 memory_order_relaxed);
}

/* The first expansion of a placement is at its distance: store it. */
static void record(struct bfs *b, struct worker *w, const struct place *pl)
{
    unsigned md = 0, extra, sh = (unsigned)(pl->p & 15) * 4, have;
    _Atomic uint64_t *word = &b->out[pl->p >> 4];

    have = (unsigned)(atomic_load_explicit(word, memory_order_relaxed) >>
                      sh) & 15;
    if (have != PUZ__PDB_UNSET)
        return;
    for (unsigned i = 0; i < b->k; i++)
        md += b->md[i][pl->pos[i]];
    if (md > b->depth || ((b->depth - md) & 1)) {
        w->odd++;
        return;
    }
    /* 15 means unset; a larger entry would stay 15, which is still a
     * lower bound (none occurs: the largest is 9, in the 8-tile group). */
    extra = (b->depth - md) / 2;
    if (extra >= PUZ__PDB_UNSET)
        return;
    atomic_fetch_and_explicit(word, ~((uint64_t)(PUZ__PDB_UNSET ^ extra)
                                      << sh), memory_order_relaxed);
    w->placed++;
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
 * Index change when the tile on cell a slides up or down to c = a -+ 4.
 * Only digit i and the digits of later tiles on the three cells between
 * a and c move (a sideways slide is exactly one step of digit i). Much
 * cheaper than ranking the child afresh, and free of branches.
 */
static int64_t vertical_delta(const struct bfs *b, const struct place *pl,
                              unsigned a, unsigned c)
{
    unsigned lo = a < c ? a : c, i = pl->slot_at[a], earlier = 0;
    int64_t d = 0;

    for (unsigned x = lo + 1; x < lo + 4; x++) {
        unsigned sl = pl->slot_at[x];
        earlier += sl < i;
        d += pl->weight_at[x] & -(int64_t)(sl > i);
    }
    d += (int64_t)(4 - earlier) * b->weight[i];
    return c > a ? d : -d;
}

/* Every way a group tile next to the blank's region slides into it; the
 * blank then sits where the tile was. The children's words are random
 * in a table far larger than the caches, and each locked OR waits for
 * every load before it, so fetch them all before marking any. */
static void children(struct bfs *b, struct worker *w, const struct place *pl,
                     uint32_t region)
{
    static const int step[4] = { -4, 4, -1, 1 };
    uint32_t can[4] = {
        pl->occ & (region << 4), pl->occ & (region >> 4),
        pl->occ & ((region << 1) & 0xeeee), pl->occ & ((region >> 1) & 0x7777),
    };
    uint64_t child[4 * PUZ__PDB_MAX_K];
    unsigned n = 0;

    for (unsigned dir = 0; dir < 4; dir++)
        for (uint32_t m = can[dir]; m != 0; m &= m - 1) {
            unsigned a = (unsigned)__builtin_ctz(m);
            unsigned c = (unsigned)((int)a + step[dir]);
            int64_t d = dir < 2 ? vertical_delta(b, pl, a, c)
                                : step[dir] * b->weight[pl->slot_at[a]];
            unsigned below = puz__pdb_pop16(pl->occ & ((1u << a) - 1));
            child[n] = (pl->p + (uint64_t)d) * b->free + a - below - (c < a);
            __builtin_prefetch((const void *)&b->st[child[n] >> 5], 1);
            n++;
        }
    for (unsigned j = 0; j < n; j++)
        mark_next(b, w, child[j]);
}

/* e < 2^32 for every group size used (16!/7! states at most), so the
 * division is a 32-bit one. */
static void expand(struct bfs *b, struct worker *w, uint64_t e)
{
    struct place pl;
    uint32_t q = (uint32_t)e / b->free, region;
    unsigned blank;

    pl.p = q;
    unrank(b, &pl);
    blank = (unsigned)(pl.rest >> (4 * ((uint32_t)e - q * b->free))) & 15;
    region = flood(1u << blank, ~pl.occ & 0xffff);
    mark_region(b, &pl, region);
    record(b, w, &pl);
    children(b, w, &pl, region);
}

/* Claim chunks of the state array and expand every state of the current
 * code in them. A state may have turned done since the word was read
 * (its region was expanded through another cell), so look again. */
static void *scan(void *arg)
{
    struct worker *w = arg;
    struct bfs *b = w->b;
    uint64_t ch;

    for (;;) {
        ch = atomic_fetch_add_explicit(&b->next_chunk, 1,
                                       memory_order_relaxed);
        if (ch >= b->chunks)
            return NULL;
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
                    expand(b, w, i * 32 + j);
            }
        }
    }
}

/* One BFS level on nthreads threads (this one included). */
static void run_level(struct bfs *b, struct worker *ws, unsigned nthreads)
{
    unsigned started = 1;

    atomic_store(&b->next_chunk, 0);
    for (unsigned t = 1; t < nthreads; t++) {
        if (pthread_create(&ws[t].thread, NULL, scan, &ws[t]) != 0)
            break;
        started++;
    }
    scan(&ws[0]);
    for (unsigned t = 1; t < started; t++)
        pthread_join(ws[t].thread, NULL);
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
    p.group = gi + 1;
    p.groups = d->ngroups;
    p.tiles = d->g[gi].k;
    p.depth = depth;
    p.placed = placed;
    p.placements = d->g[gi].entries;
    p.seconds = (double)(puz_now_us() - started_us) / 1e6;
    o->progress(&p, o->user);
}

/* Level 0: the group at home, the blank in the goal's blank cell (other
 * free regions of the goal placement are not free to reach). */
static void bfs_init(struct bfs *b, const struct puz__group *g,
                     unsigned blank)
{
    uint8_t home[PUZ__PDB_MAX_K];
    uint32_t occ = 0;
    uint64_t e;

    b->k = g->k;
    b->free = PUZ__PDB_CELLS - g->k;
    for (unsigned i = g->k; i-- > 0;)
        b->weight[i] = i + 1 == g->k ? 1 : b->weight[i + 1] *
                                           (int64_t)(PUZ__PDB_CELLS - i - 1);
    for (unsigned i = 0; i < g->k; i++) {
        home[i] = g->home[i];
        occ |= 1u << home[i];
        for (unsigned c = 0; c < PUZ__PDB_CELLS; c++)
            b->md[i][c] = (uint8_t)(abs((int)(c / 4) - (int)(home[i] / 4)) +
                                    abs((int)(c % 4) - (int)(home[i] % 4)));
    }
    e = puz__pdb_rank(home, g->k) * b->free +
        puz__pdb_rank_free(occ, blank);
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
        run_level(b, ws, nt);
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

uint64_t puz__pdb_group_words(unsigned k)
{
    uint64_t entries = 1;

    for (unsigned j = 0; j < k; j++)
        entries *= PUZ__PDB_CELLS - j;
    return (entries + 15) / 16;
}

puz_err puz__pdb_build_group(const struct puz_pdb *d, unsigned gi,
                             uint64_t *out, const struct puz_pdb_opts *o,
                             uint64_t started_us, char *msg)
{
    const struct puz__group *g = &d->g[gi];
    struct worker ws[MAX_THREADS];
    struct bfs b;
    unsigned nt = o != NULL && o->threads != 0 ? o->threads : 2, odd = 0;
    uint64_t words = puz__pdb_group_words(g->k);

    if (nt > MAX_THREADS)
        nt = MAX_THREADS;
    memset(&b, 0, sizeof(b));
    memset(ws, 0, sizeof(ws));
    b.st_words = (g->entries * (PUZ__PDB_CELLS - g->k) + 31) / 32;
    b.chunks = (b.st_words + CHUNK_WORDS - 1) / CHUNK_WORDS;
    b.st = calloc(b.st_words, sizeof(*b.st));
    if (b.st == NULL) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no memory for the %llu-byte "
                     "search state", (unsigned long long)b.st_words * 8);
        return PUZ_ENOMEM;
    }
    memset(out, 0xff, words * sizeof(*out));
    b.out = (_Atomic uint64_t *)out;
    for (unsigned t = 0; t < nt; t++)
        ws[t].b = &b;
    bfs_init(&b, g, d->goal.blank);
    run_levels(&b, ws, nt, d, gi, o, started_us);
    for (unsigned t = 0; t < nt; t++)
        odd += ws[t].odd;
    free(b.st);
    report_level(d, gi, o, started_us, b.depth, g->entries,
                 PUZ_PDB_EV_GROUP_DONE);
    if (odd != 0 && msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "pdb: %u entries broke the parity rule",
                 odd);
    return odd == 0 ? PUZ_OK : PUZ_ECORRUPT;
}

/* One block for all groups, each table 64-byte aligned. */
static puz_err alloc_tables(struct puz_pdb *d, char *msg)
{
    size_t off = 0;
    uint8_t *mem;

    for (unsigned i = 0; i < d->ngroups; i++)
        off += (puz__pdb_group_words(d->g[i].k) * 8 + 63) & ~(size_t)63;
    mem = aligned_alloc(64, off);
    if (mem == NULL) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: no memory for %zu bytes of "
                     "tables", off);
        return PUZ_ENOMEM;
    }
    d->mem = mem;
    d->data_bytes = off;
    off = 0;
    for (unsigned i = 0; i < d->ngroups; i++) {
        d->g[i].nib = (const uint64_t *)(mem + off);
        off += (puz__pdb_group_words(d->g[i].k) * 8 + 63) & ~(size_t)63;
    }
    memset(mem, 0, d->data_bytes);
    return PUZ_OK;
}

puz_err puz_pdb_build(enum puz_pdb_partition part,
                      const struct puz_board *goal,
                      const struct puz_pdb_opts *opts, puz_pdb **out,
                      char *msg)
{
    struct puz_pdb *d;
    uint64_t t0 = puz_now_us();
    puz_err rc;

    *out = NULL;
    if ((unsigned)part >= PUZ_PDB_PARTITION_COUNT_ ||
        (goal != NULL && goal->n != 4)) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: tables exist for 4x4 goals "
                     "and partitions 6-6-3 and 7-8 only");
        return PUZ_EINVAL;
    }
    d = calloc(1, sizeof(*d));
    if (d == NULL)
        return PUZ_ENOMEM;
    puz__pdb_layout(d, part, goal != NULL ? puz__orbit_of(goal) : 0);
    rc = alloc_tables(d, msg);
    for (unsigned i = 0; i < d->ngroups && rc == PUZ_OK; i++)
        rc = puz__pdb_build_group(d, i, (uint64_t *)d->g[i].nib, opts, t0,
                                  msg);
    if (rc != PUZ_OK) {
        puz_pdb_destroy(d);
        return rc;
    }
    d->build_seconds = (double)(puz_now_us() - t0) / 1e6;
    *out = d;
    return PUZ_OK;
}
