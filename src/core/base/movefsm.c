/*
 * movefsm.c - builds the forbidden-move automaton of movefsm.h.
 *
 * A breadth-first search over blank-move strings on a board large enough
 * that the walls never matter (side 2 * max_len + 1, blank in the middle,
 * every tile distinct) finds, level by level and in the search's
 * direction order, the first string to reach each arrangement: the
 * shortest and, among those, the earliest. A later string that reaches an
 * arrangement already seen is not extended; it is forbidden when the first
 * string's blank stayed inside the later one's rectangle (so the first
 * can be played wherever the later can, on any board). Arrangements are
 * keyed by a 64-bit hash and compared cell by cell on a key match, so a
 * hash collision cannot forbid a string wrongly. The forbidden strings
 * then go into an Aho-Corasick automaton: one state per prefix, one
 * transition per direction, and a transition into a state that ends with
 * a forbidden string marked dead.
 *
 * All memory comes from the caller's arena and is bounded by max_len:
 * when the table of arrangements fills up the search stops after the
 * level it is in, which forbids fewer strings but never a wrong one.
 */
#include <stdbool.h>
#include <string.h>

#include "base/movefsm.h"
#include "puz_board.h"

#define MAX_CAP ((size_t)1 << 22)

struct gnode {
    uint32_t mv;             /* move i in bits 2i, 2i+1 */
    uint8_t len;
    int8_t bb[4];            /* blank's min row, max row, min col, max col */
};

struct gen {
    unsigned w, centre, half;
    int off[4];
    const uint8_t *order;
    uint16_t *board, *other; /* working board; a pristine one */
    uint64_t *key;           /* hash table: key (0 = empty) ... */
    uint32_t *at;            /* ... and the node it names */
    size_t cap;
    struct gnode *node;      /* first arrivals in breadth-first order */
    size_t count, max_count;
    struct gnode *word;      /* forbidden strings */
    size_t words, max_words;
    bool full;
};

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t tile_at(unsigned tile, unsigned cell)
{
    return mix((uint64_t)tile << 32 | cell);
}

static uint64_t blank_at(unsigned cell)
{
    return mix(0xffffull << 32 | cell);
}

static unsigned dir_of(uint32_t mv, unsigned i)
{
    return (mv >> (2 * i)) & 3u;
}

/* Play n on b from the centre; returns the blank's cell, *tiles the
 * hash of the tiles' places. */
static unsigned play(const struct gen *g, uint16_t *b, const struct gnode *n,
                     uint64_t *tiles)
{
    unsigned blank = g->centre;
    uint64_t h = 0;

    for (unsigned i = 0; i < n->len; i++) {
        unsigned nb = (unsigned)((int)blank + g->off[dir_of(n->mv, i)]);
        unsigned t = b[nb];
        b[blank] = (uint16_t)t;
        b[nb] = 0;
        h ^= tile_at(t, nb) ^ tile_at(t, blank);
        blank = nb;
    }
    *tiles = h;
    return blank;
}

static void unplay(const struct gen *g, uint16_t *b, const struct gnode *n,
                   unsigned blank)
{
    for (unsigned i = n->len; i-- > 0;) {
        unsigned prev = (unsigned)((int)blank - g->off[dir_of(n->mv, i)]);
        b[blank] = b[prev];
        b[prev] = 0;
        blank = prev;
    }
}

/* Whether playing n from the start gives board b, which differs from the
 * start only inside rectangle bb: outside both strings' rectangles no
 * tile moved. */
static bool same(struct gen *g, const struct gnode *n, const uint16_t *b,
                 const int8_t *bb)
{
    uint64_t h;
    unsigned blank = play(g, g->other, n, &h);
    int r0 = bb[0] < n->bb[0] ? bb[0] : n->bb[0];
    int r1 = bb[1] > n->bb[1] ? bb[1] : n->bb[1];
    int c0 = bb[2] < n->bb[2] ? bb[2] : n->bb[2];
    int c1 = bb[3] > n->bb[3] ? bb[3] : n->bb[3];
    bool eq = true;

    for (int r = r0; r <= r1 && eq; r++) {
        size_t at = (size_t)(r + (int)g->half) * g->w +
                    (size_t)(c0 + (int)g->half);
        eq = memcmp(g->other + at, b + at,
                    (size_t)(c1 - c0 + 1) * sizeof(*b)) == 0;
    }
    unplay(g, g->other, n, blank);
    return eq;
}

