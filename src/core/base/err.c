/*
 * err.c - names for puz_err codes.
 */
#include "puz_err.h"

const char *puz_strerror(puz_err e)
{
    switch (e) {
    case PUZ_OK: return "ok";
    case PUZ_EINVAL: return "invalid input";
    case PUZ_ENOMEM: return "out of memory";
    case PUZ_EUNSOLVABLE: return "unsolvable";
    case PUZ_ERANGE: return "out of range";
    case PUZ_EIO: return "input/output error";
    case PUZ_ECORRUPT: return "corrupt data";
    case PUZ_EFULL: return "at capacity";
    case PUZ_ECLOSED: return "shutting down";
    case PUZ_ETIMEDOUT: return "timed out";
    case PUZ_EFINISHED: return "already finished";
    case PUZ_ELIMITED: return "too many requests";
    }
    return "unknown error";
}
