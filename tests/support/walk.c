/*
 * walk.c - random boards for tests by walking from a goal (walk.h).
 */
#include "walk.h"

void test_walk(const struct puz_board *goal, unsigned moves,
               struct puz_rng *rng, struct puz_board *out)
{
    unsigned last = PUZ_NO_DIR;

    *out = *goal;
    for (unsigned i = 0; i < moves; i++) {
        unsigned d;
        do
            d = (unsigned)puz_rng_below(rng, 4);
        while (d == (last ^ 1u) ||
               !puz_board_can_move(out, (enum puz_dir)d));
        puz_board_move(out, (enum puz_dir)d);
        last = d;
    }
}

int test_walk_step(unsigned n, unsigned b, unsigned d)
{
    unsigned row = b / n, col = b % n;

    if (d == PUZ_UP)
        return row > 0 ? (int)(b - n) : -1;
    if (d == PUZ_DOWN)
        return row + 1 < n ? (int)(b + n) : -1;
    if (d == PUZ_LEFT)
        return col > 0 ? (int)b - 1 : -1;
    return col + 1 < n ? (int)b + 1 : -1;
}
