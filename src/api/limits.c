/*
 * limits.c - the API's limits: one row each (name, default, range, doc),
 * which the server's settings table takes in as its own keys (see
 * include/conf_key.h), and the caps one kind of solve is decoded against.
 */
#include "api_limits.h"

#include <string.h>
#include <unistd.h>

#define OFF(f) offsetof(struct api_limits, f)
#define GIB (1024ull * 1024 * 1024)
#define NUM(k, f) .kind = k, .off = OFF(f)

static const struct conf_key keys[] = {
    { "solve_max_nodes", NUM(CONF_U64, solve_max_nodes), .section = CONF_SEC_SOLVE,
      .min = 1, .max = UINT64_C(1) << 40, .def = 1000000000,
      .help = "default and cap of limits.max_nodes" },
    { "solve_timeout_ms", NUM(CONF_UINT, solve_timeout_ms), .section = CONF_SEC_SOLVE,
      .min = 1, .max = 3600000, .def = 10000,
      .help = "default and cap of limits.timeout_ms (queue wait included)" },
    { "solve_max_bytes", NUM(CONF_SIZE, solve_max_bytes), .section = CONF_SEC_SOLVE,
      .min = 1ull << 20, .max = 64 * GIB, .def = 512u << 20,
      .help = "memory one request may use: search, JSON and answer" },
    { "batch_timeout_ms", NUM(CONF_UINT, batch_timeout_ms), .section = CONF_SEC_SOLVE,
      .min = 1, .max = 3600000, .def = 30000,
      .help = "time for a whole batch; boards not reached end as timeout" },
    { "retry_after_s", NUM(CONF_UINT, retry_after_s), .section = CONF_SEC_SOLVE,
      .min = 1, .max = 3600, .def = 1,
      .help = "Retry-After of 503 answers" },
    { "job_workers", NUM(CONF_UINT, job_workers), .section = CONF_SEC_JOBS,
      .min = 1, .max = 256, .def = 1,
      .help = "threads running /v1/jobs, apart from the solve workers" },
    { "job_queue", NUM(CONF_UINT, job_queue), .section = CONF_SEC_JOBS,
      .min = 1, .max = 100000, .def = 16,
      .help = "jobs allowed to wait for a job worker; more get 503" },
    { "job_timeout_ms", NUM(CONF_UINT, job_timeout_ms), .section = CONF_SEC_JOBS,
      .min = 1, .max = 86400000, .def = 3600000,
      .help = "default and cap of a job's limits.timeout_ms (from its "
      "start)" },
    { "job_max_nodes", NUM(CONF_U64, job_max_nodes), .section = CONF_SEC_JOBS,
      .min = 1, .max = UINT64_C(1) << 50, .def = UINT64_C(1) << 40,
      .help = "default and cap of a job's limits.max_nodes" },
    { "job_ttl_s", NUM(CONF_UINT, job_ttl_s), .section = CONF_SEC_JOBS,
      .min = 0, .max = 604800, .def = 3600,
      .help = "finished jobs are kept this many seconds" },
    { "job_max", NUM(CONF_UINT, job_max), .section = CONF_SEC_JOBS,
      .min = 1, .max = 1000000, .def = 1000,
      .help = "jobs held in memory at most; the oldest finished go first" },
    /* Eight answers of the largest size: what finished jobs may hold in
     * all (docs/operations.md's sizing counts it). */
    { "job_results_max_bytes", NUM(CONF_SIZE, job_results_max_bytes),
      .section = CONF_SEC_JOBS, .min = 64 << 10, .max = 64 * GIB, .def = 64u << 20,
      .help = "answer bytes all finished jobs hold together; the oldest "
      "finished go first" },
    { "max_body_bytes", NUM(CONF_SIZE, max_body_bytes), .section = CONF_SEC_REQUESTS,
      .min = 64, .max = 64ull << 20, .def = 64 * 1024,
      .help = "request body cap (413 above)" },
    { "max_response_bytes", NUM(CONF_SIZE, max_response_bytes),
      .section = CONF_SEC_REQUESTS, .min = 64 << 10, .max = 1ull << 30,
      .def = 8u << 20, .help = "largest answer body; a bigger one is "
      "refused 422 (answer-too-large), a batch entry says limit_memory" },
    { "json_max_depth", NUM(CONF_UINT, json_max_depth), .section = CONF_SEC_REQUESTS,
      .min = 2, .max = 1024, .def = 32,
      .help = "deepest nesting of JSON arrays/objects accepted" },
    { "batch_max", NUM(CONF_UINT, batch_max), .section = CONF_SEC_REQUESTS,
      .min = 1, .max = 100000, .def = 100,
      .help = "boards per /v1/solve/batch request" },
    { "score_max_moves", NUM(CONF_UINT, score_max_moves), .section = CONF_SEC_REQUESTS,
      .min = 1, .max = 10000000, .def = 10000,
      .help = "moves per /v1/score request" },
    { "random_max_moves", NUM(CONF_UINT, random_max_moves),
      .section = CONF_SEC_REQUESTS, .min = 1, .max = 1000000, .def = 1000,
      .help = "largest ?moves= of /v1/puzzles/random for sizes above 3" },
    /* a 3x3 request peaks near 10k */
    { "arena_chunk_bytes", NUM(CONF_SIZE, arena_chunk_bytes), .section = CONF_SEC_FILES,
      .min = 1024, .max = 64ull << 20, .def = 16 * 1024,
      .help = "first chunk of each request arena" },
};

const struct conf_key *api_limits_keys(size_t *n)
{
    *n = sizeof(keys) / sizeof(keys[0]);
    return keys;
}

void api_limits_defaults(struct api_limits *l)
{
    memset(l, 0, sizeof(*l));
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        conf_key_default(&keys[i], l);
    l->cores = sysconf(_SC_NPROCESSORS_ONLN) > 0
             ? (unsigned)sysconf(_SC_NPROCESSORS_ONLN) : 1;
}

struct api_solve_caps api_limits_solve_caps(const struct api_limits *l,
                                            bool job)
{
    struct api_solve_caps caps = {
        .max_nodes = job ? l->job_max_nodes : l->solve_max_nodes,
        .timeout_ms = job ? l->job_timeout_ms : l->solve_timeout_ms,
    };

    /* a job may spread one search over its share of the cores; a
     * /v1/solve runs on the worker that took it */
    if (job) {
        unsigned w = l->job_workers > 0 ? l->job_workers : 1;
        caps.threads_max = l->cores / w > 0 ? l->cores / w : 1;
    }

    return caps;
}
