/*
 * pdb_cmd.c - `puzzled pdb`: build a 4x4 or 5x5 pattern database explicitly
 * (with a progress line on stderr) and save it, or check a saved file.
 * Also cli_pdb_tables_for(), which `solve` uses to load or build the
 * tables a goal needs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_pdb.h"
#include "http_config.h"
#include "pool_pieces.h"

struct build_args {
    enum puz_pdb_partition part;
    struct puz_board goal;
    const struct puz_board *goalp;
    const char *out;
    unsigned threads;
    bool pick;              /* --partition auto */
    size_t budget;          /* --budget; 0: not given */
};


static void usage(FILE *f)
{
    fprintf(f,
        "usage: puzzled pdb build [--partition 6-6-3|7-8|6-6-6-6|6-6-6-6z|"
        "6-6-6-6z2|4x6|auto]\n"
        "                         [--goal G]"
        " [--out FILE] [--threads N] [--budget SIZE]\n"
        "       puzzled pdb verify FILE\n"
        "       puzzled pdb choose [--budget SIZE]\n"
        "  build     build pattern databases and save them (default\n"
        "            6-6-3, 4x4, seconds; 7-8 takes minutes and ~1.3 GB;\n"
        "            6-6-6-6 is the 5x5 set: minutes, ~0.75 GB, 128 MB "
        "file;\n"
        "            6-6-6-6z the same groups zero-aware: ~3 min, ~1 GB,\n"
        "            330 MB file, fewer nodes (docs/pdb.md); 6-6-6-6z2\n"
        "            adds a second partition's two groups (6-6-6-6zb,\n"
        "            ~1.5 min, 231 MB file) and takes the larger sum:\n"
        "            fewer nodes again at about the same CPU, 564 MB,\n"
        "            kept as the two files in the cache (no --out);\n"
        "            4x6 a weak 5x5 set built in a second)\n"
        "  --partition auto  the strongest 5x5 set whose build fits\n"
        "            --budget (default 1280m), as the server's\n"
        "            pdb_5x5 = auto with the same pdb_budget chooses\n"
        "  --budget SIZE  the most the build may hold (k, m or g suffix;\n"
        "            tables plus search state, docs/pdb.md); a named\n"
        "            partition whose build needs more is refused\n"
        "  --partition RxC  a rectangle's set (2x5, 2x6, 3x4, 2x7, 3x5,\n"
        "            2x8; or RxC:groups, e.g. 3x5:6-6-2): seconds, at most\n"
        "            6 MB; it serves the transposed shape too, for goals\n"
        "            with the blank in a corner\n"
        "  --goal G  goal the tables are for (default 1..N, blank last);\n"
        "            one file serves every goal whose blank is in the same\n"
        "            kind of cell: corner, edge or centre (5x5: corner "
        "only)\n"
        "  --out F   file to write (default %s/<name>, the cache the\n"
        "            service and `solve` read; PUZZLED_PDB_DIR overrides)\n"
        "  verify    check a file's header, sizes and checksums\n"
        "  choose    print the set --partition auto takes, building\n"
        "            nothing\n",
        CLI_PDB_DEFAULT_DIR);
}

static const char *cache_dir(void)
{
    const char *d = getenv("PUZZLED_PDB_DIR");

    return d != NULL && d[0] != '\0' ? d : CLI_PDB_DEFAULT_DIR;
}

/* One line kept up to date on a terminal; in a log, a line per finished
 * group and at most one every 10 s in between. user: last line's time. */
static void progress(const struct puz_pdb_progress *p, void *user)
{
    double *last = user;
    int tty = isatty(STDERR_FILENO);
    int done = p->kind == PUZ_PDB_EV_GROUP_DONE;

    if (p->kind == PUZ_PDB_EV_NOTE) {
        fprintf(stderr, "%s%s\n", tty ? "\r\033[K" : "", p->msg);
        return;
    }
    if (!tty && !done && p->seconds < *last + 10.0)
        return;
    *last = p->seconds;
    fprintf(stderr, "%spdb %s: group %u/%u (%u tiles): depth %u, %5.1f%% "
            "placed, %.1f s%s", tty ? "\r\033[K" : "", p->partition,
            p->group, p->groups, p->tiles, p->depth,
            100.0 * (double)p->placed / (double)p->placements, p->seconds,
            done || !tty ? "\n" : "");
}

