/*
 * args.c - small helpers the subcommands share.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* Room for every option of the largest subcommand (solve's 16), each a
 * letter and its ':'. */
#define CLI_SHORTOPTS_MAX 64

int cli_options(int argc, char **argv, const struct option *longopts,
                int (*apply)(void *user, int c, const char *arg),
                void (*usage)(FILE *f), void *user)
{
    char shortopts[CLI_SHORTOPTS_MAX];
    size_t n = 0;
    int c, rc;

    for (const struct option *o = longopts; o->name != NULL; o++) {
        if (n + 3 > sizeof(shortopts))
            break;
        shortopts[n++] = (char)o->val;
        if (o->has_arg == required_argument)
            shortopts[n++] = ':';
    }
    shortopts[n] = '\0';
    optind = 1;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == 'h') {
            usage(stdout);
            return -1;
        }
        if (c == '?') {
            usage(stderr);
            return CLI_EXIT_USAGE;
        }
        rc = apply(user, c, optarg);
        if (rc != 0)
            return rc;
    }
    return 0;
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
