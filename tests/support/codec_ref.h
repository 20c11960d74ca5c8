/*
 * codec_ref.h - the reference encoder of a solve result (codec_ref.c),
 * for test_codec.c's byte-for-byte check of the real one.
 */
#ifndef CODEC_REF_H
#define CODEC_REF_H

#include <stdbool.h>
#include <jansson.h>

#include "codec.h"

/* New reference to {"status","optimal","length","moves","tiles",
 * ["path"],"algorithm","heuristic","reason"?,"stats":{...}}, as
 * codec_result_bytes writes it; NULL when jansson runs out of memory. */
json_t *codec_ref_result_json(const struct puz_board *start,
                              const struct puz_result *r,
                              bool include_path);

#endif
