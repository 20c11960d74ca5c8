/*
 * pdb_file.c - pattern database cache files: write them atomically, read
 * them back, and never trust one that fails a check.
 *
 * Layout: a 4096-byte header, then the stored tables, each 64-byte
 * aligned, exactly as in memory. The header names the version, byte
 * order, board side, partition, goal class, canonical goal and group of
 * every tile, each group's size and the table it reads, a checksum of the
 * data and one of the header itself. A file that is damaged, truncated
 * or for other tables is reported in one line and rebuilt by
 * puz_pdb_open().
 *
 * The tables are read into private memory, not mapped: a mapping of a
 * file that someone truncates or rewrites in place turns the next lookup
 * into SIGBUS, and a server must survive an operator's `truncate` or a
 * careless `cp` over its cache. Reading costs about what the checksum
 * pass over a mapping did (the pages are touched either way).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "heur/pdb_impl.h"

#define HEADER_BYTES 4096u
#define MAGIC "PUZZPDB\n"
#define BYTE_ORDER_MARK 0x01020304u
#define OFF_VERSION 8
#define OFF_ORDER 12
#define OFF_N 16
#define OFF_PART 20
#define OFF_ORBIT 24
#define OFF_NGROUPS 28
#define OFF_GOAL 32           /* 32 bytes: the canonical goal's cells */
#define OFF_GROUPS_OF 64      /* 32 bytes: group of every tile */
#define OFF_GROUP 96          /* 24 bytes per group: k, table, entries,
                               * words stored; room for 6 groups */
#define OFF_DATA_BYTES 240
#define OFF_DATA_SUM 248
#define OFF_HEADER_SUM 256
/* Read in pieces of this size, so a huge read is never one syscall. */
#define READ_CHUNK (64u << 20)

static const uint64_t mix = 0x9e3779b97f4a7c15ull;

/* Four independent lanes (for speed); each step is a bijection of the
 * lane's state, so changing any one word always changes the result. */
uint64_t puz__pdb_checksum(const uint64_t *w, uint64_t nwords)
{
    uint64_t h[4] = { 1, 2, 3, 4 }, r = nwords, i;

    for (i = 0; i + 4 <= nwords; i += 4)
        for (unsigned j = 0; j < 4; j++) {
            h[j] = (h[j] ^ w[i + j]) * mix;
            h[j] ^= h[j] >> 29;
        }
    for (; i < nwords; i++) {
        h[0] = (h[0] ^ w[i]) * mix;
        h[0] ^= h[0] >> 29;
    }
    for (unsigned j = 0; j < 4; j++) {
        r = (r ^ h[j]) * mix;
        r ^= r >> 31;
    }
    return r;
}

static void put32(uint8_t *h, size_t off, uint32_t v)
{
    memcpy(h + off, &v, sizeof(v));
}

static void put64(uint8_t *h, size_t off, uint64_t v)
{
    memcpy(h + off, &v, sizeof(v));
}

static uint32_t get32(const uint8_t *h, size_t off)
{
    uint32_t v;

    memcpy(&v, h + off, sizeof(v));
    return v;
}

static uint64_t get64(const uint8_t *h, size_t off)
{
    uint64_t v;

    memcpy(&v, h + off, sizeof(v));
    return v;
}

static const uint64_t *data_of(const struct puz_pdb *d)
{
    return d->mem;
}

static uint64_t stored_words(const struct puz_pdb *d, unsigned i)
{
    return d->g[i].table == i ? puz__pdb_group_words(d->g[i].k, d->cells)
                              : 0;
}

static uint64_t header_sum(const uint8_t *h)
{
    uint64_t w[OFF_HEADER_SUM / 8];

    memcpy(w, h, sizeof(w));
    return puz__pdb_checksum(w, OFF_HEADER_SUM / 8);
}

static void header_fill(const struct puz_pdb *d, uint8_t *h)
{
    memset(h, 0, HEADER_BYTES);
    memcpy(h, MAGIC, 8);
    put32(h, OFF_VERSION, PUZ_PDB_FILE_VERSION);
    put32(h, OFF_ORDER, BYTE_ORDER_MARK);
    put32(h, OFF_N, d->n);
    put32(h, OFF_PART, (uint32_t)d->part);
    put32(h, OFF_ORBIT, d->orbit);
    put32(h, OFF_NGROUPS, d->ngroups);
    memcpy(h + OFF_GOAL, d->goal.cells, d->cells);
    memcpy(h + OFF_GROUPS_OF, d->group_of, d->cells);
    for (unsigned i = 0; i < d->ngroups; i++) {
        put32(h, OFF_GROUP + 24 * i, d->g[i].k);
        put32(h, OFF_GROUP + 24 * i + 4, d->g[i].table);
        put64(h, OFF_GROUP + 24 * i + 8, d->g[i].entries);
        put64(h, OFF_GROUP + 24 * i + 16, stored_words(d, i));
    }
    put64(h, OFF_DATA_BYTES, d->data_bytes);
    put64(h, OFF_DATA_SUM, puz__pdb_checksum(data_of(d), d->data_bytes / 8));
    put64(h, OFF_HEADER_SUM, header_sum(h));
}

