/*
 * puz_err.h - status codes shared by every puzzled module.
 * Functions return one of these; results travel through out-parameters.
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
} puz_err;

/* Static, human-readable name of a status code. Never NULL. */
const char *puz_strerror(puz_err e);

#endif
