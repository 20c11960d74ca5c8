/*
 * constructive.c - the method people use by hand, for any shape up to
 * 8x8: place the top row, then the left column, and repeat on the
 * smaller region left over until a 2x2 remains, which is solved by
 * turning its three tiles round. On a rectangle the region loses a row
 * while it has at least as many rows as columns (and more than two),
 * else a column: it shrinks toward a square, and a 2xC strip is solved
 * column by column. On a square this is row r, column r, row r + 1... Deterministic, always succeeds on a solvable board,
 * a few milliseconds even on 8x8; the answer is not optimal, so loops the
 * method walks (a board seen twice) are cut out at the end.
 *
 * Tiles move one cell at a time along a shortest path that avoids the
 * placed cells; before each step the blank walks round to the cell ahead
 * without touching the tile. The last two cells of a row (or column) use
 * the classic trick: park the last tile in the second-to-last cell, bring
 * the other tile under it, and turn both in with two moves.
 *
 * Goals with the blank elsewhere than the bottom-right corner: solve for
 * the goal with its blank walked to that corner, then walk it back.
 */
#include <string.h>

#include "large/large.h"

#define FAR 255u

struct cons {
    struct puz__search *s;
    struct puz__moves mv;
    unsigned n, rows, count;         /* n: columns */
    uint8_t b[PUZ_MAX_CELLS];        /* the board as it is now */
    uint8_t at[PUZ_MAX_CELLS];       /* cell of each tile */
    uint8_t want[PUZ_MAX_CELLS];     /* tile that belongs on each cell */
    unsigned blank;
    uint64_t locked;                 /* cells already placed */
    uint8_t *path;                   /* blank directions so far */
    unsigned len, cap;
    puz_err err;                     /* PUZ_ENOMEM, or PUZ_EINVAL: stuck */
};

static uint64_t bit(unsigned cell)
{
    return 1ull << cell;
}

static unsigned cell_of(const struct cons *c, unsigned r, unsigned col)
{
    return r * c->n + col;
}

static void push(struct cons *c, unsigned dir)
{
    unsigned to = c->mv.to[c->blank][dir], t;
    uint8_t *grown;

    if (c->len == c->cap) {
        grown = puz_arena_alloc(c->s->arena, 2u * c->cap);
        if (grown == NULL) {
            c->err = PUZ_ENOMEM;
            return;
        }
        memcpy(grown, c->path, c->len);
        c->path = grown;
        c->cap *= 2;
    }
    c->path[c->len++] = (uint8_t)dir;
    t = c->b[to];
    c->b[c->blank] = (uint8_t)t;
    c->at[t] = (uint8_t)c->blank;
    c->b[to] = 0;
    c->blank = to;
}

static unsigned dir_to(const struct cons *c, unsigned from, unsigned to)
{
    for (unsigned d = 0; d < 4; d++)
        if (c->mv.to[from][d] == to)
            return d;
    return PUZ_NO_DIR;
}

/* Moves from every cell to src, never entering a cell of avoid. */
static void distances(const struct cons *c, unsigned src, uint64_t avoid,
                      uint8_t *dist)
{
    uint8_t queue[PUZ_MAX_CELLS];
    unsigned head = 0, tail = 0;

    memset(dist, FAR, c->count);
    dist[src] = 0;
    queue[tail++] = (uint8_t)src;
    while (head < tail) {
        unsigned x = queue[head++];
        for (unsigned d = 0; d < 4; d++) {
            unsigned y = c->mv.to[x][d];
            if (y == PUZ__WALL || dist[y] != FAR || (avoid & bit(y)))
                continue;
            dist[y] = (uint8_t)(dist[x] + 1);
            queue[tail++] = (uint8_t)y;
        }
    }
}

/* Walk the blank to dst along a shortest path outside avoid. */
static void blank_to(struct cons *c, unsigned dst, uint64_t avoid)
{
    uint8_t dist[PUZ_MAX_CELLS];

    if (c->err != PUZ_OK || c->blank == dst)
        return;
    distances(c, dst, avoid, dist);
    if (dist[c->blank] == FAR) {
        c->err = PUZ_EINVAL;
        return;
    }
    while (c->blank != dst && c->err == PUZ_OK)
        for (unsigned d = 0; d < 4; d++) {
            unsigned y = c->mv.to[c->blank][d];
            if (y != PUZ__WALL && dist[y] + 1u == dist[c->blank]) {
                push(c, d);
                break;
            }
        }
}

/* Of the cells next to cur that bring the tile closer, the one the
 * blank reaches soonest. */
