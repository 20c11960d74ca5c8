/*
 * koi.js - "Koi pond": koi gliding under lily pads and a lotus, seen from
 * above through rippling teal water. Canvas paths and gradients only.
 */

import { seeded } from './random.js';
import { patches } from './variety.js';

function water(ctx, s)
{
    const g = ctx.createRadialGradient(s * 0.4, s * 0.35, s * 0.05, s * 0.5, s * 0.5, s * 0.85);
    g.addColorStop(0, '#3fc1b0');
    g.addColorStop(0.45, '#137a80');
    g.addColorStop(1, '#07314a');
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, s, s);
}

/* Soft light bands that water throws on the pond floor. */
function caustics(ctx, s, rand)
{
    ctx.save();
    ctx.lineCap = 'round';
    for (let i = 0; i < 34; i++) {
        const y = rand() * s;
        ctx.strokeStyle = `rgba(210, 255, 240, ${rand.between(0.03, 0.09)})`;
        ctx.lineWidth = rand.between(2, 9) * s / 720;
        ctx.beginPath();
        ctx.moveTo(-20, y);
        for (let x = 0; x <= s + 40; x += s / 8) {
            ctx.quadraticCurveTo(x + s / 16, y + rand.between(-30, 30) * s / 720,
                x + s / 8, y + rand.between(-12, 12) * s / 720);
        }
        ctx.stroke();
    }
    ctx.restore();
}

function koiBody(ctx, len)
{
    const w = len * 0.17;
    ctx.beginPath();
    ctx.moveTo(len * 0.5, 0);
    ctx.bezierCurveTo(len * 0.45, -w, len * 0.1, -w * 1.15, -len * 0.15, -w * 0.7);
    ctx.bezierCurveTo(-len * 0.3, -w * 0.4, -len * 0.38, -w * 0.15, -len * 0.42, 0);
    ctx.bezierCurveTo(-len * 0.38, w * 0.15, -len * 0.3, w * 0.4, -len * 0.15, w * 0.7);
    ctx.bezierCurveTo(len * 0.1, w * 1.15, len * 0.45, w, len * 0.5, 0);
    ctx.closePath();
}

function koiFins(ctx, len, color)
{
    ctx.fillStyle = color;
    /* Tail: two lobes behind the body. */
    ctx.beginPath();
    ctx.moveTo(-len * 0.4, 0);
    ctx.bezierCurveTo(-len * 0.55, -len * 0.05, -len * 0.68, -len * 0.2, -len * 0.62, -len * 0.2);
    ctx.quadraticCurveTo(-len * 0.56, -len * 0.05, -len * 0.58, 0);
    ctx.quadraticCurveTo(-len * 0.56, len * 0.05, -len * 0.62, len * 0.2);
    ctx.bezierCurveTo(-len * 0.68, len * 0.2, -len * 0.55, len * 0.05, -len * 0.4, 0);
    ctx.fill();
    for (const side of [-1, 1]) {
        ctx.beginPath();
        ctx.moveTo(len * 0.22, side * len * 0.13);
        ctx.quadraticCurveTo(len * 0.12, side * len * 0.32, len * 0.02, side * len * 0.26);
        ctx.quadraticCurveTo(len * 0.08, side * len * 0.16, len * 0.12, side * len * 0.12);
        ctx.fill();
    }
}

function koi(ctx, x, y, angle, len, colors, rand)
{
    ctx.save();
    ctx.translate(x, y);
    ctx.rotate(angle);
    /* Shadow on the pond floor, offset as if lit from the top left. */
    ctx.save();
    ctx.translate(len * 0.06, len * 0.1);
    ctx.fillStyle = 'rgba(0, 20, 30, 0.28)';
    koiBody(ctx, len);
    ctx.fill();
    ctx.restore();

    koiFins(ctx, len, colors.fin);
    koiBody(ctx, len);
    ctx.fillStyle = colors.body;
    ctx.fill();
    ctx.save();
    ctx.clip();
    ctx.fillStyle = colors.spot;
    for (let i = 0; i < 5; i++) {
        ctx.beginPath();
        ctx.ellipse(rand.between(-len * 0.3, len * 0.4), rand.between(-len * 0.12, len * 0.12),
            len * rand.between(0.07, 0.16), len * rand.between(0.05, 0.1), rand() * 3, 0, Math.PI * 2);
        ctx.fill();
    }
    const sheen = ctx.createLinearGradient(0, -len * 0.18, 0, len * 0.18);
    sheen.addColorStop(0, 'rgba(255, 255, 255, 0.35)');
    sheen.addColorStop(0.5, 'rgba(255, 255, 255, 0)');
    sheen.addColorStop(1, 'rgba(0, 0, 0, 0.18)');
    ctx.fillStyle = sheen;
    ctx.fillRect(-len, -len, len * 2, len * 2);
    ctx.restore();
    ctx.fillStyle = '#1a1a1a';
    for (const side of [-1, 1]) {
        ctx.beginPath();
        ctx.arc(len * 0.4, side * len * 0.06, len * 0.018, 0, Math.PI * 2);
        ctx.fill();
    }
    ctx.restore();
}

