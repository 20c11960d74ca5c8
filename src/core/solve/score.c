/*
 * score.c - puz_score(): replay a player's moves, then the optimal
 * length (exact table or an optimal search) and the ratio of the two.
 */
#include <stdio.h>
#include <string.h>

#include "puz_score.h"
#include "puz_tables.h"

static void illegal(struct puz_score_result *s, size_t i,
                    const struct puz_move *m)
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
static void replay(const struct puz_board *start, const struct puz_board *goal,
                   const struct puz_move *moves, size_t count,
                   struct puz_score_result *s)
{
    struct puz_board b = *start;
    enum puz_dir d;
    size_t i;

    s->legal = true;
    for (i = 0; i < count; i++) {
        const struct puz_move *m = &moves[i];

        d = m->dir;
        if ((m->is_tile && puz_board_dir_of_tile(&b, m->tile, &d) != PUZ_OK)
            || !puz_board_can_move(&b, d)) {
            illegal(s, i, m);
            break;
        }
        puz_board_move(&b, d);
    }
    s->played = i;
    s->solved = s->legal && puz_board_equal(&b, goal);
}

static void set_ratio(struct puz_score_result *s, unsigned optimal)
{
    s->known = true;
    s->optimal = optimal;
    if (!s->legal || !s->solved)
        s->score = 0.0;
    else
        s->score = s->played == 0 ? 1.0
                   : (double)optimal / (double)s->played;
}

bool puz_score_instant(const struct puz_board *start,
                       const struct puz_board *goal,
                       const struct puz_tables *tables)
{
    struct puz_board dflt;
    unsigned d;

    if (goal == NULL && puz_board_goal_of(start, &dflt) != PUZ_OK)
        return false;
    return puz_tables_distance3(tables, start, goal != NULL ? goal : &dflt,
                                &d) == PUZ_OK
           && d != PUZ_TABLE3_UNREACHABLE;
}

puz_err puz_score_replay(const struct puz_board *start,
                         const struct puz_board *goal,
                         const struct puz_move *moves, size_t count,
                         struct puz_score_result *out)
{
    struct puz_board dflt;

    memset(out, 0, sizeof(*out));
    if (goal == NULL && puz_board_goal_of(start, &dflt) != PUZ_OK)
        return PUZ_EINVAL;
    goal = goal != NULL ? goal : &dflt;
    if (!puz_board_same_shape(goal, start))
        return PUZ_EINVAL;
    replay(start, goal, moves, count, out);
    return PUZ_OK;
}

puz_err puz_score(const struct puz_board *start,
                  const struct puz_move *moves, size_t count,
                  const struct puz_solve_opts *opts, puz_arena *a,
                  struct puz_score_result *out)
{
    struct puz_board dflt;
    const struct puz_board *goal = opts->goal;
    unsigned d;
    puz_err rc;

    if (goal == NULL && puz_board_goal_of(start, &dflt) != PUZ_OK)
        return PUZ_EINVAL;
    goal = goal != NULL ? goal : &dflt;
    rc = puz_score_replay(start, goal, moves, count, out);
    if (rc != PUZ_OK)
        return rc;
    if (puz_tables_distance3(opts->tables, start, goal, &d) == PUZ_OK
        && d != PUZ_TABLE3_UNREACHABLE) {
        set_ratio(out, d);
        return PUZ_OK;
    }
    out->searched = true;
    rc = puz_solve(start, opts, a, &out->solve);
    if (rc == PUZ_OK && out->solve.status == PUZ_SOLVED
        && out->solve.optimal)
        set_ratio(out, out->solve.length);
    return rc;
}
