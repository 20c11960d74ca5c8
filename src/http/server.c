/*
 * server.c - the server's life: load the shared read-only data, open the
 * listening socket ourselves (so a taken port is one clear line), start
 * the worker pool and the libmicrohttpd daemon, and stop them in the
 * order that lets every accepted request get its answer. `puzzled
 * serve`, which wraps that life in configuration and signals, is serve.c.
 */
#include "http_int.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "api_jalloc.h"
#include "pool_pieces.h"

/* What a shutdown waits, at most, for each of its steps after the
 * solves' grace period: the jobs' streams, the shared jobs' streams,
 * the answers already resumed to reach their clients. Each is a matter
 * of sending bytes already made; a client too slow for this is cut. */
#define SHUTDOWN_STEP_MS 2000

/* Start-up is the operator's to watch: a rejected cache file is said in
 * one line, and a build reports each finished group. */
static void log_pdb_progress(const struct puz_pdb_progress *p, void *user)
{
    (void)user;
    if (p->kind == PUZ_PDB_EV_NOTE)
        http__log_line("puzzled: pdb: %s", p->msg);
    else if (p->kind == PUZ_PDB_EV_GROUP_DONE)
        http__log_line("puzzled: pdb %s: group %u/%u (%u tiles) built, "
                       "%.1f s", p->partition, p->group, p->groups,
                       p->tiles, p->seconds);
}

/* pdb_background = 1: the sets are loaded or built on a thread of
 * their own at low priority while the server answers (issue 30). */
static puz_err load_in_background(struct http_server *s,
                                  const enum puz_pdb_partition *parts,
                                  unsigned nparts, const char *name,
                                  http_pdb_bg **out, char *msg)
{
    puz_err rc = http_pdb_bg_start(s->tables, s->cfg.pdb_dir, parts, nparts,
                                   name, 0, out);

    if (rc == PUZ_OK)
        http__log_line("puzzled: pdb %s: loading or building in the "
                       "background", http_pdb_bg_name(*out));
    else
        snprintf(msg, HTTP_SERVER_MSG, "cannot start a thread");
    return rc;
}

/*
 * pdb_5x5 = auto: the strongest 5x5 set whose build fits pdb_budget
 * (puz_pdb_strongest_5x5), into *name; said in the log and kept for
 * /readyz and /metrics. A budget below every set's build serves 5x5
 * boards without tables ("none"), as a clear line in the log says:
 * the operator asked for no more memory than that.
 */
static void choose_5x5(struct http_server *s, const char **name)
{
    enum puz_pdb_partition part;
    size_t tables = 0, build = 0;
    puz_err rc = puz_pdb_strongest_5x5(s->cfg.pdb_budget, &part);

    (void)puz_pdb_partition_memory(part, &tables, &build);
    if (rc == PUZ_ENOMEM) {
        http__log_line("puzzled: pdb_5x5 = auto: out of memory choosing "
                       "a set: 5x5 boards are served without tables");
        *name = "none";
        return;
    }
    if (rc != PUZ_OK) {
        http__log_line("puzzled: pdb_5x5 = auto: no 5x5 set fits "
                       "pdb_budget (%zu bytes; the smallest, %s, needs "
                       "%.1f MB to build): 5x5 boards are served without "
                       "tables", s->cfg.pdb_budget,
                       puz_pdb_partition_name(part), (double)build / 1e6);
        *name = "none";
        return;
    }
    s->pdb_auto = puz_pdb_partition_name(part);
    snprintf(s->pdb_auto_why, sizeof(s->pdb_auto_why), "pdb_5x5 = auto: "
             "the strongest 5x5 set whose build (%.1f MB, %.1f MB kept) "
             "fits pdb_budget (%.1f MB)", (double)build / 1e6,
             (double)tables / 1e6, (double)s->cfg.pdb_budget / 1e6);
    http__log_line("puzzled: pdb %s: %s", s->pdb_auto, s->pdb_auto_why);
    *name = s->pdb_auto;
}

/* One configured pattern database set of board side n ("none": skip;
 * "auto", 5x5 only: choose_5x5), loaded from the cache or built there;
 * says which in the log. */
