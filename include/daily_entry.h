/*
 * daily_entry.h - the bodies of a daily run, decoded without a store or
 * a socket: POST /v1/daily/{date}/{size}/entries (a nickname for a run)
 * and POST .../finish (the run's moves the moment it is solved). The
 * route (src/api/api_daily.c) and the fuzz target (fuzz/fuzz_entry.c)
 * call the same function; the moves are checked against the day's board
 * later (daily_verify), not here.
 */
#ifndef DAILY_ENTRY_H
#define DAILY_ENTRY_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "api_problem.h"
#include "puz_arena.h"
#include "puz_err.h"
#include "store.h"

/* A run as its body gives it. Bounds: nickname store_nickname_ok (an
 * entry's) or "" (a finish's); token store_token_ok, or "" when
 * untimed; moves 0..STORE_MOVES_MAX, 0 only in an entry that names the
 * token's finished run; each dirs[i] an enum puz_dir. */
struct daily_entry {
    char nickname[STORE_NICK_MAX + 1];
    char token[STORE_TOKEN_HEX + 1];
    bool untimed;               /* an entry with no start token */
    bool help;                  /* hints or the solver helped */
    unsigned moves;             /* 0: name the token's finished run */
    uint8_t *dirs;              /* moves blank moves, from the arena;
                                 * NULL when moves is 0 */
};

/*
 * The body root of an entry (finish false) or a finish (true) into *out
 * (zeroed first), moves from a. PUZ_EINVAL with the 422 problem in *err
 * (its pointer names the field) for any body the route refuses.
 */
puz_err daily_entry_decode(const json_t *root, bool finish, puz_arena *a,
                           struct daily_entry *out, struct api_problem *err);

#endif
