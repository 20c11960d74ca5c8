/*
 * mandala.js - "Mosaic": a stained-glass sunburst of rings and petals.
 * Every region of it differs, which makes it a friendly first picture: each
 * piece shows clearly where it belongs.
 */

const PALETTE = ['#ef476f', '#ffd166', '#06d6a0', '#118ab2', '#8e5ee8', '#ff8c42'];

function ring(ctx, inner, outer, wedges, offset, turn)
{
    for (let i = 0; i < wedges; i++) {
        const a = turn + (i / wedges) * Math.PI * 2;
        const b = turn + ((i + 1) / wedges) * Math.PI * 2;
        const g = ctx.createRadialGradient(0, 0, inner, 0, 0, outer);
        const color = PALETTE[(i + offset) % PALETTE.length];
        g.addColorStop(0, color);
        g.addColorStop(1, shade(color, -0.28));
        ctx.fillStyle = g;
        ctx.beginPath();
        ctx.arc(0, 0, outer, a, b);
        ctx.arc(0, 0, inner, b, a, true);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
    }
}

/* Darkens (negative) or lightens (positive) a #rrggbb colour. */
function shade(hex, amount)
{
    const n = parseInt(hex.slice(1), 16);
    const mix = (c) => Math.round(amount < 0 ? c * (1 + amount) : c + (255 - c) * amount);
    const r = mix(n >> 16), g = mix((n >> 8) & 255), b = mix(n & 255);
    return `rgb(${r}, ${g}, ${b})`;
}

function petals(ctx, count, length, width, color, turn)
{
    for (let i = 0; i < count; i++) {
        ctx.save();
        ctx.rotate(turn + (i / count) * Math.PI * 2);
        ctx.fillStyle = color;
        ctx.beginPath();
        ctx.moveTo(0, 0);
        ctx.quadraticCurveTo(width, -length * 0.5, 0, -length);
        ctx.quadraticCurveTo(-width, -length * 0.5, 0, 0);
        ctx.fill();
        ctx.stroke();
        ctx.restore();
    }
}

function corners(ctx, s)
{
    const spots = [[0, 0, 0], [s, 0, 1], [s, s, 2], [0, s, 3]];
    spots.forEach(([x, y, k]) => {
        for (let i = 5; i >= 1; i--) {
            ctx.fillStyle = PALETTE[(k + i) % PALETTE.length];
            ctx.beginPath();
            ctx.arc(x, y, s * 0.06 * i, 0, Math.PI * 2);
            ctx.fill();
            ctx.stroke();
        }
    });
}

export function drawMandala(ctx, s)
{
    const bg = ctx.createRadialGradient(s / 2, s / 2, 0, s / 2, s / 2, s * 0.75);
    bg.addColorStop(0, '#2b2d6e');
    bg.addColorStop(1, '#10122e');
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, s, s);
    ctx.lineJoin = 'round';
    ctx.strokeStyle = 'rgba(16, 18, 46, 0.9)';
    ctx.lineWidth = s / 180;
    corners(ctx, s);

    ctx.save();
    ctx.translate(s / 2, s / 2);
    ring(ctx, s * 0.36, s * 0.46, 24, 0, 0);
    ring(ctx, s * 0.27, s * 0.36, 18, 2, 0.1);
    petals(ctx, 12, s * 0.27, s * 0.09, '#ffd166', 0);
    petals(ctx, 12, s * 0.22, s * 0.07, '#ef476f', Math.PI / 12);
    ring(ctx, s * 0.08, s * 0.14, 8, 4, 0.2);
    petals(ctx, 8, s * 0.08, s * 0.04, '#06d6a0', 0.2);
    ctx.fillStyle = '#fff3d6';
    ctx.beginPath();
    ctx.arc(0, 0, s * 0.035, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.restore();
}
