/*
 * api_limits.h - the limits the API enforces on what a client may ask
 * for and what an answer may cost. The API owns them (their defaults,
 * ranges and docs are its rows in limits.c); the server's settings hold
 * one (struct http_config's `api` member) and take those rows in as keys
 * of their own, so `puzzled serve` fills them from its config file, the
 * environment and its flags without the API knowing about any of those.
 */
#ifndef API_LIMITS_H
#define API_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conf_key.h"

struct api_limits {
    size_t max_body_bytes;      /* request body cap (413 above) */
    unsigned json_max_depth;    /* nesting of arrays/objects (400 above) */
    unsigned batch_max;         /* boards per /v1/solve/batch */
    unsigned score_max_moves;   /* moves per /v1/score */
    unsigned random_max_moves;  /* ?moves= of /v1/puzzles/random, N > 3 */
    uint64_t solve_max_nodes;   /* default and cap of limits.max_nodes */
    unsigned solve_timeout_ms;  /* default and cap of limits.timeout_ms */
    size_t solve_max_bytes;     /* bytes one request (or one job's run)
                                 * may use: search, JSON, the answer */
    size_t max_response_bytes;  /* largest answer body */
    unsigned batch_timeout_ms;  /* a whole batch, all boards together */
    unsigned retry_after_s;     /* Retry-After of 503 answers */
    size_t arena_chunk_bytes;   /* first chunk of a request arena */
    unsigned job_workers;       /* threads for /v1/jobs, apart */
    unsigned job_queue;         /* jobs allowed to wait (503 above) */
    unsigned job_timeout_ms;    /* default and cap of a job's timeout */
    uint64_t job_max_nodes;     /* default and cap of a job's max_nodes */
    unsigned job_ttl_s;         /* finished jobs are kept this long */
    unsigned job_max;           /* jobs held in memory at most */
    size_t job_results_max_bytes;   /* answer bytes all finished jobs
                                     * hold together */
    unsigned cores;             /* online CPUs: a job's threads are at
                                 * most cores / job_workers */
};

/* The built-in defaults (from the rows of api_limits_keys). */
void api_limits_defaults(struct api_limits *l);

/* The limits as settings: one row each, offsets into struct api_limits
 * (every member but cores); *n gets their number. */
const struct conf_key *api_limits_keys(size_t *n);

/*
 * What a solve request is decoded against: /v1/solve's caps, or a job's
 * (which may ask for far more time and nodes, and runs on the jobs'
 * workers).
 */
struct api_solve_caps {
    uint64_t max_nodes;         /* default and cap of limits.max_nodes */
    unsigned timeout_ms;        /* default and cap of limits.timeout_ms */
    unsigned threads_max;       /* cap of "threads"; 0: refused (422) */
};

/* The caps of /v1/solve (job false) or of POST /v1/jobs (job true). */
struct api_solve_caps api_limits_solve_caps(const struct api_limits *l,
                                            bool job);

#endif
