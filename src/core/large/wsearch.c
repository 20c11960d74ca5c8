/*
 * wsearch.c - weighted A* (f = g + w h, ties to the deeper node) over
 * abstract boards: a state is the blank's cell and the cells of the
 * tiles one cares about, so boards that differ only in the other tiles
 * are one state. The blank stays inside the region of rows >= top and
 * columns >= left (the cells outside are solved and locked). A closed node is
 * never reopened, which keeps the path within w times optimal for a
 * consistent h and in practice far shorter.
 *
 * Its memory (states, the hash index and the open heap) is malloc'd and
 * freed before it returns: the anytime search restarts it with falling
 * weights, and an arena could not give the memory of a failed try back.
 * So that it still counts against the request's budget, max_bytes caps
 * what it holds at once (the caller passes what the arena's budget has
 * left) and peak_bytes reports the most it held; max_nodes bounds it too
 * (about 48 + k bytes per stored state, 8 more with parts). With the
 * 5x5 pattern databases each node keeps the tables' entries
 * (pdb_parts.c), so a child costs two lookups, not eight. Its h is one
 * of: Manhattan + linear conflict of the cared tiles (mlc.c), a
 * registry heuristic over whole boards (the pattern databases), or the
 * strips' tile costs (tilecost.c); the first and last are updated from
 * the parent's value, the pattern databases through their parts.
 */
#include <stdlib.h>
#include <string.h>

#include "heur/pdb_parts.h"
#include "large/large.h"

/* out_of_time() (clock and cancel) is asked once per WS_CHECK_MASK + 1
 * expansions. */
#define WS_CHECK_MASK 255u

struct wnode {
    uint32_t parent;
    uint16_t g, h;
    uint8_t move, closed;
    uint8_t md;                 /* with parts: the Manhattan sum */
};

/* A heap entry in 12 bytes, not 16: the priority (see prio()) split
 * into f (below 2^32: 100 g + 10000 h at most, both below 2^16) and the
 * tie on g. The heap holds about one entry per open node. */
struct hentry {
    uint32_t f;
    uint32_t node;
    uint16_t tie;
};

static uint64_t hkey(const struct hentry *e)
{
    return (uint64_t)e->f << 16 | e->tie;
}

struct ws {
    struct puz__wsearch *w;
    unsigned k;                     /* state bytes: blank + cared tiles */
    unsigned cells;                 /* rows x columns */
    uint8_t tile_of[PUZ_MAX_CELLS]; /* slot -> tile (slot 0 = blank) */
    uint8_t slot_of[256];           /* tile -> slot, or PUZ__NOT_CARED */
    uint8_t home[PUZ_MAX_CELLS];    /* goal cell of each slot's tile */
    uint8_t to[PUZ_MAX_CELLS][4];   /* blank moves inside the region */
    struct wnode *nodes;
    uint8_t *states;
    uint32_t count, cap;
    uint32_t *index;                /* open addressing; UINT32_MAX = free */
    uint32_t mask;
    struct hentry *heap;
    uint32_t hcount, hcap;
    size_t bytes;                   /* held now: nodes, states, index, heap */
    bool use_parts;                 /* the pdb kept in parts per node */
    struct puz__pdbparts parts;
    uint64_t *part;                 /* with parts: each node's entries */
};

/*
 * Room: a block that cannot double within the byte budget grows by what
 * half the budget left buys (the rest stays for the other blocks), so a
 * store ends within a few percent of its budget instead of up to half
 * of it unused after its last doubling. The new element count, or 0
 * when even that is under 1024 more.
 */
static uint32_t fit(const struct ws *ws, uint32_t cap, uint32_t want,
                    size_t each)
{
    size_t max = ws->w->max_bytes, used = ws->bytes, more;

    if (max == 0 || used + ((size_t)want - cap) * each <= max)
        return want;
    more = used < max ? (max - used) / 2 / each : 0;
    return more >= 1024 ? cap + (uint32_t)more : 0;
}

