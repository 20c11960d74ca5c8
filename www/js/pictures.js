/*
 * pictures.js - the pictures a board can be made of.
 *
 * Built-in pictures are painted by the page itself onto a canvas (the art/
 * modules) and turned into data: URLs, so the game makes no requests for
 * images. Each is painted once, on first use, and cached.
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

function paint(draw, px)
{
    const canvas = document.createElement('canvas');
    canvas.width = px;
    canvas.height = px;
    draw(canvas.getContext('2d'), px);
    return canvas.toDataURL('image/jpeg', 0.9);
}

export function isBuiltIn(id)
{
    return BUILT_IN.some((p) => p.id === id);
}

/* Thumbnails need far fewer pixels: painting five full pictures just to
   show their thumbnails made the page slow to start. */
export const THUMB_PX = 160;

/* A data: URL of the built-in picture `id` at `px` pixels square,
   painted at most once per size. */
export function pictureUrl(id, px = PICTURE_PX)
{
    const key = `${id}@${px}`;
    if (!cache.has(key)) {
        const picture = BUILT_IN.find((p) => p.id === id);
        if (!picture)
            return null;
        cache.set(key, paint(picture.draw, px));
    }
    return cache.get(key);
}

export function pictureName(id)
{
    const picture = BUILT_IN.find((p) => p.id === id);
    return picture ? picture.name : '';
}
