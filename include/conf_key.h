/*
 * conf_key.h - one row of a settings table: a key's name, type, where it
 * lives in its struct, its default, its range and its one-line doc.
 * Each setting of `puzzled serve` is one such row and is written nowhere
 * else: the API's limits are rows of src/api/limits.c (the API sets its
 * own defaults without knowing about the server), the server's other
 * settings rows of src/http/config.c. From the rows come the defaults,
 * the parser's checks, `puzzled serve --help`, and the reference that
 * `puzzled serve --print-defaults` prints into config/puzzled.conf,
 * docs/operations.md and man/puzzled.conf.5 (`make config-docs`).
 */
#ifndef CONF_KEY_H
#define CONF_KEY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum conf_kind {
    CONF_UINT,      /* unsigned */
    CONF_U64,       /* uint64_t */
    CONF_SIZE,      /* size_t, with a k, m or g suffix */
    CONF_STR,       /* char[len] */
};

/* Where a key is listed in the reference (config/puzzled.conf's and
 * docs/operations.md's sections, in this order; in each, the server's
 * rows of src/http/config.c, then the API's of src/api/limits.c). */
enum conf_section {
    CONF_SEC_LISTEN,
    CONF_SEC_SOLVE,
    CONF_SEC_TABLES,
    CONF_SEC_JOBS,
    CONF_SEC_STREAMS,
    CONF_SEC_REQUESTS,
    CONF_SEC_STATE,
    CONF_SEC_FILES,
    CONF_SEC_COUNT_
};

struct conf_key {
    const char *name;
    enum conf_kind kind;
    enum conf_section section;
    size_t off;             /* offsetof in the table's struct */
    size_t len;             /* CONF_STR: buffer size */
    uint64_t min, max;      /* numbers: inclusive range */
    uint64_t def;           /* numbers: the default */
    const char *def_str;    /* CONF_STR: the default */
    const char *values;     /* CONF_STR: what it accepts, for the
                             * reference's range column */
    const char *help;       /* one line: --help, the file, the docs */
};

/* Write k's default into the struct at base. */
static inline void conf_key_default(const struct conf_key *k, void *base)
{
    char *field = (char *)base + k->off;

    switch (k->kind) {
    case CONF_UINT:
        *(unsigned *)(void *)field = (unsigned)k->def;
        break;
    case CONF_U64:
        *(uint64_t *)(void *)field = k->def;
        break;
    case CONF_SIZE:
        *(size_t *)(void *)field = (size_t)k->def;
        break;
    case CONF_STR:
        /* the rows' defaults are literals shorter than their buffers
         * (test_http_config checks every one) */
        strncpy(field, k->def_str != NULL ? k->def_str : "", k->len - 1);
        field[k->len - 1] = '\0';
        break;
    }
}

#endif
