/*
 * large.c - the anytime search on 5x5 to 8x8 (docs/large.md): seeded
 * boards per size, each solved with `auto` within each budget on one
 * core; every path replayed. Prints per size and budget the mean length,
 * mean proven lower bound, mean gap (length / lower bound), mean length
 * over the mean lower bound, the worst wall time and the mean CPU time
 * the solving thread got (on a shared machine far less than the wall). With --korf24 the
 * 5x5 boards are the 50 of shared/data/korf24.tsv (optimal lengths
 * published) and the mean ratio to the optimum is printed too.
 *
 * usage: large [--sizes 5,6,7,8] [--count 50] [--budgets 1000,10000]
 *              [--walk 10000 | --uniform] [--seed 1]
 *              [--korf24 FILE] [--cache DIR] [--cpu] [--max-mb 512]
 *              [--quiet]
 * --cache DIR loads the 5x5 6-6-6-6 pattern databases from DIR (never
 * builds them: that takes minutes and 0.75 GB). --cpu makes the budget
 * CPU time of the solving thread (puz_limits.clock_us), so a figure
 * means "one core for that long" however loaded the machine; without it
 * the budget is wall time, as in the server. --max-mb is each solve's
 * memory budget (limits.max_bytes), by default the server's default
 * solve_max_bytes (512 MiB); 0 is the library's own default (256 MiB of
 * weighted A* store).
 * Exit status 1 if any answer is illegal, not solved or breaks its
 * bound (gap < 1, or optimal with lower_bound < length).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "puz_pdb.h"
#include "puz_random.h"
#include "puz_solve.h"

struct args {
    unsigned sizes[8], nsizes;
    unsigned budgets[8], nbudgets;
    unsigned count, walk, uniform, quiet, cpu, max_mb;
    uint64_t seed;
    const char *korf24, *cache;
    puz_tables *tables;
};

struct row {
    double len, lb, gap, ratio, cpu;
    unsigned boards, rated, bad;
    uint64_t worst_us;
};

static unsigned parse_list(const char *s, unsigned *out, unsigned max)
{
    unsigned k = 0;
    char *end;

    while (*s && k < max) {
        out[k++] = (unsigned)strtoul(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0')
            break;
    }
    return k;
}

static int parse(int argc, char **argv, struct args *a)
{
    a->nsizes = parse_list("5,6,7,8", a->sizes, 8);
    a->nbudgets = parse_list("1000,10000", a->budgets, 8);
    a->count = 50;
    a->walk = 10000;
    a->seed = 1;
    a->max_mb = 512;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--sizes") == 0 && ++i)
            a->nsizes = parse_list(v, a->sizes, 8);
        else if (strcmp(argv[i], "--budgets") == 0 && ++i)
            a->nbudgets = parse_list(v, a->budgets, 8);
        else if (strcmp(argv[i], "--count") == 0 && ++i)
            a->count = (unsigned)atoi(v);
        else if (strcmp(argv[i], "--walk") == 0 && ++i)
            a->walk = (unsigned)atoi(v);
        else if (strcmp(argv[i], "--seed") == 0 && ++i)
            a->seed = strtoull(v, NULL, 10);
        else if (strcmp(argv[i], "--korf24") == 0 && ++i)
            a->korf24 = v;
        else if (strcmp(argv[i], "--cache") == 0 && ++i)
            a->cache = v;
        else if (strcmp(argv[i], "--max-mb") == 0 && ++i)
            a->max_mb = (unsigned)atoi(v);
        else if (strcmp(argv[i], "--cpu") == 0)
            a->cpu = 1;
        else if (strcmp(argv[i], "--uniform") == 0)
            a->uniform = 1;
        else if (strcmp(argv[i], "--quiet") == 0)
            a->quiet = 1;
        else {
            fprintf(stderr, "usage: large [--sizes 5,6,7,8] [--count 50] "
                    "[--budgets 1000,10000] [--walk 10000 | --uniform] "
                    "[--seed 1] [--korf24 FILE] [--cache DIR] [--cpu] "
                    "[--max-mb 512] [--quiet]\n");
            return -1;
        }
    }
    return 0;
}

/* A uniformly random solvable board: shuffle, fix the parity by
 * swapping two tiles. */
