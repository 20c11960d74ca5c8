/*
 * korf24.c - Korf & Felner's 50 random 24-puzzle instances (goal 0..24,
 * blank first) solved optimally with IDA* and the 5x5 additive 6-6-6-6
 * pattern databases plus the reflected lookup, on one core. Prints per
 * instance the length (checked against the published optimum and by
 * replaying the path), expanded and generated nodes, seconds, generated
 * nodes per second and generated / Korf & Felner's published count, then
 * totals. Their counts are generated nodes (every child but the parent,
 * in every iteration, the last one up to the goal): with their move
 * order and no other pruning this search reproduces them node for node
 * (#38 and #40). Seconds are wall clock; "cpu s" is the process's CPU
 * time, which on a shared machine is the fairer measure of speed (Mgen/s
 * uses it). Exit status 1 if any length or path is wrong.
 *
 * The papers count differently: Korf & Felner generated nodes, Doebbelin
 * et al. and Clausecker expanded ones. With --peers FILE (default
 * tests/data/korf24-peers.tsv; "none" to skip) a last table gives, per
 * instance run and summed over them, our count over each published
 * column, each against its own kind (generated for *_generated columns,
 * expanded for *_expanded ones).
 *
 * usage: korf24 [--data FILE] [--peers FILE|none] [--cache DIR]
 *               [--partition 6-6-6-6|6-6-6-6z|6-6-6-6z2|4x6]
 *               [--ids 38,40 | --all | --easiest N] [--threads N]
 *               [--units-serial] [--walk-order]
 * --threads N: parallel IDA* (issue 30), each iteration cut into at least
 * 16 N units run on N threads (pool_run_units). Every iteration cut into
 * units is also replayed on paper: its units handed out in order to P
 * workers, each taking the next when free (what the shared index does),
 * giving the speedup P cores would reach with these units ("sim P").
 * --units-serial runs the units one after another on this thread (the
 * cut of N threads, one core's time): the unit sizes of 16 or 64 threads
 * measured on a 2-core machine. --walk-order hands each iteration's units
 * out in the order the frontier walk met them, not nearest the goal
 * first (the default), to measure what that order saves.
 * Default: the 10 instances with the fewest published expansions. The
 * tables are loaded from DIR (default pdb-cache) or built there first
 * (minutes, ~0.75 GB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pool_pieces.h"
#include "puz_pdb.h"
#include "puz_solve.h"

#define MAX_INSTANCES 50
#define MAX_PEERS 16

struct instance {
    unsigned id, want;
    unsigned long long published;    /* Korf & Felner's generated nodes */
    struct puz_board board;
};

/* The published counts of korf24-peers.tsv, by instance id. */
struct peers {
    unsigned cols;
    char name[MAX_PEERS][40];            /* header without _expanded etc. */
    int generated[MAX_PEERS];            /* a count of generated nodes */
    double count[MAX_INSTANCES + 1][MAX_PEERS];  /* 0: not published */
};

struct args {
    const char *data, *cache, *ids, *peers;
    enum puz_pdb_partition part;
    unsigned easiest;                /* 0 = all */
    unsigned threads;                /* 0/1 = serial IDA* */
    int units_serial;                /* run = NULL */
    int walk_order;                  /* units_walk_order */
};

/* The on-paper schedules: nodes of the whole search, and of the longest
 * worker per iteration for each P. */
#define NSIM 4
static const unsigned sim_p[NSIM] = { 2, 4, 16, 64 };
struct sim {
    double total, span[NSIM];
    double units, iterations, max_over_mean;
};

static void on_units(const struct puz_units_report *r, void *user)
{
    struct sim *m = user;
    double sum = 0, mx = 0;

    for (unsigned k = 0; k < r->n; k++) {
        sum += (double)r->expanded[k];
        if ((double)r->expanded[k] > mx)
            mx = (double)r->expanded[k];
    }
    m->total += (double)r->frontier_expanded + sum;
    m->units += r->n;
    m->iterations++;
    if (sum > 0 && mx / (sum / r->n) > m->max_over_mean)
        m->max_over_mean = mx / (sum / r->n);
    for (unsigned p = 0; p < NSIM; p++) {
        double w[64] = { 0 }, span = 0;
        for (unsigned k = 0; k < r->n; k++) {
            unsigned best = 0;
            for (unsigned i = 1; i < sim_p[p]; i++)
                if (w[i] < w[best])
                    best = i;
            w[best] += (double)r->expanded[k];
        }
        for (unsigned i = 0; i < sim_p[p]; i++)
            if (w[i] > span)
                span = w[i];
        m->span[p] += (double)r->frontier_expanded + span;
    }
}

