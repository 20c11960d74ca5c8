/*
 * idastar_packed.c - the IDA* plug-in for 3x3 and 4x4 boards with a
 * heuristic that can be written as tables (misplaced, Manhattan, linear
 * conflict: puz__htables). The board is one 64-bit word passed down the
 * recursion (cell i in bits 4i..4i+3), so a move is two shifts and no
 * memory is written or restored; h changes by a per-(cell, direction,
 * tile) delta looked up in a table built for this solve. For linear
 * conflict the codes of all rows and of all columns travel along as two
 * words of 16-bit lanes: a move adds a precomputed difference to each
 * and looks up the one line whose cost can change. Nothing in the loop
 * calls through a pointer.
 *
 * The search is the generic plug-in's (idastar.c) node for node: the
 * same move order, parent pruning, counting and goal test, so answers and
 * stats do not change, only the time. Instead of g and h a node carries
 * its slack, bound - g - h: a child is entered when its slack is >= 0.
 * The path is written on the way back up, last move first, and reversed.
 * The driver (idastar.c) owns iterations, budget and clock.
 */
#include <limits.h>
#include <string.h>

#include "search/idastar.h"

#define HOT static inline __attribute__((always_inline))
#define STRIDE PUZ__HT_CELLS        /* tiles per (cell, direction) row */

/* A move's effect when the tile that slides is known (linear conflict):
 * dline changes the codes of the lines across the move (rows when it is
 * vertical), dcross those along it; only the tile's goal line among the
 * former, at bit `shift` of the word, can change its cost. */
struct lstep {
    uint64_t dline, dcross;
    int8_t dh;                  /* the tile_cost part */
    uint8_t shift;
};

struct pk {
    struct puz__ida c;
    uint64_t goal;
    unsigned over;              /* smallest f - bound above the bound */
    uint8_t legal[PUZ__HT_CELLS];   /* directions the blank can take */
    int8_t *dh;                 /* [cell][dir][tile] without lines */
    struct lstep *ls;           /* [cell][dir][tile] with lines */
    const uint8_t *line_cost;
    unsigned n, start_blank, h0;
    uint64_t start, row0, col0;
};

static int probe3(struct pk *k, uint64_t board, unsigned bb, int slack);
static int probe4(struct pk *k, uint64_t board, unsigned bb, int slack);
static int probe3_lc(struct pk *k, uint64_t board, unsigned bb, int slack,
                     uint64_t row, uint64_t col);
static int probe4_lc(struct pk *k, uint64_t board, unsigned bb, int slack,
                     uint64_t row, uint64_t col);

/* bb is the blank's cell times 8 plus the direction that would undo the
 * last move (PUZ_NO_DIR at the root). */
HOT int probe_again(struct pk *k, uint64_t board, unsigned bb, int slack,
                    uint64_t row, uint64_t col, const unsigned n,
                    const int lines)
{
    if (lines)
        return n == 3 ? probe3_lc(k, board, bb, slack, row, col)
                      : probe4_lc(k, board, bb, slack, row, col);
    return n == 3 ? probe3(k, board, bb, slack) : probe4(k, board, bb, slack);
}

static unsigned lane(uint64_t codes, unsigned shift)
{
    return (unsigned)(codes >> shift) & 0xffffu;
}

/*
 * The child of moving the blank from b in direction d, which slides the
 * tile at f into b. Returns the path length left plus 2 when the goal was
 * found below it (its move written), -1 when the search must stop, 0 to
 * go on with the next child.
 */
HOT int try_move(struct pk *k, uint64_t board, unsigned b, unsigned f,
                 unsigned d, int slack, uint64_t row, uint64_t col,
                 const unsigned n, const int lines)
{
    unsigned t = (unsigned)(board >> (4 * f)) & 15u;
    size_t at = (b * 4 + d) * STRIDE + t;
    int cs, r;

    k->c.generated++;
    if (lines) {
        const struct lstep *e = &k->ls[at];
        uint64_t before = d < 2 ? row : col, after = before + e->dline;
        cs = slack - 1 - e->dh -
             2 * ((int)k->line_cost[lane(after, e->shift)] -
                  (int)k->line_cost[lane(before, e->shift)]);
        if (d < 2) {
            row = after;
            col += e->dcross;
        } else {
            col = after;
            row += e->dcross;
        }
    } else {
        cs = slack - 1 - k->dh[at];
    }
    if (cs < 0) {               /* over the bound: not entered */
        if ((unsigned)-cs < k->over)
            k->over = (unsigned)-cs;
        return 0;
    }
    board = board - ((uint64_t)t << (4 * f)) + ((uint64_t)t << (4 * b));
    r = probe_again(k, board, f * 8 + (d ^ 1u), cs, row, col, n, lines);
    if (r > 0) {
        k->c.path[r - 1] = (uint8_t)d;
        return r + 1;
    }
    return k->c.stop != PUZ_SOLVED ? -1 : 0;
}

