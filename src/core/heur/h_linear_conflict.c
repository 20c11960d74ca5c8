/*
 * h_linear_conflict.c - Manhattan distance plus two moves for every tile
 * that must leave its goal line to let another past (Hansson, Mayer and
 * Yung). Per line we count the fewest tiles to remove so the rest are in
 * goal order (line length minus the longest increasing run of goal
 * positions): the tightest admissible count, never more than the truth.
 * Linear conflict stays admissible and prunes far more nodes on 4x4.
 */
#include <string.h>

#include "heur/h_manhattan.h"

/* Goal-order keys of the tiles in one line that belong to that line, in
 * cell order; returns how many must step aside (k - LIS). */
unsigned puz__lc_line_cost(const uint8_t *keys, unsigned k)
{
    uint8_t best[PUZ_MAX_SIZE];
    unsigned lis = 0;

    for (unsigned i = 0; i < k; i++) {
        best[i] = 1;
        for (unsigned j = 0; j < i; j++)
            if (keys[j] < keys[i] && best[j] + 1 > best[i])
                best[i] = (uint8_t)(best[j] + 1);
        if (best[i] > lis)
            lis = best[i];
    }
    return k - lis;
}

/* Conflicts in one line: the len cells from `first` in steps of `step`;
 * a tile takes part when line_of[tile] == line, ordered by key_of. */
static unsigned line_conflicts(const uint8_t *cells, unsigned first,
                               unsigned step, unsigned len,
                               const uint8_t *line_of,
                               const uint8_t *key_of, unsigned line)
{
    unsigned k = 0;
    uint8_t keys[PUZ_MAX_SIZE];

    for (unsigned i = 0, cell = first; i < len; i++, cell += step) {
        unsigned t = cells[cell];
        if (t != 0 && line_of[t] == line)
            keys[k++] = key_of[t];
    }
    return k > 1 ? puz__lc_line_cost(keys, k) : 0;
}

static unsigned row_cost(const struct puz__manhattan *m, const uint8_t *cells,
                         unsigned r)
{
    return line_conflicts(cells, r * m->goal.n, 1, m->goal.n, m->goal.row,
                          m->goal.col, r);
}

static unsigned col_cost(const struct puz__manhattan *m, const uint8_t *cells,
                         unsigned c)
{
    return line_conflicts(cells, c, m->goal.n, m->goal.rows, m->goal.col,
                          m->goal.row, c);
}

/*
 * For N <= 4 a line's conflicts are looked up, not computed: each tile in
 * each cell contributes a digit (its goal column + 1 if it sits in its
 * goal row, else 0) in base N+1 to its row's code, and likewise for
 * columns; cost[code] holds k - LIS for every possible line. A move
 * changes two codes by known digits, so the update needs no copy.
 */
#define TABLE_MAX_N 4
#define TABLE_CELLS (TABLE_MAX_N * TABLE_MAX_N)
#define TABLE_CODES 625     /* (4 + 1)^4 */
_Static_assert(TABLE_CELLS == PUZ__HT_CELLS, "as_tables hands out the rows");

struct lc {
    struct puz__manhattan m;
    bool tabled;
    uint16_t rowdigit[TABLE_CELLS][TABLE_CELLS];   /* [tile][cell] */
    uint16_t coldigit[TABLE_CELLS][TABLE_CELLS];
    const uint8_t *cost;            /* cost3, or own_cost */
    uint8_t own_cost[TABLE_CODES];
    uint8_t row_of[PUZ_MAX_CELLS], col_of[PUZ_MAX_CELLS];  /* no division */
};

/*
 * The costs depend on the side only, not on the goal. For 3x3 they are
 * written out (what build_costs computes for n = 3; test_heuristic
 * checks the two agree on every board it evaluates): an 8-puzzle solve
 * is short, and computing them was a fifth of its set-up.
 */
static const uint8_t cost3[64] = {
    0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 2, 2, 2, 1, 1, 2, 2, 1, 1, 1, 2,
    0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 2,
    0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 2,
};

/* cost[code] = k - LIS of the line's keys, for every code of n digits in
 * base n + 1 (digit i = the key of the line's cell i, 0 = no key). The
 * digits are counted (an odometer over the codes), not divided out. */
static void build_costs(uint8_t *cost, unsigned n)
{
    unsigned base = n + 1, codes = 1;
    uint8_t digit[TABLE_MAX_N] = { 0 };

    for (unsigned i = 0; i < n; i++)
        codes *= base;
    for (unsigned code = 0; code < codes; code++) {
        uint8_t keys[TABLE_MAX_N];
        unsigned k = 0;
        for (unsigned i = 0; i < n; i++)
            if (digit[i] != 0)
                keys[k++] = digit[i];
        cost[code] = (uint8_t)(k > 1 ? puz__lc_line_cost(keys, k) : 0);
        for (unsigned i = 0; i < n && ++digit[i] == base; i++)
            digit[i] = 0;
    }
}

