/*
 * score_json.c - a score (puz_score) as JSON: the answer of POST
 * /v1/score and of `puzzled score --json`, one encoder for both.
 */
#include "codec.h"

json_t *codec_score_json(const struct puz_score_result *r)
{
    json_t *o;

    o = json_pack("{s:b, s:b, s:I, s:o, s:o}", "legal", r->legal,
                  "solved", r->solved, "player_moves",
                  (json_int_t)r->played, "optimal_moves",
                  r->known ? json_integer(r->optimal) : json_null(),
                  "score", r->known || !r->solved ? json_real(r->score)
                                                  : json_null());
    if (o != NULL && !r->legal)
        json_object_set_new(o, "illegal_move", json_pack("{s:I, s:s}",
                            "index", (json_int_t)r->illegal_index,
                            "reason", r->illegal_reason));
    return o;
}