/* Whether growing a block from old_b to new_b bytes keeps the store
 * within its byte budget; counts it when so. */
static int take(struct ws *ws, size_t old_b, size_t new_b)
{
    struct puz__wsearch *w = ws->w;
    size_t now = ws->bytes - old_b + new_b;

    if (w->max_bytes != 0 && now > w->max_bytes)
        return -1;
    ws->bytes = now;
    if (now > w->peak_bytes)
        w->peak_bytes = now;
    return 0;
}

/* 8 bytes at a time: the index is rebuilt from every state when it
 * grows, and a byte-wise hash was a tenth of the search's time. */
static uint32_t hash_state(const uint8_t *st, unsigned k)
{
    uint64_t h = 0x9E3779B97F4A7C15u;
    unsigned i = 0;

    for (; i + 8 <= k; i += 8) {
        uint64_t w;
        memcpy(&w, st + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 29;
    }
    for (; i < k; i++)
        h = (h ^ st[i]) * 0xC4CEB9FE1A85EC53u;
    h *= 0x9E3779B97F4A7C15u;
    return (uint32_t)(h >> 32);
}

/*
 * An index entry is a node number (low IDX_BITS bits) and a tag of the
 * state's hash (the bits above), so most probes that miss are told
 * apart without reading the state: a cache miss each in a large store.
 */
#define IDX_BITS 26u
#define IDX_NODE(e) ((e) & ((1u << IDX_BITS) - 1u))
#define IDX_TAG(h) ((h) >> IDX_BITS << IDX_BITS)
/* Node numbers stay below this, so no entry equals the free mark. */
#define IDX_MAX_NODES ((1u << IDX_BITS) - 1u)

static int grow_index(struct ws *ws)
{
    uint32_t size = ws->mask ? (ws->mask + 1) * 2 : 1u << 16;
    uint32_t *idx;

    if (take(ws, ws->mask ? (ws->mask + 1) * sizeof(*idx) : 0,
             size * sizeof(*idx)) != 0)
        return -1;
    idx = malloc(size * sizeof(*idx));
    if (idx == NULL) {
        ws->bytes -= (size - (ws->mask ? ws->mask + 1 : 0)) * sizeof(*idx);
        return -1;
    }
    memset(idx, 0xFF, size * sizeof(*idx));     /* all UINT32_MAX: free */
    for (uint32_t i = 0; i < ws->count; i++) {
        uint32_t h = hash_state(ws->states + (size_t)i * ws->k, ws->k);
        uint32_t j = h;
        while (idx[j & (size - 1)] != UINT32_MAX)
            j++;
        idx[j & (size - 1)] = i | IDX_TAG(h);
    }
    free(ws->index);
    ws->index = idx;
    ws->mask = size - 1;
    return 0;
}

/* Index of the state, or UINT32_MAX; *slot is where it would go and
 * *tag the tag its entry takes. */
static uint32_t find(const struct ws *ws, const uint8_t *st, uint32_t h,
                     uint32_t *slot, uint32_t *tag)
{
    uint32_t j = h;

    *tag = IDX_TAG(h);
    for (;; j++) {
        uint32_t e = ws->index[j & ws->mask];
        if (e == UINT32_MAX) {
            *slot = j & ws->mask;
            return UINT32_MAX;
        }
        if (IDX_TAG(e) == *tag &&
            memcmp(ws->states + (size_t)IDX_NODE(e) * ws->k, st,
                   ws->k) == 0) {
            *slot = j & ws->mask;
            return IDX_NODE(e);
        }
    }
}

static int grow_nodes(struct ws *ws)
{
    uint32_t cap = ws->cap ? ws->cap * 2 : 1u << 15;
    size_t each = sizeof(struct wnode) + ws->k +
                  (ws->use_parts ? sizeof(*ws->part) : 0);
    struct wnode *nodes;
    uint8_t *states;

    if (cap > ws->w->max_nodes)
        cap = (uint32_t)ws->w->max_nodes;
    if (cap > IDX_MAX_NODES)
        cap = IDX_MAX_NODES;
    if (ws->cap != 0)
        cap = fit(ws, ws->cap, cap, each);
    if (cap <= ws->cap || take(ws, ws->cap * each, cap * each) != 0)
        return -1;
    if (ws->use_parts) {
        uint64_t *part = realloc(ws->part, cap * sizeof(*part));
        if (part == NULL)
            return -1;
        ws->part = part;
    }
    nodes = realloc(ws->nodes, cap * sizeof(*nodes));
    if (nodes == NULL)
        return -1;
    ws->nodes = nodes;
    states = realloc(ws->states, (size_t)cap * ws->k);
    if (states == NULL)
        return -1;
    ws->states = states;
    ws->cap = cap;
    return 0;
}

/* Add a new state; its index, or UINT32_MAX when out of room. */
static uint32_t add(struct ws *ws, const uint8_t *st, uint32_t slot,
                    uint32_t tag)
{
    uint32_t i = ws->count;

    if (i == ws->cap && grow_nodes(ws) != 0)
        return UINT32_MAX;
    memcpy(ws->states + (size_t)i * ws->k, st, ws->k);
    ws->count++;
    /* half full, or up to three quarters when doubling would not fit:
     * the tags keep the longer probes cheap */
    if ((uint64_t)ws->count * 2 > ws->mask && grow_index(ws) == 0)
        return i;
    if ((uint64_t)ws->count * 4 > (uint64_t)ws->mask * 3) {
        ws->count--;
        return UINT32_MAX;
    }
    ws->index[slot] = i | tag;
    return i;
}

static int heap_push(struct ws *ws, uint64_t key, uint32_t node)
{
    uint32_t i;

    if (ws->hcount == ws->hcap) {
        uint32_t cap = ws->hcap ? ws->hcap * 2 : 1u << 15;
        struct hentry *h;
        if (ws->hcap != 0)
            cap = fit(ws, ws->hcap, cap, sizeof(*h));
        if (cap <= ws->hcap ||
            take(ws, ws->hcap * sizeof(*h), cap * sizeof(*h)) != 0)
            return -1;
        h = realloc(ws->heap, cap * sizeof(*h));
        if (h == NULL)
            return -1;
        ws->heap = h;
        ws->hcap = cap;
    }
    i = ws->hcount++;
    while (i > 0 && hkey(&ws->heap[(i - 1) / 2]) > key) {
        ws->heap[i] = ws->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    ws->heap[i].f = (uint32_t)(key >> 16);
    ws->heap[i].tie = (uint16_t)key;
    ws->heap[i].node = node;
    return 0;
}

static uint32_t heap_pop(struct ws *ws)
{
    uint32_t top = ws->heap[0].node, i = 0;
    struct hentry last = ws->heap[--ws->hcount];

    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= ws->hcount)
            break;
        if (c + 1 < ws->hcount &&
            hkey(&ws->heap[c + 1]) < hkey(&ws->heap[c]))
            c++;
        if (hkey(&ws->heap[c]) >= hkey(&last))
            break;
        ws->heap[i] = ws->heap[c];
        i = c;
    }
    ws->heap[i] = last;
    return top;
}

