/*
 * reduce.c - boards of 6x6 and up, and rectangles of 28 cells and more
 * with a side over 5, reduced to at most 5x5: the first row and column
 * of the unsolved region are placed together by a weighted A* that sees
 * only those tiles (the others are interchangeable, so the state is the
 * blank and the strip's tiles), and the blank never leaves the region.
 * Its guides: what each tile costs to bring home alone and two by two
 * (tilecost.c), and Manhattan + linear conflict. Then the same on the
 * region one smaller; on a rectangle, once one side is down to 5, the
 * longer side's rows (or columns) alone. The remainder (5x5 on a square,
 * up to 5 x 5 on a rectangle) is relabelled as a puzzle of its own shape
 * and handed to the near-optimal 5x5 search. With time for it, the last
 * placement's distinct paths are all kept and the remainder behind each
 * is solved briefly: the shortest sum wins (pick). Needs the goal's
 * blank in the remainder.
 */
#include <stdlib.h>
#include <string.h>

#include "large/large.h"
#include "puz_pdb.h"

/* The unsolved part of a rows x cols board: rows >= top and columns
 * >= left (the rest is placed and stays put). */
struct region {
    unsigned rows, cols, top, left;
};

/* Tiles of goal on the region's first row (with row) and first column
 * (with col), from its corner on. */
static unsigned strip_tiles(const struct puz_board *goal,
                            const struct region *rg, bool row, bool col,
                            uint8_t *care)
{
    unsigned n = goal->n, k = 0;

    if (row)
        for (unsigned c = rg->left; c < rg->cols; c++)
            care[k++] = goal->cells[rg->top * n + c];
    if (col)
        for (unsigned r = rg->top + (row ? 1u : 0u); r < rg->rows; r++)
            care[k++] = goal->cells[r * n + rg->left];
    return k;
}

static void apply(struct puz_board *b, const uint8_t *dirs, unsigned len)
{
    for (unsigned i = 0; i < len; i++)
        puz_board_move(b, (enum puz_dir)dirs[i]);
}

/*
 * The last placement before the 5x5 remainder keeps its distinct paths
 * (different boards after them) within PICK_SLACK moves of the
 * shortest: their remainders differ by up to 30 moves, more than the
 * paths do, so each remainder gets a short solve and the shortest sum
 * wins (pick, below).
 */
#define PICK_MAX 6u
#define PICK_SLACK 12u
struct picks {
    struct puz_board from;      /* the board the placement started on */
    unsigned offset;            /* p->len there */
    unsigned n;
    uint8_t *dirs[PICK_MAX];    /* malloc'd */
    unsigned len[PICK_MAX];
    struct puz_board to[PICK_MAX];
};

static void picks_free(struct picks *pk)
{
    for (unsigned i = 0; i < pk->n; i++)
        free(pk->dirs[i]);
    pk->n = 0;
}

/* Offer a path (copied) to pk: a new board after it, or a shorter way
 * to one already held; the longest is dropped when full. */
static void picks_offer(struct picks *pk, const uint8_t *dirs, unsigned len)
{
    struct puz_board to = pk->from;
    unsigned i, worst = 0;
    uint8_t *copy;

    apply(&to, dirs, len);
    for (i = 0; i < pk->n; i++)
        if (memcmp(pk->to[i].cells, to.cells, puz_board_cells(&to)) == 0)
            break;
    if (i < pk->n && pk->len[i] <= len)
        return;
    if (i == pk->n && pk->n == PICK_MAX) {
        for (unsigned k = 1; k < pk->n; k++)
            if (pk->len[k] > pk->len[worst])
                worst = k;
        if (pk->len[worst] <= len)
            return;
        i = worst;
    }
    copy = malloc(len ? len : 1);
    if (copy == NULL)
        return;
    memcpy(copy, dirs, len);
    if (i < pk->n)
        free(pk->dirs[i]);
    else
        pk->n++;
    pk->dirs[i] = copy;
    pk->len[i] = len;
    pk->to[i] = to;
}

/* One weighted A* try bringing m's tiles home from cur, guided by the
 * tile costs tc when given, else by m; PUZ_OK with *dirs (malloc'd)
 * and *len. */
