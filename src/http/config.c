/*
 * config.c - the settings of `puzzled serve`: one table of keys (these
 * rows and the API's, include/conf_key.h) drives the defaults, the config
 * file parser, the PUZZLED_* environment, the --flags, the --help text
 * and the reference --print-defaults prints for config/puzzled.conf,
 * docs/operations.md and man/puzzled.conf.5, so none can disagree.
 */
#include "http_config.h"
#include "store.h"     /* the daily caps' defaults */
#include "conf_key.h"

#include <ctype.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OFF(f) offsetof(struct http_config, f)
#define STR(f) .kind = CONF_STR, .off = OFF(f), \
               .len = sizeof(((struct http_config *)0)->f)
#define NUM(k, f) .kind = k, .off = OFF(f)

/*
 * The server's own keys; the API's limits are rows of src/api/limits.c,
 * taken in below (api_limits_keys). A key is one row: its default, range
 * and doc are written nowhere else (the docs and config/puzzled.conf are
 * printed from here by `make config-docs`).
 */
static const struct conf_key own[] = {
    /* --- listening and connections --- */
    { "bind", STR(bind), .section = CONF_SEC_LISTEN, .def_str = "127.0.0.1",
      .values = "numeric IPv4 or IPv6 address",
      .help = "numeric IPv4/IPv6 address to listen on" },
    { "port", NUM(CONF_UINT, port), .section = CONF_SEC_LISTEN, .max = 65535,
      .def = 8080, .help = "TCP port; 0 picks a free one (printed at "
      "start)" },
    { "http_threads", NUM(CONF_UINT, http_threads), .section = CONF_SEC_LISTEN,
      .max = 64, .help = "libmicrohttpd network threads (they answer 3x3 "
      "table walks; every search goes to a worker); 0 = half the cores, "
      "at least 1" },
    /* libmicrohttpd clears a connection's buffers after every request:
     * half its default of 32k is a cost off each request, and still
     * holds a head of ~14 KB (nginx's default caps a header at 8k). */
    { "connection_memory_bytes", NUM(CONF_SIZE, connection_memory_bytes),
      .section = CONF_SEC_LISTEN, .min = 4096, .max = 1ull << 20, .def = 16 * 1024,
      .help = "libmicrohttpd's buffers per connection; a request head "
      "must fit in it (431 otherwise)" },
    { "max_connections", NUM(CONF_UINT, max_connections), .section = CONF_SEC_LISTEN,
      .min = 1, .max = 100000, .def = 1024,
      .help = "open connections at once" },
    /* Off by default: behind a proxy every client shares its address. */
    { "max_connections_per_ip", NUM(CONF_UINT, max_connections_per_ip),
      .section = CONF_SEC_LISTEN, .max = 100000, .help = "open connections from one "
      "client address; 0 = no limit" },
    { "probe_port", NUM(CONF_UINT, probe_port), .section = CONF_SEC_LISTEN,
      .max = 65535, .help = "a second port, on bind, answering only "
      "/livez, /healthz, /readyz and /metrics on a thread and connections "
      "of its own, so floods of the main port's connections never fail "
      "the probes; 0 = none" },
    { "connection_timeout_s", NUM(CONF_UINT, connection_timeout_s),
      .section = CONF_SEC_LISTEN, .min = 1, .max = 3600, .def = 30,
      .help = "idle connections are closed after this many seconds" },
    { "request_head_timeout_s", NUM(CONF_UINT, request_head_timeout_s),
      .section = CONF_SEC_LISTEN, .min = 1, .max = 3600, .def = 10,
      .help = "the whole request head must arrive within this many "
      "seconds" },
    { "request_body_timeout_s", NUM(CONF_UINT, request_body_timeout_s),
      .section = CONF_SEC_LISTEN, .min = 1, .max = 3600, .def = 20,
      .help = "the whole request body must arrive within this many "
      "seconds of its head" },
    { "max_discard_bytes", NUM(CONF_SIZE, max_discard_bytes),
      .section = CONF_SEC_LISTEN, .max = 1ull << 30, .def = 8u << 20,
      .help = "body bytes past max_body_bytes read and dropped so the "
      "client sees its 413" },

    /* --- solving --- */
    { "workers", NUM(CONF_UINT, workers), .section = CONF_SEC_SOLVE, .max = 256,
      .help = "solver threads; 0 = one per core" },
    { "worker_nice", NUM(CONF_UINT, worker_nice), .section = CONF_SEC_SOLVE,
      .max = 19, .def = 5, .help = "solver and job threads run this much "
      "nicer than the network threads, so probes and answers are not held "
      "up behind searches when every core is busy; 0 = the same "
      "priority" },
    { "queue", NUM(CONF_UINT, queue), .section = CONF_SEC_SOLVE, .min = 1,
      .max = 1000000, .def = 256,
      .help = "solves allowed to wait for a worker; more get 503" },

    /* --- pattern databases --- */
    { "pdb", STR(pdb), .section = CONF_SEC_TABLES, .def_str = "none",
      .values = HTTP_CONFIG_PDB_VALUES, .help = "4x4 pattern databases "
      "loaded at start for the pdb heuristic: 6-6-3 (seconds to build) or "
      "7-8 (minutes)" },
    /* "none" here, auto in config/puzzled.conf: a bare `puzzled serve`
     * (every test's server) builds nothing large unless asked, while
     * `make run` and the image get the strongest set that fits. */
    { "pdb_5x5", STR(pdb_5x5), .section = CONF_SEC_TABLES, .def_str = "none",
      .values = HTTP_CONFIG_PDB_5X5_VALUES, .help = "5x5 pattern "
      "databases loaded at start for the pdb heuristic: auto (the "
      "strongest set whose build fits pdb_budget), 6-6-6-6 (128 MB; "
      "minutes and 0.73 GB to build when not cached), 6-6-6-6z "
      "(zero-aware: 332 MB, 1.0 GB to build, fewer nodes), 6-6-6-6z2 "
      "(6-6-6-6z and a second partition, the larger sum: 564 MB, 1.17 GB "
      "to build, the fewest nodes at the same CPU time), or 4x6, 4x6z, "
      "4x6z2 (six groups of four: 1 MB, built in a second, weaker)" },
    /* The build's peak, not the tables alone: it is what a first start
     * (and a pod's memory limit) must hold; 1.25 GiB is the least round
     * figure above 6-6-6-6z2's 1.17 GB. */
    { "pdb_budget", NUM(CONF_SIZE, pdb_budget), .section = CONF_SEC_TABLES,
      .max = 1ull << 40, .def = 1280ull << 20,
      .help = "memory pdb_5x5 = auto may give the 5x5 tables, counted "
      "at their build's peak (the tables plus one group's search state: "
      "what a first start holds; a start from the cache holds only the "
      "tables): 1280m picks 6-6-6-6z2 (1.17 GB to build, 564 MB kept), "
      "1g 6-6-6-6z (1.0 GB, 332 MB), 768m 6-6-6-6 (0.73 GB, 128 MB), "
      "less 4x6z2, 4x6z or 4x6 (3 MB or less); under 4x6's 2.2 MB none" },
    { "pdb_rect", NUM(CONF_UINT, pdb_rect), .section = CONF_SEC_TABLES, .max = 1,
      .help = "1: load (or build, about 10 s once, 13 MB) at start the "
      "pattern databases of every rectangle up to 16 cells (2x5..2x8, "
      "3x4, 3x5 and their transposes): auto is then optimal on them" },
    { "pdb_background", NUM(CONF_UINT, pdb_background), .section = CONF_SEC_TABLES,
      .max = 1, .help = "1: build (or load) pdb, pdb_5x5 and pdb_rect in "
      "the background at low priority while the server answers; /readyz "
      "and /v1/catalog say building and its percentage until they are "
      "used, and pdb searches for their boards get 503 meanwhile" },
    { "pdb_dir", STR(pdb_dir), .section = CONF_SEC_TABLES, .values = "a directory",
      .help = "where pattern databases are cached; empty = build, never "
      "save" },

    /* --- job streams, API keys, shared jobs --- */
    { "max_streams", NUM(CONF_UINT, max_streams), .section = CONF_SEC_STREAMS,
      .min = 1, .max = 100000, .def = 256, .help = "job event streams "
      "open at once; at most three quarters of max_connections are used, "
      "so probes and DELETEs always get in" },
    { "max_streams_per_job", NUM(CONF_UINT, max_streams_per_job),
      .section = CONF_SEC_STREAMS, .min = 1, .max = 100000, .def = 32,
      .help = "event streams open on one job (503 above)" },
    { "max_streams_per_client", NUM(CONF_UINT, max_streams_per_client),
      .section = CONF_SEC_STREAMS, .min = 1, .max = 100000, .def = 8,
      .help = "event streams open from one client address (429 above)" },
    { "stream_max_s", NUM(CONF_UINT, stream_max_s), .section = CONF_SEC_STREAMS,
      .max = 86400, .def = 300, .help = "an event stream ends after this "
      "many seconds and the client reconnects with Last-Event-ID; 0 = "
      "never" },
    { "api_keys_file", STR(api_keys_file), .section = CONF_SEC_STREAMS,
      .values = "a file", .help = "API keys, one a line: NAME SHA256 "
      "[operator] [jobs=N] [streams=N] [rpm=N] (puzzled key new NAME); a "
      "job then belongs to its key; empty = no keys" },
    { "jobs_list_anonymous", NUM(CONF_UINT, jobs_list_anonymous),
      .section = CONF_SEC_STREAMS, .max = 1, .help = "1: GET /v1/jobs without a key "
      "lists the anonymous jobs; 0: it is refused (a job is still "
      "reachable by its id)" },
    { "job_lease_ms", NUM(CONF_UINT, job_lease_ms), .section = CONF_SEC_STREAMS,
      .min = 300, .max = 600000, .def = 10000, .help = "with redis_url: "
      "an instance running a job renews its lease every 100 ms; a job "
      "whose lease is this old (its instance died) is run again by "
      "another instance" },
    { "job_max_attempts", NUM(CONF_UINT, job_max_attempts),
      .section = CONF_SEC_STREAMS, .min = 1, .max = 100, .def = 3,
      .help = "runs a job gets when its runner dies or stalls (with "
      "redis_url: 1 s, then 2, 4 ... apart) or its server stops while it "
      "runs (embedded jobs kept in state_dir); past them it ends failed, "
      "'gave up after N attempts'" },
    { "job_events_max", NUM(CONF_UINT, job_events_max), .section = CONF_SEC_STREAMS,
      .min = 16, .max = 100000, .def = 1000, .help = "with redis_url: "
      "progress events kept per job in Redis (a stream trimmed to about "
      "this many); a client reconnecting later than that misses the "
      "oldest" },

    /* --- state: the store, Redis, the daily --- */
    /* Relative, like www and pdb-cache: `make run` works from the tree. */
    { "state_dir", STR(state_dir), .section = CONF_SEC_STATE, .def_str = "state",
      .values = "a directory, or off", .help = "directory of the store "
      "(the daily leaderboard and, without redis_url, the jobs: "
      "puzzled.db), created if missing; off = no store, jobs in memory "
      "only" },
    { "redis_url", STR(redis_url), .section = CONF_SEC_STATE,
      .values = "redis://[user:password@]host[:port][/db] or "
      "unix:///path[?db=N]", .help = "the shared store: the daily par, "
      "leaderboard and rate limits then live in Redis, shared by every "
      "instance naming it; empty = the embedded store" },
    { "redis_prefix", STR(redis_prefix), .section = CONF_SEC_STATE,
      .def_str = "puzzled:", .values = "up to 127 bytes",
      .help = "prefix of every Redis key, so several deployments can "
      "share one Redis" },
    { "redis_timeout_ms", NUM(CONF_UINT, redis_timeout_ms), .section = CONF_SEC_STATE,
      .min = 10, .max = 60000, .def = 1000, .help = "Redis connect and "
      "command timeout; past it the call fails and the store reconnects "
      "with backoff" },
    { "trusted_proxies", STR(trusted_proxies), .section = CONF_SEC_STATE,
      .values = "comma-separated CIDRs, at most 32",
      .help = "CIDRs (10.0.0.0/8, ::1/128) whose X-Forwarded-For is "
      "believed: the client is the last address in it not of a trusted "
      "proxy; empty = the socket's address" },
    /* the store's own caps when no server sets them (store.h) */
    { "daily_starts_max", NUM(CONF_UINT, daily_starts_max), .section = CONF_SEC_STATE,
      .min = 1, .max = 10000000, .def = STORE_DAY_STARTS_MAX,
      .help = "unused daily start tokens kept per day and size; past it "
      "the oldest unused is forgotten (a new player is never refused)" },
    { "daily_entries_max", NUM(CONF_UINT, daily_entries_max),
      .section = CONF_SEC_STATE, .min = 1, .max = 1000000,
      .def = STORE_DAY_ENTRIES_MAX, .help = "entries a daily board keeps; "
      "a better entry takes the worst's place" },
    { "daily_move_floor_ms", NUM(CONF_UINT, daily_move_floor_ms),
      .section = CONF_SEC_STATE, .max = 10000, .def = STORE_MOVE_FLOOR_MS,
      .help = "a daily run faster than this many ms a move (from its "
      "start token) is not ranked (422): no person plays that fast" },

    /* --- browsers, files, logging, memory, lifecycle --- */
    { "cors_origins", STR(cors_origins), .section = CONF_SEC_FILES, .def_str = "*",
      .values = "*, none, or a comma-separated list of origins",
      .help = "origins allowed by CORS: * (any, without credentials), "
      "none, or a list of exact origins" },
    { "static_root", STR(static_root), .section = CONF_SEC_FILES, .def_str = "www",
      .values = "a directory",
      .help = "directory of the web game served at /; empty = none" },
    { "openapi_path", STR(openapi_path), .section = CONF_SEC_FILES,
      .def_str = "openapi.yaml", .values = "a file",
      .help = "the OpenAPI description served at /openapi.yaml" },
    { "access_log", STR(access_log), .section = CONF_SEC_FILES, .def_str = "stderr",
      .values = "stderr, off, or a file",
      .help = "JSON access log: stderr, off, or a file to append to" },
    /* One write() a request was a tenth of a 3x3 request's cost. */
    { "access_log_flush_ms", NUM(CONF_UINT, access_log_flush_ms),
      .section = CONF_SEC_FILES, .max = 10000, .def = 100, .help = "access log "
      "lines are written together, at the latest this many ms after the "
      "oldest; 0 = each line at once" },
    { "shutdown_grace_ms", NUM(CONF_UINT, shutdown_grace_ms),
      .section = CONF_SEC_FILES, .max = 3600000, .def = 15000, .help = "on "
      "SIGINT/SIGTERM running solves get this long to finish" },
    { "arena_cache", NUM(CONF_UINT, arena_cache), .section = CONF_SEC_FILES,
      .max = 4096, .def = 64, .help = "idle request arenas kept for "
      "reuse, each keeping its first chunk" },
};
#define NOWN (sizeof(own) / sizeof(own[0]))

