/*
 * codec.h - the JSON shape of a solve result and of a score, shared by
 * the HTTP service and `puzzled solve --json` / `puzzled score --json`
 * so both print exactly the same bytes.
 */
#ifndef CODEC_H
#define CODEC_H

#include <stdbool.h>
#include <jansson.h>

#include "puz_arena.h"
#include "puz_board.h"
#include "puz_score.h"
#include "puz_solve.h"

/* Reals in every JSON answer carry this many significant digits, and
 * every answer is compact: the flags jansson encodes with. */
#define CODEC_REAL_DIGITS 6
#define CODEC_JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(CODEC_REAL_DIGITS))

/*
 * A solve result as compact JSON bytes, written directly (result_bytes.c),
 * the one encoder of a result: {"status","optimal","length","moves",
 * "tiles",["path"],"algorithm","heuristic","reason"?,"stats":{...}}, path
 * (the boards from start to the end) only when include_path; reals with
 * real_digits significant digits (CODEC_REAL_DIGITS everywhere;
 * tests/support/codec_ref.c is the jansson reference it is tested
 * against). *buf (not terminated) is
 * in arena a, *len its length. PUZ_ERANGE when the answer is longer than
 * max_len (0 = no cap): nothing is allocated and *len says how long it
 * would be. PUZ_ENOMEM when a cannot hold it.
 */
puz_err codec_result_bytes(const struct puz_board *start,
                           const struct puz_result *r, bool include_path,
                           unsigned real_digits, size_t max_len,
                           puz_arena *a, char **buf, size_t *len);
/* The same bytes into buf: at most cap of them are written; *len is the
 * answer's whole length, and PUZ_ERANGE says it is over cap (the bytes
 * in buf are then a cut answer, not to be sent). */
puz_err codec_result_write(const struct puz_board *start,
                           const struct puz_result *r, bool include_path,
                           unsigned real_digits, char *buf, size_t cap,
                           size_t *len);

/* New reference to {"legal","solved","player_moves","optimal_moves",
 * "score","illegal_move"?}; NULL when out of memory (score_json.c). */
json_t *codec_score_json(const struct puz_score_result *r);

/* New reference to a board as an array of rows. */
json_t *codec_board_rows(const struct puz_board *b);

#endif
