/*
 * result_bytes.c - a solve result written straight to JSON bytes, with
 * no tree in between: the answer has a fixed shape, so building a
 * jansson object and printing it (most of a 3x3 request's CPU) is not
 * needed. The bytes are exactly those of the reference tree encoder
 * (codec_ref_result_json() in tests/support/codec_ref.c) printed by
 * json_dumpb() with JSON_COMPACT and the given real precision: same key
 * order, same escapes (jansson's: \" \\ \b \f \n \r \t, other control
 * characters as \u00XX, UTF-8 passed through), same integer and real
 * formatting. tests/test_codec.c holds the two side by side.
 *
 * The answer is bounded: past max_len bytes nothing more is written and
 * the call says how long the answer would have been, so the caller can
 * refuse it with a problem instead of sending part of it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "codec.h"

/* Bytes go to buf while they fit in cap; len counts them all. */
struct out {
    char *buf;
    size_t len, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->len <= o->cap && n <= o->cap - o->len)
        memcpy(o->buf + o->len, s, n);
    o->len += n;
}

#define PUT_LIT(o, lit) put((o), (lit), sizeof(lit) - 1)

static void put_u64(struct out *o, uint64_t v)
{
    char tmp[24];
    size_t i = sizeof(tmp);

    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    put(o, tmp + i, sizeof(tmp) - i);
}

/* json_integer() takes a json_int_t (long long): what it prints. */
static void put_int(struct out *o, long long v)
{
    if (v < 0) {
        PUT_LIT(o, "-");
        put_u64(o, 0u - (uint64_t)v);
        return;
    }
    put_u64(o, (uint64_t)v);
}

/* Writes what ch becomes escaped into tmp and returns its length, or
 * returns 0 when ch stays as it is. */
static size_t escape_of(unsigned char ch, char *tmp)
{
    static const char hex[] = "0123456789ABCDEF";
    static const char named[] = "\"\"\\\\\bb\ff\nn\rr\tt";

    for (size_t i = 0; i < sizeof(named) - 1; i += 2) {
        if ((unsigned char)named[i] == ch) {
            tmp[0] = '\\';
            tmp[1] = named[i + 1];
            return 2;
        }
    }
    if (ch >= 0x20)
        return 0;
    memcpy(tmp, "\\u00", 4);
    tmp[4] = hex[ch >> 4];
    tmp[5] = hex[ch & 15];
    return 6;
}

static void put_str(struct out *o, const char *s)
{
    const char *run = s;
    char tmp[8];

    PUT_LIT(o, "\"");
    for (; *s != '\0'; s++) {
        size_t n;
        if ((unsigned char)*s >= 0x20 && *s != '"' && *s != '\\')
            continue;
        n = escape_of((unsigned char)*s, tmp);
        put(o, run, (size_t)(s - run));
        put(o, tmp, n);
        run = s + 1;
    }
    put(o, run, (size_t)(s - run));
    PUT_LIT(o, "\"");
}

/* jansson's real: %.{digits}g, a ".0" when that reads as an integer, no
 * '+' or leading zeros in the exponent. */
static void put_real(struct out *o, double v, unsigned digits)
{
    char tmp[40], *e;
    int n;

    if (v == 1.0) {     /* the gap of every optimal answer */
        put(o, "1.0", 3);
        return;
    }
    n = snprintf(tmp, sizeof(tmp) - 2, "%.*g", (int)digits, v);

    if (n < 0)
        return;
    if (strchr(tmp, '.') == NULL && strchr(tmp, 'e') == NULL) {
        memcpy(tmp + n, ".0", 3);
        n += 2;
    }
    e = strchr(tmp, 'e');
    if (e != NULL) {
        char *start = e + 1, *end;
        if (*start == '-')
            start++;
        end = start;
        while (*end == '+' || *end == '0')
            end++;
        if (*start == '+')
            start = e + 1;
        memmove(start, end, strlen(end) + 1);
        n = (int)strlen(tmp);
    }
    put(o, tmp, (size_t)n);
}

/* A board as an array of rows: [[1,2,3],[4,5,6],[7,8,0]]. */
static void put_rows(struct out *o, const struct puz_board *b)
{
    PUT_LIT(o, "[");
    for (unsigned r = 0; r < puz_board_rows(b); r++) {
        if (r > 0)
            PUT_LIT(o, ",");
        PUT_LIT(o, "[");
        for (unsigned c = 0; c < b->n; c++) {
            if (c > 0)
                PUT_LIT(o, ",");
            put_u64(o, b->cells[r * b->n + c]);
        }
        PUT_LIT(o, "]");
    }
    PUT_LIT(o, "]");
}

/* The answer's "moves" (names) or "tiles" (numbers). Each move's name
 * is quoted (and escaped, though none needs it) once per answer, not
 * once per move. */
