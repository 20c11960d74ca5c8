/*
 * assist.js - the solver's help during play: the next optimal move, and
 * the whole remaining path.
 *
 * Every answer is remembered along its path: once the solver has solved
 * board B with moves m1 m2 m3…, the boards reached by following those moves
 * are solved too (the rest of an optimal path is optimal), so a player who
 * follows the hints gets the next ones without another request.
 *
 * Big boards may be beyond an optimal search within the time budget; then
 * the help falls back to a non-optimal algorithm and says so.
 */

import { ApiError, solve } from './api.js';
import { applyMove, sizeOf } from './board.js';
import { localSolve } from './local.js';
import { makeShape } from './shapes.js';

const PLAY_LIMITS = Object.freeze({ timeout_ms: 8000 });
const QUICK_LIMITS = Object.freeze({ timeout_ms: 3000 });
const CACHE_LIMIT = 2000;

/*
 * What to ask for, best first. Up to 4×4, and on rectangles up to 16
 * cells (2×3, 3×4, 5×3 ...), the server's default search is optimal
 * (docs/rectangles.md; 2×7 and 2×8 are not, and their answers say so); on
 * bigger boards its default is the anytime search, so an optimal A* gets
 * a short try first (early levels are easy for it), and greedy
 * best-first is the last resort everywhere. Every answer carries its own
 * `optimal` flag, and that flag, not this guess, is what the game shows.
 */
function plans(shape)
{
    if (shape.rows * shape.cols <= 16)
        return [{ limits: PLAY_LIMITS }, { algorithm: 'greedy', limits: PLAY_LIMITS }];
    return [
        { algorithm: 'astar', limits: QUICK_LIMITS },
        /* auto here is the anytime search: it uses all of its budget, so
           take the server's default (1 s), not PLAY_LIMITS */
        {},
        { algorithm: 'greedy', limits: PLAY_LIMITS },
    ];
}

export class Assistant {
    constructor()
    {
        this.known = new Map();
        /* Questions on their way to the server, so a Hint pressed while
           the start board is still being solved waits for that answer. */
        this.pending = new Map();
        /* Stats of the first answer for each start board, for the score card. */
        this.lastResult = null;
        this.goal = null;
        this.shape = null;
    }

    /* The goal every question is about (null: the usual one), and the
       board's shape ({ rows, cols }; null: a square). */
    setGoal(goal, shape = null)
    {
        this.goal = goal ? goal.slice() : null;
        this.shape = shape;
    }

    shapeOf(tiles)
    {
        return this.shape && this.shape.rows * this.shape.cols === tiles.length ?
            this.shape : makeShape(sizeOf(tiles));
    }

    forget()
    {
        this.known.clear();
        this.pending.clear();
    }

    /* Records `result` for `tiles` and every board along its path. */
    remember(tiles, result)
    {
        if (this.known.size > CACHE_LIMIT)
            this.known.clear();
        let board = tiles;
        const { cols } = this.shapeOf(tiles);
        result.moves.forEach((move, i) => {
            this.known.set(board.join(','), {
                moves: result.moves.slice(i),
                optimal: result.optimal,
                algorithm: result.algorithm,
                heuristic: result.heuristic,
            });
            board = applyMove(board, move, cols) || board;
        });
        /* Where the path ends: nothing left to do (only if it got there). */
        if (result.status === 'solved')
            this.known.set(board.join(','), { ...this.known.get(board.join(',')), moves: [], optimal: true });
    }

    cached(tiles)
    {
        return this.known.get(tiles.join(',')) || null;
    }

    /*
     * Resolves to { moves, optimal, algorithm, heuristic, stats? } for the
     * rest of the game from `tiles`, asking the server only when needed.
     */
    async pathFrom(tiles, { signal } = {})
    {
        const hit = this.cached(tiles);
        if (hit)
            return hit;
        const key = tiles.join(',');
        if (!this.pending.has(key)) {
            const asking = this.ask(tiles, signal).then((result) => {
                this.remember(tiles, result);
                return { ...this.cached(tiles), stats: result.stats,
                    gap: result.gap, lowerBound: result.lower_bound };
            }).finally(() => this.pending.delete(key));
            this.pending.set(key, asking);
        }
        return this.pending.get(key);
    }

    async ask(tiles, signal)
    {
        let last = null;
        const shape = this.shapeOf(tiles);
        for (const plan of plans(shape)) {
            try {
                const asked = { ...plan, cols: shape.cols };
                if (this.goal)
                    asked.goal = this.goal;
                last = await solve(tiles, asked, { signal });
                if (last.status === 'solved')
                    return last;
            } catch (err) {
                /* Offline: the page's own search, where it suffices. */
                const local = err.unreachable ? localSolve(tiles, this.goal, shape.cols) : null;
                if (local)
                    return local;
                /* This server may not offer the algorithm; try the next. */
                if (!(err instanceof ApiError) || !last || (err.status !== 400 && err.status !== 422))
                    throw err;
            }
        }
        throw new ApiError(`The solver could not finish this board within its limits ` +
            `(${String(last.status).replace('_', ' ')}). Try a smaller board or a lower level.`);
    }
}
