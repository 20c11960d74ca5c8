/*
 * api_int.h - what the files of src/api/ share and nobody else sees:
 * the route functions the table in api.c names, and the steps most of
 * them begin with.
 */
#ifndef API_INT_H
#define API_INT_H

#include <jansson.h>

#include "api.h"
#include "api_decode.h"
#include "jobs.h"

/* api_solve.c */
void api__solve(struct api_call *c);
void api__solve_work(struct api_call *c);
void api__batch(struct api_call *c);
void api__batch_work(struct api_call *c);

/* api_score.c */
void api__score(struct api_call *c);
void api__score_work(struct api_call *c);

/* api_catalog.c */
void api__catalog(struct api_call *c);

/* api_jobs.c */
void api__jobs_submit(struct api_call *c);
void api__jobs_submit_work(struct api_call *c);
void api__jobs_list(struct api_call *c);
void api__jobs_list_work(struct api_call *c);
void api__jobs_get(struct api_call *c);
void api__jobs_get_work(struct api_call *c);
void api__jobs_delete(struct api_call *c);
void api__jobs_delete_work(struct api_call *c);
/* The body of a job's request decoded against the job caps and checked
 * as /v1/solve checks it; false with the problem answered. */
bool api__jobs_decode(struct api_call *c, struct api_solve_request *q);

/* idem.c: the call's Idempotency-Key as a struct jobs_idem (key ""
 * when it sent none); false with the 400 answered when the header
 * cannot be a key. Then the answers of a key's second use: another
 * body (422), and the mark of a replayed submission (a header). */
bool api__jobs_idem(struct api_call *c, struct jobs_idem *idem);
void api__jobs_idem_reused(struct api_call *c);
void api__jobs_replayed(struct api_call *c);

/* trace.c: W3C Trace Context for jobs. The trace id a job keeps: the
 * trace-id of the call's traceparent when it is one, else a new random
 * one (JOBS_TRACE_LEN + 1 bytes into out). Then the traceparent header
 * of an answer about job (id) of that trace: the job is its span. */
void api__trace_id(const struct api_call *c, char *out);
void api__trace_header(struct api_call *c, const char *trace,
                       const char *job);

/* api_daily.c */
void api__daily(struct api_call *c);
void api__daily_entry(struct api_call *c);
void api__daily_start(struct api_call *c);
void api__daily_finish(struct api_call *c);
void api__daily_work(struct api_call *c);

/* api_random.c */
void api__random(struct api_call *c);

/* True (and the 503 answered) when the server is draining. */
bool api__refuse_when_draining(struct api_call *c);

/* Parse the body as a JSON object (new reference in *root); false with
 * the problem answered when it is not one. */
bool api__parse_body(struct api_call *c, json_t **root);

/* The opening of every POST route that may search: refuse while
 * draining, parse the body (*root), and size zeroed bytes of state in
 * the arena (*state). False when that answered already. */
bool api__open(struct api_call *c, size_t size, void **state,
               json_t **root);

/* Its end, after decoding: root is dropped; when rc is not PUZ_OK the
 * decoder's problem p is answered and the result is false. */
bool api__decoded(struct api_call *c, json_t *root, puz_err rc,
                  const struct api_problem *p);

/* A solve request turned into the solver's options, the one way: the
 * common ones, then the request's algorithm, heuristic, goal and limits
 * (q's board passed api__solve_check, so parity is known). Every route
 * that searches - solve, batch, jobs, score, the daily's par - goes
 * through here. */
void api__request_opts(const struct api_call *c,
                       const struct api_solve_request *q,
                       uint64_t deadline_us, struct puz_solve_opts *o);

/* puz_solve in the call's scratch arena under what is left of its
 * budget; the path (moves, tiles) is then copied into the call's arena
 * and the scratch emptied, so the search's memory is free again for
 * the answer. A path that cannot be kept ends as limit_memory. */
puz_err api__search(struct api_call *c, const struct puz_board *b,
                    struct puz_solve_opts *o, struct puz_result *res);

/* What is left of the call's budget (0: it has none). */
size_t api__budget_left(const struct api_call *c);

/* A search that produced no answer to show; false when res is good. */
bool api__solve_problem(const struct api_call *c, puz_err rc,
                        const struct puz_result *res, struct api_problem *p);

/* Why c's work was cancelled, truthfully: the server is shutting down
 * (503), or the client closed its connection (499, for the log: nobody
 * reads it). */
void api__cancelled(const struct api_call *c, struct api_problem *p);

/* Whether q's board can reach its goal; false with the 422 (the parity
 * explanation) answered. Every route that takes a solve request checks
 * it here, once, before any work is queued. */
bool api__solve_check(struct api_call *c, const struct api_solve_request *q);

/* The work of /v1/solve for q, on this thread, into c's answer: what a
 * job runs (api_jobs.c), so a job's result is /v1/solve's answer. */
void api__solve_run(struct api_call *c, const struct api_solve_request *q);

/* Count one finished search: nodes for the access log, and the ctx's
 * listener (metrics). */
void api__record(struct api_call *c, const struct puz_result *res);

/* Whether an answer of n encoded bytes may go out; false with p set
 * (answer-too-large) when part of its JSON could not be allocated, when
 * n is over max_response_bytes, or when the call's budget has no room
 * for n bytes twice: the encoded answer and the server's copy of it
 * that goes out. */
bool api__answer_fits(const struct api_call *c, size_t n,
                      struct api_problem *p);
/* p = answer-too-large: over max_response_bytes at n bytes, or (n = 0)
 * over the call's memory budget. */
void api__too_large(const struct api_call *c, size_t n,
                    struct api_problem *p);

/* puz_clock_mono_us() + ms. */
uint64_t api__deadline_in(unsigned ms);
/* When one solve of q must end (api_solve.c): its timeout_ms from now,
 * or API_ANYTIME_DEFAULT_MS when it named none and the board is one the
 * anytime search serves (auto on 5x5 and up, rectangles without tables). */
uint64_t api__solve_deadline(const struct api_call *c,
                             const struct api_solve_request *q);

#endif