static puz_err try_place(struct puz__anytime *at, const struct puz_board *cur,
                         const struct region *rg, const struct puz__mlc *m,
                         const struct puz__tcost *tc, unsigned w,
                         uint64_t deadline, uint8_t **dirs, unsigned *len)
{
    const struct puz__search *s = at->s;
    struct puz__wsearch ws = { 0 };
    puz_err rc;

    ws.n = s->n;
    ws.rows = s->rows;
    ws.top = rg->top;
    ws.left = rg->left;
    ws.mlc = m;
    ws.tcost = tc;
    ws.weight100 = w;
    ws.blank_term = true;
    ws.max_nodes = UINT32_MAX / 2;
    ws.max_bytes = puz__store_bytes(at);
    ws.deadline_us = deadline;
    ws.limits = s->limits;
    ws.max_expanded = puz__nodes_left(at);
    *dirs = NULL;
    if (ws.max_bytes == 0)
        return PUZ_ERANGE;
    rc = puz__wsearch_run(&ws, cur->cells, dirs, len);
    puz__store_peak(at, ws.peak_bytes);
    at->nodes += ws.expanded;
    s->out->stats.generated += ws.generated;
    return rc;
}

/* Weighted A* tries with the falling weights w[0..nw) while time is
 * left before until, the shortest path in *best (kept from earlier
 * ladders when shorter). */
static void ladder(struct puz__anytime *at, const struct puz_board *cur,
                   const struct region *rg, const struct puz__mlc *m,
                   const struct puz__tcost *tc, const unsigned *w,
                   size_t nw, uint64_t until, uint8_t **best,
                   unsigned *best_len, struct picks *pk)
{
    const struct puz_limits *l = at->s->limits;

    for (size_t i = 0; i < nw; i++) {
        uint64_t now = puz__now(l);
        uint8_t *dirs;
        unsigned len;
        if (*best != NULL && now >= until)
            break;
        /* the first must answer; the later ones get 2/3 of what is left */
        if (try_place(at, cur, rg, m, tc, w[i], *best == NULL ? until
                      : now + (until - now) * 2 / 3, &dirs, &len) != PUZ_OK) {
            if (*best != NULL)
                break;
            continue;
        }
        if (pk != NULL)
            picks_offer(pk, dirs, len);
        if (*best == NULL || len < *best_len) {
            free(*best);
            *best = dirs;
            *best_len = len;
        } else {
            free(dirs);
        }
    }
}

/*
 * Bring the first j tiles of care home in cur. Ladders of weighted A*
 * tries, the shortest path kept: guided by the tile costs alone
 * (tilecost.c; they overestimate, so the weights fall below 1), then by
 * the tile costs in pairs (tcp, when built), a third of the time each,
 * then by Manhattan + linear conflict down to w100 / 100 with the rest;
 * greedier ones if all fail. The tile costs finish in milliseconds
 * where linear conflict needs weight 3-5 to finish at all on 7x7 and
 * 8x8; each finds paths the others miss (docs/large.md).
 */
static puz_err place(struct puz__anytime *at, struct puz_board *cur,
                     const struct region *rg, const uint8_t *care, unsigned j,
                     const struct puz__tcost *tc,
                     const struct puz__tcost *tcp, unsigned w100,
                     uint64_t until, struct puz__lpath *p, struct picks *pk)
{
    static const unsigned by_mlc[] = { 500, 300, 200, 150, 120, 100 };
    static const unsigned by_cost[] = { 200, 150, 120, 100, 85, 70, 60,
                                        50, 40, 33, 25 };
    const size_t nc = sizeof(by_cost) / sizeof(by_cost[0]);
    uint64_t now = puz__now(at->s->limits);
    uint8_t *best = NULL;
    unsigned best_len = 0;
    size_t nm = 0;
    struct puz__mlc m;
    puz_err rc;

    puz__mlc_init(&m, at->s->goal, care, j);
    if (pk != NULL) {
        pk->from = *cur;
        pk->offset = p->len;
    }
    while (nm < sizeof(by_mlc) / sizeof(by_mlc[0]) && by_mlc[nm] >= w100)
        nm++;
    ladder(at, cur, rg, &m, tc, by_cost, nc,
           now + (until > now ? (until - now) / (tcp != NULL ? 3 : 2) : 0),
           &best, &best_len, pk);
    if (tcp != NULL) {
        now = puz__now(at->s->limits);
        ladder(at, cur, rg, &m, tcp, by_cost, nc,
               now + (until > now ? (until - now) / 2 : 0), &best, &best_len,
               pk);
    }
    ladder(at, cur, rg, &m, NULL, by_mlc, nm, until, &best, &best_len, pk);
    for (unsigned w = 1000; best == NULL && w <= 4000; w *= 2)
        if (try_place(at, cur, rg, &m, NULL, w, at->deadline_us, &best,
                      &best_len) != PUZ_OK)
            best = NULL;
    if (best == NULL)
        return PUZ_ERANGE;
    for (unsigned i = 0; pk != NULL && i < pk->n;)
        if (pk->len[i] > best_len + PICK_SLACK) {
            free(pk->dirs[i]);
            pk->n--;
            pk->dirs[i] = pk->dirs[pk->n];
            pk->len[i] = pk->len[pk->n];
            pk->to[i] = pk->to[pk->n];
        } else {
            i++;
        }
    apply(cur, best, best_len);
    rc = puz__lpath_append(p, best, best_len);
    free(best);
    return rc;
}

