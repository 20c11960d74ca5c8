/*
 * game.js - one game of the sliding puzzle: which level is being played,
 * the moves made, the clock, hints, undo, the solver playing the board for
 * you, and the finish with its score. The rules themselves live in
 * board.js, drawing in board-view.js and hud.js; this module decides what
 * happens.
 *
 * Phases: loading -> playing <-> solving -> finished; or error if a board
 * could not be fetched.
 *
 * Boards have a shape, R rows by C columns (shapes.js): the squares and
 * the rectangles of the size picker; each shape has its own levels.
 *
 * Kinds of board: 'level' (a numbered level of a shape), 'custom' (typed in
 * the lab), 'shared' (opened from a link) and 'daily' (the day's puzzle).
 * Only levels unlock anything or keep a best score.
 *
 * Scoring rules a player can rely on:
 * - every move counts, including an undo (it slides the tile back, which
 *   is a move like any other, and the server replays it as one);
 * - a hint, or having watched the solver on this board, keeps the third
 *   star out of reach; the same board hinted twice counts once;
 * - moves the solver made earn no stars at all, and its run is not shown
 *   as a score.
 */

import * as api from './api.js';
import { localPuzzle, localSolve } from './local.js';
import {
    applyMove, fromApi, goalBoard, isSolved, moveForTile, opposite, sameBoard, sizeOf,
    tileForMove,
} from './board.js';
import { makeShape, nextShape, parseShape, shapeName } from './shapes.js';
import { plural } from './catalog.js';
import { Clock } from './clock.js';
import { maxLevel, percent, scrambleLength, starsFor } from './levels.js';
import { Playback } from './playback.js';
import { bestFor, chooseLevel, recordFinish, unlockedFor } from './progress.js';

const ARROW = Object.freeze({ up: '↑', down: '↓', left: '←', right: '→' });
const SLIDE_MS = 140;
/* How long the daily's "a hint marks this run assisted" question waits
   for the second H that confirms it. */
const HINT_CONFIRM_MS = 8000;
/* Let the last tile land and the picture close up before the card shows. */
const FINISH_PAUSE_MS = 900;
const KIND_NAME = Object.freeze({
    custom: 'Your board', shared: 'Shared board', daily: 'Daily puzzle', archive: 'Past daily',
});

export class Game {
    /*
     * hooks: onChange(game) after any change, onMove(game, {bySolver}),
     * onSolved(game) the moment the board is solved,
     * onFinish(game, result), onSave(snapshot|null), pictureMode() says
     * whether tiles show a picture without numbers.
     */
    constructor({ view, hud, card, assistant, progress, onChange, hooks = {} })
    {
        this.view = view;
        this.hud = hud;
        this.card = card;
        this.assistant = assistant;
        this.progress = progress;
        this.onChange = onChange;
        this.hooks = hooks;
        this.shape = parseShape(progress.size) || makeShape(3);
        this.level = 1;
        this.kind = 'level';
        this.daily = null;
        this.start = [];
        this.goal = goalBoard(this.shape.rows, this.shape.cols);
        this.tiles = [];
        this.moves = [];
        this.solverMoves = 0;
        this.hinted = new Set();
        this.watched = false;
        this.par = { moves: NaN, exact: false };
        this.phase = 'loading';
        this.token = 0;
        this.busy = '';
        this.solverInfo = Promise.resolve(null);
        this.clock = new Clock((s) => hud.setTime(s));
        this.playback = new Playback({
            onStep: (move) => this.move(move, { bySolver: true }),
            onDone: () => this.playbackEnded(),
            onChange: () => this.changed(),
        });
    }

    get custom()
    {
        return this.kind !== 'level';
    }

    /* The shape's key ("3", "3x4"): what the progress is kept under. */
    get size()
    {
        return this.shape.key;
    }

    get cols()
    {
        return this.shape.cols;
    }

    get hints()
    {
        return this.hinted.size;
    }

