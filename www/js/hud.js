/*
 * hud.js - the words and numbers around the board: level, moves, time,
 * par, the status line, and the veil shown while a board loads or when it
 * could not be loaded. The game says what happened; this shows it.
 */

import { formatSeconds } from './clock.js';

const $ = (id) => document.getElementById(id);

export class Hud {
    constructor()
    {
        this.level = $('level');
        this.moves = $('moves');
        this.time = $('time');
        this.par = $('par');
        this.status = $('status');
        this.veil = $('board-veil');
        this.veilText = $('veil-text');
        this.prev = $('level-prev');
        this.next = $('level-next');
    }

    setLevel(label, { canGoBack, canGoOn })
    {
        this.level.textContent = label;
        this.prev.disabled = !canGoBack;
        this.next.disabled = !canGoOn;
    }

    setMoves(count)
    {
        this.moves.textContent = String(count);
    }

    /* The clock ticks 4 times a second; the page is redrawn only when
       the time shown changes. */
    setTime(seconds)
    {
        const shown = formatSeconds(seconds);
        if (this.time.textContent !== shown)
            this.time.textContent = shown;
    }

    /* `exact` false: only an upper bound is known, shown as "≤ 42". */
    setPar(length, exact = true)
    {
        this.par.textContent = Number.isFinite(length) ? `${exact ? '' : '≤\u2009'}${length}` : '–';
        this.par.title = Number.isFinite(length) && !exact ?
            'At most this many moves: the shortest route known, not proven shortest' : '';
    }

    /* For screen readers only: what just happened on the board. */
    announce(text)
    {
        const live = $('announce');
        if (live)
            live.textContent = text;
    }

    /* kind: '' (plain), 'hint', 'good' or 'error'. */
    say(text, kind = '')
    {
        this.status.textContent = text;
        this.status.className = kind ? `status ${kind}` : 'status';
        this.status.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    }

    loading(text)
    {
        this.veil.hidden = false;
        this.veil.classList.remove('error');
        this.veilText.textContent = text;
    }

    failed(text)
    {
        this.veil.hidden = false;
        this.veil.classList.add('error');
        this.veilText.textContent = text;
    }

    ready()
    {
        this.veil.hidden = true;
    }
}