static int write_all(int fd, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

puz_err puz_pdb_save(const puz_pdb *d, const char *path, char *msg)
{
    uint8_t *h = calloc(1, HEADER_BYTES);
    char tmp[4096];
    int fd = -1, bad = 1, err = 0;

    if (d->second != NULL) {
        free(h);
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "pdb: a pair of partitions is kept "
                     "as its two sets' files (puz_pdb_open saves both)");
        return PUZ_EINVAL;
    }
    if (h == NULL)
        return PUZ_ENOMEM;
    header_fill(d, h);
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        err = errno;
        goto out_report;
    }
    if (write_all(fd, h, HEADER_BYTES) == 0 &&
        write_all(fd, data_of(d), d->data_bytes) == 0 && fsync(fd) == 0)
        bad = 0;
    else
        err = errno;
    if (close(fd) != 0 && !bad) {
        err = errno;
        bad = 1;
    }
    if (!bad && rename(tmp, path) != 0) {
        err = errno;
        bad = 1;
    }
    if (bad)
        unlink(tmp);  /* may set errno: the reason was kept in err */
out_report:
    /* The reason before the path: a path too long for the message cuts
     * the path's tail, never the reason. */
    if (bad && msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "pdb: cannot write (%s): %s",
                 strerror(err), path);
    free(h);
    return bad ? PUZ_EIO : PUZ_OK;
}

static puz_err fail(char *msg, puz_err rc, const char *what)
{
    if (msg != NULL)
        snprintf(msg, PUZ_MSG_MAX, "%s", what);
    return rc;
}

/* The header must describe exactly the layout this build would make. */
static puz_err check_layout(const uint8_t *h, struct puz_pdb *d, char *msg)
{
    uint32_t part = get32(h, OFF_PART), orbit = get32(h, OFF_ORBIT);
    size_t off[PUZ__PDB_MAX_GROUPS];

    if (part >= PUZ_PDB_PARTITION_COUNT_ ||
        get32(h, OFF_N) != puz_pdb_partition_size(part) ||
        puz__pdb_layout(d, (enum puz_pdb_partition)part, orbit) != PUZ_OK)
        return fail(msg, PUZ_ECORRUPT, "header names an unknown table");
    for (unsigned i = 0; i < d->ngroups; i++)
        if (get32(h, OFF_GROUP + 24 * i) != d->g[i].k ||
            get32(h, OFF_GROUP + 24 * i + 4) != d->g[i].table ||
            get64(h, OFF_GROUP + 24 * i + 8) != d->g[i].entries ||
            get64(h, OFF_GROUP + 24 * i + 16) != stored_words(d, i))
            return fail(msg, PUZ_ECORRUPT, "group sizes do not match");
    d->data_bytes = puz__pdb_table_bytes(d, off);
    if (get32(h, OFF_NGROUPS) != d->ngroups ||
        memcmp(h + OFF_GOAL, d->goal.cells, d->cells) != 0 ||
        memcmp(h + OFF_GROUPS_OF, d->group_of, d->cells) != 0 ||
        get64(h, OFF_DATA_BYTES) != d->data_bytes)
        return fail(msg, PUZ_ECORRUPT, "layout does not match the header");
    return PUZ_OK;
}

static puz_err check_header(const uint8_t *h, uint64_t file_bytes,
                            struct puz_pdb *d, char *msg)
{
    char why[PUZ_MSG_MAX];
    puz_err rc;