/* Probe below a node within the bound; returns the moves left to the
 * goal plus 1 when it found it, else 0. */
HOT int probe_n(struct pk *k, uint64_t board, unsigned bb, int slack,
                uint64_t row, uint64_t col, const unsigned n,
                const int lines)
{
    unsigned b = bb >> 3, mask = k->legal[b] & ~(1u << (bb & 7u));
    int r;

    if (board == k->goal)       /* these heuristics are 0 only there */
        return 1;
    if (puz__ida_expand(&k->c))
        return 0;
    if (mask & 1u << PUZ_UP) {
        r = try_move(k, board, b, b - n, PUZ_UP, slack, row, col, n, lines);
        if (r != 0)
            return r > 0 ? r : 0;
    }
    if (mask & 1u << PUZ_DOWN) {
        r = try_move(k, board, b, b + n, PUZ_DOWN, slack, row, col, n,
                     lines);
        if (r != 0)
            return r > 0 ? r : 0;
    }
    if (mask & 1u << PUZ_LEFT) {
        r = try_move(k, board, b, b - 1, PUZ_LEFT, slack, row, col, n,
                     lines);
        if (r != 0)
            return r > 0 ? r : 0;
    }
    if (mask & 1u << PUZ_RIGHT) {
        r = try_move(k, board, b, b + 1, PUZ_RIGHT, slack, row, col, n,
                     lines);
        if (r != 0)
            return r > 0 ? r : 0;
    }
    return 0;
}

static int probe3(struct pk *k, uint64_t board, unsigned bb, int slack)
{
    return probe_n(k, board, bb, slack, 0, 0, 3, 0);
}

static int probe4(struct pk *k, uint64_t board, unsigned bb, int slack)
{
    return probe_n(k, board, bb, slack, 0, 0, 4, 0);
}

static int probe3_lc(struct pk *k, uint64_t board, unsigned bb, int slack,
                     uint64_t row, uint64_t col)
{
    return probe_n(k, board, bb, slack, row, col, 3, 1);
}

static int probe4_lc(struct pk *k, uint64_t board, unsigned bb, int slack,
                     uint64_t row, uint64_t col)
{
    return probe_n(k, board, bb, slack, row, col, 4, 1);
}

static int iterate(struct puz__ida *c, void *self)
{
    struct pk *k = self;
    unsigned bb = k->start_blank * 8 + PUZ_NO_DIR;
    int slack = (int)c->bound - (int)k->h0, r;

    k->over = UINT_MAX;
    if (k->ls != NULL)
        r = k->n == 3 ? probe3_lc(k, k->start, bb, slack, k->row0, k->col0)
                      : probe4_lc(k, k->start, bb, slack, k->row0, k->col0);
    else
        r = k->n == 3 ? probe3(k, k->start, bb, slack)
                      : probe4(k, k->start, bb, slack);
    if (k->over != UINT_MAX)
        c->next_bound = c->bound + k->over;
    if (r == 0)
        return 0;
    c->found_len = (unsigned)r - 1;
    for (unsigned i = 0, j = c->found_len; i + 1 < j; i++, j--) {
        uint8_t tmp = c->path[i];
        c->path[i] = c->path[j - 1];
        c->path[j - 1] = tmp;
    }
    return 1;
}

static const struct puz__ida_plugin plugin = { iterate, NULL, NULL, NULL };

static uint64_t in_lane(unsigned v, unsigned line)
{
    return (uint64_t)v << (16 * line);
}

/* Each tile's row and column digits on each cell, in their lanes. */
struct lanes {
    uint64_t row[PUZ__HT_CELLS][PUZ__HT_CELLS];
    uint64_t col[PUZ__HT_CELLS][PUZ__HT_CELLS];
    uint8_t shift_row[PUZ__HT_CELLS], shift_col[PUZ__HT_CELLS];
};