static puz_err load_pdb(struct http_server *s, const char *name, unsigned n,
                        char *msg)
{
    enum puz_pdb_partition part;
    struct puz_pdb_opts po = { .progress = log_pdb_progress,
                              .run = pool_run_pieces };
    uint64_t t0 = puz_clock_mono_us();
    puz_pdb *d = NULL;
    char why[PUZ_MSG_MAX] = "";
    puz_err rc;

    if (n == 5 && strcmp(name, "auto") == 0)
        choose_5x5(s, &name);
    if (strcmp(name, "none") == 0 || strcmp(name, "off") == 0 ||
        name[0] == '\0')
        return PUZ_OK;
    /* a second partition's set is only half of a pair (6-6-6-6z2); a
     * rectangle's (3x4, 2x5) is no square's and comes with pdb_rect */
    if (puz_pdb_partition_parse(name, &part) != PUZ_OK ||
        puz_pdb_partition_size(part) != n || part == PUZ_PDB_6666ZB ||
        part == PUZ_PDB_4X6ZB || puz_pdb_partition_rect(part)) {
        snprintf(msg, HTTP_SERVER_MSG, "%s: '%s' is not one of: %s",
                 n == 4 ? "pdb" : "pdb_5x5", name, n == 4
                 ? HTTP_CONFIG_PDB_VALUES : HTTP_CONFIG_PDB_5X5_VALUES);
        return PUZ_EINVAL;
    }
    if (s->cfg.pdb_background)                  /* issue 30 */
        return load_in_background(s, &part, 1, NULL,
                                  n == 4 ? &s->pdb_bg4 : &s->pdb_bg, msg);
    rc = puz_pdb_open(s->cfg.pdb_dir[0] ? s->cfg.pdb_dir : NULL, part, NULL,
                      &po, &d, why);
    if (rc == PUZ_OK) {
        http__log_line("puzzled: pdb %s: %s in %.1f s, %.1f MB",
                       puz_pdb_partition_name(part),
                       puz_pdb_build_seconds(d) > 0 ? "built" : "loaded",
                       (double)(puz_clock_mono_us() - t0) / 1e6,
                       (double)puz_pdb_bytes(d) / 1e6);
        rc = puz_tables_add_pdb(s->tables, d);
    }
    if (rc != PUZ_OK)
        snprintf(msg, HTTP_SERVER_MSG, "cannot load the %s pattern "
                 "databases: %s", name, why[0] ? why : puz_strerror(rc));
    return rc;
}

/* pdb_rect: every rectangle's set, loaded from pdb_dir or built (all
 * of them in about 10 s on two cores, once; 13 MB), before the server
 * listens or, with pdb_background, on a thread of their own. */
static puz_err load_rect(struct http_server *s, char *msg)
{
    struct puz_pdb_opts po = { .progress = log_pdb_progress,
                              .run = pool_run_pieces };
    char why[PUZ_MSG_MAX] = "";
    uint64_t t0 = puz_clock_mono_us();
    size_t bytes = 0;
    puz_err rc = PUZ_OK;

    if (s->cfg.pdb_background) {
        enum puz_pdb_partition parts[PUZ_PDB_PARTITION_COUNT_];
        unsigned n = 0;
        for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_; p++)
            if (puz_pdb_partition_rect((enum puz_pdb_partition)p))
                parts[n++] = (enum puz_pdb_partition)p;
        return load_in_background(s, parts, n, "rectangles",
                                  &s->pdb_bg_rect, msg);
    }
    for (unsigned p = 0; p < PUZ_PDB_PARTITION_COUNT_ && rc == PUZ_OK;
         p++) {
        puz_pdb *d = NULL;
        if (!puz_pdb_partition_rect((enum puz_pdb_partition)p))
            continue;
        rc = puz_pdb_open(s->cfg.pdb_dir[0] ? s->cfg.pdb_dir : NULL,
                          (enum puz_pdb_partition)p, NULL, &po, &d, why);
        if (rc == PUZ_OK) {
            bytes += puz_pdb_bytes(d);
            rc = puz_tables_add_pdb(s->tables, d);
        }
    }
    if (rc != PUZ_OK) {
        snprintf(msg, HTTP_SERVER_MSG, "cannot load the rectangles' "
                 "pattern databases: %s", why[0] ? why : puz_strerror(rc));
        return rc;
    }
    http__log_line("puzzled: pdb_rect: every rectangle's tables ready in "
                   "%.1f s, %.1f MB", (double)(puz_clock_mono_us() - t0) / 1e6,
                   (double)bytes / 1e6);
    return PUZ_OK;
}

