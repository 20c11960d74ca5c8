/*
 * codec.c - a board as JSON rows (the daily and random answers show
 * boards this way). A solve result has one encoder, result_bytes.c.
 */
#include "codec.h"

json_t *codec_board_rows(const struct puz_board *b)
{
    json_t *rows = json_array();

    for (unsigned r = 0; rows != NULL && r < puz_board_rows(b); r++) {
        json_t *row = json_array();
        for (unsigned c = 0; row != NULL && c < b->n; c++)
            json_array_append_new(row, json_integer(b->cells[r * b->n + c]));
        if (row == NULL || json_array_append_new(rows, row) != 0) {
            json_decref(rows);
            return NULL;
        }
    }
    return rows;
}
