/*
 * score_cmd.c - `puzzled score BOARD MOVES`: replay a player's moves on
 * a board and say how they compare with the optimum (puz_score, as the
 * service's POST /v1/score does), for a person or as the same JSON.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_pdb.h"
#include "cli_progress.h"
#include "codec.h"
#include "puz_clock.h"
#include "puz_score.h"

#define SCORE_MOVES_MAX 100000u

struct score_args {
    struct puz_solve_opts opts;
    struct puz_board goal;
    bool json;
    const char *board_text, *moves_text;
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: puzzled score [options] BOARD MOVES\n"
        "  BOARD                 the start board, as `puzzled solve` takes "
        "it (one argument)\n"
        "  MOVES                 the player's moves, one argument: blank "
        "directions\n"
        "                        (up, down, left, right or u, d, l, r) or "
        "numbers of\n"
        "                        the tiles that slide, separated by "
        "spaces or commas\n"
        "  -g, --goal G          goal board (default: 1..N*N-1, blank last)\n"
        "  -t, --timeout-ms MS   give the search for the optimum MS "
        "milliseconds\n"
        "  -j, --json            print the JSON object POST /v1/score "
        "returns\n"
        "score = optimal moves / moves played (1 when the board needs "
        "none), 0 when\n"
        "a move is illegal or the moves do not reach the goal.\n"
        "Exit: 0 scored (also a score of 0), 1 unsolvable, 2 bad input, 3 "
        "the optimum\n"
        "was not proven within the limits (or Ctrl-C).\n");
}

/* One token: a direction or a tile number 1..cells-1. */
static bool parse_move(const char *tok, unsigned cells, struct puz_move *m)
{
    char *end;
    unsigned long t;

    if (puz_dir_parse(tok, &m->dir) == PUZ_OK) {
        m->is_tile = false;
        return true;
    }
    t = strtoul(tok, &end, 10);
    if (*tok < '0' || *tok > '9' || *end != '\0' || t < 1 || t >= cells)
        return false;
    m->is_tile = true;
    m->tile = (unsigned)t;
    return true;
}

/* MOVES into *out (count in *n); false with the reason on stderr. */
static bool parse_moves(const char *text, unsigned cells, puz_arena *a,
                        struct puz_move **out, size_t *n)
{
    size_t len = strlen(text), cap = len / 2 + 1, i = 0;
    char *copy = puz_arena_strdup(a, text), *save = NULL;
    struct puz_move *m = puz_arena_alloc(a, cap * sizeof(*m));

    if (copy == NULL || m == NULL) {
        fprintf(stderr, "puzzled: out of memory\n");
        return false;
    }
    for (char *tok = strtok_r(copy, " ,\t\n", &save); tok != NULL;
         tok = strtok_r(NULL, " ,\t\n", &save), i++) {
        if (i >= SCORE_MOVES_MAX || !parse_move(tok, cells, &m[i])) {
            fprintf(stderr, "puzzled: moves[%zu] '%s' is not a move: use "
                    "up, down, left, right (the way the blank goes) or the "
                    "number of a tile, 1 to %u (at most %u moves)\n", i, tok,
                    cells - 1, SCORE_MOVES_MAX);
            return false;
        }
    }
    *out = m;
    *n = i;
    return true;
}

/* One option (cli_parse); returns 0, or an exit code to stop with. */
static int score_option(void *user, int c, const char *arg)
{
    struct score_args *sa = user;
    char *end;
    unsigned long long ms;

    if (c == 'g') {
        if (cli_board_arg("goal", arg, &sa->goal) != 0)
            return CLI_EXIT_USAGE;
        sa->opts.goal = &sa->goal;
    } else if (c == 't') {
        ms = strtoull(arg, &end, 10);
        if (*arg < '0' || *arg > '9' || *end != '\0') {
            fprintf(stderr, "puzzled: --timeout-ms needs a "
                    "non-negative integer, got '%s'\n", arg);
            return CLI_EXIT_USAGE;
        }
        sa->opts.limits.deadline_us = puz_clock_mono_us() + ms * 1000u;
    } else if (c == 'j') {
        sa->json = true;
    }
    return 0;
}

/* The options usage() tells of but --help, which cli_parse adds. */
static const struct option options[] = {
    { "goal", required_argument, NULL, 'g' },
    { "timeout-ms", required_argument, NULL, 't' },
    { "json", no_argument, NULL, 'j' },
};

/* After the options (cli_parse): BOARD and MOVES. */
static int score_operands(void *user, int argc, char **argv, int first)
{
    struct score_args *sa = user;

    if (argc - first != 2) {
        fprintf(stderr, "puzzled: score needs BOARD and MOVES, each one "
                "argument (quote them; see puzzled score --help)\n");
        return CLI_EXIT_USAGE;
    }
    sa->board_text = argv[first];
    sa->moves_text = argv[first + 1];
    return 0;
}

static const struct cli_command command = {
    .options = options, .noptions = sizeof(options) / sizeof(options[0]),
    .option = score_option, .operands = score_operands, .usage = usage,
};

static int report(const struct score_args *sa, puz_err rc,
                  const struct puz_score_result *r)
{
    json_t *o;

    if (rc != PUZ_OK) {
        fprintf(stderr, "puzzled: %s\n", r->solve.reason[0]
                ? r->solve.reason : "the goal does not fit the board");
        return CLI_EXIT_USAGE;
    }
    if (r->searched && r->solve.status == PUZ_UNSOLVABLE) {
        fprintf(stderr, "puzzled: unsolvable: %s\n", r->solve.reason);
        return CLI_EXIT_UNSOLVABLE;
    }
    if (sa->json) {
        o = codec_score_json(r);
        json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6));
        printf("\n");
        json_decref(o);
    } else {
        if (!r->legal)
            printf("illegal: %s", r->illegal_reason);
        else
            printf("%s in %zu moves", r->solved ? "solved"
                   : "not at the goal", r->played);
        if (r->known)
            printf("; optimal %u; score %.3f\n", r->optimal, r->score);
        else
            printf("; optimal not proven\n");
    }
    if (!r->known) {
        fprintf(stderr, "puzzled: no proven optimum: %s (%s)\n",
                puz_status_name(r->solve.status), r->solve.reason);
        return CLI_EXIT_LIMIT;
    }
    return CLI_EXIT_OK;
}

int cli_score_main(int argc, char **argv)
{
    struct score_args sa;
    struct puz_board start;
    struct puz_score_result r;
    struct puz_move *moves = NULL;
    puz_tables *tables;
    size_t n = 0;
    puz_arena *a;
    puz_err rc;
    int code;

    memset(&sa, 0, sizeof(sa));
    if (!cli_parse(argc, argv, &command, &sa, &code))
        return code;
    if (cli_board_arg("board", sa.board_text, &start) != 0)
        return CLI_EXIT_USAGE;
    a = puz_arena_create(1 << 20);
    if (a == NULL || !parse_moves(sa.moves_text, puz_board_cells(&start), a,
                                  &moves, &n)) {
        puz_arena_destroy(a);
        return CLI_EXIT_USAGE;
    }
    tables = cli_pdb_tables_for(&start, &sa.opts);
    sa.opts.tables = tables;
    sa.opts.limits.cancel = cli_interrupt_catch();
    rc = puz_score(&start, moves, n, &sa.opts, a, &r);
    cli_interrupt_restore();
    code = report(&sa, rc, &r);
    puz_tables_destroy(tables);
    puz_arena_destroy(a);
    return code;
}
