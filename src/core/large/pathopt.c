/*
 * pathopt.c - making a found path shorter after the fact:
 *   loops   a board the path visits twice: the moves between are cut;
 *   windows the boards i and i + k moves along the path are joined by an
 *           optimal path (IDA* between the two boards, Manhattan plus
 *           linear conflict towards the later one); when it is shorter
 *           than k it replaces the window. The window slides one move at
 *           a time, so every stretch of k moves ends up locally optimal.
 *   pdb     the same with longer windows, only those with an end board
 *           the loaded 5x5 pattern databases serve as a goal (the blank
 *           in a corner; the last board is the goal itself), searched
 *           towards that end (a path found backwards is turned round):
 *           IDA* with the pdb heuristic (puz__idastar_tables, Korf &
 *           Felner's search) is many times stronger there than linear
 *           conflict.
 * All work in place on a malloc'd puz__lpath and keep it legal: every
 * replacement joins the same two boards.
 */
#include <stdlib.h>
#include <string.h>

#include "large/large.h"
#include "puz_tables.h"

puz_err puz__lpath_append(struct puz__lpath *p, const uint8_t *dirs,
                          unsigned len)
{
    if (p->len + len > p->cap) {
        unsigned cap = p->cap ? p->cap : 256;
        uint8_t *d;
        while (cap < p->len + len)
            cap *= 2;
        d = realloc(p->dirs, cap);
        if (d == NULL)
            return PUZ_ENOMEM;
        p->dirs = d;
        p->cap = cap;
    }
    if (len > 0)    /* dirs may be NULL for an empty piece */
        memcpy(p->dirs + p->len, dirs, len);
    p->len += len;
    return PUZ_OK;
}

static uint64_t board_hash(const struct puz_board *b)
{
    uint64_t h = 1469598103934665603ull;

    for (unsigned i = 0; i < puz_board_cells(b); i++)
        h = (h ^ b->cells[i]) * 1099511628211ull;
    return h;
}

/* Keep a stack of the boards on the path so far; a board seen before
 * pops the stack back to it (those moves were a loop). */
unsigned puz__pathopt_loops(const struct puz_board *start,
                            struct puz__lpath *p)
{
    uint64_t *hashes = malloc((p->len + 1u) * sizeof(*hashes));
    struct puz_board *boards = malloc((p->len + 1u) * sizeof(*boards));
    unsigned top = 0, old = p->len;

    if (hashes == NULL || boards == NULL) {
        free(hashes);
        free(boards);
        return 0;
    }
    boards[0] = *start;
    hashes[0] = board_hash(start);
    for (unsigned i = 0; i < old; i++) {
        struct puz_board b = boards[top];
        uint64_t h;
        unsigned j;
        puz_board_move(&b, (enum puz_dir)p->dirs[i]);
        h = board_hash(&b);
        for (j = 0; j <= top; j++)
            if (hashes[j] == h && puz_board_equal(&boards[j], &b))
                break;
        if (j <= top) {
            top = j;            /* back at board j: drop the loop */
            continue;
        }
        p->dirs[top] = p->dirs[i];
        boards[++top] = b;
        hashes[top] = h;
    }
    p->len = top;
    free(hashes);
    free(boards);
    return old - top;
}

struct wida {
    struct puz__mlc mlc;
    const struct puz_board *goal;
    struct puz__moves mv;
    uint8_t cells[PUZ_MAX_CELLS];
    uint8_t path[64];
    unsigned bound, next_bound, found;
    uint64_t nodes, cap;
    uint64_t deadline_us;
    const struct puz_limits *limits;    /* its clock */
};

