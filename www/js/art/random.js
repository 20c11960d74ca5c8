/*
 * random.js - a small seeded random number generator for the picture art.
 *
 * Pictures must come out the same on every load (a player learns where the
 * pieces go), so the art never calls Math.random(). This is mulberry32:
 * tiny, fast, and plenty random for scattering stars and pebbles.
 */

export function seeded(seed)
{
    let state = seed >>> 0;
    const next = () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    next.between = (lo, hi) => lo + (hi - lo) * next();
    next.pick = (list) => list[Math.floor(next() * list.length)];
    return next;
}