/* Once per solve: rows and columns are counted, not divided out. */
static void build_tables(struct lc *lc)
{
    unsigned n = lc->m.goal.n, codes = 1, pw[TABLE_MAX_N];

    for (unsigned i = 0; i < n; i++) {
        pw[i] = codes;
        codes *= n + 1;
    }
    if (n == 3) {
        lc->cost = cost3;
    } else {
        build_costs(lc->own_cost, n);
        lc->cost = lc->own_cost;
    }
    for (unsigned t = 0; t < n * n; t++) {
        unsigned goal_row = lc->m.goal.row[t], goal_col = lc->m.goal.col[t];
        for (unsigned r = 0, i = 0; r < n; r++) {
            for (unsigned c = 0; c < n; c++, i++) {
                int in_row = t != 0 && goal_row == r;
                int in_col = t != 0 && goal_col == c;
                lc->rowdigit[t][i] = (uint16_t)(in_row ? (goal_col + 1) *
                                                         pw[c] : 0);
                lc->coldigit[t][i] = (uint16_t)(in_col ? (goal_row + 1) *
                                                         pw[r] : 0);
            }
        }
    }
}

/* A line's code: the sum of its n cells' digits (rowdigit for a row,
 * coldigit for a column), the cells `first`, first + step, ... */
static unsigned line_code(const struct lc *lc, const uint8_t *cells,
                          const uint16_t (*digit)[TABLE_CELLS],
                          unsigned first, unsigned step)
{
    unsigned n = lc->m.goal.n, code = 0;

    for (unsigned k = 0, i = first; k < n; k++, i += step)
        code += digit[cells[i]][i];
    return code;
}

static unsigned row_code(const struct lc *lc, const uint8_t *cells, unsigned r)
{
    return line_code(lc, cells, lc->rowdigit, r * lc->m.goal.n, 1);
}

static unsigned col_code(const struct lc *lc, const uint8_t *cells, unsigned c)
{
    return line_code(lc, cells, lc->coldigit, c, lc->m.goal.n);
}

static puz_err prepare(const struct puz__hargs *args, void **ctx, char *msg)
{
    struct lc *lc = puz_arena_alloc(args->arena, sizeof(*lc));

    (void)msg;
    if (lc == NULL)
        return PUZ_ENOMEM;
    puz__manhattan_init(&lc->m, args->goal);
    for (unsigned r = 0, i = 0; r < lc->m.goal.rows; r++) {
        for (unsigned c = 0; c < lc->m.goal.n; c++, i++) {
            lc->row_of[i] = (uint8_t)r;
            lc->col_of[i] = (uint8_t)c;
        }
    }
    /* the line tables are built for squares (one line length) */
    lc->tabled = args->goal->n <= TABLE_MAX_N && puz_board_square(args->goal);
    if (lc->tabled)
        build_tables(lc);
    *ctx = lc;
    return PUZ_OK;
}

static unsigned eval(const void *ctx, const uint8_t *cells)
{
    const struct lc *lc = ctx;
    unsigned conflicts = 0;

    for (unsigned i = 0; i < lc->m.goal.rows; i++)
        conflicts += row_cost(&lc->m, cells, i);
    for (unsigned i = 0; i < lc->m.goal.n; i++)
        conflicts += col_cost(&lc->m, cells, i);
    return puz__manhattan_eval(&lc->m, cells) + 2 * conflicts;
}

/*
 * A move can take conflicts away as well as add them, so the change in
 * the conflict term is signed. The delta functions below return it plus
 * DELTA_BIAS, which keeps the arithmetic unsigned (and the hot path free
 * of casts); update() takes the bias off once. Any bias above the
 * largest fall works: one line of at most 8 tiles loses at most 7
 * conflicts, 14 moves.
 */
#define DELTA_BIAS 1000u

/*
 * Only the two lines across the move can change (for a vertical move the
 * rows of from and to; the column keeps its order), and of those only the
 * one that is the moving tile's goal line, since a tile outside its goal
 * line takes no part in that line's conflicts. goal_line_delta is that
 * line's change: `goal` is a row (row: from_line and to_line are the rows
 * of from and to) or a column.
 */