/* Whether the pairs' searches (k / 2 of them over (cell, cell, blank)
 * of a region of `cells`, about 40 ns a state: 58 ms for the first
 * strip of 8x8 here) take at most two thirds of the strip's time to
 * until: they cannot be cut short, and a small budget must still be
 * kept. */
static bool pairs_fit(const struct puz__anytime *at, unsigned k,
                      unsigned cells, uint64_t until)
{
    uint64_t now = puz__now(at->s->limits), sq = cells;
    uint64_t est_us = (uint64_t)(k / 2) * sq * sq * sq / 25u;

    return until > now && until - now >= est_us * 3 / 2;
}

/* Place the region's first row, first column or both (an L on a
 * square) of cur: its tiles a few more at a time (6 on a strip
 * of up to 11 tiles, 8 on longer ones: bench/large, docs/large.md),
 * every search keeping the ones placed before (they may move and come
 * back). The tile costs are the strip's, built once: a search sees
 * only the tiles it places, the others masked. */
static puz_err strip(struct puz__anytime *at, struct puz_board *cur,
                     const struct region *rg, bool row, bool col,
                     unsigned w100, uint64_t until, struct puz__lpath *p,
                     struct picks *pk)
{
    uint8_t care[2 * PUZ_MAX_SIZE] = { 0 };
    unsigned k = strip_tiles(at->s->goal, rg, row, col, care);
    unsigned step = k <= 11 ? PUZ__STRIP_STEP : PUZ__STRIP_STEP_LONG;
    unsigned side = at->s->rows < at->s->n ? at->s->rows : at->s->n;
    size_t cells = at->s->cells;
    /* the pairs' tables, and a pair's search while it runs (1.3 MB on
     * 8x8), within the request's budget like the search stores; from
     * 7x7 up (on 6x6 the third ladder's time is better spent on the
     * other two: 1 s answers 4 moves longer with it, 10 s the same) */
    size_t need = sizeof(struct puz__tcost) + cells * cells * cells * 5;
    struct puz__tcost tc, *tcp = NULL;
    puz_err rc = PUZ_OK;

    puz__tcost_init(&tc, at->s->goal, rg->top, rg->left, care, k);
    if (side >= PUZ__PAIRS_MIN_N && puz__store_bytes(at) >= need &&
        pairs_fit(at, k, (rg->rows - rg->top) * (rg->cols - rg->left),
                  until) &&
        (tcp = malloc(sizeof(*tcp))) != NULL) {
        puz__store_peak(at, need);
        *tcp = tc;
        if (puz__tcost_pairs(tcp, at->s->goal, rg->top, rg->left, care,
                             k) != PUZ_OK) {
            free(tcp);
            tcp = NULL;
        }
    }

    for (unsigned j = 0; j < k && rc == PUZ_OK;) {
        uint64_t now = puz__now(at->s->limits);
        unsigned groups = (k - j + step - 1) / step;
        j = j + step < k ? j + step : k;
        rc = place(at, cur, rg, care, j, &tc, tcp, w100,
                   now + (until > now ? (until - now) / groups : 0), p,
                   j == k ? pk : NULL);
    }
    free(tcp);
    return rc;
}

/* The region rg of cur (its last rows and columns) as a puzzle b5 of
 * its own shape with goal g5 (tiles renamed by their goal cell). */
