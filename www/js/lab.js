/*
 * lab.js - "Paste a board": solve any board with a chosen algorithm and
 * heuristic, and keep every run in a table so that they can be compared
 * side by side (misplaced vs Manhattan vs pattern databases, A* vs IDA* vs
 * BFS…). Runs go one at a time, so a comparison never floods the server.
 */

import { solve } from './api.js';
import { JobView, isLongSolve, solveAsJob } from './jobs.js';
import { parseBoard, sizeOf, tileForMove, applyMove, opposite } from './board.js';
import {
    ALGORITHMS, BLIND, HEURISTICS, algorithmName, algorithmsFor, appliesTo,
    heuristicInline, heuristicName, heuristicsFor, loadCatalog, plural,
} from './catalog.js';
import { formatCount, formatMicros } from './score-card.js';

const $ = (id) => document.getElementById(id);
const ARROW = Object.freeze({ up: '↑', down: '↓', left: '←', right: '→' });
const PATH_SHOWN = 80;

const STATUS_TEXT = Object.freeze({
    solved: 'solved',
    unsolvable: 'cannot be solved',
    limit_nodes: 'node budget reached',
    limit_memory: 'server memory cap reached',
    limit_depth: 'depth limit reached',
    timeout: 'time budget reached',
    cancelled: 'cancelled',
});

function fillSelect(select, entries, defaultName)
{
    select.replaceChildren();
    const first = document.createElement('option');
    first.value = '';
    first.textContent = defaultName;
    select.append(first);
    for (const entry of entries) {
        const option = document.createElement('option');
        option.value = entry.id;
        option.textContent = entry.name;
        option.title = entry.about;
        select.append(option);
    }
}

