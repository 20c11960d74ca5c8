/*
 * boards.c - boards from text for tests (boards.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "boards.h"

struct puz_board test_board(const char *text)
{
    struct puz_board b;
    char msg[PUZ_MSG_MAX];

    if (puz_board_parse(text, &b, msg) != PUZ_OK)
        fail_msg("bad test board '%s': %s", text, msg);
    return b;
}
