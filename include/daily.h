/*
 * daily.h - the daily puzzle: every UTC day one board per size, the same
 * for everyone because it is derived from the date alone, and the check
 * that a submitted move list really solves it (the server replays it; the
 * client's own count is never trusted).
 */
#ifndef DAILY_H
#define DAILY_H

#include <stdbool.h>
#include <stdint.h>

#include "puz_board.h"
#include "puz_err.h"
#include "puz_table3.h"
#include "store.h"

/* The store's bounds of an entry (store.h), named as the daily's rules. */
#define DAILY_MIN_SIZE STORE_SIZE_MIN
#define DAILY_MAX_SIZE STORE_SIZE_MAX
#define DAILY_MAX_MOVES STORE_MOVES_MAX

/* True for a real calendar date written YYYY-MM-DD (years 2000..2999). */
bool daily_date_ok(const char *day);

/* Today (UTC) as YYYY-MM-DD into buf (11 bytes), from unix seconds. */
void daily_today(int64_t now, char *buf);

/* The moves the day's board is scrambled by: exact distance on 3x3 (with
 * table), a random walk's length (an upper bound on the distance) on
 * bigger boards. */
unsigned daily_walk(unsigned size);

/* The day's board of side size (DAILY_MIN_SIZE..DAILY_MAX_SIZE); table
 * is the default-goal 3x3 table (needed for size 3). PUZ_EINVAL for a
 * bad day or size. */
puz_err daily_board(const char *day, unsigned size, const puz_table3 *table,
                    struct puz_board *out);

/* Replays count blank moves (enum puz_dir) from start: PUZ_OK only when
 * every move is legal and the last one reaches the default goal; else
 * PUZ_EINVAL with the reason in msg (PUZ_MSG_MAX bytes). */
puz_err daily_verify(const struct puz_board *start, const uint8_t *moves,
                     unsigned count, char *msg);

#endif
