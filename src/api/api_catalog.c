/*
 * api_catalog.c - GET /v1/catalog: what this server offers, built from
 * the core's registries (algorithm.c, heuristic.c) and the server's own
 * config and loaded tables, so the web page, the spec's enums and the
 * CLI's help never keep lists of their own. Answers inline.
 */
#include "api_int.h"

#include <string.h>

#include "puz_version.h"

/* One registry entry: name, description, two flags, sizes min..max. */
static json_t *entry_json(const char *name, const char *description,
                          const char *flag1, bool v1, const char *flag2,
                          bool v2, unsigned lo, unsigned hi)
{
    return json_pack("{s:s, s:s, s:b, s:b, s:{s:I, s:I}}", "name", name,
                     "description", description, flag1, v1, flag2, v2,
                     "sizes", "min", (json_int_t)lo, "max", (json_int_t)hi);
}

static json_t *algorithm_json(size_t i)
{
    enum puz_algorithm a = (enum puz_algorithm)i;
    unsigned lo, hi;

    json_t *e;

    puz_algorithm_sizes(a, &lo, &hi);
    e = entry_json(puz_algorithm_name(a), puz_algorithm_description(a),
                   "optimal", puz_algorithm_optimal(a), "uses_heuristic",
                   puz_algorithm_uses_heuristic(a), lo, hi);
    /* whether it runs on rectangles itself (every one now; anytime on
     * the shapes solved optimally runs their optimal default) */
    json_object_set_new(e, "rectangles", json_boolean(
        a == PUZ_ALG_AUTO || puz_algorithm_resolve_shape(a, 4, 5) == a));
    return e;
}

static json_t *heuristic_json(size_t i)
{
    const puz_heuristic *h = puz_heuristic_at(i);
    unsigned lo, hi;

    json_t *e;

    puz_heuristic_sizes(h, &lo, &hi);
    e = entry_json(puz_heuristic_name(h), puz_heuristic_description(h),
                   "admissible", puz_heuristic_admissible(h),
                   "needs_tables", puz_heuristic_needs_tables(h), lo, hi);
    /* pdb serves only the rectangles whose tables are loaded
     * (shapes[].tables says which), not every rectangle */
    json_object_set_new(e, "rectangles",
                        json_boolean(!puz_heuristic_needs_tables(h)));
    return e;
}

/* The algorithms (entry = algorithm_json) or the heuristics as a list. */
static json_t *list_json(size_t count, json_t *(*entry)(size_t))
{
    json_t *list = json_array();

    for (size_t i = 0; list != NULL && i < count; i++)
        json_array_append_new(list, entry(i));
    return list;
}

/*
 * The background build's state for rows x cols (NULL: none), read before
 * the tables: a build publishes its tables, then says ready, so a state
 * read first that says "building" may see tables a moment later. While
 * it says building, the answer names no tables (*building), so that
 * "tables" and "tables_build" never disagree (a test caught both at once).
 */
static json_t *build_state(const struct api_call *c, unsigned rows,
                           unsigned cols, bool *building)
{
    json_t *bg = c->ctx->tables_state != NULL
               ? c->ctx->tables_state(c->ctx->user, rows, cols) : NULL;
    const char *st = json_string_value(json_object_get(bg, "state"));

    *building = st != NULL && strcmp(st, "building") == 0;
    return bg;
}

/* Per size, for its default goal: what a request naming nothing gets,
 * and which loaded set of tables serves it (null: none). */
static json_t *size_json(const struct api_call *c, unsigned n)
{
    const puz_tables *t = c->ctx->tables;
    enum puz_algorithm a = puz_algorithm_resolve(PUZ_ALG_AUTO, n);
    struct puz_board goal;
    const puz_heuristic *h;
    const puz_pdb *d;
    bool building;
    json_t *bg = build_state(c, n, n, &building);
    bool serves;

    puz_board_goal(n, &goal);
    serves = !building && puz_tables_serves(t, &goal);
    h = puz_algorithm_heuristic(PUZ_ALG_AUTO, NULL, n, serves);
    d = serves ? puz_tables_pdb(t, &goal) : NULL;
    if (bg != NULL)
        return json_pack("{s:I, s:s, s:o, s:b, s:o, s:o}", "size",
                         (json_int_t)n, "algorithm", puz_algorithm_name(a),
                         "heuristic", h != NULL
                         ? json_string(puz_heuristic_name(h)) : json_null(),
                         "optimal", puz_algorithm_optimal(a), "tables",
                         d != NULL ? json_string(puz_pdb_partition_name(
                                         puz_pdb_partition(d)))
                                   : json_null(), "tables_build", bg);
    return json_pack("{s:I, s:s, s:o, s:b, s:o}", "size", (json_int_t)n,
                     "algorithm", puz_algorithm_name(a), "heuristic",
                     h != NULL ? json_string(puz_heuristic_name(h))
                               : json_null(),
                     "optimal", puz_algorithm_optimal(a),
                     "tables", !serves ? json_null()
                     : d != NULL ? json_string(puz_pdb_partition_name(
                                       puz_pdb_partition(d)))
                                 : json_string("exact"));
}

