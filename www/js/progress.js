/*
 * progress.js - the player's progress and settings, kept in localStorage.
 *
 * One JSON record under one key. If storage is unavailable (private mode,
 * quota, a blocked cookie policy) the game keeps working from memory and
 * simply forgets on reload.
 */

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

function sizeRecord(progress, size)
{
    const key = String(size);
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
    return sizeRecord(progress, size).unlocked;
}

export function bestFor(progress, size, level)
{
    return sizeRecord(progress, size).best[String(level)] || null;
}

/* Move to any level already unlocked; returns the level actually chosen. */
export function chooseLevel(progress, size, level)
{
    const record = sizeRecord(progress, size);
    record.level = Math.max(1, Math.min(Math.floor(level), record.unlocked));
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
    record.unlocked = Math.max(record.unlocked, level + 1);
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

export function totalStars(progress, size)
{
    const best = sizeRecord(progress, size).best;
    return Object.values(best).reduce((sum, b) => sum + (b.stars || 0), 0);
}
