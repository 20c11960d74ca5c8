/*
 * balloons.js - "Balloon festival": striped hot-air balloons drifting over
 * green hills on a clear morning. Canvas paths and gradients only.
 */

import { seeded } from './random.js';
import { patches } from './variety.js';

function sky(ctx, s)
{
    const g = ctx.createLinearGradient(0, 0, 0, s * 0.75);
    g.addColorStop(0, '#5fb4ea');
    g.addColorStop(0.6, '#bfe3f5');
    g.addColorStop(1, '#ffe0c2');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, s, s);
    const sun = ctx.createRadialGradient(s * 0.85, s * 0.14, 0, s * 0.85, s * 0.14, s * 0.4);
    sun.addColorStop(0, 'rgba(255, 255, 235, 0.95)');
    sun.addColorStop(0.12, 'rgba(255, 250, 220, 0.6)');
    sun.addColorStop(1, 'rgba(255, 250, 220, 0)');
    ctx.fillStyle = sun;
    ctx.fillRect(0, 0, s, s);
}

function cloud(ctx, x, y, w, rand)
{
    ctx.save();
    for (let i = 0; i < 9; i++) {
        const cx = x + rand.between(-w / 2, w / 2);
        const cy = y + rand.between(-w * 0.08, w * 0.05);
        const r = w * rand.between(0.14, 0.26);
        const g = ctx.createRadialGradient(cx, cy - r * 0.3, r * 0.1, cx, cy, r);
        g.addColorStop(0, 'rgba(255, 255, 255, 0.95)');
        g.addColorStop(0.7, 'rgba(255, 255, 255, 0.7)');
        g.addColorStop(1, 'rgba(255, 255, 255, 0)');
        ctx.fillStyle = g;
        ctx.beginPath();
        ctx.arc(cx, cy, r, 0, Math.PI * 2);
        ctx.fill();
    }
    ctx.restore();
}

/* Small clouds on a grid finer than a 6×6 cut, so no two pieces of sky
   match (issue 31 defect 9). */
function wisps(ctx, s)
{
    const rand = seeded(53);
    for (let row = 0; row < 8; row++) {
        for (let col = 0; col < 8; col++) {
            if (rand() < 0.2)
                continue;
            const x = s * (col + rand()) / 8;
            const y = s * 0.68 * (row + rand()) / 8;
            ctx.save();
            ctx.globalAlpha = rand.between(0.35, 0.8);
            cloud(ctx, x, y, s * rand.between(0.05, 0.11), rand);
            ctx.restore();
        }
    }
}

/* The skyline of one hill as a function of x. */
function hillLine(s, y, amp, phase)
{
    return (x) => {
        const t = x / s;
        return y - amp * Math.sin(t * 3.1 + phase) - amp * 0.4 * Math.sin(t * 7.3 + phase * 2);
    };
}

function hill(ctx, s, line, top, bottom)
{
    const g = ctx.createLinearGradient(0, line(0) - s * 0.08, 0, s);
    g.addColorStop(0, top);
    g.addColorStop(1, bottom);
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.moveTo(0, s);
    for (let x = 0; x <= s; x += s / 60)
        ctx.lineTo(x, line(x));
    ctx.lineTo(s, s);
    ctx.closePath();
    ctx.fill();
}

/* Little poplars dotted along a hill, standing on its crest. */
function trees(ctx, s, line, rand, count, size)
{
    for (let i = 0; i < count; i++) {
        const x = rand() * s;
        const base = line(x) + size * rand.between(0.3, 0.8);
        const r = size * rand.between(0.8, 1.2);
        ctx.fillStyle = 'rgba(30, 60, 30, 0.25)';
        ctx.beginPath();
        ctx.ellipse(x + r * 0.5, base, r * 0.9, r * 0.25, 0, 0, Math.PI * 2);
        ctx.fill();
        ctx.fillStyle = '#4a3a26';
        ctx.fillRect(x - r * 0.08, base - r * 0.6, r * 0.16, r * 0.6);
        const g = ctx.createLinearGradient(x - r, 0, x + r, 0);
        g.addColorStop(0, '#6fae52');
        g.addColorStop(1, '#2c5f2b');
        ctx.fillStyle = g;
        ctx.beginPath();
        ctx.ellipse(x, base - r * 1.5, r * 0.6, r * 1.15, 0, 0, Math.PI * 2);
        ctx.fill();
    }
}