static puz_err load_tables(struct http_server *s, char *msg)
{
    struct puz_board goal3;
    puz_err rc;

    puz_board_goal(3, &goal3);
    if (puz_tables_create(&s->tables) != PUZ_OK
        || puz_tables_add_3x3(s->tables) != PUZ_OK) {
        snprintf(msg, HTTP_SERVER_MSG, "cannot build the 3x3 tables");
        return PUZ_ENOMEM;
    }
    /* The default goal's table is one of the bundle's: no second copy. */
    s->table3 = puz_tables_table3(s->tables, &goal3);
    rc = load_pdb(s, s->cfg.pdb, 4, msg);
    if (rc == PUZ_OK)
        rc = load_pdb(s, s->cfg.pdb_5x5, 5, msg);
    if (rc == PUZ_OK && s->cfg.pdb_rect)
        rc = load_rect(s, msg);
    return rc;
}

/* The API keys, when a keys file is named: a file that cannot be read
 * or parsed stops the start (serving without the keys the operator
 * meant would open every job to everyone). */
static puz_err load_keys(struct http_server *s, char *msg)
{
    char why[PUZ_MSG_MAX] = "";
    puz_err rc;

    if (s->cfg.api_keys_file[0] == '\0')
        return PUZ_OK;
    rc = api_keys_load(s->cfg.api_keys_file, &s->keys, why);
    if (rc != PUZ_OK)
        snprintf(msg, HTTP_SERVER_MSG, "api_keys_file: %.255s", why);
    return rc;
}

static void log_store(void *user, const char *line)
{
    (void)user;
    http__log_line("%s", line);
}

/* The store (the daily leaderboard): embedded in state_dir, or shared
 * in Redis when redis_url is set. One that cannot be opened or reached
 * does not stop the start: the daily routes answer 503 and /readyz
 * says why until the store's thread has it back (store.h). A redis_url
 * that is no URL, or trusted_proxies that are no CIDRs, do stop it.
 * "off" runs without a store (the daily routes then say so). */
static puz_err open_store(struct http_server *s, char *msg)
{
    const struct store_limits lim = { s->cfg.daily_starts_max,
                                      s->cfg.daily_entries_max,
                                      s->cfg.daily_move_floor_ms };
    struct store_options o = {
        .dir = s->cfg.state_dir[0] ? s->cfg.state_dir : ".",
        .redis_url = s->cfg.redis_url, .redis_prefix = s->cfg.redis_prefix,
        .timeout_ms = s->cfg.redis_timeout_ms, .log = log_store,
        .limits = &lim,
    };
    char why[PUZ_MSG_MAX] = "";

    if (http__proxies_parse(s->cfg.trusted_proxies, &s->proxies, msg,
                            HTTP_SERVER_MSG) != PUZ_OK)
        return PUZ_EINVAL;
    if (strcmp(s->cfg.state_dir, "off") == 0 && s->cfg.redis_url[0] == '\0')
        return PUZ_OK;
    if (store_start(&o, &s->store, why) != PUZ_OK) {
        snprintf(msg, HTTP_SERVER_MSG, "%.400s", why[0] ? why
                 : "out of memory");
        return PUZ_EINVAL;
    }
    return PUZ_OK;
}

/* The spec is optional: without it /openapi.yaml answers 404. */
static void load_openapi(struct http_server *s)
{
    FILE *f = fopen(s->cfg.openapi_path, "rb");
    long n;

    if (f == NULL) {
        if (s->cfg.openapi_path[0] != '\0')
            http__log_line("puzzled: note: %s: %s; /openapi.yaml will "
                           "answer 404", s->cfg.openapi_path,
                           strerror(errno));
        return;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0
        && fseek(f, 0, SEEK_SET) == 0) {
        s->openapi = malloc((size_t)n);
        if (s->openapi != NULL
            && fread(s->openapi, 1, (size_t)n, f) == (size_t)n)
            s->openapi_len = (size_t)n;
    }
    if (s->openapi_len == 0) {
        free(s->openapi);
        s->openapi = NULL;
    }
    fclose(f);
}