static unsigned next_step(const struct cons *c, unsigned cur,
                          const uint8_t *tdist)
{
    uint8_t bdist[PUZ_MAX_CELLS];
    unsigned best = FAR;

    distances(c, c->blank, c->locked | bit(cur), bdist);
    for (unsigned d = 0; d < 4; d++) {
        unsigned y = c->mv.to[cur][d];
        if (y == PUZ__WALL || tdist[y] + 1u != tdist[cur] || bdist[y] == FAR)
            continue;
        if (best == FAR || bdist[y] < bdist[best])
            best = y;
    }
    return best;
}

/* Bring tile t to target without disturbing the placed cells. */
static void place(struct cons *c, unsigned t, unsigned target)
{
    uint8_t tdist[PUZ_MAX_CELLS];

    distances(c, target, c->locked, tdist);
    while (c->at[t] != target && c->err == PUZ_OK) {
        unsigned cur = c->at[t], next = next_step(c, cur, tdist);
        if (next == FAR) {
            c->err = PUZ_EINVAL;
            return;
        }
        blank_to(c, next, c->locked | bit(cur));
        if (c->err == PUZ_OK)
            push(c, dir_to(c, c->blank, cur));
    }
}

/* Where the three pieces a window search tracks are: tile for a, tile
 * for z, blank; coded as indices into the window's six cells. */
#define WCODE(ia, iz, ib) ((ia) * 36 + (iz) * 6 + (ib))

static int window_index(const unsigned *w, unsigned cell)
{
    for (int i = 0; i < 6; i++)
        if (w[i] == cell)
            return i;
    return -1;
}

/* Breadth-first search inside the six cells w for blank moves that put
 * ta on w[0] and tz on w[1]; the other tiles there may go anywhere,
 * which is why the search always succeeds. Pushes the moves found. */
static void window_solve(struct cons *c, const unsigned *w, unsigned ta,
                         unsigned tz)
{
    int16_t from[216];
    uint8_t queue[216], how[216], dirs[216];
    unsigned head = 0, tail = 0, s, n = 0;

    memset(from, 0xff, sizeof(from));      /* all -1: not reached */
    s = WCODE(window_index(w, c->at[ta]), window_index(w, c->at[tz]),
              window_index(w, c->blank));
    from[s] = (int16_t)s;
    queue[tail++] = (uint8_t)s;
    while (head < tail) {
        unsigned ia, iz, ib;
        s = queue[head++];
        ia = s / 36;
        iz = s / 6 % 6;
        ib = s % 6;
        if (ia == 0 && iz == 1)
            break;
        for (unsigned d = 0; d < 4; d++) {
            int j = c->mv.to[w[ib]][d] == PUZ__WALL ? -1
                    : window_index(w, c->mv.to[w[ib]][d]);
            unsigned t;
            if (j < 0)
                continue;
            t = WCODE(ia == (unsigned)j ? ib : ia,
                      iz == (unsigned)j ? ib : iz, (unsigned)j);
            if (from[t] >= 0)
                continue;
            from[t] = (int16_t)s;
            how[t] = (uint8_t)d;
            queue[tail++] = (uint8_t)t;
        }
    }
    if (s / 36 != 0 || s / 6 % 6 != 1) {
        c->err = PUZ_EINVAL;
        return;
    }
    for (; from[s] != (int16_t)s; s = (unsigned)from[s])
        dirs[n++] = how[s];
    while (n > 0 && c->err == PUZ_OK)
        push(c, dirs[--n]);
}

/*
 * The last two cells a (second to last) and z (last) of a line; step is
 * the cell offset away from the placed part (n below a row's cells, 1
 * right of a column's), out the direction of that step.
 */
static void place_pair(struct cons *c, unsigned a, unsigned z,
                       unsigned step, unsigned out_dir)
{
    unsigned ta = c->want[a], tz = c->want[z], beside = a + step;
    const unsigned w[6] = { a, z, a + step, z + step, a + 2 * step,
                            z + 2 * step };

    if (c->err != PUZ_OK || (c->at[ta] == a && c->at[tz] == z))
        goto out_lock;
    place(c, tz, a);
    c->locked |= bit(a);
    if (c->blank == z && c->err == PUZ_OK)
        push(c, out_dir);
    if (c->at[ta] == z && c->err == PUZ_OK) {
        /* ta is walled into the corner by tz: no blank can get behind
         * it, so solve the pair exactly inside the 3x2 window. */
        c->locked &= ~bit(a);
        blank_to(c, z + step, c->locked | bit(a) | bit(z));
        if (c->err == PUZ_OK)
            window_solve(c, w, ta, tz);
        goto out_lock;
    }
    place(c, ta, beside);
    blank_to(c, z, c->locked | bit(beside));
    if (c->err == PUZ_OK) {
        push(c, dir_to(c, z, a));        /* tz slides into z */
        push(c, dir_to(c, a, beside));   /* ta slides into a */
    }
out_lock:
    c->locked |= bit(a) | bit(z);
}

