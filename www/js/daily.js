/*
 * daily.js - the daily puzzle: today's board of each size (the same for
 * everyone, from GET /v1/daily/today/{size}), a button that plays it in
 * the game, its leaderboard, and the entry form the score card shows
 * when a daily board is finished. The server replays the moves and
 * counts them itself, and times the run itself: the player's first move
 * fetches a start token (POST .../start), the entry spends it, so the
 * page's clock and the server's agree to a round trip and the page
 * sends no time at all. The moment the board is solved the page sends
 * the moves (POST .../finish): the server's clock stops there, and the
 * nickname typed afterwards names the run by its token without adding
 * to its time (issue 45). A start that does not reach the server is
 * tried again in the background, and the page says so; a run no start
 * ever reached goes in untimed (ranked after every timed entry) rather
 * than being lost.
 *
 * Help is the page's to tell: hints or the solver on a daily board,
 * also before a Replay or a fresh start of the same board on this
 * device, mark the entry "assisted" (help: true); the server ranks
 * those after every unassisted entry. After entering, the player's own
 * row on the leaderboard is highlighted, and on any day they entered
 * (today's or the archive's) the day's answer brings where their entry
 * stands now, however far down ("You, as ada: #3 of 41 · top 8 %";
 * standing.js keeps it for the stats card).
 *
 * Nicknames come from other players: they are only ever put on the page
 * as text (textContent), never as markup.
 */

import { daily as fetchDaily, dailyEntry, dailyFinish, dailyStart } from './api.js';
import { fromApi } from './board.js';
import { formatSeconds } from './clock.js';
import {
    forgetStanding, keepStanding, standingFromDay, standingTitle, standingWords,
} from './standing.js';
import { mini } from './think.js';

const $ = (id) => document.getElementById(id);
const NICK_KEY = 'puzzled.nickname';
const RUN_KEY = 'puzzled.daily-run';         /* { key, token } under way */
const HELPED_KEY = 'puzzled.daily-helped';   /* ["date/size", ...] */
const ENTERED_KEY = 'puzzled.daily-entered'; /* { "date/size": nickname } */
const KEEP = 12;                             /* boards remembered */
const NICK_RE = /^[A-Za-z0-9_.-]([A-Za-z0-9 _.-]{0,22}[A-Za-z0-9_.-])?$/;
/* A start that did not reach the server is tried again after these
   waits (ms), the last one repeated, until one does or the board is
   solved. */
const START_RETRY_MS = [1000, 2000, 4000, 8000, 15000];

/* Worth trying again: no answer, or the server busy, limited or down
   for a moment; any other refusal would only be repeated. */
function transient(err)
{
    return !err.status || err.status === 429 || err.status >= 500;
}

/* An error's words without their closing full stop, to quote. */
const quoted = (err) => String(err.message || err).replace(/\.$/, '');

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
const DAY_MS = 86400000;

function utcDay(offset = 0)
{
    return new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
}

/* A past day whose leaderboard no longer takes entries (the server takes
   them on the day and the next, UTC): its board is played unranked. */
export function closedDay(date)
{
    return date < utcDay(-1);
}

export class Daily {
    /* onPlay(tiles, { date, size, par, exact }) starts the board. */
    constructor({ onPlay })
    {
        this.onPlay = onPlay;
        this.size = 3;
        this.date = 'today';   /* or a past day, from the archive */
        this.day = null;
        this.finished = null;
        this.loading = 0;
        for (const radio of document.querySelectorAll('input[name="daily-size"]'))
            radio.addEventListener('change', () => this.load(Number(radio.value)));
        $('daily-play').addEventListener('click', () => this.play());
        const pick = $('daily-day');
        pick.max = utcDay();
        pick.value = utcDay();
        pick.addEventListener('change', () => {
            if (/^\d{4}-\d{2}-\d{2}$/.test(pick.value) && pick.value <= utcDay())
                this.selectDay(pick.value);
        });
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
        this.solved = null;   /* the last daily run solved (finishRun) */
    }

    /* Says what the daily run's server clock is doing, under the status
       line, when it is not the usual ('' hides it). */
    noteRun(text)
    {
        $('daily-run-note').textContent = text;
        $('daily-run-note').hidden = !text;
    }

    /* The player's first move on a daily board: the server's clock
       starts. A start that does not reach the server is tried again in
       the background; the run goes on meanwhile. */
    startRun(d)
    {
        this.stopRun();
        this.noteRun('');
        /* An earlier run's token is no token of this one's after a reload. */
        writeJson(RUN_KEY, { key: keyOf(d), token: null });
        this.run = { key: keyOf(d), daily: d, token: null, tries: 0, pending: null, timer: 0, over: false };
        this.tryStart(this.run);
    }

    /* No more starts for the run under way (solved, or another begun). */
    stopRun()
    {
        if (!this.run)
            return;
        this.run.over = true;
        clearTimeout(this.run.timer);
    }

