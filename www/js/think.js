/*
 * think.js - "Watch A* think": steps through a real A* solve of a 3×3
 * board, side by side for three heuristics (misplaced tiles, Manhattan
 * distance, linear conflict). Each column shows, at step k, the snapshot
 * taken off the open list (the smallest f = g + h), the children it put
 * on, the open list as a priority queue sorted by f, and the closed list.
 *
 * A newcomer starts on a teaching board (TEACHING) where the three
 * guesses part ways (119, 34 and 20 boards looked at), not on level 1's
 * 4 moves where they are the same; every line says it in plain words
 * first, with the terms (open list, g, h, f) in brackets and defined once
 * in the section's "The words for it" (issue 45 defect 7).
 *
 * The steps are the server's own (POST /v1/solve with "trace": K); the
 * open and closed lists are rebuilt here from those steps, in order, the
 * way A* keeps them: a child already closed or already open with a
 * smaller g is not added again.
 */

import { solve } from './api.js';
import { applyMove, fromApi, goalBoard, positionOf, sameBoard, sizeOf } from './board.js';

const $ = (id) => document.getElementById(id);
/* The API's cap on traced expansions (openapi.yaml, "trace"). */
const STEPS = 200;
/* Boards the page traces as they are; bigger ones get a sample 3×3. */
const TRACE_MAX_SIZE = 4;
const SAMPLE = Object.freeze([1, 2, 3, 4, 0, 6, 7, 5, 8]);
/* 14 moves; A* looks at 119 boards with misplaced tiles, 34 with the
   Manhattan distance, 20 with linear conflict: all within the trace. */
export const TEACHING = Object.freeze([0, 4, 5, 7, 1, 2, 8, 3, 6]);
const OPEN_SHOWN = 8;
const CLOSED_SHOWN = 6;
const COLUMNS = Object.freeze([
    { id: 'misplaced', name: 'Misplaced tiles', guess: 'Its guess: how many tiles are out of place.' },
    { id: 'manhattan', name: 'Manhattan distance',
        guess: 'Its guess: how far each tile is from home, in moves, added up.' },
    { id: 'linear-conflict', name: 'Linear conflict',
        guess: 'Its guess: the Manhattan distance, plus 2 for each pair of tiles in their own row ' +
            '(or column) but in the wrong order: one must step aside.' },
]);

function key(tiles)
{
    return tiles.join(' ');
}

/*
 * A small picture of a board (any size), for lists. With `goal`, tiles
 * out of place are marked (class "off") and each carries its Manhattan
 * distance to its goal square (data-d), for the heuristics' pictures.
 */
export function mini(tiles, className = '', goal = null)
{
    const grid = document.createElement('span');
    grid.className = `mini ${className}`.trim();
    /* A column fits the widest number with room either side: two-digit
       tiles (4x4 and up) in 1.05em ran into each other ("1512"). */
    const digits = String(Math.max(...tiles)).length;
    grid.style.gridTemplateColumns =
        `repeat(${Math.round(Math.sqrt(tiles.length))}, ${(0.62 * digits + 0.5).toFixed(2)}em)`;
    grid.setAttribute('role', 'img');
    grid.setAttribute('aria-label', tiles.map((t) => (t === 0 ? 'gap' : t)).join(' '));
    const n = Math.round(Math.sqrt(tiles.length));
    tiles.forEach((tile, i) => {
        const cell = document.createElement('i');
        cell.textContent = tile === 0 ? '' : String(tile);
        if (tile === 0)
            cell.className = 'gap';
        else if (goal && goal[i] !== tile) {
            const at = positionOf(goal, tile);
            cell.className = 'off';
            cell.dataset.d = String(Math.abs(at.row - Math.floor(i / n)) + Math.abs(at.col - i % n));
        }
        cell.setAttribute('aria-hidden', 'true');
        grid.append(cell);
    });
    return grid;
}

/* A* order: smaller f first, then larger g (deeper first), then arrival. */
function byPriority(a, b)
{
    return a.f - b.f || b.g - a.g || a.seq - b.seq;
}

/*
 * The lists after each step: states[k] = { open: [...], closed: [...],
 * step } after step k has put its children on the open list.
 */