/* Row r of the region left of column `left`; the pair needs the two rows
 * below it (the region has three or more). */
static void place_row(struct cons *c, unsigned r, unsigned left)
{
    unsigned n = c->n;

    for (unsigned col = left; col + 2 < n && c->err == PUZ_OK; col++) {
        place(c, c->want[cell_of(c, r, col)], cell_of(c, r, col));
        c->locked |= bit(cell_of(c, r, col));
    }
    place_pair(c, cell_of(c, r, n - 2), cell_of(c, r, n - 1), n, PUZ_DOWN);
}

/* Column col of the region below row `top`; the pair needs the two
 * columns right of it. */
static void place_col(struct cons *c, unsigned col, unsigned top)
{
    unsigned rows = c->rows;

    for (unsigned row = top; row + 2 < rows && c->err == PUZ_OK; row++) {
        place(c, c->want[cell_of(c, row, col)], cell_of(c, row, col));
        c->locked |= bit(cell_of(c, row, col));
    }
    place_pair(c, cell_of(c, rows - 2, col), cell_of(c, rows - 1, col), 1,
               PUZ_RIGHT);
}

static int square_done(const struct cons *c, const uint8_t *b,
                       const unsigned *q)
{
    for (unsigned i = 0; i < 4; i++)
        if (b[q[i]] != c->want[q[i]])
            return 0;
    return 1;
}

/* Steps (at most 12) turning the blank round the last 2x2 one way. */
static unsigned turns_needed(const struct cons *c, const unsigned *q,
                             unsigned step)
{
    uint8_t b[PUZ_MAX_CELLS];
    unsigned i = 0;

    memcpy(b, c->b, c->count);
    while (q[i] != c->blank)
        i++;
    for (unsigned k = 0; k <= 12; k++) {
        unsigned j = (i + step) % 4;
        if (square_done(c, b, q))
            return k;
        b[q[i]] = b[q[j]];
        b[q[j]] = 0;
        i = j;
    }
    return FAR;
}

static void solve_square(struct cons *c)
{
    unsigned n = c->n, m = c->rows;
    const unsigned q[4] = {     /* the 2x2, clockwise from top left */
        cell_of(c, m - 2, n - 2), cell_of(c, m - 2, n - 1),
        cell_of(c, m - 1, n - 1), cell_of(c, m - 1, n - 2),
    };
    unsigned cw = turns_needed(c, q, 1), ccw = turns_needed(c, q, 3);
    unsigned step = cw <= ccw ? 1 : 3, k = cw <= ccw ? cw : ccw, i = 0;

    if (k == FAR) {
        c->err = PUZ_EINVAL;    /* only an unsolvable board gets here */
        return;
    }
    while (q[i] != c->blank)
        i++;
    for (; k > 0 && c->err == PUZ_OK; k--) {
        push(c, dir_to(c, q[i], q[(i + step) % 4]));
        i = (i + step) % 4;
    }
}

/* The goal with its blank walked right, then down, to the corner; the
 * walk (as blank directions) is what the solution must end with, undone. */
static unsigned corner_goal(const struct puz_board *goal, struct cons *c,
                            uint8_t *walk)
{
    struct puz_board g = *goal;
    unsigned n = goal->n, rows = puz_board_rows(goal), len = 0;

    while (g.blank % n != n - 1) {
        puz_board_move(&g, PUZ_RIGHT);
        walk[len++] = PUZ_RIGHT;
    }
    while (g.blank / n != rows - 1) {
        puz_board_move(&g, PUZ_DOWN);
        walk[len++] = PUZ_DOWN;
    }
    memcpy(c->want, g.cells, c->count);
    return len;
}

