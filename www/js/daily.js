/*
 * daily.js - the daily puzzle: today's board of each size (the same for
 * everyone, from GET /v1/daily/today/{size}), a button that plays it in
 * the game, its leaderboard, and the entry form the score card shows
 * when a daily board is finished. The server replays the moves and
 * counts them itself, and times the run itself: the player's first move
 * fetches a start token (POST .../start), the entry spends it, so the
 * page's clock and the server's agree to a round trip and the page
 * sends no time at all.
 *
 * Help is the page's to tell: hints or the solver on a daily board,
 * also before a Replay or a fresh start of the same board on this
 * device, mark the entry "assisted" (help: true); the server ranks
 * those after every unassisted entry. After entering, the player's own
 * row on the leaderboard is highlighted.
 *
 * Nicknames come from other players: they are only ever put on the page
 * as text (textContent), never as markup.
 */

import { daily as fetchDaily, dailyEntry, dailyStart } from './api.js';
import { fromApi } from './board.js';
import { formatSeconds } from './clock.js';
import { mini } from './think.js';

const $ = (id) => document.getElementById(id);
const NICK_KEY = 'puzzled.nickname';
const RUN_KEY = 'puzzled.daily-run';         /* { key, token } under way */
const HELPED_KEY = 'puzzled.daily-helped';   /* ["date/size", ...] */
const ENTERED_KEY = 'puzzled.daily-entered'; /* { "date/size": nickname } */
const KEEP = 12;                             /* boards remembered */
const NICK_RE = /^[A-Za-z0-9_.-]([A-Za-z0-9 _.-]{0,22}[A-Za-z0-9_.-])?$/;

function storedNick()
{
    try {
        return localStorage.getItem(NICK_KEY) || '';
    } catch {
        return '';
    }
}

function keepNick(nick)
{
    try {
        localStorage.setItem(NICK_KEY, nick);
    } catch {
        /* No storage: the player types it again next time. */
    }
}

function readJson(key, fallback)
{
    try {
        return JSON.parse(localStorage.getItem(key)) ?? fallback;
    } catch {
        return fallback;
    }
}

function writeJson(key, value)
{
    try {
        localStorage.setItem(key, JSON.stringify(value));
    } catch {
        /* No storage: this page still knows, a reload forgets. */
    }
}

const keyOf = (d) => `${d.date}/${d.size}`;

export class Daily {
    /* onPlay(tiles, { date, size, par, exact }) starts the board. */
    constructor({ onPlay })
    {
        this.onPlay = onPlay;
        this.size = 3;
        this.day = null;
        this.finished = null;
        this.loading = 0;
        for (const radio of document.querySelectorAll('input[name="daily-size"]'))
            radio.addEventListener('change', () => this.load(Number(radio.value)));
        $('daily-play').addEventListener('click', () => this.play());
        $('daily-submit').addEventListener('click', () => this.submit());
        $('daily-nick').addEventListener('keydown', (e) => {
            /* Enter would submit the score card's form and close it. */
            if (e.key === 'Enter') {
                e.preventDefault();
                this.submit();
            }
        });
        $('daily-nick').value = storedNick();
        this.run = null;
    }

    /* The player's first move on a daily board: the server's clock
       starts. A failure is kept for the entry to report. */
    startRun(d)
    {
        const key = keyOf(d);
        const token = dailyStart(d.date, d.size).then((r) => {
            writeJson(RUN_KEY, { key, token: r.token });
            return r.token;
        });
        token.catch(() => {});
        this.run = { key, token };
    }

    /* A game put back after a reload keeps its run's token: the
       server's clock went on meanwhile, as the page's did. */
    resumeRun(d)
    {
        const saved = readJson(RUN_KEY, null);
        if (saved && saved.key === keyOf(d))
            this.run = { key: saved.key, token: Promise.resolve(saved.token) };
    }

    /* Hints or the solver on a daily board: any run of it from this
       device is assisted, after a Replay or a fresh start too. */
    markHelped(d)
    {
        const list = readJson(HELPED_KEY, []);
        if (Array.isArray(list) && !list.includes(keyOf(d)))
            writeJson(HELPED_KEY, [...list, keyOf(d)].slice(-KEEP));
    }

    helpedBefore(d)
    {
        const list = readJson(HELPED_KEY, []);
        return Array.isArray(list) && list.includes(keyOf(d));
    }

    enteredAs(day)
    {
        const entered = readJson(ENTERED_KEY, {});
        return entered && typeof entered === 'object' ? entered[keyOf(day)] || '' : '';
    }

    rememberEntered(d, nickname)
    {
        const entered = readJson(ENTERED_KEY, {});
        const kept = Object.entries(entered && typeof entered === 'object' ? entered : {})
            .filter(([key]) => key !== keyOf(d)).slice(-(KEEP - 1));
        writeJson(ENTERED_KEY, Object.fromEntries([...kept, [keyOf(d), nickname]]));
    }

    say(text, tone = '')
    {
        $('daily-message').textContent = text;
        $('daily-message').dataset.tone = tone;
    }

    async load(size = this.size)
    {
        /* Only the last size asked for may show: a slow 5×5 answering
           after the player went back to 3×3 is dropped. */
        const token = ++this.loading;
        this.size = size;
        $('daily-play').disabled = true;
        let day;
        try {
            day = await fetchDaily('today', size);
        } catch (err) {
            if (token !== this.loading)
                return;
            this.day = null;
            this.say(err.message, 'error');
            return;
        }
        if (token !== this.loading)
            return;
        this.day = day;
        this.show(this.day);
        $('daily-play').disabled = false;
    }