static const char *const section_title[CONF_SEC_COUNT_] = {
    [CONF_SEC_LISTEN] = "Listening and connections",
    [CONF_SEC_SOLVE] = "Solving",
    [CONF_SEC_TABLES] = "Tables (pattern databases)",
    [CONF_SEC_JOBS] = "Jobs (long solves)",
    [CONF_SEC_STREAMS] = "Job streams, API keys, shared jobs",
    [CONF_SEC_REQUESTS] = "Requests",
    [CONF_SEC_STATE] = "State: the store, Redis, the daily",
    [CONF_SEC_FILES] = "Browsers, files, logging, memory, lifecycle",
};

/* Every key, in the reference's order: section by section, the server's
 * own rows then the API's. The API's offsets are within struct
 * api_limits, so each is copied with the offset of the api member added.
 * Filled once, on first use, and read-only after; the process keeps it. */
static struct conf_key *all_keys;
static size_t nkeys;
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;

static void keys_init(void)
{
    size_t napi;
    const struct conf_key *api = api_limits_keys(&napi);

    all_keys = calloc(NOWN + napi, sizeof(*all_keys));
    if (all_keys == NULL)
        abort();        /* at start-up, a few KB: nothing to serve with */
    for (unsigned sec = 0; sec < CONF_SEC_COUNT_; sec++) {
        for (size_t i = 0; i < NOWN; i++)
            if (own[i].section == sec)
                all_keys[nkeys++] = own[i];
        for (size_t i = 0; i < napi; i++)
            if (api[i].section == sec) {
                all_keys[nkeys] = api[i];
                all_keys[nkeys++].off += OFF(api);
            }
    }
}

