/*
 * config.c - the settings of `puzzled serve`: one table of keys drives
 * the config file parser, the PUZZLED_* environment, the --flags and the
 * --help text, so the four can never disagree.
 */
#include "http_config.h"
#include "store.h"     /* the daily caps' defaults */

#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum kind { K_UINT, K_U64, K_SIZE, K_STR };

struct key {
    const char *name;
    enum kind kind;
    size_t off;         /* offsetof in struct http_config */
    size_t len;         /* K_STR: buffer size */
    uint64_t min, max;  /* numbers: inclusive range */
    const char *help;
};

#define OFF(f) offsetof(struct http_config, f)
#define STR(f) K_STR, OFF(f), sizeof(((struct http_config *)0)->f), 0, 0
#define GIB (1024ull * 1024 * 1024)

static const struct key keys[] = {
    { "bind", STR(bind), "numeric IPv4/IPv6 address to listen on" },
    { "port", K_UINT, OFF(port), 0, 0, 65535,
      "TCP port; 0 picks a free one (printed at start)" },
    { "workers", K_UINT, OFF(workers), 0, 0, 256,
      "solver threads; 0 = one per core" },
    { "queue", K_UINT, OFF(queue), 0, 1, 1000000,
      "solves allowed to wait for a worker; more get 503" },
    { "http_threads", K_UINT, OFF(http_threads), 0, 0, 64,
      "libmicrohttpd network threads (they answer 3x3 table walks; "
      "every search goes to a worker); 0 = half the cores, at least 1" },
    { "connection_memory_bytes", K_SIZE, OFF(connection_memory_bytes), 0,
      4096, 1ull << 20, "libmicrohttpd's buffers per connection; a "
      "request head must fit in it (431 otherwise); suffixes k, m" },
    { "max_connections", K_UINT, OFF(max_connections), 0, 1, 100000,
      "open connections at once" },
    { "max_connections_per_ip", K_UINT, OFF(max_connections_per_ip), 0, 0,
      100000, "open connections from one client address; 0 = no limit" },
    { "connection_timeout_s", K_UINT, OFF(connection_timeout_s), 0, 1,
      3600, "idle connections are closed after this many seconds" },
    { "request_head_timeout_s", K_UINT, OFF(request_head_timeout_s), 0, 1,
      3600, "the whole request head must arrive within this many seconds" },
    { "request_body_timeout_s", K_UINT, OFF(request_body_timeout_s), 0, 1,
      3600, "the whole request body must arrive within this many seconds "
      "of its head" },
    { "max_body_bytes", K_SIZE, OFF(api.max_body_bytes), 0, 64, 64ull << 20,
      "request body cap (413 above); suffixes k, m" },
    { "max_discard_bytes", K_SIZE, OFF(max_discard_bytes), 0, 0, 1ull << 30,
      "body bytes past max_body_bytes read and dropped so the client sees "
      "its 413; suffixes k, m" },
    { "json_max_depth", K_UINT, OFF(api.json_max_depth), 0, 2, 1024,
      "deepest nesting of JSON arrays/objects accepted" },
    { "batch_max", K_UINT, OFF(api.batch_max), 0, 1, 100000,
      "boards per /v1/solve/batch request" },
    { "score_max_moves", K_UINT, OFF(api.score_max_moves), 0, 1, 10000000,
      "moves per /v1/score request" },
    { "random_max_moves", K_UINT, OFF(api.random_max_moves), 0, 1, 1000000,
      "largest ?moves= of /v1/puzzles/random for sizes above 3" },
    { "solve_max_nodes", K_U64, OFF(api.solve_max_nodes), 0, 1,
      UINT64_C(1) << 40, "default and cap of limits.max_nodes" },
    { "solve_timeout_ms", K_UINT, OFF(api.solve_timeout_ms), 0, 1, 3600000,
      "default and cap of limits.timeout_ms (queue wait included)" },
    { "solve_max_bytes", K_SIZE, OFF(api.solve_max_bytes), 0, 1ull << 20,
      64 * GIB, "memory one request may use: search, JSON and answer; "
      "suffixes k, m, g" },
    { "max_response_bytes", K_SIZE, OFF(api.max_response_bytes), 0, 64 << 10,
      1ull << 30, "largest answer body; a bigger one is refused 422 "
      "(answer-too-large), a batch entry says limit_memory; suffixes k, m" },
    { "batch_timeout_ms", K_UINT, OFF(api.batch_timeout_ms), 0, 1, 3600000,
      "time for a whole batch; boards not reached end as timeout" },
    { "shutdown_grace_ms", K_UINT, OFF(shutdown_grace_ms), 0, 0, 3600000,
      "on SIGINT/SIGTERM running solves get this long to finish" },
    { "retry_after_s", K_UINT, OFF(api.retry_after_s), 0, 1, 3600,
      "Retry-After of 503 answers" },
    { "arena_cache", K_UINT, OFF(arena_cache), 0, 0, 4096,
      "idle request arenas kept for reuse" },
    { "arena_chunk_bytes", K_SIZE, OFF(api.arena_chunk_bytes), 0, 1024,
      64ull << 20, "first chunk of each request arena" },
    { "cors_origins", STR(cors_origins),
      "origins allowed by CORS: *, none, or a comma-separated list" },
    { "static_root", STR(static_root),
      "directory of the web game served at /; empty = none" },
    { "openapi_path", STR(openapi_path),
      "the OpenAPI description served at /openapi.yaml" },
    { "access_log", STR(access_log),
      "JSON access log: stderr, off, or a file to append to" },
    { "access_log_flush_ms", K_UINT, OFF(access_log_flush_ms), 0, 0, 10000,
      "access log lines are written together, at the latest this many ms "
      "after the oldest; 0 = each line at once" },
    { "pdb", STR(pdb), "4x4 pattern databases loaded at start for the "
      "pdb heuristic: none, 6-6-3 (seconds to build) or 7-8 (minutes)" },
    { "pdb_5x5", STR(pdb_5x5), "5x5 pattern databases loaded at start "
      "for the pdb heuristic: none, 6-6-6-6 (128 MB; minutes and "
      "~0.75 GB to build when not cached), 6-6-6-6z (zero-aware: "
      "332 MB, fewer nodes, more CPU per node) or 6-6-6-6z2 (6-6-6-6z "
      "and a second partition, the larger sum: 564 MB, the fewest nodes "
      "and the least CPU; opt-in: more than the 512 MB the default "
      "tables stay under)" },
    { "pdb_rect", K_UINT, OFF(pdb_rect), 0, 0, 1,
      "1: load (or build, about 10 s once, 13 MB) at start the pattern "
      "databases of every rectangle up to 16 cells (2x5..2x8, 3x4, 3x5 "
      "and their transposes): auto is then optimal on them" },
    { "pdb_background", K_UINT, OFF(pdb_background), 0, 0, 1,
      "1: build (or load) pdb, pdb_5x5 and pdb_rect in the background "
      "at low priority while the server answers; /readyz and /v1/catalog "
      "say building and its percentage until they are used, and pdb "
      "searches for their boards get 503 meanwhile" },
    { "pdb_dir", STR(pdb_dir),
      "where pattern databases are cached; empty = build, never save" },
    { "state_dir", STR(state_dir), "directory of the store (the daily "
      "leaderboard, puzzled.db), created if missing; off = no store" },
    { "job_workers", K_UINT, OFF(api.job_workers), 0, 1, 256,
      "threads running /v1/jobs, apart from the solve workers" },
    { "job_queue", K_UINT, OFF(api.job_queue), 0, 1, 100000,
      "jobs allowed to wait for a job worker; more get 503" },
    { "job_timeout_ms", K_UINT, OFF(api.job_timeout_ms), 0, 1, 86400000,
      "default and cap of a job's limits.timeout_ms (from its start)" },
    { "job_max_nodes", K_U64, OFF(api.job_max_nodes), 0, 1,
      UINT64_C(1) << 50, "default and cap of a job's limits.max_nodes" },
    { "job_ttl_s", K_UINT, OFF(api.job_ttl_s), 0, 0, 604800,
      "finished jobs are kept this many seconds" },
    { "job_max", K_UINT, OFF(api.job_max), 0, 1, 1000000,
      "jobs held in memory at most; the oldest finished go first" },
    { "worker_nice", K_UINT, OFF(worker_nice), 0, 0, 19,
      "solver and job threads run this much nicer than the network "
      "threads, so probes and answers are not held up behind searches "
      "when every core is busy; 0 = the same priority" },
    { "api_keys_file", STR(api_keys_file), "API keys, one a line: NAME "
      "SHA256 [operator] [jobs=N] [streams=N] [rpm=N] (puzzled key new "
      "NAME); a job then belongs to its key; empty = no keys" },
    { "jobs_list_anonymous", K_UINT, OFF(jobs_list_anonymous), 0, 0, 1,
      "1: GET /v1/jobs without a key lists the anonymous jobs; 0: it is "
      "refused (a job is still reachable by its id)" },
    { "max_streams", K_UINT, OFF(max_streams), 0, 1, 100000,
      "job event streams open at once; at most three quarters of "
      "max_connections are used, so probes and DELETEs always get in" },
    { "max_streams_per_job", K_UINT, OFF(max_streams_per_job), 0, 1,
      100000, "event streams open on one job (503 above)" },
    { "max_streams_per_client", K_UINT, OFF(max_streams_per_client), 0, 1,
      100000, "event streams open from one client address (429 above)" },
    { "stream_max_s", K_UINT, OFF(stream_max_s), 0, 0, 86400,
      "an event stream ends after this many seconds and the client "
      "reconnects with Last-Event-ID; 0 = never" },
    { "job_results_max_bytes", K_SIZE, OFF(api.job_results_max_bytes), 0,
      64 << 10, 64 * GIB, "answer bytes all finished jobs hold together; "
      "the oldest finished go first; suffixes k, m, g" },
    { "redis_url", STR(redis_url), "the shared store: "
      "redis://[user:password@]host[:port][/db] or unix:///path[?db=N]; "
      "the daily par, leaderboard and rate limits then live in Redis, "
      "shared by every instance naming it; empty = the embedded store" },
    { "redis_prefix", STR(redis_prefix), "prefix of every Redis key, so "
      "several deployments can share one Redis" },
    { "redis_timeout_ms", K_UINT, OFF(redis_timeout_ms), 0, 10, 60000,
      "Redis connect and command timeout; past it the call fails and the "
      "store reconnects with backoff" },
    { "job_lease_ms", K_UINT, OFF(job_lease_ms), 0, 300, 600000,
      "with redis_url: an instance running a job renews its lease every "
      "100 ms; a job whose lease is this old (its instance died) is run "
      "again by another instance" },
    { "job_max_attempts", K_UINT, OFF(job_max_attempts), 0, 1, 100,
      "with redis_url: runs a job gets when its runner dies or stalls "
      "(1 s, then 2, 4 ... apart); past them it ends failed, 'gave up "
      "after N attempts'" },
    { "job_events_max", K_UINT, OFF(job_events_max), 0, 16, 100000,
      "with redis_url: progress events kept per job in Redis (a stream "
      "trimmed to about this many); a client reconnecting later than "
      "that misses the oldest" },
    { "trusted_proxies", STR(trusted_proxies), "comma-separated CIDRs "
      "(10.0.0.0/8, ::1/128) whose X-Forwarded-For is believed: the "
      "client is the last address in it not of a trusted proxy; empty = "
      "the socket's address" },
    { "probe_port", K_UINT, OFF(probe_port), 0, 0, 65535,
      "a second port, on bind, answering only /livez, /healthz, /readyz "
      "and /metrics on a thread and connections of its own, so floods "
      "of the main port's connections never fail the probes; 0 = none" },
    { "daily_starts_max", K_UINT, OFF(daily_starts_max), 0, 1, 10000000,
      "unused daily start tokens kept per day and size; past it the "
      "oldest unused is forgotten (a new player is never refused)" },
    { "daily_entries_max", K_UINT, OFF(daily_entries_max), 0, 1, 1000000,
      "entries a daily board keeps; a better entry takes the worst's "
      "place" },
    { "daily_move_floor_ms", K_UINT, OFF(daily_move_floor_ms), 0, 0, 10000,
      "a daily run faster than this many ms a move (from its start "
      "token) is not ranked (422): no person plays that fast" },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

void http_config_defaults(struct http_config *c)
{
    memset(c, 0, sizeof(*c));
    api_limits_defaults(&c->api);
    strcpy(c->bind, "127.0.0.1");
    c->port = 8080;
    c->workers = 0;
    c->queue = 256;
    c->http_threads = 0;
    c->max_connections = 1024;
    /* libmicrohttpd clears a connection's buffers after every request:
     * half its default of 32k is a cost off each request, and still
     * holds a head of ~14 KB (nginx's default caps a header at 8k). */
    c->connection_memory_bytes = 16 * 1024;
    /* Off by default: behind a proxy every client shares its address. */
    c->max_connections_per_ip = 0;
    c->connection_timeout_s = 30;
    c->request_head_timeout_s = 10;
    c->request_body_timeout_s = 20;
    c->max_discard_bytes = 8u << 20;
    c->shutdown_grace_ms = 15000;
    c->arena_cache = 64;
    strcpy(c->cors_origins, "*");
    strcpy(c->static_root, "www");
    strcpy(c->openapi_path, "openapi.yaml");
    strcpy(c->access_log, "stderr");
    /* One write() a request was a tenth of a 3x3 request's cost. */
    c->access_log_flush_ms = 100;
    strcpy(c->pdb, "none");
    strcpy(c->pdb_5x5, "none");
    c->pdb_dir[0] = '\0';
    /* Relative, like www and pdb-cache: `make run` works from the tree. */
    strcpy(c->state_dir, "state");
    strcpy(c->redis_prefix, "puzzled:");
    c->redis_timeout_ms = 1000;
    c->job_lease_ms = 10000;
    c->job_max_attempts = 3;
    c->job_events_max = 1000;
    c->worker_nice = 5;
    c->max_streams = 256;
    c->max_streams_per_job = 32;
    c->max_streams_per_client = 8;
    c->stream_max_s = 300;
    c->daily_starts_max = STORE_DAY_STARTS_MAX;
    c->daily_entries_max = STORE_DAY_ENTRIES_MAX;
    c->daily_move_floor_ms = STORE_MOVE_FLOOR_MS;
}

/* Find a key; dashes in name count as underscores. */
static const struct key *key_find(const char *name, size_t len)
{
    for (size_t i = 0; i < NKEYS; i++) {
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

static puz_err set_value(struct http_config *c, const struct key *k,
                         const char *value, char *msg)
{
    char *field = (char *)c + k->off;
    uint64_t v;

    if (k->kind == K_STR) {
        if (strlen(value) >= k->len) {
            snprintf(msg, HTTP_CONFIG_MSG, "%s: value longer than %zu "
                     "characters", k->name, k->len - 1);
            return PUZ_EINVAL;
        }
        strcpy(field, value);
        return PUZ_OK;
    }
    if (!parse_number(value, k->kind == K_SIZE, &v) || v < k->min
        || v > k->max) {
        snprintf(msg, HTTP_CONFIG_MSG, "%s: '%.64s' is not a whole number "
                 "from %llu to %llu", k->name, value,
                 (unsigned long long)k->min, (unsigned long long)k->max);
        return PUZ_EINVAL;
    }
    if (k->kind == K_UINT)
        *(unsigned *)(void *)field = (unsigned)v;
    else if (k->kind == K_U64)
        *(uint64_t *)(void *)field = v;
    else
        *(size_t *)(void *)field = (size_t)v;
    return PUZ_OK;
}

puz_err http_config_set(struct http_config *c, const char *key,
                        const char *value, char *msg)
{
    const struct key *k = key_find(key, strlen(key));

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

    for (size_t i = 0; i < NKEYS; i++) {
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

/* --config FILE wins over PUZZLED_CONFIG; NULL when neither is given. */
static const char *find_config(int argc, char **argv, int *help)
{
    const char *path = getenv("PUZZLED_CONFIG");

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            *help = 1;
        else if (is_flag(argv[i], "--config"))
            path = flag_value(argc, argv, &i);
    }
    return path;
}

static puz_err apply_flag(struct http_config *c, int argc, char **argv,
                          int *i, char *msg)
{
    const char *arg = argv[*i], *name = arg + 2, *value;
    const struct key *k;
    char inner[HTTP_CONFIG_MSG];

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
                              char **argv, int *help, char *msg)
{
    const char *path;
    puz_err rc;

    *help = 0;
    msg[0] = '\0';
    http_config_defaults(c);
    path = find_config(argc, argv, help);
    if (*help)
        return PUZ_OK;
    if (path != NULL && *path != '\0') {
        rc = http_config_load_file(c, path, msg);
        if (rc != PUZ_OK)
            return rc;
    }
    rc = http_config_load_env(c, msg);
    for (int i = 1; rc == PUZ_OK && i < argc; i++)
        rc = apply_flag(c, argc, argv, &i, msg);
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

static void format_default(const struct key *k, const struct http_config *d,
                           char *buf, size_t size)
{
    const char *field = (const char *)d + k->off;

    if (k->kind == K_STR)
        snprintf(buf, size, "\"%s\"", field);
    else if (k->kind == K_UINT)
        snprintf(buf, size, "%u", *(const unsigned *)(const void *)field);
    else if (k->kind == K_U64)
        snprintf(buf, size, "%llu", (unsigned long long)
                 *(const uint64_t *)(const void *)field);
    else
        snprintf(buf, size, "%zu", *(const size_t *)(const void *)field);
}

void http_config_usage(FILE *out)
{
    struct http_config d;
    char env[64], def[HTTP_CONFIG_STR + 4], flag[64];

    http_config_defaults(&d);
    fprintf(out,
            "Usage: puzzled serve [--config FILE] [--KEY VALUE]...\n\n"
            "Runs the HTTP/JSON solving service. Each setting comes from, "
            "in rising\npriority: its default, the config file (key = "
            "value), the environment\nvariable PUZZLED_KEY, and the flag "
            "--key (also --key=VALUE).\n\n"
            "  --config FILE   PUZZLED_CONFIG   config file to read "
            "(default: none)\n"
            "  -h, --help      this text\n\n");
    for (size_t i = 0; i < NKEYS; i++) {
        snprintf(flag, sizeof(flag), "--%s", keys[i].name);
        for (char *p = flag; *p != '\0'; p++)
            *p = *p == '_' ? '-' : *p;
        env_name(keys[i].name, env, sizeof(env));
        format_default(&keys[i], &d, def, sizeof(def));
        fprintf(out, "  %-24s %-30s default %s\n      %s\n", flag, env,
                def, keys[i].help);
    }
    fprintf(out, "\nSIGINT/SIGTERM stop accepting, cancel queued solves, "
            "let running ones\nfinish within shutdown_grace_ms, and exit "
            "0.\n");
}