/* The web game is optional too: without it "/" answers 404. */
static void open_static(struct http_server *s)
{
    char why[HTTP_SERVER_MSG];

    if (s->cfg.static_root[0] == '\0')
        return;
    if (http_static_open(s->cfg.static_root, &s->www, why, sizeof(why))
        != PUZ_OK)
        http__log_line("puzzled: note: %s; / will answer 404", why);
}

static puz_err open_log(struct http_server *s, char *msg)
{
    const char *dest = s->cfg.access_log;

    if (strcmp(dest, "off") == 0 || dest[0] == '\0')
        return PUZ_OK;
    if (strcmp(dest, "stderr") == 0) {
        s->log_fd = STDERR_FILENO;
    } else {
        s->log_fd = open(dest, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
                         0644);
        if (s->log_fd < 0) {
            snprintf(msg, HTTP_SERVER_MSG, "cannot open access log %s: %s",
                     dest, strerror(errno));
            return PUZ_EIO;
        }
        s->log_close = true;
    }
    if (http__log_open_buffer(s) != PUZ_OK) {
        snprintf(msg, HTTP_SERVER_MSG, "out of memory");
        return PUZ_ENOMEM;
    }
    return PUZ_OK;
}

puz_err http_server_reopen_log(http_server *s)
{
    int fd;

    if (!s->log_close)
        return PUZ_OK;      /* stderr or off: nothing to reopen */
    fd = open(s->cfg.access_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
              0644);
    if (fd < 0) {
        http__log_line("puzzled: cannot reopen access log %s: %s; still "
                       "writing to the old file", s->cfg.access_log,
                       strerror(errno));
        return PUZ_EIO;
    }
    /* The lines held so far belong to the old file. dup2 swaps the file
     * under log_fd in one step: a concurrent write() goes to the old
     * file or the new one, never nowhere. */
    http__log_flush(s, 0, true);
    if (dup2(fd, s->log_fd) < 0) {
        close(fd);
        return PUZ_EIO;
    }
    close(fd);
    return PUZ_OK;
}

static void set_url(struct http_server *s, int family)
{
    snprintf(s->url, sizeof(s->url), family == AF_INET6 ? "http://[%s]:%u"
             : "http://%s:%u", s->cfg.bind, s->port);
}

/* A listening socket on ai into *fd_out, its port into *port_out. */
static puz_err bind_listen(struct http_server *s, const struct addrinfo *ai,
                           unsigned port, int *fd_out, unsigned *port_out,
                           char *msg)
{
    int one = 1, fd;
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);

    fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
                0);
    if (fd < 0
        || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0
        || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1024) != 0
        || getsockname(fd, (struct sockaddr *)&ss, &len) != 0) {
        snprintf(msg, HTTP_SERVER_MSG, "cannot listen on %s%s%s:%u: %s",
                 ai->ai_family == AF_INET6 ? "[" : "", s->cfg.bind,
                 ai->ai_family == AF_INET6 ? "]" : "", port,
                 strerror(errno));
        if (fd >= 0)
            close(fd);
        return PUZ_EIO;
    }
    *fd_out = fd;
    *port_out = ntohs(ss.ss_family == AF_INET6
                      ? ((struct sockaddr_in6 *)&ss)->sin6_port
                      : ((struct sockaddr_in *)&ss)->sin_port);
    return PUZ_OK;
}

/* A listener on cfg.bind at port: the main one (probe false: the
 * server's port and url) or the probes' (probe_port). */
