/*
 * codec_ref.c - the reference encoder of a solve result: the answer's
 * JSON built as a jansson tree, the obvious way. The service and the CLI
 * write the bytes directly (src/codec/result_bytes.c); test_codec.c
 * checks byte for byte that the two agree, so this stays the truth the
 * fast encoder is held to, and lives with the tests.
 */
#include "codec_ref.h"

#include <math.h>

static json_t *moves_json(const struct puz_result *r)
{
    json_t *moves = json_array();

    for (unsigned i = 0; moves != NULL && i < r->length; i++)
        json_array_append_new(moves,
                              json_string(puz_dir_name((enum puz_dir)
                                                       r->moves[i])));
    return moves;
}

static json_t *tiles_json(const struct puz_result *r)
{
    json_t *tiles = json_array();

    for (unsigned i = 0; tiles != NULL && i < r->length; i++)
        json_array_append_new(tiles, json_integer(r->tiles[i]));
    return tiles;
}

static json_t *path_json(const struct puz_board *start,
                         const struct puz_result *r)
{
    struct puz_board b = *start;
    json_t *path = json_array();

    if (path == NULL)
        return NULL;
    json_array_append_new(path, codec_board_rows(&b));
    for (unsigned i = 0; i < r->length; i++) {
        puz_board_move(&b, (enum puz_dir)r->moves[i]);
        json_array_append_new(path, codec_board_rows(&b));
    }
    return path;
}

static json_t *stats_json(const struct puz_stats *st)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}",
                     "expanded", (json_int_t)st->expanded,
                     "generated", (json_int_t)st->generated,
                     "duplicates", (json_int_t)st->duplicates,
                     "max_frontier", (json_int_t)st->max_frontier,
                     "arena_bytes", (json_int_t)st->arena_peak,
                     "time_us", (json_int_t)st->time_us);
}

json_t *codec_ref_result_json(const struct puz_board *start,
                          const struct puz_result *r, bool include_path)
{
    /* o*: "tables" only when a table was read */
    json_t *o = json_pack("{s:s, s:b, s:i, s:o, s:o, s:s, s:o, s:o*, s:o}",
                          "status", puz_status_name(r->status),
                          "optimal", r->optimal,
                          "length", (int)r->length,
                          "moves", moves_json(r),
                          "tiles", tiles_json(r),
                          "algorithm", puz_algorithm_name(r->algorithm),
                          "heuristic", r->heuristic
                              ? json_string(puz_heuristic_name(r->heuristic))
                              : json_null(),
                          "tables", r->tables ? json_string(r->tables) : NULL,
                          "stats", stats_json(&r->stats));

    if (o == NULL)
        return NULL;
    /* What is proven about the path's quality (docs/large.md). */
    json_object_set_new(o, "lower_bound", json_integer(r->lower_bound));
    json_object_set_new(o, "gap", r->status == PUZ_SOLVED
                                      ? json_real(round(r->gap * 1e4) / 1e4)
                                      : json_null());
    json_object_set_new(o, "method", json_string(r->method));
    if (r->reason[0] != '\0')
        json_object_set_new(o, "reason", json_string(r->reason));
    if (include_path && r->status == PUZ_SOLVED)
        json_object_set_new(o, "path", path_json(start, r));
    return o;
}
