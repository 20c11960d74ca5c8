/*
 * args.c - small helpers the subcommands share.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Room for the largest subcommand's options (solve's 15), and --help
 * and the closing row, which read_options adds to every table. */
#define CLI_OPTIONS_MAX 24
/* Each option a letter and its ':'. */
#define CLI_SHORTOPTS_MAX (2 * CLI_OPTIONS_MAX + 1)

/* getopt_long over cmd's options and --help: 0 when all were taken,
 * -1 after --help, else the exit code to stop with. */
static int read_options(int argc, char **argv, const struct cli_command *cmd,
                        void *user)
{
    static const struct option help = { "help", no_argument, NULL, 'h' };
    struct option longopts[CLI_OPTIONS_MAX + 2];
    char shortopts[CLI_SHORTOPTS_MAX];
    size_t n = 0, nopts = cmd->noptions;
    int c, rc;

    if (nopts > CLI_OPTIONS_MAX) {  /* a subcommand outgrew the room */
        fprintf(stderr, "puzzled: %zu options, room for %d\n", nopts,
                CLI_OPTIONS_MAX);
        return CLI_EXIT_USAGE;
    }
    memcpy(longopts, cmd->options, nopts * sizeof(longopts[0]));
    longopts[nopts] = help;
    memset(&longopts[nopts + 1], 0, sizeof(longopts[0]));
    for (const struct option *o = longopts; o->name != NULL; o++) {
        shortopts[n++] = (char)o->val;
        if (o->has_arg == required_argument)
            shortopts[n++] = ':';
    }
    shortopts[n] = '\0';
    optind = 1;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == 'h') {
            cmd->usage(stdout);
            return -1;
        }
        if (c == '?') {
            cmd->usage(stderr);
            return CLI_EXIT_USAGE;
        }
        rc = cmd->option(user, c, optarg);
        if (rc != 0)
            return rc;
    }
    return 0;
}

bool cli_parse(int argc, char **argv, const struct cli_command *cmd,
               void *user, int *code)
{
    int rc = read_options(argc, argv, cmd, user);

    if (rc == 0 && cmd->operands != NULL) {
        rc = cmd->operands(user, argc, argv, optind);
    } else if (rc == 0 && optind < argc) {
        cmd->usage(stderr);
        rc = CLI_EXIT_USAGE;
    }
    *code = rc < 0 ? CLI_EXIT_OK : rc;
    return rc == 0;
}

int cli_join_args(int argc, char **argv, int first, char *buf, size_t size)
{
    size_t off = 0;

    if (size == 0)
        return -1;
    buf[0] = '\0';
    for (int i = first; i < argc; i++) {
        size_t len = strlen(argv[i]);
        if (off + len + 2 > size)
            return -1;
        if (off > 0)
            buf[off++] = ' ';
        memcpy(buf + off, argv[i], len + 1);
        off += len;
    }
    return 0;
}

int cli_board_arg(const char *what, const char *text, struct puz_board *out)
{
    return cli_board_arg_shape(what, text, 0, 0, out);
}

int cli_board_arg_shape(const char *what, const char *text, unsigned rows,
                        unsigned cols, struct puz_board *out)
{
    char msg[PUZ_MSG_MAX];

    if (puz_board_parse_shape(text, rows, cols, out, msg) == PUZ_OK)
        return 0;
    fprintf(stderr, "puzzled: bad %s: %s\n", what, msg);
    return CLI_EXIT_USAGE;
}
