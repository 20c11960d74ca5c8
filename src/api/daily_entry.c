/*
 * daily_entry.c - the body of a daily entry or finish (daily_entry.h),
 * moved out of api_daily.c so that the fuzz target and the route decode
 * with the same code. Every refusal is a 422 invalid-request naming the
 * field, with the words the route always used.
 */
#include "daily_entry.h"

#include <stdio.h>
#include <string.h>

#include "daily.h"
#include "puz_board.h"

static puz_err bad(struct api_problem *err, const char *ptr, const char *why)
{
    api_problem_set(err, API_PROBLEM_INVALID_REQUEST, "%s: %s", ptr, why);
    api_problem_point(err, "%s", ptr);
    return PUZ_EINVAL;
}

/* bad with one number (a bound) in its words. */
static puz_err badf(struct api_problem *err, const char *ptr,
                    const char *fmt, unsigned long bound)
{
    char why[PUZ_MSG_MAX];

    snprintf(why, sizeof(why), fmt, bound);
    return bad(err, ptr, why);
}

/* The moves as blank directions ("up", "down", "left", "right"). */
static puz_err decode_moves(const json_t *v, puz_arena *a,
                            struct daily_entry *out, struct api_problem *err)
{
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    enum puz_dir d;

    if (n < 1 || n > DAILY_MAX_MOVES)
        return badf(err, "/moves", "an array of 1 to %lu moves, each "
                    "\"up\", \"down\", \"left\" or \"right\" (the way the "
                    "gap moves)", (unsigned long)DAILY_MAX_MOVES);
    out->dirs = puz_arena_alloc(a, n);
    if (out->dirs == NULL)
        return bad(err, "/moves", "too many moves for this server");
    for (size_t i = 0; i < n; i++) {
        const char *name = json_string_value(json_array_get(v, i));

        /* Exactly the lowercase words (openapi's enum), not the CLI's
         * "U" or "u": one spelling, one meaning. */
        if (name == NULL || puz_dir_parse(name, &d) != PUZ_OK
            || strcmp(name, puz_dir_name(d)) != 0) {
            char ptr[32];

            snprintf(ptr, sizeof(ptr), "/moves/%zu", i);
            return bad(err, ptr, "a move is \"up\", \"down\", \"left\" or "
                       "\"right\"");
        }
        out->dirs[i] = (uint8_t)d;
    }
    out->moves = (unsigned)n;
    return PUZ_OK;
}

/* The start token (required unless untimed). */
static puz_err decode_token(const json_t *root, struct daily_entry *out,
                            struct api_problem *err)
{
    const json_t *tok = json_object_get(root, "token");

    if (out->untimed && tok != NULL)
        return bad(err, "/token", "an untimed entry has no start token: "
                   "send the token and no untimed, or untimed and no "
                   "token");
    if (out->untimed)
        return PUZ_OK;
    if (!json_is_string(tok) || !store_token_ok(json_string_value(tok)))
        return badf(err, "/token", "the start token POST "
                    "/v1/daily/{date}/{size}/start handed out (%lu hex "
                    "digits): the server times the run from it (untimed: "
                    "true when no start reached the server)",
                    (unsigned long)STORE_TOKEN_HEX);
    snprintf(out->token, sizeof(out->token), "%s", json_string_value(tok));
    return PUZ_OK;
}

/* The help flag (required). */
static puz_err decode_help(const json_t *root, struct daily_entry *out,
                           struct api_problem *err)
{
    const json_t *help = json_object_get(root, "help");

    if (!json_is_boolean(help))
        return bad(err, "/help", "true when hints, the solver or a replay "
                   "of its moves helped this run, else false");
    out->help = json_is_true(help);
    return PUZ_OK;
}

/* Every key of root among the n keys (else what is refused); a time_ms
 * refused by name: the server times a run itself, and a client that
 * sends one should hear it is not used. */
static puz_err only_keys(const json_t *root, const char *const *keys,
                         size_t n, const char *what, struct api_problem *err)
{
    const char *key;
    json_t *v;

    json_object_foreach((json_t *)root, key, v) {
        size_t i = 0;

        while (i < n && strcmp(key, keys[i]) != 0)
            i++;
        if (strcmp(key, "time_ms") == 0)
            return bad(err, "/time_ms", "the server times a run itself, "
                       "from its start token to its finish: send no "
                       "time_ms");
        if (i == n)
            return bad(err, "/", what);
    }
    return PUZ_OK;
}

/* nickname and the run: moves, token and help (timed to the entry);
 * token alone (the finished run of the token); or moves, help and
 * untimed: true (no token). */
static puz_err decode_entry(const json_t *root, puz_arena *a,
                            struct daily_entry *out, struct api_problem *err)
{
    static const char *const keys[] = { "nickname", "moves", "token",
                                        "help", "untimed" };
    const json_t *nick = json_object_get(root, "nickname"),
                 *untimed = json_object_get(root, "untimed");

    if (only_keys(root, keys, 5, "an entry has only nickname, moves, token, "
                  "help and untimed", err) != PUZ_OK)
        return PUZ_EINVAL;
    if (!json_is_string(nick) || !store_nickname_ok(json_string_value(nick)))
        return badf(err, "/nickname", "a nickname is 1 to %lu letters, "
                    "digits, spaces, '_', '-' or '.', not starting or "
                    "ending with a space", (unsigned long)STORE_NICK_MAX);
    snprintf(out->nickname, sizeof(out->nickname), "%s",
             json_string_value(nick));
    if (untimed != NULL && !json_is_boolean(untimed))
        return bad(err, "/untimed", "true for a run no start token times "
                   "(no start reached the server), with moves and help and "
                   "no token");
    out->untimed = json_is_true(untimed);
    if (decode_token(root, out, err) != PUZ_OK)
        return PUZ_EINVAL;
    /* The token alone names its finished run: moves and help are the
     * finish's. */
    if (!out->untimed && json_object_get(root, "moves") == NULL
        && json_object_get(root, "help") == NULL)
        return PUZ_OK;
    if (decode_help(root, out, err) != PUZ_OK)
        return PUZ_EINVAL;
    return decode_moves(json_object_get(root, "moves"), a, out, err);
}

/* token, moves and help: the run finished. */
static puz_err decode_finish(const json_t *root, puz_arena *a,
                             struct daily_entry *out, struct api_problem *err)
{
    static const char *const keys[] = { "moves", "token", "help" };

    if (json_object_get(root, "nickname") != NULL)
        return bad(err, "/nickname", "a finish has no nickname: name the "
                   "finished run afterwards with POST "
                   "/v1/daily/{date}/{size}/entries (nickname and token)");
    if (only_keys(root, keys, 3, "a finish has only moves, token and help",
                  err) != PUZ_OK)
        return PUZ_EINVAL;
    if (decode_token(root, out, err) != PUZ_OK
        || decode_help(root, out, err) != PUZ_OK)
        return PUZ_EINVAL;
    return decode_moves(json_object_get(root, "moves"), a, out, err);
}

puz_err daily_entry_decode(const json_t *root, bool finish, puz_arena *a,
                           struct daily_entry *out, struct api_problem *err)
{
    memset(out, 0, sizeof(*out));
    return finish ? decode_finish(root, a, out, err)
                  : decode_entry(root, a, out, err);
}
