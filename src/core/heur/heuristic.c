/*
 * heuristic.c - the registry of heuristics and what they share. Adding a
 * heuristic means one new h_<name>.c file and one line in the table.
 */
#include <stdio.h>
#include <string.h>

#include "heur/heuristic_impl.h"

extern const struct puz_heuristic puz__h_misplaced;
extern const struct puz_heuristic puz__h_manhattan;
extern const struct puz_heuristic puz__h_linear_conflict;
extern const struct puz_heuristic puz__h_pdb;

static const struct puz_heuristic *const registry[] = {
    &puz__h_misplaced,
    &puz__h_manhattan,
    &puz__h_linear_conflict,
    &puz__h_pdb,
};

#define REGISTRY_SIZE (sizeof(registry) / sizeof(registry[0]))

const puz_heuristic *puz_heuristic_find(const char *name)
{
    for (size_t i = 0; i < REGISTRY_SIZE; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

size_t puz_heuristic_count(void)
{
    return REGISTRY_SIZE;
}

const puz_heuristic *puz_heuristic_at(size_t i)
{
    return i < REGISTRY_SIZE ? registry[i] : NULL;
}

const char *puz_heuristic_name(const puz_heuristic *h)
{
    return h->name;
}

const char *puz_heuristic_description(const puz_heuristic *h)
{
    return h->description;
}

bool puz_heuristic_admissible(const puz_heuristic *h)
{
    return h->admissible;
}

bool puz_heuristic_needs_tables(const puz_heuristic *h)
{
    return h->tables;
}

void puz_heuristic_sizes(const puz_heuristic *h, unsigned *min_size,
                         unsigned *max_size)
{
    *min_size = h->min_size != 0 ? h->min_size : PUZ_MIN_SIZE;
    *max_size = h->max_size != 0 ? h->max_size : PUZ_MAX_SIZE;
}

puz_err puz_heuristic_eval(const puz_heuristic *h, const struct puz_board *b,
                           const struct puz_board *goal,
                           const struct puz_tables *tables, puz_arena *a,
                           unsigned *out, char *msg)
{
    struct puz__hargs args = { goal, tables, a };
    void *ctx = NULL;
    puz_err rc;

    *out = 0;
    if (!puz_board_same_shape(b, goal)) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "board is %ux%u, goal %ux%u",
                     puz_board_rows(b), b->n, puz_board_rows(goal), goal->n);
        return PUZ_EINVAL;
    }
    rc = h->prepare(&args, &ctx, msg);
    if (rc != PUZ_OK)
        return rc;
    *out = h->eval(ctx, b->cells);
    return PUZ_OK;
}

void puz__goalpos_init(struct puz__goalpos *g, const struct puz_board *goal)
{
    unsigned n = goal->n, rows = puz_board_rows(goal);

    memset(g, 0, sizeof(*g));
    g->n = n;
    g->rows = rows;
    g->cells = rows * n;
    for (unsigned r = 0, i = 0; r < rows; r++) {  /* no division: */
        for (unsigned c = 0; c < n; c++, i++) {   /* once per solve */
            unsigned t = goal->cells[i];
            g->pos[t] = (uint8_t)i;
            g->row[t] = (uint8_t)r;
            g->col[t] = (uint8_t)c;
        }
    }
}

struct puz__goalpos *puz__goalpos_new(puz_arena *a,
                                      const struct puz_board *goal)
{
    struct puz__goalpos *g = puz_arena_alloc(a, sizeof(*g));

    if (g != NULL)
        puz__goalpos_init(g, goal);
    return g;
}