/* Per rectangle (rows != cols), for its default goal: what a request
 * naming nothing gets, and the loaded set of tables that serves it (a
 * rectangle's pattern databases, pdb_rect) or null; tables_build while
 * they are built in the background. */
static json_t *shape_json(const struct api_call *ca, unsigned rows,
                          unsigned cols)
{
    const puz_tables *t = ca->ctx->tables;
    bool building;
    json_t *bg = build_state(ca, rows, cols, &building);
    json_t *o;
    struct puz_board goal;
    const puz_pdb *d = !building && puz_board_goal_shape(rows, cols, &goal)
                       == PUZ_OK ? puz_tables_pdb(t, &goal) : NULL;
    enum puz_algorithm a = puz_algorithm_resolve_tables(PUZ_ALG_AUTO, rows,
                                                        cols, d != NULL);
    const puz_heuristic *h = puz_algorithm_heuristic(a, NULL, cols,
                                                     d != NULL);

    o = json_pack("{s:I, s:I, s:s, s:o, s:b, s:o}", "rows",
                  (json_int_t)rows, "cols", (json_int_t)cols, "algorithm",
                  puz_algorithm_name(a), "heuristic", h != NULL
                  ? json_string(puz_heuristic_name(h)) : json_null(),
                  "optimal", puz_algorithm_optimal(a), "tables",
                  d != NULL ? json_string(puz_pdb_partition_name(
                                  puz_pdb_partition(d)))
                            : json_null());
    if (o != NULL && bg != NULL)
        json_object_set_new(o, "tables_build", bg);   /* takes bg */
    else
        json_decref(bg);
    return o;
}

static json_t *shapes_json(const struct api_call *ca)
{
    json_t *shapes = json_array();

    for (unsigned r = PUZ_MIN_SIZE; shapes != NULL && r <= PUZ_MAX_SIZE; r++)
        for (unsigned c = PUZ_MIN_SIZE; c <= PUZ_MAX_SIZE; c++)
            if (r != c)
                json_array_append_new(shapes, shape_json(ca, r, c));
    return shapes;
}

static json_t *caps_json(const struct api_limits *cfg)
{
    return json_pack(
        "{s:I, s:I, s:I, s:{s:I, s:I, s:I}, s:I, s:I, s:I, s:I, s:I, s:I,"
        " s:I}",
        "timeout_ms", (json_int_t)cfg->solve_timeout_ms,
        "max_nodes", (json_int_t)cfg->solve_max_nodes,
        "max_depth", (json_int_t)API_DECODE_MAX_DEPTH,
        "weight", "min", (json_int_t)PUZ_WASTAR_WEIGHT_MIN,
        "max", (json_int_t)PUZ_WASTAR_WEIGHT_MAX,
        "default", (json_int_t)PUZ_WASTAR_DEFAULT_WEIGHT,
        "max_body_bytes", (json_int_t)cfg->max_body_bytes,
        "batch_max", (json_int_t)cfg->batch_max,
        "batch_timeout_ms", (json_int_t)cfg->batch_timeout_ms,
        "score_max_moves", (json_int_t)cfg->score_max_moves,
        "random_max_moves", (json_int_t)cfg->random_max_moves,
        "job_timeout_ms", (json_int_t)cfg->job_timeout_ms,
        "job_max_nodes", (json_int_t)cfg->job_max_nodes);
}

void api__catalog(struct api_call *c)
{
    json_t *sizes = json_array();

    for (unsigned n = PUZ_MIN_SIZE; sizes != NULL && n <= PUZ_MAX_SIZE; n++)
        json_array_append_new(sizes, size_json(c, n));
    api_answer_json(c, 200, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}",
        "version", PUZ_VERSION, "algorithms", list_json(PUZ_ALG_COUNT_, algorithm_json),
        "heuristics", list_json(puz_heuristic_count(), heuristic_json),
        "sizes", sizes, "shapes", shapes_json(c),
        "caps", caps_json(c->ctx->lim)));
}