    changed()
    {
        this.onChange(this);
    }

    hook(name, ...args)
    {
        if (this.hooks[name])
            this.hooks[name](...args);
    }

    /* Nothing of the last board may linger while the next one loads. */
    clearHud()
    {
        this.moves = [];
        this.clock.reset();
        this.hud.setMoves(0);
        this.hud.setPar(NaN);
    }

    /* Fetches a board for `level` of `shape` (a shape, or a key such as
       "4" or "3x4") from the server and starts it. */
    async play(shape, level)
    {
        const token = ++this.token;
        this.stopPlayback();
        this.shape = typeof shape === 'object' ? shape : parseShape(shape) || makeShape(3);
        this.kind = 'level';
        this.daily = null;
        this.level = chooseLevel(this.progress, this.shape, level);
        this.phase = 'loading';
        this.clearHud();
        this.showLevel();
        this.hud.loading('Shuffling a new board…');
        this.hud.say('');
        this.changed();
        const walk = scrambleLength(this.shape, this.level);
        try {
            const puzzle = await api.randomPuzzle(this.shape, walk);
            if (token === this.token) {
                /* On 3×3 the server knows the exact distance up front; on
                   bigger boards the walk's length bounds it from above. */
                const exact = Number.isInteger(puzzle.optimal_moves);
                this.begin(fromApi(puzzle.board), null, {
                    moves: exact ? puzzle.optimal_moves : walk, exact,
                });
            }
        } catch (err) {
            if (token !== this.token)
                return;
            if (err.unreachable)
                this.playOffline(walk);
            else
                this.fail(err);
        }
    }

    /* The server cannot be reached: a practice board made here, its par
       from the page's own search when that suffices (local.js). */
    playOffline(walk)
    {
        const tiles = localPuzzle(this.shape, walk);
        const solved = localSolve(tiles, null, this.shape.cols);
        this.begin(tiles, null, solved ?
            { moves: solved.moves.length, exact: true } : { moves: walk, exact: false });
        this.hud.say('Offline: this board was shuffled here, on your device. ' +
            'Your move: slide a tile into the gap.');
    }

    fail(err)
    {
        this.phase = 'error';
        this.clearHud();
        this.hud.failed(`${err.message} Press N or “New board” to try again.`);
        this.hud.say(err.message, 'error');
        this.changed();
        this.hook('onSave', null);
    }

    /* A board from the lab ('custom'), a link ('shared') or the day's
       puzzle ('daily'): no level, no unlocking. */
    playBoard(tiles, { goal = null, kind = 'custom', daily = null, par = null, shape = null } = {})
    {
        ++this.token;
        this.stopPlayback();
        this.shape = shape && shape.rows * shape.cols === tiles.length ? shape : makeShape(sizeOf(tiles));
        this.kind = kind;
        this.daily = daily;
        this.showLevel();
        this.begin(tiles, goal, par);
    }

    begin(tiles, goal = null, par = null)
    {
        this.start = tiles.slice();
        this.goal = goal ? goal.slice() : goalBoard(this.shape.rows, this.shape.cols);
        this.view.setShape(this.shape);
        this.view.setGoal(this.goal);
        this.assistant.forget();
        this.assistant.setGoal(goal, this.shape);
        this.watched = false;
        this.hinted = new Set();
        this.par = par && Number.isFinite(par.moves) ? { ...par } : { moves: NaN, exact: false };
        this.reset();
        this.hud.ready();
        this.showPar();
        this.askSolver();
        this.hud.say(isSolved(tiles, this.goal) ? 'This board is already solved.' :
            'Your move: slide a tile into the gap.');
        this.save();
    }

    /* Solve the start board now: it gives the par, the score card's
       numbers, and makes the first hint instant. */
    askSolver()
    {
        const token = this.token;
        this.solverInfo = this.assistant.pathFrom(this.start).then((info) => {
            if (token === this.token)
                this.learnPar(info);
            return info;
        }, () => null);
    }

