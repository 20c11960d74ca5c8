/*
 * today.js - the daily card at the top of the page: today's boards (one
 * per size) and whether you have played each, the time left until the
 * next ones (UTC midnight), your streak and stats, and a spoiler-free
 * share line. Everything here is about this device's player and stays
 * in localStorage; the leaderboard is daily.js's.
 *
 * A day's result per size is the first finish that day (replays do not
 * change it), as the daily games people return to do it.
 */

import { formatCountdown, formatSeconds } from './clock.js';
import { canShare, copyField, shareNative } from './copy.js';

const $ = (id) => document.getElementById(id);
const KEY = 'puzzled.daily.v1';
const SIZES = Object.freeze([3, 4, 5]);
const DAY_MS = 86400000;

export function utcDate(ms = Date.now())
{
    return new Date(ms).toISOString().slice(0, 10);
}

function load()
{
    try {
        const data = JSON.parse(localStorage.getItem(KEY) || '{}');
        return data && typeof data.days === 'object' && data.days ? data : { days: {} };
    } catch {
        return { days: {} };
    }
}

function store(data)
{
    try {
        localStorage.setItem(KEY, JSON.stringify(data));
    } catch {
        /* No storage: the stats last as long as the page. */
    }
}

function dayBefore(date)
{
    return utcDate(Date.parse(`${date}T00:00:00Z`) - DAY_MS);
}

/* { current, best }: days in a row with at least one board finished. A
   frozen day (one missed day a week, kept by a streak freeze) carries the
   streak over without adding to it. */
export function streaks(days, today, frozen = [])
{
    const played = new Set(Object.keys(days).filter((d) => Object.keys(days[d]).length > 0));
    const kept = new Set(frozen);
    let current = 0;
    let day = played.has(today) ? today : dayBefore(today);
    while (played.has(day) || (kept.has(day) && played.has(dayBefore(day)))) {
        if (played.has(day))
            current += 1;
        day = dayBefore(day);
    }
    let best = 0;
    let run = 0;
    let last = null;
    for (const d of [...played].sort()) {
        const next = last && (dayBefore(d) === last || (kept.has(dayBefore(d)) && dayBefore(dayBefore(d)) === last));
        run = next ? run + 1 : 1;
        best = Math.max(best, run);
        last = d;
    }
    return { current, best: Math.max(best, current) };
}

/*
 * Streak care: a streak that missed only yesterday is kept by a streak
 * freeze, one a week (none used in the 7 days before). Returns the day
 * frozen now, or null. Frozen days are kept in data.freezes.
 */
export function freezeIfNeeded(data, today)
{
    const played = (d) => Boolean(data.days[d]) && Object.keys(data.days[d]).length > 0;
    const yesterday = dayBefore(today);
    const freezes = data.freezes || [];
    if (played(yesterday) || !played(dayBefore(yesterday)) || freezes.includes(yesterday))
        return null;
    const weekAgo = utcDate(Date.parse(`${yesterday}T00:00:00Z`) - 7 * DAY_MS);
    if (freezes.some((d) => d > weekAgo && d < yesterday))
        return null;
    data.freezes = [...freezes, yesterday];
    return yesterday;
}

/* Day 1 of the daily puzzle; a day's number counts from it. */
const FIRST_DAY = '2026-01-01';

/* The daily's number for date ("2026-12-07": 341), as players post it. */
export function dayNumber(date)
{
    return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${FIRST_DAY}T00:00:00Z`)) / DAY_MS) + 1;
}

/* Efficiency (par ÷ moves) as five squares: 🟩 each fifth reached, ⬜ the
   rest; a run at par is all green. */
export function efficiencyBar(moves, par)
{
    const fifths = Math.max(0, Math.min(5, Math.round((par / Math.max(1, moves)) * 5)));
    return '🟩'.repeat(fifths) + '⬜'.repeat(5 - fifths);
}

/* "puzzled #338 · 2026-12-04 · 3×3 · 26/24 · ★★☆ · 0:41 · 🟩🟩🟩🟩🟩":
   no moves, no board. */
export function shareLine(date, size, r)
{
    const stars = '★'.repeat(r.stars) + '☆'.repeat(3 - r.stars);
    const par = `${r.exact ? '' : '≤'}${r.par}`;
    return `puzzled #${dayNumber(date)} · ${date} · ${size}×${size} · ${r.moves}/${par} · ${stars} · ` +
        `${formatSeconds(r.seconds)}${r.helped ? ' · helped' : ''} · ${efficiencyBar(r.moves, r.par)}`;
}

/* The link back to a day's board: the page opens that day's daily. */
export function dayLink(base, date, size = null)
{
    const url = new URL('/', base);
    url.search = `?daily=${date}${size ? `&size=${size}` : ''}`;
    return url.href;
}

export class Today {
    /* onPlay(size): play today's board of that size. */
    constructor({ onPlay })
    {
        this.onPlay = onPlay;
        this.data = load();
        /* A missed day is frozen at most once, on the visit after it. */
        this.frozeNow = freezeIfNeeded(this.data, utcDate());
        if (this.frozeNow)
            store(this.data);
        this.timer = 0;
        for (const button of document.querySelectorAll('#today-boards [data-size]'))
            button.addEventListener('click', () => this.onPlay(Number(button.dataset.size)));
        $('today-copy').addEventListener('click', () => this.copy());
        $('today-native-share').hidden = !canShare();
        $('today-native-share').addEventListener('click', () => this.share());
        this.render();
        this.tick();
        this.timer = setInterval(() => this.tick(), 1000);
    }

