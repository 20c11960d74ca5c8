/*
 * variety.js - soft patches of coloured light for the picture art, so
 * that a picture cut into 5×5 or 6×6 pieces has no two pieces alike
 * (issue 31 defect 9: the dusk sky, the black trees and the planet's sky
 * were flat enough that a player could not tell their pieces apart).
 *
 * The patches sit on a jittered grid finer than a 6×6 cut, so every
 * piece gets a mixture of its own; seeded, so a picture comes out the
 * same on every load.
 */

import { seeded } from './random.js';

/*
 * Paints patches over the box [x0, y0, x1, y1] (fractions of s), clipped
 * to `clip` (a Path2D, or none): `cells` columns and rows, each patch a
 * radial glow of one of `colors` ("r, g, b"), its alpha between
 * alpha[0] and alpha[1], its radius (a fraction of s) between radius[0]
 * and radius[1], squashed to `flat` of its height; `mode` is the canvas
 * composite operation.
 */
export function patches(ctx, s, { seed, box = [0, 0, 1, 1], cells = [8, 8], colors,
    alpha = [0.15, 0.35], radius = [0.05, 0.1], flat = 1, mode = 'source-over', clip = null })
{
    const rand = seeded(seed);
    const [x0, y0, x1, y1] = box;
    const [cols, rows] = cells;
    ctx.save();
    if (clip)
        ctx.clip(clip);
    ctx.globalCompositeOperation = mode;
    for (let row = 0; row < rows; row++) {
        for (let col = 0; col < cols; col++) {
            const x = s * (x0 + (x1 - x0) * (col + rand()) / cols);
            const y = s * (y0 + (y1 - y0) * (row + rand()) / rows);
            const r = s * rand.between(radius[0], radius[1]);
            const g = ctx.createRadialGradient(0, 0, 0, 0, 0, r);
            g.addColorStop(0, `rgba(${rand.pick(colors)}, ${rand.between(alpha[0], alpha[1])})`);
            g.addColorStop(1, 'rgba(0, 0, 0, 0)');
            ctx.save();
            ctx.translate(x, y);
            ctx.scale(1, flat);
            ctx.fillStyle = g;
            ctx.fillRect(-r, -r, r * 2, r * 2);
            ctx.restore();
        }
    }
    ctx.restore();
}
