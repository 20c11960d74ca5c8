/*
 * http_config.h - every setting of `puzzled serve`, and where it comes
 * from: built-in defaults, then the config file (key = value), then
 * environment variables PUZZLED_<KEY>, then command-line flags --<key>.
 * Loaded once at start-up and read-only afterwards.
 */
#ifndef HTTP_CONFIG_H
#define HTTP_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api_limits.h"
#include "puz_err.h"

#define HTTP_CONFIG_STR 512
/* Room for any message this module writes: a setting's file name (at
 * most HTTP_CONFIG_STR) and line around a value's message (see
 * PUZ_MSG_MAX for the contract). */
#define HTTP_CONFIG_MSG (HTTP_CONFIG_STR + 128)

struct http_config {
    char bind[64];              /* numeric IPv4 or IPv6 address */
    unsigned port;              /* 0 = any free port */
    unsigned workers;           /* solver threads; 0 = number of cores */
    unsigned queue;             /* jobs allowed to wait for a worker */
    unsigned http_threads;      /* network threads; 0 = half the cores */
    unsigned max_connections;
    size_t connection_memory_bytes; /* libmicrohttpd's buffers for one
                                     * connection: the head must fit */
    unsigned max_connections_per_ip;    /* 0 = no per-address limit */
    unsigned connection_timeout_s;  /* idle keep-alive connections */
    unsigned request_head_timeout_s;    /* whole head, from the connection's
                                         * start (or the previous answer
                                         * plus connection_timeout_s) */
    unsigned request_body_timeout_s;    /* whole body, from the head */
    struct api_limits api;      /* what the API enforces (api_limits.h) */
    size_t max_discard_bytes;   /* past the cap, read and dropped so the
                                 * 413 is not lost to a reset */
    unsigned shutdown_grace_ms; /* in-flight solves get this long */
    unsigned arena_cache;       /* idle request arenas kept for reuse */
    char cors_origins[HTTP_CONFIG_STR];  /* "*", or comma-separated */
    char static_root[HTTP_CONFIG_STR];   /* web game files; "" = none */
    char openapi_path[HTTP_CONFIG_STR];  /* served at /openapi.yaml */
    char access_log[HTTP_CONFIG_STR];    /* "stderr", "off" or a path */
    unsigned access_log_flush_ms;   /* 0: each line written at once */
    char pdb[16];                        /* 4x4 tables: none, 6-6-3, 7-8 */
    char pdb_5x5[16];                    /* 5x5 tables: none, auto,
                                          * 6-6-6-6... */
    size_t pdb_budget;                   /* auto: the most a 5x5 build
                                          * may hold, bytes */
    char pdb_dir[HTTP_CONFIG_STR];       /* their cache; "" = build only */
    unsigned pdb_rect;                   /* 1: the rectangles' tables */
    unsigned pdb_background;             /* 1: pdb_5x5 built/loaded after
                                          * ready, at low priority */
    char state_dir[HTTP_CONFIG_STR];     /* the store (daily leaderboard);
                                          * "off" = none */
    char api_keys_file[HTTP_CONFIG_STR]; /* API keys; "" = none */
    unsigned jobs_list_anonymous;   /* 1: GET /v1/jobs without a key */
    unsigned worker_nice;       /* solver and job threads run this much
                                 * nicer than the network threads */
    unsigned max_streams;       /* job event streams open at once (at
                                 * most 3/4 of max_connections) */
    unsigned max_streams_per_job;
    unsigned max_streams_per_client;
    unsigned stream_max_s;      /* a stream's lifetime; 0 = none */
    char redis_url[HTTP_CONFIG_STR];     /* the shared store; "" = none */
    char redis_prefix[128];              /* of every Redis key */
    unsigned redis_timeout_ms;  /* connect and command */
    unsigned job_lease_ms;      /* shared jobs: a runner's lease */
    unsigned job_max_attempts;  /* shared jobs: runs, then failed */
    unsigned job_events_max;    /* shared jobs: events kept per job */
    char trusted_proxies[HTTP_CONFIG_STR]; /* CIDRs whose X-Forwarded-For
                                            * counts; "" = none */
    unsigned probe_port;        /* /livez, /readyz, /metrics on a listener
                                 * of their own; 0 = none */
    unsigned daily_starts_max;  /* unused start tokens kept per board */
    unsigned daily_entries_max; /* entries kept per board */
    unsigned daily_move_floor_ms;   /* least ms a move of a ranked run */
};

/* What the server's pdb settings accept (load_pdb in server.c checks
 * them; the reference lists them). */
#define HTTP_CONFIG_PDB_VALUES "none (or off), 6-6-3, 7-8"
#define HTTP_CONFIG_PDB_5X5_VALUES "none (or off), auto, 6-6-6-6, 6-6-6-6z, " \
    "6-6-6-6z2, 4x6, 4x6z, 4x6z2"

/* What `puzzled serve` was asked to do: serve, or print and exit. */
enum http_config_action {
    HTTP_CONFIG_SERVE = 0,
    HTTP_CONFIG_HELP,               /* -h, --help */
    HTTP_CONFIG_PRINT_CONF,         /* --print-defaults[=conf] */
    HTTP_CONFIG_PRINT_MARKDOWN,     /* --print-defaults=markdown */
    HTTP_CONFIG_PRINT_MAN,          /* --print-defaults=man */
    HTTP_CONFIG_PRINT_EFFECTIVE,    /* --print-config */
};

/* Built-in defaults. */
void http_config_defaults(struct http_config *c);

/* Set one key from its text value. On PUZ_EINVAL msg (HTTP_CONFIG_MSG)
 * says what is wrong; unknown keys are an error. */
puz_err http_config_set(struct http_config *c, const char *key,
                        const char *value, char *msg);

/* Apply a key = value file; '#' starts a comment. Errors name the file
 * and line. PUZ_EIO if it cannot be read. */
puz_err http_config_load_file(struct http_config *c, const char *path,
                              char *msg);

/* Apply PUZZLED_<KEY> environment variables (PUZZLED_CONFIG excepted). */
puz_err http_config_load_env(struct http_config *c, char *msg);

/*
 * Everything in order: defaults, --config FILE or PUZZLED_CONFIG, the
 * environment, then the flags in argv[1..argc-1] ("--key value" or
 * "--key=value", dashes or underscores). *action (enum
 * http_config_action) says what was asked: HTTP_CONFIG_HELP for
 * -h/--help and the PRINT_ ones for --print-defaults (nothing else is
 * read or checked then), HTTP_CONFIG_PRINT_EFFECTIVE for --print-config
 * (after everything was read), HTTP_CONFIG_SERVE otherwise.
 */
puz_err http_config_from_args(struct http_config *c, int argc,
                              char **argv, int *action, char *msg);

/* Solver threads to start: c->workers, or the number of cores if 0. */
unsigned http_config_workers(const struct http_config *c);

/* Network threads to start: c->http_threads, or half the cores (at
 * least one) if 0. */
unsigned http_config_http_threads(const struct http_config *c);

/* The text of `puzzled serve --help`: every key, its flag, its
 * environment variable and its default. */
void http_config_usage(FILE *out);

/*
 * The reference of every key, printed from the keys' table: a commented
 * puzzled.conf (HTTP_CONFIG_PRINT_CONF: defaults; PRINT_EFFECTIVE: c's
 * values, set where they differ from the default), the tables of
 * docs/operations.md (PRINT_MARKDOWN) or the key list of puzzled.conf(5)
 * (PRINT_MAN). `make config-docs` writes them into the repository's files.
 */
void http_config_print(FILE *out, enum http_config_action what,
                       const struct http_config *c);

#endif