function replay(trace)
{
    const open = new Map();
    const closed = [];
    const closedKeys = new Set();
    const states = [];
    let seq = 0;
    trace.forEach((step, k) => {
        const board = fromApi(step.board);
        const id = key(board);
        if (k === 0)
            open.set(id, { tiles: board, g: step.g, h: step.h, f: step.f, seq: seq++ });
        open.delete(id);
        closed.push({ tiles: board, g: step.g, h: step.h, f: step.f });
        closedKeys.add(id);
        const added = new Set();
        for (const child of step.children) {
            const tiles = fromApi(child.board);
            const cid = key(tiles);
            const known = open.get(cid);
            if (known && known.g <= child.g)
                continue;
            open.set(cid, { tiles, g: child.g, h: child.h, f: child.f, seq: seq++ });
            closedKeys.delete(cid);
            added.add(cid);
        }
        states.push({
            open: [...open.values()].sort(byPriority),
            closed: closed.slice(),
            added,
            step: { ...step, tiles: board },
        });
    });
    return states;
}

export class Think {
    /* currentBoard() -> { tiles, goal, shape } of the game in play. */
    constructor({ currentBoard })
    {
        this.currentBoard = currentBoard;
        this.columns = [];
        this.index = 0;
        this.timer = 0;
        this.goal = null;
        $('think-load').addEventListener('click', () => this.load());
        $('think-sample').addEventListener('click', () => this.load(true));
        $('think-prev').addEventListener('click', () => this.go(this.index - 1));
        $('think-next').addEventListener('click', () => this.go(this.index + 1));
        $('think-play').addEventListener('click', () => this.togglePlay());
        $('think-step').addEventListener('input', () => this.go(Number($('think-step').value) - 1));
        $('think-goal').addEventListener('click', () => this.go(this.longest() - 1));
        /* ← and → step here, wherever the focus is inside the view (the
           slider too); the game board does not hear them (input.js leaves
           arrows inside [data-own-arrows] alone). */
        $('think').addEventListener('keydown', (event) => {
            if (!this.columns.length || event.altKey || event.ctrlKey || event.metaKey)
                return;
            const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
            if (!step)
                return;
            event.preventDefault();
            this.stop();
            this.go(this.index + step);
        });
    }

    longest()
    {
        return Math.max(0, ...this.columns.map((c) => c.states.length));
    }

    /* Traces the game's board (up to 4×4; a sample 3×3, said so, for
       bigger ones) to the game's goal. */
    async load(teaching = false)
    {
        const current = teaching ? { tiles: TEACHING.slice(), shape: null } : this.currentBoard() || {};
        const size = current.tiles ? sizeOf(current.tiles) : 0;
        /* This view draws squares: a rectangle gets the sample, said so. */
        const square = !current.shape || current.shape.rows === current.shape.cols;
        const own = square && size >= 2 && size <= TRACE_MAX_SIZE;
        const name = square ? `${size}×${size}` : `${current.shape.rows}×${current.shape.cols}`;
        const tiles = own ? current.tiles : SAMPLE.slice();
        const goal = own && current.goal ? current.goal : goalBoard(sizeOf(tiles));
        this.stop();
        $('think-message').textContent = 'Asking the solver for three A* traces…';
        try {
            const runs = [];
            for (const column of COLUMNS) {
                const r = await solve(tiles, {
                    algorithm: 'astar', heuristic: column.id, trace: STEPS,
                    goal: sameBoard(goal, goalBoard(sizeOf(tiles))) ? undefined : goal,
                    limits: { max_nodes: 200000 },
                });
                runs.push({ ...column, result: r, states: replay(r.trace || []) });
            }
            this.tiles = tiles;
            this.goal = goal;
            this.columns = runs;
            const longest = this.longest();
            $('think-step').max = String(Math.max(1, longest));
            $('think-step').disabled = false;
            for (const id of ['think-prev', 'think-next', 'think-play', 'think-goal'])
                $(id).disabled = false;
            $('think-message').textContent = teaching ? this.teachingIntro(runs) :
                this.intro(own, name, longest, square);
            $('think-start').replaceChildren(mini(tiles, 'mini-large', goal));
            $('think-legend').hidden = false;
            this.go(0);
        } catch (err) {
            $('think-message').textContent = err.message;
        }
    }

