/*
 * idem_race.h - one racer of the Idempotency-Key tests: many threads
 * submit one key at once, through the embedded registry (test_jobs.c)
 * or through Redis from two instances (test_jobq.c); each racer says
 * what its submission found and the job id it got.
 */
#ifndef TEST_IDEM_RACE_H
#define TEST_IDEM_RACE_H

#include <pthread.h>

#include "jobs.h"

struct idem_race {
    void *q;                        /* jobs_t * or jobq_t *, the test's */
    const struct jobs_idem *idem;
    pthread_barrier_t *go;          /* all start together */
    enum jobs_idem_found found;
    char id[JOBS_ID_LEN + 1];
};

#endif
