/*
 * pictures.js - the pictures a board can be made of.
 *
 * Built-in pictures are painted by the page itself onto a canvas (the art/
 * modules) and turned into data: URLs, so the game makes no requests for
 * images. Each is painted once per shape, on first use, and cached.
 *
 * A board of R rows by C columns has square cells, so its picture must be
 * C:R (wide for 3×4, tall for 5×3): the art is drawn square, as big as the
 * longer side, and the canvas keeps its middle (a centre crop, never a
 * stretch). The player's photo is cut the same way (cutPhoto).
 */

import { drawDusk } from './art/dusk.js';
import { drawKoi } from './art/koi.js';
import { drawBalloons } from './art/balloons.js';
import { drawMandala } from './art/mandala.js';
import { drawPlanet } from './art/planet.js';

/* Big enough to stay sharp on a 5×5 board on a high-density screen. */
const PICTURE_PX = 900;

export const NUMBERS = 'numbers';
export const OWN = 'own';

export const BUILT_IN = Object.freeze([
    { id: 'dusk', name: 'Alpine dusk', draw: drawDusk },
    { id: 'koi', name: 'Koi pond', draw: drawKoi },
    { id: 'balloons', name: 'Balloon festival', draw: drawBalloons },
    { id: 'mosaic', name: 'Mosaic', draw: drawMandala },
    { id: 'planet', name: 'Ringed planet', draw: drawPlanet },
]);

const cache = new Map();

/* Canvas size for a picture whose longer side is `px`, in the aspect of
   `shape` (columns : rows); square when no shape is given. */
function canvasSize(px, shape)
{
    if (!shape || shape.rows === shape.cols)
        return { width: px, height: px };
    const long = Math.max(shape.rows, shape.cols);
    return {
        width: Math.round(px * shape.cols / long),
        height: Math.round(px * shape.rows / long),
    };
}

function paint(draw, px, shape)
{
    const canvas = document.createElement('canvas');
    const { width, height } = canvasSize(px, shape);
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    /* The square art, centred: the shorter side loses its edges. */
    ctx.translate((width - px) / 2, (height - px) / 2);
    draw(ctx, px);
    return canvas.toDataURL('image/jpeg', 0.9);
}

export function isBuiltIn(id)
{
    return BUILT_IN.some((p) => p.id === id);
}

/* Thumbnails need far fewer pixels: painting five full pictures just to
   show their thumbnails made the page slow to start. */
export const THUMB_PX = 160;

/* A data: URL of the built-in picture `id`, `px` pixels on its longer
   side, in the aspect of `shape` ({ rows, cols }; square when left out),
   painted at most once per size and shape. */
export function pictureUrl(id, px = PICTURE_PX, shape = null)
{
    const { width, height } = canvasSize(px, shape);
    const key = `${id}@${width}x${height}`;
    if (!cache.has(key)) {
        const picture = BUILT_IN.find((p) => p.id === id);
        if (!picture)
            return null;
        cache.set(key, paint(picture.draw, px, shape));
    }
    return cache.get(key);
}

const photoCache = { url: '', cuts: new Map() };

/* The player's photo (a data: URL of any aspect) centre-cropped to the
   aspect of `shape`, `px` on its longer side; resolves to a data: URL. */
export async function cutPhoto(url, shape, px = PICTURE_PX)
{
    if (photoCache.url !== url) {
        photoCache.url = url;
        photoCache.cuts = new Map();
    }
    const cuts = photoCache.cuts;
    const { width, height } = canvasSize(px, shape);
    const key = `${width}x${height}`;
    if (!cuts.has(key)) {
        const img = new Image();
        img.src = url;
        await img.decode();
        const scale = Math.max(width / img.naturalWidth, height / img.naturalHeight);
        const w = width / scale;
        const h = height / scale;
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = height;
        canvas.getContext('2d').drawImage(img, (img.naturalWidth - w) / 2,
            (img.naturalHeight - h) / 2, w, h, 0, 0, width, height);
        cuts.set(key, canvas.toDataURL('image/jpeg', 0.9));
    }
    return cuts.get(key);
}

export function pictureName(id)
{
    const picture = BUILT_IN.find((p) => p.id === id);
    return picture ? picture.name : '';
}