    /* The sample: what to watch for, in plain words. */
    teachingIntro(runs)
    {
        const counts = runs.map((r) =>
            `${r.name.toLowerCase().replace('manhattan', 'Manhattan')}: ${r.result.stats.expanded}`);
        return `A sample board, ${runs[0].result.length} moves from done. All three guesses find a ` +
            `shortest route, but they look at very different numbers of boards on the way ` +
            `(${counts.join(', ')}): watch the left column wander while the right one heads ` +
            'straight for the goal. ← and → step (with the focus here); “Jump to goal” goes to the end.';
    }

    intro(own, name, longest, square = true)
    {
        const why = square ? 'too big to watch A* step by step' :
            'a rectangle, and this view draws square boards only';
        const which = own ? `the board you are playing (${name})` :
            `a sample 3×3 board: the board you are playing is ${name}, ${why}`;
        return `A* from ${which}, one expansion per step, up to ${longest} steps ` +
            `(the server sends at most ${STEPS}). With the focus here, ← and → step; ` +
            '“Jump to goal” goes to the last step.';
    }

    togglePlay()
    {
        if (this.timer) {
            this.stop();
            return;
        }
        $('think-play').textContent = 'Pause';
        $('think-play').setAttribute('aria-pressed', 'true');
        this.timer = setInterval(() => {
            if (!this.go(this.index + 1))
                this.stop();
        }, 900);
    }

    stop()
    {
        clearInterval(this.timer);
        this.timer = 0;
        $('think-play').textContent = 'Play';
        $('think-play').setAttribute('aria-pressed', 'false');
    }

    /* Shows step `index` in every column; false past the last one. */
    go(index)
    {
        const longest = this.longest();
        if (index < 0 || index >= longest)
            return false;
        this.index = index;
        $('think-step').value = String(index + 1);
        $('think-count').textContent = `Step ${index + 1} of ${longest}`;
        const box = $('think-columns');
        box.replaceChildren(...this.columns.map((c) => this.column(c, index)));
        return true;
    }

    column(run, index)
    {
        const col = document.createElement('section');
        col.className = 'think-col';
        col.dataset.heuristic = run.id;
        const title = document.createElement('h3');
        title.textContent = run.name;
        const guess = text('p', run.guess, 'muted think-guess');
        const total = document.createElement('p');
        total.className = 'muted think-total';
        const r = run.result;
        total.textContent = r.status === 'solved' ?
            `Whole solve: a ${r.length}-move route, after looking at ` +
            `${r.stats.expanded.toLocaleString('en-US')} boards (expansions).` :
            `Whole solve stopped: ${r.status}.`;
        col.append(title, guess, total);
        const state = run.states[Math.min(index, run.states.length - 1)];
        if (!state) {
            col.append(text('p', 'No steps.'));
            return col;
        }
        const last = index >= run.states.length - 1;
        if (last)
            this.ending(col, run);
        col.append(this.expanded(state, run.id));
        if (last && r.status === 'solved')
            col.append(this.route(r));
        col.append(this.openList(state), this.closedList(state));
        return col;
    }

    /* What happened after the last step shown, true in every case: the
       goal looked at, next in line (the count of expansions leaves it
       out: "went on for 0 more expansions" said nothing), or further on
       than the server's trace. */
    ending(col, run)
    {
        const r = run.result;
        const left = r.status === 'solved' ? r.stats.expanded - run.states.length : 0;
        if (this.reachedGoal(run)) {
            col.append(text('p', `Reached the goal: it was the board looked at on step ` +
                `${run.states.length}.`, 'think-done'));
        } else if (r.status === 'solved' && left <= 0) {
            col.append(text('p', 'Reached the goal: it is the next board on the list (smallest f), ' +
                'and A* stops as soon as it comes off.', 'think-done'));
        } else if (r.status === 'solved') {
            col.append(text('p', `The trace ends here: the server sends the first ${STEPS} steps. ` +
                `A* looked at ${left.toLocaleString('en-US')} more ` +
                `board${left === 1 ? '' : 's'} before the goal came off the list.`, 'think-done'));
        }
    }

