/*
 * random_cmd.c - `puzzled random`: print a random solvable board, of an
 * exact optimal distance on 3x3, for game levels and test inputs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "puz_random.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: puzzled random [--size N | --rows R --cols C] [--moves K] "
        "[--seed S] [--goal G]\n"
        "  -s, --size N    side of the board, 2..8 (default 3)\n"
        "  -r, --rows R    a rectangle of R rows (2..8) ...\n"
        "  -c, --cols C    ... and C columns (2..8): \"1 2 3/4 5 0\" is 2x3\n"
        "  -k, --moves K   3x3: optimal distance exactly K (0..31 for the "
        "default goal);\n"
        "                  other sizes: a random walk of K moves "
        "(default 20)\n"
        "  -S, --seed S    seed for a repeatable board (default: time)\n"
        "  -g, --goal G    goal board (default: 1..N*N-1, blank last)\n");
}

static int number(const char *opt, const char *s, unsigned long long max,
                  unsigned long long *v)
{
    char *end;

    *v = strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0' || *s == '-' || *v > max) {
        fprintf(stderr, "puzzled: %s needs an integer 0..%llu, got '%s'\n",
                opt, max, s);
        return -1;
    }
    return 0;
}

struct random_args {
    unsigned long long size, rows, cols, moves, seed;
    struct puz_board goal;
    bool has_goal;
};

/* One option (cli_parse); returns 0, or an exit code to stop with. */
static int random_option(void *user, int c, const char *arg)
{
    struct random_args *ra = user;
    int bad = 0;

    if (c == 's')
        bad = number("--size", arg, PUZ_MAX_SIZE, &ra->size) ||
              ra->size < PUZ_MIN_SIZE;
    else if (c == 'r' || c == 'c')
        bad = number(c == 'r' ? "--rows" : "--cols", arg, PUZ_MAX_SIZE,
                     c == 'r' ? &ra->rows : &ra->cols) ||
              (c == 'r' ? ra->rows : ra->cols) < PUZ_MIN_SIZE;
    else if (c == 'k')
        bad = number("--moves", arg, 100000, &ra->moves);
    else if (c == 'S')
        bad = number("--seed", arg, UINT64_MAX, &ra->seed);
    else if (c == 'g' && cli_board_arg("goal", arg, &ra->goal) == 0)
        ra->has_goal = true;
    else if (c == 'g')
        bad = 1;    /* cli_board_arg said why */
    if (!bad)
        return 0;
    if (c == 's' || c == 'r' || c == 'c')
        fprintf(stderr, "puzzled: --%s must be %d..%d\n",
                c == 's' ? "size" : c == 'r' ? "rows" : "cols",
                PUZ_MIN_SIZE, PUZ_MAX_SIZE);
    return CLI_EXIT_USAGE;
}

/* The options usage() tells of but --help, which cli_parse adds. */
static const struct option options[] = {
    { "size", required_argument, NULL, 's' },
    { "rows", required_argument, NULL, 'r' },
    { "cols", required_argument, NULL, 'c' },
    { "moves", required_argument, NULL, 'k' },
    { "seed", required_argument, NULL, 'S' },
    { "goal", required_argument, NULL, 'g' },
};

/* After the options (cli_parse): no operand; both --rows and --cols, or
 * neither and --size for both. */
static int random_operands(void *user, int argc, char **argv, int first)
{
    struct random_args *ra = user;

    if (first < argc) {
        fprintf(stderr, "puzzled: random takes no argument '%s'\n",
                argv[first]);
        return CLI_EXIT_USAGE;
    }
    if ((ra->rows == 0) != (ra->cols == 0)) {
        fprintf(stderr, "puzzled: --rows and --cols go together\n");
        return CLI_EXIT_USAGE;
    }
    if (ra->rows == 0)
        ra->rows = ra->cols = ra->size;
    return 0;
}

static const struct cli_command command = {
    .options = options, .noptions = sizeof(options) / sizeof(options[0]),
    .option = random_option, .operands = random_operands, .usage = usage,
};

static int generate(const struct random_args *ra, struct puz_board *out)
{
    const struct puz_board *goal = ra->has_goal ? &ra->goal : NULL;
    puz_table3 *table = NULL;
    struct puz_rng rng;
    puz_err rc;

    puz_rng_seed(&rng, ra->seed);
    if (ra->rows == 3 && ra->cols == 3 &&
        puz_table3_create(goal, &table) != PUZ_OK) {
        fprintf(stderr, "puzzled: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    rc = puz_random_board_shape((unsigned)ra->rows, (unsigned)ra->cols,
                                (unsigned)ra->moves, goal, table, &rng, out);
    if (rc == PUZ_ERANGE)
        fprintf(stderr, "puzzled: no 3x3 board is %llu moves from the goal "
                "(the farthest are %u)\n", ra->moves,
                puz_table3_max_distance(table));
    puz_table3_destroy(table);
    return rc == PUZ_OK ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

int cli_random_main(int argc, char **argv)
{
    struct random_args ra = { .size = 3, .moves = 20 };
    struct puz_board b;
    char text[PUZ_MAX_CELLS * 4];
    int rc;

    ra.seed = (unsigned long long)time(NULL) ^ (unsigned long long)clock();
    if (!cli_parse(argc, argv, &command, &ra, &rc))
        return rc;
    if (ra.has_goal && (ra.goal.n != ra.cols ||
                        puz_board_rows(&ra.goal) != ra.rows)) {
        fprintf(stderr, "puzzled: the goal is %ux%u but the board is "
                "%llux%llu\n", puz_board_rows(&ra.goal), ra.goal.n, ra.rows,
                ra.cols);
        return CLI_EXIT_USAGE;
    }
    rc = generate(&ra, &b);
    if (rc != CLI_EXIT_OK)
        return rc;
    puz_board_format(&b, text, sizeof(text));
    printf("%s\n", text);
    return CLI_EXIT_OK;
}
