/*
 * api_decode.h - from request bytes to validated C values: JSON parsing
 * with a depth bound, boards in every accepted form, solve options with
 * the server's caps applied, batch entries and score moves.
 *
 * Nothing here touches the network or a thread: every function is
 * tested on plain strings. Failures fill a struct api_problem that the
 * server sends as it is.
 */
#ifndef API_DECODE_H
#define API_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "api_limits.h"
#include "api_problem.h"
#include "puz_arena.h"
#include "puz_board.h"
#include "puz_err.h"
#include "puz_heuristic.h"
#include "puz_score.h"
#include "puz_solve.h"

/* limits.timeout_ms of a /v1/solve with auto (or anytime) on 5x5 and up
 * when the client gives none (at most the server's cap). */
#define API_ANYTIME_DEFAULT_MS 1000u

/* The cap of limits.max_depth over HTTP: a dfs that deep already takes
 * longer than any request's timeout. */
#define API_DECODE_MAX_DEPTH 1000u

/* What /v1/solve asks for, and the shared options of a batch. */
struct api_solve_request {
    struct puz_board board;
    bool has_goal;              /* goal given by the client */
    struct puz_board goal;      /* valid only when has_goal */
    enum puz_algorithm algorithm;
    const puz_heuristic *heuristic;     /* NULL = the solver's default */
    uint64_t max_nodes;         /* never above the config cap */
    unsigned timeout_ms;        /* never above the config cap */
    bool timeout_set;           /* limits.timeout_ms was in the request
                                 * (else the anytime search gets a second:
                                 * api_solve.c) */
    unsigned max_depth;         /* dfs; 0 = solver default */
    unsigned weight;            /* wastar, PUZ_WASTAR_WEIGHT_MIN..MAX;
                                 * 0 = solver default */
    bool include_path;
    unsigned trace;             /* expansions to record; 0 = none */
    bool effort;                /* report expansions per layer */
    unsigned threads;           /* jobs: IDA* on this many threads,
                                 * capped by caps.threads_max; 0 = one */
};

struct api_batch_entry {
    bool ok;                    /* board decoded and solvable */
    struct puz_board board;
    struct api_problem problem;  /* when !ok; pointer names the entry */
};

struct api_batch_request {
    struct api_solve_request opts;     /* board unused */
    size_t count;
    struct api_batch_entry *entries;   /* count entries, in the arena */
};

struct api_score_request {
    struct puz_board board;
    bool has_goal;
    struct puz_board goal;
    size_t count;
    struct puz_move *moves;     /* count moves, in the arena */
};

/*
 * Parse a request body. Rejects nesting deeper than max_depth, duplicate
 * keys, invalid UTF-8 and anything but an object; malformed input gives
 * API_PROBLEM_MALFORMED_JSON with line and column. *out is a new
 * reference on success, NULL otherwise.
 */
puz_err api_decode_json(const char *buf, size_t len, unsigned max_depth,
                         json_t **out, struct api_problem *err);

/*
 * A board: array of rows, flat array of tiles, or a string
 * (puz_board_parse). ptr is its JSON pointer ("/board"), used in
 * messages and err->pointer.
 */
puz_err api_decode_board(const json_t *v, const char *ptr,
                          struct puz_board *out, struct api_problem *err);
/* The same with the body's "rows" and "cols" (0 and 0: none): a flat
 * array or a string is read in that shape (an array of rows carries its
 * own). */
puz_err api_decode_board_shape(const json_t *v, unsigned rows, unsigned cols,
                                const char *ptr, struct puz_board *out,
                                struct api_problem *err);

/* Whether board can reach goal (NULL = default goal); PUZ_EUNSOLVABLE
 * with the parity explanation, PUZ_EINVAL when the sizes differ. */
puz_err api_decode_solvable(const struct puz_board *board,
                             const struct puz_board *goal,
                             struct api_problem *err);

/* The body of POST /v1/solve. */
puz_err api_decode_solve(const json_t *root,
                          const struct api_solve_caps *caps,
                          struct api_solve_request *out,
                          struct api_problem *err);

/* The longest board string the fast path takes (an 8x8 board written
 * with single spaces needs 183 bytes); longer ones go the full way. */
#define API_DECODE_FAST_BOARD_MAX 512

/*
 * The common /v1/solve body, {"board": "<tiles>"} with JSON whitespace
 * around any token, decoded without building a JSON tree. True with
 * *out exactly as api_decode_json + api_decode_solve would fill it;
 * false for any other body (another key, an escape in the string, a
 * board puz_board_parse refuses, ...), which the caller then decodes in
 * full: every error, and its wording, comes from that path.
 */
bool api_decode_solve_fast(const char *buf, size_t len,
                           const struct api_solve_caps *caps,
                           struct api_solve_request *out);

/* The body of POST /v1/solve/batch. Shared options failing fails the
 * request; a bad board only marks its own entry. Entries come from a. */
puz_err api_decode_batch(const json_t *root, const struct api_limits *cfg,
                          puz_arena *a, struct api_batch_request *out,
                          struct api_problem *err);

/* The body of POST /v1/score. Moves come from a. Legality is not checked
 * here (an illegal move is a score, not an error). */
puz_err api_decode_score(const json_t *root, const struct api_limits *cfg,
                          puz_arena *a, struct api_score_request *out,
                          struct api_problem *err);

#endif