    /* An optimal route fixes the par; any other route bounds it. */
    learnPar(info)
    {
        if (!info || this.par.exact)
            return;
        const length = info.moves.length;
        if (info.optimal)
            this.par = { moves: length, exact: true };
        else if (!(this.par.moves <= length))
            this.par = { moves: length, exact: false };
        this.showPar();
        this.save();
    }

    showPar()
    {
        this.hud.setPar(this.par.moves, this.par.exact);
    }

    /* Back to this board's start. Hints and watching the solver stay
       known: they are about the board, not the attempt. */
    reset()
    {
        this.tiles = this.start.slice();
        this.moves = [];
        this.solverMoves = 0;
        this.phase = 'playing';
        this.clock.reset();
        this.view.clearHint();
        this.view.render(this.tiles);
        this.hud.setMoves(0);
        this.changed();
    }

    showLevel()
    {
        const unlocked = unlockedFor(this.progress, this.shape);
        const label = { daily: 'Daily', archive: 'Past day', shared: 'Shared', custom: 'Own' }[this.kind] ||
            String(this.level);
        this.hud.setLevel(label, {
            canGoBack: !this.custom && this.level > 1,
            canGoOn: !this.custom && this.level < unlocked,
        });
    }

    get canPlay()
    {
        return this.phase === 'playing' || this.phase === 'solving';
    }

    /* The blank moves `direction`; returns whether the move was legal. */
    move(direction, { bySolver = false, undo = false } = {})
    {
        if (!this.canPlay)
            return false;
        const next = applyMove(this.tiles, direction, this.cols);
        if (!next)
            return false;
        const tookOver = !bySolver && this.phase === 'solving';
        if (tookOver)
            this.takeOver();
        const tile = tileForMove(this.tiles, direction, this.cols);
        this.tiles = next;
        this.moves.push(direction);
        if (bySolver)
            this.solverMoves += 1;
        else
            this.clock.start();
        this.view.clearHint();
        this.hud.setMoves(this.moves.length);
        this.hud.announce(this.moveWords(tile, opposite(direction), undo));
        this.hook('onMove', this, { bySolver });
        if (isSolved(this.tiles, this.goal)) {
            this.view.render(this.tiles, { solved: true });
            this.finish();
            return true;
        }
        this.view.render(this.tiles);
        if (!bySolver && !tookOver)
            this.hud.say(undo ? 'Took the last move back (it counts as a move).' : '');
        this.save();
        this.changed();
        return true;
    }

    moveWords(tile, slide, undo)
    {
        const what = this.pictureMode() ? 'A tile' : `Tile ${tile}`;
        const count = `${this.moves.length} move${this.moves.length === 1 ? '' : 's'}`;
        return `${undo ? 'Undo: ' : ''}${what} slid ${slide}. ${count}.`;
    }

    pictureMode()
    {
        return Boolean(this.hooks.pictureMode && this.hooks.pictureMode());
    }

    /* A tap or click on `tile`: it slides if it is next to the gap. */
    tap(tile)
    {
        const direction = moveForTile(this.tiles, tile, this.cols);
        if (!direction) {
            if (this.canPlay)
                this.view.refuse(tile);
            return false;
        }
        return this.move(direction);
    }

    /* Arrow key or swipe: a tile slides `slide` into the gap, if one can. */
    slide(slide)
    {
        return this.move(opposite(slide));
    }

    /* Practice (levels, pasted and shared boards) has free undo: only
       the net moves count. The daily is strict: an undo is a move. */
    get strictUndo()
    {
        return this.kind === 'daily';
    }

    /* Takes the last move back by sliding the tile back. */
    undo()
    {
        if (this.phase !== 'playing' || this.busy)
            return false;
        const last = this.lastUndoable();
        if (!last) {
            this.hud.say('Nothing to undo on this board yet.');
            return false;
        }
        if (this.strictUndo)
            return this.move(opposite(last), { undo: true });
        return this.takeBack(last);
    }