static void init_lanes(struct lanes *l, unsigned n,
                       const struct puz__htables *t,
                       const struct puz_board *goal)
{
    for (unsigned i = 0; i < n * n; i++) {
        unsigned tile = goal->cells[i];
        l->shift_row[tile] = (uint8_t)(16 * (i / n));
        l->shift_col[tile] = (uint8_t)(16 * (i % n));
        for (unsigned c = 0; c < n * n; c++) {
            l->row[tile][c] = in_lane(t->row_digit[tile][c], c / n);
            l->col[tile][c] = in_lane(t->col_digit[tile][c], c % n);
        }
    }
}

/* The deltas of moving the blank from b in direction d (the tile at f
 * slides into b), for every tile. */
static void build_move(struct pk *k, const struct puz__htables *t,
                       const struct lanes *l, unsigned b, unsigned d,
                       unsigned f)
{
    for (unsigned tile = 1; tile < k->n * k->n; tile++) {
        size_t at = (b * 4 + d) * STRIDE + tile;
        int dh = t->tile_cost[tile][b] - t->tile_cost[tile][f];
        uint64_t rd, cd;
        if (k->ls == NULL) {
            k->dh[at] = (int8_t)dh;
            continue;
        }
        rd = l->row[tile][b] - l->row[tile][f];
        cd = l->col[tile][b] - l->col[tile][f];
        k->ls[at].dh = (int8_t)dh;
        k->ls[at].dline = d < 2 ? rd : cd;
        k->ls[at].dcross = d < 2 ? cd : rd;
        k->ls[at].shift = d < 2 ? l->shift_row[tile] : l->shift_col[tile];
    }
}

/* The per-(cell, direction, tile) deltas of this goal and heuristic. */
static void build_steps(struct pk *k, const struct puz__htables *t,
                        const struct lanes *l)
{
    struct puz__moves mv;

    puz__moves_init(&mv, k->n);
    for (unsigned b = 0; b < k->n * k->n; b++) {
        k->legal[b] = 0;
        for (unsigned d = 0; d < 4; d++) {
            if (mv.to[b][d] == PUZ__WALL)
                continue;
            k->legal[b] |= (uint8_t)(1u << d);
            build_move(k, t, l, b, d, mv.to[b][d]);
        }
    }
}

/* The start as a word and, with lines, its row and column codes. */
static void init_start(struct pk *k, const struct lanes *l,
                       const struct puz_board *start)
{
    unsigned n = k->n;

    k->start = k->row0 = k->col0 = 0;
    for (unsigned i = 0; i < n * n; i++) {
        unsigned tile = start->cells[i];
        k->start |= (uint64_t)tile << (4 * i);
        if (k->ls != NULL) {
            k->row0 += l->row[tile][i];
            k->col0 += l->col[tile][i];
        }
    }
    k->start_blank = start->blank;
}

static uint64_t pack(const struct puz_board *b)
{
    uint64_t w = 0;

    for (unsigned i = 0; i < b->n * b->n; i++)
        w |= (uint64_t)b->cells[i] << (4 * i);
    return w;
}

puz_err puz__idastar_packed(struct puz__search *s, unsigned max_depth)
{
    struct puz__htables t;
    struct lanes l;
    size_t steps = (size_t)s->cells * 4 * STRIDE;
    struct pk *k;
    bool lines;

    if (!puz__packed_htables(s, &t))
        return PUZ_EINVAL;
    lines = t.line_cost != NULL;
    /* one block, so that without room the generic plug-in runs instead
     * with the arena as it found it */
    k = puz_arena_alloc(s->arena, sizeof(*k) +
                        steps * (lines ? sizeof(struct lstep) : 1));
    if (k == NULL)
        return PUZ_EINVAL;
    memset(k, 0, sizeof(*k));
    k->n = s->n;
    if (lines)
        k->ls = (struct lstep *)(k + 1);
    else
        k->dh = (int8_t *)(k + 1);
    k->line_cost = t.line_cost;
    k->goal = pack(s->goal);
    k->h0 = s->h->eval(s->hctx, s->start->cells);
    if (k->h0 > max_depth)
        return PUZ_EINVAL;
    if (lines)
        init_lanes(&l, k->n, &t, s->goal);
    build_steps(k, &t, &l);
    init_start(k, &l, s->start);
    if (puz__ida_init(&k->c, s, max_depth) != PUZ_OK) {
        s->out->status = PUZ_LIMIT_MEMORY;
        return PUZ_OK;
    }
    return puz__ida_run(&k->c, k->h0, &plugin, k);
}