    if (memcmp(h, MAGIC, 8) != 0)
        return fail(msg, PUZ_ECORRUPT, "not a puzzled pattern database");
    if (get32(h, OFF_VERSION) != PUZ_PDB_FILE_VERSION) {
        snprintf(why, sizeof(why), "file version %u, this build reads %u",
                 get32(h, OFF_VERSION), PUZ_PDB_FILE_VERSION);
        return fail(msg, PUZ_EINVAL, why);
    }
    if (get32(h, OFF_ORDER) != BYTE_ORDER_MARK)
        return fail(msg, PUZ_EINVAL, "written with another byte order");
    if (get64(h, OFF_HEADER_SUM) != header_sum(h))
        return fail(msg, PUZ_ECORRUPT, "header checksum mismatch");
    rc = check_layout(h, d, msg);
    if (rc != PUZ_OK)
        return rc;
    if (file_bytes != HEADER_BYTES + d->data_bytes) {
        snprintf(why, sizeof(why), "file has %llu bytes, header says %llu "
                 "(truncated?)", (unsigned long long)file_bytes,
                 (unsigned long long)(HEADER_BYTES + d->data_bytes));
        return fail(msg, PUZ_ECORRUPT, why);
    }
    return PUZ_OK;
}

/* Intact, but is it the table the caller wants? */
static puz_err check_wanted(const struct puz_pdb *d, int part,
                            const struct puz_board *goal, char *msg)
{
    char why[PUZ_MSG_MAX];

    if (part >= 0 && (enum puz_pdb_partition)part != d->part) {
        snprintf(why, sizeof(why), "holds %s tables, wanted %s",
                 puz_pdb_partition_name(d->part),
                 puz_pdb_partition_name((enum puz_pdb_partition)part));
        return fail(msg, PUZ_EINVAL, why);
    }
    if (goal != NULL && !puz_pdb_serves(d, goal)) {
        snprintf(why, sizeof(why), "built for goals with the blank in a "
                 "%s cell, wanted %s", puz__orbit_name(d->orbit),
                 puz__orbit_of(goal) == d->orbit ? "another board size"
                                 : puz__orbit_name(puz__orbit_of(goal)));
        return fail(msg, PUZ_EINVAL, why);
    }
    return PUZ_OK;
}

/* Read the tables into private memory and verify their checksum. */
static puz_err read_tables(int fd, const uint8_t *h, struct puz_pdb *d,
                           char *msg)
{
    uint8_t *mem = puz__pdb_alloc(d->data_bytes);
    size_t done = 0;

    if (mem == NULL)
        return fail(msg, PUZ_ENOMEM, "no memory for the tables");
    d->mem = mem;
    while (done < d->data_bytes) {
        size_t want = d->data_bytes - done;
        ssize_t got = pread(fd, mem + done, want < READ_CHUNK ? want
                                                              : READ_CHUNK,
                            (off_t)(HEADER_BYTES + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return fail(msg, got == 0 ? PUZ_ECORRUPT : PUZ_EIO,
                        got == 0 ? "shorter than its header says "
                                   "(truncated while reading?)"
                                 : "cannot read the file");
        done += (size_t)got;
    }
    puz__pdb_attach(d, mem);
    if (puz__pdb_checksum(data_of(d), d->data_bytes / 8) !=
        get64(h, OFF_DATA_SUM))
        return fail(msg, PUZ_ECORRUPT, "data checksum mismatch");
    return PUZ_OK;
}

puz_err puz_pdb_load(const char *path, int part,
                     const struct puz_board *goal, puz_pdb **out, char *msg)
{
    uint8_t h[HEADER_BYTES];
    struct puz_pdb *d = calloc(1, sizeof(*d));
    struct stat st;
    puz_err rc = PUZ_EIO;
    int fd;

    *out = NULL;
    if (d == NULL)
        return PUZ_ENOMEM;
    /* Non-blocking: a FIFO put in the file's place would otherwise
     * hold start-up until someone writes to it (issue 15 item 9). */
    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (msg != NULL)
            snprintf(msg, PUZ_MSG_MAX, "cannot open: %s", strerror(errno));
        goto out_free;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rc = fail(msg, PUZ_ECORRUPT, "not a regular file");
        goto out_close;
    }
    if (st.st_size < (off_t)HEADER_BYTES ||
        pread(fd, h, HEADER_BYTES, 0) != (ssize_t)HEADER_BYTES) {
        rc = fail(msg, PUZ_ECORRUPT, "shorter than its header (truncated)");
        goto out_close;
    }
    rc = check_header(h, (uint64_t)st.st_size, d, msg);
    if (rc == PUZ_OK)
        rc = check_wanted(d, part, goal, msg);
    if (rc == PUZ_OK)
        rc = read_tables(fd, h, d, msg);
out_close:
    close(fd);
out_free:
    if (rc != PUZ_OK) {
        puz_pdb_destroy(d);
        return rc;
    }
    *out = d;
    return PUZ_OK;
}

void puz_pdb_filename(enum puz_pdb_partition part,
                      const struct puz_board *goal, char *buf, size_t size)
{
    const struct puz__partition *pt = puz__partition_get(part);
    unsigned n = puz_pdb_partition_size(part), orbit = 0;

    if (goal != NULL && goal->n == n && puz_board_square(goal))
        orbit = puz__orbit_of(goal);
    /* a rectangle's: "pdb-3x5-7-7-corner-v2.bin" */
    snprintf(buf, size, "pdb-%ux%u-%s-%s-v%u.bin",
             puz_pdb_partition_rows(part), n,
             pt != NULL && pt->file != NULL ? pt->file
                                            : puz_pdb_partition_name(part),
             puz__orbit_name(orbit), PUZ_PDB_FILE_VERSION);
}

static void note(const struct puz_pdb_opts *o, enum puz_pdb_partition part,
                 const char *line)
{
    struct puz_pdb_progress p = { 0 };

    if (o == NULL || o->progress == NULL)
        return;
    p.kind = PUZ_PDB_EV_NOTE;
    p.partition = puz_pdb_partition_name(part);
    p.msg = line;
    o->progress(&p, o->user);
}

/* Build, then keep a copy in dir; failing to save is only reported. */
static puz_err build_and_save(const char *dir, const char *path,
                              enum puz_pdb_partition part,
                              const struct puz_board *goal,
                              const struct puz_pdb_opts *o, puz_pdb **out,
                              char *msg)
{
    char why[PUZ_MSG_MAX], line[PUZ_MSG_MAX + 64];
    puz_err rc = puz_pdb_build(part, goal, o, out, msg);

    if (rc != PUZ_OK || dir == NULL)
        return rc;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        snprintf(line, sizeof(line), "pdb cache %s: cannot create: %s; "
                 "tables not saved", dir, strerror(errno));
        note(o, part, line);
        return PUZ_OK;
    }
    if (puz_pdb_save(*out, path, why) != PUZ_OK) {
        snprintf(line, sizeof(line), "%s; tables not saved", why);
        note(o, part, line);
    }
    return PUZ_OK;
}

