/*
 * board.c - boards: building them from numbers or text with messages that
 * name the exact problem, moving the blank, printing, and the parity test
 * that decides solvability before any search starts.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "puz_board.h"

static const char *const dir_names[] = { "up", "down", "left", "right" };

const char *puz_dir_name(enum puz_dir d)
{
    return (unsigned)d < 4 ? dir_names[d] : NULL;
}

puz_err puz_dir_parse(const char *s, enum puz_dir *out)
{
    static const char letters[] = "udlr";

    *out = PUZ_UP;
    for (unsigned d = 0; d < 4; d++) {
        if (strcasecmp(s, dir_names[d]) == 0 ||
            (s[0] != '\0' && s[1] == '\0' &&
             tolower((unsigned char)s[0]) == letters[d])) {
            *out = (enum puz_dir)d;
            return PUZ_OK;
        }
    }
    return PUZ_EINVAL;
}

enum puz_dir puz_dir_opposite(enum puz_dir d)
{
    return (enum puz_dir)(d ^ 1u);
}

static void set_msg(char *msg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_msg(char *msg, const char *fmt, ...)
{
    va_list ap;

    if (msg == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, PUZ_MSG_MAX, fmt, ap);
    va_end(ap);
}

/* Side length for count cells, or 0 if count is not a square 4..64. */
static unsigned side_of(size_t count)
{
    for (unsigned n = PUZ_MIN_SIZE; n <= PUZ_MAX_SIZE; n++)
        if ((size_t)n * n == count)
            return n;
    return 0;
}

/* n: the columns */
static void cell_name(char *buf, size_t size, unsigned n, size_t i)
{
    snprintf(buf, size, "cell %zu (row %zu, column %zu)", i + 1, i / n + 1,
             i % n + 1);
}

static puz_err check_tiles(const long long *values, unsigned rows,
                           unsigned n, char *msg)
{
    size_t cells = (size_t)rows * n;
    int seen_at[PUZ_MAX_CELLS];
    char a[96], b[96];

    for (size_t t = 0; t < cells; t++)
        seen_at[t] = -1;
    for (size_t i = 0; i < cells; i++) {
        long long v = values[i];

        if (v < 0 || (unsigned long long)v >= cells) {
            cell_name(a, sizeof(a), n, i);
            set_msg(msg, "tile %lld at %s is out of range: a %ux%u board "
                    "holds 0 (the blank) to %zu", v, a, rows, n, cells - 1);
            return PUZ_EINVAL;
        }
        if (seen_at[v] >= 0) {
            cell_name(a, sizeof(a), n, i);
            cell_name(b, sizeof(b), n, (size_t)seen_at[v]);
            if (v == 0)
                set_msg(msg, "two blanks (0): at %s and at %s", b, a);
            else
                set_msg(msg, "tile %lld appears twice: at %s and at %s", v,
                        b, a);
            return PUZ_EINVAL;
        }
        seen_at[v] = (int)i;
    }
    return PUZ_OK;
}

puz_err puz_board_from_values(const long long *values, size_t count,
                              struct puz_board *out, char *msg)
{
    unsigned n = side_of(count);

    memset(out, 0, sizeof(*out));
    if (msg != NULL)
        msg[0] = '\0';
    if (n == 0) {
        set_msg(msg, "a board needs N*N cells for N = %d..%d (4, 9, 16, 25, "
                "36, 49 or 64), got %zu; a rectangle needs its rows and "
                "columns", PUZ_MIN_SIZE, PUZ_MAX_SIZE, count);
        memset(out, 0, sizeof(*out));
        return PUZ_EINVAL;
    }
    return puz_board_from_shape(values, count, n, n, out, msg);
}

