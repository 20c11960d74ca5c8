/*
 * keys.c - the API keys table (api_keys.h): the keys file read once at
 * start, bearer tokens matched by their SHA-256 (OpenSSL's libcrypto),
 * and a per-key count of requests in the current minute (and the one
 * before: rpm=N is a sliding minute, see api_keys_take_request) and of
 * event streams open. In shared mode the server's sync thread adds those to
 * the cluster's in Redis every STORE_KEY_USE_TTL_MS / 30 and brings the
 * other instances' back (api_keys_use_collect/_apply), so rpm=N and
 * streams=N hold across instances (issue 42 item 3) without a network
 * thread ever waiting for Redis: a check reads the last sync's numbers.
 */
#include "api_keys.h"

#include <stddef.h>

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "puz_board.h"
#include "store.h"

#define KEYS_MAX 4096

/* A key's use. Requests: n here in the minute, of them pushed already
 * to the cluster (shared mode), and the cluster's total for the minute
 * at the last sync (so the others' are total - pushed). Streams: open
 * here, and on other instances at the last sync. */
struct counter {
    uint64_t minute;            /* now_ms / 60000 of the count */
    unsigned n, pushed, total;
    unsigned prev;              /* the minute before's, everywhere */
    unsigned streams, streams_elsewhere;
};

struct api_keys {
    struct api_key *keys;
    struct counter *counts;     /* one per key */
    size_t n;
    pthread_mutex_t lock;       /* guards counts */
};

static void sha256(const char *s, unsigned char out[32])
{
    unsigned int len = 32;

    EVP_Digest(s, strlen(s), out, &len, EVP_sha256(), NULL);
}

static void to_hex(const unsigned char *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";

    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

void api_keys_hash_hex(const char *token, char out[API_KEY_HASH_HEX + 1])
{
    unsigned char h[32];

    sha256(token, h);
    to_hex(h, sizeof(h), out);
}

bool api_keys_new_token(char out[API_KEY_HASH_HEX + 1])
{
    unsigned char raw[32];

    if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw))
        return false;
    to_hex(raw, sizeof(raw), out);
    return true;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool parse_hash(const char *s, unsigned char out[32])
{
    if (strlen(s) != API_KEY_HASH_HEX)
        return false;
    for (int i = 0; i < 32; i++) {
        int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (unsigned char)(hi * 16 + lo);
    }
    return true;
}

static bool name_ok(const char *s)
{
    size_t n = strlen(s);

    if (n == 0 || n > API_KEY_NAME_MAX)
        return false;
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "0123456789-_.") == n;
}

/* One "jobs=N" / "streams=N" / "rpm=N" / "operator" word. */
static bool option(struct api_key *k, const char *w)
{
    static const struct { const char *name; size_t off; } limits[] = {
        { "jobs=", offsetof(struct api_key, jobs) },
        { "streams=", offsetof(struct api_key, streams) },
        { "rpm=", offsetof(struct api_key, rpm) },
    };
    char *end;
    unsigned long v;

    if (strcmp(w, "operator") == 0) {
        k->operator = true;
        return true;
    }
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        size_t n = strlen(limits[i].name);
        if (strncmp(w, limits[i].name, n) != 0)
            continue;
        errno = 0;
        v = strtoul(w + n, &end, 10);
        if (w[n] < '0' || w[n] > '9' || *end != '\0' || errno != 0
            || v > 1000000)
            return false;
        *(unsigned *)((char *)k + limits[i].off) = (unsigned)v;
        return true;
    }
    return false;
}

bool api_keys_parse_words(const char *name, const char *hash,
                          const char *const *opts, size_t nopts,
                          struct api_key *k, char *why, size_t size)
{
    memset(k, 0, sizeof(*k));
    if (name == NULL || !name_ok(name)) {
        snprintf(why, size, "a key's name is 1 to %d letters, digits, "
                 "'-', '_' or '.'", API_KEY_NAME_MAX);
        return false;
    }
    snprintf(k->name, sizeof(k->name), "%s", name);
    if (hash == NULL || !parse_hash(hash, k->hash)) {
        snprintf(why, size, "after the name comes the key's SHA-256 in "
                 "hex (puzzled key new NAME prints a line)");
        return false;
    }
    for (size_t i = 0; i < nopts; i++) {
        if (!option(k, opts[i])) {
            snprintf(why, size, "'%.40s' is not operator, jobs=N, "
                     "streams=N or rpm=N (N 0 to 1000000)", opts[i]);
            return false;
        }
    }
    return true;
}