/* The table slot holding arrangement b (key), or the empty one where it
 * goes. */
static size_t find(struct gen *g, uint64_t key, const uint16_t *b,
                   const int8_t *bb)
{
    size_t j = key & (g->cap - 1);

    while (g->key[j] != 0) {
        if (g->key[j] == key && same(g, &g->node[g->at[j]], b, bb))
            break;
        j = (j + 1) & (g->cap - 1);
    }
    return j;
}

/* The child of u in direction dir (board b holds u's arrangement with
 * the blank at blank): a new arrangement, a forbidden string, or a
 * duplicate the rectangle rule cannot forbid. */
static void child(struct gen *g, const struct gnode *u, unsigned blank,
                  uint64_t tiles, unsigned dir)
{
    uint16_t *b = g->board;
    unsigned nb = (unsigned)((int)blank + g->off[dir]), t = b[nb];
    int r = (int)(nb / g->w) - (int)g->half;
    int col = (int)(nb % g->w) - (int)g->half;
    struct gnode c = *u;
    uint64_t key;
    size_t j;

    c.mv |= (uint32_t)dir << (2 * u->len);
    c.len++;
    if (r < c.bb[0])
        c.bb[0] = (int8_t)r;
    if (r > c.bb[1])
        c.bb[1] = (int8_t)r;
    if (col < c.bb[2])
        c.bb[2] = (int8_t)col;
    if (col > c.bb[3])
        c.bb[3] = (int8_t)col;
    b[blank] = (uint16_t)t;
    b[nb] = 0;
    key = tiles ^ tile_at(t, nb) ^ tile_at(t, blank) ^ blank_at(nb);
    key |= key == 0;
    j = find(g, key, b, c.bb);
    if (g->key[j] != 0) {
        const int8_t *fb = g->node[g->at[j]].bb;
        if (fb[0] >= c.bb[0] && fb[1] <= c.bb[1] && fb[2] >= c.bb[2] &&
            fb[3] <= c.bb[3] && g->words < g->max_words)
            g->word[g->words++] = c;
    } else if (g->count < g->max_count) {
        g->key[j] = key;
        g->at[j] = (uint32_t)g->count;
        g->node[g->count++] = c;
    } else {
        g->full = true;
    }
    b[nb] = (uint16_t)t;
    b[blank] = 0;
}

static void search(struct gen *g, unsigned max_len)
{
    struct gnode root = { 0, 0, { 0, 0, 0, 0 } };
    size_t lo = 0, hi = 1;
    uint64_t key = blank_at(g->centre) | 1u;

    g->key[key & (g->cap - 1)] = key;
    g->at[key & (g->cap - 1)] = 0;
    g->node[0] = root;
    g->count = 1;
    for (unsigned d = 0; d < max_len && !g->full; d++) {
        for (size_t i = lo; i < hi; i++) {
            struct gnode u = g->node[i];
            uint64_t tiles;
            unsigned blank = play(g, g->board, &u, &tiles);
            for (unsigned oi = 0; oi < 4; oi++) {
                unsigned dir = g->order[oi];
                if (u.len == 0 || dir != (dir_of(u.mv, u.len - 1) ^ 1u))
                    child(g, &u, blank, tiles, dir);
            }
            unplay(g, g->board, &u, blank);
        }
        lo = hi;
        hi = g->count;
    }
}

