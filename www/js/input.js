/*
 * input.js - turns taps, swipes and key presses into game intents.
 *
 * A player thinks in terms of the tile: "slide this one left". The API
 * thinks in terms of the blank. This module speaks the player's language
 * (`slide` = the direction a tile moves) and leaves translation to the game.
 */

/* A drag shorter than this (in CSS pixels) is a tap, not a swipe. */
const SWIPE_MIN_PX = 24;
/* Set while returnFocusAfterPointer gives the board its focus back. */
let refocusing = false;

const ARROWS = Object.freeze({
    ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
});

/*
 * Pointer input on the board. Mouse, pen and touch all arrive as pointer
 * events, so one path serves them all: a short press is a tap on the tile
 * under it, a longer drag is a swipe in its main direction.
 */
export function attachPointer(root, view, { onTap, onSwipe })
{
    let start = null;
    root.addEventListener('pointerdown', (event) => {
        if (event.button !== 0)
            return;
        start = { x: event.clientX, y: event.clientY, tile: view.tileAt(event.target) };
        root.setPointerCapture?.(event.pointerId);
    });
    root.addEventListener('pointerup', (event) => {
        if (!start)
            return;
        const dx = event.clientX - start.x;
        const dy = event.clientY - start.y;
        const tile = start.tile;
        start = null;
        if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_MIN_PX) {
            if (tile)
                onTap(tile);
            return;
        }
        if (Math.abs(dx) > Math.abs(dy))
            onSwipe(dx > 0 ? 'right' : 'left');
        else
            onSwipe(dy > 0 ? 'down' : 'up');
    });
    root.addEventListener('pointercancel', () => {
        start = null;
    });
}

/* Fields where keys type text or pick from a list: the game stays out. */
const TEXT_ENTRY = 'textarea, select, [contenteditable="true"], ' +
    'input:not([type]), input[type="text"], input[type="number"], ' +
    'input[type="search"], input[type="email"], input[type="url"]';

function isTyping(target)
{
    if (!target || !target.closest)
        return false;
    return Boolean(target.closest(TEXT_ENTRY));
}

/* Controls whose own arrow keys mean something (a radio group, a slider). */
function ownsArrows(target)
{
    return Boolean(target && target.closest &&
        target.closest('input[type="radio"], input[type="range"]'));
}

/*
 * After a pick with the mouse or a finger (a size, a picture, a button),
 * focus goes back to the board, so that the next arrow key plays instead
 * of changing that setting again. Keyboard users keep their focus where
 * they put it. `area` is where this applies (the play section).
 */
export function returnFocusAfterPointer(area, board)
{
    /* Whether the last thing the player did was point, not type. */
    let pointing = false;
    document.addEventListener('pointerdown', () => {
        pointing = true;
    }, true);
    document.addEventListener('keydown', () => {
        pointing = false;
    }, true);
    const back = (event) => {
        if (!pointing || isTyping(event.target))
            return;
        if (event.target === board || board.contains(event.target))
            return;
        if (event.target.type === 'file')
            return;
        setTimeout(() => {
            refocusing = true;
            board.focus({ preventScroll: true });
            refocusing = false;
        }, 0);
    };
    area.addEventListener('change', back);
    area.addEventListener('click', (event) => {
        if (event.target.closest && event.target.closest('button'))
            back(event);
    });
}

/*
 * Keyboard shortcuts for the game. `actions` maps intents to functions:
 * slide(direction), hint, solve, restart, shuffle, undo, peek, pause,
 * step, stop. `blocked()` says when the game is not listening (a dialog is
 * open). The keys play only while the player is at the board:
 * - the board has the focus and some of it is on screen, or
 * - no control has the focus (the page itself), one of the play area's
 *   own controls has it (`area`: level, size and buttons beside the
 *   board), or a control elsewhere got it from a click (the theme toggle:
 *   a mouse user's arrows still play), and more than half of the board
 *   is on screen.
 * So an arrow pressed while reading the leaderboard scrolls the page, and
 * `h` on a link the keyboard reached does nothing to the game. Keys typed
 * into text fields are left alone, and so are arrow keys on a radio group
 * or slider the keyboard reached (where they choose).
 */
export function attachKeys(actions, blocked, board, area)
{
    /* Whether the focused control got the focus from a pointer (a click
     * or a tap) rather than from the keyboard. Focus goes back to the
     * board a moment after a pointer pick (returnFocusAfterPointer), but
     * an arrow pressed within that moment must play too, not turn the
     * radio group the mouse just picked from. */
    let pointerRecent = false;
    let focusFromPointer = false;
    document.addEventListener('pointerdown', () => {
        pointerRecent = true;
    }, true);
    document.addEventListener('keydown', () => {
        pointerRecent = false;
    }, true);
    document.addEventListener('focusin', () => {
        focusFromPointer = pointerRecent;
    }, true);
    /* The board focused by the player (Tab, a skip link, a click) comes
       into view at once: the page scrolls smoothly, and a key pressed
       meanwhile would find the board still out of view. Not when the
       focus comes back to it after a click elsewhere in the play area
       (returnFocusAfterPointer), which must not make the page jump. */
    board.addEventListener('focus', () => {
        if (!refocusing && !inView(board, 0.5))
            board.scrollIntoView({ block: 'nearest', behavior: 'instant' });
    });
    document.addEventListener('keydown', (event) => {
        if (event.defaultPrevented || event.altKey)
            return;
        if (isTyping(event.target) || blocked())
            return;
        if (!atBoard(event.target, board, area, focusFromPointer))
            return;
        const action = keyAction(event, focusFromPointer);
        if (!action)
            return;
        event.preventDefault();
        action(actions);
    });
}

/* Whether a key pressed with the focus on `target` is meant for the
 * board (see attachKeys). */
function atBoard(target, board, area, pointerFocus)
{
    if (target === board || board.contains(target))
        return inView(board, 0);   /* focused by the player: any of it seen */
    const onPage = !target || target === document.body ||
        target === document.documentElement;
    return (onPage || pointerFocus || area.contains(target)) && inView(board, 0.5);
}

/* More than `part` of el's area is inside the viewport. */
function inView(el, part)
{
    const r = el.getBoundingClientRect();
    const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0);
    const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    return w > 0 && h > 0 && w * h > part * r.width * r.height;
}

/* pointerFocus: the focus came from a pointer, so even a radio or a
 * slider leaves its arrows to the game. */
function keyAction(event, pointerFocus)
{
    const mod = event.ctrlKey || event.metaKey;
    if (mod)
        return event.key.toLowerCase() === 'z' && !event.shiftKey ? (a) => a.undo() : null;
    /* A part of the page that steps with the arrows itself (Watch A*
       think) keeps them, however the focus got there. */
    if (ARROWS[event.key] && event.target.closest && event.target.closest('[data-own-arrows]'))
        return null;
    if (ARROWS[event.key])
        return ownsArrows(event.target) && !pointerFocus ? null
            : (a) => a.slide(ARROWS[event.key]);
    /* Buttons already act on Space and Enter; don't act twice. */
    const onButton = event.target.closest &&
        event.target.closest('button, a, summary, input[type="checkbox"], input[type="radio"]');
    switch (event.key.toLowerCase()) {
    case 'h': return (a) => a.hint();
    case 's': return (a) => a.solve();
    case 'r': return (a) => a.restart();
    case 'n': return (a) => a.shuffle();
    case 'u': return (a) => a.undo();
    case 'g': return (a) => a.peek?.();
    case '.': return (a) => a.step();
    case 'escape': return (a) => a.stop();
    case ' ': return onButton ? null : (a) => a.pause();
    default: return null;
    }
}