static uint64_t prio(const struct ws *ws, unsigned g, unsigned h)
{
    uint64_t f = 100u * (uint64_t)g + (uint64_t)ws->w->weight100 * h;

    if (f > UINT32_MAX)         /* a heap entry keeps 32 bits of f */
        f = UINT32_MAX;
    return f << 16 | (uint64_t)(65535u - g);
}

static void setup(struct ws *ws, const uint8_t *cells)
{
    const struct puz__wsearch *w = ws->w;
    const struct puz__mlc *m = w->mlc;
    unsigned n = w->n, rows = w->rows ? w->rows : n;
    struct puz__moves mv;

    memset(ws->slot_of, PUZ__NOT_CARED, sizeof(ws->slot_of));
    ws->k = 1;
    ws->cells = rows * n;
    for (unsigned i = 0; i < ws->cells; i++) {
        unsigned t = cells[i];
        if (t == 0 || t == PUZ__DONT_CARE || m->row[t] == PUZ__NOT_CARED)
            continue;
        ws->slot_of[t] = (uint8_t)ws->k;
        ws->tile_of[ws->k] = (uint8_t)t;
        ws->home[ws->k++] = (uint8_t)(m->row[t] * n + m->col[t]);
    }
    puz__moves_init_shape(&mv, rows, n);
    for (unsigned i = 0; i < ws->cells; i++)
        for (unsigned d = 0; d < 4; d++) {
            unsigned c = mv.to[i][d];
            ws->to[i][d] = (uint8_t)(c != PUZ__WALL && c / n >= w->top &&
                                     c % n >= w->left ? c : PUZ__WALL);
        }
    /* parts need every tile in the state (a whole-board search) */
    ws->use_parts = w->h == &puz__h_pdb && ws->k == ws->cells &&
                    puz__pdbparts_init(&ws->parts, w->hctx, ws->slot_of);
}

