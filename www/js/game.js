/*
 * game.js - one game of the sliding puzzle: which level is being played,
 * the moves made, the clock, hints, the solver playing the board for you,
 * and the finish with its score. The rules themselves live in board.js,
 * drawing in board-view.js and hud.js; this module decides what happens.
 *
 * Phases: loading -> playing <-> solving -> finished; or error if a board
 * could not be fetched.
 */

import * as api from './api.js';
import {
    applyMove, fromApi, isSolved, moveForTile, opposite, sameBoard, tileForMove,
} from './board.js';
import { Clock } from './clock.js';
import { percent, scrambleLength, starsFor } from './levels.js';
import { Playback } from './playback.js';
import { bestFor, chooseLevel, recordFinish, unlockedFor } from './progress.js';

const ARROW = Object.freeze({ up: '↑', down: '↓', left: '←', right: '→' });
const SLIDE_MS = 140;
/* Let the last tile land and the picture close up before the card shows. */
const FINISH_PAUSE_MS = 900;

export class Game {
    constructor({ view, hud, card, assistant, progress, onChange })
    {
        this.view = view;
        this.hud = hud;
        this.card = card;
        this.assistant = assistant;
        this.progress = progress;
        this.onChange = onChange;
        this.size = progress.size || 3;
        this.level = 1;
        this.custom = false;
        this.start = [];
        this.tiles = [];
        this.moves = [];
        this.solverMoves = 0;
        this.hints = 0;
        this.assisted = false;
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

    changed()
    {
        this.onChange(this);
    }

    /* Fetches a board for `level` of `size` from the server and starts it. */
    async play(size, level)
    {
        const token = ++this.token;
        this.stopPlayback();
        this.size = size;
        this.custom = false;
        this.level = chooseLevel(this.progress, size, level);
        this.phase = 'loading';
        this.showLevel();
        this.hud.loading('Shuffling a new board…');
        this.hud.say('');
        this.changed();
        try {
            const puzzle = await api.randomPuzzle(size, scrambleLength(size, this.level));
            if (token === this.token) {
                this.begin(fromApi(puzzle.board));
                /* On 3×3 the server knows the exact distance up front. */
                if (Number.isInteger(puzzle.optimal_moves))
                    this.hud.setPar(puzzle.optimal_moves);
            }
        } catch (err) {
            if (token !== this.token)
                return;
            this.phase = 'error';
            this.hud.failed(`${err.message} Press N or “New board” to try again.`);
            this.hud.say(err.message, 'error');
            this.changed();
        }
    }

    /* Plays a board the player typed in the lab: no level, no unlocking. */
    playBoard(tiles)
    {
        ++this.token;
        this.stopPlayback();
        this.size = Math.round(Math.sqrt(tiles.length));
        this.custom = true;
        this.showLevel();
        this.begin(tiles);
    }

    begin(tiles)
    {
        this.start = tiles.slice();
        this.assistant.forget();
        this.assisted = false;
        this.reset();
        this.hud.ready();
        this.hud.setPar(NaN);
        /* Solve the start board now: it gives the par, the score card's
           numbers, and makes the first hint instant. */
        const token = this.token;
        this.solverInfo = this.assistant.pathFrom(this.start).then((info) => {
            if (token === this.token && info.optimal)
                this.hud.setPar(info.moves.length);
            return info;
        }, () => null);
        this.hud.say(isSolved(tiles) ? 'This board is already solved.' :
            'Your move: slide a tile into the gap.');
    }

    /* Back to this board's start; having watched the solver still counts. */
    reset()
    {
        this.tiles = this.start.slice();
        this.moves = [];
        this.solverMoves = 0;
        this.hints = 0;
        this.phase = 'playing';
        this.clock.reset();
        this.view.clearHint();
        this.view.render(this.tiles);
        this.hud.setMoves(0);
        this.changed();
    }

    showLevel()
    {
        const unlocked = unlockedFor(this.progress, this.size);
        this.hud.setLevel(this.custom ? 'Own' : String(this.level), {
            canGoBack: !this.custom && this.level > 1,
            canGoOn: !this.custom && this.level < unlocked,
        });
    }

    get canPlay()
    {
        return this.phase === 'playing' || this.phase === 'solving';
    }

    /* The blank moves `direction`; returns whether the move was legal. */
    move(direction, { bySolver = false } = {})
    {
        if (!this.canPlay)
            return false;
        if (!bySolver && this.phase === 'solving')
            this.takeOver();
        const next = applyMove(this.tiles, direction);
        if (!next)
            return false;
        this.tiles = next;
        this.moves.push(direction);
        if (bySolver)
            this.solverMoves += 1;
        this.clock.start();
        this.view.clearHint();
        this.hud.setMoves(this.moves.length);
        if (isSolved(this.tiles)) {
            this.view.render(this.tiles, { solved: true });
            this.finish();
        } else {
            this.view.render(this.tiles);
            if (!bySolver)
                this.hud.say('');
        }
        return true;
    }

    /* A tap or click on `tile`: it slides if it is next to the gap. */
    tap(tile)
    {
        const direction = moveForTile(this.tiles, tile);
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

    async hint()
    {
        if (this.phase !== 'playing' || this.busy)
            return;
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
        const tile = tileForMove(this.tiles, move);
        const slide = opposite(move);
        this.hints += 1;
        this.view.showHint(tile, slide);
        const togo = path.moves.length;
        const why = path.optimal ?
            `${togo} move${togo === 1 ? '' : 's'} from the goal` :
            'a good move (not proven optimal: this board is too big to search fully in time)';
        this.hud.say(`Hint: slide ${tile} ${slide} ${ARROW[slide]} · ${why}`, 'hint');
    }

    /* Asks for the rest of the route and plays it on the board. */
    async solve()
    {
        if (this.phase !== 'playing' || this.busy)
            return;
        await this.withPath('solve', 'Asking the solver…', (path) => {
            this.assisted = true;
            this.phase = 'solving';
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
        this.hud.say('Back to the start of this board.');
    }

    /* A fresh board at the current level (also leaves a pasted board). */
    shuffle()
    {
        return this.play(this.size, this.level);
    }

    nextLevel()
    {
        return this.play(this.size, this.level + 1);
    }

    changeLevel(delta)
    {
        if (this.custom)
            return this.play(this.size, this.level);
        const target = this.level + delta;
        if (target < 1 || target > unlockedFor(this.progress, this.size))
            return null;
        return this.play(this.size, target);
    }

    async finish()
    {
        const token = this.token;
        this.phase = 'finished';
        this.playback.stop();
        this.clock.stop();
        this.hud.say(this.assisted ? 'Solved, with the solver\u2019s help.' : 'Solved! Working out your score…', 'good');
        this.changed();
        const [scored, solver] = await Promise.all([
            api.score(this.start, this.moves).catch((err) => ({ error: err })),
            this.solverInfo,
            delay(FINISH_PAUSE_MS),
        ]);
        if (token !== this.token)
            return;
        const result = this.result(scored, solver);
        this.hud.say(`Solved in ${result.moves} moves` +
            (Number.isFinite(result.percent) ? ` · ${result.percent}% of the optimal route` : '') +
            '. Press N for a new board.', 'good');
        const choice = await this.card.show(result);
        if (token !== this.token)
            return;
        if (choice === 'next')
            this.custom ? this.shuffle() : this.nextLevel();
        else if (choice === 'replay')
            this.restart();
    }

    /* The numbers for the score card, recorded in the progress on the way. */
    result(scored, solver)
    {
        const moves = this.moves.length;
        /* The server's count when it has one; else our own optimal solve. */
        let optimal = scored.error ? null : scored.optimal_moves;
        if (!Number.isInteger(optimal))
            optimal = solver && solver.optimal ? solver.moves.length : NaN;
        let ratio = scored.error ? null : scored.score;
        if (typeof ratio !== 'number')
            ratio = optimal / Math.max(1, moves);
        const stars = this.assisted ? 0 : starsFor(ratio);
        let best = false;
        if (!this.custom) {
            best = recordFinish(this.progress, this.size, this.level, {
                ratio, stars, moves, seconds: this.clock.seconds, assisted: this.assisted,
            });
        }
        this.showLevel();
        this.changed();
        return {
            kicker: this.custom ? `Your board · ${this.size}×${this.size}` :
                `Level ${this.level} · ${this.size}×${this.size}`,
            title: this.title(ratio),
            percent: Number.isFinite(ratio) ? percent(ratio) : NaN,
            stars,
            moves,
            optimal,
            seconds: this.clock.seconds,
            hints: this.hints,
            solver,
            note: this.note(best, scored, { optimal }, solver),
            canGoOn: !this.custom,
        };
    }

    title(ratio)
    {
        if (this.assisted)
            return 'Solved by the solver';
        if (ratio >= 0.999)
            return 'Perfect!';
        return ratio >= 0.7 ? 'Great solve!' : 'Solved!';
    }

    note(best, scored, result, solver)
    {
        if (scored.error)
            return `Scored here, as the server could not: ${scored.error.message}`;
        if (!Number.isFinite(result.optimal) && solver) {
            return `This board is too big to prove a shortest route; the solver\u2019s ` +
                `own route took ${solver.moves.length} moves.`;
        }
        if (this.assisted) {
            return `${this.solverMoves} of the ${this.moves.length} moves were the solver\u2019s. ` +
                'Stars are for boards you finish yourself.';
        }
        if (best) {
            const record = bestFor(this.progress, this.size, this.level);
            return record && record.stars === 3 ? 'New best: a perfect route!' : 'New best for this level!';
        }
        return '';
    }
}

function delay(ms)
{
    return new Promise((resolve) => setTimeout(resolve, ms));
}
