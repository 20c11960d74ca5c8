/*
 * codec_trace.h - the "trace" member of a /v1/solve answer: the first
 * expansions of a best-first search (puz_trace.h) as JSON.
 */
#ifndef CODEC_TRACE_H
#define CODEC_TRACE_H

#include <jansson.h>

#include "puz_trace.h"

/* [{board, g, h, f, open, children: [{board, g, h, f}]}] for boards of
 * shape's rows and columns (its cells are not read); a new reference,
 * NULL when jansson runs out of memory. */
json_t *codec_trace_json(const puz_trace *t, const struct puz_board *shape);

/* [{f, expanded}] in increasing f (IDA*: its iteration bounds); [] when
 * t is NULL. A new reference, NULL when out of memory. */
json_t *codec_effort_json(const puz_trace *t);

#endif
