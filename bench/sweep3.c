/*
 * sweep3.c - solve every one of the 181,440 solvable 3x3 boards with each
 * optimal algorithm/heuristic pair on one core and print a table: total
 * seconds, boards/s, mean and max nodes expanded, peak arena bytes. Each
 * answer is checked as it goes: its length against the exact distance
 * table, and its moves replayed onto the goal, so a fast wrong answer
 * cannot hide in the numbers.
 *
 * usage: sweep3 [-s K] [-n N] [-r REF8] [PAIR...]
 *   PAIR  algorithm+heuristic, e.g. astar+manhattan, or `table`: the
 *         server's default (astar with the exact table loaded), which
 *         reads each path off the table instead of searching
 *         (default: the optimal pairs that finish in minutes, and table)
 *   -s K  every K-th board only (profiling under callgrind)
 *   -n N  run each row N times and report the one with least CPU time
 *   -r REF8  also time bench/ref/ref8.c (built as REF8) beside the
 *         linear-conflict rows, `REF8 sweep astar|ida`, run right before
 *         ours each time so both see the same load; prints the ratios
 *
 * Both wall-clock and CPU seconds are printed: on a shared machine the
 * wall clock counts the time other processes held the core, the CPU time
 * (this process's; the reference's as a waited-for child) does not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "puz_pdb.h"
#include "puz_solve.h"
#include "puz_table3.h"

struct row {
    const char *pair;
    double seconds;
    double cpu_seconds;     /* this process's CPU time for the row */
    double mean_expanded;
    uint64_t max_expanded;
    size_t peak_arena;
    unsigned wrong;
};

struct run {
    const puz_table3 *t;
    puz_tables *tables;     /* the 3x3 tables, for the `table` row */
    puz_arena *arena;
    unsigned every;
};

static int parse_pair(const char *pair, const struct run *run,
                      struct puz_solve_opts *o)
{
    char alg[32];
    const char *plus = strchr(pair, '+');
    size_t len = plus ? (size_t)(plus - pair) : strlen(pair);

    memset(o, 0, sizeof(*o));
    if (strcmp(pair, "table") == 0) {
        o->algorithm = PUZ_ALG_ASTAR;
        o->tables = run->tables;
        return 0;
    }
    if (len >= sizeof(alg))
        return -1;
    memcpy(alg, pair, len);
    alg[len] = '\0';
    if (puz_algorithm_parse(alg, &o->algorithm) != PUZ_OK)
        return -1;
    if (plus != NULL) {
        o->heuristic = puz_heuristic_find(plus + 1);
        if (o->heuristic == NULL)
            return -1;
    }
    return 0;
}

/* Whether r is a legal path of length d from b to the goal: replayed
 * here rather than with puz_replay(), which checks any size and would
 * cost more than the table's answer itself. The board is one 64-bit word
 * (cell i in bits 4i..4i+3) and a move's legality one bit, so on a legal
 * path the check takes no branch the predictor can miss. */
static int correct(const struct puz_board *b, const struct puz_result *r,
                   uint64_t goal, unsigned d)
{
    static const int step[4] = { -3, 3, -1, 1 };
    /* bit m: the blank on that cell can move in direction m */
    static const uint8_t legal[9] = { 10, 14, 6, 11, 15, 7, 9, 13, 5 };
    uint64_t w = 0;
    unsigned blank = b->blank, ok = 1;

    if (r->status != PUZ_SOLVED || r->length != d)
        return 0;
    for (unsigned i = 0; i < 9; i++)
        w |= (uint64_t)b->cells[i] << (4 * i);
    for (unsigned i = 0; i < r->length; i++) {
        unsigned m = r->moves[i] & 3u, next;
        uint64_t tile;
        ok &= r->moves[i] <= 3 && (legal[blank] >> m & 1u);
        next = (unsigned)((int)blank + step[m]);
        if (next > 8)
            return 0;           /* only after an illegal move */
        tile = w >> (4 * next) & 15u;
        w = w - (tile << (4 * next)) + (tile << (4 * blank));
        blank = next;
    }
    return ok && w == goal;
}

static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int sweep(const struct run *run, const char *pair, struct row *out)
{
    struct puz_solve_opts o;
    struct puz_board goal;
    uint64_t total = 0, t0, goal_word = 0;
    uint32_t boards = 0;
    const puz_table3 *t = run->t;
    double c0;

    memset(out, 0, sizeof(*out));
    out->pair = pair;
    if (parse_pair(pair, run, &o) != 0)
        return -1;
    puz_board_goal(3, &goal);
    for (unsigned i = 0; i < 9; i++)
        goal_word |= (uint64_t)goal.cells[i] << (4 * i);
    c0 = cpu_now();
    t0 = puz_clock_mono_us();
    for (unsigned d = 0; d <= puz_table3_max_distance(t); d++) {
        for (uint32_t k = 0; k < puz_table3_count_at(t, d); k++) {
            struct puz_board b;
            struct puz_result r;
            if ((k + d) % run->every != 0)
                continue;
            puz_table3_state_at(t, d, k, &b);
            puz_arena_reset(run->arena);
            if (puz_solve(&b, &o, run->arena, &r) != PUZ_OK ||
                !correct(&b, &r, goal_word, d))
                out->wrong++;
            total += r.stats.expanded;
            if (r.stats.expanded > out->max_expanded)
                out->max_expanded = r.stats.expanded;
            if (r.stats.arena_peak > out->peak_arena)
                out->peak_arena = r.stats.arena_peak;
            boards++;
        }
    }
    out->seconds = (double)(puz_clock_mono_us() - t0) / 1e6;
    out->cpu_seconds = cpu_now() - c0;
    out->mean_expanded = (double)total / boards;
    return 0;
}