static void last_region(const struct puz_board *cur,
                        const struct puz_board *goal, const struct region *rg,
                        struct puz_board *b5, struct puz_board *g5)
{
    unsigned n = cur->n, top = rg->top, left = rg->left, gb5 = 0;
    unsigned fr = rg->rows - top, f = rg->cols - left;
    uint8_t gcell[PUZ_MAX_CELLS];

    for (unsigned i = 0; i < puz_board_cells(goal); i++)
        gcell[goal->cells[i]] = (uint8_t)i;
    gb5 = (gcell[0] / n - top) * f + (gcell[0] % n - left);
    b5->n = g5->n = (uint8_t)f;
    /* a square again (rows 0) when it is one, whatever they held */
    b5->rows = g5->rows = (uint8_t)(fr == f ? 0 : fr);
    for (unsigned r = 0; r < fr; r++)
        for (unsigned c = 0; c < f; c++) {
            unsigned t = cur->cells[(r + top) * n + c + left], gi;
            unsigned i = r * f + c;
            g5->cells[i] = (uint8_t)(i == gb5 ? 0 : i < gb5 ? i + 1 : i);
            if (t == 0) {
                b5->cells[i] = 0;
                b5->blank = (uint8_t)i;
                continue;
            }
            gi = (gcell[t] / n - top) * f + (gcell[t] % n - left);
            b5->cells[i] = (uint8_t)(gi < gb5 ? gi + 1 : gi);
        }
    g5->blank = (uint8_t)gb5;
}

/* A first path for the remainder: the constructive method. */
static puz_err first_5x5(struct puz__anytime *at, const struct puz_board *b5,
                         const struct puz_board *g5, struct puz__lpath *p5)
{
    struct puz__search sub = *at->s;
    struct puz_result r5;
    puz_err rc;

    memset(&r5, 0, sizeof(r5));
    puz__search_set_boards(&sub, b5, g5);
    sub.out = &r5;
    rc = puz__constructive(&sub);
    if (rc != PUZ_OK || r5.status != PUZ_SOLVED)
        return rc != PUZ_OK ? rc : PUZ_EINVAL;
    return puz__lpath_append(p5, r5.moves, r5.length);
}

/* The 4x4 remainder optimally when the 4x4 tables are loaded. */
static puz_err exact_4x4(struct puz__anytime *at, const struct puz_board *b4,
                         const struct puz_board *g4, uint64_t until,
                         struct puz__lpath *p4)
{
    struct puz_limits l = { 0 };
    struct puz_result r;
    puz_arena *a = puz_arena_create(1 << 16);
    puz_err rc = PUZ_ERANGE;

    if (a == NULL)
        return PUZ_ENOMEM;
    l.deadline_us = until;
    l.cancel = at->s->limits->cancel;
    l.clock_us = at->s->limits->clock_us;
    if (puz__idastar_tables(b4, g4, at->s->tables, &l, a, &r) == PUZ_OK &&
        r.status == PUZ_SOLVED &&
        r.length < p4->len) {
        p4->len = 0;
        rc = puz__lpath_append(p4, r.moves, r.length);
        puz__method_add(at, "idastar4");
    }
    at->nodes += r.stats.expanded;
    puz_arena_destroy(a);
    return rc;
}

/* The region rg of cur into q: a first path when q has none, then
 * shorter ones until `until` (optimally on 4x4 with its tables, else
 * the 5x5 search, which takes any shape of up to 5 x 5). */
static puz_err solve_rest(struct puz__anytime *at,
                          const struct puz_board *cur,
                          const struct region *rg, uint64_t until,
                          struct puz__lpath *q)
{
    const struct puz__search *s = at->s;
    struct puz_board b5, g5;
    puz_err rc = PUZ_OK;

    last_region(cur, s->goal, rg, &b5, &g5);
    if (q->dirs == NULL)
        rc = first_5x5(at, &b5, &g5, q);
    if (rc == PUZ_OK && !(puz_board_square(&g5) && g5.n == 4 &&
                          puz_tables_serves(s->tables, &g5) &&
                          exact_4x4(at, &b5, &g5, until, q) == PUZ_OK))
        puz__anytime_5x5(at, &b5, &g5, until, q);
    return rc;
}