static puz_err open_listener(struct http_server *s, bool probe, char *msg)
{
    struct addrinfo hints, *ai = NULL;
    unsigned want = probe ? s->cfg.probe_port : s->cfg.port;
    char port[16];
    puz_err rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(port, sizeof(port), "%u", want);
    if (getaddrinfo(s->cfg.bind, port, &hints, &ai) != 0 || ai == NULL) {
        snprintf(msg, HTTP_SERVER_MSG, "bind: '%s' is not a numeric IPv4 "
                 "or IPv6 address", s->cfg.bind);
        return PUZ_EINVAL;
    }
    if (probe) {
        rc = bind_listen(s, ai, want, &s->probe_fd, &s->probe_port, msg);
    } else {
        rc = bind_listen(s, ai, want, &s->listen_fd, &s->port, msg);
        if (rc == PUZ_OK)
            set_url(s, ai->ai_family);
    }
    freeaddrinfo(ai);
    return rc;
}

/* The probes' paths: all the probe listener answers. */
static bool probe_path(const char *url)
{
    static const char *const paths[] = { "/livez", "/healthz", "/readyz",
                                         "/metrics" };

    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
        if (strcmp(url, paths[i]) == 0)
            return true;
    return false;
}

static enum MHD_Result probe_access(void *cls, struct MHD_Connection *c,
                                    const char *url, const char *method,
                                    const char *version, const char *upload,
                                    size_t *upload_size, void **con_cls)
{
    static char nothing[] = "not found: the probe port answers /livez, "
                            "/healthz, /readyz and /metrics\n";
    struct MHD_Response *rsp;
    enum MHD_Result ret;

    if (probe_path(url))
        return http__conn_access(cls, c, url, method, version, upload,
                                 upload_size, con_cls);
    rsp = MHD_create_response_from_buffer(sizeof(nothing) - 1, nothing,
                                          MHD_RESPMEM_PERSISTENT);
    if (rsp == NULL)
        return MHD_NO;
    MHD_add_response_header(rsp, "Content-Type", "text/plain");
    ret = MHD_queue_response(c, MHD_HTTP_NOT_FOUND, rsp);
    MHD_destroy_response(rsp);
    return ret;
}

/*
 * The probes' own listener (probe_port; issue 44 finding 3): /livez,
 * /readyz and /metrics on a small daemon with one thread of its own,
 * out of reach of whatever fills the main port's max_connections (idle
 * sockets, slow heads and bodies, event streams). The kubelet and the
 * scraper are its only clients (no Service exposes it), so its few
 * connections are no one else's to take; they are not the watchdog's.
 */
static puz_err start_probe_daemon(struct http_server *s, char *msg)
{
    puz_err rc;

    if (s->cfg.probe_port == 0)
        return PUZ_OK;
    rc = open_listener(s, true, msg);
    if (rc != PUZ_OK)
        return rc;
    s->probe_daemon = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, NULL,
        NULL, probe_access, s,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)s->probe_fd,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)64,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(16 * 1024),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
        MHD_OPTION_NOTIFY_COMPLETED, http__conn_completed, s,
        MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
        MHD_OPTION_END);
    if (s->probe_daemon == NULL) {
        close(s->probe_fd);
        s->probe_fd = -1;
        snprintf(msg, HTTP_SERVER_MSG, "cannot start the probe daemon on "
                 "port %u", s->probe_port);
        return PUZ_EIO;
    }
    http__log_line("puzzled: /livez, /readyz and /metrics also on port %u "
                   "(probe_port)", s->probe_port);
    return PUZ_OK;
}

static puz_err start_daemon(struct http_server *s, char *msg)
{
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME
                     | MHD_USE_TURBO;

    /* Network threads read, route, decode and write, and answer what
     * costs less than a hand-off (3x3 table walks, scores); every search
     * goes to the pool, so a few of them carry any load: half the
     * cores by default (http_config_http_threads says why). */
    /* MHD's own limit leaves some headroom above ours: past it MHD
     * stops accepting and clients wait unanswered in the backlog, while
     * conns.c answers the excess 503 at once and lets it go. */
    unsigned limit = s->cfg.max_connections + s->cfg.max_connections / 4
                     + 16;

    s->http_threads = http_config_http_threads(&s->cfg);
    if (http__conns_start(s) != PUZ_OK) {
        snprintf(msg, HTTP_SERVER_MSG, "cannot start the connection "
                 "watchdog");
        return PUZ_ENOMEM;
    }
    s->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, http__conn_access, s,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)s->listen_fd,
        MHD_OPTION_THREAD_POOL_SIZE, s->http_threads,
        MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, s->cfg.connection_memory_bytes,
        MHD_OPTION_NOTIFY_CONNECTION, http__conn_notify, s,
        MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)s->cfg.connection_timeout_s,
        MHD_OPTION_NOTIFY_COMPLETED, http__conn_completed, s,
        MHD_OPTION_UNESCAPE_CALLBACK, http__unescape, s,
        MHD_OPTION_URI_LOG_CALLBACK, http__uri_check, s,
        /* RFC 9112: an HTTP/1.1 request without Host is a 400. */
        MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
        MHD_OPTION_END);
    if (s->daemon == NULL) {
        snprintf(msg, HTTP_SERVER_MSG, "cannot start the HTTP daemon on %s",
                 s->url);
        return PUZ_EIO;
    }
    s->mhd_owns_fd = true;
    return PUZ_OK;
}