static void uniform_board(unsigned n, struct puz_rng *rng,
                          struct puz_board *b)
{
    struct puz_board goal;
    bool ok;

    puz_board_goal(n, b);
    puz_board_goal(n, &goal);
    for (unsigned i = n * n - 1; i > 0; i--) {
        unsigned j = (unsigned)puz_rng_below(rng, i + 1);
        uint8_t t = b->cells[i];
        b->cells[i] = b->cells[j];
        b->cells[j] = t;
    }
    for (unsigned i = 0; i < n * n; i++)
        if (b->cells[i] == 0)
            b->blank = (uint8_t)i;
    puz_board_solvable(b, &goal, &ok, NULL);
    if (!ok) {
        unsigned x = b->blank == 0 ? 1 : 0, y = b->blank <= 1 ? 2 : 1;
        uint8_t t = b->cells[x];
        b->cells[x] = b->cells[y];
        b->cells[y] = t;
    }
}

/* CPU time of this thread: on a shared machine the wall-clock budget
 * buys less computation than it says. */
static uint64_t cpu_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Solve one board, check it, add it to the row. */
static void one(const struct args *ar, const struct puz_board *b,
                const struct puz_board *goal, unsigned budget_ms,
                unsigned opt, struct row *row)
{
    puz_arena *a = puz_arena_create(1 << 20);
    struct puz_solve_opts o = { 0 };
    struct puz_result r;
    struct puz_board end;
    uint64_t t0 = puz_clock_mono_us(), c0 = cpu_us(), dt, dc;

    o.goal = goal;
    o.tables = ar->tables;
    o.limits.max_bytes = (size_t)ar->max_mb << 20;
    o.limits.deadline_us = (ar->cpu ? c0 : t0) + (uint64_t)budget_ms * 1000u;
    if (ar->cpu)
        o.limits.clock_us = cpu_us;
    puz_solve(b, &o, a, &r);
    dt = puz_clock_mono_us() - t0;
    dc = cpu_us() - c0;
    row->cpu += (double)dc;
    if (ar->cpu)
        dt = dc;    /* "worst ms" on the budget's clock */
    if (r.status != PUZ_SOLVED ||
        puz_replay(b, r.moves, r.length, &end) != PUZ_OK ||
        !puz_board_equal(&end, goal) || r.gap < 1.0 ||
        (r.optimal && r.lower_bound < r.length) ||
        (opt != 0 && r.length < opt) || r.lower_bound > r.length) {
        row->bad++;
        fprintf(stderr, "BAD answer: status %s length %u bound %u\n",
                puz_status_name(r.status), r.length, r.lower_bound);
    }
    row->boards++;
    row->len += r.length;
    row->lb += r.lower_bound;
    row->gap += r.gap;
    if (opt != 0) {
        row->ratio += (double)r.length / opt;
        row->rated++;
    }
    if (dt > row->worst_us)
        row->worst_us = dt;
    if (!ar->quiet)
        fprintf(stderr, "  %ux%u %5u ms: length %4u bound %4u gap %.3f "
                "opt %u %.0f ms %s\n", b->n, b->n, budget_ms, r.length,
                r.lower_bound, r.gap, opt, (double)dt / 1000.0,
                r.method);
    puz_arena_destroy(a);
}

static void print_row(unsigned n, unsigned budget, const char *set,
                      const struct row *r)
{
    double k = r->boards ? r->boards : 1;
    char ratio[32] = "-";

    if (r->rated)
        snprintf(ratio, sizeof(ratio), "%.3f", r->ratio / r->rated);
    printf("| %ux%u | %s | %.1f s | %u | %.1f | %.1f | %.3f | %.3f | "
           "%.0f | %.0f | %s |\n", n, n, set, budget / 1000.0, r->boards,
           r->len / k, r->lb / k, r->gap / k, r->len / (r->lb ? r->lb : 1),
           (double)r->worst_us / 1000.0, r->cpu / k / 1000.0, ratio);
}

/* Korf's goal has the blank first; turned half round and renamed
 * (tile v -> 25 - v) a board keeps its distance to the default goal. */
