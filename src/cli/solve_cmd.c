/*
 * solve_cmd.c - `puzzled solve`: parse a board and options from the
 * command line, solve it and print the answer for a person (the moves and
 * every board on the way) or as the service's JSON object.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_pdb.h"
#include "cli_progress.h"
#include "codec.h"
#include "pool_pieces.h"
#include "puz_solve.h"

/* --threads: at most as many as pool_run_units starts */
#define CLI_THREADS_MAX 64u

struct solve_args {
    struct puz_solve_opts opts;
    struct puz_board goal;
    bool json, path, quiet;
    int progress;       /* 1 --progress, 0 --quiet, -1 on a terminal */
    unsigned threads;   /* --threads; opts.run_user points here */
    unsigned rows, cols;    /* --rows/--cols; 0 = the text's shape */
    const char *goal_text;  /* --goal, read once the shape is known */
    char board_text[1024];
};

/* The registry's names, comma-separated, wrapped under the option
 * column. */
static void list_names(FILE *f, size_t count,
                       const char *(*name_at)(size_t i))
{
    size_t col = 24, w;

    for (size_t i = 0; i < count; i++) {
        w = strlen(name_at(i)) + 1;     /* with its comma */
        if (i > 0 && col + 1 + w > 78) {
            fprintf(f, ",\n%24s", "");
            col = 24;
        } else if (i > 0) {
            fprintf(f, ", ");
            col += 2;
        }
        fprintf(f, "%s", name_at(i));
        col += w - 1;
    }
    fprintf(f, "\n");
}

static const char *algorithm_at(size_t i)
{
    return puz_algorithm_name((enum puz_algorithm)i);
}

static const char *heuristic_at(size_t i)
{
    return puz_heuristic_name(puz_heuristic_at(i));
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: puzzled solve [options] BOARD\n"
        "  BOARD                 \"1 2 3 4 5 6 7 8 0\", \"1,2,3,...\", "
        "\"123456780\" (N<=3),\n"
        "                        rows as \"1 2 3/4 5 6/7 8 0\"; 0 is the "
        "blank;\n"
        "                        rows of another length make a rectangle "
        "(\"1 2 3/4 5 0\")\n"
        "  -R, --rows R, -C, --cols C\n"
        "                        read BOARD (and --goal) as R rows of C "
        "tiles, 2..8 each\n"
        "  -a, --algorithm A     ");
    list_names(f, PUZ_ALG_COUNT_, algorithm_at);
    fprintf(f,
        "                        (default auto: astar up to 3x3, idastar "
        "on 4x4,\n"
        "                        anytime from 5x5; rectangles: idastar +\n"
        "                        pdb up to 16 cells (2x5..2x8, 3x4, 3x5 and\n"
        "                        transposes, tables cached in pdb-cache),\n"
        "                        anytime beyond; other goals than a blank\n"
        "                        in a corner: idastar + linear conflict up\n"
        "                        to 12 cells and on 3x5)\n"
        "  -w, --weight W        wastar: f = g + W*h, %u..%u (default %u)\n"
        "  -H, --heuristic H     ", PUZ_WASTAR_WEIGHT_MIN,
        PUZ_WASTAR_WEIGHT_MAX, PUZ_WASTAR_DEFAULT_WEIGHT);
    list_names(f, puz_heuristic_count(), heuristic_at);
    fprintf(f,
        "                        (default: pdb where tables serve the "
        "goal, else\n"
        "                        linear-conflict; misplaced for bnb)\n"
        "  -g, --goal G          goal board (default: 1..N*N-1, blank last)\n"
        "  -n, --max-nodes N     stop after N expanded nodes\n"
        "  -t, --timeout-ms MS   stop after MS milliseconds\n"
        "  -m, --max-bytes B     stop when the search needs more memory\n"
        "  -d, --max-depth D     depth limit of dfs (default %u, at most "
        "%u)\n"
        "  -T, --threads N       IDA* with pdb tables (4x4, 5x5) on N threads "
        "(1..%u)\n"
        "  -j, --json            print the JSON object the service returns\n"
        "  -p, --path            with --json: include every board on the "
        "path\n"
        "  -q, --quiet           print only the moves, no progress line\n"
        "  -P, --progress        show the progress line on stderr even "
        "when it is not\n"
        "                        a terminal (default: on a terminal, "
        "after 0.5 s)\n"
        "Moves name the direction the BLANK moves: \"up\" slides the tile "
        "above it down.\n"
        "Ctrl-C stops the search and prints what is known.\n"
        "Exit: 0 solved, 1 unsolvable, 2 bad input, 3 a limit was hit or "
        "Ctrl-C.\n",
        PUZ_DFS_DEFAULT_DEPTH, PUZ_DFS_MAX_DEPTH, CLI_THREADS_MAX);
}