/* The options of `pdb build` usage() tells of but --help, which cli_parse
 * adds. */
static const struct option options[] = {
    { "partition", required_argument, NULL, 'p' },
    { "goal", required_argument, NULL, 'g' },
    { "out", required_argument, NULL, 'o' },
    { "threads", required_argument, NULL, 'j' },
    { "budget", required_argument, NULL, 'b' },
};

/* --budget: read as the server reads pdb_budget (the same suffixes and
 * bounds), so that `--partition auto` builds what `pdb_5x5 = auto`
 * would load; the server's default when arg is NULL. 0 when it is not
 * a size, or is 0. */
static size_t budget_of(const char *arg)
{
    struct http_config c;
    char msg[HTTP_CONFIG_MSG];

    http_config_defaults(&c);
    if (arg != NULL && http_config_set(&c, "pdb_budget", arg, msg) != PUZ_OK)
        return 0;
    return c.pdb_budget;
}

/* One option of `pdb build` (cli_parse): 0 or an exit code. */
static int build_option(void *user, int c, const char *arg)
{
    struct build_args *ba = user;

    switch (c) {
    case 'p':
        ba->pick = strcmp(arg, "auto") == 0;
        if (ba->pick || puz_pdb_partition_parse(arg, &ba->part) == PUZ_OK)
            return 0;
        fprintf(stderr, "puzzled: --partition is 6-6-3, 7-8, 6-6-6-6, "
                "6-6-6-6z, 6-6-6-6z2, 4x6, auto or a rectangle's shape "
                "(2x5, 2x6, 3x4, 2x7, 3x5, 2x8 or its transpose), not "
                "'%s'\n", arg);
        return CLI_EXIT_USAGE;
    case 'b':
        ba->budget = budget_of(arg);
        if (ba->budget != 0)
            return 0;
        fprintf(stderr, "puzzled: --budget is a size such as 1280m or "
                "2g, not '%s'\n", arg);
        return CLI_EXIT_USAGE;
    case 'g':
        if (cli_board_arg("--goal", arg, &ba->goal) != 0)
            return CLI_EXIT_USAGE;
        ba->goalp = &ba->goal;
        return 0;
    case 'o': ba->out = arg; return 0;
    case 'j': ba->threads = (unsigned)strtoul(arg, NULL, 10); return 0;
    default: return 0;      /* cli_parse hands over options' only */
    }
}

/* `pdb build` takes no operand (.operands NULL). */
static const struct cli_command build_command = {
    .options = options, .noptions = sizeof(options) / sizeof(options[0]),
    .option = build_option, .usage = usage,
};

/* A pair is its two sets' files in the cache: each loaded or built and
 * saved there by puz_pdb_open. */
static int build_pair(const struct build_args *ba,
                      const struct puz_pdb_opts *o)
{
    char msg[PUZ_MSG_MAX];
    puz_pdb *d;

    if (ba->out != NULL) {
        fprintf(stderr, "puzzled: %s is kept as two files in the cache "
                "(%s); --out does not apply\n",
                puz_pdb_partition_name(ba->part), cache_dir());
        return CLI_EXIT_USAGE;
    }
    if (mkdir(cache_dir(), 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "puzzled: cannot create %s: %s\n", cache_dir(),
                strerror(errno));
        return CLI_EXIT_USAGE;
    }
    if (puz_pdb_open(cache_dir(), ba->part, ba->goalp, o, &d, msg) !=
        PUZ_OK) {
        fprintf(stderr, "puzzled: %s\n", msg);
        return CLI_EXIT_LIMIT;
    }
    printf("%s tables ready in %s (two files), %.1f MB",
           puz_pdb_partition_name(ba->part), cache_dir(),
           (double)puz_pdb_bytes(d) / 1e6);
    if (puz_pdb_build_seconds(d) > 0)
        printf(", built in %.1f s\n", puz_pdb_build_seconds(d));
    else
        printf(", already cached\n");
    puz_pdb_destroy(d);
    return CLI_EXIT_OK;
}

/* --partition auto: the set the budget allows; a named one must fit a
 * --budget given. 0 or an exit code. */