    /* One start; its promise (in run.pending while it is out) resolves
       to the token, or to null when it failed, never rejects. */
    tryStart(run)
    {
        run.timer = 0;
        const attempt = dailyStart(run.daily.date, run.daily.size).then((r) => {
            run.token = r.token;
            writeJson(RUN_KEY, { key: run.key, token: r.token });
            if (run.tries > 0 && run === this.run) {
                this.noteRun(`The server’s clock for this daily run started at try ${run.tries + 1}, ` +
                    'a little after your first move: its time for the run is that much shorter than yours.');
            }
            return r.token;
        }, (err) => {
            run.tries += 1;
            const again = transient(err) && !run.over;
            if (again) {
                const wait = START_RETRY_MS[Math.min(run.tries, START_RETRY_MS.length) - 1];
                run.timer = setTimeout(() => this.tryStart(run), wait);
            }
            if (run === this.run && !run.over) {
                this.noteRun(again ?
                    `The daily’s clock could not be started on the server (${quoted(err)}). ` +
                    'Trying again in the background; play on, your run is kept and will be entered either way.' :
                    `The daily’s clock could not be started on the server: ${err.message} ` +
                    'Play on: your run can still be entered, untimed.');
            }
            return null;
        });
        run.pending = attempt;
        attempt.then(() => {
            if (run.pending === attempt)
                run.pending = null;
        });
    }

    /* A game put back after a reload keeps its run's token: the
       server's clock went on meanwhile, as the page's did. A run whose
       start never answered starts again (moves: those played). */
    resumeRun(d, moves = 0)
    {
        const saved = readJson(RUN_KEY, null);
        this.stopRun();
        this.run = null;
        if (saved && saved.key === keyOf(d) && saved.token) {
            this.run = { key: saved.key, daily: d, token: saved.token, tries: 0, pending: null,
                timer: 0, over: false };
        } else if (moves > 0) {
            this.startRun(d);
        }
    }

    /* The board is solved (the player's own moves): the server's clock
       for the run stops now, whatever the nickname takes to type. The
       entry the score card offers waits on this. */
    finishRun(d, moves, helpedNow)
    {
        const run = this.run && this.run.key === keyOf(d) ? this.run : null;
        this.stopRun();
        const entry = {
            daily: d, moves, help: helpedNow || this.helpedBefore(d), run,
            token: null, finish: null, untimed: false, error: null,
        };
        entry.done = this.finishEntry(entry);
        this.solved = entry;
    }

    async finishEntry(entry)
    {
        /* A start still out is waited for; none ever answered: untimed. */
        const token = entry.run ? entry.run.token || await entry.run.pending : null;
        if (!token) {
            entry.untimed = true;
            return;
        }
        entry.token = token;
        await this.sendFinish(entry);
    }

