/*
 * dusk.js - "Alpine dusk": layered mountains under a sunset, mirrored in a
 * still lake. Drawn with canvas gradients only; no image files.
 */

import { seeded } from './random.js';
import { patches } from './variety.js';

/* Midpoint displacement: a jagged ridge line of 2^depth + 1 heights. */
function ridge(rand, depth, roughness)
{
    const count = (1 << depth) + 1;
    const h = new Array(count).fill(0);
    h[0] = rand.between(-0.5, 0.5);
    h[count - 1] = rand.between(-0.5, 0.5);
    let step = count - 1;
    let spread = 1;
    while (step > 1) {
        const half = step / 2;
        for (let i = half; i < count; i += step)
            h[i] = (h[i - half] + h[i + half]) / 2 + rand.between(-spread, spread);
        spread *= roughness;
        step = half;
    }
    return h;
}

function sky(ctx, s, horizon)
{
    const g = ctx.createLinearGradient(0, 0, 0, horizon);
    g.addColorStop(0, '#150c3a');
    g.addColorStop(0.35, '#47206e');
    g.addColorStop(0.62, '#b8406e');
    g.addColorStop(0.84, '#f0864c');
    g.addColorStop(1, '#ffd27d');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, s, horizon);
    /* Night comes from the east: the sky darkens and cools left to
       right, so two tiles of sky at the same height differ. */
    const east = ctx.createLinearGradient(0, 0, s, 0);
    east.addColorStop(0, 'rgba(255, 120, 140, 0.22)');
    east.addColorStop(0.5, 'rgba(0, 0, 0, 0)');
    east.addColorStop(1, 'rgba(10, 30, 90, 0.45)');
    ctx.fillStyle = east;
    ctx.fillRect(0, 0, s, horizon);
}

/* Sunset clouds: long, soft, lit from below, so that no two pieces of
   the sky match (issue 31 defect 9). */
function clouds(ctx, s, horizon)
{
    patches(ctx, s, {
        seed: 17, box: [0, 0, 1, (horizon / s) * 0.95], cells: [9, 8],
        colors: ['255, 170, 120', '214, 84, 150', '126, 62, 178', '255, 222, 160', '70, 40, 120'],
        alpha: [0.3, 0.55], radius: [0.08, 0.15], flat: 0.4,
    });
}

function stars(ctx, s, horizon, rand)
{
    for (let i = 0; i < 140; i++) {
        const y = Math.pow(rand(), 1.8) * horizon * 0.6;
        const fade = 1 - y / (horizon * 0.6);
        ctx.fillStyle = `rgba(255, 244, 230, ${0.15 + 0.75 * fade * rand()})`;
        ctx.beginPath();
        ctx.arc(rand() * s, y, rand.between(0.4, 1.6) * s / 720, 0, Math.PI * 2);
        ctx.fill();
    }
}

function sun(ctx, x, y, r)
{
    const glow = ctx.createRadialGradient(x, y, r * 0.5, x, y, r * 5);
    glow.addColorStop(0, 'rgba(255, 226, 160, 0.75)');
    glow.addColorStop(0.35, 'rgba(255, 170, 110, 0.25)');
    glow.addColorStop(1, 'rgba(255, 140, 90, 0)');
    ctx.fillStyle = glow;
    ctx.fillRect(x - r * 5, y - r * 5, r * 10, r * 10);
    const disc = ctx.createLinearGradient(0, y - r, 0, y + r);
    disc.addColorStop(0, '#fff4cf');
    disc.addColorStop(1, '#ffc46b');
    ctx.fillStyle = disc;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
}

/* Far ranges are pale and pink (air in between), near ones dark violet.
   `peaks` are [where, height, width] bumps that give each range a summit. */
const RANGES = [
    { seed: 11, top: 0.5, amp: 0.05, peaks: [[0.22, 0.2, 0.09], [0.42, 0.13, 0.07]],
        peak: '#c56f96', foot: '#eea08a' },
    { seed: 23, top: 0.57, amp: 0.05, peaks: [[0.8, 0.19, 0.08], [0.62, 0.09, 0.06]],
        peak: '#8a4283', foot: '#cf7083' },
    { seed: 37, top: 0.62, amp: 0.04, peaks: [[0.1, 0.12, 0.1], [0.5, 0.06, 0.07]],
        peak: '#55286b', foot: '#94507b' },
    { seed: 41, top: 0.66, amp: 0.02, peaks: [[0.95, 0.07, 0.08]],
        peak: '#2e1648', foot: '#5a3363' },
];

function height(range, h, i)
{
    const t = i / (h.length - 1);
    let y = range.top + h[i] * range.amp;
    for (const [at, tall, wide] of range.peaks)
        y -= tall * Math.exp(-(((t - at) / wide) ** 2));
    return y;
}

function ranges(ctx, s, horizon)
{
    for (const range of RANGES) {
        const rand = seeded(range.seed);
        const h = ridge(rand, 7, 0.62);
        const g = ctx.createLinearGradient(0, s * (range.top - 0.2), 0, horizon);
        g.addColorStop(0, range.peak);
        g.addColorStop(1, range.foot);
        ctx.fillStyle = g;
        ctx.beginPath();
        ctx.moveTo(0, horizon);
        h.forEach((v, i) => ctx.lineTo((i / (h.length - 1)) * s, s * height(range, h, i)));
        ctx.lineTo(s, horizon);
        ctx.closePath();
        ctx.fill();
        snow(ctx, s, range, h);
    }
}