static int apply_budget(struct build_args *ba)
{
    size_t budget = ba->budget != 0 ? ba->budget : budget_of(NULL), build;

    if (ba->pick &&
        puz_pdb_strongest_5x5(budget, &ba->part) != PUZ_OK) {
        (void)puz_pdb_partition_memory(ba->part, NULL, &build);
        fprintf(stderr, "puzzled: no 5x5 set's build fits --budget %zu "
                "(the smallest, %s, needs %.1f MB)\n", budget,
                puz_pdb_partition_name(ba->part), (double)build / 1e6);
        return CLI_EXIT_USAGE;
    }
    (void)puz_pdb_partition_memory(ba->part, NULL, &build);
    if (ba->pick) {
        fprintf(stderr, "auto: %s, the strongest 5x5 set whose build "
                "(%.1f MB) fits the budget (%.1f MB)\n",
                puz_pdb_partition_name(ba->part), (double)build / 1e6,
                (double)budget / 1e6);
    } else if (ba->budget != 0 && build > ba->budget) {
        fprintf(stderr, "puzzled: building %s holds %.1f MB, over --budget "
                "(%.1f MB)\n", puz_pdb_partition_name(ba->part),
                (double)build / 1e6, (double)ba->budget / 1e6);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int build_main(int argc, char **argv)
{
    struct build_args ba = { PUZ_PDB_663, { 0 }, NULL, NULL, 2, false, 0 };
    double last = 0;
    struct puz_pdb_opts o = { 0, progress, &last, pool_run_pieces, NULL };
    char name[128], path[4096], msg[PUZ_MSG_MAX];
    puz_pdb *d;
    int rc;

    if (!cli_parse(argc, argv, &build_command, &ba, &rc))
        return rc;
    rc = apply_budget(&ba);
    if (rc != 0)
        return rc;
    if (ba.goalp != NULL && puz_pdb_partition_rect(ba.part) &&
        !puz_pdb_partition_serves(ba.part, ba.goalp)) {
        fprintf(stderr, "puzzled: --goal must be a %ux%u or %ux%u board "
                "with the blank in a corner for %s\n",
                puz_pdb_partition_rows(ba.part),
                puz_pdb_partition_size(ba.part),
                puz_pdb_partition_size(ba.part),
                puz_pdb_partition_rows(ba.part),
                puz_pdb_partition_name(ba.part));
        return CLI_EXIT_USAGE;
    }
    if (ba.goalp != NULL && !puz_pdb_partition_rect(ba.part) &&
        ba.goal.n != puz_pdb_partition_size(ba.part)) {
        fprintf(stderr, "puzzled: --goal must be a %ux%u board for %s\n",
                puz_pdb_partition_size(ba.part),
                puz_pdb_partition_size(ba.part),
                puz_pdb_partition_name(ba.part));
        return CLI_EXIT_USAGE;
    }
    o.threads = ba.threads;
    if (puz_pdb_partition_pair(ba.part, NULL, NULL))
        return build_pair(&ba, &o);
    puz_pdb_filename(ba.part, ba.goalp, name, sizeof(name));
    if (ba.out == NULL) {
        if (mkdir(cache_dir(), 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "puzzled: cannot create %s: %s\n", cache_dir(),
                    strerror(errno));
            return CLI_EXIT_USAGE;
        }
        snprintf(path, sizeof(path), "%s/%s", cache_dir(), name);
        ba.out = path;
    }
    if (puz_pdb_build(ba.part, ba.goalp, &o, &d, msg) != PUZ_OK) {
        fprintf(stderr, "puzzled: %s\n", msg);
        return CLI_EXIT_LIMIT;
    }
    rc = puz_pdb_save(d, ba.out, msg) == PUZ_OK ? CLI_EXIT_OK
                                                  : CLI_EXIT_LIMIT;
    if (rc == CLI_EXIT_OK)
        printf("wrote %s: %s tables, %.1f MB, built in %.1f s\n", ba.out,
               puz_pdb_partition_name(ba.part),
               (double)puz_pdb_bytes(d) / 1e6, puz_pdb_build_seconds(d));
    else
        fprintf(stderr, "puzzled: %s\n", msg);
    puz_pdb_destroy(d);
    return rc;
}

/* `pdb choose [--budget SIZE]`: the set `--partition auto` (and the
 * server's pdb_5x5 = auto) takes, on stdout, nothing built. */
static int choose_main(int argc, char **argv)
{
    struct build_args ba = { PUZ_PDB_663, { 0 }, NULL, NULL, 2, true, 0 };
    size_t tables = 0, build = 0;
    const char *arg = NULL;

    if (argc == 3 && strcmp(argv[1], "--budget") == 0)
        arg = argv[2];
    else if (argc == 2 && strncmp(argv[1], "--budget=", 9) == 0)
        arg = argv[1] + 9;
    else if (argc != 1) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (arg != NULL && build_option(&ba, 'b', arg) != 0)
        return CLI_EXIT_USAGE;
    if (ba.budget == 0)
        ba.budget = budget_of(NULL);
    if (puz_pdb_strongest_5x5(ba.budget, &ba.part) != PUZ_OK) {
        (void)puz_pdb_partition_memory(ba.part, NULL, &build);
        fprintf(stderr, "puzzled: no 5x5 set's build fits %zu bytes (the "
                "smallest, %s, needs %.1f MB)\n", ba.budget,
                puz_pdb_partition_name(ba.part), (double)build / 1e6);
        return CLI_EXIT_USAGE;
    }
    (void)puz_pdb_partition_memory(ba.part, &tables, &build);
    printf("%s: the strongest 5x5 set whose build (%.1f MB, %.1f MB kept) "
           "fits %.1f MB\n", puz_pdb_partition_name(ba.part),
           (double)build / 1e6, (double)tables / 1e6,
           (double)ba.budget / 1e6);
    return CLI_EXIT_OK;
}

static int verify_main(int argc, char **argv)
{
    char msg[PUZ_MSG_MAX], goal[3 * PUZ_MAX_CELLS];
    puz_pdb *d;

    if (argc != 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (puz_pdb_load(argv[1], -1, NULL, &d, msg) != PUZ_OK) {
        printf("%s: rejected: %s\n", argv[1], msg);
        return CLI_EXIT_UNSOLVABLE;
    }
    puz_board_format(puz_pdb_goal(d), goal, sizeof(goal));
    printf("%s: ok: %s tables, %.1f MB, for goals like \"%s\"\n", argv[1],
           puz_pdb_partition_name(puz_pdb_partition(d)),
           (double)puz_pdb_bytes(d) / 1e6, goal);
    puz_pdb_destroy(d);
    return CLI_EXIT_OK;
}

int cli_pdb_main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "build") == 0)
        return build_main(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "verify") == 0)
        return verify_main(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "choose") == 0)
        return choose_main(argc - 1, argv + 1);
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
                      strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    usage(stderr);
    return CLI_EXIT_USAGE;
}