/* One line into k (its words through api_keys_parse_words, the check
 * `puzzled key new` makes too); false with why in msg. */
static bool parse_line(char *line, struct api_key *k, char *why, size_t size)
{
    char *save = NULL, *name = strtok_r(line, " \t", &save);
    char *hash = name ? strtok_r(NULL, " \t", &save) : NULL, *w;
    const char *opts[64];
    size_t n = 0;

    while (hash != NULL && (w = strtok_r(NULL, " \t", &save)) != NULL) {
        if (n == sizeof(opts) / sizeof(opts[0])) {
            snprintf(why, size, "more than %zu options", n);
            return false;
        }
        opts[n++] = w;
    }
    return api_keys_parse_words(name, hash, opts, n, k, why, size);
}

static bool add_line(api_keys *t, char *line, char *why, size_t size)
{
    struct api_key k;

    if (!parse_line(line, &k, why, size))
        return false;
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->keys[i].name, k.name) == 0) {
            snprintf(why, size, "the name %s is given twice", k.name);
            return false;
        }
    }
    if (t->n == KEYS_MAX) {
        snprintf(why, size, "more than %d keys", KEYS_MAX);
        return false;
    }
    t->keys[t->n++] = k;
    return true;
}

puz_err api_keys_load(const char *path, api_keys **out, char *msg)
{
    FILE *f = fopen(path, "r");
    api_keys *t = calloc(1, sizeof(*t));
    char line[512], why[160];
    unsigned no = 0;

    *out = NULL;
    if (t != NULL) {
        t->keys = calloc(KEYS_MAX, sizeof(*t->keys));
        pthread_mutex_init(&t->lock, NULL);
    }
    if (f == NULL || t == NULL || t->keys == NULL) {
        snprintf(msg, PUZ_MSG_MAX, "cannot read the keys file %.120s: %s", path,
                 f == NULL ? strerror(errno) : "out of memory");
        if (f != NULL)
            fclose(f);
        api_keys_free(t);
        return f == NULL ? PUZ_EIO : PUZ_ENOMEM;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        no++;
        line[strcspn(line, "#\r\n")] = '\0';
        if (line[strspn(line, " \t")] == '\0')
            continue;
        if (!add_line(t, line, why, sizeof(why))) {
            snprintf(msg, PUZ_MSG_MAX, "%.60s line %u: %.160s", path, no, why);
            fclose(f);
            api_keys_free(t);
            return PUZ_EINVAL;
        }
    }
    fclose(f);
    t->counts = calloc(t->n ? t->n : 1, sizeof(*t->counts));
    if (t->counts == NULL) {
        api_keys_free(t);
        return PUZ_ENOMEM;
    }
    *out = t;
    return PUZ_OK;
}

void api_keys_free(api_keys *k)
{
    if (k == NULL)
        return;
    pthread_mutex_destroy(&k->lock);
    free(k->counts);
    free(k->keys);
    free(k);
}

size_t api_keys_count(const api_keys *k)
{
    return k != NULL ? k->n : 0;
}

const struct api_key *api_keys_find(const api_keys *k, const char *token)
{
    const struct api_key *found = NULL;
    unsigned char h[32];

    if (k == NULL || token == NULL || strlen(token) > API_KEY_TOKEN_MAX)
        return NULL;
    sha256(token, h);
    /* Every key compared, in constant time: no timing says how close a
     * guess came, or which key it nearly matched. */
    for (size_t i = 0; i < k->n; i++)
        if (CRYPTO_memcmp(k->keys[i].hash, h, sizeof(h)) == 0)
            found = &k->keys[i];
    return found;
}

#define MINUTE_MS 60000

/* c's requests this minute: ours here, and the other instances' as of
 * the last sync. */
static unsigned used_in_minute(const struct counter *c)
{
    return c->n + (c->total > c->pushed ? c->total - c->pushed : 0);
}

/* c's count moved to minute (a new one starts at nothing, and keeps the
 * count of the minute just ended as prev); lock held. */
static void at_minute(struct counter *c, uint64_t minute)
{
    if (c->minute != minute) {
        c->prev = c->minute + 1 == minute ? used_in_minute(c) : 0;
        c->minute = minute;
        c->n = c->pushed = c->total = 0;
    }
}

/* Milliseconds from `into` (ms into the minute) until a request of a key
 * with rpm, cur this minute and prev the minute before passes (the
 * estimate below under rpm), at least 1. */
