/*
 * local.js - what the page does alone when the puzzled server cannot be
 * reached (issue 45): a practice board `moves` random moves from the
 * goal, and an optimal route by IDA* with the Manhattan distance, within
 * a node budget. That suffices for every 3×3 and small rectangle, and
 * for the early levels of the bigger boards; past the budget the walk's
 * length is the par, as an upper bound ("≤"), and hints wait for the
 * server. The daily is never made here: it is the server's.
 */

import { applyMove, goalBoard, isSolved, legalMoves, opposite } from './board.js';

/* Nodes IDA* may visit for one board: well under a second here. */
export const LOCAL_BUDGET = 600000;

/* A board `moves` blank moves from the goal of rows × cols, never
   undoing the move before (so a walk rarely folds back on itself). */
export function localPuzzle(shape, moves, random = Math.random)
{
    const { rows, cols } = shape;
    for (;;) {
        let tiles = goalBoard(rows, cols);
        let last = null;
        for (let i = 0; i < moves; i++) {
            const choices = legalMoves(tiles, cols).filter((m) => m !== opposite(last));
            last = choices[Math.floor(random() * choices.length)];
            tiles = applyMove(tiles, last, cols);
        }
        if (moves === 0 || !isSolved(tiles))
            return tiles;
    }
}

const STEPS = [['up', -1, 0], ['down', 1, 0], ['left', 0, -1], ['right', 0, 1]];

/*
 * An optimal route from tiles to goal (null: the usual one) on a board
 * `cols` wide, as the API's solve answers it ({ status: 'solved', moves,
 * optimal: true, ... , local: true }), or null past `budget` nodes.
 */
export function localSolve(tiles, goal, cols, budget = LOCAL_BUDGET)
{
    const n = tiles.length;
    const target = goal || goalBoard(n / cols, cols);
    const home = new Int16Array(n);
    target.forEach((tile, i) => {
        home[tile] = i;
    });
    const board = Int16Array.from(tiles);
    const dist = (tile, at) => (tile === 0 ? 0 :
        Math.abs(Math.floor(at / cols) - Math.floor(home[tile] / cols)) +
        Math.abs((at % cols) - (home[tile] % cols)));
    let h = 0;
    board.forEach((tile, i) => {
        h += dist(tile, i);
    });
    const path = [];
    let nodes = 0;
    let next = Infinity;

    /* Depth-first below `bound`; true when the goal is reached. */
    const search = (blank, g, bound, back) => {
        if (g + h > bound) {
            next = Math.min(next, g + h);
            return false;
        }
        if (h === 0)
            return true;
        if (++nodes > budget)
            return false;
        const row = Math.floor(blank / cols);
        for (const [name, dr, dc] of STEPS) {
            const r = row + dr, c = (blank % cols) + dc;
            if (name === back || r < 0 || c < 0 || r >= n / cols || c >= cols)
                continue;
            const to = r * cols + c, tile = board[to];
            const delta = dist(tile, blank) - dist(tile, to);
            board[blank] = tile;
            board[to] = 0;
            h += delta;
            path.push(name);
            if (search(to, g + 1, bound, opposite(name)))
                return true;
            path.pop();
            h -= delta;
            board[to] = tile;
            board[blank] = 0;
        }
        return false;
    };

    for (let bound = h; nodes <= budget; bound = next) {
        next = Infinity;
        if (search(board.indexOf(0), 0, bound, null))
            break;
        if (next === Infinity)
            return null;
    }
    if (nodes > budget)
        return null;
    /* The route must lead home by the game's own rules. */
    let check = tiles;
    for (const move of path)
        check = applyMove(check, move, cols) || check;
    if (check.join(',') !== target.join(','))
        return null;
    return {
        status: 'solved', moves: path.slice(), optimal: true,
        algorithm: 'idastar', heuristic: 'manhattan', local: true,
    };
}
