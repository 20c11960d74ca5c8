/*
 * puz_err.h - the one vocabulary of failure in puzzled. The core's
 * functions, the services the API uses (pool, jobs, store) and the API's
 * own steps return one of these; results travel through out-parameters.
 * The API maps each to an HTTP status in one table (src/api/problem.c,
 * api_problem_kind_of); the CLI prints puz_strerror.
 */
#ifndef PUZ_ERR_H
#define PUZ_ERR_H

typedef enum {
    PUZ_OK = 0,
    PUZ_EINVAL,      /* caller input is malformed (message explains) */
    PUZ_ENOMEM,      /* allocation failed or arena budget exhausted */
    PUZ_EUNSOLVABLE, /* board cannot reach the goal */
    PUZ_ERANGE,      /* value outside the supported range */
    PUZ_EIO,         /* file or system call failed */
    PUZ_ECORRUPT,    /* data failed its integrity check */
    /* The services' (pool, jobs, store): */
    PUZ_EFULL,       /* a queue or a capacity is at its limit: later */
    PUZ_ECLOSED,     /* shutting down: no new work taken */
    PUZ_ETIMEDOUT,   /* gave up waiting */
    PUZ_EFINISHED,   /* the work had already ended: nothing changed */
    PUZ_ELIMITED,    /* this client asked too often: later */
} puz_err;

/* Static, human-readable name of a status code. Never NULL. */
const char *puz_strerror(puz_err e);

#endif