/* The keys, and their number in *n. */
static const struct conf_key *keys_get(size_t *n)
{
    pthread_once(&keys_once, keys_init);
    *n = nkeys;
    return all_keys;
}

void http_config_defaults(struct http_config *c)
{
    size_t n;
    const struct conf_key *keys = keys_get(&n);

    memset(c, 0, sizeof(*c));
    api_limits_defaults(&c->api);       /* and what is no key: cores */
    for (size_t i = 0; i < n; i++)
        conf_key_default(&keys[i], c);
}

/* Find a key; dashes in name count as underscores. */
static const struct conf_key *key_find(const char *name, size_t len)
{
    size_t n;
    const struct conf_key *keys = keys_get(&n);

    for (size_t i = 0; i < n; i++) {
        const char *k = keys[i].name;
        size_t j = 0;

        while (j < len && k[j] != '\0'
               && (k[j] == name[j] || (k[j] == '_' && name[j] == '-')))
            j++;
        if (j == len && k[j] == '\0')
            return &keys[i];
    }
    return NULL;
}

/* Decimal number with an optional binary suffix (k, m, g) for sizes. */
static bool parse_number(const char *s, bool suffix, uint64_t *out)
{
    char *end;
    unsigned long long v;
    unsigned shift = 0;

    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno != 0)
        return false;
    if (suffix && *end != '\0' && end[1] == '\0') {
        switch (tolower((unsigned char)*end)) {
        case 'k': shift = 10; break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        default: return false;
        }
        end++;
    }
    if (*end != '\0' || (shift && v > (UINT64_MAX >> shift)))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}