puz_err puz_board_from_shape(const long long *values, size_t count,
                             unsigned rows, unsigned cols,
                             struct puz_board *out, char *msg)
{
    memset(out, 0, sizeof(*out));
    if (msg != NULL)
        msg[0] = '\0';
    if (rows < PUZ_MIN_SIZE || rows > PUZ_MAX_SIZE || cols < PUZ_MIN_SIZE ||
        cols > PUZ_MAX_SIZE) {
        set_msg(msg, "a board has %d to %d rows and %d to %d columns, not "
                "%ux%u", PUZ_MIN_SIZE, PUZ_MAX_SIZE, PUZ_MIN_SIZE,
                PUZ_MAX_SIZE, rows, cols);
        return PUZ_EINVAL;
    }
    if (count != (size_t)rows * cols) {
        set_msg(msg, "a %ux%u board has %u cells, got %zu values", rows,
                cols, rows * cols, count);
        return PUZ_EINVAL;
    }
    if (check_tiles(values, rows, cols, msg) != PUZ_OK)
        return PUZ_EINVAL;
    out->n = (uint8_t)cols;
    out->rows = (uint8_t)rows;
    for (size_t i = 0; i < count; i++) {
        out->cells[i] = (uint8_t)values[i];
        if (values[i] == 0)
            out->blank = (uint8_t)i;
    }
    return PUZ_OK;
}

static int is_separator(char c)
{
    return isspace((unsigned char)c) || c == ',' || c == ';' || c == '/' ||
           c == '|';
}

/* Separators that end a row when the text gives rows. */
static int is_row_break(char c)
{
    return c == '/' || c == '|' || c == '\n';
}

/*
 * The text's rows: value counts between row breaks (empty rows, as
 * after a trailing newline, do not count). *rows = 0 when the text gives
 * no usable rows: one row only, or rows of differing lengths or of one
 * value (a flat list that happens to use '/' between numbers), which
 * then reads as a square as it always did. *uneven says which.
 */
struct row_shape {
    unsigned rows, cols, current;
    bool uneven;
};

static void row_end(struct row_shape *rs)
{
    if (rs->current == 0)
        return;
    if (rs->rows > 0 && rs->current != rs->cols)
        rs->uneven = true;
    rs->cols = rs->current;
    rs->rows++;
    rs->current = 0;
}

