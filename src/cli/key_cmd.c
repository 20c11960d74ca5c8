/*
 * key_cmd.c - `puzzled key new NAME [operator] [jobs=N] [streams=N]
 * [rpm=N]`: a new API key. The key goes to standard output once (give it
 * to its user; the server never stores it); the line for the keys file,
 * which holds only the key's SHA-256, goes to standard error with a
 * word on where to put it. A name or option the server would refuse in
 * its keys file is refused here, by the server's own check
 * (api_keys_parse_words), before any key is made.
 */
#include <stdio.h>
#include <string.h>

#include "api_keys.h"
#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: puzzled key new NAME [operator] [jobs=N] "
            "[streams=N] [rpm=N]\n"
            "  prints a new API key on stdout and, on stderr, its line for "
            "the\n  file named by api_keys_file (only the key's SHA-256 is "
            "stored)\n");
}

int cli_key_main(int argc, char **argv)
{
    char token[API_KEY_HASH_HEX + 1], hash[API_KEY_HASH_HEX + 1];
    char line[512], why[160];
    struct api_key key;
    size_t len;
    int n;

    if (argc >= 2 && (strcmp(argv[1], "--help") == 0
                      || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (argc < 3 || strcmp(argv[1], "new") != 0) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    api_keys_hash_hex("", hash);    /* a well-formed hash for the check */
    if (!api_keys_parse_words(argv[2], hash, (const char *const *)argv + 3,
                              (size_t)(argc - 3), &key, why, sizeof(why))) {
        fprintf(stderr, "puzzled: key new: %s\n", why);
        return CLI_EXIT_USAGE;
    }
    if (!api_keys_new_token(token)) {
        fprintf(stderr, "puzzled: the kernel's random source failed\n");
        return CLI_EXIT_USAGE;
    }
    api_keys_hash_hex(token, hash);
    n = snprintf(line, sizeof(line), "%s %s", argv[2], hash);
    for (int i = 3; i < argc && n > 0 && (size_t)n < sizeof(line); i++) {
        len = (size_t)n;
        n += snprintf(line + len, sizeof(line) - len, " %s", argv[i]);
    }
    if (n <= 0 || (size_t)n >= sizeof(line)) {
        fprintf(stderr, "puzzled: the options are too long\n");
        return CLI_EXIT_USAGE;
    }
    printf("%s\n", token);
    fflush(stdout);     /* the key first, then the advice */
    fprintf(stderr, "add this line to the api_keys_file (puzzled checks "
            "it when it starts):\n%s\n", line);
    return CLI_EXIT_OK;
}