static puz_err start_pool(struct http_server *s, char *msg)
{
    struct pool_config pc = { 0 };
    puz_err rc;

    s->workers = http_config_workers(&s->cfg);
    pc.workers = s->workers;
    pc.queue = s->cfg.queue;
    pc.nice = (int)s->cfg.worker_nice;
    rc = pool_create(&pc, &s->pool);
    if (rc != PUZ_OK) {
        snprintf(msg, HTTP_SERVER_MSG, "cannot start %u solver threads: %s",
                 s->workers, puz_strerror(rc));
        return PUZ_ENOMEM;
    }
    return PUZ_OK;
}

/* The streams' caps: a quarter of the connections stays out of their
 * reach. */
static void streams_limits(struct http_server *s)
{
    struct http_streams_limits *sl = &s->streams_limits;

    sl->max = s->cfg.max_streams;
    sl->keys = s->keys;
    if (sl->max > s->cfg.max_connections * 3 / 4)
        sl->max = s->cfg.max_connections * 3 / 4 ? s->cfg.max_connections
                  * 3 / 4 : 1;
    sl->per_job = s->cfg.max_streams_per_job;
    sl->per_client = s->cfg.max_streams_per_client;
    sl->lifetime_s = s->cfg.stream_max_s;
}

/* The jobs service's shared backend (jobq.h): with a shared store the
 * jobs are shared too. */
static puz_err create_shared(struct http_server *s)
{
    struct jobq_config qc = {
        .store = s->store, .workers = s->cfg.api.job_workers,
        .queue = s->cfg.api.job_queue, .max = s->cfg.api.job_max,
        .ttl_s = s->cfg.api.job_ttl_s, .lease_ms = s->cfg.job_lease_ms,
        .timeout_ms = s->cfg.redis_timeout_ms,
        .events_max = s->cfg.job_events_max,
        .results_max_bytes = s->cfg.api.job_results_max_bytes,
        .max_attempts = s->cfg.job_max_attempts,
        .nice = (int)s->cfg.worker_nice,
        .tables = s->tables,
        .unit_ran = http__log_unit, .unit_user = s,
    };

    return jobsvc_create_shared(&qc, api_jobs_run, &s->api, &s->jobs);
}

/* Jobs run on workers of their own, so long solves never hold up the
 * quick ones: this process's (embedded), or, with a shared store, those
 * of every instance (shared). Their workers run what may already be
 * queued (shared, or embedded jobs kept in the store's file from before
 * a restart), so they start only once the API they run through is set
 * up (http__api_init). */
