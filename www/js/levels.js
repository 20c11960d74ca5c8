/*
 * levels.js - what "level k" means, and how a finish turns into stars.
 *
 * On 3×3 the server can hand out a board exactly k+3 optimal moves from the
 * goal (31 is the hardest 3×3 board there is). Bigger boards are scrambled
 * by a random walk that grows with the level; it is capped so that the
 * solver can still answer hints quickly.
 */

const MAX_3X3_DISTANCE = 31;

const WALK = Object.freeze({
    4: { base: 8, perLevel: 2, max: 60 },
    5: { base: 10, perLevel: 2, max: 70 },
});

/* The `moves` parameter for GET /v1/puzzles/random at this level. */
export function scrambleLength(size, level)
{
    const k = Math.max(1, Math.floor(level));
    if (size === 3)
        return Math.min(k + 3, MAX_3X3_DISTANCE);
    const walk = WALK[size] || WALK[5];
    return Math.min(walk.base + walk.perLevel * k, walk.max);
}

/*
 * The last level of a size, or Infinity. 3×3 level 28 is already 31 moves,
 * the hardest a 3×3 board can be: levels past it would only repeat it, so
 * 3×3 ends there and the game offers 4×4 next.
 */
export function maxLevel(size)
{
    return size === 3 ? MAX_3X3_DISTANCE - 3 : Infinity;
}

/* Three stars for an optimal finish; the rest leaves room to improve. */
export function starsFor(ratio)
{
    if (ratio >= 0.999)
        return 3;
    if (ratio >= 0.7)
        return 2;
    return ratio > 0 ? 1 : 0;
}

export function percent(ratio)
{
    return Math.round(Math.max(0, Math.min(1, ratio)) * 100);
}