/* The Aho-Corasick automaton of the forbidden strings into m. */
static puz_err automaton(const struct gen *g, struct puz__movefsm *m,
                         puz_arena *a)
{
    size_t maxst = 1, ns = 1, head = 0;
    uint32_t *go, *fail, *queue;
    bool *dead;

    for (size_t i = 0; i < g->words; i++)
        maxst += g->word[i].len;
    go = puz_arena_alloc(a, maxst * 4 * sizeof(*go));
    fail = puz_arena_calloc(a, maxst, sizeof(*fail));
    queue = puz_arena_alloc(a, maxst * sizeof(*queue));
    dead = puz_arena_calloc(a, maxst, sizeof(*dead));
    if (go == NULL || fail == NULL || queue == NULL || dead == NULL)
        return PUZ_ENOMEM;
    memset(go, 0xff, maxst * 4 * sizeof(*go));     /* UINT32_MAX: no edge */
    for (size_t i = 0; i < g->words; i++) {
        uint32_t s = 0;
        for (unsigned k = 0; k < g->word[i].len; k++) {
            unsigned d = dir_of(g->word[i].mv, k);
            if (go[4 * s + d] == UINT32_MAX)
                go[4 * s + d] = (uint32_t)ns++;
            s = go[4 * s + d];
        }
        dead[s] = true;
    }
    /* breadth first: failure links, then the missing transitions */
    for (unsigned d = 0; d < 4; d++) {
        if (go[d] == UINT32_MAX)
            go[d] = 0;
        else
            queue[head++] = go[d];
    }
    for (size_t qi = 0; qi < head; qi++) {
        uint32_t u = queue[qi];
        dead[u] = dead[u] || dead[fail[u]];
        for (unsigned d = 0; d < 4; d++) {
            uint32_t v = go[4 * u + d];
            if (v == UINT32_MAX) {
                go[4 * u + d] = go[4 * fail[u] + d];
            } else {
                fail[v] = go[4 * fail[u] + d];
                queue[head++] = v;
            }
        }
    }
    for (size_t i = 0; i < ns * 4; i++)
        go[i] = dead[go[i]] ? PUZ__FSM_DEAD : go[i];
    m->next = go;
    m->states = (unsigned)ns;
    m->words = (unsigned)g->words;
    return PUZ_OK;
}

puz_err puz__movefsm_build(struct puz__movefsm *m, unsigned max_len,
                           const uint8_t order[4], puz_arena *a)
{
    struct gen g = { 0 };
    size_t cells, want = 4;

    memset(m, 0, sizeof(*m));
    if (max_len > PUZ__FSM_MAX_LEN)
        max_len = PUZ__FSM_MAX_LEN;
    g.w = 2 * max_len + 1;
    g.half = max_len;
    g.centre = max_len * g.w + max_len;
    g.off[PUZ_UP] = -(int)g.w;
    g.off[PUZ_DOWN] = (int)g.w;
    g.off[PUZ_LEFT] = -1;
    g.off[PUZ_RIGHT] = 1;
    g.order = order;
    /* About 2 * 3^max_len arrangements (115k for 10 moves), the table at
     * most half full; past MAX_CAP slots the search stops early. */
    for (unsigned i = 0; i < max_len; i++)
        want *= 3;
    g.cap = 1024;
    while (g.cap < want && g.cap < MAX_CAP)
        g.cap *= 2;
    g.max_count = g.cap / 2;
    g.max_words = g.cap / 8;
    cells = (size_t)g.w * g.w;
    g.board = puz_arena_alloc(a, cells * sizeof(*g.board));
    g.other = puz_arena_alloc(a, cells * sizeof(*g.other));
    g.key = puz_arena_calloc(a, g.cap, sizeof(*g.key));
    g.at = puz_arena_alloc(a, g.cap * sizeof(*g.at));
    g.node = puz_arena_alloc(a, g.max_count * sizeof(*g.node));
    g.word = puz_arena_alloc(a, g.max_words * sizeof(*g.word));
    if (g.board == NULL || g.other == NULL || g.key == NULL ||
        g.at == NULL || g.node == NULL || g.word == NULL)
        return PUZ_ENOMEM;
    for (size_t c = 0; c < cells; c++)
        g.board[c] = g.other[c] = (uint16_t)(c + 1);
    g.board[g.centre] = g.other[g.centre] = 0;
    search(&g, max_len);
    return automaton(&g, m, a);
}
