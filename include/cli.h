/*
 * cli.h - the command-line subcommands of puzzled. Each returns the
 * process exit status: 0 success, 1 unsolvable, 2 bad usage or input,
 * 3 a limit stopped the solve.
 */
#ifndef CLI_H
#define CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "puz_board.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_UNSOLVABLE 1
#define CLI_EXIT_USAGE 2
#define CLI_EXIT_LIMIT 3

int cli_solve_main(int argc, char **argv);
int cli_random_main(int argc, char **argv);
int cli_score_main(int argc, char **argv);
int cli_key_main(int argc, char **argv);

/* Join argv[first..argc) with spaces into buf; PUZ_ERANGE if too long. */
int cli_join_args(int argc, char **argv, int first, char *buf, size_t size);

/*
 * A subcommand's command line, for cli_parse: its options (their val
 * letters are the short options, so the two cannot drift apart; --help,
 * val 'h', is every subcommand's and is not listed), what each option
 * does, what is checked once they are all read, and its usage text.
 */
struct cli_command {
    const struct option *options;   /* noptions rows, no closing row */
    size_t noptions;
    /* One option into user: 0, or an exit code to stop with. */
    int (*option)(void *user, int c, const char *arg);
    /* After the options: check them together and take the operands,
     * argv[first..argc). 0, or an exit code to stop with. NULL: the
     * subcommand takes none (one given: usage on stderr, and
     * CLI_EXIT_USAGE). */
    int (*operands)(void *user, int argc, char **argv, int first);
    void (*usage)(FILE *f);
};

/*
 * Read argv (from its start) as cmd says into user: true to go on with
 * the command; false to end it with exit status *code: CLI_EXIT_OK after
 * --help (usage on stdout), CLI_EXIT_USAGE after an unknown option
 * (getopt's own word, then usage on stderr), or what an option or the
 * operands stopped with (they said why).
 */
bool cli_parse(int argc, char **argv, const struct cli_command *cmd,
               void *user, int *code);

/* A board argument (`what` names it: "board", "goal"): 0 when text
 * parses into *out, else CLI_EXIT_USAGE after saying why on stderr. */
int cli_board_arg(const char *what, const char *text, struct puz_board *out);
/* The same in the shape rows x cols (--rows/--cols; 0 and 0: the text's
 * own, as above). */
int cli_board_arg_shape(const char *what, const char *text, unsigned rows,
                        unsigned cols, struct puz_board *out);

#endif
