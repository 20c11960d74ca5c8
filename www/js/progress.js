/*
 * progress.js - the player's progress and settings, kept in localStorage.
 *
 * One JSON record under one key. If storage is unavailable (private mode,
 * quota, a blocked cookie policy) the game keeps working from memory and
 * simply forgets on reload.
 *
 * Progress is kept per board shape under the shape's key (shapes.js):
 * "3", "4", "5" for the squares, as it always was, and "2x3", "3x4" ...
 * for rectangles, each with its own levels and stars. `size` is the
 * shape last played: a number in older saves, a key now.
 */

import { maxLevel } from './levels.js';

const KEY = 'puzzled.progress.v1';

function fresh()
{
    return {
        version: 1,
        size: 3,
        picture: 'dusk',
        showNumbers: false,
        sizes: {},
    };
}

/* A shape ({ key }), a key ("3x4") or an older save's number (3). */
function keyOf(shape)
{
    return shape && typeof shape === 'object' ? shape.key : String(shape);
}

function sizeRecord(progress, size)
{
    const key = keyOf(size);
    if (!progress.sizes[key])
        progress.sizes[key] = { level: 1, unlocked: 1, best: {} };
    return progress.sizes[key];
}

export function loadProgress()
{
    try {
        const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
        if (saved && saved.version === 1)
            return { ...fresh(), ...saved };
    } catch {
        /* Unreadable or unavailable storage: start over, in memory. */
    }
    return fresh();
}

export function saveProgress(progress)
{
    try {
        localStorage.setItem(KEY, JSON.stringify(progress));
        return true;
    } catch {
        return false;
    }
}

export function levelFor(progress, size)
{
    return sizeRecord(progress, size).level;
}

export function unlockedFor(progress, size)
{
    return Math.min(sizeRecord(progress, size).unlocked, maxLevel(size));
}

export function bestFor(progress, size, level)
{
    return sizeRecord(progress, size).best[String(level)] || null;
}

/* Move to any level already unlocked; returns the level actually chosen. */
export function chooseLevel(progress, size, level)
{
    const record = sizeRecord(progress, size);
    record.level = Math.max(1, Math.min(Math.floor(level), record.unlocked, maxLevel(size)));
    saveProgress(progress);
    return record.level;
}

/*
 * Records a finished level. Only unaided finishes count as a best score;
 * any finish unlocks the next level, so nobody is ever stuck.
 * Returns true when this was a new best.
 */
export function recordFinish(progress, size, level, result)
{
    const record = sizeRecord(progress, size);
    record.unlocked = Math.max(record.unlocked, Math.min(level + 1, maxLevel(size)));
    let improved = false;
    const previous = record.best[String(level)];
    if (!result.assisted && Number.isFinite(result.ratio) &&
        (!previous || result.ratio > previous.ratio)) {
        record.best[String(level)] = {
            ratio: result.ratio,
            stars: result.stars,
            moves: result.moves,
            seconds: result.seconds,
        };
        improved = true;
    }
    saveProgress(progress);
    return improved;
}

/* Levels past the last one reached that the map shows (locked) on a
   shape whose levels never end. */
const MAP_AHEAD = 5;
const MAP_MIN = 10;

/* Every level of the size, for the level map: [{ level, stars, played,
   locked }], 1..maxLevel, the ones not reached yet locked. A shape whose
   levels never end (all but 3×3 and 2×3) shows the levels reached and a
   few more: counting to maxLevel there was a loop without end that hung
   the page when the map of a 4×4 or 5×5 was opened. */
export function levelMap(progress, size)
{
    const record = sizeRecord(progress, size);
    const unlocked = unlockedFor(progress, size);
    const last = Number.isFinite(maxLevel(size)) ? maxLevel(size) :
        Math.max(MAP_MIN, unlocked + MAP_AHEAD);
    const out = [];
    for (let level = 1; level <= last; level++) {
        const best = record.best[String(level)];
        out.push({ level, stars: best ? best.stars || 0 : 0, played: Boolean(best),
            locked: level > unlocked });
    }
    return out;
}

export function totalStars(progress, size)
{
    const best = sizeRecord(progress, size).best;
    return Object.values(best).reduce((sum, b) => sum + (b.stars || 0), 0);
}

/*
 * The game in progress, kept apart from the progress record so that a
 * broken one never costs the player their stars. Written on every move;
 * removed when the board is finished.
 */
const GAME_KEY = 'puzzled.game.v1';

export function saveGame(snapshot)
{
    try {
        localStorage.setItem(GAME_KEY, JSON.stringify({ version: 1, ...snapshot }));
    } catch {
        /* No storage: the game simply does not survive a reload. */
    }
}

export function loadGame()
{
    try {
        const saved = JSON.parse(localStorage.getItem(GAME_KEY) || 'null');
        if (saved && saved.version === 1 && Array.isArray(saved.start) &&
            Array.isArray(saved.goal) && Array.isArray(saved.moves) &&
            saved.start.length === saved.goal.length && saved.start.length >= 4)
            return saved;
    } catch {
        /* Unreadable: start a fresh game. */
    }
    return null;
}

export function clearGame()
{
    try {
        localStorage.removeItem(GAME_KEY);
    } catch {
        /* Nothing to clear. */
    }
}
