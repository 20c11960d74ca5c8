/*
 * daily.js - the daily puzzle: today's board of each size (the same for
 * everyone, from GET /v1/daily/today/{size}), a button that plays it in
 * the game, its leaderboard, and the entry form the score card shows
 * when a daily board is finished. The server replays the moves and
 * counts them itself; the page only sends what was played.
 *
 * Nicknames come from other players: they are only ever put on the page
 * as text (textContent), never as markup.
 */

import { daily as fetchDaily, dailyEntry } from './api.js';
import { fromApi } from './board.js';
import { formatSeconds } from './clock.js';
import { mini } from './think.js';

const $ = (id) => document.getElementById(id);
const NICK_KEY = 'puzzled.nickname';
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
       player finished a daily board themselves. */
    offer(r)
    {
        /* Watching the solver or a hint on the board keeps a run off the
           leaderboard: the server cannot tell (issue 31 defect 4), so
           the page does not enter helped runs as clean ones. */
        const own = Boolean(r.daily) && !r.bySolver && !r.helped;
        $('daily-entry').hidden = !r.daily;
        this.finished = own ?
            { daily: r.daily, moves: r.moveList, timeMs: r.seconds * 1000 } : null;
        $('daily-nick').disabled = !own;
        $('daily-submit').disabled = !own;
        if (!r.daily)
            return;
        const n = `${r.daily.size}×${r.daily.size}`;
        $('daily-entry-message').textContent = own ?
            `Enter your ${r.moves} moves on the ${r.daily.date} ${n} leaderboard: ` +
            'the server replays them to check.' : this.whyNot(r);
    }

    whyNot(r)
    {
        if (r.bySolver)
            return 'The leaderboard is for boards you finish yourself.';
        if (r.watched)
            return 'You watched the solver on this board, so this run stays off the ' +
                'leaderboard (it counts in your own stats, marked as helped).';
        return `You used ${r.hints} hint${r.hints === 1 ? '' : 's'}, so this run stays off the ` +
            'leaderboard (it counts in your own stats, marked as helped).';
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
            const placed = await dailyEntry(entry.daily.date, entry.daily.size,
                { nickname: nick, moves: entry.moves, timeMs: entry.timeMs });
            keepNick(nick);
            this.finished = null;
            out.textContent = `You are number ${placed.rank} of ${placed.total_entries} ` +
                `on the ${placed.date} ${placed.size}×${placed.size} board.`;
            this.say(`${placed.nickname}: ${placed.moves} moves, number ${placed.rank}.`, 'good');
            await this.load(entry.daily.size);
            this.selectSize(entry.daily.size);
        } catch (err) {
            out.textContent = err.message;
            $('daily-submit').disabled = false;
        }
    }

    selectSize(size)
    {
        for (const radio of document.querySelectorAll('input[name="daily-size"]'))
            radio.checked = Number(radio.value) === size;
    }
}