    /* A practice undo: the move leaves the list, as if never played. */
    takeBack(last)
    {
        const tile = tileForMove(this.tiles, opposite(last), this.cols);
        this.tiles = applyMove(this.tiles, opposite(last), this.cols);
        this.moves.pop();
        if (this.solverMoves > this.moves.length)
            this.solverMoves = this.moves.length;
        this.view.clearHint();
        this.view.render(this.tiles);
        this.hud.setMoves(this.moves.length);
        this.hud.announce(this.moveWords(tile, last, true));
        this.hook('onMove', this, { bySolver: false });
        this.hud.say('Took the last move back (practice: it does not count).');
        this.save();
        this.changed();
        return true;
    }

    /* The move an undo reverses: pairs of move + its undo cancel out
       (on the daily, where an undo is a move of its own). */
    lastUndoable()
    {
        if (!this.strictUndo)
            return this.moves.length ? this.moves[this.moves.length - 1] : null;
        const stack = [];
        for (const move of this.moves) {
            if (stack.length && stack[stack.length - 1] === opposite(move))
                stack.pop();
            else
                stack.push(move);
        }
        return stack.length ? stack[stack.length - 1] : null;
    }

    async hint()
    {
        if (this.phase !== 'playing' || this.busy)
            return;
        /* On the daily a hint marks the run assisted for good: the first
           H (or click) of a run without help only says so; a second one
           within HINT_CONFIRM_MS gives the hint. */
        if (this.kind === 'daily' && this.hints === 0) {
            const now = Date.now();
            if (!this.hintAskedAt || now - this.hintAskedAt > HINT_CONFIRM_MS) {
                this.hintAskedAt = now;
                this.hud.say('A hint marks this daily run "assisted": it then ranks after ' +
                    'every unassisted entry. Press H (or Hint) again for the hint.', 'hint');
                return;
            }
        }
        this.hintAskedAt = 0;
        const waiting = this.assistant.cached(this.tiles) ? null : 'Asking the solver…';
        await this.withPath('hint', waiting, (path) => this.showHint(path));
    }

    /*
     * Asks the solver for the route from the board as it is now, with the
     * game marked busy as `kind` meanwhile; `use(path)` runs only if the
     * board and phase are unchanged when the answer arrives.
     */
    async withPath(kind, waiting, use)
    {
        const board = this.tiles.slice();
        this.busy = kind;
        this.changed();
        if (waiting)
            this.hud.say(waiting);
        try {
            const path = await this.assistant.pathFrom(board);
            if (!sameBoard(board, this.tiles) || this.phase !== 'playing')
                return;
            use(path);
        } catch (err) {
            if (sameBoard(board, this.tiles))
                this.hud.say(err.message, 'error');
        } finally {
            this.busy = '';
            this.changed();
        }
    }

    showHint(path)
    {
        if (path.moves.length === 0) {
            this.hud.say('Nothing to hint: this board is already solved.');
            return;
        }
        const move = path.moves[0];
        const tile = tileForMove(this.tiles, move, this.cols);
        const slide = opposite(move);
        this.hinted.add(this.tiles.join(','));
        this.view.showHint(tile, slide);
        const togo = path.moves.length;
        const why = path.optimal ?
            `${togo} move${togo === 1 ? '' : 's'} from the goal` :
            'a good move (not proven optimal: this board is too big to search fully in time)';
        /* A picture without numbers shows no tile numbers: point instead. */
        const which = this.pictureMode() ? 'the glowing tile' : `tile ${tile}`;
        this.hud.say(`Hint: slide ${which} ${slide} ${ARROW[slide]} · ${why} · ` +
            'a hint keeps the third star away', 'hint');
        this.save();
        this.changed();
    }