    reachedGoal(run)
    {
        const lastStep = run.states[run.states.length - 1];
        return Boolean(lastStep) && sameBoard(lastStep.step.tiles, this.goal);
    }

    /* The route A* found, board by board. */
    route(r)
    {
        const box = document.createElement('div');
        box.className = 'think-route';
        box.append(text('p', `The route it found: ${r.length} moves`, 'think-head'));
        const row = document.createElement('div');
        row.className = 'think-row';
        /* A long route scrolls sideways: the keyboard can reach it too. */
        row.tabIndex = 0;
        row.setAttribute('role', 'region');
        row.setAttribute('aria-label', `The route, board by board (${r.length} moves)`);
        let tiles = this.tiles;
        row.append(mini(tiles));
        for (const move of r.moves || []) {
            tiles = applyMove(tiles, move);
            if (!tiles)
                break;
            row.append(mini(tiles, 'mini-path'));
        }
        box.append(row);
        return box;
    }

    /* The board taken off the open list, drawn with what its heuristic
       counts: misplaced tiles marked, or each tile's distance home. */
    expanded(state, heuristic)
    {
        const s = state.step;
        const box = document.createElement('div');
        box.className = 'think-expanded';
        const head = text('p', `Looked at now: ${s.g} move${s.g === 1 ? '' : 's'} made, about ` +
            `${s.h} to go (g ${s.g} + h ${s.h} = f ${s.f}) · ${s.open} on the list (open list)`,
        'think-head');
        const row = document.createElement('div');
        row.className = 'think-row';
        row.append(mini(s.tiles, `mini-current show-${heuristic === 'misplaced' ? 'off' : 'dist'}`, this.goal));
        const arrow = text('span', '→', 'think-arrow');
        arrow.setAttribute('aria-hidden', 'true');
        row.append(arrow);
        for (const child of s.children) {
            const fig = document.createElement('figure');
            fig.className = 'think-child';
            fig.append(mini(fromApi(child.board), 'mini-child'));
            const cap = document.createElement('figcaption');
            cap.textContent = `${child.g} + ${child.h} = ${child.f}`;
            cap.title = `g ${child.g} + h ${child.h} = f ${child.f}`;
            fig.append(cap);
            row.append(fig);
        }
        if (s.children.length === 0)
            row.append(text('span', 'nothing new one move away', 'muted'));
        box.append(head, row);
        return box;
    }

    openList(state)
    {
        const table = document.createElement('table');
        table.className = 'think-open';
        const cap = document.createElement('caption');
        cap.textContent = `Still to look at, smallest f first (open list): ${state.open.length}`;
        table.append(cap);
        const head = document.createElement('tr');
        for (const h of ['Board', 'g', 'h', 'f']) {
            const th = document.createElement('th');
            th.scope = 'col';
            th.textContent = h;
            head.append(th);
        }
        const thead = document.createElement('thead');
        thead.append(head);
        const body = document.createElement('tbody');
        state.open.slice(0, OPEN_SHOWN).forEach((node, i) => {
            const tr = document.createElement('tr');
            if (state.added.has(key(node.tiles)))
                tr.className = 'think-new';
            if (i === 0)
                tr.classList.add('think-next');
            const td = document.createElement('td');
            td.append(mini(node.tiles));
            tr.append(td, text('td', String(node.g)), text('td', String(node.h)), text('td', String(node.f)));
            body.append(tr);
        });
        table.append(thead, body);
        const wrap = document.createElement('div');
        wrap.append(table);
        if (state.open.length > OPEN_SHOWN)
            wrap.append(text('p', `… and ${state.open.length - OPEN_SHOWN} more`, 'muted think-more'));
        return wrap;
    }

    closedList(state)
    {
        const box = document.createElement('div');
        box.className = 'think-closed';
        box.append(text('p', `Already looked at (closed list): ${state.closed.length}`, 'think-head'));
        const row = document.createElement('div');
        row.className = 'think-row';
        for (const node of state.closed.slice(-CLOSED_SHOWN).reverse())
            row.append(mini(node.tiles, 'mini-closed'));
        box.append(row);
        return box;
    }
}

function text(tag, content, className = '')
{
    const el = document.createElement(tag);
    el.textContent = content;
    if (className)
        el.className = className;
    return el;
}

