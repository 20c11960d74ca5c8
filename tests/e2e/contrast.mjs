/*
 * contrast.mjs - measures text contrast against what is really painted
 * behind the text, gradients, translucent cards and all. axe-core gives
 * up on gradient backgrounds ("incomplete"), so the suite measures it
 * itself: every text colour is hidden (the page keeps its layout), a
 * screenshot is taken, and the pixels under each piece of text are read
 * back in a canvas. The text's colour is compared with the worst of the
 * pixels it sits on (the 5th percentile, so a stray anti-aliased edge
 * does not decide), WCAG 2 style.
 */

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

/* In the page: pixels of a PNG (base64) under each box -> contrast. */
async function measure({ png, items })
{
    const img = new Image();
    img.src = `data:image/png;base64,${png}`;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.width;
    canvas.height = img.height;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    ctx.drawImage(img, 0, 0);
    /* sRGB channel -> linear light, once per value: the pixels of a
       whole screen go through it for every text (a power per channel
       per pixel made this the slowest step of the browser suites). */
    const linear = new Float64Array(256);
    for (let v = 0; v < 256; v++) {
        const x = v / 255;
        linear[v] = x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    }
    const lum = (r, g, b) => 0.2126 * linear[r] + 0.7152 * linear[g] +
        0.0722 * linear[b];
    /* Per pixel without allocating (a whole screen of pixels per text
       went through arrays made and sorted per pixel: the bulk of a
       sweep's CPU); the ratios in a typed array, sorted as numbers. */
    return items.map((item) => {
        const { x, y, w, h } = item.box;
        const data = ctx.getImageData(Math.floor(x), Math.floor(y),
            Math.max(1, Math.floor(w)), Math.max(1, Math.floor(h))).data;
        const m = item.color.match(/[\d.]+/g).map(Number);
        const alpha = (m.length > 3 ? m[3] : 1) * item.opacity;
        const ratios = new Float64Array(data.length / 4);
        const solid = lum(Math.round(m[0]), Math.round(m[1]), Math.round(m[2]));
        for (let i = 0, k = 0; i < data.length; i += 4, k++) {
            const r = data[i], g = data[i + 1], b = data[i + 2];
            /* Translucent text is its colour blended over the pixel. */
            const fg = alpha >= 1 ? solid : lum(
                Math.round(m[0] * alpha + r * (1 - alpha)),
                Math.round(m[1] * alpha + g * (1 - alpha)),
                Math.round(m[2] * alpha + b * (1 - alpha)));
            const bg = lum(r, g, b);
            ratios[k] = fg > bg ? (fg + 0.05) / (bg + 0.05)
                                : (bg + 0.05) / (fg + 0.05);
        }
        ratios.sort();
        return { ...item, ratio: ratios[Math.floor(ratios.length * 0.05)] };
    });
}

const HIDE_TEXT = `*, *::before, *::after { color: transparent !important;
    -webkit-text-fill-color: transparent !important; text-shadow: none !important;
    caret-color: transparent !important; transition: none !important;
    animation: none !important; }
    ::placeholder { color: transparent !important; }`;

/*
 * Every visible text in the viewport inside `scope` whose contrast with
 * what is painted behind it is under 4.5:1 (3:1 for large text). Returns
 * a list of "where 'text' ratio" lines, empty when all is well.
 */
export async function lowContrast(page, scope = 'body')
{
    const still = await page.addStyleTag({ content: '*, *::before, *::after { ' +
        'transition: none !important; animation: none !important; }' });
    /* a frame for the style tag to apply: no event says styles were recomputed. */
    await page.waitForTimeout(50);
    const items = await page.evaluate(collectText, scope);
    const hide = await page.addStyleTag({ content: HIDE_TEXT });
    /* a frame for the style tag to apply (as above). */
    await page.waitForTimeout(50);
    const png = (await page.screenshot({ animations: 'disabled', caret: 'hide' })).toString('base64');
    await hide.evaluate((el) => el.remove());
    await still.evaluate((el) => el.remove());
    const measured = await page.evaluate(measure, { png, items });
    return measured.filter((m) => m.ratio < (m.large ? 3 : 4.5))
        .map((m) => `${m.where} '${m.text}' ${m.ratio.toFixed(2)}:1`);
}

/* lowContrast for the whole page, scrolled through a screen at a time. */
export async function lowContrastPage(page)
{
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const screen = await page.evaluate(() => innerHeight);
    const found = new Set();
    for (let y = 0; y < height; y += Math.floor(screen * 0.7)) {
        await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
        for (const line of await lowContrast(page))
            found.add(line);
    }
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    return [...found];
}