function lilyPad(ctx, x, y, r, notch, rand)
{
    ctx.save();
    ctx.translate(x, y);
    ctx.fillStyle = 'rgba(0, 25, 30, 0.3)';
    ctx.beginPath();
    ctx.arc(r * 0.12, r * 0.16, r, notch + 0.35, notch - 0.35 + Math.PI * 2);
    ctx.lineTo(r * 0.12, r * 0.16);
    ctx.fill();
    const g = ctx.createRadialGradient(-r * 0.3, -r * 0.3, r * 0.1, 0, 0, r);
    g.addColorStop(0, '#8fd16a');
    g.addColorStop(1, '#2f7d3c');
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.arc(0, 0, r, notch + 0.35, notch - 0.35 + Math.PI * 2);
    ctx.lineTo(0, 0);
    ctx.closePath();
    ctx.fill();
    ctx.strokeStyle = 'rgba(20, 70, 30, 0.35)';
    ctx.lineWidth = Math.max(1, r / 40);
    for (let i = 0; i < 11; i++) {
        const a = notch + 0.5 + i * ((Math.PI * 2 - 1) / 10);
        ctx.beginPath();
        ctx.moveTo(0, 0);
        ctx.lineTo(Math.cos(a) * r * rand.between(0.8, 0.95), Math.sin(a) * r * rand.between(0.8, 0.95));
        ctx.stroke();
    }
    ctx.restore();
}

function lotus(ctx, x, y, r)
{
    ctx.save();
    ctx.translate(x, y);
    for (const [count, scale, turn] of [[10, 1, 0], [8, 0.72, 0.3], [6, 0.45, 0.1]]) {
        for (let i = 0; i < count; i++) {
            ctx.save();
            ctx.rotate(turn + (i / count) * Math.PI * 2);
            const g = ctx.createLinearGradient(0, 0, r * scale, 0);
            g.addColorStop(0, '#fff1f6');
            g.addColorStop(1, '#f46fa2');
            ctx.fillStyle = g;
            ctx.beginPath();
            ctx.ellipse(r * scale * 0.55, 0, r * scale * 0.5, r * scale * 0.2, 0, 0, Math.PI * 2);
            ctx.fill();
            ctx.restore();
        }
    }
    ctx.fillStyle = '#ffd54f';
    ctx.beginPath();
    ctx.arc(0, 0, r * 0.16, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
}

function ripples(ctx, x, y, r)
{
    ctx.save();
    for (let i = 1; i <= 3; i++) {
        ctx.strokeStyle = `rgba(230, 255, 250, ${0.22 / i})`;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.ellipse(x, y, r * i, r * i * 0.9, 0, 0, Math.PI * 2);
        ctx.stroke();
    }
    ctx.restore();
}

export function drawKoi(ctx, s)
{
    const rand = seeded(17);
    water(ctx, s);
    /* Weed and sunlit sand on the pond floor: no two pieces of open
       water alike at 6×6 (issue 31 defect 9). */
    patches(ctx, s, {
        seed: 19, cells: [8, 8],
        colors: ['90, 200, 150', '20, 60, 90', '200, 230, 160', '40, 120, 70'],
        alpha: [0.2, 0.4], radius: [0.06, 0.11], flat: 0.7,
    });
    caustics(ctx, s, rand);
    koi(ctx, s * 0.3, s * 0.3, 0.5, s * 0.42,
        { body: '#ff7a2f', spot: '#fff4ea', fin: 'rgba(255, 170, 110, 0.8)' }, rand);
    koi(ctx, s * 0.72, s * 0.58, 2.6, s * 0.36,
        { body: '#fdf6ee', spot: '#e8452c', fin: 'rgba(255, 255, 255, 0.65)' }, rand);
    koi(ctx, s * 0.35, s * 0.8, -0.35, s * 0.3,
        { body: '#f9c23c', spot: 'rgba(60, 44, 30, 0.8)', fin: 'rgba(255, 220, 120, 0.75)' }, rand);
    ripples(ctx, s * 0.58, s * 0.22, s * 0.05);
    lilyPad(ctx, s * 0.82, s * 0.18, s * 0.14, 2.2, rand);
    lilyPad(ctx, s * 0.66, s * 0.1, s * 0.08, 0.8, rand);
    lilyPad(ctx, s * 0.12, s * 0.6, s * 0.11, -0.6, rand);
    lilyPad(ctx, s * 0.86, s * 0.88, s * 0.12, 3.6, rand);
    lotus(ctx, s * 0.8, s * 0.2, s * 0.07);
    lilyPad(ctx, s * 0.6, s * 0.92, s * 0.07, 1.5, rand);
    ripples(ctx, s * 0.18, s * 0.14, s * 0.03);
}