function formatBytes(n)
{
    if (!Number.isFinite(n))
        return '–';
    if (n < 1024)
        return `${n} B`;
    if (n < 1024 * 1024)
        return `${(n / 1024).toFixed(1)} KiB`;
    return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function compactBoard(tiles)
{
    const size = sizeOf(tiles);
    const rows = [];
    for (let r = 0; r < size; r++)
        rows.push(tiles.slice(r * size, (r + 1) * size).join(' '));
    return rows.join(' / ');
}

/* "1← 4↑ 7→": each tile that slides, and which way it goes. */
function describePath(tiles, moves)
{
    const words = [];
    let board = tiles;
    for (const move of moves.slice(0, PATH_SHOWN)) {
        words.push(`${tileForMove(board, move)}${ARROW[opposite(move)]}`);
        board = applyMove(board, move) || board;
    }
    if (moves.length > PATH_SHOWN)
        words.push(`… ${moves.length - PATH_SHOWN} more`);
    return words.join(' ');
}

function cell(text, className = '')
{
    const td = document.createElement('td');
    td.textContent = text;
    if (className)
        td.className = className;
    return td;
}

function statusCell(result)
{
    const td = document.createElement('td');
    const tag = document.createElement('span');
    const solved = result.status === 'solved';
    tag.className = `tag ${solved ? (result.optimal ? 'ok' : 'warn') : 'bad'}`;
    /* Not proven optimal is all we know: the route may well be shortest. */
    tag.textContent = solved ? (result.optimal ? 'optimal' : 'solved, not proven optimal') :
        STATUS_TEXT[result.status] || result.status;
    td.append(tag);
    return td;
}

/* What a chart's bars are, per algorithm: the server counts every
   best-first search by f = g + h, whatever order it expands in. */
const LAYER_TEXT = Object.freeze({
    astar: 'boards expanded per f = g + h layer',
    bnb: 'boards expanded per f = g + h layer',
    idastar: 'boards expanded per iteration (bound f)',
    greedy: 'boards expanded, grouped by their f = g + h (greedy picks by h alone, so ' +
        'it wanders over many f values)',
    wastar: 'boards expanded, grouped by their f = g + h (weighted A* picks by g + w·h)',
});

/* Why a run has no chart, true of that run (issue 45 defect 8: BFS, DFS
   and constructive runs were told it was a job's or a table's doing). */
function noChartReason(result)
{
    const name = algorithmName(result.algorithm);
    if (result.status === 'cancelled')
        return 'No chart: the run was cancelled.';
    if (result.algorithm === 'constructive')
        return `No chart: the ${name.toLowerCase()} solver places the tiles by rule, one row and ` +
            'column at a time, without a search to count.';
    if (BLIND.has(result.algorithm))
        return `No chart: ${name.toLowerCase()} search uses no heuristic, so there are no ` +
            'f = g + h layers to group its boards by.';
    if (result.viaJob)
        return 'No chart: this run went through a server job (a long solve), and jobs keep no per-layer counts.';
    if (result.algorithm === 'idastar' && result.heuristic === 'pdb')
        return 'No chart: IDA* with pattern databases keeps no per-iteration counts.';
    return 'No chart: the server sent no per-layer counts for this run.';
}

const SVG = 'http://www.w3.org/2000/svg';

function text(tag, content, className = '')
{
    const el = document.createElement(tag);
    el.textContent = content;
    if (className)
        el.className = className;
    return el;
}

/* One chart's bars, on a log scale up to `max` (shared by the board). */
function drawBars(fig, layers, max)
{
    const W = 280, H = 90, gap = 2;
    const bw = Math.max(2, Math.floor((W - gap * layers.length) / layers.length));
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${W} ${H + 16}`);
    svg.setAttribute('role', 'img');
    const caption = fig.querySelector('figcaption').textContent;
    svg.setAttribute('aria-label', `${caption}: ` + layers.map((l) =>
        `f ${l.f}: ${formatCount(l.expanded)}`).join(', '));
    let tallest = 0;
    layers.forEach((l, i) => {
        const h = Math.max(1, Math.round((Math.log10(l.expanded + 1) / Math.log10(max + 1)) * H));
        tallest = Math.max(tallest, h);
        const rect = document.createElementNS(SVG, 'rect');
        rect.setAttribute('x', String(i * (bw + gap)));
        rect.setAttribute('y', String(H - h));
        rect.setAttribute('width', String(bw));
        rect.setAttribute('height', String(h));
        rect.setAttribute('class', 'effort-bar');
        const title = document.createElementNS(SVG, 'title');
        title.textContent = `f ${l.f}: ${formatCount(l.expanded)} boards`;
        rect.append(title);
        svg.append(rect);
    });
    for (const [i, anchor] of [[0, 'start'], [layers.length - 1, 'end']]) {
        const t = document.createElementNS(SVG, 'text');
        t.setAttribute('x', String(anchor === 'start' ? 0 : Math.min(W, layers.length * (bw + gap))));
        t.setAttribute('y', String(H + 13));
        t.setAttribute('text-anchor', anchor);
        t.setAttribute('class', 'effort-label');
        t.textContent = `f ${layers[i].f}`;
        svg.append(t);
    }
    fig.dataset.tallest = String(tallest);
    fig.querySelector('svg').replaceWith(svg);
    const total = layers.reduce((sum, l) => sum + l.expanded, 0);
    fig.querySelector('.effort-note').textContent = `${formatCount(total)} in all · ` +
        `tallest layer ${formatCount(Math.max(...layers.map((l) => l.expanded)))} · ` +
        `log scale shared by this board's runs (top: ${formatCount(max)})`;
}

export class Lab {
    /* handlers: onPlay(tiles), onWatch(tiles) */
    constructor(handlers)
    {
        this.handlers = handlers;
        this.input = $('lab-input');
        this.goalInput = $('lab-goal');
        this.algorithm = $('lab-algorithm');
        this.heuristic = $('lab-heuristic');
        this.message = $('lab-message');
        this.body = $('lab-runs').querySelector('tbody');
        this.running = false;
        this.runs = [];
        /* Each chart's figure -> its layers, to redraw on a common scale. */
        this.charts = new Map();
        /* Options the server said it does not offer (learnt from a 422). */
        this.unavailable = new Set();
        this.wire();
        /* The lists come from the server's /v1/catalog; until then (or if
           it cannot be read) only "Server default" is offered. */
        fillSelect(this.algorithm, [], 'Server default');
        fillSelect(this.heuristic, [], 'Server default');
        this.ready = loadCatalog().then(() => {
            fillSelect(this.algorithm, ALGORITHMS, 'Server default');
            fillSelect(this.heuristic, HEURISTICS, 'Server default');
            this.refreshOptions();
        }).catch((err) => this.say(`The list of algorithms could not be loaded: ${err.message}`, 'error'));
        this.refreshOptions();
    }

    wire()
    {
        $('lab-form').addEventListener('submit', (event) => {
            event.preventDefault();
            this.runAll([{ algorithm: this.algorithm.value, heuristic: this.heuristic.value }]);
        });
        $('lab-compare-h').addEventListener('click', () => this.compareHeuristics());
        $('lab-compare-a').addEventListener('click', () => this.compareAlgorithms());
        $('lab-play').addEventListener('click', () => this.hand(this.handlers.onPlay));
        $('lab-watch').addEventListener('click', () => this.hand(this.handlers.onWatch));
        $('lab-clear').addEventListener('click', () => this.clear());
        this.input.addEventListener('input', () => this.refreshOptions());
        window.addEventListener('resize', () => this.showScrollHint());
        this.algorithm.addEventListener('change', () => this.refreshOptions());
    }

    /* The size typed so far, or 0 while it is not a square yet. */
    typedSize()
    {
        try {
            return sizeOf(parseBoard(this.input.value));
        } catch {
            return 0;
        }
    }

    /* Greys out choices that do not apply to this board or algorithm. */
    refreshOptions()
    {
        const size = this.typedSize();
        for (const option of this.algorithm.options) {
            const entry = ALGORITHMS.find((a) => a.id === option.value);
            option.disabled = Boolean(entry && size && !appliesTo(entry, size)) ||
                this.isUnavailable(option.value);
        }
        for (const option of this.heuristic.options) {
            const entry = HEURISTICS.find((h) => h.id === option.value);
            option.disabled = Boolean(entry && size && !appliesTo(entry, size)) ||
                this.isUnavailable(option.value);
        }
        this.heuristic.disabled = BLIND.has(this.algorithm.value);
        for (const select of [this.algorithm, this.heuristic]) {
            if (select.selectedOptions[0] && select.selectedOptions[0].disabled)
                select.value = '';
        }
    }

    /* Whether the server has said it does not offer this option. */
    isUnavailable(id)
    {
        return Boolean(id) && this.unavailable.has(id);
    }

    readBoard()
    {
        try {
            return parseBoard(this.input.value);
        } catch (err) {
            this.say(err.message, 'error');
            this.input.focus();
            return null;
        }
    }

    /* The goal typed, null for the usual one, or undefined if it is wrong. */
    readGoal(tiles)
    {
        if (!this.goalInput.value.trim())
            return null;
        try {
            const goal = parseBoard(this.goalInput.value);
            if (goal.length !== tiles.length)
                throw new Error(`The goal has ${goal.length} cells and the board ${tiles.length}.`);
            return goal;
        } catch (err) {
            this.say(`Goal: ${err.message}`, 'error');
            this.goalInput.focus();
            return undefined;
        }
    }

    /* Gives the board to the game; an unplayable one is explained here. */
    async hand(handler)
    {
        const tiles = this.readBoard();
        if (!tiles)
            return;
        const goal = this.readGoal(tiles);
        if (goal === undefined)
            return;
        this.say('Checking the board…');
        try {
            await handler(tiles, goal);
            this.say('');
        } catch (err) {
            this.say(err.message, 'error');
        }
    }

    async compareHeuristics()
    {
        await this.ready;   /* the lists come from /v1/catalog */
        const tiles = this.readBoard();
        if (!tiles)
            return;
        const chosen = this.algorithm.value;
        const algorithm = chosen && !BLIND.has(chosen) ? chosen : 'astar';
        this.runAll(heuristicsFor(sizeOf(tiles)).filter((h) => !this.isUnavailable(h.id))
            .map((h) => ({ algorithm, heuristic: h.id })));
    }

    /*
     * On 3×3 the server's default heuristic is the exact distance table:
     * with it every informed search walks straight to the goal, and the
     * comparison shows nothing. So the comparison uses the heuristic
     * chosen, or else Manhattan distance, and says so.
     */
    async compareAlgorithms()
    {
        await this.ready;
        const tiles = this.readBoard();
        if (!tiles)
            return;
        const heuristic = this.heuristic.value || 'manhattan';
        const note = this.heuristic.value ? '' :
            `Compared with ${heuristicInline(heuristic)} (an exact table would make every ` +
            'algorithm walk straight to the goal). Pick another heuristic above to compare with it.';
        this.runAll(algorithmsFor(sizeOf(tiles)).filter((a) => !this.isUnavailable(a.id)).map((a) => ({
            algorithm: a.id,
            heuristic: BLIND.has(a.id) ? '' : heuristic,
        })), note);
    }

    limits()
    {
        const limits = {};
        const nodes = Number($('lab-max-nodes').value);
        const ms = Number($('lab-timeout').value);
        if (nodes > 0)
            limits.max_nodes = Math.floor(nodes);
        if (ms > 0)
            limits.timeout_ms = Math.floor(ms);
        return limits;
    }

    /* Runs each {algorithm, heuristic} in turn on the typed board. */
    async runAll(plans, note = '')
    {
        if (this.running)
            return;
        const tiles = this.readBoard();
        if (!tiles)
            return;
        const goal = this.readGoal(tiles);
        if (goal === undefined)
            return;
        this.setRunning(true);
        let last = null;
        try {
            for (let i = 0; i < plans.length; i++) {
                const plan = plans[i];
                this.say(plans.length > 1 ?
                    `Running ${i + 1} of ${plans.length}: ${algorithmName(plan.algorithm)}…` :
                    'Solving…');
                const result = await this.runOne(tiles, goal ? { ...plan, goal } : plan);
                if (result)
                    this.addRow(tiles, result);
                last = result || last;
            }
            if (last)
                this.summarise(tiles, last, plans.length, note);
        } catch (err) {
            this.say(err.message, 'error');
        } finally {
            this.setRunning(false);
        }
    }

    /*
     * One run. An option this server does not offer, or not for this board
     * (an "invalid-option" problem), skips that run; when the problem says
     * which field and lists what is allowed, the option is greyed out too.
     * Anything else, such as an unsolvable board, ends the comparison.
     */
    async runOne(tiles, plan)
    {
        try {
            const limits = this.limits();
            /* Long ones run as server jobs, with progress and Cancel. */
            if (isLongSolve(sizeOf(tiles), limits)) {
                const result = await solveAsJob(tiles, { ...plan, limits, effort: true },
                    new JobView(this.message, limits.timeout_ms));
                if (result)
                    result.viaJob = true;   /* jobs keep no per-layer counts */
                return result;
            }
            return await solve(tiles, { ...plan, limits, effort: true });
        } catch (err) {
            const problem = err.problem || {};
            if (!/\/invalid-option$/.test(problem.type || ''))
                throw err;
            if (problem.pointer === '/algorithm')
                this.learn(this.algorithm, problem.allowed);
            else if (problem.pointer === '/heuristic')
                this.learn(this.heuristic, problem.allowed);
            this.addSkipped(tiles, plan, err.message);
            return null;
        }
    }

    learn(select, allowed)
    {
        if (!Array.isArray(allowed))
            return;
        for (const option of select.options) {
            if (option.value && !allowed.includes(option.value))
                this.unavailable.add(option.value);
        }
        this.refreshOptions();
    }

    addSkipped(tiles, plan, why)
    {
        const tr = document.createElement('tr');
        tr.dataset.board = tiles.join(' ');
        tr.dataset.skipped = 'true';
        const status = document.createElement('td');
        const tag = document.createElement('span');
        tag.className = 'tag bad';
        tag.textContent = 'not available';
        tag.title = why;
        status.append(tag);
        const note = cell(why, 'muted');
        note.colSpan = 6;
        note.style.whiteSpace = 'normal';
        this.groupFor(tiles);
        tr.append(cell(algorithmName(plan.algorithm)),
            cell(plan.heuristic ? heuristicName(plan.heuristic) : '—'), status, note);
        this.body.append(tr);
        $('lab-empty').hidden = true;
    }

    setRunning(running)
    {
        this.running = running;
        for (const id of ['lab-solve', 'lab-compare-h', 'lab-compare-a'])
            $(id).disabled = running;
    }

    summarise(tiles, result, count, note = '')
    {
        if (count > 1) {
            this.say(`Done: ${count} runs added to the table below. The fewest boards expanded (among solved runs) is in green.` +
                (note ? ` ${note}` : ''), 'good');
            return;
        }
        if (result.status === 'limit_memory') {
            this.say('Stopped: the server\u2019s memory cap for one search was reached. ' +
                'Try a stronger heuristic, or IDA*, which needs almost no memory.');
            return;
        }
        if (result.status === 'cancelled') {
            this.say(`Cancelled, as you asked, after expanding ` +
                `${formatCount(result.stats && result.stats.expanded)} boards.`);
            return;
        }
        if (result.status !== 'solved') {
            this.say(`Stopped: ${STATUS_TEXT[result.status] || result.status} after expanding ` +
                `${formatCount(result.stats && result.stats.expanded)} boards. Raise the budget or pick a stronger heuristic.`);
            return;
        }
        const how = `${algorithmName(result.algorithm)}` +
            (result.heuristic && !BLIND.has(result.algorithm) ? ` with ${heuristicInline(result.heuristic)}` : '');
        const text = result.length === 0 ? 'This board is already solved.' :
            `Solved in ${plural(result.length, 'move')}${result.optimal ? ' (optimal)' : ''}. ${how} expanded ` +
            `${formatCount(result.stats.expanded)} boards in ${formatMicros(result.stats.time_us)}.`;
        this.say(text, 'good', result.length ? describePath(tiles, result.moves) : '');
    }

    say(text, kind = '', path = '')
    {
        this.message.textContent = text;
        this.message.className = kind ? `lab-message ${kind}` : 'lab-message';
        this.message.setAttribute('role', kind === 'error' ? 'alert' : 'status');
        if (path) {
            const span = document.createElement('span');
            span.className = 'path';
            span.textContent = `Slide: ${path}`;
            this.message.append(span);
        }
    }

    addRow(tiles, result)
    {
        this.runs.push({ board: tiles.join(' '), result });
        const s = result.stats || {};
        const tr = document.createElement('tr');
        tr.dataset.board = tiles.join(' ');
        tr.dataset.expanded = String(s.expanded);
        tr.dataset.solved = String(result.status === 'solved');
        this.groupFor(tiles);
        tr.append(
            cell(algorithmName(result.algorithm)),
            cell(BLIND.has(result.algorithm) ? '—' : heuristicName(result.heuristic)),
            statusCell(result),
            cell(result.status === 'solved' ? String(result.length) : '–', 'num'),
            cell(formatCount(s.expanded), 'num expanded'),
            cell(formatCount(s.generated), 'num'),
            cell(formatCount(s.max_frontier), 'num'),
            cell(formatBytes(s.arena_bytes), 'num'),
            cell(formatMicros(s.time_us), 'num'),
        );
        this.body.append(tr);
        $('lab-empty').hidden = true;
        this.markBest(tiles.join(' '));
        this.showScrollHint();
        this.addChart(result, tiles.join(' '));
    }

    /*
     * The effort chart: one small bar chart per run, expansions per f
     * layer (the best-first searches) or per iteration (IDA*). All the
     * charts of one board share one scale (log), so 31 boards draw far
     * lower than 121,529 and a better heuristic is seen as lower bars.
     */
    addChart(result, board)
    {
        const layers = Array.isArray(result.effort) ? result.effort : [];
        const fig = document.createElement('figure');
        fig.className = 'effort';
        fig.dataset.algorithm = result.algorithm;
        fig.dataset.heuristic = result.heuristic || '';
        fig.dataset.board = board;
        fig.dataset.layers = String(layers.length);
        const cap = document.createElement('figcaption');
        const who = `${algorithmName(result.algorithm)}` +
            (BLIND.has(result.algorithm) ? '' : ` · ${heuristicName(result.heuristic)}`);
        cap.textContent = `${who}: ${LAYER_TEXT[result.algorithm] || LAYER_TEXT.astar}`;
        fig.append(cap);
        if (layers.length === 0) {
            /* A run through a job (5×5, long budgets) or an algorithm
               that keeps no layers: say so rather than draw nothing. */
            fig.append(text('p', noChartReason(result), 'effort-note'));
            $('lab-charts').append(fig);
            $('lab-charts').hidden = false;
            return;
        }
        this.charts.set(fig, layers);
        fig.append(document.createElementNS('http://www.w3.org/2000/svg', 'svg'));
        const note = document.createElement('p');
        note.className = 'effort-note';
        fig.append(note);
        $('lab-charts').append(fig);
        $('lab-charts').hidden = false;
        this.drawCharts(board);
    }

    /* Redraws every chart of `board` to the tallest layer among them. */
    drawCharts(board)
    {
        const figs = [...this.charts.keys()].filter((f) => f.dataset.board === board && f.isConnected);
        const max = Math.max(1, ...figs.flatMap((f) => this.charts.get(f).map((l) => l.expanded)));
        for (const fig of figs)
            drawBars(fig, this.charts.get(fig), max);
    }

    /* A table wider than its box says so (on a phone it scrolls). */
    showScrollHint()
    {
        const wrap = $('lab-table-wrap');
        $('lab-scroll-hint').hidden = !(wrap.scrollWidth > wrap.clientWidth + 2);
    }

    /* Runs are grouped under a heading row naming their board. */
    groupFor(tiles)
    {
        const board = tiles.join(' ');
        if (this.lastBoard === board)
            return;
        this.lastBoard = board;
        const tr = document.createElement('tr');
        tr.className = 'group';
        const th = document.createElement('th');
        th.colSpan = 9;
        th.scope = 'colgroup';
        const size = sizeOf(tiles);
        th.textContent = `${size}×${size} board  ${compactBoard(tiles)}`;
        tr.append(th);
        this.body.append(tr);
    }

    /* Bars scaled within each board's runs; the fewest expanded in green. */
    markBest(board)
    {
        const rows = [...this.body.rows].filter((r) => r.dataset.board === board && !r.dataset.skipped);
        const counts = rows.map((r) => Number(r.dataset.expanded) || 0);
        const max = Math.max(1, ...counts);
        const solved = rows.filter((r) => r.dataset.solved === 'true');
        const least = Math.min(...solved.map((r) => Number(r.dataset.expanded) || 0));
        rows.forEach((row, i) => {
            const td = row.querySelector('.expanded');
            const bar = document.createElement('span');
            bar.className = 'bar';
            bar.style.width = `${Math.max(2, Math.round((counts[i] / max) * 44))}px`;
            td.replaceChildren(bar, formatCount(counts[i]));
            td.classList.toggle('best', solved.length > 1 && row.dataset.solved === 'true' &&
                counts[i] === least);
        });
    }

    clear()
    {
        this.body.replaceChildren();
        $('lab-charts').replaceChildren();
        $('lab-charts').hidden = true;
        this.lastBoard = '';
        this.runs = [];
        this.charts = new Map();
        $('lab-empty').hidden = false;
        this.say('');
    }

    /* Puts a board in the text box (used when playing a level, for study). */
    setBoardText(text)
    {
        this.input.value = text;
        this.refreshOptions();
    }
}