    /* Asks for the rest of the route and plays it on the board. */
    async solve()
    {
        if (this.phase !== 'playing' || this.busy)
            return;
        await this.withPath('solve', 'Asking the solver…', (path) => {
            this.watched = true;
            this.phase = 'solving';
            /* The solver's time is not the player's. */
            this.clock.stop();
            this.view.clearHint();
            this.view.setSlideMs(this.playback.slideMs);
            this.hud.say(`The solver takes over: ${path.moves.length} moves` +
                `${path.optimal ? ', the fewest possible.' : ' (a good route, not proven shortest).'}`, 'good');
            this.playback.start(path.moves);
        });
    }

    setSpeed(speed)
    {
        this.playback.setSpeed(speed);
        if (this.phase === 'solving')
            this.view.setSlideMs(this.playback.slideMs);
    }

    /* The player moved during playback: stop the solver, hand back control. */
    takeOver()
    {
        this.stopPlayback();
        this.hud.say('You have taken over from the solver.');
    }

    stopPlayback()
    {
        this.playback.stop();
        this.view.setSlideMs(SLIDE_MS);
        if (this.phase === 'solving')
            this.phase = 'playing';
        this.changed();
    }

    playbackEnded()
    {
        this.view.setSlideMs(SLIDE_MS);
        if (this.phase === 'solving')
            this.phase = 'playing';
        this.changed();
    }

    restart()
    {
        if (this.phase === 'loading' || this.start.length === 0)
            return;
        ++this.token;
        this.stopPlayback();
        this.reset();
        /* The start board's answer (par, the solver's numbers) still
           holds: same board. */
        this.hud.say('Back to the start of this board.');
        this.save();
    }

    /* A fresh board at the current level (also leaves a pasted board). */
    shuffle()
    {
        return this.play(this.shape, this.level);
    }

    nextLevel()
    {
        return this.play(this.shape, this.level + 1);
    }

    changeLevel(delta)
    {
        if (this.custom)
            return this.play(this.shape, this.level);
        const target = this.level + delta;
        if (target < 1 || target > unlockedFor(this.progress, this.shape))
            return null;
        return this.play(this.shape, target);
    }

    /* What survives a reload: enough to put the same game back. */
    snapshot()
    {
        return {
            kind: this.kind, size: this.shape.key, rows: this.shape.rows, cols: this.shape.cols,
            level: this.level, daily: this.daily,
            start: this.start, goal: this.goal, moves: this.moves,
            solverMoves: this.solverMoves, hinted: [...this.hinted],
            watched: this.watched, seconds: this.clock.seconds, par: this.par,
        };
    }

    save()
    {
        if (this.phase === 'playing' || this.phase === 'solving')
            this.hook('onSave', this.snapshot());
    }

    /* Puts a saved game back, moves and all; false if it does not fit.
       A save from before shapes has only `size` (a square's side). */
    resume(saved)
    {
        const shape = parseShape(saved.size);
        if (!shape || shape.rows * shape.cols !== saved.start.length)
            return false;
        let tiles = saved.start;
        for (const move of saved.moves) {
            tiles = applyMove(tiles, move, shape.cols);
            if (!tiles)
                return false;
        }
        if (isSolved(tiles, saved.goal))
            return false;
        ++this.token;
        this.shape = shape;
        this.kind = saved.kind;
        this.daily = saved.daily || null;
        this.level = saved.kind === 'level' ? chooseLevel(this.progress, shape, saved.level) : 1;
        this.showLevel();
        this.begin(saved.start, sameBoard(saved.goal, goalBoard(shape.rows, shape.cols)) ? null :
            saved.goal, saved.par);
        this.tiles = tiles;
        this.moves = saved.moves.slice();
        this.solverMoves = saved.solverMoves || 0;
        this.hinted = new Set(saved.hinted || []);
        this.watched = Boolean(saved.watched);
        this.clock.set(saved.seconds || 0);
        this.view.render(this.tiles);
        this.hud.setMoves(this.moves.length);
        if (this.moves.length > 0)
            this.hud.say(`Welcome back: your game is where you left it (${this.moves.length} moves in).`);
        this.changed();
        return true;
    }

