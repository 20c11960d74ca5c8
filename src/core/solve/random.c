/*
 * random.c - splitmix64 random numbers in a caller-owned state, and random
 * boards: exact optimal distance on 3x3 (drawn from the distance table),
 * a non-backtracking random walk from the goal on other sizes.
 */
#include <string.h>

#include "puz_random.h"

void puz_rng_seed(struct puz_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t puz_rng_next(struct puz_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t puz_rng_below(struct puz_rng *r, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound, v;

    do
        v = puz_rng_next(r);
    while (v >= limit);         /* rejection keeps it unbiased */
    return v % bound;
}

static puz_err exact_3x3(unsigned moves, const struct puz_board *goal,
                         const puz_table3 *table, struct puz_rng *r,
                         struct puz_board *out)
{
    uint32_t count;

    if (table == NULL || !puz_board_equal(puz_table3_goal(table), goal))
        return PUZ_EINVAL;
    count = puz_table3_count_at(table, moves);
    if (count == 0)
        return PUZ_ERANGE;
    return puz_table3_state_at(table, moves,
                               (uint32_t)puz_rng_below(r, count), out);
}

puz_err puz_random_board(unsigned n, unsigned moves,
                         const struct puz_board *goal,
                         const puz_table3 *table, struct puz_rng *r,
                         struct puz_board *out)
{
    return puz_random_board_shape(n, n, moves, goal, table, r, out);
}

puz_err puz_random_board_shape(unsigned rows, unsigned n, unsigned moves,
                               const struct puz_board *goal,
                               const puz_table3 *table, struct puz_rng *r,
                               struct puz_board *out)
{
    struct puz_board g;
    unsigned last = PUZ_NO_DIR;

    memset(out, 0, sizeof(*out));
    if (goal == NULL) {
        if (puz_board_goal_shape(rows, n, &g) != PUZ_OK)
            return PUZ_ERANGE;
        goal = &g;
    }
    if (goal->n != n || puz_board_rows(goal) != rows)
        return PUZ_EINVAL;
    if (n == 3 && rows == 3)
        return exact_3x3(moves, goal, table, r, out);
    *out = *goal;
    for (unsigned i = 0; i < moves; i++) {
        unsigned d;
        do
            d = (unsigned)puz_rng_below(r, 4);
        while (d == (last ^ 1u) || !puz_board_can_move(out, (enum puz_dir)d));
        puz_board_move(out, (enum puz_dir)d);
        last = d;
    }
    return PUZ_OK;
}

puz_err puz_random_solvable(unsigned rows, unsigned cols, struct puz_rng *r,
                            struct puz_board *out)
{
    struct puz_board goal;
    unsigned cells = rows * cols;
    bool ok;

    if (puz_board_goal_shape(rows, cols, &goal) != PUZ_OK) {
        memset(out, 0, sizeof(*out));
        return PUZ_ERANGE;
    }
    *out = goal;
    for (unsigned i = cells - 1; i > 0; i--) {     /* Fisher-Yates */
        unsigned j = (unsigned)puz_rng_below(r, i + 1);
        uint8_t t = out->cells[i];
        out->cells[i] = out->cells[j];
        out->cells[j] = t;
    }
    for (unsigned i = 0; i < cells; i++)
        if (out->cells[i] == 0)
            out->blank = (uint8_t)i;
    if (puz_board_solvable(out, &goal, &ok, NULL) != PUZ_OK)
        return PUZ_EINVAL;
    if (!ok) {  /* swapping two tiles flips the parity: a bijection */
        unsigned a = out->blank == 0 ? 1 : 0, b = out->blank <= 1 ? 2 : 1;
        uint8_t t = out->cells[a];
        out->cells[a] = out->cells[b];
        out->cells[b] = t;
    }
    return PUZ_OK;
}
