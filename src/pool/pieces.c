/*
 * pieces.c - pool_run_pieces(): n pieces of one piece of work on n
 * threads (this one included), joined before returning. Threads live for
 * one call: a table build's level lasts long enough (milliseconds to
 * seconds) that starting them costs nothing measurable.
 *
 * pool_run_units(): n pieces shared out to a few threads through one
 * atomic index (a parallel IDA* iteration's work units).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "pool_pieces.h"

#define MAX_PIECES 64u

struct piece_arg {
    void (*piece)(void *work, unsigned i);
    void *work;
    unsigned i;
};

static void *run_one(void *arg)
{
    const struct piece_arg *p = arg;

    p->piece(p->work, p->i);
    return NULL;
}

void pool_run_pieces(void (*piece)(void *work, unsigned i), void *work,
                     unsigned n, void *user)
{
    pthread_t th[MAX_PIECES];
    struct piece_arg args[MAX_PIECES];
    unsigned started[MAX_PIECES] = { 0 };

    (void)user;
    for (unsigned i = 1; i < n && i < MAX_PIECES; i++) {
        args[i] = (struct piece_arg){ piece, work, i };
        started[i] = pthread_create(&th[i], NULL, run_one, &args[i]) == 0;
    }
    piece(work, 0);
    for (unsigned i = 1; i < n; i++) {
        if (i < MAX_PIECES && started[i])
            pthread_join(th[i], NULL);
        else
            piece(work, i);
    }
}

struct units_run {
    void (*piece)(void *work, unsigned i);
    void *work;
    unsigned n;
    atomic_uint next;
};

static void *take_units(void *arg)
{
    struct units_run *r = arg;
    unsigned i;

    while ((i = atomic_fetch_add(&r->next, 1)) < r->n)
        r->piece(r->work, i);
    return NULL;
}

void pool_run_units(void (*piece)(void *work, unsigned i), void *work,
                    unsigned n, void *user)
{
    const unsigned *threads = user;
    unsigned t = threads != NULL && *threads > 0 ? *threads : 1;
    pthread_t th[MAX_PIECES];
    int started[MAX_PIECES] = { 0 };
    struct units_run r = { piece, work, n, 0 };

    if (t > n)
        t = n;
    if (t > MAX_PIECES)
        t = MAX_PIECES;
    for (unsigned i = 1; i < t; i++)
        started[i] = pthread_create(&th[i], NULL, take_units, &r) == 0;
    take_units(&r);
    for (unsigned i = 1; i < t; i++)
        if (started[i])
            pthread_join(th[i], NULL);
}