    async finish()
    {
        const token = this.token;
        this.phase = 'finished';
        this.playback.stop();
        this.clock.stop();
        /* The moment it is solved, before the score and the card: the
           daily's server clock stops here too (issue 45). */
        this.hook('onSolved', this);
        this.hook('onSave', null);
        this.hud.say(this.solverMoves ? 'Solved, with the solver\u2019s help.' : 'Solved! Working out your score…', 'good');
        this.changed();
        const goal = sameBoard(this.goal, goalBoard(this.shape.rows, this.shape.cols)) ? null : this.goal;
        const [scored, solver] = await Promise.all([
            api.score(this.start, this.moves, goal, { cols: this.cols }).catch((err) => ({ error: err })),
            this.solverInfo,
            delay(FINISH_PAUSE_MS),
        ]);
        if (token !== this.token)
            return;
        this.learnPar(solver);
        const result = this.result(scored, solver);
        this.hud.say(this.finishLine(result), 'good');
        this.hook('onFinish', this, result);
        const choice = await this.card.show(result);
        if (token !== this.token)
            return;
        if (choice === 'next')
            this.next();
        else if (choice === 'replay')
            this.restart();
    }

    next()
    {
        if (this.custom)
            return this.shuffle();
        if (this.level >= maxLevel(this.shape) && this.hooks.onSwitchSize)
            return this.hooks.onSwitchSize(nextShape(this.shape).key);
        return this.nextLevel();
    }

    finishLine(result)
    {
        /* The daily has one board a day: no "new board" to press for. */
        const then = this.kind === 'daily' || this.kind === 'archive' ? '' : ' Press N for a new board.';
        if (result.bySolver)
            return `The solver finished it: ${plural(result.moves, 'move')}.${then}`;
        const share = Number.isFinite(result.percent) ?
            ` · ${result.percent}% of ${result.exact ? 'the optimal route' : 'the best route found'}` : '';
        return `Solved in ${plural(result.moves, 'move')}${share}.${then}`;
    }

    /* The numbers for the score card, recorded in the progress on the way. */
    result(scored, solver)
    {
        const moves = this.moves.length;
        const bySolver = this.solverMoves > 0;
        /* The server's count when it has one; else the par we know. */
        let optimal = scored.error ? null : scored.optimal_moves;
        let exact = Number.isInteger(optimal);
        if (!exact) {
            optimal = this.par.moves;
            exact = this.par.exact;
        }
        let ratio = !exact || scored.error ? null : scored.score;
        if (typeof ratio !== 'number')
            ratio = Math.min(1, optimal / Math.max(1, moves));
        let stars = bySolver ? 0 : starsFor(ratio);
        const helped = this.hints > 0 || this.watched;
        if (helped)
            stars = Math.min(stars, 2);
        /* Stars are for levels and the daily, as the panel says: a pasted
           or shared board gets none (the card shows no star row). */
        const starred = this.kind === 'level' || this.kind === 'daily';
        let best = false;
        if (!this.custom) {
            best = recordFinish(this.progress, this.shape, this.level, {
                ratio, stars, moves, seconds: this.clock.seconds, assisted: bySolver,
            });
        }
        this.showLevel();
        this.changed();
        const last = !this.custom && this.level >= maxLevel(this.shape);
        const name = shapeName(this.shape);
        return {
            kicker: this.custom ? `${KIND_NAME[this.kind]} · ${name}` :
                `Level ${this.level} · ${name}`,
            title: this.title(ratio, bySolver, helped, { moves, optimal, exact }),
            percent: !bySolver && Number.isFinite(ratio) ? percent(ratio) : NaN,
            sub: this.sub(bySolver, exact, optimal, solver),
            stars: starred ? stars : null,
            moves,
            optimal,
            exact,
            bySolver,
            seconds: this.clock.seconds,
            hints: this.hints,
            solver,
            note: this.note(best, scored, { optimal, exact, helped }, solver),
            canGoOn: !this.custom,
            nextLabel: this.kind === 'daily' || this.kind === 'archive' ? 'Back to the levels →' : this.custom ? 'New board →' :
                last ? `Try ${shapeName(nextShape(this.shape))} →` : 'Next level →',
            daily: this.kind === 'daily' ? this.daily : null,
            start: this.start,
            moveList: this.moves.slice(),
            /* Help on this board, for the daily's entry and stats. */
            helped,
            watched: this.watched,
            beatSolver: this.beatSolver({ moves, optimal, exact }, bySolver),
        };
    }

