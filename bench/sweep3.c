/*
 * sweep3.c - solve every one of the 181,440 solvable 3x3 boards with each
 * optimal algorithm/heuristic pair on one core and print a table: total
 * seconds, boards/s, mean and max nodes expanded, peak arena bytes. Each
 * length is checked against the exact distance table as it goes, so a
 * fast wrong answer cannot hide in the numbers.
 *
 * usage: sweep3 [PAIR...]   PAIR = algorithm+heuristic, e.g. astar+manhattan
 *        (default: the optimal pairs that finish in minutes)
 */
#include <stdio.h>
#include <string.h>

#include "puz_solve.h"
#include "puz_table3.h"

struct row {
    const char *pair;
    double seconds;
    double mean_expanded;
    uint64_t max_expanded;
    size_t peak_arena;
    unsigned wrong;
};

static int parse_pair(const char *pair, struct puz_solve_opts *o)
{
    char alg[32];
    const char *plus = strchr(pair, '+');
    size_t len = plus ? (size_t)(plus - pair) : strlen(pair);

    if (len >= sizeof(alg))
        return -1;
    memcpy(alg, pair, len);
    alg[len] = '\0';
    memset(o, 0, sizeof(*o));
    if (puz_algorithm_parse(alg, &o->algorithm) != PUZ_OK)
        return -1;
    if (plus != NULL) {
        o->heuristic = puz_heuristic_find(plus + 1);
        if (o->heuristic == NULL)
            return -1;
    }
    return 0;
}

static int sweep(const puz_table3 *t, const char *pair, puz_arena *a,
                 struct row *out)
{
    struct puz_solve_opts o;
    uint64_t total = 0, t0;
    uint32_t boards = 0;

    memset(out, 0, sizeof(*out));
    out->pair = pair;
    if (parse_pair(pair, &o) != 0)
        return -1;
    t0 = puz_now_us();
    for (unsigned d = 0; d <= puz_table3_max_distance(t); d++) {
        for (uint32_t k = 0; k < puz_table3_count_at(t, d); k++) {
            struct puz_board b;
            struct puz_result r;
            puz_table3_state_at(t, d, k, &b);
            puz_arena_reset(a);
            if (puz_solve(&b, &o, a, &r) != PUZ_OK ||
                r.status != PUZ_SOLVED || r.length != d)
                out->wrong++;
            total += r.stats.expanded;
            if (r.stats.expanded > out->max_expanded)
                out->max_expanded = r.stats.expanded;
            if (r.stats.arena_peak > out->peak_arena)
                out->peak_arena = r.stats.arena_peak;
            boards++;
        }
    }
    out->seconds = (double)(puz_now_us() - t0) / 1e6;
    out->mean_expanded = (double)total / boards;
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const defaults[] = {
        "astar+linear-conflict", "astar+manhattan", "astar+misplaced",
        "idastar+linear-conflict", "idastar+manhattan", "bnb+misplaced",
    };
    const char *const *pairs = defaults;
    int count = (int)(sizeof(defaults) / sizeof(defaults[0]));
    puz_table3 *t;
    puz_arena *a = puz_arena_create(1 << 20);
    int bad = 0;

    if (argc > 1) {
        pairs = (const char *const *)argv + 1;
        count = argc - 1;
    }
    if (a == NULL || puz_table3_create(NULL, &t) != PUZ_OK)
        return 1;
    printf("| algorithm+heuristic | total s | boards/s | mean expanded | "
           "max expanded | peak arena bytes | wrong |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < count; i++) {
        struct row r;
        if (sweep(t, pairs[i], a, &r) != 0) {
            fprintf(stderr, "sweep3: bad pair '%s'\n", pairs[i]);
            bad = 1;
            continue;
        }
        printf("| %s | %.2f | %.0f | %.1f | %llu | %zu | %u |\n", r.pair,
               r.seconds, PUZ_TABLE3_STATES / r.seconds, r.mean_expanded,
               (unsigned long long)r.max_expanded, r.peak_arena, r.wrong);
        fflush(stdout);
        bad |= r.wrong != 0;
    }
    puz_table3_destroy(t);
    puz_arena_destroy(a);
    return bad;
}