static uint64_t wait_ms(unsigned rpm, unsigned cur, unsigned prev,
                        uint64_t into)
{
    uint64_t at;

    if (cur < rpm && prev > 0) {
        /* prev * (MINUTE_MS - t) + cur * MINUTE_MS < rpm * MINUTE_MS */
        at = MINUTE_MS - (uint64_t)(rpm - cur) * MINUTE_MS / prev + 1;
        return at > into ? at - into : 1;
    }
    /* This minute is full: the next one starts with it as its prev. */
    at = MINUTE_MS - (uint64_t)rpm * MINUTE_MS / (cur > 0 ? cur : 1) + 1;
    return MINUTE_MS - into + at;
}

/*
 * rpm=N as a sliding minute: the requests of this minute plus those of
 * the minute before, weighed by how much of that minute is still within
 * the last 60 s (as if it had been spent evenly). A fixed calendar
 * minute let 2N through within a second across its edge (N in its last
 * second, N in the next one's first, and shared_keys.sh saw 15 and 18 of
 * 20 with rpm=10); now a burst at the edge gets N and one more. The
 * estimate still trusts the minute before to have been even: requests
 * bunched at its end and then a steady stream can pass more than N in
 * some 60 s, never 2N.
 */
bool api_keys_take_request(api_keys *k, const struct api_key *key,
                           uint64_t now_ms, unsigned *retry_s)
{
    size_t i = (size_t)(key - k->keys);
    struct counter *c = &k->counts[i];
    uint64_t into = now_ms % MINUTE_MS, wait = 0;
    unsigned cur;
    bool ok;

    *retry_s = 0;
    if (key->rpm == 0)
        return true;
    pthread_mutex_lock(&k->lock);
    at_minute(c, now_ms / MINUTE_MS);
    cur = used_in_minute(c);
    ok = (uint64_t)c->prev * (MINUTE_MS - into) + (uint64_t)cur * MINUTE_MS
         < (uint64_t)key->rpm * MINUTE_MS;
    if (ok)
        c->n++;
    else
        wait = wait_ms(key->rpm, cur, c->prev, into);
    pthread_mutex_unlock(&k->lock);
    if (!ok)
        *retry_s = (unsigned)((wait + 999) / 1000);
    return ok;
}

/* The index of the key named name, or -1. */
static long index_of(const api_keys *k, const char *name)
{
    for (size_t i = 0; k != NULL && name != NULL && name[0] != '\0'
                       && i < k->n; i++)
        if (strcmp(k->keys[i].name, name) == 0)
            return (long)i;
    return -1;
}

void api_keys_stream_count(api_keys *k, const char *name, int delta)
{
    long i = index_of(k, name);

    if (i < 0)
        return;
    pthread_mutex_lock(&k->lock);
    if (delta > 0 || k->counts[i].streams > 0)
        k->counts[i].streams += (unsigned)delta;
    pthread_mutex_unlock(&k->lock);
}

unsigned api_keys_streams_elsewhere(api_keys *k, const char *name)
{
    long i = index_of(k, name);
    unsigned n;

    if (i < 0)
        return 0;
    pthread_mutex_lock(&k->lock);
    n = k->counts[i].streams_elsewhere;
    pthread_mutex_unlock(&k->lock);
    return n;
}

size_t api_keys_use_collect(api_keys *k, uint64_t now_ms,
                            struct store_key_use *out, size_t max)
{
    size_t n = 0;

    if (k == NULL)
        return 0;
    pthread_mutex_lock(&k->lock);
    for (size_t i = 0; i < k->n && n < max; i++) {
        struct counter *c = &k->counts[i];

        if (k->keys[i].rpm == 0 && k->keys[i].streams == 0)
            continue;
        at_minute(c, now_ms / MINUTE_MS);
        out[n] = (struct store_key_use){ .key = k->keys[i].name,
                                         .requests = c->n - c->pushed,
                                         .streams = c->streams };
        c->pushed = c->n;
        n++;
    }
    pthread_mutex_unlock(&k->lock);
    return n;
}

void api_keys_use_apply(api_keys *k, uint64_t now_ms,
                        const struct store_key_use *in, size_t n)
{
    pthread_mutex_lock(&k->lock);
    for (size_t j = 0; j < n; j++) {
        long i = index_of(k, in[j].key);

        if (i < 0)
            continue;
        /* A minute that ended since the collect: its total is stale. */
        if (k->counts[i].minute == now_ms / MINUTE_MS)
            k->counts[i].total = in[j].requests_total;
        k->counts[i].streams_elsewhere = in[j].streams_elsewhere;
    }
    pthread_mutex_unlock(&k->lock);
}