static puz_err set_value(struct http_config *c, const struct conf_key *k,
                         const char *value, char *msg)
{
    char *field = (char *)c + k->off;
    uint64_t v;

    if (k->kind == CONF_STR) {
        if (strlen(value) >= k->len) {
            snprintf(msg, HTTP_CONFIG_MSG, "%s: value longer than %zu "
                     "characters", k->name, k->len - 1);
            return PUZ_EINVAL;
        }
        strcpy(field, value);
        return PUZ_OK;
    }
    if (!parse_number(value, k->kind == CONF_SIZE, &v) || v < k->min
        || v > k->max) {
        snprintf(msg, HTTP_CONFIG_MSG, "%s: '%.64s' is not a whole number "
                 "from %llu to %llu", k->name, value,
                 (unsigned long long)k->min, (unsigned long long)k->max);
        return PUZ_EINVAL;
    }
    if (k->kind == CONF_UINT)
        *(unsigned *)(void *)field = (unsigned)v;
    else if (k->kind == CONF_U64)
        *(uint64_t *)(void *)field = v;
    else
        *(size_t *)(void *)field = (size_t)v;
    return PUZ_OK;
}

puz_err http_config_set(struct http_config *c, const char *key,
                        const char *value, char *msg)
{
    const struct conf_key *k = key_find(key, strlen(key));

    if (k == NULL) {
        snprintf(msg, HTTP_CONFIG_MSG, "unknown setting '%.64s' (see "
                 "puzzled serve --help)", key);
        return PUZ_EINVAL;
    }
    return set_value(c, k, value, msg);
}

