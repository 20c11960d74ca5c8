/*
 * photo.js - turns a picture the player picks from their own device into
 * an image the board can be cut from.
 *
 * The file is read in the browser and never leaves it: it is decoded from
 * an object URL, scaled down (its whole frame, uncropped: a square board
 * keeps its middle square, a 3×4 board a 4:3 band, a tall 5×3 a 3:5 one,
 * cut by pictures.js cutPhoto) and re-encoded as a data: URL. A small copy
 * is kept in localStorage so it survives reloads. (Saves before boards
 * had shapes held the centre square; those are cut the same way.)
 */

const PHOTO_PX = 900;
const STORED_PX = 600;
const KEY = 'puzzled.photo.v1';

function decode(file)
{
    return new Promise((resolve, reject) => {
        const url = URL.createObjectURL(file);
        const img = new Image();
        img.onload = () => {
            URL.revokeObjectURL(url);
            resolve(img);
        };
        img.onerror = () => {
            URL.revokeObjectURL(url);
            reject(new Error('That file could not be read as a picture. Try a JPEG, PNG or WebP image.'));
        };
        img.src = url;
    });
}

/* The whole picture, its longer side at most `px`. A panorama is first
   trimmed to 2:1 at most, so that a square board still gets a fair part
   of it and the stored copy no pixels it will never show. */
function fitted(img, px)
{
    let sw = img.naturalWidth;
    let sh = img.naturalHeight;
    sw = Math.min(sw, 2 * sh);
    sh = Math.min(sh, 2 * sw);
    const scale = Math.min(1, px / Math.max(sw, sh));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(sw * scale));
    canvas.height = Math.max(1, Math.round(sh * scale));
    canvas.getContext('2d').drawImage(img,
        (img.naturalWidth - sw) / 2, (img.naturalHeight - sh) / 2,
        sw, sh, 0, 0, canvas.width, canvas.height);
    return canvas;
}

/* Resolves to a data: URL of `file`, scaled down, aspect kept. */
export async function loadPhoto(file)
{
    if (!file || !/^image\//.test(file.type))
        throw new Error('Please choose an image file (JPEG, PNG, WebP, GIF…).');
    const img = await decode(file);
    if (!img.naturalWidth || !img.naturalHeight)
        throw new Error('That picture seems to be empty.');
    const url = fitted(img, PHOTO_PX).toDataURL('image/jpeg', 0.9);
    storePhoto(img);
    return url;
}

function storePhoto(img)
{
    try {
        localStorage.setItem(KEY, fitted(img, STORED_PX).toDataURL('image/jpeg', 0.82));
    } catch {
        /* Too big for the quota, or no storage: it just won't persist. */
    }
}

export function storedPhoto()
{
    try {
        return localStorage.getItem(KEY);
    } catch {
        return null;
    }
}