static void state_of(const struct ws *ws, const uint8_t *cells, uint8_t *st)
{
    for (unsigned i = 0; i < ws->cells; i++) {
        unsigned t = cells[i];
        if (t == 0)
            st[0] = (uint8_t)i;
        else if (ws->slot_of[t] != PUZ__NOT_CARED)
            st[ws->slot_of[t]] = (uint8_t)i;
    }
}

static void cells_of(const struct ws *ws, const uint8_t *st, uint8_t *cells)
{
    memset(cells, PUZ__DONT_CARE, ws->cells);
    cells[st[0]] = 0;
    for (unsigned s = 1; s < ws->k; s++)
        cells[st[s]] = ws->tile_of[s];
}

/* h of the child: cells and st are the board after the move. */
static unsigned estimate(const struct ws *ws, uint8_t *cells,
                         const uint8_t *st, unsigned hp, unsigned from,
                         unsigned to)
{
    const struct puz__wsearch *w = ws->w;

    if (w->h != NULL)
        return w->h->eval(w->hctx, cells);
    if (w->tcost != NULL) {
        const struct puz__tcost *tc = w->tcost;
        unsigned t = cells[to], q = PUZ__NOT_CARED, s;
        if (t == PUZ__DONT_CARE)
            return hp;
        s = tc->pair[t] != 0 ? ws->slot_of[tc->mate[t]] : PUZ__NOT_CARED;
        if (s != PUZ__NOT_CARED)
            q = st[s];
        return puz__tcost_update(tc, hp, t, from, to, q);
    }
    return puz__mlc_update(w->mlc, cells, hp, from, to);
}

/* With blank_term: how far the blank is from the nearest cared tile not
 * yet home, less one (it must get next to one before any can move);
 * guides the abstract strip searches, whose h sees only those tiles. */
static unsigned blank_term(const struct ws *ws, const uint8_t *st)
{
    unsigned n = ws->w->n, br = st[0] / n, bc = st[0] % n, best = 0;

    if (!ws->w->blank_term)
        return 0;
    for (unsigned i = 1; i < ws->k; i++) {
        unsigned r = st[i] / n, c = st[i] % n, d;
        if (st[i] == ws->home[i])
            continue;
        d = (r > br ? r - br : br - r) + (c > bc ? c - bc : bc - c);
        if (best == 0 || d < best)
            best = d;
    }
    return best > 0 ? best - 1 : 0;
}

/*
 * The children's index slots and table entries are fetched before any
 * is looked at: each is a cache miss in a large store, and the misses
 * of up to three children then overlap instead of following each other.
 */