/* Snow on the far summits only: a soft cap above the snow line, clipped to
   the range's own outline. */
function snow(ctx, s, range, h)
{
    if (range.seed !== 11)
        return;
    const line = s * (range.top - 0.1);
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(0, s);
    h.forEach((v, i) => ctx.lineTo((i / (h.length - 1)) * s, s * height(range, h, i)));
    ctx.lineTo(s, s);
    ctx.closePath();
    ctx.clip();
    const g = ctx.createLinearGradient(0, s * (range.top - 0.2), 0, line);
    g.addColorStop(0, 'rgba(255, 236, 240, 0.85)');
    g.addColorStop(1, 'rgba(255, 236, 240, 0)');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, s, line);
    ctx.restore();
}

function lake(ctx, s, horizon, sunX)
{
    const water = ctx.createLinearGradient(0, horizon, 0, s);
    water.addColorStop(0, '#e58a6a');
    water.addColorStop(0.25, '#7c3f78');
    water.addColorStop(1, '#1c0f36');
    ctx.fillStyle = water;
    ctx.fillRect(0, horizon, s, s - horizon);

    /* The reflection: the scene above, flipped and dimmed. */
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, horizon, s, s - horizon);
    ctx.clip();
    ctx.globalAlpha = 0.35;
    ctx.translate(0, horizon * 2);
    ctx.scale(1, -1);
    ranges(ctx, s, horizon);
    ctx.restore();

    /* The clouds' light on the water, broken by the wind. */
    patches(ctx, s, {
        seed: 29, box: [0, horizon / s, 1, 1], cells: [7, 5],
        colors: ['255, 170, 120', '214, 84, 150', '126, 62, 178', '60, 110, 170'],
        alpha: [0.3, 0.55], radius: [0.07, 0.13], flat: 0.35,
    });
    const rand = seeded(5);
    for (let i = 0; i < 46; i++) {
        const t = i / 46;
        const y = horizon + 4 + t * (s - horizon) * 0.8;
        const w = (1 - t) * s * 0.16 * rand.between(0.4, 1);
        ctx.fillStyle = `rgba(255, 215, 150, ${0.55 * (1 - t)})`;
        ctx.fillRect(sunX - w / 2 + rand.between(-6, 6), y, w, Math.max(1, s / 420));
    }
}

/* Adds a pine's outline (four tiers and a trunk) to path. */
function pine(path, x, base, height)
{
    const w = height * 0.38;
    for (let tier = 0; tier < 4; tier++) {
        const top = base - height + tier * height * 0.2;
        const bottom = top + height * 0.42;
        const half = w * (0.45 + tier * 0.18);
        path.moveTo(x, top);
        path.lineTo(x + half, bottom);
        path.lineTo(x - half, bottom);
        path.closePath();
    }
    path.rect(x - height * 0.03, base - height * 0.12, height * 0.06, height * 0.12);
}

/* The near shore and its pines, as one outline. */
function shoreline(s)
{
    const path = new Path2D();
    path.moveTo(0, s * 0.78);
    path.bezierCurveTo(s * 0.18, s * 0.76, s * 0.3, s * 0.86, s * 0.42, s);
    path.lineTo(0, s);
    path.closePath();
    const rand = seeded(99);
    for (let i = 0; i < 9; i++) {
        const x = s * (0.02 + i * 0.035) + rand.between(-4, 4);
        const base = s * (0.8 + i * 0.012);
        pine(path, x, base, s * rand.between(0.1, 0.19) * (1 - i * 0.05));
    }
    return path;
}

/* Dark against the sunset, but lit unevenly by it (warm on the lake
   side, moss and heather in the shadow): black trees made pieces that
   only their outline told apart (issue 31 defect 9). */
function shore(ctx, s)
{
    const path = shoreline(s);
    const g = ctx.createLinearGradient(0, s * 0.62, s * 0.42, s);
    g.addColorStop(0, '#1d0c33');
    g.addColorStop(1, '#3a1838');
    ctx.fillStyle = g;
    ctx.fill(path);
    patches(ctx, s, {
        seed: 71, box: [0, 0.6, 0.44, 1], cells: [6, 6], clip: path,
        colors: ['150, 60, 70', '70, 40, 110', '30, 70, 60', '120, 50, 100', '170, 90, 60'],
        alpha: [0.45, 0.75], radius: [0.05, 0.1], flat: 0.7,
    });
}

export function drawDusk(ctx, s)
{
    const horizon = s * 0.68;
    const sunX = s * 0.64;
    sky(ctx, s, horizon);
    clouds(ctx, s, horizon);
    stars(ctx, s, horizon, seeded(3));
    sun(ctx, sunX, s * 0.4, s * 0.07);
    ranges(ctx, s, horizon);
    lake(ctx, s, horizon, sunX);
    shore(ctx, s);
}
