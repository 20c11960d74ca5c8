/*
 * share.js - a board in the page's address, so a link opens it:
 * /?board=8,6,7,2,5,4,3,0,1&goal=…&picture=koi . A square's size follows
 * from the board; a rectangle adds its shape, rows x columns
 * (&shape=3x4). Only the shape is checked here; the server decides
 * whether the board can be solved when it is played.
 */

import { goalBoard, sameBoard, sizeOf, MAX_SIZE, MIN_SIZE } from './board.js';
import { makeShape, parseShape } from './shapes.js';

/* `shape` null: a square of any size. */
function tilesFrom(text, shape)
{
    if (!text || !/^\d{1,2}(,\d{1,2})*$/.test(text))
        return null;
    const tiles = text.split(',').map(Number);
    const size = sizeOf(tiles);
    if (shape) {
        if (tiles.length !== shape.rows * shape.cols)
            return null;
    } else if (size * size !== tiles.length || size < MIN_SIZE || size > MAX_SIZE) {
        return null;
    }
    const seen = new Set(tiles);
    if (seen.size !== tiles.length || tiles.some((t) => t >= tiles.length))
        return null;
    return tiles;
}

/* The link for this board (goal left out when it is the usual one;
   shape when it is a rectangle). */
export function shareUrl(base, tiles, goal, picture, shape = null)
{
    const own = shape || makeShape(sizeOf(tiles));
    /* Built by hand so the commas stay readable (URLSearchParams would
       write %2C); every part is digits, commas, a shape or a picture id. */
    const parts = [`board=${tiles.join(',')}`];
    if (own.rows !== own.cols)
        parts.push(`shape=${own.key}`);
    if (goal && !sameBoard(goal, goalBoard(own.rows, own.cols)))
        parts.push(`goal=${goal.join(',')}`);
    if (picture && /^[a-z]+$/.test(picture))
        parts.push(`picture=${picture}`);
    return `${new URL('/', base)}?${parts.join('&')}`;
}

/* { tiles, goal, picture, shape } from an address, null if it holds no
   board, or { error } if it holds a broken one. */
export function readShared(href)
{
    const params = new URL(href).searchParams;
    if (!params.has('board'))
        return null;
    let shape = null;
    if (params.has('shape')) {
        shape = parseShape(params.get('shape'));
        if (!shape)
            return { error: 'The link\u2019s shape is not rows x columns of 2 to 8 each.' };
    }
    const tiles = tilesFrom(params.get('board'), shape);
    if (!tiles) {
        return { error: shape ? 'The link\u2019s board does not fill its shape with distinct tile numbers.' :
            'The link\u2019s board is not a square of distinct tile numbers.' };
    }
    shape = shape || makeShape(sizeOf(tiles));
    let goal = null;
    if (params.has('goal')) {
        goal = tilesFrom(params.get('goal'), shape);
        if (!goal || goal.length !== tiles.length)
            return { error: 'The link\u2019s goal does not fit its board.' };
    }
    return { tiles, goal, picture: params.get('picture') || '', shape };
}