static double child_cpu(void)
{
    struct rusage ru;

    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* The reference's own seconds for `ref sweep mode` (its sweep loop,
 * wall clock) into *wall and the CPU time of the whole run (its start-up,
 * reading the file, is a few milliseconds) into *cpu; -1 on failure. */
static void run_ref(const char *ref, const char *mode, double *wall,
                    double *cpu)
{
    char cmd[1024], line[512];
    double c0 = child_cpu();
    FILE *p;

    *wall = *cpu = -1;
    snprintf(cmd, sizeof(cmd), "'%s' sweep %s", ref, mode);
    p = popen(cmd, "r");
    if (p == NULL)
        return;
    while (fgets(line, sizeof(line), p) != NULL) {
        const char *at = strstr(line, "seconds ");
        if (at != NULL && strstr(line, "wrong 0 ") != NULL)
            *wall = atof(at + 8);
    }
    if (pclose(p) != 0)
        *wall = -1;
    else if (*wall > 0)
        *cpu = child_cpu() - c0;
}

/* The reference's mode for a pair it implements, or NULL. */
static const char *ref_mode(const char *pair)
{
    if (strcmp(pair, "astar+linear-conflict") == 0)
        return "astar";
    if (strcmp(pair, "idastar+linear-conflict") == 0)
        return "ida";
    return NULL;
}

/* ref_wall/ref_cpu: the reference's times, 0 = none for this row, -1 =
 * no reference column at all. */
static void print_row(const struct row *r, unsigned boards, double ref_wall,
                      double ref_cpu)
{
    printf("| %s | %.2f | %.2f | %.0f | %.1f | %llu | %zu | %u |", r->pair,
           r->seconds, r->cpu_seconds, boards / r->cpu_seconds,
           r->mean_expanded, (unsigned long long)r->max_expanded,
           r->peak_arena, r->wrong);
    if (ref_wall > 0)
        printf(" %.2f | %.2f | %.2f | %.2f |", ref_wall, r->seconds / ref_wall,
               ref_cpu, r->cpu_seconds / ref_cpu);
    else if (ref_wall == 0)
        printf(" | | | |");
    printf("\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    static const char *const defaults[] = {
        "astar+linear-conflict", "astar+manhattan", "astar+misplaced",
        "idastar+linear-conflict", "idastar+manhattan", "bnb+misplaced",
        "table",
    };
    const char *const *pairs = defaults;
    int count = (int)(sizeof(defaults) / sizeof(defaults[0]));
    const char *ref = NULL;
    unsigned repeat = 1, boards = 0;
    struct run run = { NULL, NULL, NULL, 1 };
    puz_table3 *t;
    int bad = 0, opt;

    while ((opt = getopt(argc, argv, "s:n:r:")) != -1) {
        if (opt == 's' && atoi(optarg) > 0)
            run.every = (unsigned)atoi(optarg);
        else if (opt == 'n' && atoi(optarg) > 0)
            repeat = (unsigned)atoi(optarg);
        else if (opt == 'r')
            ref = optarg;
        else {
            fprintf(stderr, "usage: sweep3 [-s K] [-n N] [-r REF8] "
                    "[PAIR...]\n");
            return 2;
        }
    }
    if (optind < argc) {
        pairs = (const char *const *)argv + optind;
        count = argc - optind;
    }
    run.arena = puz_arena_create(1 << 20);
    if (run.arena == NULL || puz_table3_create(NULL, &t) != PUZ_OK ||
        puz_tables_create(&run.tables) != PUZ_OK ||
        puz_tables_add_3x3(run.tables) != PUZ_OK)
        return 1;
    run.t = t;
    for (unsigned d = 0; d <= puz_table3_max_distance(t); d++)
        for (uint32_t k = 0; k < puz_table3_count_at(t, d); k++)
            boards += (k + d) % run.every == 0;
    printf("| algorithm+heuristic | wall s | CPU s | boards/CPU s | "
           "mean expanded | max expanded | peak arena bytes | wrong |%s\n",
           ref ? " ref8 wall s | × ref8 wall | ref8 CPU s | × ref8 CPU |"
               : "");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|%s\n",
           ref ? "---:|---:|---:|---:|" : "");
    for (int i = 0; i < count; i++) {
        struct puz_solve_opts o;
        struct row r, best = { 0 };
        double ref_wall = ref ? 0 : -1, ref_cpu = 0;
        const char *mode = ref ? ref_mode(pairs[i]) : NULL;
        if (parse_pair(pairs[i], &run, &o) != 0) {
            fprintf(stderr, "sweep3: bad pair '%s'\n", pairs[i]);
            bad = 1;
            continue;
        }
        for (unsigned n = 0; n < repeat; n++) {
            double wall = 0, cpu = 0;
            if (mode != NULL && run.every == 1)
                run_ref(ref, mode, &wall, &cpu);
            if (wall > 0 && (ref_wall <= 0 || cpu < ref_cpu)) {
                ref_wall = wall;
                ref_cpu = cpu;
            }
            sweep(&run, pairs[i], &r);
            if (n == 0 || r.cpu_seconds < best.cpu_seconds)
                best = r;
        }
        print_row(&best, boards, ref_wall, ref_cpu);
        bad |= best.wrong != 0;
    }
    puz_table3_destroy(t);
    puz_tables_destroy(run.tables);
    puz_arena_destroy(run.arena);
    return bad;
}