function envelope(ctx, w, h)
{
    ctx.beginPath();
    ctx.moveTo(-w * 0.16, h * 0.42);
    ctx.bezierCurveTo(-w * 0.45, h * 0.16, -w * 0.55, -h * 0.1, -w * 0.5, -h * 0.22);
    ctx.bezierCurveTo(-w * 0.45, -h * 0.62, w * 0.45, -h * 0.62, w * 0.5, -h * 0.22);
    ctx.bezierCurveTo(w * 0.55, -h * 0.1, w * 0.45, h * 0.16, w * 0.16, h * 0.42);
    ctx.closePath();
}

function balloon(ctx, x, y, w, colors, alpha)
{
    const h = w * 1.25;
    ctx.save();
    ctx.translate(x, y);
    ctx.globalAlpha = alpha;
    /* Ropes and basket first so the envelope overlaps their tops. */
    ctx.strokeStyle = '#6b4a33';
    ctx.lineWidth = Math.max(1, w / 90);
    ctx.beginPath();
    ctx.moveTo(-w * 0.15, h * 0.42);
    ctx.lineTo(-w * 0.08, h * 0.6);
    ctx.moveTo(w * 0.15, h * 0.42);
    ctx.lineTo(w * 0.08, h * 0.6);
    ctx.stroke();
    ctx.fillStyle = '#8a5a36';
    ctx.fillRect(-w * 0.09, h * 0.6, w * 0.18, h * 0.1);
    ctx.fillStyle = '#6f4327';
    ctx.fillRect(-w * 0.09, h * 0.6, w * 0.18, h * 0.025);

    envelope(ctx, w, h);
    ctx.save();
    ctx.clip();
    const bands = colors.length * 2;
    for (let i = 0; i < bands; i++) {
        ctx.fillStyle = colors[i % colors.length];
        /* Bands narrow toward the edges, as stripes on a sphere do. */
        const a = -Math.PI / 2 + (i / bands) * Math.PI;
        const b = -Math.PI / 2 + ((i + 1) / bands) * Math.PI;
        ctx.fillRect(Math.sin(a) * w * 0.56, -h, (Math.sin(b) - Math.sin(a)) * w * 0.56 + 0.5, h * 2);
    }
    const shade = ctx.createRadialGradient(-w * 0.2, -h * 0.3, w * 0.05, 0, 0, w * 0.75);
    shade.addColorStop(0, 'rgba(255, 255, 255, 0.45)');
    shade.addColorStop(0.5, 'rgba(255, 255, 255, 0)');
    shade.addColorStop(1, 'rgba(40, 20, 60, 0.35)');
    ctx.fillStyle = shade;
    ctx.fillRect(-w, -h, w * 2, h * 2);
    ctx.restore();
    ctx.restore();
}

export function drawBalloons(ctx, s)
{
    const rand = seeded(29);
    sky(ctx, s);
    wisps(ctx, s);
    cloud(ctx, s * 0.22, s * 0.2, s * 0.3, rand);
    cloud(ctx, s * 0.7, s * 0.42, s * 0.24, rand);
    cloud(ctx, s * 0.15, s * 0.55, s * 0.18, rand);
    const far = hillLine(s, s * 0.74, s * 0.05, 0.5);
    const mid = hillLine(s, s * 0.82, s * 0.05, 2.1);
    const near = hillLine(s, s * 0.92, s * 0.04, 4.0);
    hill(ctx, s, far, '#9cc7a0', '#7fb08a');
    trees(ctx, s, far, rand, 12, s * 0.009);
    hill(ctx, s, mid, '#7dbb63', '#4f8f45');
    trees(ctx, s, mid, rand, 9, s * 0.016);
    hill(ctx, s, near, '#5da548', '#356e31');
    /* Fields and hazy light: no two pieces of hill or sky alike at 6×6
       (issue 31 defect 9). */
    patches(ctx, s, {
        seed: 47, box: [0, 0.72, 1, 1], cells: [8, 4],
        colors: ['240, 220, 90', '40, 100, 30', '160, 210, 80', '210, 150, 70', '20, 70, 40'],
        alpha: [0.45, 0.7], radius: [0.06, 0.11], flat: 0.3,
    });
    balloon(ctx, s * 0.83, s * 0.62, s * 0.09, ['#f7d774', '#5b8def'], 0.8);
    balloon(ctx, s * 0.1, s * 0.4, s * 0.11, ['#ffffff', '#7d5ba6'], 0.85);
    balloon(ctx, s * 0.63, s * 0.24, s * 0.19, ['#2ec4b6', '#ffbf69', '#ff6b6b'], 1);
    balloon(ctx, s * 0.3, s * 0.52, s * 0.27, ['#e63946', '#f1faee', '#1d3557', '#f4a261'], 1);
}