static puz_err start_jobs(struct http_server *s, char *msg)
{
    struct jobs_config jc = {
        .workers = s->cfg.api.job_workers, .queue = s->cfg.api.job_queue,
        .ttl_s = s->cfg.api.job_ttl_s, .max = s->cfg.api.job_max,
        .results_max_bytes = s->cfg.api.job_results_max_bytes,
        .nice = (int)s->cfg.worker_nice,
        .max_attempts = s->cfg.job_max_attempts,
        /* embedded: kept in the store's file, when there is one */
        .store = s->store, .body_max_bytes = s->cfg.api.max_body_bytes,
        .log = log_store,
    };
    bool shared = s->store != NULL
                  && strcmp(store_backend(s->store), "shared") == 0;
    puz_err rc;

    streams_limits(s);
    rc = shared ? create_shared(s)
         : jobsvc_create_embedded(&jc, api_jobs_run, &s->api, &s->jobs);
    if (rc == PUZ_OK)
        s->streams = http_streams_create(s->jobs, &s->streams_limits);
    /* Job routes that wait on Redis do so on threads of their own. */
    if (rc == PUZ_OK && jobsvc_may_block(s->jobs))
        rc = pool_create(&(struct pool_config){ HTTP__WAIT_THREADS,
                                                s->cfg.queue, 0 },
                         &s->wait_pool);
    if (rc == PUZ_OK && s->streams != NULL) {
        s->api.jobs = s->jobs;
        return PUZ_OK;
    }
    snprintf(msg, HTTP_SERVER_MSG, "cannot start %u %sjob threads",
             s->cfg.api.job_workers, shared ? "shared " : "");
    return PUZ_ENOMEM;
}

static struct http_server *server_new(const struct http_config *cfg)
{
    struct http_server *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->cfg = *cfg;
    s->listen_fd = -1;
    s->probe_fd = -1;
    s->log_fd = -1;
    s->cors_any = strcmp(cfg->cors_origins, "*") == 0;
    pthread_mutex_init(&s->arena_lock, NULL);
    s->arena_free = calloc(cfg->arena_cache + 1, sizeof(*s->arena_free));
    if (getrandom(&s->id_salt, sizeof(s->id_salt), 0)
        != (ssize_t)sizeof(s->id_salt))
        s->id_salt = (uint64_t)puz_clock_mono_us() ^ ((uint64_t)getpid() << 32);
    http__labels_init(s);
    if (s->arena_free == NULL
        || http_metrics_create(s->labels, s->nlabels, &s->metrics)
           != PUZ_OK) {
        http_server_destroy(s);
        return NULL;
    }
    return s;
}

puz_err http_server_start(const struct http_config *cfg, http_server **out,
                          char *msg)
{
    struct http_server *s;
    puz_err rc;

    *out = NULL;
    msg[0] = '\0';
    api_jalloc_install();
    s = server_new(cfg);
    if (s == NULL) {
        snprintf(msg, HTTP_SERVER_MSG, "out of memory");
        return PUZ_ENOMEM;
    }
    rc = load_tables(s, msg);
    if (rc == PUZ_OK)
        rc = load_keys(s, msg);
    if (rc == PUZ_OK)
        rc = open_store(s, msg);
    if (rc == PUZ_OK)
        rc = open_log(s, msg);
    if (rc == PUZ_OK)
        rc = open_listener(s, false, msg);
    if (rc == PUZ_OK)
        rc = start_pool(s, msg);
    if (rc == PUZ_OK && s->cfg.max_connections_per_ip != 0
        && s->cfg.max_connections_per_ip < s->workers + s->cfg.queue)
        http__log_line("puzzled: note: max_connections_per_ip (%u) is "
                       "below workers + queue (%u): one client address "
                       "cannot fill the queue", s->cfg.max_connections_per_ip,
                       s->workers + s->cfg.queue);
    if (rc == PUZ_OK) {
        http__api_init(s);
        rc = start_jobs(s, msg);
    }
    if (rc == PUZ_OK) {
        load_openapi(s);
        open_static(s);
        rc = start_daemon(s, msg);
    }
    if (rc == PUZ_OK)
        rc = start_probe_daemon(s, msg);
    if (rc == PUZ_OK && http__keysync_start(s) != PUZ_OK) {
        snprintf(msg, HTTP_SERVER_MSG, "cannot start the API keys' sync");
        rc = PUZ_ENOMEM;
    }
    if (rc != PUZ_OK) {
        http_server_destroy(s);
        return rc;
    }
    *out = s;
    return PUZ_OK;
}

unsigned http_server_port(const http_server *s)
{
    return s->port;
}

unsigned http_server_probe_port(const http_server *s)
{
    return s->probe_daemon != NULL ? s->probe_port : 0;
}

const char *http_server_url(const http_server *s)
{
    return s->url;
}

