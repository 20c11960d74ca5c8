/*
 * settings-panel.js - the column beside the board: board shape (squares
 * and rectangles, rows × columns), which tiles
 * (numbers, a built-in picture, or the player's own), numbers over
 * pictures, the goal preview and the star count. It reports choices through
 * callbacks and shows what it is told; it keeps no game state of its own.
 */

import { BUILT_IN, NUMBERS, OWN, THUMB_PX, pictureUrl } from './pictures.js';
import { goalBoard } from './board.js';
import { rowHue } from './board-view.js';
import { makeShape, shapeName } from './shapes.js';

const $ = (id) => document.getElementById(id);

function option(value, name, thumb)
{
    const label = document.createElement('label');
    label.title = name;
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = 'picture';
    input.value = value;
    input.dataset.testid = `picture-${value}`;
    const caption = document.createElement('span');
    caption.className = 'thumb-name';
    caption.textContent = name;
    label.append(input, thumb, caption);
    return label;
}

function pictureThumb(id)
{
    const thumb = document.createElement('span');
    thumb.className = 'thumb';
    thumb.style.backgroundImage = `url("${pictureUrl(id, THUMB_PX)}")`;
    return thumb;
}

function numbersThumb()
{
    const thumb = document.createElement('span');
    thumb.className = 'thumb numbers-thumb';
    thumb.append(...miniNumbers(makeShape(3)));
    return thumb;
}

/* The goal in numbers mode: a tiny board of `shape`, coloured like the
   real one. */
function miniNumbers(shape, goal = null)
{
    return (goal || goalBoard(shape.rows, shape.cols)).map((tile, i) => {
        const cell = document.createElement('i');
        if (tile === 0) {
            cell.className = 'gap';
        } else {
            cell.textContent = String(tile);
            cell.style.setProperty('--h', String(rowHue(Math.floor(i / shape.cols))));
        }
        return cell;
    });
}

function ownThumb()
{
    const thumb = document.createElement('span');
    thumb.className = 'thumb own-thumb';
    thumb.id = 'own-thumb';
    thumb.textContent = '+';
    return thumb;
}

export class SettingsPanel {
    /* handlers: onSize(key), onPicture(id), onShowNumbers(bool), onPhotoFile(file) */
    constructor(handlers)
    {
        this.handlers = handlers;
        this.shape = makeShape(3);
        this.choice = $('picture-choice');
        this.choice.append(option(NUMBERS, 'Numbers', numbersThumb()));
        for (const picture of BUILT_IN)
            this.choice.append(option(picture.id, picture.name, pictureThumb(picture.id)));
        this.ownOption = option(OWN, 'Yours', ownThumb());
        this.choice.append(this.ownOption);
        this.wire();
    }

    wire()
    {
        for (const input of document.querySelectorAll('input[name="size"]')) {
            input.addEventListener('change', () => this.handlers.onSize(input.value));
        }
        this.choice.addEventListener('change', (event) => {
            const value = event.target.value;
            /* "Yours" with no picture yet: ask for one instead. */
            if (value === OWN && !this.hasOwn) {
                this.check(this.current);
                $('own-picture').click();
                return;
            }
            this.handlers.onPicture(value);
        });
        $('show-numbers').addEventListener('change', (event) => {
            this.handlers.onShowNumbers(event.target.checked);
        });
        $('own-picture').addEventListener('change', (event) => {
            const file = event.target.files && event.target.files[0];
            if (file)
                this.handlers.onPhotoFile(file);
            event.target.value = '';
        });
    }

    /* Checks the shape's button; a shape the picker lacks checks none. */
    showSize(shape)
    {
        for (const input of document.querySelectorAll('input[name="size"]'))
            input.checked = input.value === shape.key;
        $('size-name').textContent = shapeName(shape);
    }

    check(id)
    {
        const input = this.choice.querySelector(`input[value="${id}"]`);
        if (input)
            input.checked = true;
    }

    showPicture(id, url)
    {
        this.current = id;
        this.check(id);
        const goal = $('goal-image');
        goal.classList.toggle('numbers', !url);
        goal.style.backgroundImage = url ? `url("${url}")` : '';
        goal.replaceChildren();
        if (!url)
            goal.append(...miniNumbers(this.shape, this.goal));
        goal.style.setProperty('--n', String(this.shape.cols));
        goal.style.setProperty('--rows', String(this.shape.rows));
    }

    /* The board's shape (and goal, null: the usual one): the goal preview
       and the pictures are cut to it. */
    setGoalSize(shape, goal = null)
    {
        this.shape = shape;
        this.goal = goal && goal.length === shape.rows * shape.cols ? goal.slice() : null;
    }

    /* Shows the player's picture as the "Yours" thumbnail once there is one. */
    setOwn(url)
    {
        this.hasOwn = Boolean(url);
        const thumb = $('own-thumb');
        thumb.textContent = url ? '' : '+';
        thumb.style.backgroundImage = url ? `url("${url}")` : '';
        thumb.style.borderStyle = url ? 'solid' : 'dashed';
    }

    showNumbers(show)
    {
        $('show-numbers').checked = show;
    }

    showStars(total, bestText, shape)
    {
        $('stars-line').hidden = false;
        $('total-stars').textContent = String(total);
        $('stars-word').textContent = total === 1 ? 'star' : 'stars';
        $('size-name').textContent = shapeName(shape);
        $('best-line').textContent = bestText;
    }

    /* A board that is not a level: no stars to count. */
    showOwn(shape, kind)
    {
        $('stars-line').hidden = true;
        if (kind === 'daily') {
            $('best-line').textContent = `Playing the daily ${shapeName(shape)}: its stars go to your ` +
                'daily stats and share line, not to the levels.';
            return;
        }
        if (kind === 'archive') {
            $('best-line').textContent = `Playing a past daily ${shapeName(shape)} from the archive: ` +
                'unranked, and out of your streak and stats.';
            return;
        }
        const what = kind === 'shared' ? 'a shared' : 'your own';
        $('best-line').textContent = `Playing ${what} ${shapeName(shape)} board: ` +
            'stars are for the numbered levels and the daily.';
    }
}