static unsigned goal_line_delta(const struct lc *lc, const uint8_t *cells,
                                bool row, unsigned tile, unsigned goal,
                                unsigned from_line, unsigned to_line,
                                unsigned from, unsigned to)
{
    const uint16_t (*digit)[TABLE_CELLS] = row ? lc->rowdigit : lc->coldigit;
    unsigned code;

    if (goal != from_line && goal != to_line)
        return DELTA_BIAS;
    code = row ? row_code(lc, cells, goal) : col_code(lc, cells, goal);
    if (goal == from_line)      /* left its goal line */
        return DELTA_BIAS + 2u * lc->cost[code] -
               2u * lc->cost[code + digit[tile][from]];
    return DELTA_BIAS + 2u * lc->cost[code] -
           2u * lc->cost[code - digit[tile][to]];
}

static unsigned tabled_delta(const struct lc *lc, const uint8_t *cells,
                             unsigned tile, unsigned from, unsigned to)
{
    if (lc->col_of[from] == lc->col_of[to])
        return goal_line_delta(lc, cells, true, tile, lc->m.goal.row[tile],
                               lc->row_of[from], lc->row_of[to], from, to);
    return goal_line_delta(lc, cells, false, tile, lc->m.goal.col[tile],
                           lc->col_of[from], lc->col_of[to], from, to);
}

static unsigned direct_delta(const struct lc *lc, const uint8_t *cells,
                             unsigned tile, unsigned from, unsigned to)
{
    unsigned n = lc->m.goal.n, before, after;
    uint8_t prev[PUZ_MAX_CELLS];
    int vertical = from % n == to % n;
    unsigned line = vertical ? lc->m.goal.row[tile] : lc->m.goal.col[tile];
    unsigned a = vertical ? from / n : from % n, b = vertical ? to / n
                                                              : to % n;

    if (line != a && line != b)
        return DELTA_BIAS;
    memcpy(prev, cells, lc->m.goal.cells);
    prev[from] = (uint8_t)tile;
    prev[to] = 0;
    if (vertical) {
        before = row_cost(&lc->m, prev, line);
        after = row_cost(&lc->m, cells, line);
    } else {
        before = col_cost(&lc->m, prev, line);
        after = col_cost(&lc->m, cells, line);
    }
    return 2u * after + DELTA_BIAS - 2u * before;
}

/* The deltas carry +DELTA_BIAS so the arithmetic stays unsigned. */
static unsigned update(const void *ctx, const uint8_t *cells,
                       unsigned h_before, unsigned tile, unsigned from,
                       unsigned to)
{
    const struct lc *lc = ctx;
    unsigned delta = lc->tabled ? tabled_delta(lc, cells, tile, from, to)
                                : direct_delta(lc, cells, tile, from, to);

    return h_before - lc->m.dist[tile][from] + lc->m.dist[tile][to] +
           delta - DELTA_BIAS;
}

/*
 * The same update on a packed board (A* on up to 4x4, always tabled):
 * the tile digits are read straight from the word.
 */
static inline unsigned packed_line(const struct lc *lc, uint64_t board,
                                   const uint16_t (*digit)[TABLE_CELLS],
                                   unsigned c, unsigned step)
{
#define DIGIT(k) digit[board >> (4 * (c + (k) * step)) & 15u][c + (k) * step]
    switch (lc->m.goal.n) {
    case 3:
        return DIGIT(0) + DIGIT(1) + DIGIT(2);
    case 4:
        return DIGIT(0) + DIGIT(1) + DIGIT(2) + DIGIT(3);
    default:
        return DIGIT(0) + DIGIT(1);
    }
#undef DIGIT
}

static unsigned update_packed(const void *ctx, uint64_t board,
                              unsigned h_before, unsigned tile,
                              unsigned from, unsigned to)
{
    const struct lc *lc = ctx;
    unsigned h = h_before - lc->m.dist[tile][from] + lc->m.dist[tile][to];
    unsigned n = lc->m.goal.n, line, code;

    if (lc->col_of[from] == lc->col_of[to]) {   /* vertical: a row */
        line = lc->m.goal.row[tile];
        if (line != lc->row_of[from] && line != lc->row_of[to])
            return h;
        code = packed_line(lc, board, lc->rowdigit, line * n, 1);
        return h + 2u * lc->cost[code] -
               2u * lc->cost[code + lc->rowdigit[tile][from] -
                             lc->rowdigit[tile][to]];
    }
    line = lc->m.goal.col[tile];                /* sideways: a column */
    if (line != lc->col_of[from] && line != lc->col_of[to])
        return h;
    code = packed_line(lc, board, lc->coldigit, line, n);
    return h + 2u * lc->cost[code] -
           2u * lc->cost[code + lc->coldigit[tile][from] -
                         lc->coldigit[tile][to]];
}

