/*
 * codec.h - the JSON shape of a solve result and of a score, shared by
 * the HTTP service and `puzzled solve --json` / `puzzled score --json`
 * so both print exactly the same object.
 */
#ifndef CODEC_H
#define CODEC_H

#include <stdbool.h>
#include <jansson.h>

#include "puz_board.h"
#include "puz_score.h"
#include "puz_solve.h"

/*
 * New reference to {"status","optimal","length","moves","tiles",
 * ["path"],"algorithm","heuristic","reason"?,"stats":{...}}.
 * path (the boards from start to the end, inclusive) only when
 * include_path. Returns NULL when jansson runs out of memory.
 */
json_t *codec_result_json(const struct puz_board *start,
                          const struct puz_result *r, bool include_path);

/* New reference to {"legal","solved","player_moves","optimal_moves",
 * "score","illegal_move"?}; NULL when out of memory (score_json.c). */
json_t *codec_score_json(const struct puz_score_result *r);

/* New reference to a board as an array of rows. */
json_t *codec_board_rows(const struct puz_board *b);

#endif
