/*
 * levels.js - what "level k" means, and how a finish turns into stars.
 *
 * On 3×3 the server can hand out a board exactly k+3 optimal moves from the
 * goal (31 is the hardest 3×3 board there is). Other boards, squares and
 * rectangles, are scrambled by a random walk that grows with the level; it
 * is capped so that the solver can still answer hints quickly.
 *
 * A shape is { rows, cols, key } (shapes.js); a plain number or key
 * ("4", "3x4") is read as one too.
 */

import { makeShape, parseShape } from './shapes.js';

const MAX_3X3_DISTANCE = 31;

/*
 * Walks per shape key. 2×3 has only 360 boards, 21 moves apart at most:
 * a walk of 30 already reaches any of them, so its levels end (MAX_LEVEL).
 * 3×4 and 5×3 are solved optimally in well under a second up to these
 * caps (IDA* with linear conflict); 4×5, like 5×5, is past what the
 * solver proves optimal in time on long walks, and its hints say so.
 */
const WALK = Object.freeze({
    4: { base: 8, perLevel: 2, max: 60 },
    5: { base: 10, perLevel: 2, max: 70 },
    '2x3': { base: 3, perLevel: 2, max: 30 },
    '3x4': { base: 6, perLevel: 2, max: 50 },
    '4x5': { base: 10, perLevel: 2, max: 70 },
    '5x3': { base: 6, perLevel: 2, max: 60 },
});

const MAX_LEVEL = Object.freeze({ 3: MAX_3X3_DISTANCE - 3, '2x3': 14 });

function asShape(shape)
{
    if (shape && typeof shape === 'object')
        return shape;
    return parseShape(shape) || makeShape(5);
}

/* A shape the table lacks walks like the square of its longer side. */
function walkFor(shape)
{
    return WALK[shape.key] || WALK[Math.max(shape.rows, shape.cols)] || WALK[5];
}

/* The `moves` parameter for GET /v1/puzzles/random at this level. */
export function scrambleLength(shape, level)
{
    const s = asShape(shape);
    const k = Math.max(1, Math.floor(level));
    if (s.key === '3')
        return Math.min(k + 3, MAX_3X3_DISTANCE);
    const walk = walkFor(s);
    return Math.min(walk.base + walk.perLevel * k, walk.max);
}

/*
 * The last level of a shape, or Infinity. 3×3 level 28 is already 31
 * moves, the hardest a 3×3 board can be: levels past it would only repeat
 * it, so 3×3 ends there and the game offers 4×4 next. 2×3 ends at 14
 * (a 30-move walk: any of its boards) and offers 3×3 next.
 */
export function maxLevel(shape)
{
    return MAX_LEVEL[asShape(shape).key] || Infinity;
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