/*
 * With a state per node (IDA*'s path) the codes of every row and column
 * are carried along, so a move adjusts two codes by known digits and
 * looks up two costs: no line is scanned. Boards above 4x4 keep no codes
 * and fall back to update().
 */
struct lc_state {
    uint64_t row;       /* code of row i in bits 16i..16i+15 */
    uint64_t col;       /* likewise for the columns */
};

static unsigned lane(uint64_t codes, unsigned i)
{
    return (unsigned)(codes >> (16 * i) & 0xffffu);
}

static unsigned state_init(const void *ctx, const uint8_t *cells,
                           void *state)
{
    const struct lc *lc = ctx;
    struct lc_state *st = state;

    st->row = st->col = 0;
    for (unsigned i = 0; lc->tabled && i < lc->m.goal.n; i++) {
        st->row |= (uint64_t)row_code(lc, cells, i) << (16 * i);
        st->col |= (uint64_t)col_code(lc, cells, i) << (16 * i);
    }
    return eval(ctx, cells);
}

/*
 * The codes sit in two words, each written whole: the child's words are
 * the parent's plus or minus a digit in two lanes, so the next level's
 * loads are served from these stores without waiting (a copy of the
 * struct followed by narrower writes would make them wait). Moving the
 * tile's digit from line a to line b of `codes` (a != b); returns the
 * change in the two lines' conflict costs.
 */
static int shift_digit(const struct lc *lc, uint64_t codes, uint64_t *out,
                       unsigned a, unsigned b, unsigned digit_a,
                       unsigned digit_b)
{
    unsigned old_a = lane(codes, a), old_b = lane(codes, b);

    *out = codes - ((uint64_t)digit_a << (16 * a)) +
           ((uint64_t)digit_b << (16 * b));
    return lc->cost[old_a - digit_a] + lc->cost[old_b + digit_b] -
           lc->cost[old_a] - lc->cost[old_b];
}

/*
 * A move across lines of one kind (rows for a vertical move: `across`
 * are their digits and codes, line_of the row of a cell) and along one
 * line of the other kind (`line`: the column, which keeps its order, so
 * its cost stays and only its code moves). Returns the change in cost.
 */
static inline int move_tile(const struct lc *lc, unsigned tile,
                            unsigned from, unsigned to,
                            const uint16_t (*across)[TABLE_CELLS],
                            uint64_t codes, uint64_t *out,
                            const uint8_t *line_of,
                            const uint16_t (*along)[TABLE_CELLS],
                            uint64_t along_codes, uint64_t *along_out,
                            unsigned line)
{
    *along_out = along_codes - ((uint64_t)along[tile][from] << (16 * line))
                 + ((uint64_t)along[tile][to] << (16 * line));
    return shift_digit(lc, codes, out, line_of[from], line_of[to],
                       across[tile][from], across[tile][to]);
}

static unsigned state_update(const void *ctx, const uint8_t *cells,
                             const void *parent, void *child,
                             unsigned h_before, unsigned tile, unsigned from,
                             unsigned to)
{
    const struct lc *lc = ctx;
    const struct lc_state *p = parent;
    struct lc_state *st = child;
    int delta;

    if (!lc->tabled)
        return update(ctx, cells, h_before, tile, from, to);
    if (lc->col_of[from] == lc->col_of[to])
        delta = move_tile(lc, tile, from, to, lc->rowdigit, p->row, &st->row,
                          lc->row_of, lc->coldigit, p->col, &st->col,
                          lc->col_of[from]);
    else
        delta = move_tile(lc, tile, from, to, lc->coldigit, p->col, &st->col,
                          lc->col_of, lc->rowdigit, p->row, &st->row,
                          lc->row_of[from]);
    return (unsigned)((int)h_before - lc->m.dist[tile][from] +
                      lc->m.dist[tile][to] + 2 * delta);
}

/* Manhattan's distances plus the line tables, up to 4x4 (TABLE_CELLS is
 * the tables' stride, PUZ__HT_CELLS). */
static bool as_tables(const void *ctx, struct puz__htables *t)
{
    const struct lc *lc = ctx;

    if (!lc->tabled || !puz__manhattan_tables(&lc->m, t))
        return false;
    t->row_digit = lc->rowdigit;
    t->col_digit = lc->coldigit;
    t->line_cost = lc->cost;
    return true;
}

const struct puz_heuristic puz__h_linear_conflict = {
    .name = "linear-conflict",
    .description = "Manhattan distance plus 2 per tile that must leave its "
                   "goal row or column to let another pass",
    PUZ__HEURISTIC_CELLWISE,
    .state_size = sizeof(struct lc_state),
    .state_init = state_init,
    .state_update = state_update,
};
