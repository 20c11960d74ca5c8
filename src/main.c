/*
 * main.c - the puzzled program: one binary, subcommands for the service
 * and the command line. Each subcommand lives in its own module.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_pdb.h"
#include "http_server.h"
#include "puz_version.h"

static void usage(FILE *f)
{
    fprintf(f,
        "puzzled %s - optimal sliding-tile puzzle solver\n"
        "usage: puzzled COMMAND [options]\n"
        "  serve            run the HTTP/JSON service (puzzled serve --help)\n"
        "  solve BOARD      solve a board (puzzled solve --help)\n"
        "  score BOARD MOVES  score a player's moves against the optimum\n"
        "                   (puzzled score --help)\n"
        "  random           print a random solvable board\n"
        "  pdb build|verify build or check pattern databases (puzzled pdb "
        "--help)\n"
        "  key new NAME     make an API key and its api_keys_file line\n"
        "  --version        print the version\n"
        "  --help           this text\n", PUZ_VERSION);
}

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
    { "solve", cli_solve_main },
    { "score", cli_score_main },
    { "random", cli_random_main },
    { "serve", http_serve_main },
    { "pdb", cli_pdb_main },
    { "key", cli_key_main },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("puzzled %s\n", PUZ_VERSION);
        return CLI_EXIT_OK;
    }
    for (const struct command *c = commands; c->name != NULL; c++)
        if (strcmp(argv[1], c->name) == 0)
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "puzzled: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_EXIT_USAGE;
}