static int cached(enum puz_pdb_partition part, const struct puz_board *goal)
{
    char name[128], path[4096];

    puz_pdb_filename(part, goal, name, sizeof(name));
    snprintf(path, sizeof(path), "%s/%s", cache_dir(), name);
    return access(path, F_OK) == 0;
}

/* The 7-8 set only if it is already cached: building it takes minutes. */
static puz_err open_4x4(const struct puz_board *goal, puz_pdb **out,
                        char *msg)
{
    double last = 0;
    struct puz_pdb_opts o = { 0, progress, &last, pool_run_pieces, NULL };

    if (cached(PUZ_PDB_78, goal) &&
        puz_pdb_open(cache_dir(), PUZ_PDB_78, goal, &o, out, msg) == PUZ_OK)
        return PUZ_OK;
    if (!cached(PUZ_PDB_663, goal))
        fprintf(stderr, "puzzled: building 6-6-3 pattern databases for "
                "this goal into %s (about 5 s, once)\n", cache_dir());
    return puz_pdb_open(cache_dir(), PUZ_PDB_663, goal, &o, out, msg);
}

/* 5x5: the pair 6-6-6-6z2 when both its sets are cached, else the
 * zero-aware 6-6-6-6z set when it is (both built only on request: `pdb
 * build --partition 6-6-6-6z2`), else the 6-6-6-6 set,
 * built on first use only when the pdb heuristic was asked for by name
 * (minutes); otherwise only if already cached. *out stays NULL when
 * there is nothing to load. */