static int probe(struct wida *w, unsigned blank, unsigned g, unsigned h,
                 unsigned back)
{
    if (h == 0 &&
        memcmp(w->cells, w->goal->cells, puz_board_cells(w->goal)) == 0) {
        w->found = g;
        return 1;
    }
    if (++w->nodes > w->cap)
        return 0;
    if ((w->nodes & PUZ__CHECK_MASK) == 0 && w->deadline_us != 0 &&
        puz__now(w->limits) >= w->deadline_us) {
        w->cap = 0;             /* out of time: unwind */
        return 0;
    }
    for (unsigned d = 0; d < 4; d++) {
        unsigned from = w->mv.to[blank][d], t, ch;
        if (from == PUZ__WALL || d == back)
            continue;
        t = w->cells[from];
        w->cells[blank] = (uint8_t)t;
        w->cells[from] = 0;
        ch = puz__mlc_update(&w->mlc, w->cells, h, from, blank);
        w->path[g] = (uint8_t)d;
        if (g + 1 + ch > w->bound) {
            if (g + 1 + ch < w->next_bound)
                w->next_bound = g + 1 + ch;
        } else if (probe(w, from, g + 1, ch, d ^ 1u)) {
            return 1;
        }
        w->cells[from] = (uint8_t)t;
        w->cells[blank] = 0;
        if (w->nodes > w->cap)
            return 0;
    }
    return 0;
}

/* Optimal path from a to b if one of at most max_len moves exists
 * (found within the node cap): its length, else UINT32_MAX. */
static unsigned join(struct wida *w, const struct puz_board *a,
                     const struct puz_board *b, unsigned max_len)
{
    unsigned h0;

    w->goal = b;
    puz__mlc_init(&w->mlc, b, NULL, 0);
    memcpy(w->cells, a->cells, puz_board_cells(a));
    h0 = puz__mlc_eval(&w->mlc, w->cells);
    for (w->bound = h0; w->bound <= max_len; w->bound = w->next_bound) {
        w->next_bound = UINT32_MAX;
        if (probe(w, a->blank, 0, h0, PUZ_NO_DIR))
            return w->found;
        if (w->nodes > w->cap || w->next_bound == UINT32_MAX)
            break;
    }
    return UINT32_MAX;
}

static int stop_now(uint64_t deadline_us, const struct puz_limits *l)
{
    if (l != NULL && l->cancel != NULL &&
        atomic_load_explicit(l->cancel, memory_order_relaxed))
        return 1;
    return deadline_us != 0 && puz__now(l) >= deadline_us;
}

/* Replace dirs[i, i + k) by the m moves of repl. */
static void splice(struct puz__lpath *p, unsigned i, unsigned k,
                   const uint8_t *repl, unsigned m)
{
    memmove(p->dirs + i + m, p->dirs + i + k, p->len - i - k);
    memcpy(p->dirs + i, repl, m);
    p->len = p->len - k + m;
}

/*
 * The window slider both passes share: every window of k moves from
 * board cur is offered to join, which writes a shorter path between its
 * end boards to repl (its length in *m, else UINT32_MAX) spending at most
 * cap nodes; a shorter one replaces the window and the same start is
 * tried again.
 */
typedef void (*join_fn)(void *ctx, const struct puz_board *a,
                        const struct puz_board *b, unsigned k,
                        uint64_t cap, uint8_t *repl, unsigned *m,
                        uint64_t *nodes);

static unsigned slide(const struct puz_board *start, struct puz__lpath *p,
                      unsigned k, join_fn join_w, void *ctx, uint8_t *repl,
                      uint64_t node_cap, uint64_t deadline_us,
                      const struct puz_limits *l, uint64_t *nodes,
                      uint64_t node_limit)
{
    struct puz_board cur = *start;
    unsigned saved = 0;

    for (unsigned i = 0; i + k <= p->len;) {
        struct puz_board end = cur;
        uint64_t cap = node_cap;
        unsigned m;
        if (stop_now(deadline_us, l) ||
            (node_limit != 0 && *nodes >= node_limit))
            break;
        for (unsigned j = i; j < i + k; j++)
            puz_board_move(&end, (enum puz_dir)p->dirs[j]);
        if (node_limit != 0 && node_limit - *nodes < cap)
            cap = node_limit - *nodes;
        join_w(ctx, &cur, &end, k, cap, repl, &m, nodes);
        if (m < k) {
            splice(p, i, k, repl, m);
            saved += k - m;
            continue;           /* the same start, a new window */
        }
        puz_board_move(&cur, (enum puz_dir)p->dirs[i++]);
    }
    return saved;
}