    /* POST .../finish; a failure is kept for the entry to report. A
       token the server refuses (forgotten, expired) leaves the run to go
       in untimed. */
    async sendFinish(entry)
    {
        try {
            entry.finish = await dailyFinish(entry.daily.date, entry.daily.size,
                { moves: entry.moves, token: entry.token, help: entry.help });
            entry.error = null;
        } catch (err) {
            entry.error = err;
            if (err.status === 409 && err.problem?.pointer === '/token')
                entry.untimed = true;
        }
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

    /* The boards entered from this device, oldest first:
       [{ date, size, nickname }]. */
    enteredBoards()
    {
        const entered = readJson(ENTERED_KEY, {});
        return Object.entries(entered && typeof entered === 'object' ? entered : {})
            .map(([key, nickname]) => {
                const [date, size] = key.split('/');
                return { date, size: Number(size), nickname: String(nickname) };
            })
            .filter((b) => /^\d{4}-\d{2}-\d{2}$/.test(b.date) && [3, 4, 5].includes(b.size) && b.nickname);
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
        /* The player's entry on this board, if they made one: the answer
           brings where it stands now. */
        const date = this.date === 'today' ? utcDay() : this.date;
        const nickname = this.enteredAs({ date, size });
        let day;
        try {
            day = await fetchDaily(this.date, size, { nickname });
        } catch (err) {
            if (token !== this.loading)
                return;
            this.day = null;
            this.say(err.unreachable ? 'The daily puzzle waits for the puzzled server, ' +
                'which cannot be reached now; it comes back with the server. ' +
                'Practice levels play offline meanwhile.' : err.message, 'error');
            return;
        }
        if (token !== this.loading)
            return;
        if (nickname && day.date === date)
            keepStanding(day.date, size, nickname, day);
        this.day = day;
        this.show(this.day);
        $('daily-play').disabled = false;
    }

    show(day)
    {
        const n = `${day.size}×${day.size}`;
        $('daily-date').textContent = day.date;
        const today = day.date === utcDay();
        $('daily-play').textContent = today ? `Play today’s ${n}` : `Play the ${n} of ${day.date}`;
        $('daily-archive-note').hidden = !closedDay(day.date);
        $('daily-info').textContent = `${day.date} (UTC) · ${n} · par ` +
            `${day.par_optimal ? '' : '≤ '}${day.par}` +
            (day.par_optimal ? ' (the fewest possible)' : ' (the shortest route known)');
        $('daily-board').replaceChildren(mini(fromApi(day.board), 'mini-large'));
        this.showLeaders(day);
        this.showStanding(day);
    }

    /* Where the player's entry of this day stands now, when they made
       one from this device. */
    showStanding(day)
    {
        const line = $('daily-standing');
        const nickname = this.enteredAs(day);
        line.hidden = !nickname;
        if (!nickname)
            return;
        const value = standingFromDay(day);
        line.textContent = value.kind === 'ranked' ? `You, as ${nickname}: ${standingWords(value, nickname)}` :
            standingWords(value, nickname);
        line.title = standingTitle(value);
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
            stats.textContent = `${e.moves} moves · ${e.untimed ? 'untimed' : formatSeconds(e.time_ms / 1000)}`;
            li.append(name, stats);
            if (e.untimed) {
                const mark = document.createElement('span');
                mark.className = 'daily-help';
                mark.textContent = 'untimed';
                mark.title = 'No start of this run reached the server: it ranks after every timed one.';
                li.append(mark);
            }
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
       assisted, and ranks after every unassisted entry. The run was
       finished on the server when it was solved (finishRun); the card
       says what the server made of it once it has answered. */
    offer(r)
    {
        const own = Boolean(r.daily) && !r.bySolver;
        $('daily-entry').hidden = !r.daily;
        let entry = null;
        if (own) {
            const solved = this.solved;
            entry = solved && keyOf(solved.daily) === keyOf(r.daily) &&
                solved.moves.length === r.moveList.length ? solved :
                { daily: r.daily, moves: r.moveList, help: r.helped || this.helpedBefore(r.daily),
                    run: null, token: null, finish: null, untimed: true, error: null,
                    done: Promise.resolve() };
        }
        this.finished = entry;
        $('daily-nick').disabled = !own;
        $('daily-submit').disabled = !own;
        if (!r.daily)
            return;
        if (!own) {
            $('daily-entry-message').textContent = 'The leaderboard is for boards you finish yourself.';
            return;
        }
        this.describe(entry, r);
        entry.done.then(() => {
            if (this.finished === entry)
                this.describe(entry, r);
        });
    }

    /* The card's words for entry (of result r), as far as the server
       has answered. */
    describe(entry, r)
    {
        const n = `${r.daily.size}×${r.daily.size}`;
        let words = `Enter your ${r.moves} moves on the ${r.daily.date} ${n} leaderboard: `;
        if (entry.finish) {
            words += 'the server replayed them and timed your run at ' +
                `${formatSeconds(entry.finish.time_ms / 1000)}, from your first move to your last; ` +
                'typing a nickname adds nothing.';
        } else if (entry.untimed) {
            words += 'no start of this run reached the server, so it goes in untimed, after every ' +
                `timed entry${entry.error ? ` (${quoted(entry.error)})` : ''}.`;
        } else if (entry.error && entry.error.status) {
            words += `the server did not take the finished run: ${entry.error.message}`;
        } else if (entry.error) {
            words += `the finished run has not reached the server yet (${quoted(entry.error)}); ` +
                'entering sends it again.';
        } else {
            words += 'the server replays them to check and times the run from your first move to your last.';
        }
        $('daily-entry-message').textContent = entry.help ? `${words} ${this.whyAssisted(r)}` : words;
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
        $('daily-submit').disabled = true;
        try {
            await entry.done;
            /* The finish never arrived: sent again now (a lost answer
               gets the first finish's time back). */
            if (!entry.untimed && !entry.finish) {
                entry.done = this.sendFinish(entry);
                await entry.done;
            }
            if (!entry.untimed && !entry.finish)
                throw entry.error;
            const body = entry.untimed ?
                { nickname: nick, moves: entry.moves, help: entry.help, untimed: true } :
                { nickname: nick, token: entry.token };
            const placed = await dailyEntry(entry.daily.date, entry.daily.size, body);
            keepNick(nick);
            this.rememberEntered(entry.daily, placed.best.nickname);
            forgetStanding(entry.daily.date, entry.daily.size);
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
        const timed = p.untimed ? `${p.moves} moves, untimed (after every timed entry)` :
            `${p.moves} moves in ${formatSeconds(p.time_ms / 1000)} (the server’s clock)`;
        if (p.improved)
            return `You are number ${p.rank} of ${p.total_entries} on ${board}: ${timed}.`;
        return `Your earlier entry as ${p.best.nickname} (${p.best.moves} moves in ` +
            `${formatSeconds(p.best.time_ms / 1000)}) is better and stays, number ${p.rank} of ` +
            `${p.total_entries} on ${board}; this run: ${timed}.`;
    }

    /* A day of the archive ('today' or a past date): its boards and
       leaderboard; the board plays unranked once its entries closed. */
    selectDay(date)
    {
        this.date = date === utcDay() ? 'today' : date;
        $('daily-day').value = date === 'today' ? utcDay() : date;
        return this.load(this.size);
    }

    selectSize(size)
    {
        for (const radio of document.querySelectorAll('input[name="daily-size"]'))
            radio.checked = Number(radio.value) === size;
    }
}