static void put_steps(struct out *o, const struct puz_result *r,
                      bool names)
{
    char quoted[4][16];
    size_t qlen[4];

    for (unsigned d = 0; names && d < 4; d++) {
        struct out q = { quoted[d], 1, sizeof(quoted[d]) - 1 };
        quoted[d][0] = ',';
        put_str(&q, puz_dir_name((enum puz_dir)d));
        qlen[d] = q.len <= q.cap ? q.len : 0;
    }
    PUT_LIT(o, "[");
    for (unsigned i = 0; i < r->length; i++) {
        unsigned d = r->moves[i];
        if (names && d < 4 && qlen[d] != 0) {   /* ",\"name\"" */
            put(o, quoted[d] + (i == 0), qlen[d] - (i == 0));
            continue;
        }
        if (i > 0)
            PUT_LIT(o, ",");
        if (names)
            put_str(o, puz_dir_name((enum puz_dir)d));
        else
            put_u64(o, r->tiles[i]);
    }
    PUT_LIT(o, "]");
}

static void put_path(struct out *o, const struct puz_board *start,
                     const struct puz_result *r)
{
    struct puz_board b = *start;

    PUT_LIT(o, "[");
    put_rows(o, &b);
    for (unsigned i = 0; i < r->length; i++) {
        puz_board_move(&b, (enum puz_dir)r->moves[i]);
        PUT_LIT(o, ",");
        put_rows(o, &b);
    }
    PUT_LIT(o, "]");
}

/* A member whose value is a count: the literal before it ("{\"key\":"
 * or ",\"key\":"), then the number. */
#define PUT_COUNT(o, lit, v) (PUT_LIT(o, lit), put_int((o), (long long)(v)))

static void put_stats(struct out *o, const struct puz_stats *st)
{
    PUT_COUNT(o, "{\"expanded\":", st->expanded);
    PUT_COUNT(o, ",\"generated\":", st->generated);
    PUT_COUNT(o, ",\"duplicates\":", st->duplicates);
    PUT_COUNT(o, ",\"max_frontier\":", st->max_frontier);
    PUT_COUNT(o, ",\"arena_bytes\":", st->arena_peak);
    PUT_COUNT(o, ",\"time_us\":", st->time_us);
    PUT_LIT(o, "}");
}

/* The whole answer, in the key order of the reference encoder the tests
 * hold it to (tests/support/codec_ref.c). */
static void put_result(struct out *o, const struct puz_board *start,
                       const struct puz_result *r, bool include_path,
                       unsigned digits)
{
    PUT_LIT(o, "{\"status\":");
    put_str(o, puz_status_name(r->status));
    if (r->optimal)
        PUT_LIT(o, ",\"optimal\":true,\"length\":");
    else
        PUT_LIT(o, ",\"optimal\":false,\"length\":");
    put_int(o, (int)r->length);
    PUT_LIT(o, ",\"moves\":");
    put_steps(o, r, true);
    PUT_LIT(o, ",\"tiles\":");
    put_steps(o, r, false);
    PUT_LIT(o, ",\"algorithm\":");
    put_str(o, puz_algorithm_name(r->algorithm));
    PUT_LIT(o, ",\"heuristic\":");
    if (r->heuristic != NULL)
        put_str(o, puz_heuristic_name(r->heuristic));
    else
        PUT_LIT(o, "null");
    if (r->tables != NULL) {
        PUT_LIT(o, ",\"tables\":");
        put_str(o, r->tables);
    }
    PUT_LIT(o, ",\"stats\":");
    put_stats(o, &r->stats);
    PUT_LIT(o, ",\"lower_bound\":");
    put_int(o, r->lower_bound);
    if (r->status != PUZ_SOLVED) {
        PUT_LIT(o, ",\"gap\":null");
    } else if (isfinite(r->gap)) {  /* json_real refuses the others */
        PUT_LIT(o, ",\"gap\":");
        put_real(o, round(r->gap * 1e4) / 1e4, digits);
    }
    PUT_LIT(o, ",\"method\":");
    put_str(o, r->method);
    if (r->reason[0] != '\0') {
        PUT_LIT(o, ",\"reason\":");
        put_str(o, r->reason);
    }
    if (include_path && r->status == PUZ_SOLVED) {
        PUT_LIT(o, ",\"path\":");
        put_path(o, start, r);
    }
    PUT_LIT(o, "}");
}

puz_err codec_result_write(const struct puz_board *start,
                           const struct puz_result *r, bool include_path,
                           unsigned real_digits, char *buf, size_t cap,
                           size_t *len)
{
    struct out o = { buf, 0, cap };

    put_result(&o, start, r, include_path, real_digits);
    *len = o.len;
    return o.len <= cap ? PUZ_OK : PUZ_ERANGE;
}

/* Most answers fit here; they are then copied to the arena at their
 * exact size. */
#define SMALL 4096

puz_err codec_result_bytes(const struct puz_board *start,
                           const struct puz_result *r, bool include_path,
                           unsigned real_digits, size_t max_len,
                           puz_arena *a, char **buf, size_t *len)
{
    char small[SMALL];
    size_t n;

    *buf = NULL;
    codec_result_write(start, r, include_path, real_digits, small, SMALL,
                       len);
    if (max_len != 0 && *len > max_len)
        return PUZ_ERANGE;
    *buf = puz_arena_alloc(a, *len);
    if (*buf == NULL)
        return PUZ_ENOMEM;
    if (*len <= SMALL)
        memcpy(*buf, small, *len);
    else                        /* measured; now written at its size */
        codec_result_write(start, r, include_path, real_digits, *buf, *len,
                           &n);
    return PUZ_OK;
}
