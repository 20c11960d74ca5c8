/*
 * board.js - the sliding-tile board as plain data, with no DOM and no network.
 *
 * A board is a flat array of tile numbers read row by row, 0 for the blank.
 * Moves are named the way the API names them: the direction the BLANK moves
 * ("up" means the tile above the blank slides down into it).
 *
 * A flat array does not say its shape: 12 tiles may be 3×4, 4×3, 2×6 or
 * 6×2. So every function that needs rows takes the column count `cols`
 * (the row stride); left out, the board is read as a square, which is
 * what every caller written before rectangles meant.
 */

export const DIRECTIONS = Object.freeze({
    up: [-1, 0],
    down: [1, 0],
    left: [0, -1],
    right: [0, 1],
});

const OPPOSITE = Object.freeze({
    up: 'down', down: 'up', left: 'right', right: 'left',
});

/* Sizes the game offers and the API accepts for play. */
export const MIN_SIZE = 2;
export const MAX_SIZE = 8;

export function opposite(direction)
{
    return OPPOSITE[direction];
}

/* Tiles in order with the blank last: 1 2 3 / 4 5 6 / 7 8 0; with
   `cols`, a rectangle of `rows` rows (1 2 3 4 / 5 6 7 8 / 9 10 11 0). */
export function goalBoard(rows, cols = rows)
{
    const tiles = [];
    for (let i = 1; i < rows * cols; i++)
        tiles.push(i);
    tiles.push(0);
    return tiles;
}

export function sizeOf(tiles)
{
    return Math.round(Math.sqrt(tiles.length));
}

export function sameBoard(a, b)
{
    return a.length === b.length && a.every((tile, i) => tile === b[i]);
}

/* Whether `tiles` is the goal: `goal` when given, else the usual one. */
export function isSolved(tiles, goal = null)
{
    return sameBoard(tiles, goal || goalBoard(sizeOf(tiles)));
}

/* Row and column of the cell holding `tile`. */
export function positionOf(tiles, tile, cols = sizeOf(tiles))
{
    const index = tiles.indexOf(tile);
    return { row: Math.floor(index / cols), col: index % cols };
}

/* Index of the cell the blank would move to, or -1 off the board. */
function targetIndex(tiles, direction, cols)
{
    const rows = tiles.length / cols;
    const { row, col } = positionOf(tiles, 0, cols);
    const step = DIRECTIONS[direction];
    if (!step)
        return -1;
    const r = row + step[0];
    const c = col + step[1];
    if (r < 0 || c < 0 || r >= rows || c >= cols)
        return -1;
    return r * cols + c;
}

/* The new board after the blank moves, or null if the move is illegal. */
export function applyMove(tiles, direction, cols = sizeOf(tiles))
{
    const from = tiles.indexOf(0);
    const to = targetIndex(tiles, direction, cols);
    if (to < 0)
        return null;
    const next = tiles.slice();
    next[from] = tiles[to];
    next[to] = 0;
    return next;
}

/* The tile that slides when the blank moves `direction`, or 0 if none. */
export function tileForMove(tiles, direction, cols = sizeOf(tiles))
{
    const to = targetIndex(tiles, direction, cols);
    return to < 0 ? 0 : tiles[to];
}

/* The blank direction that slides `tile`, or null if it is not next to it. */
export function moveForTile(tiles, tile, cols = sizeOf(tiles))
{
    for (const direction of Object.keys(DIRECTIONS)) {
        if (tile !== 0 && tileForMove(tiles, direction, cols) === tile)
            return direction;
    }
    return null;
}

export function legalMoves(tiles, cols = sizeOf(tiles))
{
    return Object.keys(DIRECTIONS).filter((d) => targetIndex(tiles, d, cols) >= 0);
}

export function toRows(tiles, cols = sizeOf(tiles))
{
    const rows = [];
    for (let r = 0; r * cols < tiles.length; r++)
        rows.push(tiles.slice(r * cols, (r + 1) * cols));
    return rows;
}

export function toText(tiles, cols = sizeOf(tiles))
{
    return toRows(tiles, cols).map((row) => row.join(' ')).join('\n');
}

/* Any board form the API uses (string, flat array, rows) to a flat array. */
export function fromApi(board)
{
    if (typeof board === 'string')
        return board.trim().split(/[\s,]+/).map(Number);
    if (Array.isArray(board) && Array.isArray(board[0]))
        return board.flat().map(Number);
    if (Array.isArray(board))
        return board.map(Number);
    throw new Error('the server sent a board in a form this page does not know');
}

/*
 * Reads what a person typed or pasted: numbers separated by spaces, commas,
 * newlines or brackets; "_", "." or "x" also mean the blank. Only the shape
 * is checked here (a square count of distinct numbers): whether the board
 * can be solved is the server's call, and its explanation is the one shown.
 */
export function parseBoard(text)
{
    const words = String(text).replace(/[[\](){}]/g, ' ')
        .split(/[\s,;]+/).filter(Boolean);
    if (words.length === 0)
        throw new Error('Type the tiles row by row, for example: 1 2 3 4 5 6 7 8 0');
    /* Plain digits only: Number() would also take "1e0" or "0x1" as 1. */
    const tiles = words.map((w) => {
        if (/^[_.xX]$/.test(w))
            return 0;
        return /^\d{1,3}$/.test(w) ? Number(w) : NaN;
    });
    const bad = words.find((w, i) => !Number.isInteger(tiles[i]));
    if (bad !== undefined)
        throw new Error(`"${bad}" is not a tile number`);
    const size = sizeOf(tiles);
    if (size * size !== tiles.length || size < MIN_SIZE || size > MAX_SIZE) {
        throw new Error(`A board needs a square number of cells (9 for 3×3, ` +
            `16 for 4×4, 25 for 5×5); this one has ${tiles.length}.`);
    }
    return tiles;
}