static int parse_number(const char *opt, const char *s, unsigned long long *v)
{
    char *end;

    *v = strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0' || *s == '-') {
        fprintf(stderr, "puzzled: %s needs a non-negative integer, got '%s'\n",
                opt, s);
        return -1;
    }
    return 0;
}

/* One option (cli_parse); returns 0, or an exit code to stop with. */
static int apply_option(void *user, int c, const char *arg)
{
    struct solve_args *sa = user;
    unsigned long long v = 0;
    struct puz_limits *l = &sa->opts.limits;

    switch (c) {
    case 'a':
        if (puz_algorithm_parse(arg, &sa->opts.algorithm) == PUZ_OK)
            return 0;
        fprintf(stderr, "puzzled: unknown algorithm '%s' (try", arg);
        for (size_t i = 0; i < PUZ_ALG_COUNT_; i++)
            fprintf(stderr, " %s", algorithm_at(i));
        fprintf(stderr, ")\n");
        return CLI_EXIT_USAGE;
    case 'H':
        sa->opts.heuristic = puz_heuristic_find(arg);
        if (sa->opts.heuristic != NULL)
            return 0;
        fprintf(stderr, "puzzled: unknown heuristic '%s' (try", arg);
        for (size_t i = 0; i < puz_heuristic_count(); i++)
            fprintf(stderr, " %s", heuristic_at(i));
        fprintf(stderr, ")\n");
        return CLI_EXIT_USAGE;
    case 'g':
        sa->goal_text = arg;
        return 0;
    case 'R': case 'C':
        if (parse_number(c == 'R' ? "--rows" : "--cols", arg, &v))
            return CLI_EXIT_USAGE;
        if (v < PUZ_MIN_SIZE || v > PUZ_MAX_SIZE) {
            fprintf(stderr, "puzzled: --%s must be %d..%d\n",
                    c == 'R' ? "rows" : "cols", PUZ_MIN_SIZE, PUZ_MAX_SIZE);
            return CLI_EXIT_USAGE;
        }
        *(c == 'R' ? &sa->rows : &sa->cols) = (unsigned)v;
        return 0;
    case 'w':
        if (parse_number("--weight", arg, &v))
            return CLI_EXIT_USAGE;
        if (v < PUZ_WASTAR_WEIGHT_MIN || v > PUZ_WASTAR_WEIGHT_MAX) {
            fprintf(stderr, "puzzled: --weight must be %u..%u\n",
                    PUZ_WASTAR_WEIGHT_MIN, PUZ_WASTAR_WEIGHT_MAX);
            return CLI_EXIT_USAGE;
        }
        sa->opts.weight = (unsigned)v;
        return 0;
    case 'n': case 't': case 'm': case 'd':
        if (parse_number(c == 'n' ? "--max-nodes" : c == 't' ? "--timeout-ms"
                         : c == 'm' ? "--max-bytes" : "--max-depth", arg, &v))
            return CLI_EXIT_USAGE;
        if (c == 'n') l->max_nodes = v;
        if (c == 't') l->deadline_us = puz_clock_mono_us() + v * 1000u;
        if (c == 'm') l->max_bytes = (size_t)v;
        if (c == 'd')
            l->max_depth = v > PUZ_DFS_MAX_DEPTH ? PUZ_DFS_MAX_DEPTH
                                                 : (unsigned)v;
        return 0;
    case 'T':
        if (parse_number("--threads", arg, &v))
            return CLI_EXIT_USAGE;
        if (v < 1 || v > CLI_THREADS_MAX) {
            fprintf(stderr, "puzzled: --threads must be 1..%u\n",
                    CLI_THREADS_MAX);
            return CLI_EXIT_USAGE;
        }
        sa->threads = (unsigned)v;
        sa->opts.threads = sa->threads;
        sa->opts.run = pool_run_units;
        sa->opts.run_user = &sa->threads;
        return 0;
    case 'j': sa->json = true; return 0;
    case 'p': sa->path = true; return 0;
    case 'q': sa->quiet = true; sa->progress = 0; return 0;
    case 'P': sa->progress = 1; return 0;
    default: return 0;      /* cli_parse hands over options' only */
    }
}