/* A pair: each of its sets opened (loaded or built and saved) on its own
 * and then joined. */
static puz_err open_pair(const char *dir, enum puz_pdb_partition pair,
                         enum puz_pdb_partition a, enum puz_pdb_partition b,
                         const struct puz_board *goal,
                         const struct puz_pdb_opts *opts, puz_pdb **out,
                         char *msg)
{
    puz_pdb *first, *second;
    puz_err rc = puz_pdb_open(dir, a, goal, opts, &first, msg);

    if (rc != PUZ_OK)
        return rc;
    rc = puz_pdb_open(dir, b, goal, opts, &second, msg);
    if (rc == PUZ_OK && puz__pdb_pair(first, second, pair) != PUZ_OK) {
        puz_pdb_destroy(second);
        rc = fail(msg, PUZ_EINVAL, "pdb: the pair's sets do not fit "
                  "together");
    }
    if (rc != PUZ_OK) {
        puz_pdb_destroy(first);
        return rc;
    }
    *out = first;
    return PUZ_OK;
}

puz_err puz_pdb_open(const char *dir, enum puz_pdb_partition part,
                     const struct puz_board *goal,
                     const struct puz_pdb_opts *opts, puz_pdb **out,
                     char *msg)
{
    char name[128], path[4096], why[PUZ_MSG_MAX], line[PUZ_MSG_MAX + 4200];
    enum puz_pdb_partition a, b;
    puz_err rc;

    *out = NULL;
    if (puz__pdb_pair_parts(part, &a, &b))
        return open_pair(dir, part, a, b, goal, opts, out, msg);
    if (goal != NULL && (puz_pdb_partition_rect(part)
                         ? !puz_pdb_partition_serves(part, goal)
                         : goal->n != puz_pdb_partition_size(part)))
        return fail(msg, PUZ_EINVAL, "pdb: these tables are for another "
                    "board size");
    puz_pdb_filename(part, goal, name, sizeof(name));
    snprintf(path, sizeof(path), "%s/%s", dir != NULL ? dir : ".", name);
    if (dir != NULL && access(path, F_OK) == 0) {
        rc = puz_pdb_load(path, (int)part, goal, out, why);
        if (rc == PUZ_OK)
            return PUZ_OK;
        snprintf(line, sizeof(line), "pdb cache %s rejected: %s; "
                 "rebuilding", path, why);
        note(opts, part, line);
    }
    return build_and_save(dir, path, part, goal, opts, out, msg);
}
