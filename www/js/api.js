/*
 * api.js - the puzzled HTTP API as a few async functions.
 *
 * Every failure becomes an ApiError carrying a sentence a person can act on:
 * the server's RFC 9457 problem+json (title, detail), a 503's Retry-After,
 * or the fact that the server could not be reached at all. The page shows
 * error.message; it never has to look inside a response.
 */

import { toRows } from './board.js';

export class ApiError extends Error {
    constructor(message, { status = 0, title = '', detail = '',
        retryAfter = 0, problem = {}, unreachable = false } = {})
    {
        super(message);
        this.name = 'ApiError';
        this.status = status;
        /* No answer at all (the server down, the network gone): the page
           goes on offline where it can (offline.js, local.js). */
        this.unreachable = unreachable;
        this.title = title;
        this.detail = detail;
        this.retryAfter = retryAfter;
        /* The whole problem+json body, for extension members such as
           "pointer" (which field was wrong) and "allowed" (what would do). */
        this.problem = problem;
    }
}

/* Same origin by default: the page is served by the API it talks to. */
const BASE = '';

function sentence(text)
{
    const t = String(text || '').trim();
    if (!t)
        return '';
    const first = t[0].toUpperCase() + t.slice(1);
    return /[.!?]$/.test(first) ? first : `${first}.`;
}

async function readProblem(response)
{
    try {
        return await response.json();
    } catch {
        return {};
    }
}

function problemMessage(status, problem, retryAfter)
{
    if (status === 503) {
        const wait = retryAfter ? ` Try again in ${retryAfter} s.` : ' Try again in a moment.';
        /* "unavailable" says what is missing (tables still being built,
           the store down); "overloaded" and "shutting-down" are busy. */
        if (String(problem.type || '').endsWith('/unavailable') && problem.detail)
            return `${sentence(problem.detail)}${wait}`;
        return `The solver is busy right now.${wait}`;
    }
    const title = sentence(problem.title);
    /* "/board: tile 1 appears twice" - the JSON pointer is for programs;
       a person reads the rest. */
    const detail = sentence(String(problem.detail || '').replace(/^\/[\w/.-]*:\s*/, ''));
    if (title && detail)
        return `${title} ${detail}`;
    return title || detail || `The server answered ${status}.`;
}

async function request(path, { method = 'GET', body, signal } = {})
{
    let response;
    try {
        response = await fetch(BASE + path, {
            method,
            signal,
            headers: body ? { 'Content-Type': 'application/json' } : {},
            body: body ? JSON.stringify(body) : undefined,
        });
    } catch (err) {
        if (err.name === 'AbortError')
            throw err;
        window.dispatchEvent(new Event('puzzled:unreachable'));
        throw new ApiError('Cannot reach the puzzled server: check the connection and try again.',
            { unreachable: true });
    }
    window.dispatchEvent(new Event('puzzled:reached'));
    if (response.ok)
        return response.json();
    const problem = await readProblem(response);
    const retryAfter = Number(response.headers.get('Retry-After')) || 0;
    throw new ApiError(problemMessage(response.status, problem, retryAfter), {
        status: response.status,
        title: problem.title || '',
        detail: problem.detail || '',
        retryAfter,
        problem,
    });
}

/* GET /v1/puzzles/random: a solvable board `moves` away from the goal.
   `shape` is a square's side or { rows, cols } (a rectangle is asked
   for by rows and cols, a square by its size, as before). */
export function randomPuzzle(shape, moves, options = {})
{
    const square = typeof shape !== 'object' || shape.rows === shape.cols;
    const side = typeof shape === 'object' ? shape.rows : shape;
    const query = new URLSearchParams(square ?
        { size: String(side), moves: String(moves) } :
        { rows: String(shape.rows), cols: String(shape.cols), moves: String(moves) });
    return request(`/v1/puzzles/random?${query}`, options);
}

/*
 * POST /v1/solve. `settings` may hold algorithm, heuristic, limits and
 * include_path; anything left out gets the server's default. `cols` (the
 * column count) says the shape of a rectangle's flat `tiles` and goal;
 * left out, they are a square. The board goes as rows, which carry the
 * shape to the server.
 */
export function solve(tiles, settings = {}, options = {})
{
    const cols = settings.cols;
    const body = { board: toRows(tiles, cols) };
    if (Array.isArray(settings.goal))
        settings = { ...settings, goal: toRows(settings.goal, cols) };
    for (const key of ['goal', 'algorithm', 'heuristic', 'limits', 'include_path', 'trace', 'effort']) {
        if (settings[key] !== undefined && settings[key] !== '')
            body[key] = settings[key];
    }
    return request('/v1/solve', { method: 'POST', body, ...options });
}

/* POST /v1/score: how the player's moves compare with the optimum.
   `cols` as for solve(). */
export function score(tiles, moves, goal = null, { cols, ...options } = {})
{
    const body = { board: toRows(tiles, cols), moves };
    if (goal)
        body.goal = toRows(goal, cols);
    return request('/v1/score', {
        method: 'POST',
        body,
        ...options,
    });
}

/* GET /v1/catalog: the algorithms, heuristics, defaults and caps the
   server offers (catalog.js reads its lists from it). */
export function catalog(options = {})
{
    return request('/v1/catalog', options);
}

/* GET /v1/daily/{date}/{size}: the day's board, par and leaderboard;
   with nickname, that player's entry as it stands now (standing: rank,
   total_entries, percentile, top_percent; null when none); limit: how
   many of the top to list. */
export function daily(date, size, { nickname = '', limit = 0, ...options } = {})
{
    const query = new URLSearchParams();
    if (limit)
        query.set('limit', String(limit));
    if (nickname)
        query.set('nickname', nickname);
    const qs = query.toString().replace(/\+/g, '%20');
    return request(`/v1/daily/${encodeURIComponent(date)}/${size}${qs ? `?${qs}` : ''}`, options);
}

/* POST /v1/daily/{date}/{size}/start: a start token; the server's
   clock for this run starts now. */
export function dailyStart(date, size, options = {})
{
    return request(`/v1/daily/${encodeURIComponent(date)}/${size}/start`, {
        method: 'POST',
        ...options,
    });
}

/* POST /v1/daily/{date}/{size}/finish: the board is solved; the server
   replays the moves, stops the run's clock and keeps the run for a
   name (a retry with the same moves answers the first finish). */
export function dailyFinish(date, size, { moves, token, help }, options = {})
{
    return request(`/v1/daily/${encodeURIComponent(date)}/${size}/finish`, {
        method: 'POST',
        body: { moves, token, help: Boolean(help) },
        ...options,
    });
}

/* POST /v1/daily/{date}/{size}/entries: the server places the entry (or
   keeps the nickname's better one: improved false); a refusal is an
   ApiError. The body is { nickname, token } for a finished run (its
   time is the finish's), or { nickname, moves, help, untimed: true }
   when no start reached the server. */
export function dailyEntry(date, size, body, options = {})
{
    return request(`/v1/daily/${encodeURIComponent(date)}/${size}/entries`, {
        method: 'POST',
        body,
        ...options,
    });
}
