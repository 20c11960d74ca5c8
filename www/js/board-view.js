/*
 * board-view.js - draws a board into the page and keeps it in step with
 * the game, without knowing any rules beyond "where is each tile".
 *
 * One element per tile lives for as long as the board shape does; a move
 * only changes two custom properties on the tile that slides, and CSS does
 * the animation (board.css). The blank has an element too, the "last
 * piece", which fades in when the board is solved so the picture is whole.
 *
 * The shape is R rows by C columns (setShape; a square when not told):
 * --n is the column count (as in the C core, the row stride) and --rows
 * the row count, on the board and on its frame, which sizes itself by them.
 */

import { legalMoves, sizeOf, tileForMove, toRows } from './board.js';

/*
 * The picture as the tiles read it: a short blob: URL made from the data:
 * URL, not the data: URL itself. Every face's background-image is
 * var(--picture), and each style recalculation of a face (a move changes
 * a few tiles' classes and places) substituted and parsed the whole value
 * again: a 900 px picture is ~95 KB of base64, and a tile's restyle took
 * 1.4 ms with it against 0.35 ms with a blob: URL (Chromium without a
 * GPU). Made once per picture; past a few, the oldest is revoked.
 */
const BLOB_URLS_KEPT = 8;
const blobUrls = new Map();

function blobUrlOf(url)
{
    const comma = url.indexOf(',');
    if (!url.startsWith('data:') || !url.slice(0, comma).endsWith(';base64'))
        return url;
    let blob = blobUrls.get(url);
    if (blob) {
        blobUrls.delete(url);           /* the newest again */
    } else {
        const bytes = Uint8Array.from(atob(url.slice(comma + 1)), (c) => c.charCodeAt(0));
        const type = url.slice(5, comma).split(';')[0];
        blob = URL.createObjectURL(new Blob([bytes], { type }));
    }
    blobUrls.set(url, blob);
    while (blobUrls.size > BLOB_URLS_KEPT) {
        const [oldest, made] = blobUrls.entries().next().value;
        URL.revokeObjectURL(made);
        blobUrls.delete(oldest);
    }
    return blob;
}

export class BoardView {
    constructor(root)
    {
        this.root = root;
        this.frame = root.parentElement;
        this.size = 0;
        this.rows = 0;
        this.cols = 0;
        this.shape = null;
        this.tiles = [];
        this.elements = new Map();
        this.hinted = 0;
        this.goal = null;
    }

    /* Where each tile belongs (its slice of the picture); null: the usual. */
    setGoal(goal)
    {
        const key = goal ? goal.join(' ') : '';
        if (key === (this.goal ? this.goal.join(' ') : ''))
            return;
        this.goal = goal ? goal.slice() : null;
        this.size = 0;
    }

    /* The next boards' shape, { rows, cols }; null: squares. */
    setShape(shape)
    {
        const same = this.shape && shape && this.shape.rows === shape.rows &&
            this.shape.cols === shape.cols;
        if (same || (!this.shape && !shape))
            return;
        this.shape = shape ? { rows: shape.rows, cols: shape.cols } : null;
        this.size = 0;
    }

    /* `url` is a data: URL to cut into tiles, or null for numbers. */
    setPicture(url)
    {
        this.root.classList.toggle('pictures', Boolean(url));
        this.root.classList.toggle('numbers', !url);
        this.root.style.setProperty('--picture', url ? `url("${blobUrlOf(url)}")` : 'none');
    }

    setShowNumbers(show)
    {
        this.root.classList.toggle('show-numbers', show);
    }

    /* How long one slide takes; the solver's playback speeds it up. */
    setSlideMs(ms)
    {
        this.root.style.setProperty('--slide-ms', `${Math.max(0, ms)}ms`);
    }

    render(tiles, { solved = false } = {})
    {
        const fits = this.shape && this.shape.rows * this.shape.cols === tiles.length;
        const rows = fits ? this.shape.rows : sizeOf(tiles);
        const cols = fits ? this.shape.cols : sizeOf(tiles);
        if (this.size === 0 || rows !== this.rows || cols !== this.cols)
            this.build(rows, cols);
        this.tiles = tiles.slice();
        tiles.forEach((tile, index) => this.place(tile, index));
        this.markMovable();
        this.root.classList.toggle('solved', solved);
        this.root.dataset.board = tiles.join(' ');
        this.root.dataset.solved = String(solved);
        this.root.setAttribute('aria-label', describe(tiles, solved, this.cols));
    }