static void prefetch(const struct ws *ws, uint8_t *st, const uint8_t *cells,
                     unsigned back, uint32_t hash[4],
                     uint64_t where[4][2])
{
    unsigned blank = st[0];

    for (unsigned d = 0; d < 4; d++) {
        unsigned from = ws->to[blank][d], t, s;
        if (from == PUZ__WALL || d == back)
            continue;
        t = cells[from];
        s = ws->slot_of[t];
        st[0] = (uint8_t)from;
        if (s != PUZ__NOT_CARED)
            st[s] = (uint8_t)blank;
        hash[d] = hash_state(st, ws->k);
        __builtin_prefetch(&ws->index[hash[d] & ws->mask]);
        if (ws->use_parts)
            puz__pdbparts_locate(&ws->parts, s, st, where[d]);
        st[0] = (uint8_t)blank;
        if (s != PUZ__NOT_CARED)
            st[s] = (uint8_t)from;
    }
}

/* Children of node pi; -1 when out of room. */
static int expand(struct ws *ws, uint32_t pi)
{
    uint8_t cells[PUZ_MAX_CELLS], st[PUZ_MAX_CELLS];
    struct wnode p = ws->nodes[pi];
    unsigned blank, back = pi == 0 ? PUZ_NO_DIR : p.move ^ 1u;
    uint32_t hash[4];
    uint64_t where[4][2];
    unsigned prune = ws->w->blank_term || ws->w->tcost ? 0
                                                       : ws->w->prune_at;

    memcpy(st, ws->states + (size_t)pi * ws->k, ws->k);
    cells_of(ws, st, cells);
    blank = st[0];
    prefetch(ws, st, cells, back, hash, where);
    for (unsigned d = 0; d < 4; d++) {
        unsigned from = ws->to[blank][d], t;
        uint32_t slot, ci, tag;
        if (from == PUZ__WALL || d == back)
            continue;
        t = cells[from];
        st[0] = (uint8_t)from;
        if (ws->slot_of[t] != PUZ__NOT_CARED)
            st[ws->slot_of[t]] = (uint8_t)blank;
        ws->w->generated++;
        ci = find(ws, st, hash[d], &slot, &tag);
        if (ci == UINT32_MAX) {
            struct wnode *c;
            unsigned h, md = 0;
            uint64_t part = 0;
            if (ws->use_parts) {
                unsigned s = ws->slot_of[t];
                md = p.md + ws->parts.md[s][blank] - ws->parts.md[s][from];
                part = puz__pdbparts_apply(&ws->parts, ws->part[pi], s,
                                           where[d]);
                h = puz__pdbparts_h(&ws->parts, part, md);
            } else {
                cells[blank] = (uint8_t)t;
                cells[from] = 0;
                h = estimate(ws, cells, st, p.h, from, blank);
                cells[from] = (uint8_t)t;
                cells[blank] = 0;
            }
            if (prune > 0 && p.g + 1u + h >= prune)
                goto next;
            ci = add(ws, st, slot, tag);
            if (ci == UINT32_MAX)
                return -1;
            c = &ws->nodes[ci];
            c->closed = 0;
            c->md = (uint8_t)md;
            c->h = (uint16_t)h;
            if (ws->use_parts)
                ws->part[ci] = part;
        } else if (ws->nodes[ci].closed || ws->nodes[ci].g <= p.g + 1u) {
            goto next;
        } else if (prune > 0 && p.g + 1u + ws->nodes[ci].h >= prune) {
            goto next;
        }
        ws->nodes[ci].g = (uint16_t)(p.g + 1);
        ws->nodes[ci].parent = pi;
        ws->nodes[ci].move = (uint8_t)d;
        if (heap_push(ws, prio(ws, p.g + 1u, ws->nodes[ci].h +
                                             blank_term(ws, st)), ci) != 0)
            return -1;
next:
        st[0] = (uint8_t)blank;
        if (ws->slot_of[t] != PUZ__NOT_CARED)
            st[ws->slot_of[t]] = (uint8_t)from;
    }
    return 0;
}