/* Let answers already resumed reach their clients; bounded. */
static void wait_in_flight(struct http_server *s, unsigned ms)
{
    uint64_t until = puz_clock_mono_us() + (uint64_t)ms * 1000u;

    while (atomic_load(&s->in_flight) != 0 && puz_clock_mono_us() < until)
        usleep(HTTP__SHUTDOWN_POLL_MS * 1000);
}

static void drain_pool(struct http_server *s, pool_t *p, const char *what)
{
    struct pool_stats st;

    if (p == NULL)
        return;
    pool_close(p);
    /* Queued solves would never start: their 503 goes out now, not
     * when a worker frees up or the grace period ends. */
    pool_flush_waiting(p);
    if (pool_drain(p, s->cfg.shutdown_grace_ms) == PUZ_OK)
        return;
    pool_get_stats(p, &st);
    http__log_line("puzzled: grace period of %u ms over, cancelling %u "
                   "running %s", s->cfg.shutdown_grace_ms, st.busy, what);
    pool_cancel_all(p);
    pool_drain(p, 10000);
}

void http_server_shutdown(http_server *s)
{
    if (s == NULL || s->stopped)
        return;
    s->stopped = true;
    /* From here a solve is answered 503 shutting-down and every reply
     * closes its connection; new connections are still accepted and
     * served that way (conns.c), so none waits in the backlog through
     * the grace period. The listener stays with MHD until MHD_stop_daemon:
     * MHD_quiesce_daemon from this thread raced the epoll thread, which
     * takes the listen socket out of its epoll set at the connection
     * limit, and libmicrohttpd 0.9.75 aborted ("Failed to remove listen
     * FD from epoll set"). */
    atomic_store(&s->draining, 1);
    /* Jobs get no grace: embedded ones end cancelled at once, shared
     * ones running here give their lease back (another instance runs
     * them again); their streams send the final event, or end so that
     * their clients reconnect elsewhere, while the daemon still runs. */
    jobsvc_shutdown(s->jobs, "the server is shutting down");
    http_streams_shutdown(s->streams, SHUTDOWN_STEP_MS);
    drain_pool(s, s->pool, "solves");
    drain_pool(s, s->wait_pool, "job requests");
    /* Every job ran its done(), so no connection is suspended now. */
    wait_in_flight(s, SHUTDOWN_STEP_MS);
    if (s->daemon != NULL)
        MHD_stop_daemon(s->daemon);
    s->daemon = NULL;
    http__keysync_stop(s);
    /* The probes answer to the end (/readyz says draining). */
    if (s->probe_daemon != NULL)
        MHD_stop_daemon(s->probe_daemon);  /* closes probe_fd */
    s->probe_daemon = NULL;
    s->probe_fd = -1;
    http__conns_stop(s);
    /* MHD_stop_daemon closed the socket if it still owned it. */
    if (s->listen_fd >= 0 && !s->mhd_owns_fd)
        close(s->listen_fd);
    s->listen_fd = -1;
    pool_destroy(s->pool);
    s->pool = NULL;
    pool_destroy(s->wait_pool);
    s->wait_pool = NULL;
    http_streams_destroy(s->streams);
    s->streams = NULL;
}

void http_server_destroy(http_server *s)
{
    if (s == NULL)
        return;
    http_server_shutdown(s);
    for (unsigned i = 0; i < s->arena_nfree; i++)
        puz_arena_destroy(s->arena_free[i]);
    free(s->arena_free);
    http__log_close_buffer(s);     /* its last lines; nothing writes now */
    if (s->log_close)
        close(s->log_fd);
    http__conns_destroy(s);
    jobsvc_destroy(s->jobs);
    http_metrics_destroy(s->metrics);
    http_static_close(s->www);
    free(s->openapi);
    /* a build still running keeps the bundle it will add to */
    bool ended = http_pdb_bg_destroy(s->pdb_bg);
    ended = http_pdb_bg_destroy(s->pdb_bg4) && ended;
    ended = http_pdb_bg_destroy(s->pdb_bg_rect) && ended;
    if (ended)
        puz_tables_destroy(s->tables);
    store_close(s->store);
    http__proxies_free(s->proxies);
    api_keys_free(s->keys);
    pthread_mutex_destroy(&s->arena_lock);
    free(s);
}
