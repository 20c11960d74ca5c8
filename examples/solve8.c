/*
 * solve8.c - the smallest program built on libpuzzled: read a board from
 * the command line, solve it optimally with the core's API, print the
 * moves. Build it against an installed library (examples/README.md):
 *
 *     cc -o solve8 solve8.c $(pkg-config --cflags --libs puzzled)
 *     ./solve8 "1 2 3 4 5 6 0 7 8"     ->  2 moves: right right
 *
 * Moves name the direction the blank travels. Exit 0 solved, 1
 * unsolvable, 2 bad input or no memory.
 */
#include <stdio.h>

#include <puz_solve.h>

int main(int argc, char **argv)
{
    struct puz_solve_opts opts = { .algorithm = PUZ_ALG_AUTO };
    struct puz_result res;
    struct puz_board start;
    char msg[PUZ_MSG_MAX];
    puz_arena *arena;
    puz_err err;
    int rc = 2;

    if (argc != 2) {
        fprintf(stderr, "usage: solve8 \"1 2 3 4 5 6 7 8 0\"\n");
        return 2;
    }
    err = puz_board_parse(argv[1], &start, msg);
    if (err != PUZ_OK) {
        fprintf(stderr, "solve8: %s\n", msg);
        return 2;
    }
    /* Every byte the solve needs, the moves included, comes from the
     * arena; destroying it releases them all. */
    arena = puz_arena_create(1 << 16);
    if (arena == NULL) {
        fprintf(stderr, "solve8: %s\n", puz_strerror(PUZ_ENOMEM));
        return 2;
    }
    /* AUTO on 3x3 is A* with an admissible heuristic: an optimal path. */
    err = puz_solve(&start, &opts, arena, &res);
    if (err != PUZ_OK) {
        fprintf(stderr, "solve8: %s: %s\n", puz_strerror(err), res.reason);
    } else if (res.status == PUZ_UNSOLVABLE) {
        fprintf(stderr, "solve8: unsolvable: %s\n", res.reason);
        rc = 1;
    } else if (res.status != PUZ_SOLVED) {
        fprintf(stderr, "solve8: %s: %s\n", puz_status_name(res.status),
                res.reason);
    } else {
        printf("%u moves%s:", res.length, res.optimal ? "" : " (not optimal)");
        for (unsigned i = 0; i < res.length; i++)
            printf(" %s", puz_dir_name((enum puz_dir)res.moves[i]));
        printf("\n");
        rc = 0;
    }
    puz_arena_destroy(arena);
    return rc;
}