static int at_home(const struct ws *ws, uint32_t i)
{
    const uint8_t *st = ws->states + (size_t)i * ws->k;

    return memcmp(st + 1, ws->home + 1, ws->k - 1) == 0;
}

static puz_err extract(struct ws *ws, uint32_t gi, uint8_t **path,
                       unsigned *len)
{
    unsigned g = ws->nodes[gi].g;
    uint8_t *dirs = malloc(g + 1u);

    if (dirs == NULL)
        return PUZ_ENOMEM;
    for (uint32_t i = gi; i != 0; i = ws->nodes[i].parent)
        dirs[ws->nodes[i].g - 1] = ws->nodes[i].move;
    *path = dirs;
    *len = g;
    return PUZ_OK;
}

static int out_of_time(const struct puz__wsearch *w)
{
    const struct puz_limits *l = w->limits;

    if (l != NULL && l->cancel != NULL &&
        atomic_load_explicit(l->cancel, memory_order_relaxed))
        return 1;
    return w->deadline_us != 0 && puz__now(l) >= w->deadline_us;
}

static puz_err search(struct ws *ws, const uint8_t *cells, uint8_t **path,
                      unsigned *len)
{
    struct puz__wsearch *w = ws->w;
    uint8_t st[PUZ_MAX_CELLS], c[PUZ_MAX_CELLS];
    uint32_t slot, tag;

    setup(ws, cells);
    if (grow_index(ws) != 0 || grow_nodes(ws) != 0)
        return PUZ_ENOMEM;
    state_of(ws, cells, st);
    find(ws, st, hash_state(st, ws->k), &slot, &tag);
    add(ws, st, slot, tag);
    cells_of(ws, st, c);
    ws->nodes[0] = (struct wnode){ 0, 0, 0, PUZ_NO_DIR, 0, 0 };
    ws->nodes[0].h = (uint16_t)(w->h ? w->h->eval(w->hctx, c)
                                : w->tcost ? puz__tcost_eval(w->tcost, c)
                                : puz__mlc_eval(w->mlc, c));
    if (ws->use_parts) {
        unsigned md;
        ws->part[0] = puz__pdbparts_eval(&ws->parts, st, &md);
        ws->nodes[0].md = (uint8_t)md;
    }
    heap_push(ws, 0, 0);
    while (ws->hcount > 0) {
        uint32_t i = heap_pop(ws);
        if (ws->nodes[i].closed)
            continue;
        ws->nodes[i].closed = 1;
        if (at_home(ws, i))
            return extract(ws, i, path, len);
        if ((++w->expanded & WS_CHECK_MASK) == 0 && out_of_time(w))
            return PUZ_ERANGE;
        if (w->max_expanded != 0 && w->expanded >= w->max_expanded)
            return PUZ_ERANGE;
        if (ws->nodes[i].g >= 60000 || expand(ws, i) != 0)
            return PUZ_ERANGE;
    }
    w->exhausted = true;
    return PUZ_ERANGE;
}

puz_err puz__wsearch_run(struct puz__wsearch *w, const uint8_t *cells,
                         uint8_t **path, unsigned *len)
{
    struct ws ws;
    puz_err rc;

    memset(&ws, 0, sizeof(ws));
    ws.w = w;
    *path = NULL;
    *len = 0;
    /* A try begun past its deadline fails at once: the reduction's
     * ladders try a dozen weights in a row, and each one's set-up and
     * first check (256 expansions) cost 2 ms under ASan, 40 ms past a
     * 200 ms budget on 8x8 all told. */
    if (out_of_time(w))
        return PUZ_ERANGE;
    rc = search(&ws, cells, path, len);
    free(ws.nodes);
    free(ws.states);
    free(ws.index);
    free(ws.heap);
    free(ws.part);
    return rc;
}