    /* A daily board finished: the first finish of the day is the one
       kept. Solver finishes are not the player's and are not kept. */
    record(r)
    {
        if (!r.daily || r.bySolver)
            return;
        const { date, size } = r.daily;
        const day = this.data.days[date] || (this.data.days[date] = {});
        if (!day[size]) {
            day[size] = {
                moves: r.moves, par: r.optimal, exact: Boolean(r.exact), stars: r.stars || 0,
                seconds: Math.floor(r.seconds), helped: Boolean(r.helped),
            };
            store(this.data);
        }
        this.render();
    }

    tick()
    {
        const now = Date.now();
        const today = utcDate(now);
        if (today !== this.shownDay)
            this.render();
        const next = Date.parse(`${today}T00:00:00Z`) + DAY_MS;
        $('today-next').textContent = formatCountdown((next - now) / 1000);
    }

    render()
    {
        const today = utcDate();
        this.shownDay = today;
        $('today-date').textContent = today;
        const day = this.data.days[today] || {};
        for (const size of SIZES) {
            const button = document.querySelector(`#today-boards [data-size="${size}"]`);
            const r = day[size];
            button.dataset.played = String(Boolean(r));
            const state = button.querySelector('.today-state');
            if (!r) {
                state.textContent = 'Not played yet';
                continue;
            }
            /* The stars are read out as words, not as "black star". */
            const stars = document.createElement('span');
            stars.setAttribute('aria-hidden', 'true');
            stars.textContent = `${'★'.repeat(r.stars)}${'☆'.repeat(3 - r.stars)}`;
            const words = document.createElement('span');
            words.className = 'visually-hidden';
            words.textContent = `${r.stars} of 3 stars`;
            state.replaceChildren(`✓ ${r.moves}/${r.exact ? '' : '≤'}${r.par} · `, stars, words);
        }
        this.renderStats(today);
        const lines = SIZES.filter((s) => day[s]).map((s) => shareLine(today, s, day[s]));
        $('today-share').hidden = lines.length === 0;
        const played = SIZES.filter((s) => day[s]);
        /* A link back to the day's board (the first size played, or the
           day's daily section when all three were). */
        const link = dayLink(location.href, today, played.length === 1 ? played[0] : null);
        $('today-share-text').value = lines.length ? [...lines, link].join('\n') : '';
        $('today-share-text').rows = lines.length + 1;
        $('today-played').hidden = lines.length === 0;
        $('today-played').textContent = lines.length === SIZES.length ?
            'All of today’s boards played. New ones at midnight UTC.' :
            `Played today: ${SIZES.filter((s) => day[s]).map((s) => `${s}×${s}`).join(', ')}.`;
    }

    renderStats(today)
    {
        const results = Object.values(this.data.days).flatMap((d) => Object.values(d));
        const { current, best } = streaks(this.data.days, today, this.data.freezes || []);
        this.remind(today, current);
        $('today-streak').textContent = String(current);
        $('today-best').textContent = String(best);
        $('today-count').textContent = String(results.length);
        const counts = [0, 1, 2, 3].map((n) => results.filter((r) => r.stars === n).length);
        const top = Math.max(1, ...counts);
        const list = $('today-dist');
        list.replaceChildren();
        counts.forEach((count, stars) => {
            const li = document.createElement('li');
            const label = document.createElement('span');
            label.className = 'dist-label';
            label.textContent = `${stars}★`;
            const bar = document.createElement('span');
            bar.className = 'dist-bar';
            bar.style.width = `${Math.max(4, Math.round((count / top) * 100))}%`;
            const n = document.createElement('span');
            n.className = 'dist-count';
            n.textContent = String(count);
            li.append(label, bar, n);
            li.setAttribute('aria-label', `${stars} star${stars === 1 ? '' : 's'}: ${count}`);
            list.append(li);
        });
    }

    /* A gentle word on return: the streak that today's board keeps going,
       and a freeze used for yesterday, if one was. */
    remind(today, current)
    {
        const playedToday = Boolean(this.data.days[today]) && Object.keys(this.data.days[today]).length > 0;
        const words = [];
        if (this.frozeNow && current > 0)
            words.push(`A streak freeze kept your ${current}-day streak: you missed ${this.frozeNow} ` +
                '(one freeze a week).');
        if (current > 0 && !playedToday)
            words.push(`Keep your ${current}-day streak going: one of today’s boards does it.`);
        $('today-reminder').textContent = words.join(' ');
        $('today-reminder').hidden = words.length === 0;
    }

    async copy()
    {
        const copied = await copyField($('today-share-text'));
        $('today-copied').textContent = copied ? 'Copied: paste it anywhere.' :
            'Selected: copy it with Ctrl+C (⌘C), or a long press.';
    }

    /* The phone's share sheet with the day's lines. */
    async share()
    {
        const said = await shareNative({ text: $('today-share-text').value });
        $('today-copied').textContent = said === 'failed' ? 'Sharing failed: use Copy instead.' : '';
    }
}
