/*
 * shapes.js - the board shapes the game offers: squares (3×3, 4×4, 5×5)
 * and rectangles of R rows by C columns (issue 33). A shape is
 * { rows, cols, key }; the key names it in saved progress and in the size
 * picker. A square's key is its side ("3"), exactly the key the squares'
 * progress was always stored under, so saved stars stay where they were;
 * a rectangle's is "RxC" ("3x4": 3 rows, 4 columns).
 *
 * The daily stays square and does not use this module.
 */

import { MAX_SIZE, MIN_SIZE } from './board.js';

/* What the picker offers, in its order: squares first, then rectangles,
   each row of the picker from small to big. */
export const SHAPES = Object.freeze([
    '3', '4', '5', '2x3', '3x4', '4x5', '5x3',
]);

/* "3", "3x4" or 3 (an older save's number) to { rows, cols, key }, or
   null for anything that is not a shape of 2..8 by 2..8. */
export function parseShape(value)
{
    const text = String(value ?? '').trim();
    const match = /^(\d)(?:[x×](\d))?$/.exec(text);
    if (!match)
        return null;
    const rows = Number(match[1]);
    const cols = match[2] === undefined ? rows : Number(match[2]);
    if (rows < MIN_SIZE || rows > MAX_SIZE || cols < MIN_SIZE || cols > MAX_SIZE)
        return null;
    return makeShape(rows, cols);
}

export function makeShape(rows, cols = rows)
{
    return Object.freeze({ rows, cols, key: rows === cols ? String(rows) : `${rows}x${cols}` });
}

export function isSquare(shape)
{
    return shape.rows === shape.cols;
}

/* More rows than columns: the shape for a phone held upright. */
export function isTall(shape)
{
    return shape.rows > shape.cols;
}

export function cellCount(shape)
{
    return shape.rows * shape.cols;
}

/* "3×4": rows × columns, as the picker and the cards write it. */
export function shapeName(shape)
{
    return `${shape.rows}×${shape.cols}`;
}

/* For screen readers and titles: "3 rows by 4 columns (wide)". */
export function shapeWords(shape)
{
    if (isSquare(shape))
        return `${shape.rows} by ${shape.cols} square`;
    return `${shape.rows} rows by ${shape.cols} columns (${isTall(shape) ? 'tall' : 'wide'})`;
}

/* The shape after the last level of `shape` (only 2×3 and 3×3 have a
   last level): the next step up. */
export function nextShape(shape)
{
    if (shape.key === '2x3')
        return makeShape(3);
    if (isSquare(shape) && shape.rows < MAX_SIZE)
        return makeShape(shape.rows + 1);
    return shape;
}
