/*
 * puz_board.h - sliding-tile boards of R rows x C columns (2..8 each,
 * squares the common case): parsing, validation, moves, formatting and
 * solvability.
 *
 * A board is plain data: cells[] in row-major order, tile numbers
 * 1..R*C-1 and 0 for the blank. Moves are named by the direction the
 * BLANK travels: "up" moves the blank one row up, i.e. the tile above the
 * blank slides down into the hole.
 */
#ifndef PUZ_BOARD_H
#define PUZ_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puz_err.h"

#define PUZ_MIN_SIZE 2
#define PUZ_MAX_SIZE 8
#define PUZ_MAX_CELLS (PUZ_MAX_SIZE * PUZ_MAX_SIZE)
/*
 * The message-buffer contract: every function that explains a failure in
 * words writes at most PUZ_MSG_MAX bytes (NUL included) into a caller's
 * buffer, truncating rather than overflowing. The layers above add their
 * context in bigger buffers derived from this one (HTTP_CONFIG_MSG: a
 * file name and line around it; HTTP_SERVER_MSG: a start-up step around
 * that), never a size of their own.
 */
#define PUZ_MSG_MAX 256

/*
 * n is the column count, which is the side of a square and the row
 * stride of every board: code written for squares (i / n is a row, i % n
 * a column) stays right on rectangles, and the square searches that
 * read n alone keep their speed. rows says how many rows there are; 0
 * means as many as columns, so that a board written as { .n = 3 } is
 * the square it always was. The constructors below always set it.
 * Read the shape through puz_board_rows() and puz_board_cells().
 */
struct puz_board {
    uint8_t n;                     /* columns (the side of a square), 2..8 */
    uint8_t blank;                 /* index of the 0 cell */
    uint8_t cells[PUZ_MAX_CELLS];  /* row-major; only rows*n are used */
    uint8_t rows;                  /* rows, 2..8; 0 = n (a square) */
};

static inline unsigned puz_board_rows(const struct puz_board *b)
{
    return b->rows != 0 ? b->rows : b->n;
}

static inline unsigned puz_board_cells(const struct puz_board *b)
{
    return puz_board_rows(b) * b->n;
}

/* Whether b is N x N: what the square-only tables and searches need. */
static inline bool puz_board_square(const struct puz_board *b)
{
    return puz_board_rows(b) == b->n;
}

/* Whether a and b have the same rows and columns. */
static inline bool puz_board_same_shape(const struct puz_board *a,
                                        const struct puz_board *b)
{
    return a->n == b->n && puz_board_rows(a) == puz_board_rows(b);
}

enum puz_dir { PUZ_UP = 0, PUZ_DOWN = 1, PUZ_LEFT = 2, PUZ_RIGHT = 3 };
#define PUZ_NO_DIR 4

/* "up", "down", "left", "right"; NULL for an invalid value. */
const char *puz_dir_name(enum puz_dir d);
/* Parse a direction name (also accepts "u"/"d"/"l"/"r", any case). */
puz_err puz_dir_parse(const char *s, enum puz_dir *out);
enum puz_dir puz_dir_opposite(enum puz_dir d);

/*
 * Build a board from count integer values in row-major order. The side is
 * sqrt(count). On PUZ_EINVAL msg (if not NULL, PUZ_MSG_MAX bytes) says
 * exactly what is wrong: which tile, which position.
 */
puz_err puz_board_from_values(const long long *values, size_t count,
                              struct puz_board *out, char *msg);
/* The same for a board of rows x cols (2..8 each; count must be
 * rows * cols). */
puz_err puz_board_from_shape(const long long *values, size_t count,
                             unsigned rows, unsigned cols,
                             struct puz_board *out, char *msg);

/*
 * Parse a string: numbers separated by spaces, commas, semicolons, slashes
 * or newlines ("1 2 3 4 5 6 7 8 0", "1,2,3,...", "1 2 3 / 4 5 6 / 7 8 0"),
 * or the compact digit form "123456780" for N <= 3. Rows split by '/',
 * '|' or newlines, all of one length of 2 or more, give the shape
 * ("1 2 3/4 5 0" is 2x3); without them the count must be a square.
 */
puz_err puz_board_parse(const char *s, struct puz_board *out, char *msg);
/* The same read in the shape rows x cols (rows = 0: as above), the
 * values in row-major order whatever separates them. */
puz_err puz_board_parse_shape(const char *s, unsigned rows, unsigned cols,
                              struct puz_board *out, char *msg);

/* The default goal of side n: 1..n*n-1 in order, blank last. */
puz_err puz_board_goal(unsigned n, struct puz_board *out);
/* The same for rows x cols: 1..rows*cols-1 in order, blank last. */
puz_err puz_board_goal_shape(unsigned rows, unsigned cols,
                             struct puz_board *out);
/* The default goal of b's shape. */
puz_err puz_board_goal_of(const struct puz_board *b, struct puz_board *out);

bool puz_board_equal(const struct puz_board *a, const struct puz_board *b);

/* Whether the blank can move in direction d. */
bool puz_board_can_move(const struct puz_board *b, enum puz_dir d);
/* Move the blank; returns the tile that slid, or 0 if the move is illegal
 * (board unchanged). */
unsigned puz_board_move(struct puz_board *b, enum puz_dir d);
/* Direction the blank moves to slide tile t into the hole, or PUZ_EINVAL
 * when t is not next to the blank. */
puz_err puz_board_dir_of_tile(const struct puz_board *b, unsigned tile,
                              enum puz_dir *out);

/*
 * Solvability of b against goal (same shape) by permutation parity: the
 * inversions of b with tiles relabelled by their goal position, plus for
 * an even number of columns the distance between the blank's row and the
 * goal blank's row (a vertical move passes the tile over cols - 1 others:
 * an odd count changes the inversions' parity only when cols is even).
 * O(R C log(R C)). why (PUZ_MSG_MAX bytes, may be NULL) gets an explanation
 * either way. Returns PUZ_EINVAL if the shapes differ.
 */
puz_err puz_board_solvable(const struct puz_board *b,
                           const struct puz_board *goal,
                           bool *solvable, char *why);

/* Write "1 2 3 4 5 6 7 8 0" into buf (size >= 3 * PUZ_MAX_CELLS); a
 * rectangle with its rows marked, "1 2 3/4 5 0", as puz_board_parse
 * reads it back. */
void puz_board_format(const struct puz_board *b, char *buf, size_t size);
/* Write a grid with one row per line and "." for the blank. */
void puz_board_format_grid(const struct puz_board *b, char *buf, size_t size);

#endif
