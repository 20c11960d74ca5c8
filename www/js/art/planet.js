/*
 * planet.js - "Ringed planet": a banded gas giant with rings and a moon,
 * against a nebula and a field of stars. Canvas gradients only.
 */

import { seeded } from './random.js';
import { patches } from './variety.js';

function nebula(ctx, s, rand)
{
    /* Night sky with a colour that drifts across it, so that no two
       tiles of star field look alike (a black sky made tiles that only a
       star or two told apart). */
    const across = ctx.createLinearGradient(0, 0, s, s);
    across.addColorStop(0, '#3b1673');
    across.addColorStop(0.5, '#0a1a4a');
    across.addColorStop(1, '#0b5a5e');
    ctx.fillStyle = across;
    ctx.fillRect(0, 0, s, s);
    const down = ctx.createLinearGradient(s, 0, 0, s);
    down.addColorStop(0, 'rgba(170, 40, 110, 0.55)');
    down.addColorStop(0.5, 'rgba(0, 0, 0, 0)');
    down.addColorStop(1, 'rgba(200, 120, 40, 0.45)');
    ctx.fillStyle = down;
    ctx.fillRect(0, 0, s, s);
    ctx.save();
    ctx.globalCompositeOperation = 'lighter';
    const colors = ['120, 60, 200', '30, 150, 190', '200, 50, 140', '60, 80, 220'];
    for (let i = 0; i < 16; i++) {
        const x = rand() * s, y = rand() * s, r = s * rand.between(0.15, 0.4);
        const g = ctx.createRadialGradient(x, y, 0, x, y, r);
        g.addColorStop(0, `rgba(${rand.pick(colors)}, ${rand.between(0.1, 0.22)})`);
        g.addColorStop(1, 'rgba(0, 0, 0, 0)');
        ctx.fillStyle = g;
        ctx.fillRect(x - r, y - r, r * 2, r * 2);
    }
    ctx.restore();
    /* Wisps on a grid finer than a 6×6 cut: pieces of the sky that the
       clouds above left alike differ now (issue 31 defect 9). */
    patches(ctx, s, {
        seed: 83, cells: [8, 8], mode: 'lighter',
        colors: ['150, 70, 220', '40, 170, 200', '220, 60, 150', '70, 100, 240', '230, 150, 60'],
        alpha: [0.2, 0.4], radius: [0.06, 0.12], flat: 0.6,
    });
}

function stars(ctx, s, rand)
{
    for (let i = 0; i < 260; i++) {
        const x = rand() * s, y = rand() * s;
        const r = Math.pow(rand(), 3) * 1.8 * s / 720 + 0.3;
        ctx.fillStyle = `rgba(255, 255, 255, ${rand.between(0.3, 1)})`;
        ctx.beginPath();
        ctx.arc(x, y, r, 0, Math.PI * 2);
        ctx.fill();
        if (r > 1.6 * s / 720) {
            ctx.strokeStyle = 'rgba(200, 220, 255, 0.35)';
            ctx.lineWidth = 1;
            ctx.beginPath();
            ctx.moveTo(x - r * 5, y);
            ctx.lineTo(x + r * 5, y);
            ctx.moveTo(x, y - r * 5);
            ctx.lineTo(x, y + r * 5);
            ctx.stroke();
        }
    }
}

/* Half of the ring system: the back half is hidden by the planet. */
function rings(ctx, s, front)
{
    const bands = [
        [1.35, 0.05, 'rgba(230, 200, 160, 0.55)'],
        [1.55, 0.1, 'rgba(250, 225, 185, 0.8)'],
        [1.78, 0.04, 'rgba(200, 160, 130, 0.5)'],
        [1.95, 0.08, 'rgba(240, 215, 180, 0.65)'],
    ];
    const r = s * 0.2;
    for (const [radius, width, color] of bands) {
        ctx.strokeStyle = color;
        ctx.lineWidth = r * width;
        ctx.beginPath();
        ctx.ellipse(0, 0, r * radius, r * radius * 0.28, 0,
            front ? 0 : Math.PI, front ? Math.PI : Math.PI * 2);
        ctx.stroke();
    }
}

function globe(ctx, s, rand)
{
    const r = s * 0.2;
    ctx.save();
    ctx.beginPath();
    ctx.arc(0, 0, r, 0, Math.PI * 2);
    ctx.clip();
    ctx.fillStyle = '#d9a066';
    ctx.fillRect(-r, -r, r * 2, r * 2);
    const tones = ['#f3d2a2', '#c2773f', '#e8b27a', '#9c5a34', '#f6e0bd', '#b86b3c'];
    let y = -r;
    while (y < r) {
        const h = r * rand.between(0.06, 0.2);
        ctx.fillStyle = rand.pick(tones);
        ctx.globalAlpha = rand.between(0.5, 0.9);
        ctx.beginPath();
        ctx.moveTo(-r, y);
        ctx.bezierCurveTo(-r * 0.3, y - h * 0.3, r * 0.3, y + h * 0.3, r, y);
        ctx.lineTo(r, y + h);
        ctx.bezierCurveTo(r * 0.3, y + h * 1.3, -r * 0.3, y + h * 0.7, -r, y + h);
        ctx.fill();
        y += h;
    }
    ctx.globalAlpha = 1;
    ctx.fillStyle = 'rgba(190, 80, 50, 0.75)';
    ctx.beginPath();
    ctx.ellipse(r * 0.3, r * 0.25, r * 0.16, r * 0.08, 0.1, 0, Math.PI * 2);
    ctx.fill();
    const light = ctx.createRadialGradient(-r * 0.45, -r * 0.45, r * 0.1, 0, 0, r * 1.05);
    light.addColorStop(0, 'rgba(255, 255, 255, 0.35)');
    light.addColorStop(0.55, 'rgba(255, 255, 255, 0)');
    light.addColorStop(1, 'rgba(5, 5, 30, 0.85)');
    ctx.fillStyle = light;
    ctx.fillRect(-r, -r, r * 2, r * 2);
    ctx.restore();
}

function moon(ctx, x, y, r)
{
    const g = ctx.createRadialGradient(x - r * 0.4, y - r * 0.4, r * 0.1, x, y, r);
    g.addColorStop(0, '#e8e6f0');
    g.addColorStop(1, '#5a5870');
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = 'rgba(60, 60, 80, 0.35)';
    for (const [dx, dy, cr] of [[-0.3, 0.1, 0.2], [0.25, -0.3, 0.14], [0.2, 0.35, 0.1]]) {
        ctx.beginPath();
        ctx.arc(x + dx * r, y + dy * r, cr * r, 0, Math.PI * 2);
        ctx.fill();
    }
}

export function drawPlanet(ctx, s)
{
    const rand = seeded(61);
    nebula(ctx, s, rand);
    stars(ctx, s, rand);
    ctx.save();
    ctx.translate(s * 0.46, s * 0.56);
    ctx.rotate(-0.38);
    rings(ctx, s, false);
    globe(ctx, s, rand);
    rings(ctx, s, true);
    ctx.restore();
    moon(ctx, s * 0.8, s * 0.2, s * 0.06);
}
