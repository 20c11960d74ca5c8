/*
 * boards.h - a board from its text for the solver tests: the test's own
 * boards are written as text, and one that does not parse is a defect
 * of the test, failed as such.
 */
#ifndef TEST_BOARDS_H
#define TEST_BOARDS_H

#include "puz_board.h"

/* The board text names ("1 2 3 4 5 6 7 8 0"); fails the running cmocka
 * test when puz_board_parse refuses it. */
struct puz_board test_board(const char *text);

#endif