    build(rows, cols)
    {
        this.size = cols;
        this.rows = rows;
        this.cols = cols;
        this.root.replaceChildren();
        this.elements.clear();
        for (const element of [this.root, this.frame]) {
            if (!element)
                continue;
            element.style.setProperty('--n', String(cols));
            element.style.setProperty('--rows', String(rows));
        }
        this.root.dataset.rows = String(rows);
        this.root.dataset.cols = String(cols);
        const cells = rows * cols;
        const goal = this.goal && this.goal.length === cells ? this.goal : null;
        for (let i = 1; i <= cells; i++) {
            /* The cell that belongs to the blank is numbered rows*cols here. */
            const tile = i % cells;
            const home = goal ? goal.indexOf(tile) : i - 1;
            const element = makeTile(tile, home, cols);
            this.elements.set(tile, element);
            this.root.append(element);
        }
    }

    place(tile, index)
    {
        const element = this.elements.get(tile);
        element.style.setProperty('--r', String(Math.floor(index / this.cols)));
        element.style.setProperty('--c', String(index % this.cols));
    }

    markMovable()
    {
        const movable = new Set(legalMoves(this.tiles, this.cols)
            .map((d) => tileForMove(this.tiles, d, this.cols)));
        for (const [tile, element] of this.elements)
            element.classList.toggle('movable', movable.has(tile));
    }

    /* Highlights `tile` with an arrow for `slide`, the way it will move. */
    showHint(tile, slide)
    {
        this.clearHint();
        const element = this.elements.get(tile);
        if (!element)
            return;
        element.classList.add('hinted');
        element.dataset.slide = slide;
        this.hinted = tile;
        this.root.dataset.hintTile = String(tile);
    }

    clearHint()
    {
        const element = this.elements.get(this.hinted);
        if (element) {
            element.classList.remove('hinted');
            delete element.dataset.slide;
        }
        this.hinted = 0;
        delete this.root.dataset.hintTile;
    }

    /* A small shake for a tile that cannot move. */
    refuse(tile)
    {
        const element = this.elements.get(tile);
        if (!element)
            return;
        element.classList.remove('refused');
        void element.offsetWidth; /* restart the animation */
        element.classList.add('refused');
    }

    /* The tile number under a point in the page, or 0. */
    tileAt(target)
    {
        const element = target && target.closest ? target.closest('.tile') : null;
        return element && this.root.contains(element) ? Number(element.dataset.tile) : 0;
    }
}

/* Numbers mode colours each goal row: coral, amber, teal, sky, violet… */
const ROW_HUES = [8, 36, 168, 205, 258, 300, 335, 60];

export function rowHue(row)
{
    return ROW_HUES[row % ROW_HUES.length];
}

/* `cols`: the board's column count, which places the goal cell. */
function makeTile(tile, goalIndex, cols)
{
    const element = document.createElement('div');
    element.className = tile === 0 ? 'tile last-piece' : 'tile';
    element.dataset.tile = String(tile);
    element.setAttribute('aria-hidden', 'true');
    element.style.setProperty('--gr', String(Math.floor(goalIndex / cols)));
    element.style.setProperty('--gc', String(goalIndex % cols));
    element.style.setProperty('--hue', String(rowHue(Math.floor(goalIndex / cols))));
    const face = document.createElement('span');
    face.className = 'face';
    if (tile !== 0) {
        const label = document.createElement('span');
        label.className = 'num';
        label.textContent = String(tile);
        face.append(label);
    }
    element.append(face);
    return element;
}

/* What a screen reader hears for the board: rows, "gap" for the blank. */
function describe(tiles, solved, cols)
{
    const rows = toRows(tiles, cols).map((row) => row.map((t) => (t === 0 ? 'gap' : t)).join(' '));
    const shape = rows.length === cols ? '' : ` (${rows.length} rows of ${cols})`;
    return `${solved ? 'Solved board' : 'Puzzle board'}${shape}: ${rows.join(', ')}`;
}
