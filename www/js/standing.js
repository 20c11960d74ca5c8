/*
 * standing.js - where the player's daily entries stand now: for each
 * board entered from this device (daily.js remembers the nickname of
 * each), its rank of how many and the share ranked at or above it,
 * "#3 of 41 · top 8 %", as the server's leaderboard has it when shown.
 * A rank moves down as later players enter, so it is asked again (GET
 * /v1/daily/{date}/{size}?nickname=…&limit=1) rather than kept from the
 * entry's answer; an answer stays fresh for FRESH_MS, so that the card,
 * the archive and a render or two share one request. The day the
 * archive shows brings its standing with its leaderboard (daily.js
 * keeps it here): no request of its own.
 *
 * The stats card lists the latest LIST boards entered, each a button
 * that opens the day in the archive. What could not be learnt is said
 * as what it is: no entry of that nickname on the board now, no
 * leaderboard on this server, the server not reached (the connection,
 * not the server), or the server's own words.
 */

import { daily as fetchDaily } from './api.js';

const $ = (id) => document.getElementById(id);
const FRESH_MS = 30000;
const LIST = 5;
const keyOf = (date, size) => `${date}/${size}`;
const known = new Map();    /* "date/size" -> { at, nickname, value } */
const asked = new Map();    /* "date/size" -> its request under way */
const listeners = new Set();

/* What a day's answer (asked with a nickname) says of the player's
   entry: { kind: 'ranked', standing } | { kind: 'none' } |
   { kind: 'no-board' }. */
export function standingFromDay(day)
{
    if (!day.leaderboard)
        return { kind: 'no-board' };
    return day.standing ? { kind: 'ranked', standing: day.standing } : { kind: 'none' };
}

/* A day's answer asked with nickname (the archive's): kept, and the
   lists that show it told. */
export function keepStanding(date, size, nickname, day)
{
    known.set(keyOf(date, size), { at: Date.now(), nickname, value: standingFromDay(day) });
    changed();
}

/* The board changed under the player (they entered it): ask again. */
export function forgetStanding(date, size)
{
    known.delete(keyOf(date, size));
    changed();
}

function changed()
{
    for (const fn of listeners)
        fn();
}

/* The standing kept of nickname's entry, while fresh; else null. */
function fresh(date, size, nickname)
{
    const kept = known.get(keyOf(date, size));
    return kept && kept.nickname === nickname && Date.now() - kept.at < FRESH_MS ? kept.value : null;
}

/* The standing of nickname's entry on the board of date and size: kept
   when fresh, else asked for. Never rejects: failures are values too
   ({ kind: 'unreachable' } | { kind: 'error', message }), and are not
   kept, so the next look asks again. */
export async function standingOf(date, size, nickname)
{
    const key = keyOf(date, size);
    const kept = fresh(date, size, nickname);
    if (kept)
        return kept;
    if (!asked.has(key)) {
        asked.set(key, fetchDaily(date, size, { nickname, limit: 1 }).then((day) => {
            const value = standingFromDay(day);
            known.set(key, { at: Date.now(), nickname, value });
            return value;
        }, (err) => err.unreachable ? { kind: 'unreachable' } :
            { kind: 'error', status: err.status, message: err.message })
            .finally(() => asked.delete(key)));
    }
    return asked.get(key);
}

/* "#3 of 41 · top 8 %" and the rest in words. */
export function standingWords(value, nickname)
{
    switch (value.kind) {
    case 'ranked': {
        const s = value.standing;
        return `#${s.rank} of ${s.total_entries} · top ${s.top_percent} %`;
    }
    case 'none':
        return `No entry as ${nickname} on this board now`;
    case 'no-board':
        return 'This server keeps no leaderboard';
    case 'unreachable':
        return 'Rank unknown: cannot reach the puzzled server (check the connection)';
    default:
        return value.status === 503 ? 'Rank unknown: the server’s leaderboard is unavailable for now' :
            `Rank unknown: ${value.message}`;
    }
}

/* The player's standing is read out with its words, for the title. */
export function standingTitle(value)
{
    if (value.kind !== 'ranked')
        return '';
    const s = value.standing;
    return `Number ${s.rank} of ${s.total_entries} entries: ${s.percentile} % of them rank at or ` +
        `below you (you included); ${s.top_percent} % at or above.`;
}

/* The stats card's "Your ranks now": the latest boards entered, newest
   first. entered() gives [{ date, size, nickname }] oldest first;
   onOpen(date, size) opens one in the archive. */
export class Ranks {
    constructor({ entered, onOpen })
    {
        this.entered = entered;
        this.onOpen = onOpen;
        this.shown = 0;
        listeners.add(() => this.render());
        document.addEventListener('visibilitychange', () => {
            if (document.visibilityState === 'visible')
                this.render();
        });
        this.render();
    }

    /* Draws the list at once from what is known, then asks for what is
       not (at most LIST requests, at once); a later render wins. */
    async render()
    {
        const boards = this.entered().slice(-LIST).reverse();
        const turn = ++this.shown;
        $('today-ranks-box').hidden = boards.length === 0;
        const list = $('today-ranks');
        const rows = boards.map((b) => this.row(b));
        /* What is known shows at once (no "Asking…" flicker on a redraw). */
        boards.forEach((b, i) => {
            const kept = fresh(b.date, b.size, b.nickname);
            if (kept)
                this.fill(rows[i], kept, b.nickname);
        });
        list.replaceChildren(...rows.map((r) => r.li));
        const values = await Promise.all(boards.map((b) => standingOf(b.date, b.size, b.nickname)));
        if (turn !== this.shown)
            return;
        values.forEach((value, i) => this.fill(rows[i], value, boards[i].nickname));
    }

    fill({ li, text }, value, nickname)
    {
        text.textContent = standingWords(value, nickname);
        text.title = standingTitle(value);
        li.dataset.kind = value.kind;
        if (value.kind === 'ranked') {
            li.dataset.rank = String(value.standing.rank);
            li.dataset.total = String(value.standing.total_entries);
            li.dataset.top = String(value.standing.top_percent);
        }
    }

    row({ date, size, nickname })
    {
        const li = document.createElement('li');
        li.dataset.board = keyOf(date, size);
        const open = document.createElement('button');
        open.type = 'button';
        open.className = 'btn-link today-rank-day';
        open.textContent = `${date} · ${size}×${size}`;
        open.title = `Open the ${size}×${size} of ${date} in the archive`;
        open.addEventListener('click', () => this.onOpen(date, size));
        const as = document.createElement('span');
        as.className = 'today-rank-nick';
        as.textContent = nickname;
        const text = document.createElement('span');
        text.className = 'today-rank-text';
        text.textContent = 'Asking the server…';
        li.append(open, as, text);
        return { li, text };
    }
}
