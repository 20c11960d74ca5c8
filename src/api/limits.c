/*
 * limits.c - the API's limits: their defaults (the server's settings
 * start from these) and the caps one kind of solve is decoded against.
 */
#include "api_limits.h"

#include <string.h>
#include <unistd.h>

void api_limits_defaults(struct api_limits *l)
{
    memset(l, 0, sizeof(*l));
    l->max_body_bytes = 64 * 1024;
    l->json_max_depth = 32;
    l->batch_max = 100;
    l->score_max_moves = 10000;
    l->random_max_moves = 1000;
    l->solve_max_nodes = 1000000000;
    l->solve_timeout_ms = 10000;
    l->solve_max_bytes = 512u << 20;
    l->max_response_bytes = 8u << 20;
    l->batch_timeout_ms = 30000;
    l->retry_after_s = 1;
    l->arena_chunk_bytes = 16 * 1024;   /* a 3x3 request peaks near 10k */
    l->job_workers = 1;
    l->job_queue = 16;
    l->job_timeout_ms = 3600000;
    l->job_max_nodes = UINT64_C(1) << 40;
    l->job_ttl_s = 3600;
    l->job_max = 1000;
    /* Eight answers of the largest size: what finished jobs may hold in
     * all (docs/operations.md's sizing counts it). */
    l->job_results_max_bytes = 64u << 20;
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