/* slide's join for the linear-conflict windows. */
static void join_lc(void *ctx, const struct puz_board *a,
                    const struct puz_board *b, unsigned k, uint64_t cap,
                    uint8_t *repl, unsigned *m, uint64_t *nodes)
{
    struct wida *w = ctx;

    w->nodes = 0;
    w->cap = cap;
    *m = join(w, a, b, k - 1);
    *nodes += w->nodes;
    if (*m < k)
        memcpy(repl, w->path, *m);
}

unsigned puz__pathopt_windows(const struct puz_board *start,
                              struct puz__lpath *p, unsigned k,
                              uint64_t node_cap, uint64_t deadline_us,
                              const struct puz_limits *l, uint64_t *nodes,
                              uint64_t node_limit)
{
    struct wida *w = malloc(sizeof(*w));
    uint8_t repl[sizeof(w->path)];
    unsigned saved = 0;

    if (w != NULL && k >= 2 && k < sizeof(w->path)) {
        puz__moves_init_shape(&w->mv, puz_board_rows(start), start->n);
        w->deadline_us = deadline_us;
        w->limits = l;
        saved = slide(start, p, k, join_lc, w, repl, node_cap, deadline_us,
                      l, nodes, node_limit);
    }
    free(w);
    return saved;
}

/* What the pdb windows' joins share. */
struct pdbwin {
    const struct puz_tables *t;
    uint64_t deadline_us;
    const struct puz_limits *l;
    puz_arena *ar;
};

/* slide's join for the pdb windows: towards whichever end the tables
 * serve (the later one first), an optimal path of fewer than k moves
 * by IDA* with pdb; one found backwards (from b to a) is turned round. */
static void join_pdb(void *ctx, const struct puz_board *a,
                     const struct puz_board *b, unsigned k, uint64_t cap,
                     uint8_t *repl, unsigned *m, uint64_t *nodes)
{
    const struct pdbwin *pw = ctx;
    const struct puz_limits *l = pw->l;
    struct puz_limits lw = { 0 };
    struct puz_result r;
    int reverse = !puz_tables_serves(pw->t, b);

    *m = UINT32_MAX;
    if (reverse && !puz_tables_serves(pw->t, a))
        return;
    lw.max_nodes = cap;
    /* the forbidden-move automaton comes with the tables (built once,
     * puz__pdb_attach_fsm), so these small searches are pruned without
     * building one; their memory stays within the reserve anytime keeps
     * (PUZ__PATH_RESERVE) */
    lw.max_bytes = PUZ__PDBWIN_BYTES;
    lw.deadline_us = pw->deadline_us;
    lw.clock_us = l != NULL ? l->clock_us : NULL;
    lw.cancel = l != NULL ? l->cancel : NULL;
    puz_arena_reset(pw->ar);
    if (puz__idastar_tables(reverse ? b : a, reverse ? a : b, pw->t, &lw,
                            pw->ar, &r) != PUZ_OK)
        return;
    *nodes += r.stats.expanded;
    if (r.status == PUZ_SOLVED && r.length < k) {
        for (unsigned i = 0; i < r.length; i++)
            repl[reverse ? r.length - 1 - i : i] =
                (uint8_t)(reverse ? r.moves[i] ^ 1u : r.moves[i]);
        *m = r.length;
    }
}

unsigned puz__pathopt_pdb(const struct puz_board *start,
                          struct puz__lpath *p, unsigned k,
                          const struct puz_tables *t, uint64_t node_cap,
                          uint64_t deadline_us, const struct puz_limits *l,
                          uint64_t *nodes, uint64_t node_limit)
{
    struct pdbwin pw = { t, deadline_us, l, puz_arena_create(1 << 16) };
    uint8_t *repl = malloc(k);
    unsigned saved = 0;

    if (pw.ar != NULL && repl != NULL && start->n == 5 &&
        puz_board_square(start))
        saved = slide(start, p, k, join_pdb, &pw, repl, node_cap,
                      deadline_us, l, nodes, node_limit);
    free(repl);
    puz_arena_destroy(pw.ar);
    return saved;
}