/* The options usage() tells of but --help, which cli_parse adds. */
static const struct option options[] = {
    { "algorithm", required_argument, NULL, 'a' },
    { "heuristic", required_argument, NULL, 'H' },
    { "goal", required_argument, NULL, 'g' },
    { "rows", required_argument, NULL, 'R' },
    { "cols", required_argument, NULL, 'C' },
    { "max-nodes", required_argument, NULL, 'n' },
    { "timeout-ms", required_argument, NULL, 't' },
    { "max-bytes", required_argument, NULL, 'm' },
    { "max-depth", required_argument, NULL, 'd' },
    { "weight", required_argument, NULL, 'w' },
    { "threads", required_argument, NULL, 'T' },
    { "json", no_argument, NULL, 'j' },
    { "path", no_argument, NULL, 'p' },
    { "quiet", no_argument, NULL, 'q' },
    { "progress", no_argument, NULL, 'P' },
};

/* After the options (cli_parse): --rows with --cols, the goal in their
 * shape, and the BOARD (one or more arguments, joined). */
static int solve_operands(void *user, int argc, char **argv, int first)
{
    struct solve_args *sa = user;

    if ((sa->rows == 0) != (sa->cols == 0)) {
        fprintf(stderr, "puzzled: --rows and --cols go together\n");
        return CLI_EXIT_USAGE;
    }
    if (sa->goal_text != NULL) {
        if (cli_board_arg_shape("goal", sa->goal_text, sa->rows, sa->cols,
                                &sa->goal) != 0)
            return CLI_EXIT_USAGE;
        sa->opts.goal = &sa->goal;
    }
    if (first >= argc) {
        fprintf(stderr, "puzzled: solve needs a BOARD (see puzzled solve "
                "--help)\n");
        return CLI_EXIT_USAGE;
    }
    if (cli_join_args(argc, argv, first, sa->board_text,
                      sizeof(sa->board_text)) != 0) {
        fprintf(stderr, "puzzled: the board text is too long\n");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static const struct cli_command command = {
    .options = options, .noptions = sizeof(options) / sizeof(options[0]),
    .option = apply_option, .operands = solve_operands, .usage = usage,
};

static void print_human(const struct puz_board *start,
                        const struct puz_result *r, bool quiet)
{
    char grid[PUZ_MAX_CELLS * 4 + 16];
    struct puz_board b = *start;

    if (quiet) {
        for (unsigned i = 0; i < r->length; i++)
            printf(i ? " %s" : "%s", puz_dir_name((enum puz_dir)r->moves[i]));
        printf("\n");
        return;
    }
    printf("solved in %u moves (%s) with %s%s%s\n", r->length,
           r->optimal ? "optimal" : "not proven optimal",
           puz_algorithm_name(r->algorithm), r->heuristic ? " + " : "",
           r->heuristic ? puz_heuristic_name(r->heuristic) : "");
    printf("lower bound %u, at most %.1f%% above optimal (gap %.3f); "
           "method %s\n", r->lower_bound, (r->gap - 1.0) * 100.0, r->gap,
           r->method);
    printf("moves (direction the blank moves):");
    for (unsigned i = 0; i < r->length; i++)
        printf(" %s", puz_dir_name((enum puz_dir)r->moves[i]));
    printf("\ntiles that slide:");
    for (unsigned i = 0; i < r->length; i++)
        printf(" %u", r->tiles[i]);
    printf("\nexpanded %llu, generated %llu, duplicates %llu, max frontier "
           "%llu, arena peak %zu bytes, %.3f ms\n\n",
           (unsigned long long)r->stats.expanded,
           (unsigned long long)r->stats.generated,
           (unsigned long long)r->stats.duplicates,
           (unsigned long long)r->stats.max_frontier, r->stats.arena_peak,
           (double)r->stats.time_us / 1000.0);
    for (unsigned i = 0; i <= r->length; i++) {
        puz_board_format_grid(&b, grid, sizeof(grid));
        if (i == 0)
            printf("start:\n%s\n", grid);
        else
            printf("%u. %s (tile %u):\n%s\n", i,
                   puz_dir_name((enum puz_dir)r->moves[i - 1]),
                   r->tiles[i - 1], grid);
        if (i < r->length)
            puz_board_move(&b, (enum puz_dir)r->moves[i]);
    }
}

/* The answer as the service gives it: the same encoder, the same bytes. */
static puz_err print_json(const struct puz_board *start,
                          const struct puz_result *r, bool path)
{
    puz_arena *a = puz_arena_create(64 * 1024);
    char *buf;
    size_t len;
    puz_err rc = a != NULL ? codec_result_bytes(start, r, path,
                                                CODEC_REAL_DIGITS, 0, a, &buf,
                                                &len)
                           : PUZ_ENOMEM;

    if (rc == PUZ_OK) {
        fwrite(buf, 1, len, stdout);
        putchar('\n');
    }
    puz_arena_destroy(a);
    return rc;
}

static int report(const struct solve_args *sa, const struct puz_board *start,
                  const struct puz_result *r)
{
    if (sa->json && print_json(start, r, sa->path) != PUZ_OK) {
        fprintf(stderr, "puzzled: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    if (r->status == PUZ_UNSOLVABLE) {
        fprintf(stderr, "puzzled: unsolvable: %s\n", r->reason);
        return CLI_EXIT_UNSOLVABLE;
    }
    if (r->status != PUZ_SOLVED) {
        fprintf(stderr, "puzzled: no solution: %s (%s)\n",
                puz_status_name(r->status), r->reason);
        return CLI_EXIT_LIMIT;
    }
    if (!sa->json)
        print_human(start, r, sa->quiet);
    return CLI_EXIT_OK;
}

/* Ctrl-C with no path: say how far the search got. */
static int report_interrupted(const struct cli_progress *p,
                              const struct puz_result *r)
{
    fprintf(stderr, "puzzled: interrupted after %.1f s and %llu expanded "
            "nodes; no path found yet", (double)r->stats.time_us / 1e6,
            (unsigned long long)r->stats.expanded);
    if (p->has_last && p->last.lower_bound != 0)
        fprintf(stderr, "; the shortest is at least %u moves",
                p->last.lower_bound);
    fprintf(stderr, "\n");
    return CLI_EXIT_LIMIT;
}

/* Solve with the progress line and Ctrl-C armed, then report. */
static int solve_watched(struct solve_args *sa, const struct puz_board *start,
                         puz_arena *a, struct puz_result *r)
{
    struct cli_progress prog;
    puz_err err;
    int rc;

    cli_progress_init(&prog, stderr, sa->progress, &sa->opts);
    sa->opts.limits.cancel = cli_interrupt_catch();
    err = puz_solve(start, &sa->opts, a, r);
    cli_interrupt_restore();
    cli_progress_end(&prog);
    if (err != PUZ_OK) {
        fprintf(stderr, "puzzled: %s\n", r->reason);
        return CLI_EXIT_USAGE;
    }
    if (r->status == PUZ_CANCELLED && cli_interrupted())
        return report_interrupted(&prog, r);
    rc = report(sa, start, r);
    if (rc == CLI_EXIT_OK && cli_interrupted()) {
        fprintf(stderr, "puzzled: interrupted: the path above is the best "
                "found so far, not the search's last word\n");
        rc = CLI_EXIT_LIMIT;
    }
    return rc;
}

int cli_solve_main(int argc, char **argv)
{
    struct solve_args sa;
    struct puz_board start;
    struct puz_result r;
    puz_tables *tables;
    puz_arena *a;
    int rc;

    memset(&sa, 0, sizeof(sa));
    sa.progress = -1;
    if (!cli_parse(argc, argv, &command, &sa, &rc))
        return rc;
    if (cli_board_arg_shape("board", sa.board_text, sa.rows, sa.cols, &start)
        != 0)
        return CLI_EXIT_USAGE;
    a = puz_arena_create(1 << 20);
    if (a == NULL) {
        fprintf(stderr, "puzzled: out of memory\n");
        return CLI_EXIT_LIMIT;
    }
    tables = cli_pdb_tables_for(&start, &sa.opts);
    sa.opts.tables = tables;
    rc = solve_watched(&sa, &start, a, &r);
    puz_arena_destroy(a);
    puz_tables_destroy(tables);
    return rc;
}
