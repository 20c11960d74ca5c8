/*
 * trace_json.c - a recorded A* trace as JSON, for "watch A* think": each
 * step is the board taken off the open list with g, h and f = g + h, the
 * open list's size when it was taken, and the children put on it.
 */
#include <string.h>

#include "codec.h"
#include "codec_trace.h"

static json_t *node_json(const struct puz_trace_node *node,
                         const struct puz_board *shape)
{
    struct puz_board b = *shape;

    memcpy(b.cells, node->cells, puz_board_cells(shape));
    return json_pack("{s:o, s:i, s:i, s:i}",
                     "board", codec_board_rows(&b),
                     "g", (int)node->g, "h", (int)node->h,
                     "f", (int)node->g + (int)node->h);
}

static json_t *step_json(const struct puz_trace_step *s,
                         const struct puz_board *n)
{
    json_t *o = node_json(&s->node, n);
    json_t *children = json_array();

    if (o == NULL || children == NULL) {
        json_decref(o);
        json_decref(children);
        return NULL;
    }
    for (unsigned i = 0; i < s->nchildren; i++)
        json_array_append_new(children, node_json(&s->children[i], n));
    json_object_set_new(o, "open", json_integer((json_int_t)s->open_size));
    json_object_set_new(o, "children", children);
    return o;
}

json_t *codec_trace_json(const puz_trace *t, const struct puz_board *n)
{
    json_t *steps = json_array();

    for (unsigned i = 0; steps != NULL && i < puz_trace_count(t); i++) {
        json_t *step = step_json(puz_trace_step(t, i), n);
        if (step == NULL || json_array_append_new(steps, step) != 0) {
            json_decref(steps);
            return NULL;
        }
    }
    return steps;
}

json_t *codec_effort_json(const puz_trace *t)
{
    struct puz_trace_layer layers[PUZ_TRACE_LAYERS];
    unsigned n = puz_trace_layers(t, layers, PUZ_TRACE_LAYERS);
    json_t *out = json_array();

    for (unsigned i = 0; out != NULL && i < n; i++)
        json_array_append_new(out, json_pack("{s:i, s:I}", "f",
                              (int)layers[i].f, "expanded",
                              (json_int_t)layers[i].expanded));
    return out;
}
