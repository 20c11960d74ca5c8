/*
 * puz_score.h - how good a player's solution is: replay their moves on
 * the start board, then compare how many they needed with the optimum,
 * score = optimal / played (1 for a board already solved; 0 when a move
 * was illegal or the moves do not reach the goal). The server's
 * POST /v1/score and `puzzled score` both call puz_score.
 */
#ifndef PUZ_SCORE_H
#define PUZ_SCORE_H

#include <stdbool.h>
#include <stddef.h>

#include "puz_board.h"
#include "puz_err.h"
#include "puz_solve.h"

/* One move of a player: the direction the blank goes, or the number of
 * the tile that slides (into the blank, next to it). */
struct puz_move {
    bool is_tile;
    unsigned tile;          /* is_tile */
    enum puz_dir dir;       /* !is_tile */
};

struct puz_score_result {
    bool legal;             /* every move could be made */
    bool solved;            /* legal, and they end on the goal */
    size_t played;          /* moves made (up to the illegal one) */
    size_t illegal_index;   /* !legal: which move */
    char illegal_reason[PUZ_MSG_MAX];   /* !legal: why, for people */
    bool known;             /* the optimal length is proven */
    unsigned optimal;       /* known: the fewest moves from the start */
    double score;           /* known or !solved: optimal / played as
                               above; 0 whenever the moves do not reach
                               the goal, whatever the optimum */
    bool searched;          /* a search ran: its result is in solve */
    struct puz_result solve;
};

/* Whether puz_score can tell the optimum from the tables alone, without
 * searching (3x3 with the exact tables loaded): the server answers such
 * requests on the spot. goal NULL: the default goal. */
bool puz_score_instant(const struct puz_board *start,
                       const struct puz_board *goal,
                       const struct puz_tables *tables);

/*
 * Only the replay: count moves from start towards goal (NULL: the default
 * goal) fill legal, solved, played and the illegal move's index and
 * reason; score is 0 and nothing is known of the optimum. The server
 * asks it first: moves that do not reach the goal score 0 whatever the
 * optimum, so there it searches only for moves that do. PUZ_EINVAL when
 * start or goal do not fit.
 */
puz_err puz_score_replay(const struct puz_board *start,
                         const struct puz_board *goal,
                         const struct puz_move *moves, size_t count,
                         struct puz_score_result *out);

/*
 * Replay count moves from start towards opts->goal (NULL: the default
 * goal), then find the optimum: from the exact tables when opts->tables
 * has them, else by puz_solve with opts (its algorithm, heuristic and
 * limits; an answer that is not proven optimal leaves known false).
 * Returns what puz_solve returned (PUZ_OK also when a limit stopped it:
 * see out->solve.status), PUZ_EINVAL when start or goal do not fit.
 */
puz_err puz_score(const struct puz_board *start,
                  const struct puz_move *moves, size_t count,
                  const struct puz_solve_opts *opts, puz_arena *a,
                  struct puz_score_result *out);

#endif
