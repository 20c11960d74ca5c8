/*
 * space.h - the independent truth for small rectangles: a breadth-first
 * search over every board of a rows x cols shape (ranks of
 * permutations, no solver code), from the default goal. What
 * test_rect.c and test_rect_pdb.c hold the solver and the tables to.
 */
#ifndef TEST_SPACE_H
#define TEST_SPACE_H

#include <stdint.h>

#include "puz_board.h"

#define SPACE_UNSEEN 0xffu

struct space {
    unsigned rows, cols, cells;
    uint32_t size;          /* cells! */
    uint8_t *dist;          /* by rank; SPACE_UNSEEN when not reachable */
};

/* Distances of every board of rows x cols (rows * cols <= 12) from the
 * default goal; exactly half the boards are reached (a cmocka
 * assertion). Free with space_free. */
void space_build(struct space *sp, unsigned rows, unsigned cols);
void space_free(struct space *sp);
/* The board of rank r. */
void space_board(const struct space *sp, uint32_t r, struct puz_board *b);

#endif