struct totals {
    double seconds, cpu;
    uint64_t generated, expanded;
    unsigned long long published;
    unsigned solved, bad;
    unsigned runs;                       /* instances in run[] */
    struct { unsigned id; uint64_t generated, expanded; } run[MAX_INSTANCES];
};

static void progress(const struct puz_pdb_progress *p, void *user)
{
    (void)user;
    if (p->kind == PUZ_PDB_EV_NOTE)
        fprintf(stderr, "%s\n", p->msg);
    else if (p->kind == PUZ_PDB_EV_GROUP_DONE)
        fprintf(stderr, "  built %s table %u/%u (%u tiles) in %.1f s\n",
                p->partition, p->group, p->groups, p->tiles, p->seconds);
}

static unsigned load_instances(const char *path, struct instance *in)
{
    FILE *f = fopen(path, "r");
    char line[512], msg[PUZ_MSG_MAX];
    unsigned n = 0;

    if (f == NULL) {
        perror(path);
        return 0;
    }
    while (n < MAX_INSTANCES && fgets(line, sizeof(line), f) != NULL) {
        char *tiles = strchr(line, '\t'), *len, *pub;
        if (tiles == NULL || atoi(line) <= 0)
            continue;
        len = strchr(tiles + 1, '\t');
        if (len == NULL || (pub = strchr(len + 1, '\t')) == NULL)
            continue;
        *len = '\0';
        if (puz_board_parse(tiles + 1, &in[n].board, msg) != PUZ_OK) {
            fprintf(stderr, "%s: bad board: %s\n", path, msg);
            continue;
        }
        in[n].id = (unsigned)atoi(line);
        in[n].want = (unsigned)atoi(len + 1);
        in[n].published = strtoull(pub + 1, NULL, 10);
        n++;
    }
    fclose(f);
    return n;
}

/* Reads FILE's header (id, length, then one column per published search)
 * and rows; lines starting with '#' are comments. 0 on success. */
static int load_peers(const char *path, struct peers *pe)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int header = 0;

    if (f == NULL) {
        perror(path);
        return -1;
    }
    memset(pe, 0, sizeof(*pe));
    while (fgets(line, sizeof(line), f) != NULL) {
        char *save = NULL, *tok = strtok_r(line, "\t\n", &save);
        unsigned col = 0, id;
        if (tok == NULL || tok[0] == '#')
            continue;
        if (!header) {
            header = 1;
            strtok_r(NULL, "\t\n", &save);          /* length */
            while ((tok = strtok_r(NULL, "\t\n", &save)) != NULL &&
                   pe->cols < MAX_PEERS) {
                char *kind = strrchr(tok, '_');
                pe->generated[pe->cols] =
                    kind != NULL && strcmp(kind, "_generated") == 0;
                if (kind != NULL && (pe->generated[pe->cols] ||
                                     strcmp(kind, "_expanded") == 0))
                    *kind = '\0';
                snprintf(pe->name[pe->cols++], sizeof(pe->name[0]), "%s",
                         tok);
            }
            continue;
        }
        id = (unsigned)atoi(tok);
        if (id == 0 || id > MAX_INSTANCES ||
            strtok_r(NULL, "\t\n", &save) == NULL)
            continue;
        while (col < pe->cols &&
               (tok = strtok_r(NULL, "\t\n", &save)) != NULL)
            pe->count[id][col++] = strtod(tok, NULL);
    }
    fclose(f);
    return header ? 0 : -1;
}

/* Our count over each published one, per instance and summed over the
 * instances that have it. */
static void report_peers(const struct peers *pe, const struct totals *t)
{
    double ours[MAX_PEERS] = { 0 }, theirs[MAX_PEERS] = { 0 };

    printf("== ours / published (generated against *_generated columns, "
           "expanded against *_expanded)\n  id");
    for (unsigned c = 0; c < pe->cols; c++)
        printf("  %s", pe->name[c]);
    printf("\n");
    for (unsigned i = 0; i < t->runs; i++) {
        printf("%4u", t->run[i].id);
        for (unsigned c = 0; c < pe->cols; c++) {
            double p = pe->count[t->run[i].id][c];
            double o = (double)(pe->generated[c] ? t->run[i].generated
                                                 : t->run[i].expanded);
            int w = (int)strlen(pe->name[c]) + 2;
            if (p <= 0) {
                printf("%*s", w, "-");
                continue;
            }
            ours[c] += o;
            theirs[c] += p;
            printf("%*.3f", w, o / p);
        }
        printf("\n");
    }
    printf(" sum");
    for (unsigned c = 0; c < pe->cols; c++)
        printf("%*.3f", (int)strlen(pe->name[c]) + 2,
               theirs[c] > 0 ? ours[c] / theirs[c] : 0.0);
    printf("\nsums over these instances (published):");
    for (unsigned c = 0; c < pe->cols; c++)
        printf(" %s %.4g%s", pe->name[c], theirs[c],
               c + 1 < pe->cols ? "," : "\n");
    printf("sums over these instances (ours): expanded %.4g, generated "
           "%.4g\n", (double)t->expanded, (double)t->generated);
}