/* Trim spaces at both ends in place; returns the new start. */
static char *trim(char *s)
{
    char *end;

    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* One line of a config file: blank, comment, or key = value. */
static puz_err parse_line(struct http_config *c, char *line, char *msg)
{
    char *hash = strchr(line, '#');
    char *eq, *key;
    char inner[HTTP_CONFIG_MSG];
    puz_err rc;

    if (hash != NULL)
        *hash = '\0';
    key = trim(line);
    if (*key == '\0')
        return PUZ_OK;
    eq = strchr(key, '=');
    if (eq == NULL) {
        snprintf(msg, HTTP_CONFIG_MSG, "expected 'key = value'");
        return PUZ_EINVAL;
    }
    *eq = '\0';
    rc = http_config_set(c, trim(key), trim(eq + 1), inner);
    if (rc != PUZ_OK)
        snprintf(msg, HTTP_CONFIG_MSG, "%.600s", inner);
    return rc;
}

puz_err http_config_load_file(struct http_config *c, const char *path,
                              char *msg)
{
    char line[1024], inner[HTTP_CONFIG_MSG];
    unsigned lineno = 0;
    puz_err rc = PUZ_OK;
    FILE *f = fopen(path, "r");

    if (f == NULL) {
        snprintf(msg, HTTP_CONFIG_MSG, "cannot read config file %.400s: "
                 "%s", path, strerror(errno));
        return PUZ_EIO;
    }
    while (rc == PUZ_OK && fgets(line, sizeof(line), f) != NULL) {
        lineno++;
        if (strchr(line, '\n') == NULL && !feof(f)) {
            snprintf(inner, sizeof(inner), "line too long");
            rc = PUZ_EINVAL;
            break;
        }
        rc = parse_line(c, line, inner);
    }
    fclose(f);
    if (rc != PUZ_OK)
        snprintf(msg, HTTP_CONFIG_MSG, "%.100s:%u: %.500s", path, lineno,
                 inner);
    return rc;
}

/* "solve_max_nodes" -> "PUZZLED_SOLVE_MAX_NODES". */
static void env_name(const char *key, char *buf, size_t size)
{
    size_t i = snprintf(buf, size, "PUZZLED_");

    for (; *key != '\0' && i + 1 < size; key++)
        buf[i++] = (char)toupper((unsigned char)*key);
    buf[i] = '\0';
}

puz_err http_config_load_env(struct http_config *c, char *msg)
{
    char name[64], inner[HTTP_CONFIG_MSG];
    const char *v;
    size_t n;
    const struct conf_key *keys = keys_get(&n);

    for (size_t i = 0; i < n; i++) {
        env_name(keys[i].name, name, sizeof(name));
        v = getenv(name);
        if (v == NULL)
            continue;
        if (set_value(c, &keys[i], v, inner) != PUZ_OK) {
            snprintf(msg, HTTP_CONFIG_MSG, "environment %s: %.500s", name,
                     inner);
            return PUZ_EINVAL;
        }
    }
    return PUZ_OK;
}

/* The value of flag argv[*i] ("--k=v" or "--k v"); advances *i. */
static const char *flag_value(int argc, char **argv, int *i)
{
    const char *eq = strchr(argv[*i], '=');

    if (eq != NULL)
        return eq + 1;
    if (*i + 1 >= argc)
        return NULL;
    (*i)++;
    return argv[*i];
}

static bool is_flag(const char *arg, const char *name)
{
    size_t n = strlen(name);

    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* What to print instead of serving: --print-defaults[=FORMAT]. */
static bool print_flag(const char *arg, int *action)
{
    const char *fmt;

    if (!is_flag(arg, "--print-defaults"))
        return false;
    fmt = strchr(arg, '=') != NULL ? strchr(arg, '=') + 1 : "conf";
    if (strcmp(fmt, "conf") == 0)
        *action = HTTP_CONFIG_PRINT_CONF;
    else if (strcmp(fmt, "markdown") == 0 || strcmp(fmt, "md") == 0)
        *action = HTTP_CONFIG_PRINT_MARKDOWN;
    else if (strcmp(fmt, "man") == 0)
        *action = HTTP_CONFIG_PRINT_MAN;
    else
        *action = -1;
    return true;
}

/* --config FILE wins over PUZZLED_CONFIG; NULL when neither is given.
 * Sets *action for --help and --print-defaults (nothing else is read
 * then: the answer must not depend on this machine's settings). */
static const char *find_config(int argc, char **argv, int *action)
{
    const char *path = getenv("PUZZLED_CONFIG");

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            *action = HTTP_CONFIG_HELP;
        else if (print_flag(argv[i], action))
            continue;
        else if (is_flag(argv[i], "--config"))
            path = flag_value(argc, argv, &i);
    }
    return path;
}

static puz_err apply_flag(struct http_config *c, int argc, char **argv,
                          int *i, char *msg)
{
    const char *arg = argv[*i], *name = arg + 2, *value;
    const struct conf_key *k;
    char inner[HTTP_CONFIG_MSG];

    if (strcmp(arg, "--print-config") == 0)
        return PUZ_OK;  /* what to do, not a setting: seen by the caller */
    if (strncmp(arg, "--", 2) != 0) {
        snprintf(msg, HTTP_CONFIG_MSG, "unexpected argument '%.64s' (see "
                 "puzzled serve --help)", arg);
        return PUZ_EINVAL;
    }
    k = key_find(name, strcspn(name, "="));
    if (k == NULL && !is_flag(arg, "--config")) {
        snprintf(msg, HTTP_CONFIG_MSG, "unknown option '%.64s' (see "
                 "puzzled serve --help)", arg);
        return PUZ_EINVAL;
    }
    value = flag_value(argc, argv, i);
    if (value == NULL) {
        snprintf(msg, HTTP_CONFIG_MSG, "option %.64s needs a value", arg);
        return PUZ_EINVAL;
    }
    if (k == NULL)
        return PUZ_OK;  /* --config, handled first */
    if (set_value(c, k, value, inner) != PUZ_OK) {
        snprintf(msg, HTTP_CONFIG_MSG, "option --%.500s", inner);
        return PUZ_EINVAL;
    }
    return PUZ_OK;
}

puz_err http_config_from_args(struct http_config *c, int argc,
                              char **argv, int *action, char *msg)
{
    const char *path;
    puz_err rc;

    *action = HTTP_CONFIG_SERVE;
    msg[0] = '\0';
    http_config_defaults(c);
    path = find_config(argc, argv, action);
    if (*action < 0) {
        snprintf(msg, HTTP_CONFIG_MSG, "--print-defaults takes conf, "
                 "markdown or man");
        return PUZ_EINVAL;
    }
    if (*action != HTTP_CONFIG_SERVE)
        return PUZ_OK;
    if (path != NULL && *path != '\0') {
        rc = http_config_load_file(c, path, msg);
        if (rc != PUZ_OK)
            return rc;
    }
    rc = http_config_load_env(c, msg);
    for (int i = 1; rc == PUZ_OK && i < argc; i++) {
        if (strcmp(argv[i], "--print-config") == 0)
            *action = HTTP_CONFIG_PRINT_EFFECTIVE;
        rc = apply_flag(c, argc, argv, &i, msg);
    }
    return rc;
}

/* CPUs of a cgroup v2 quota ("200000 100000" in cpu.max = 2), rounded
 * up; 0 when there is no quota or no cgroup file. */
static unsigned cgroup_cpus(void)
{
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    unsigned long long quota = 0, period = 0;
    int got;

    if (f == NULL)
        return 0;
    got = fscanf(f, "%llu %llu", &quota, &period);
    fclose(f);
    if (got != 2 || period == 0)
        return 0;       /* "max": no quota */
    return (unsigned)((quota + period - 1) / period);
}

/* The CPUs this process may really use: the affinity mask (taskset)
 * and the container's CPU quota both count, not just the CPUs the
 * machine has. */
static unsigned usable_cpus(void)
{
    cpu_set_t set;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned n = online > 0 ? (unsigned)online : 1u, quota;

    if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
        n = (unsigned)CPU_COUNT(&set);
    quota = cgroup_cpus();
    if (quota > 0 && quota < n)
        n = quota;
    return n;
}

/* "workers = 0" means one per usable CPU. */
unsigned http_config_workers(const struct http_config *c)
{
    return c->workers > 0 ? c->workers : usable_cpus();
}

/* "http_threads = 0" means half the usable CPUs, at least one. Each
 * network thread owns the connections it accepted, so a thread that
 * waits for a core makes all of them wait a scheduler tick or two; with
 * as many network threads as cores, anything else busy on the machine
 * (clients, a proxy, the solver workers) puts them in that queue. Half
 * leaves room: on 2 cores one thread kept wrk's p99 at 2.6-4.9 ms
 * against 5.4-8 ms with two, at the same request rate
 * (docs/performance.md, "One network thread per two cores"). */
unsigned http_config_http_threads(const struct http_config *c)
{
    unsigned half;

    if (c->http_threads > 0)
        return c->http_threads;
    half = usable_cpus() / 2;
    return half > 0 ? half : 1;
}

/* The flag (--key-with-dashes) and the environment variable of a key. */
static void flag_name(const char *key, char *buf, size_t size)
{
    snprintf(buf, size, "--%s", key);
    for (char *p = buf; *p != '\0'; p++)
        *p = *p == '_' ? '-' : *p;
}

static uint64_t number_of(const struct conf_key *k, const void *c)
{
    const char *field = (const char *)c + k->off;

    if (k->kind == CONF_UINT)
        return *(const unsigned *)(const void *)field;
    if (k->kind == CONF_U64)
        return *(const uint64_t *)(const void *)field;
    return *(const size_t *)(const void *)field;
}

/* A number as the reader takes it in: sizes with the largest binary
 * suffix that divides them (the file accepts it back), and for people
 * (human) the powers of two past 2^31 as 2^N. */
static void format_number(const struct conf_key *k, uint64_t v, bool human,
                          char *buf, size_t size)
{
    static const char suffix[] = "kmg";
    unsigned p = 0;

    if (human && v > (UINT64_C(1) << 31) && (v & (v - 1)) == 0) {
        while ((UINT64_C(1) << p) != v)
            p++;
        snprintf(buf, size, "2^%u", p);
        return;
    }
    if (k->kind == CONF_SIZE && v != 0) {
        while (p < 3 && v % (UINT64_C(1024) << (10 * p)) == 0)
            p++;
        if (p > 0) {
            snprintf(buf, size, "%llu%c", (unsigned long long)(v >> (10 * p)),
                     suffix[p - 1]);
            return;
        }
    }
    snprintf(buf, size, "%llu", (unsigned long long)v);
}

/* A key's value in c as the file would say it ("" for an empty string;
 * numbers raw, as --help always printed them, unless human). */
static void format_value(const struct conf_key *k, const void *c,
                         bool human, char *buf, size_t size)
{
    if (k->kind == CONF_STR)
        snprintf(buf, size, "%s", (const char *)c + k->off);
    else
        format_number(k, number_of(k, c), human, buf, size);
}

/* What a key accepts: the row's words for strings, "min-max unit" for
 * numbers (dash is "-" in the file, an en dash in the docs). */
static void format_range(const struct conf_key *k, const char *dash,
                         char *buf, size_t size)
{
    char lo[32], hi[32];
    size_t n = strlen(k->name);
    const char *unit = "";

    if (k->kind == CONF_STR) {
        snprintf(buf, size, "%s", k->values != NULL ? k->values : "text");
        return;
    }
    if (n > 3 && strcmp(k->name + n - 3, "_ms") == 0)
        unit = " ms";
    else if (n > 2 && strcmp(k->name + n - 2, "_s") == 0)
        unit = " s";
    format_number(k, k->min, true, lo, sizeof(lo));
    format_number(k, k->max, true, hi, sizeof(hi));
    snprintf(buf, size, "%s%s%s%s", lo, dash, hi, unit);
}

/* text as comment lines ("# ..."), wrapped before 76 columns */
static void put_comment(FILE *out, const char *text)
{
    while (*text != '\0') {
        size_t n = strlen(text), cut = n;

        if (n > 74) {
            cut = 74;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = strcspn(text, " ");
        }
        fprintf(out, "# %.*s\n", (int)cut, text);
        text += cut;
        while (*text == ' ')
            text++;
    }
}

static void print_conf(FILE *out, const struct http_config *c,
                       const struct http_config *d)
{
    char value[HTTP_CONFIG_STR + 4], range[256], line[1024];
    size_t n;
    const struct conf_key *keys = keys_get(&n);
    int sec = -1;

    fputs("# puzzled.conf - the settings of `puzzled serve`: every key, "
          "what it does,\n"
          "# what it accepts and its built-in default.\n"
          "#\n", out);
    put_comment(out, "One \"key = value\" a line; \"#\" starts a comment. "
                "A key left commented out keeps its built-in default. "
                "The environment variable PUZZLED_<KEY> (PUZZLED_PORT=9000)"
                " and then the flag --<key> with dashes (--port 9000) win "
                "over this file. Sizes take a k, m or g suffix (binary "
                "units). `puzzled serve --print-defaults` prints this file;"
                " `puzzled serve --print-config` the settings in force, "
                "from the file, the environment and the flags.");
    for (size_t i = 0; i < n; i++) {
        const struct conf_key *k = &keys[i];
        bool set;

        if ((int)k->section != sec) {
            sec = (int)k->section;
            snprintf(line, sizeof(line), "# --- %s ", section_title[sec]);
            fprintf(out, "\n%s", line);
            for (size_t j = strlen(line); j < 76; j++)
                fputc('-', out);
            fputc('\n', out);
        }
        format_range(k, "-", range, sizeof(range));
        snprintf(line, sizeof(line), "%s. Accepts: %s.", k->help, range);
        fputc('\n', out);
        put_comment(out, line);
        set = k->kind == CONF_STR
            ? strcmp((const char *)c + k->off, (const char *)d + k->off) != 0
            : number_of(k, c) != number_of(k, d);
        format_value(k, set ? (const void *)c : (const void *)d, false,
                     value, sizeof(value));
        fprintf(out, "%s%s =%s%s\n", set ? "" : "#", k->name,
                value[0] != '\0' ? " " : "", value);
    }
}

/* Markdown: `|` would end a cell, `*` start emphasis, `<` a tag. */
static void put_md(FILE *out, const char *text)
{
    for (; *text != '\0'; text++) {
        if (*text == '|' || *text == '*' || *text == '<')
            fputc('\\', out);
        fputc(*text, out);
    }
}

/* One key as the references print it: its texts filled in, and whether
 * it opens a section (first: the first of all). */
struct key_row {
    const struct conf_key *k;
    bool opens, first;
    char value[HTTP_CONFIG_STR + 4], range[256], flag[64], env[64];
};

/* Calls row() for every key, in the table's order, with its default
 * (from d) and its range written with dash between the bounds. */
static void each_key(FILE *out, const struct http_config *d,
                     const char *dash,
                     void (*row)(FILE *out, const struct key_row *r))
{
    size_t n;
    const struct conf_key *keys = keys_get(&n);
    int sec = -1;

    for (size_t i = 0; i < n; i++) {
        struct key_row r = { .k = &keys[i], .first = i == 0 };

        r.opens = (int)r.k->section != sec;
        sec = (int)r.k->section;
        flag_name(r.k->name, r.flag, sizeof(r.flag));
        env_name(r.k->name, r.env, sizeof(r.env));
        format_value(r.k, d, true, r.value, sizeof(r.value));
        format_range(r.k, dash, r.range, sizeof(r.range));
        row(out, &r);
    }
}

static void markdown_row(FILE *out, const struct key_row *r)
{
    if (r->opens)
        fprintf(out, "%s### %s\n\n"
                "| key | flag / environment | default | accepts | "
                "meaning |\n| --- | --- | --- | --- | --- |\n",
                r->first ? "" : "\n", section_title[r->k->section]);
    fprintf(out, "| `%s` | `%s` / `%s` | ", r->k->name, r->flag, r->env);
    if (r->value[0] != '\0')
        fprintf(out, "`%s`", r->value);
    else
        fputs("empty", out);
    fputs(" | ", out);
    put_md(out, r->range);
    fputs(" | ", out);
    put_md(out, r->k->help);
    fputs(" |\n", out);
}

/* roff: a backslash is an escape, "-" a hyphen (\- a minus, which is
 * what flags and ranges mean). */
static void put_roff(FILE *out, const char *text)
{
    for (; *text != '\0'; text++) {
        if (*text == '\\')
            fputs("\\e", out);
        else if (*text == '-')
            fputs("\\-", out);
        else
            fputc(*text, out);
    }
}

static void man_row(FILE *out, const struct key_row *r)
{
    const struct conf_key *k = r->k;

    if (r->opens)
        fprintf(out, ".SS %s\n", section_title[k->section]);
    fprintf(out, ".TP\n.B %s\n", k->name);
    put_roff(out, k->help);
    fputs(".\n.br\nDefault ", out);
    if (k->kind == CONF_STR && r->value[0] == '\0')
        fputs("empty", out);
    else if (k->kind == CONF_STR) {
        fputc('"', out);
        put_roff(out, r->value);
        fputc('"', out);
    } else
        fputs(r->value, out);
    fputs("; accepts ", out);
    if (k->kind == CONF_STR)
        put_roff(out, r->range);
    else
        fputs(r->range, out);   /* numbers and the en dash: no hyphen */
    fprintf(out, "; environment \\fB%s\\fR, flag \\fB", r->env);
    put_roff(out, r->flag);
    fputs("\\fR.\n", out);
}

void http_config_print(FILE *out, enum http_config_action what,
                       const struct http_config *c)
{
    struct http_config d;

    http_config_defaults(&d);
    if (what == HTTP_CONFIG_PRINT_MARKDOWN)
        each_key(out, &d, "–", markdown_row);
    else if (what == HTTP_CONFIG_PRINT_MAN)
        each_key(out, &d, "\\(en", man_row);
    else
        print_conf(out, what == HTTP_CONFIG_PRINT_EFFECTIVE && c != NULL
                   ? c : &d, &d);
}

void http_config_usage(FILE *out)
{
    struct http_config d;
    char env[64], def[HTTP_CONFIG_STR + 4], flag[64];
    size_t n;
    const struct conf_key *keys = keys_get(&n);

    http_config_defaults(&d);
    fprintf(out,
            "Usage: puzzled serve [--config FILE] [--KEY VALUE]...\n\n"
            "Runs the HTTP/JSON solving service. Each setting comes from, "
            "in rising\npriority: its default, the config file (key = "
            "value), the environment\nvariable PUZZLED_KEY, and the flag "
            "--key (also --key=VALUE).\n\n"
            "  --config FILE   PUZZLED_CONFIG   config file to read "
            "(default: none)\n"
            "  -h, --help      this text\n"
            "  --print-defaults[=conf|markdown|man]\n"
            "                  every key, its default and range: a "
            "commented puzzled.conf\n"
            "                  (or the reference of docs/operations.md, "
            "puzzled.conf(5))\n"
            "  --print-config  the settings in force (file, environment, "
            "flags) as a\n"
            "                  puzzled.conf: keys off their default set, "
            "the others commented\n\n");
    for (size_t i = 0; i < n; i++) {
        flag_name(keys[i].name, flag, sizeof(flag));
        env_name(keys[i].name, env, sizeof(env));
        format_value(&keys[i], &d, false, def, sizeof(def));
        if (keys[i].kind == CONF_STR) {
            char quoted[sizeof(def) + 2];
            snprintf(quoted, sizeof(quoted), "\"%s\"", def);
            fprintf(out, "  %-24s %-30s default %s\n      %s\n", flag, env,
                    quoted, keys[i].help);
        } else {
            /* raw numbers: scripts read these (nginx_lb.sh) */
            fprintf(out, "  %-24s %-30s default %llu\n      %s\n", flag,
                    env, (unsigned long long)number_of(&keys[i], &d),
                    keys[i].help);
        }
    }
    fprintf(out, "\nSIGINT/SIGTERM stop accepting, cancel queued solves, "
            "let running ones\nfinish within shutdown_grace_ms, and exit "
            "0.\n");
}
