/*
 * api_score.c - POST /v1/score: decode the player's moves and hand them
 * to the core's puz_score (replay, optimum, ratio). On 3x3 the exact
 * table knows the optimum at once and the route answers inline; larger
 * boards search on a worker, for as long as a /v1/solve of the board
 * naming no limits would: on the boards the anytime search serves (5x5
 * and up, rectangles without tables) a second, not solve_timeout_ms. An
 * optimal count is rarely found there; a shared 4x5 took 8.4 s of a
 * worker (9.6 M nodes) to say null while the game's card waited. Moves
 * that do not reach the goal (an illegal one, or stopping short) score
 * 0 whatever the optimum: on those larger boards they are answered at
 * once, with optimal_moves null, rather than after such a search.
 */
#include "api_int.h"

#include <string.h>

#include "codec.h"

struct score_state {
    struct api_score_request req;
    uint64_t deadline_us;
};

/* puz_score, inline (3x3 from the table) or on the worker (a search). */
static void run_score(struct api_call *c, const struct score_state *s)
{
    /* The optimal length is a solve of the board: the same request. */
    struct api_solve_request q = {
        .board = s->req.board, .has_goal = s->req.has_goal,
        .goal = s->req.goal, .max_nodes = c->ctx->lim->solve_max_nodes,
    };
    struct puz_score_result r;
    struct puz_solve_opts o;
    struct api_problem p;
    puz_err rc;

    api__request_opts(c, &q, s->deadline_us, &o);
    rc = puz_score(&s->req.board, s->req.moves, s->req.count, &o, c->arena,
                   &r);
    if (r.searched && rc == PUZ_OK)
        api__record(c, &r.solve);
    if (api__solve_problem(c, rc, &r.solve, &p)) {
        api_answer_problem(c, &p);
        return;
    }
    api_answer_json(c, 200, codec_score_json(&r));
}

/* The deadline of the search for r's optimum: that of a /v1/solve of the
 * board naming no limits (api__solve_deadline). */
static uint64_t score_deadline(const struct api_call *c,
                               const struct api_score_request *r)
{
    struct api_solve_request q = {
        .board = r->board, .has_goal = r->has_goal, .goal = r->goal,
        .algorithm = PUZ_ALG_AUTO,
        .timeout_ms = c->ctx->lim->solve_timeout_ms,
    };

    return api__solve_deadline(c, &q);
}

void api__score(struct api_call *c)
{
    struct score_state *s;
    struct puz_score_result r;
    struct api_problem p;
    json_t *root;
    puz_err rc;

    if (!api__open(c, sizeof(*s), (void **)&s, &root))
        return;
    rc = api_decode_score(root, c->ctx->lim, c->arena, &s->req, &p);
    if (rc == PUZ_OK)
        rc = api_decode_solvable(&s->req.board, s->req.has_goal
                                  ? &s->req.goal : NULL, &p);
    if (!api__decoded(c, root, rc, &p))
        return;
    /* 3x3: the exact table answers at once, no worker needed. */
    if (puz_score_instant(&s->req.board, s->req.has_goal ? &s->req.goal
                          : NULL, c->ctx->tables)) {
        run_score(c, s);
        return;
    }
    if (puz_score_replay(&s->req.board, s->req.has_goal ? &s->req.goal
                         : NULL, s->req.moves, s->req.count, &r) == PUZ_OK
        && !r.solved) {
        api_answer_json(c, 200, codec_score_json(&r));
        return;
    }
    s->deadline_us = score_deadline(c, &s->req);
    c->state = s;
}

void api__score_work(struct api_call *c)
{
    run_score(c, c->state);
}