    sub(bySolver, exact, optimal, solver)
    {
        if (bySolver) {
            const mine = this.moves.length - this.solverMoves;
            /* A take-over: the solver's route is the shortest from where
               it took over, not from the start (14 moves against 12). */
            if (mine > 0) {
                const against = Number.isFinite(optimal) ?
                    ` against ${exact ? '' : '≤ '}${optimal} from the start` : '';
                return `You made ${plural(mine, 'move')}, then the solver finished from there in ` +
                    `${plural(this.solverMoves, 'move')}: ${this.moves.length} in all${against}; ` +
                    'no score for that.';
            }
            const route = solver && solver.optimal ? 'an optimal route' : 'its route';
            return `The solver played ${route}; no score for that.`;
        }
        if (exact)
            return 'of the optimal route';
        /* Not proven shortest: scored against the best route found,
           and called that, never "optimal". */
        return Number.isFinite(optimal) ?
            `of the best route found, par ≤ ${optimal} (not proven shortest: the shortest may be shorter still)` :
            'no par known for this board';
    }

    /* Under a "par ≤ X": shorter than any route the solver had found. */
    beatSolver({ moves, optimal, exact }, bySolver)
    {
        return !bySolver && !exact && Number.isFinite(optimal) && moves < optimal;
    }

    title(ratio, bySolver, helped, counts)
    {
        if (bySolver)
            return 'Solved by the solver';
        if (this.beatSolver(counts, bySolver))
            return 'You beat the solver’s route!';
        if (ratio >= 0.999 && !counts.exact)
            return helped ? 'As short as the best route found, with help' : 'As short as the best route found!';
        if (ratio >= 0.999)
            return helped ? 'Optimal, with help' : 'Perfect!';
        return ratio >= 0.7 ? 'Great solve!' : 'Solved!';
    }

    note(best, scored, result, solver)
    {
        if (this.solverMoves > 0) {
            if (this.solverMoves >= this.moves.length)
                return 'Stars are for boards you finish yourself: try it again with ' +
                    `${this.kind === 'level' ? 'Replay level' : 'Play it again'}.`;
            return `${this.solverMoves} of the ${this.moves.length} moves were the solver\u2019s. ` +
                'Stars are for boards you finish yourself.';
        }
        const notes = [];
        if (scored.error)
            notes.push(`Scored here, as the server could not: ${scored.error.message}`);
        if (!result.exact && solver) {
            const gap = Number.isFinite(solver.gap) ?
                `; best known, at most ${Math.round((solver.gap - 1) * 100)}% above optimal` : '';
            notes.push(`This board is too big to prove a shortest route; par is the ` +
                `shortest route known (the solver\u2019s took ${solver.moves.length} moves${gap}).`);
        }
        if (result.helped) {
            notes.push(this.watched ? 'You had watched the solver on this board, so the third star stays out of reach.' :
                `${this.hints} hint${this.hints === 1 ? '' : 's'} used: the third star is for finishing unaided.`);
        }
        if (best) {
            const record = bestFor(this.progress, this.shape, this.level);
            notes.push(record && record.stars === 3 ? 'New best: a perfect route!' : 'New best for this level!');
        }
        return notes.join(' ');
    }
}

function delay(ms)
{
    return new Promise((resolve) => setTimeout(resolve, ms));
}