static puz_err open_5x5(const struct puz_board *goal, bool asked,
                        bool dflt, puz_pdb **out, char *msg)
{
    double last = 0;
    struct puz_pdb_opts o = { 0, progress, &last, pool_run_pieces, NULL };

    *out = NULL;
    if (cached(PUZ_PDB_6666Z, goal) && cached(PUZ_PDB_6666ZB, goal) &&
        puz_pdb_open(cache_dir(), PUZ_PDB_6666Z2, goal, &o, out, msg) ==
        PUZ_OK)
        return PUZ_OK;
    if (cached(PUZ_PDB_6666Z, goal) &&
        puz_pdb_open(cache_dir(), PUZ_PDB_6666Z, goal, &o, out, msg) ==
        PUZ_OK)
        return PUZ_OK;
    if (!cached(PUZ_PDB_6666, goal)) {
        if (!asked) {
            if (!dflt)          /* another heuristic was named */
                return PUZ_OK;
            fprintf(stderr, "puzzled: note: no 5x5 pattern databases in "
                    "%s, so this search uses linear conflict; build them "
                    "once with `puzzled pdb build --partition 6-6-6-6` "
                    "(~2 min, ~0.75 GB), pass -H pdb, or let `make run` "
                    "build them in the background\n", cache_dir());
            return PUZ_OK;
        }
        fprintf(stderr, "puzzled: building the 6-6-6-6 pattern databases "
                "into %s (minutes and ~0.75 GB, once)\n", cache_dir());
    }
    return puz_pdb_open(cache_dir(), PUZ_PDB_6666, goal, &o, out, msg);
}

/* A rectangle's set: from the cache, or built into it (seconds). */
static puz_err open_rect(enum puz_pdb_partition part,
                         const struct puz_board *goal, puz_pdb **out,
                         char *msg)
{
    double last = 0;
    struct puz_pdb_opts o = { 0, progress, &last, pool_run_pieces, NULL };

    if (!cached(part, goal))
        fprintf(stderr, "puzzled: building %s pattern databases into %s "
                "(seconds, once)\n", puz_pdb_partition_name(part),
                cache_dir());
    return puz_pdb_open(cache_dir(), part, goal, &o, out, msg);
}

/* The set for goal of start's shape, built or loaded, added to t (none
 * added when no set serves goal). */
static puz_err open_for(const struct puz_board *start,
                        const struct puz_board *goal,
                        const struct puz_solve_opts *o, puz_tables *t,
                        char *msg)
{
    const puz_heuristic *pdb = puz_heuristic_find("pdb");
    enum puz_pdb_partition part;
    puz_pdb *d = NULL;
    puz_err rc;

    /* a rectangle up to 16 cells reads its own tables */
    if (!puz_board_square(start)) {
        if (!puz_pdb_rect_partition(goal, &part))
            return PUZ_OK;
        rc = open_rect(part, goal, &d, msg);
    } else if (start->n == 3) {
        return puz_tables_add_3x3(t);
    } else if (start->n == 4) {
        rc = open_4x4(goal, &d, msg);
    } else if (puz_pdb_partition_serves(PUZ_PDB_6666, goal) &&
               (o->heuristic == pdb || o->algorithm != PUZ_ALG_AUTO)) {
        rc = open_5x5(goal, o->heuristic == pdb, o->heuristic == NULL, &d,
                      msg);
    } else {
        return PUZ_OK;
    }
    if (rc == PUZ_OK && d != NULL)
        rc = puz_tables_add_pdb(t, d);
    return rc;
}

puz_tables *cli_pdb_tables_for(const struct puz_board *start,
                               const struct puz_solve_opts *o)
{
    struct puz_board dflt;
    const struct puz_board *goal = o->goal;
    char msg[PUZ_MSG_MAX] = "";
    puz_tables *t = NULL;
    puz_err rc;

    /* squares of 3 to 5 and rectangles have tables */
    if ((puz_board_square(start) && (start->n < 3 || start->n > 5))
        || !puz_algorithm_uses_tables(o->algorithm, o->heuristic, start->n))
        return NULL;
    if (goal == NULL && puz_board_goal_of(start, &dflt) == PUZ_OK)
        goal = &dflt;
    if (goal == NULL || !puz_board_same_shape(goal, start) ||
        puz_tables_create(&t))
        return NULL;
    rc = open_for(start, goal, o, t, msg);
    if (rc != PUZ_OK) {
        fprintf(stderr, "puzzled: going on without pattern databases: "
                "%s\n", msg[0] ? msg : puz_strerror(rc));
        puz_tables_destroy(t);
        return NULL;
    }
    return t;
}
