/*
 * api_score.c - POST /v1/score: replay the player's moves, then compare
 * their count with the optimal one. On 3x3 the exact table knows it at
 * once and the route answers inline; larger boards search on a worker.
 */
#include "api_int.h"

#include <stdio.h>
#include <string.h>

struct score_state {
    struct http_score_request req;
    struct puz_board goal;
    bool legal, solved;
    size_t player_moves;
    size_t illegal_index;
    char illegal_reason[160];
    uint64_t deadline_us;
};

static void answer_score(struct api_call *c, const struct score_state *s,
                         bool known, unsigned optimal)
{
    json_t *o, *score = json_null();

    if (known && (!s->legal || !s->solved))
        score = json_real(0.0);
    else if (known)
        score = json_real(s->player_moves == 0 ? 1.0
                          : (double)optimal / (double)s->player_moves);
    o = json_pack("{s:b, s:b, s:I, s:o, s:o}", "legal", s->legal,
                  "solved", s->solved, "player_moves",
                  (json_int_t)s->player_moves, "optimal_moves",
                  known ? json_integer(optimal) : json_null(),
                  "score", score);
    if (o != NULL && !s->legal)
        json_object_set_new(o, "illegal_move", json_pack("{s:I, s:s}",
                            "index", (json_int_t)s->illegal_index,
                            "reason", s->illegal_reason));
    api_answer_json(c, 200, o);
}

static void illegal(struct score_state *s, size_t i,
                    const struct http_move *m)
{
    s->legal = false;
    s->illegal_index = i;
    if (m->is_tile)
        snprintf(s->illegal_reason, sizeof(s->illegal_reason), "moves[%zu]: "
                 "tile %u is not next to the blank", i, m->tile);
    else
        snprintf(s->illegal_reason, sizeof(s->illegal_reason), "moves[%zu]: "
                 "the blank cannot move %s from where it is", i,
                 puz_dir_name(m->dir));
}

/* Play the moves; the first illegal one ends the replay. */
static void replay(struct score_state *s)
{
    struct puz_board b = s->req.board;
    enum puz_dir d;
    size_t i;

    s->legal = true;
    for (i = 0; i < s->req.count; i++) {
        const struct http_move *m = &s->req.moves[i];

        d = m->dir;
        if ((m->is_tile && puz_board_dir_of_tile(&b, m->tile, &d) != PUZ_OK)
            || !puz_board_can_move(&b, d)) {
            illegal(s, i, m);
            break;
        }
        puz_board_move(&b, d);
    }
    s->player_moves = i;
    s->solved = s->legal && puz_board_equal(&b, &s->goal);
}

void api__score(struct api_call *c)
{
    struct score_state *s;
    struct http_problem p;
    unsigned d;
    json_t *root;
    puz_err rc;

    if (api__refuse_when_draining(c) || !api__parse_body(c, &root))
        return;
    s = puz_arena_calloc(c->arena, 1, sizeof(*s));
    rc = s != NULL ? http_decode_score(root, c->ctx->cfg, c->arena, &s->req,
                                       &p)
                   : PUZ_ENOMEM;
    json_decref(root);
    if (rc == PUZ_OK)
        rc = http_decode_solvable(&s->req.board, s->req.has_goal
                                  ? &s->req.goal : NULL, &p);
    if (rc == PUZ_ENOMEM && s == NULL)
        http_problem_set(&p, HTTP_PROBLEM_INTERNAL, "out of memory");
    if (rc != PUZ_OK) {
        api_answer_problem(c, &p);
        return;
    }
    if (s->req.has_goal)
        s->goal = s->req.goal;
    else
        puz_board_goal(s->req.board.n, &s->goal);
    replay(s);
    /* 3x3: the exact table answers at once, no worker needed. */
    if (puz_tables_distance3(c->ctx->tables, &s->req.board, &s->goal, &d)
        == PUZ_OK) {
        answer_score(c, s, true, d);
        return;
    }
    s->deadline_us = api__deadline_in(c->ctx->cfg->solve_timeout_ms);
    c->state = s;
}

void api__score_work(struct api_call *c)
{
    const struct score_state *s = c->state;
    struct puz_solve_opts o;
    struct puz_result res;
    struct http_problem p;
    puz_err rc;

    api__solve_opts(c, s->deadline_us, &o);
    o.goal = s->req.has_goal ? &s->req.goal : NULL;
    o.limits.max_nodes = c->ctx->cfg->solve_max_nodes;
    memset(&res, 0, sizeof(res));
    rc = puz_solve(&s->req.board, &o, c->arena, &res);
    if (rc == PUZ_OK)
        api__record(c, &res);
    if (api__solve_problem(rc, &res, &p)) {
        api_answer_problem(c, &p);
        return;
    }
    answer_score(c, s, res.status == PUZ_SOLVED && res.optimal, res.length);
}