/*
 * The last placement's candidates (pk, shortest first), each remainder
 * solved with an equal share of a third of the time to until (at least
 * PICK_SHARE_US each, so fewer candidates on short budgets; none when
 * fewer than two fit): the shortest placement + remainder wins, and p,
 * cur and p5 become its. The winner's remainder then gets the rest of
 * the time (the caller).
 */
#ifndef PICK_SHARE_US
#define PICK_SHARE_US 100000u
#endif
static puz_err pick(struct puz__anytime *at, struct picks *pk,
                    const struct region *rg, uint64_t until,
                    struct puz_board *cur,
                    struct puz__lpath *p, struct puz__lpath *p5)
{
    uint64_t now = puz__now(at->s->limits), share;
    unsigned order[PICK_MAX], m = pk->n, win = PICK_MAX, best = 0;
    struct puz__lpath keep = { 0 };
    puz_err rc;

    share = now < until ? (until - now) / 3 : 0;
    if (share / PICK_SHARE_US < m)
        m = (unsigned)(share / PICK_SHARE_US);
    if (m < 2)
        return PUZ_OK;
    share /= m;
    for (unsigned i = 0; i < pk->n; i++) {     /* shortest first */
        unsigned k = i;
        for (; k > 0 && pk->len[order[k - 1]] > pk->len[i]; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    for (unsigned k = 0; k < m; k++) {
        unsigned i = order[k];
        struct puz__lpath q = { 0 };
        uint64_t t = puz__now(at->s->limits);
        if (solve_rest(at, &pk->to[i], rg,
                         t + share < until ? t + share : until,
                         &q) != PUZ_OK) {
            free(q.dirs);
            continue;
        }
        if (win == PICK_MAX || pk->len[i] + q.len < best) {
            free(keep.dirs);
            keep = q;
            win = i;
            best = pk->len[i] + q.len;
        } else {
            free(q.dirs);
        }
    }
    if (win == PICK_MAX)
        return PUZ_OK;
    p->len = pk->offset;
    rc = puz__lpath_append(p, pk->dirs[win], pk->len[win]);
    if (rc != PUZ_OK) {
        free(keep.dirs);
        return rc;
    }
    *cur = pk->to[win];
    free(p5->dirs);
    *p5 = keep;
    puz__method_add(at, "pick");
    return PUZ_OK;
}

puz_err puz__reduce_solve(struct puz__anytime *at, unsigned strip_w100,
                          unsigned f, uint64_t until,
                          struct puz__lpath *p)
{
    const struct puz__search *s = at->s;
    struct region rg = { s->rows, s->n, 0, 0 };
    unsigned fr = s->rows < f ? s->rows : f, fc = s->n < f ? s->n : f;
    unsigned steps = s->rows - fr > s->n - fc ? s->rows - fr : s->n - fc;
    unsigned gb = 0;
    struct puz_board cur = *s->start;
    struct puz__lpath p5 = { 0 };
    struct picks pk = { 0 };
    uint64_t start = puz__now(at->s->limits), total;
    puz_err rc = PUZ_OK;

    while (s->goal->cells[gb] != 0)
        gb++;
    if (steps == 0 || gb / s->n < s->rows - fr || gb % s->n < s->n - fc ||
        start >= until)
        return PUZ_EINVAL;
    total = until - start;
    /* strips: up to half the budget in all; the rest for the remainder.
     * Each strip is the region's first row and first column together
     * while both sides are longer than f (all of a square's), then the
     * longer side's alone */
    for (unsigned i = 0; i < steps && rc == PUZ_OK; i++) {
        bool row = rg.rows - rg.top > fr, col = rg.cols - rg.left > fc;
        rc = strip(at, &cur, &rg, row, col, strip_w100,
                   start + total / 2 * (i + 1) / steps, p,
                   i + 1 == steps && f == 5 ? &pk : NULL);
        rg.top += row;
        rg.left += col;
    }
    if (rc == PUZ_OK && pk.n >= 2)
        rc = pick(at, &pk, &rg, until, &cur, p, &p5);
    picks_free(&pk);
    if (rc != PUZ_OK) {
        free(p5.dirs);
        return rc;
    }
    rc = solve_rest(at, &cur, &rg, until, &p5);
    if (rc == PUZ_OK)
        rc = puz__lpath_append(p, p5.dirs, p5.len);
    free(p5.dirs);
    return rc;
}
