/*
 * api_keys.h - optional API keys: who a request comes from, what it may
 * see of the jobs, and how much it may ask for.
 *
 * The keys file (the server's `api_keys_file`) holds one key a line:
 *
 *     NAME SHA256-OF-THE-KEY [operator] [jobs=N] [streams=N] [rpm=N]
 *
 * with '#' starting a comment. Only the key's SHA-256 is stored, so the
 * file reveals no key; `puzzled key new NAME` makes a key and its line.
 * A client sends `Authorization: Bearer KEY`. A job belongs to the key
 * that made it: only that key (or an operator key) reads, streams,
 * cancels or lists it. Anonymous jobs belong to nobody and are reachable
 * by their unguessable id only. The limits (0 = none): jobs queued or
 * running at once, event streams open at once, requests a minute.
 *
 * Thread-safe: the table is read-only after loading; the request and
 * stream counters have a mutex of their own. With a shared store the
 * counts are the cluster's (api_keys_use_collect); with one instance
 * they are this one's.
 */
#ifndef API_KEYS_H
#define API_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puz_err.h"

#define API_KEY_NAME_MAX 32         /* bytes of a key's name */
#define API_KEY_HASH_HEX 64         /* SHA-256 in hex */
#define API_KEY_TOKEN_MAX 128       /* bytes of a key itself */

typedef struct api_keys api_keys;

struct api_key {
    char name[API_KEY_NAME_MAX + 1];
    unsigned char hash[32];         /* SHA-256 of the key */
    bool operator;                  /* sees and cancels every job */
    unsigned jobs, streams, rpm;    /* limits; 0 = none */
};

/* Read a keys file. PUZ_EINVAL with the file and line in msg
 * (PUZ_MSG_MAX) for a malformed line or a name given twice; PUZ_EIO when
 * it cannot be read. */
puz_err api_keys_load(const char *path, api_keys **out, char *msg);
void api_keys_free(api_keys *k);

/* A key's words (its line split at blanks: name, hash in hex, options)
 * into k, checked as the server checks its keys file; false with why
 * (size bytes) otherwise. `puzzled key new` refuses what this refuses. */
bool api_keys_parse_words(const char *name, const char *hash,
                          const char *const *opts, size_t nopts,
                          struct api_key *k, char *why, size_t size);

/* Keys in the table. */
size_t api_keys_count(const api_keys *k);

/* The key whose hash token has, or NULL; compares every key in constant
 * time. */
const struct api_key *api_keys_find(const api_keys *k, const char *token);

/* Count one request of key at now_ms; false when it is past its rpm in
 * a sliding minute (keys.c says how it is estimated; *retry_s: seconds
 * until a request would pass). */
bool api_keys_take_request(api_keys *k, const struct api_key *key,
                           uint64_t now_ms, unsigned *retry_s);

/* A key's (its name; "" or unknown: nothing) event stream opened here
 * (delta 1) or closed (-1). */
void api_keys_stream_count(api_keys *k, const char *name, int delta);

/* Streams of the key named name open on other instances, as of the last
 * sync (0 with one instance). */
unsigned api_keys_streams_elsewhere(api_keys *k, const char *name);

/* Shared mode (issue 42 item 3): the keys with an rpm= or streams= cap,
 * up to max into out, each with its requests here since the last
 * collect (in the minute of now_ms) and streams open here, for
 * store_key_use_sync; how many. Then _apply takes the cluster's answer
 * (same array): the others' requests and streams count from then on. */
struct store_key_use;
size_t api_keys_use_collect(api_keys *k, uint64_t now_ms,
                            struct store_key_use *out, size_t max);
void api_keys_use_apply(api_keys *k, uint64_t now_ms,
                        const struct store_key_use *in, size_t n);

/* SHA-256 of token as 64 lowercase hex digits and a NUL. */
void api_keys_hash_hex(const char *token, char out[API_KEY_HASH_HEX + 1]);

/* A new random key (64 hex digits and a NUL); false when the kernel's
 * random source fails. */
bool api_keys_new_token(char out[API_KEY_HASH_HEX + 1]);

#endif