static uint64_t board_hash(const uint8_t *b, unsigned count)
{
    uint64_t h = 0x243f6a8885a308d3ull;

    for (unsigned i = 0; i < count; i++) {
        h = (h ^ b[i]) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

/* Last index at which each board of the path occurs, by open hashing. */
struct seen {
    uint64_t *key;
    uint32_t *last;
    uint32_t mask;
};

static uint32_t *seen_slot(struct seen *t, uint64_t h)
{
    uint32_t i = (uint32_t)h & t->mask;

    while (t->last[i] != UINT32_MAX && t->key[i] != h)
        i = (i + 1) & t->mask;
    t->key[i] = h;
    return &t->last[i];
}

/*
 * Cut every loop out of the path: from each board jump to the last time
 * the path stands on that same board. Returns the new length (the old
 * one if the arena cannot hold the bookkeeping).
 */
static unsigned drop_loops(const struct puz_board *start, uint8_t *path,
                           unsigned len, puz_arena *a)
{
    unsigned count = puz_board_cells(start), size = 4, out = 0, i = 0;
    struct puz_board b = *start;
    struct seen t;
    uint8_t *boards;
    uint64_t *h;

    while (size < 2 * (len + 1))
        size *= 2;
    boards = puz_arena_alloc(a, (size_t)(len + 1) * count);
    h = puz_arena_alloc(a, (size_t)(len + 1) * sizeof(*h));
    t.key = puz_arena_alloc(a, size * sizeof(*t.key));
    t.last = puz_arena_alloc(a, size * sizeof(*t.last));
    if (boards == NULL || h == NULL || t.key == NULL || t.last == NULL)
        return len;
    t.mask = size - 1;
    memset(t.last, 0xff, size * sizeof(*t.last));  /* UINT32_MAX: free */
    for (unsigned k = 0; k <= len; k++) {
        memcpy(boards + (size_t)k * count, b.cells, count);
        h[k] = board_hash(b.cells, count);
        *seen_slot(&t, h[k]) = k;
        if (k < len)
            puz_board_move(&b, (enum puz_dir)path[k]);
    }
    while (i < len) {
        uint32_t j = *seen_slot(&t, h[i]);
        if (j > i && memcmp(boards + (size_t)j * count,
                            boards + (size_t)i * count, count) == 0) {
            i = j;
            continue;
        }
        path[out++] = path[i++];
    }
    return out;
}

static void cons_init(struct cons *c, struct puz__search *s)
{
    memset(c, 0, sizeof(*c));
    c->s = s;
    c->n = s->n;
    c->rows = s->rows;
    c->count = s->cells;
    puz__moves_init_shape(&c->mv, c->rows, c->n);
    memcpy(c->b, s->start->cells, c->count);
    for (unsigned i = 0; i < c->count; i++)
        c->at[c->b[i]] = (uint8_t)i;
    c->blank = s->start->blank;
    c->cap = 1024;
    c->path = puz_arena_alloc(s->arena, c->cap);
    c->err = c->path != NULL ? PUZ_OK : PUZ_ENOMEM;
}

/* Layers, the last square, then the goal's own blank cell. */
static void run(struct cons *c, const uint8_t *walk, unsigned walk_len)
{
    enum puz_status st = PUZ_SOLVED;
    unsigned top = 0, left = 0;

    while ((c->rows - top > 2 || c->n - left > 2) && c->err == PUZ_OK) {
        if (c->rows - top >= c->n - left && c->rows - top > 2)
            place_row(c, top++, left);
        else
            place_col(c, left++, top);
        st = puz__check_limits(c->s);
        if (st != PUZ_SOLVED) {
            c->s->out->status = st;
            return;
        }
    }
    if (c->err == PUZ_OK)
        solve_square(c);
    for (unsigned i = walk_len; i-- > 0 && c->err == PUZ_OK;)
        push(c, puz_dir_opposite((enum puz_dir)walk[i]));
}

puz_err puz__constructive(struct puz__search *s)
{
    struct cons c;
    uint8_t walk[2 * PUZ_MAX_SIZE];
    unsigned walk_len;

    cons_init(&c, s);
    walk_len = corner_goal(s->goal, &c, walk);
    s->out->status = PUZ_SOLVED;
    if (c.err == PUZ_OK)
        run(&c, walk, walk_len);
    if (s->out->status != PUZ_SOLVED)
        return PUZ_OK;
    if (c.err != PUZ_OK) {
        s->out->status = c.err == PUZ_ENOMEM ? PUZ_LIMIT_MEMORY
                                             : PUZ_UNSOLVABLE;
        return PUZ_OK;
    }
    s->out->stats.expanded = c.len;
    s->out->stats.generated = c.len;
    c.len = drop_loops(s->start, c.path, c.len, s->arena);
    if (puz__set_path(s, c.path, c.len) != PUZ_OK)
        s->out->status = PUZ_LIMIT_MEMORY;
    return PUZ_OK;
}
