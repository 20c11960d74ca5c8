/*
 * cli.h - the command-line subcommands of puzzled. Each returns the
 * process exit status: 0 success, 1 unsolvable, 2 bad usage or input,
 * 3 a limit stopped the solve.
 */
#ifndef CLI_H
#define CLI_H

#include <getopt.h>
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
 * A subcommand's options: getopt_long over argv from its start, the short
 * options being longopts' val letters (so the two cannot drift apart).
 * --help (val 'h') prints usage to stdout and returns -1 (exit 0); an
 * unknown option, after getopt's own word, prints it to stderr and
 * returns CLI_EXIT_USAGE; each other option goes to apply(user, c, arg),
 * whose nonzero answer stops the parse and is returned. 0 when every
 * option was taken; the operands start at optind.
 */
int cli_options(int argc, char **argv, const struct option *longopts,
                int (*apply)(void *user, int c, const char *arg),
                void (*usage)(FILE *f), void *user);

/* A board argument (`what` names it: "board", "goal"): 0 when text
 * parses into *out, else CLI_EXIT_USAGE after saying why on stderr. */
int cli_board_arg(const char *what, const char *text, struct puz_board *out);
/* The same in the shape rows x cols (--rows/--cols; 0 and 0: the text's
 * own, as above). */
int cli_board_arg_shape(const char *what, const char *text, unsigned rows,
                        unsigned cols, struct puz_board *out);

#endif