    show(day)
    {
        const n = `${day.size}×${day.size}`;
        $('daily-date').textContent = day.date;
        $('daily-play').textContent = `Play today’s ${n}`;
        $('daily-info').textContent = `${day.date} (UTC) · ${n} · par ` +
            `${day.par_optimal ? '' : '≤ '}${day.par}` +
            (day.par_optimal ? ' (the fewest possible)' : ' (the shortest route known)');
        $('daily-board').replaceChildren(mini(fromApi(day.board), 'mini-large'));
        this.showLeaders(day);
    }

    showLeaders(day)
    {
        const list = $('daily-leaders');
        const mine = this.enteredAs(day).toLowerCase();
        list.replaceChildren();
        for (const e of day.entries) {
            const li = document.createElement('li');
            const name = document.createElement('span');
            name.className = 'daily-nick';
            name.textContent = e.nickname;
            const stats = document.createElement('span');
            stats.className = 'daily-stats';
            stats.textContent = `${e.moves} moves · ${formatSeconds(e.time_ms / 1000)}`;
            li.append(name, stats);
            if (e.help) {
                const mark = document.createElement('span');
                mark.className = 'daily-help';
                mark.textContent = 'assisted';
                mark.title = 'Hints or the solver helped this run: it ranks after every unassisted one.';
                li.append(mark);
            }
            if (mine && e.nickname.toLowerCase() === mine) {
                const you = document.createElement('span');
                you.className = 'daily-you';
                you.textContent = 'you';
                li.append(you);
                li.classList.add('daily-mine');
                li.setAttribute('aria-current', 'true');
            }
            li.value = e.rank;
            list.append(li);
        }
        $('daily-empty').hidden = day.entries.length > 0;
        $('daily-empty').textContent = day.leaderboard ? 'No entries yet: be the first.' :
            'This server keeps no leaderboard.';
        $('daily-total').textContent = day.total_entries > day.entries.length ?
            `Top ${day.entries.length} of ${day.total_entries}.` : '';
    }

    play()
    {
        if (!this.day)
            return;
        const d = this.day;
        this.onPlay(fromApi(d.board), { date: d.date, size: d.size, par: d.par, exact: d.par_optimal });
    }

    /* The score card is about to show result r: offer the entry when the
       player finished a daily board themselves; with help (hints, the
       solver, now or before a Replay on this device) it goes in marked
       assisted, and ranks after every unassisted entry. */
    offer(r)
    {
        const own = Boolean(r.daily) && !r.bySolver;
        const help = own && (r.helped || this.helpedBefore(r.daily));
        $('daily-entry').hidden = !r.daily;
        this.finished = own ? { daily: r.daily, moves: r.moveList, help, run: this.run } : null;
        $('daily-nick').disabled = !own;
        $('daily-submit').disabled = !own;
        if (!r.daily)
            return;
        const n = `${r.daily.size}×${r.daily.size}`;
        const words = `Enter your ${r.moves} moves on the ${r.daily.date} ${n} leaderboard: ` +
            'the server replays them to check and times the run from your first move.';
        $('daily-entry-message').textContent = !own ?
            'The leaderboard is for boards you finish yourself.' :
            help ? `${words} ${this.whyAssisted(r)}` : words;
    }

    whyAssisted(r)
    {
        const why = r.watched ? 'you watched the solver on this board' :
            r.hints > 0 ? `you used ${r.hints} hint${r.hints === 1 ? '' : 's'}` :
                'you had help on this board earlier';
        return `It goes in marked assisted (${why}), after every unassisted entry.`;
    }

    async submit()
    {
        const entry = this.finished;
        const nick = $('daily-nick').value.trim();
        const out = $('daily-entry-message');
        if (!entry)
            return;
        if (!NICK_RE.test(nick)) {
            out.textContent = 'A nickname is 1 to 24 letters, digits, spaces, _ - or .';
            $('daily-nick').focus();
            return;
        }
        if (!entry.run || entry.run.key !== keyOf(entry.daily)) {
            out.textContent = 'This run has no start from the server, so it cannot be timed: ' +
                'play the board again.';
            return;
        }
        $('daily-submit').disabled = true;
        try {
            const token = await entry.run.token;
            const placed = await dailyEntry(entry.daily.date, entry.daily.size,
                { nickname: nick, moves: entry.moves, token, help: entry.help });
            keepNick(nick);
            this.rememberEntered(entry.daily, placed.best.nickname);
            this.finished = null;
            out.textContent = this.placedWords(placed);
            this.say(`${placed.best.nickname}: ${placed.best.moves} moves, number ${placed.rank}.`, 'good');
            await this.load(entry.daily.size);
            this.selectSize(entry.daily.size);
        } catch (err) {
            out.textContent = err.message;
            $('daily-submit').disabled = false;
        }
    }

    placedWords(p)
    {
        const board = `the ${p.date} ${p.size}×${p.size} board`;
        const timed = `${p.moves} moves in ${formatSeconds(p.time_ms / 1000)} (the server’s clock)`;
        if (p.improved)
            return `You are number ${p.rank} of ${p.total_entries} on ${board}: ${timed}.`;
        return `Your earlier entry as ${p.best.nickname} (${p.best.moves} moves in ` +
            `${formatSeconds(p.best.time_ms / 1000)}) is better and stays, number ${p.rank} of ` +
            `${p.total_entries} on ${board}; this run: ${timed}.`;
    }

    selectSize(size)
    {
        for (const radio of document.querySelectorAll('input[name="daily-size"]'))
            radio.checked = Number(radio.value) === size;
    }
}