/* One integer token at s (length len) into *v; message names its place. */
static puz_err parse_token(const char *s, size_t len, size_t index,
                           long long *v, char *msg)
{
    char buf[32];
    char *end;

    /* The usual token, one or two digits: no copy, no strtoll. */
    if (len <= 2 && isdigit((unsigned char)s[0]) &&
        (len == 1 || isdigit((unsigned char)s[1]))) {
        *v = len == 1 ? s[0] - '0' : (s[0] - '0') * 10 + (s[1] - '0');
        return PUZ_OK;
    }
    if (len >= sizeof(buf)) {
        set_msg(msg, "value %zu ('%.12s...') is not a tile number", index + 1,
                s);
        return PUZ_EINVAL;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtoll(buf, &end, 10);
    if (end == buf || *end != '\0' || errno == ERANGE ||
        !(isdigit((unsigned char)buf[0]) || buf[0] == '-' || buf[0] == '+')) {
        set_msg(msg, "value %zu ('%s') is not an integer", index + 1, buf);
        return PUZ_EINVAL;
    }
    return PUZ_OK;
}

static puz_err parse_compact(const char *s, size_t len, struct puz_board *out,
                             char *msg)
{
    long long values[9];

    if (len != 4 && len != 9) {
        set_msg(msg, "'%s' is one number; write tiles separated by spaces or "
                "commas (the compact digit form needs exactly 4 or 9 digits)",
                s);
        return PUZ_EINVAL;
    }
    for (size_t i = 0; i < len; i++)
        values[i] = s[i] - '0';
    return puz_board_from_values(values, len, out, msg);
}

static int all_digits(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return len > 1;
}

static int only_separators(const char *p)
{
    while (*p != '\0' && is_separator(*p))
        p++;
    return *p == '\0';
}

puz_err puz_board_parse(const char *s, struct puz_board *out, char *msg)
{
    return puz_board_parse_shape(s, 0, 0, out, msg);
}

puz_err puz_board_parse_shape(const char *s, unsigned rows, unsigned cols,
                              struct puz_board *out, char *msg)
{
    long long values[PUZ_MAX_CELLS + 1];
    size_t count = 0;
    const char *p = s;
    struct row_shape rs = { 0 };

    memset(out, 0, sizeof(*out));
    while (*p != '\0') {
        const char *start;
        while (*p != '\0' && is_separator(*p)) {
            if (is_row_break(*p))
                row_end(&rs);
            p++;
        }
        if (*p == '\0')
            break;
        start = p;
        while (*p != '\0' && !is_separator(*p))
            p++;
        if (rows == 0 && count == 0 && only_separators(p) &&
            all_digits(start, (size_t)(p - start)) && (size_t)(p - start) > 2)
            return parse_compact(start, (size_t)(p - start), out, msg);
        if (count > PUZ_MAX_CELLS) {
            set_msg(msg, "too many values: a board has at most %d cells",
                    PUZ_MAX_CELLS);
            return PUZ_EINVAL;
        }
        if (parse_token(start, (size_t)(p - start), count, &values[count],
                        msg) != PUZ_OK)
            return PUZ_EINVAL;
        count++;
        rs.current++;
    }
    row_end(&rs);
    if (count == 0) {
        set_msg(msg, "the board is empty");
        return PUZ_EINVAL;
    }
    if (rows != 0)      /* the caller's shape wins over the text's */
        return puz_board_from_shape(values, count, rows, cols, out, msg);
    if (rs.rows >= 2 && !rs.uneven && rs.cols >= 2)
        return puz_board_from_shape(values, count, rs.rows, rs.cols, out,
                                    msg);
    if (rs.uneven && side_of(count) == 0) {
        set_msg(msg, "the rows have different lengths: every row of a "
                "board has as many values as the first");
        return PUZ_EINVAL;
    }
    return puz_board_from_values(values, count, out, msg);
}

puz_err puz_board_goal(unsigned n, struct puz_board *out)
{
    return puz_board_goal_shape(n, n, out);
}

puz_err puz_board_goal_shape(unsigned rows, unsigned cols,
                             struct puz_board *out)
{
    memset(out, 0, sizeof(*out));
    if (rows < PUZ_MIN_SIZE || rows > PUZ_MAX_SIZE || cols < PUZ_MIN_SIZE ||
        cols > PUZ_MAX_SIZE)
        return PUZ_ERANGE;
    out->n = (uint8_t)cols;
    out->rows = (uint8_t)rows;
    for (unsigned i = 0; i + 1 < rows * cols; i++)
        out->cells[i] = (uint8_t)(i + 1);
    out->blank = (uint8_t)(rows * cols - 1);
    return PUZ_OK;
}

puz_err puz_board_goal_of(const struct puz_board *b, struct puz_board *out)
{
    return puz_board_goal_shape(puz_board_rows(b), b->n, out);
}

bool puz_board_equal(const struct puz_board *a, const struct puz_board *b)
{
    return puz_board_same_shape(a, b) &&
           memcmp(a->cells, b->cells, puz_board_cells(a)) == 0;
}

bool puz_board_can_move(const struct puz_board *b, enum puz_dir d)
{
    unsigned r = b->blank / b->n, c = b->blank % b->n;

    switch (d) {
    case PUZ_UP: return r > 0;
    case PUZ_DOWN: return r + 1 < puz_board_rows(b);
    case PUZ_LEFT: return c > 0;
    case PUZ_RIGHT: return c + 1 < b->n;
    }
    return false;
}

unsigned puz_board_move(struct puz_board *b, enum puz_dir d)
{
    static const int dr[] = { -1, 1, 0, 0 }, dc[] = { 0, 0, -1, 1 };
    unsigned to, tile;

    if ((unsigned)d >= 4 || !puz_board_can_move(b, d))
        return 0;
    to = (unsigned)((int)b->blank + dr[d] * b->n + dc[d]);
    tile = b->cells[to];
    b->cells[b->blank] = (uint8_t)tile;
    b->cells[to] = 0;
    b->blank = (uint8_t)to;
    return tile;
}

puz_err puz_board_dir_of_tile(const struct puz_board *b, unsigned tile,
                              enum puz_dir *out)
{
    for (unsigned d = 0; d < 4; d++) {
        struct puz_board t = *b;
        if (puz_board_move(&t, (enum puz_dir)d) == tile && tile != 0) {
            *out = (enum puz_dir)d;
            return PUZ_OK;
        }
    }
    *out = PUZ_UP;
    return PUZ_EINVAL;
}

/* Inversions of seq[0..len) (values < 64) with a Fenwick tree. */
static unsigned count_inversions(const uint8_t *seq, unsigned len)
{
    unsigned tree[PUZ_MAX_CELLS + 1] = { 0 };
    unsigned inv = 0;

    for (unsigned i = len; i-- > 0;) {
        for (unsigned k = seq[i]; k > 0; k -= k & -k)
            inv += tree[k];            /* smaller values already right */
        for (unsigned k = seq[i] + 1u; k <= PUZ_MAX_CELLS; k += k & -k)
            tree[k]++;
    }
    return inv;
}

puz_err puz_board_solvable(const struct puz_board *b,
                           const struct puz_board *goal,
                           bool *solvable, char *why)
{
    unsigned n = b->n, cells = puz_board_cells(b), len = 0, inv, rows = 0;
    unsigned sum;
    bool square = puz_board_square(b);
    uint8_t goal_pos[PUZ_MAX_CELLS], seq[PUZ_MAX_CELLS];

    *solvable = false;
    if (!puz_board_same_shape(b, goal)) {
        set_msg(why, "the board is %ux%u but the goal is %ux%u",
                puz_board_rows(b), n, puz_board_rows(goal), goal->n);
        return PUZ_EINVAL;
    }
    for (unsigned i = 0; i < cells; i++)
        goal_pos[goal->cells[i]] = (uint8_t)i;
    for (unsigned i = 0; i < cells; i++)
        if (b->cells[i] != 0)
            seq[len++] = goal_pos[b->cells[i]];
    inv = count_inversions(seq, len);
    if (n % 2 == 1) {
        *solvable = inv % 2 == 0;
        set_msg(why, "inversions: %u (%s) — %s", inv,
                inv % 2 ? "odd" : "even", *solvable ? "solvable" :
                square ? "this board cannot reach the goal (on an odd-sized "
                "board every move keeps the parity, and the goal has 0)" :
                "this board cannot reach the goal (with an odd number of "
                "columns every move keeps the parity, and the goal has 0)");
        return PUZ_OK;
    }
    rows = (unsigned)abs(b->blank / (int)n - goal->blank / (int)n);
    sum = inv + rows;
    *solvable = sum % 2 == 0;
    set_msg(why, "inversions: %u, blank %u row(s) from its goal row: "
            "%u + %u = %u (%s) — %s", inv, rows, inv, rows, sum,
            sum % 2 ? "odd" : "even", *solvable ? "solvable" :
            square ? "this board cannot reach the goal (on an even-sized "
            "board every move keeps this sum's parity, and the goal has 0)" :
            "this board cannot reach the goal (with an even number of "
            "columns every move keeps this sum's parity, and the goal has "
            "0)");
    return PUZ_OK;
}

void puz_board_format(const struct puz_board *b, char *buf, size_t size)
{
    size_t off = 0;

    if (size == 0)
        return;
    buf[0] = '\0';
    /* a rectangle's rows are marked, so that the text parses back */
    bool rows = !puz_board_square(b);

    for (unsigned i = 0; i < puz_board_cells(b) && off < size; i++) {
        int w = snprintf(buf + off, size - off,
                         i == 0 ? "%u" : rows && i % b->n == 0 ? "/%u"
                                                               : " %u",
                         b->cells[i]);
        if (w < 0)
            return;
        off += (size_t)w;
    }
}

void puz_board_format_grid(const struct puz_board *b, char *buf, size_t size)
{
    size_t off = 0;
    int width = puz_board_cells(b) > 10 ? 3 : 2;

    if (size == 0)
        return;
    buf[0] = '\0';
    for (unsigned i = 0; i < puz_board_cells(b) && off < size; i++) {
        int w;
        if (b->cells[i] == 0)
            w = snprintf(buf + off, size - off, "%*s", width, ".");
        else
            w = snprintf(buf + off, size - off, "%*u", width, b->cells[i]);
        if (w < 0)
            return;
        off += (size_t)w;
        if ((i + 1) % b->n == 0 && off < size)
            off += (size_t)snprintf(buf + off, size - off, "\n");
    }
}