static int by_published(const void *a, const void *b)
{
    const struct instance *x = a, *y = b;

    return x->published < y->published ? -1 : x->published > y->published;
}

/* Keep the instances named in ids ("38,40"), in that order. */
static unsigned pick_ids(const char *ids, struct instance *in, unsigned n)
{
    struct instance all[MAX_INSTANCES];
    unsigned out = 0;
    const char *p = ids;

    memcpy(all, in, n * sizeof(*in));
    while (*p != '\0' && out < MAX_INSTANCES) {
        unsigned id = (unsigned)strtoul(p, NULL, 10);
        for (unsigned i = 0; i < n; i++)
            if (all[i].id == id)
                in[out++] = all[i];
        p += strcspn(p, ",");
        p += *p == ',';
    }
    return out;
}

static double cpu_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Solve one instance and check it; returns 1 when something is wrong. */
static int run_one(const struct instance *in, const struct puz_solve_opts *o,
                   puz_arena *a, struct totals *t)
{
    struct puz_result r;
    struct puz_board end;
    double s, cpu = cpu_seconds();
    struct sim m = { 0 };
    struct puz_solve_opts oo = *o;
    int bad;

    puz_arena_reset(a);
    oo.units_user = &m;
    o = &oo;
    if (puz_solve(&in->board, o, a, &r) != PUZ_OK) {
        printf("%3u  error: %s\n", in->id, r.reason);
        return 1;
    }
    bad = r.status != PUZ_SOLVED || r.length != in->want ||
          puz_replay(&in->board, r.moves, r.length, &end) != PUZ_OK ||
          !puz_board_equal(&end, o->goal);
    s = (double)r.stats.time_us / 1e6;
    cpu = cpu_seconds() - cpu;
    t->seconds += s;
    t->cpu += cpu;
    t->generated += r.stats.generated;
    t->expanded += r.stats.expanded;
    t->published += in->published;
    t->solved += !bad;
    t->run[t->runs].id = in->id;
    t->run[t->runs].generated = r.stats.generated;
    t->run[t->runs++].expanded = r.stats.expanded;
    printf("%3u  %3u %3u%s  %14llu  %14llu  %9.1f  %8.1f  %6.2f  %6.3f\n",
           in->id, r.length, in->want, bad ? " WRONG" : "",
           (unsigned long long)r.stats.expanded,
           (unsigned long long)r.stats.generated, s, cpu,
           cpu > 0 ? (double)r.stats.generated / cpu / 1e6 : 0.0,
           (double)r.stats.generated / (double)in->published);
    if (m.iterations > 0) {
        printf("     units: %.0f in %.0f iterations, largest/mean %.1f; "
               "sim speedup", m.units, m.iterations, m.max_over_mean);
        for (unsigned p = 0; p < NSIM; p++)
            printf(" P=%u %.2f", sim_p[p], m.span[p] > 0
                   ? m.total / m.span[p] : 0.0);
        printf("\n");
    }
    fflush(stdout);
    return bad;
}

static void report(const struct totals *t, unsigned n, double table_s,
                   int built, size_t bytes)
{
    printf("total: %u instances, %u optimal and replayed, %u wrong\n", n,
           t->solved, t->bad);
    printf("total: %.1f s wall, %.1f s CPU, expanded %llu, generated %llu, "
           "%.2f M generated/s (CPU), generated / published %.3f\n",
           t->seconds, t->cpu, (unsigned long long)t->expanded,
           (unsigned long long)t->generated,
           t->cpu > 0 ? (double)t->generated / t->cpu / 1e6 : 0.0,
           (double)t->generated / (double)t->published);
    printf("tables %s in %.1f s, %.1f MB\n", built ? "built" : "loaded",
           table_s, (double)bytes / 1e6);
}

