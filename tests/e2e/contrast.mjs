/*
 * contrast.mjs - measures text contrast against what is really painted
 * behind the text, gradients, translucent cards and all. axe-core gives
 * up on gradient backgrounds ("incomplete"), so the suite measures it
 * itself: every text colour is hidden (the page keeps its layout), a
 * screenshot of the box the text is in is taken, and the pixels under
 * each piece of text are read from it here in node. The text's colour is compared with the worst of the
 * pixels it sits on (the 5th percentile, so a stray anti-aliased edge
 * does not decide), WCAG 2 style.
 */

import zlib from 'node:zlib';
import { screenshot } from './harness.mjs';

/* In the page: the boxes and colours of visible text inside `scope`. */
function collectText(scopeSelector)
{
    const scope = document.querySelector(scopeSelector) || document.body;
    const out = [];
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    const seen = new Set();
    const vw = innerWidth;
    const vh = innerHeight;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim())
            continue;
        const el = node.parentElement;
        /* A closed <details> keeps boxes for its content (Chromium lays it
           out with content-visibility: hidden) but paints none of it. */
        if (!el || seen.has(el) ||
            el.closest('[aria-hidden="true"], .visually-hidden, svg, :disabled, details:not([open]) > :not(summary)'))
            continue;
        seen.add(el);
        const style = getComputedStyle(el);
        if (style.visibility !== 'visible' || Number(style.opacity) === 0)
            continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        /* The glyphs' box, clipped to the element's own box (a line box
           can reach past a small cell). */
        const g = range.getBoundingClientRect();
        const e = el.getBoundingClientRect();
        const left = Math.max(g.left, e.left);
        const top = Math.max(g.top, e.top);
        const r = {
            left, top, width: Math.min(g.right, e.right) - left,
            height: Math.min(g.bottom, e.bottom) - top,
        };
        r.right = r.left + r.width;
        r.bottom = r.top + r.height;
        if (r.width < 2 || r.height < 2 || r.top < 0 || r.left < 0 || r.bottom > vh || r.right > vw)
            continue;
        /* Only text that is on top where it stands (not under a dialog). */
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !(hit === el || el.contains(hit) || hit.contains(el)))
            continue;
        let opacity = 1;
        for (let up = el; up; up = up.parentElement)
            opacity *= Number(getComputedStyle(up).opacity);
        out.push({
            text: node.textContent.trim().slice(0, 40),
            where: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}` +
                `${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''}`,
            color: style.color,
            opacity,
            large: parseFloat(style.fontSize) >= 24 ||
                (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700),
            box: { x: r.left, y: r.top, w: r.width, h: r.height },
        });
    }
    return out;
}

/*
 * A PNG as Chromium's screenshots write it (8 bits a channel, RGB or
 * RGBA, not interlaced) -> { width, height, channels, data }, the rows
 * unfiltered one after the other. Decoded here in node: the page used
 * to get the screenshot back as base64 and decode it in a canvas, a
 * round trip that cost more CPU than the measuring.
 */
export function decodePng(png)
{
    if (png.readUInt32BE(0) !== 0x89504e47 || png.readUInt32BE(4) !== 0x0d0a1a0a)
        throw new Error('not a PNG');
    let width = 0, height = 0, channels = 0;
    const idat = [];
    for (let at = 8; at < png.length;) {
        const len = png.readUInt32BE(at);
        const type = png.toString('latin1', at + 4, at + 8);
        const body = png.subarray(at + 8, at + 8 + len);
        if (type === 'IHDR') {
            width = body.readUInt32BE(0);
            height = body.readUInt32BE(4);
            const [depth, colour, , , interlace] = body.subarray(8, 13);
            channels = { 2: 3, 6: 4 }[colour];
            if (depth !== 8 || !channels || interlace !== 0)
                throw new Error(`PNG depth ${depth} colour ${colour} interlace ${interlace}: not read`);
        } else if (type === 'IDAT') {
            idat.push(body);
        } else if (type === 'IEND') {
            break;
        }
        at += 12 + len;
    }
    const raw = zlib.inflateSync(Buffer.concat(idat));
    const stride = width * channels;
    const data = Buffer.alloc(height * stride);
    for (let y = 0; y < height; y++)
        unfilter(raw, y * (stride + 1), data, y * stride, stride, channels);
    return { width, height, channels, data };
}

/* One PNG row: filter byte at raw[from], then stride bytes -> out[to...]. */
function unfilter(raw, from, out, to, stride, bpp)
{
    const filter = raw[from++];
    const up = to - stride;   /* the row above (y > 0 only) */
    const hasUp = to > 0;
    for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? out[to + i - bpp] : 0;
        const b = hasUp ? out[up + i] : 0;
        const c = hasUp && i >= bpp ? out[up + i - bpp] : 0;
        let v = raw[from + i];
        if (filter === 1) {
            v += a;
        } else if (filter === 2) {
            v += b;
        } else if (filter === 3) {
            v += (a + b) >> 1;
        } else if (filter === 4) {
            const p = a + b - c;
            const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
            v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        } else if (filter !== 0) {
            throw new Error(`PNG filter ${filter}`);
        }
        out[to + i] = v & 255;
    }
}

/* sRGB channel -> linear light, once per value (a power per channel per
   pixel made this the slowest step of the browser suites). */
const LINEAR = new Float64Array(256);
for (let v = 0; v < 256; v++) {
    const x = v / 255;
    LINEAR[v] = x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
}
const lum = (r, g, b) => 0.2126 * LINEAR[r] + 0.7152 * LINEAR[g] + 0.0722 * LINEAR[b];

/*
 * The pixels under each item's box in shot (a decoded screenshot whose
 * top left is the viewport's point origin) -> the item with its ratio:
 * the 5th percentile of the text colour's contrast with each pixel.
 */
function measure(shot, origin, items)
{
    const { width, channels, data } = shot;
    return items.map((item) => {
        const { x, y, w, h } = item.box;
        const x0 = Math.floor(x) - origin.x;
        const y0 = Math.floor(y) - origin.y;
        const cols = Math.max(1, Math.floor(w));
        const rows = Math.max(1, Math.floor(h));
        const m = item.color.match(/[\d.]+/g).map(Number);
        const alpha = (m.length > 3 ? m[3] : 1) * item.opacity;
        const solid = lum(Math.round(m[0]), Math.round(m[1]), Math.round(m[2]));
        /* Per pixel without allocating; the ratios in a typed array,
           sorted as numbers. */
        const ratios = new Float64Array(cols * rows);
        let k = 0;
        for (let row = y0; row < y0 + rows; row++) {
            for (let col = x0, i = (row * width + x0) * channels; col < x0 + cols;
                col++, i += channels) {
                const r = data[i], g = data[i + 1], b = data[i + 2];
                /* Translucent text is its colour blended over the pixel. */
                const fg = alpha >= 1 ? solid : lum(
                    Math.round(m[0] * alpha + r * (1 - alpha)),
                    Math.round(m[1] * alpha + g * (1 - alpha)),
                    Math.round(m[2] * alpha + b * (1 - alpha)));
                const bg = lum(r, g, b);
                ratios[k++] = fg > bg ? (fg + 0.05) / (bg + 0.05)
                                      : (bg + 0.05) / (fg + 0.05);
            }
        }
        ratios.sort();
        return { ...item, ratio: ratios[Math.floor(ratios.length * 0.05)] };
    });
}

const STILL = '*, *::before, *::after { transition: none !important; animation: none !important; }';
const HIDE_TEXT = `*, *::before, *::after { color: transparent !important;
    -webkit-text-fill-color: transparent !important; text-shadow: none !important;
    caret-color: transparent !important; transition: none !important;
    animation: none !important; }
    ::placeholder { color: transparent !important; }`;

/* The viewport's pixels under items (whole CSS pixels, as the boxes are
   read), decoded, with the clip's top left. Only that box is captured:
   a whole 1440×900 screen was encoded for a card or a board. */
async function capture(page, items)
{
    const view = await page.evaluate(() => [innerWidth, innerHeight]);
    const left = Math.max(0, Math.min(...items.map((i) => Math.floor(i.box.x))));
    const top = Math.max(0, Math.min(...items.map((i) => Math.floor(i.box.y))));
    const right = Math.min(view[0], Math.max(...items.map((i) => Math.ceil(i.box.x + i.box.w))));
    const bottom = Math.min(view[1], Math.max(...items.map((i) => Math.ceil(i.box.y + i.box.h))));
    /* The style tags already stop animations and hide the caret (so
       Playwright's page.screenshot, which restyles the page twice more for
       those, is not used). */
    const png = await screenshot(page, {
        clip: { x: left, y: top, width: right - left, height: bottom - top },
    });
    return { shot: decodePng(png), origin: { x: left, y: top } };
}

/*
 * The text of each screen: screens is a list of { y (a scroll position
 * or null: stay), scope }. The page is restyled twice for the whole
 * list, not per screen: all text is read with the page still (no
 * transitions or animations), then all text hidden (the layout stays)
 * and each screen captured where it was read. Returns the low lines.
 */
async function sweep(page, screens)
{
    const scrollTo = (y) => (y === null ? null : page.evaluate((top) =>
        window.scrollTo({ top, behavior: 'instant' }), y));
    const still = await page.addStyleTag({ content: STILL });
    const read = [];
    for (const { y, scope } of screens) {
        await scrollTo(y);
        read.push(await page.evaluate(collectText, scope));
    }
    const hide = await page.addStyleTag({ content: HIDE_TEXT });
    const low = [];
    try {
        for (const [n, { y }] of screens.entries()) {
            if (!read[n].length)
                continue;
            await scrollTo(y);
            /* a frame for the style tag to apply: no event says styles were recomputed. */
            await page.waitForTimeout(50);
            const { shot, origin } = await capture(page, read[n]);
            for (const m of measure(shot, origin, read[n]))
                if (m.ratio < (m.large ? 3 : 4.5))
                    low.push(`${m.where} '${m.text}' ${m.ratio.toFixed(2)}:1`);
        }
    } finally {
        await hide.evaluate((el) => el.remove());
        await still.evaluate((el) => el.remove());
    }
    return low;
}

/*
 * Every visible text in the viewport inside `scope` whose contrast with
 * what is painted behind it is under 4.5:1 (3:1 for large text). Returns
 * a list of "where 'text' ratio" lines, empty when all is well.
 */
export async function lowContrast(page, scope = 'body')
{
    return sweep(page, [{ y: null, scope }]);
}

/* lowContrast for the whole page, scrolled through a screen at a time. */
export async function lowContrastPage(page)
{
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const screen = await page.evaluate(() => innerHeight);
    const screens = [];
    for (let y = 0; y < height; y += Math.floor(screen * 0.7))
        screens.push({ y, scope: 'body' });
    const found = new Set(await sweep(page, screens));
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    return [...found];
}
