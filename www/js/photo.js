/*
 * photo.js - turns a picture the player picks from their own device into a
 * square image the board can be cut from.
 *
 * The file is read in the browser and never leaves it: it is decoded from
 * an object URL, centre-cropped to a square, scaled down and re-encoded as
 * a data: URL. A small copy is kept in localStorage so it survives reloads.
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

function squareCrop(img, px)
{
    const side = Math.min(img.naturalWidth, img.naturalHeight);
    const canvas = document.createElement('canvas');
    canvas.width = px;
    canvas.height = px;
    canvas.getContext('2d').drawImage(img,
        (img.naturalWidth - side) / 2, (img.naturalHeight - side) / 2,
        side, side, 0, 0, px, px);
    return canvas;
}

/* Resolves to a data: URL of the centre square of `file`. */
export async function loadPhoto(file)
{
    if (!file || !/^image\//.test(file.type))
        throw new Error('Please choose an image file (JPEG, PNG, WebP, GIF…).');
    const img = await decode(file);
    if (!img.naturalWidth || !img.naturalHeight)
        throw new Error('That picture seems to be empty.');
    const url = squareCrop(img, PHOTO_PX).toDataURL('image/jpeg', 0.9);
    storePhoto(img);
    return url;
}

function storePhoto(img)
{
    try {
        localStorage.setItem(KEY, squareCrop(img, STORED_PX).toDataURL('image/jpeg', 0.82));
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
