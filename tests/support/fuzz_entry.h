/*
 * fuzz_entry.h - the code the libFuzzer targets (fuzz/fuzz_*.c) run on
 * each input, shared with tests/test_fuzz_regress.c so every input that
 * once crashed is replayed by `make test` through the same path.
 *
 * Each function abort()s when an invariant breaks (a sanitizer catches
 * the memory errors); returning means the input was handled.
 */
#ifndef FUZZ_ENTRY_H
#define FUZZ_ENTRY_H

#include <stddef.h>
#include <stdint.h>

/* Request body bytes through api_decode_json and every body decoder
 * (solve and job bodies, batch, score) with the default config; every
 * failure must still give a problem+json body, and what is decoded
 * stays within its documented bounds (limits at most their caps, a
 * job's threads at most its share of the cores, batch and score sizes,
 * boards that are permutations). */
void fuzz_decode_one(const uint8_t *data, size_t size);

/* Bytes as the string form of a board (puz_board_parse); an accepted
 * board must be a permutation that formats and parses back to itself. */
void fuzz_board_one(const uint8_t *data, size_t size);

/* Bytes as an API keys file (api_keys_load); a loaded table finds a key
 * only by the token whose SHA-256 it holds. */
void fuzz_keys_one(const uint8_t *data, size_t size);

/* Bytes as the date of a daily puzzle (daily_date_ok) and as a start
 * token (store_token_ok), each against an independent check (the C
 * library's calendar; lowercase hex of the right length). */
void fuzz_daily_one(const uint8_t *data, size_t size);

/* Bytes as the body of a daily entry and of a daily finish (POST
 * /v1/daily/{date}/{size}/entries and .../finish: daily_entry_decode);
 * a refusal must be a 422 naming its field, a decoded run within
 * daily_entry.h's bounds and decoded again the same from its own
 * body. */
void fuzz_daily_entry_one(const uint8_t *data, size_t size);

#endif
