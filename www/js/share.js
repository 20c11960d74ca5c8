/*
 * share.js - a board in the page's address, so a link opens it:
 * /?board=8,6,7,2,5,4,3,0,1&goal=…&picture=koi . The size follows from
 * the board. Only the shape is checked here; the server decides whether
 * the board can be solved when it is played.
 */

import { goalBoard, sameBoard, sizeOf, MAX_SIZE, MIN_SIZE } from './board.js';

function tilesFrom(text)
{
    if (!text || !/^\d{1,2}(,\d{1,2})*$/.test(text))
        return null;
    const tiles = text.split(',').map(Number);
    const size = sizeOf(tiles);
    if (size * size !== tiles.length || size < MIN_SIZE || size > MAX_SIZE)
        return null;
    const seen = new Set(tiles);
    if (seen.size !== tiles.length || tiles.some((t) => t >= tiles.length))
        return null;
    return tiles;
}

/* The link for this board (goal left out when it is the usual one). */
export function shareUrl(base, tiles, goal, picture)
{
    /* Built by hand so the commas stay readable (URLSearchParams would
       write %2C); every part is digits, commas or a picture id. */
    const parts = [`board=${tiles.join(',')}`];
    if (goal && !sameBoard(goal, goalBoard(sizeOf(tiles))))
        parts.push(`goal=${goal.join(',')}`);
    if (picture && /^[a-z]+$/.test(picture))
        parts.push(`picture=${picture}`);
    return `${new URL('/', base)}?${parts.join('&')}`;
}

/* { tiles, goal, picture } from an address, null if it holds no board,
   or { error } if it holds a broken one. */
export function readShared(href)
{
    const params = new URL(href).searchParams;
    if (!params.has('board'))
        return null;
    const tiles = tilesFrom(params.get('board'));
    if (!tiles)
        return { error: 'The link\u2019s board is not a square of distinct tile numbers.' };
    let goal = null;
    if (params.has('goal')) {
        goal = tilesFrom(params.get('goal'));
        if (!goal || goal.length !== tiles.length)
            return { error: 'The link\u2019s goal does not fit its board.' };
    }
    return { tiles, goal, picture: params.get('picture') || '' };
}
