/*
 * args.c - small helpers the subcommands share.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

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
