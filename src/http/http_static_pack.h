/*
 * http_static_pack.h - the web game's files as the server sends them,
 * made once when it starts (static_pack.c): each file's fingerprint, a
 * gzip copy of what is worth compressing, and the HTML pages rewritten
 * to load every file by its fingerprint. Read-only once built: the
 * network threads share it without a lock.
 */
#ifndef HTTP_STATIC_PACK_H
#define HTTP_STATIC_PACK_H

#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

#include "puz_err.h"

/* Hex digits of a fingerprint: the first 64 bits of the SHA-256 of the
 * bytes sent as they are (the rewritten page, for HTML). */
#define STATIC_PACK_HASH_HEX 16

struct static_pack_entry {
    char *rel;                  /* real path under the root: "js/main.js" */
    dev_t dev;                  /* which file, as it was when packed */
    ino_t ino;
    off_t size;
    struct timespec mtime;
    char hash[STATIC_PACK_HASH_HEX + 1];
    unsigned char *body;        /* HTML as rewritten; NULL: the file's bytes */
    size_t body_len;
    unsigned char *gz;          /* gzip of what is sent; NULL: not worth it */
    size_t gz_len;
    unsigned char *raw;         /* the file's bytes while packing, then NULL */
};

typedef struct static_pack static_pack;

/* Packs every visible regular file below root (the real path). Files
 * past the pack's limits are left out and served from disk as they
 * are; PUZ_ENOMEM only when memory ran out. */
puz_err static_pack_build(const char *root, static_pack **out);
void static_pack_free(static_pack *p);

/* The entry for rel when st is still the file that was packed (same
 * inode, size and mtime), else NULL. */
const struct static_pack_entry *static_pack_find(const static_pack *p,
                                                 const char *rel,
                                                 const struct stat *st);

/* How many files are packed, and their bytes as sent without and with
 * compression (a compressed file counts its gzip size). */
void static_pack_totals(const static_pack *p, size_t *files, size_t *plain,
                        size_t *sent);

/* Whether a content type is text-like and worth compressing. */
int static_pack_compressible(const char *content_type);

#endif