static void rotate(struct puz_board *b)
{
    struct puz_board r = *b;

    for (unsigned i = 0; i < 25; i++) {
        unsigned v = b->cells[i];
        r.cells[24 - i] = (uint8_t)(v ? 25 - v : 0);
        if (v == 0)
            r.blank = (uint8_t)(24 - i);
    }
    *b = r;
}

static unsigned korf_boards(const char *path, struct puz_board *b,
                            unsigned *opt, unsigned max)
{
    FILE *f = fopen(path, "r");
    char line[512];
    unsigned k = 0;

    if (f == NULL) {
        perror(path);
        return 0;
    }
    while (k < max && fgets(line, sizeof(line), f) != NULL) {
        char *tab = strchr(line, '\t'), *tab2;
        if (tab == NULL || line[0] < '0' || line[0] > '9')
            continue;
        tab2 = strchr(tab + 1, '\t');
        if (tab2 == NULL)
            continue;
        *tab2 = '\0';
        if (puz_board_parse(tab + 1, &b[k], NULL) != PUZ_OK)
            continue;
        rotate(&b[k]);
        opt[k++] = (unsigned)atoi(tab2 + 1);
    }
    fclose(f);
    return k;
}

/* The 5x5 6-6-6-6 set from the cache directory, loaded, never built. */
static int load_tables(struct args *a)
{
    struct puz_board goal;
    char path[4096], name[128], msg[PUZ_MSG_MAX];
    puz_pdb *d;

    puz_board_goal(5, &goal);
    puz_pdb_filename(PUZ_PDB_6666, &goal, name, sizeof(name));
    snprintf(path, sizeof(path), "%s/%s", a->cache, name);
    if (puz_pdb_load(path, PUZ_PDB_6666, &goal, &d, msg) != PUZ_OK) {
        fprintf(stderr, "large: %s: %s\n", path, msg);
        return -1;
    }
    if (puz_tables_create(&a->tables) != PUZ_OK) {
        puz_pdb_destroy(d);
        return -1;
    }
    puz_tables_add_pdb(a->tables, d);
    return 0;
}

int main(int argc, char **argv)
{
    struct args a = { 0 };
    unsigned bad = 0;

    if (parse(argc, argv, &a) != 0)
        return 2;
    if (a.cache != NULL && load_tables(&a) != 0)
        return 2;
    printf("budget clock: %s; memory per solve: %u MiB; 5x5 tables: %s\n\n",
           a.cpu ? "CPU time of the solving thread" : "wall", a.max_mb,
           a.tables ? "6-6-6-6 pattern databases" : "none");
    printf("| size | boards | budget | n | mean length | mean lower bound "
           "| mean gap | length / bound | worst ms | mean cpu ms "
           "| vs optimal |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (unsigned bi = 0; bi < a.nbudgets; bi++)
        for (unsigned si = 0; si < a.nsizes; si++) {
            unsigned n = a.sizes[si];
            struct row row = { 0 };
            struct puz_rng rng;
            struct puz_board goal;
            char set[32];
            puz_rng_seed(&rng, a.seed * 100 + n);
            puz_board_goal(n, &goal);
            if (a.korf24 != NULL && n == 5) {
                static struct puz_board kb[100];
                static unsigned opt[100];
                unsigned k = korf_boards(a.korf24, kb, opt, 100);
                for (unsigned i = 0; i < k && i < a.count; i++)
                    one(&a, &kb[i], &goal, a.budgets[bi], opt[i], &row);
                snprintf(set, sizeof(set), "korf24");
            } else {
                for (unsigned i = 0; i < a.count; i++) {
                    struct puz_board b;
                    if (a.uniform)
                        uniform_board(n, &rng, &b);
                    else
                        puz_random_board(n, a.walk, NULL, NULL, &rng, &b);
                    one(&a, &b, &goal, a.budgets[bi], 0, &row);
                }
                snprintf(set, sizeof(set), a.uniform ? "uniform"
                         : "walk %u", a.walk);
            }
            print_row(n, a.budgets[bi], set, &row);
            fflush(stdout);
            bad += row.bad;
        }
    puz_tables_destroy(a.tables);
    return bad ? 1 : 0;
}