static int bench(const struct args *ar, const struct instance *in,
                 unsigned n, const struct peers *pe)
{
    struct puz_pdb_opts po = { 2, progress, NULL, pool_run_pieces, NULL };
    struct puz_solve_opts o = { 0 };
    struct puz_board goal;
    struct totals t = { 0 };
    puz_tables *tables = NULL;
    puz_pdb *d;
    puz_arena *a;
    char msg[PUZ_MSG_MAX];
    uint64_t t0 = puz_clock_mono_us();

    puz_board_parse("0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 "
                    "21 22 23 24", &goal, msg);
    if (puz_pdb_open(ar->cache, ar->part, &goal, &po, &d, msg) != PUZ_OK) {
        fprintf(stderr, "korf24: tables: %s\n", msg);
        return 1;
    }
    double table_s = (double)(puz_clock_mono_us() - t0) / 1e6;
    int built = puz_pdb_build_seconds(d) > 0;
    size_t bytes = puz_pdb_bytes(d);
    if (puz_tables_create(&tables) != PUZ_OK ||
        puz_tables_add_pdb(tables, d) != PUZ_OK) {
        /* the bundle owns d from the add on, also when it fails */
        fprintf(stderr, "korf24: tables: %s cannot serve on its own (a "
                "second partition's set: use its pair, e.g. 6-6-6-6z2)\n",
                puz_pdb_partition_name(ar->part));
        puz_tables_destroy(tables);
        return 1;
    }
    a = puz_arena_create(1 << 16);
    o.algorithm = PUZ_ALG_IDASTAR;
    o.heuristic = puz_heuristic_find("pdb");
    o.goal = &goal;
    o.tables = tables;
    if (ar->threads > 1) {
        o.threads = ar->threads;
        o.run = ar->units_serial ? NULL : pool_run_units;
        o.run_user = (void *)&ar->threads;
        o.units = on_units;
        o.units_walk_order = ar->walk_order != 0;
    }
    printf("== %s + reflection, IDA*, %u thread(s)%s%s\n"
           " id  len opt  %14s  %14s  %9s  %8s  %6s  %6s\n",
           puz_pdb_partition_name(ar->part),
           ar->threads > 1 ? ar->threads : 1,
           ar->units_serial ? ", units run serially" : "",
           ar->threads > 1 && ar->walk_order ? ", units in walk order"
                                             : "",
           "expanded", "generated",
           "seconds", "cpu s", "Mgen/s", "gen/KF");
    for (unsigned i = 0; i < n; i++)
        t.bad += (unsigned)run_one(&in[i], &o, a, &t);
    report(&t, n, table_s, built, bytes);
    if (pe != NULL)
        report_peers(pe, &t);
    puz_arena_destroy(a);
    puz_tables_destroy(tables);
    return t.bad != 0;
}

static int parse(int argc, char **argv, struct args *ar)
{
    ar->data = "tests/data/korf24.tsv";
    ar->peers = "tests/data/korf24-peers.tsv";
    ar->cache = "pdb-cache";
    ar->part = PUZ_PDB_6666;
    ar->easiest = 10;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--all") == 0) {
            ar->easiest = 0;
            continue;
        }
        if (strcmp(argv[i], "--units-serial") == 0) {
            ar->units_serial = 1;
            continue;
        }
        if (strcmp(argv[i], "--walk-order") == 0) {
            ar->walk_order = 1;
            continue;
        }
        if (v == NULL)
            return -1;
        if (strcmp(argv[i], "--data") == 0)
            ar->data = v;
        else if (strcmp(argv[i], "--peers") == 0)
            ar->peers = v;
        else if (strcmp(argv[i], "--cache") == 0)
            ar->cache = v;
        else if (strcmp(argv[i], "--ids") == 0)
            ar->ids = v;
        else if (strcmp(argv[i], "--easiest") == 0)
            ar->easiest = (unsigned)atoi(v);
        else if (strcmp(argv[i], "--threads") == 0)
            ar->threads = (unsigned)atoi(v);
        else if (strcmp(argv[i], "--partition") != 0 ||
                 puz_pdb_partition_parse(v, &ar->part) != PUZ_OK ||
                 puz_pdb_partition_size(ar->part) != 5)
            return -1;
        i++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static struct instance in[MAX_INSTANCES];
    static struct peers pe;
    struct args ar = { 0 };
    unsigned n;

    if (parse(argc, argv, &ar) != 0) {
        fprintf(stderr, "usage: korf24 [--data FILE] [--peers FILE|none] "
                "[--cache DIR] "
                "[--partition 6-6-6-6|6-6-6-6z|6-6-6-6z2|4x6] [--ids 38,40 | --all | "
                "--easiest N] [--threads N] [--units-serial] "
                "[--walk-order]\n");
        return 2;
    }
    n = load_instances(ar.data, in);
    if (n == 0)
        return 2;
    if (ar.ids != NULL) {
        n = pick_ids(ar.ids, in, n);
    } else {
        qsort(in, n, sizeof(in[0]), by_published);
        if (ar.easiest != 0 && ar.easiest < n)
            n = ar.easiest;
    }
    if (n == 0)
        return 2;
    if (strcmp(ar.peers, "none") != 0 && load_peers(ar.peers, &pe) != 0)
        return 2;
    return bench(&ar, in, n, strcmp(ar.peers, "none") != 0 ? &pe : NULL);
}
