/*
 * main.js - starts the page: builds each part (board, HUD, settings,
 * lab, score card), connects them to the game and to the player's
 * input, and restores the saved progress and the game in progress. It
 * holds no rules of its own. Also here: the level map, the theme and
 * sound toggles and share links, each a few lines of wiring.
 */

import { solve } from './api.js';
import { Assistant } from './assist.js';
import { BoardView } from './board-view.js';
import { Daily, closedDay } from './daily.js';
import { Game } from './game.js';
import { Ghost } from './ghost.js';
import { Hud } from './hud.js';
import { attachKeys, attachPointer, returnFocusAfterPointer } from './input.js';
import { Lab } from './lab.js';
import { registerWorker, watchConnection } from './offline.js';
import { loadPhoto, storedPhoto } from './photo.js';
import { NUMBERS, OWN, cutPhoto, isBuiltIn, pictureUrl } from './pictures.js';
import { speedName } from './playback.js';
import {
    bestFor, clearGame, levelFor, levelMap, loadGame, loadProgress, saveGame, saveProgress,
    totalStars,
} from './progress.js';
import { canShare, copyField, shareNative } from './copy.js';
import { readShared, shareUrl } from './share.js';
import { makeShape, parseShape, shapeName } from './shapes.js';
import { Sound } from './sound.js';
import { Ranks } from './standing.js';
import { Think } from './think.js';
import { Today } from './today.js';
import { ScoreCard } from './score-card.js';
import { SettingsPanel } from './settings-panel.js';
import { maxLevel, percent } from './levels.js';

const $ = (id) => document.getElementById(id);

const progress = loadProgress();
const view = new BoardView($('board'));
const hud = new Hud();
const card = new ScoreCard();
const sound = new Sound(false);
const ghost = new Ghost(Boolean(progress.race));
let ownUrl = storedPhoto();

const game = new Game({
    view, hud, card, progress,
    assistant: new Assistant(),
    onChange: (g) => {
        showControls();
        /* On the daily the tiles carry their numbers whatever the picture
           (a 5x5 night sky has near-identical pieces); elsewhere the
           player's setting holds (issue 45 defect 5). */
        view.setShowNumbers(Boolean(progress.showNumbers) || g.kind === 'daily' || g.kind === 'archive');
        if (g.phase !== 'playing')
            peekGoal(false);
        if (g.moves.length === 0 && g.phase === 'playing')
            ghost.reset();
        /* Help on a daily board marks every later run of it (daily.js). */
        if (g.kind === 'daily' && g.daily && (g.hints > 0 || g.watched))
            daily.markHelped(g.daily);
        if (g.kind !== 'daily')
            daily.noteRun('');
    },
    hooks: {
        onMove: (g, { bySolver }) => {
            sound.move();
            peekGoal(false);
            /* The bot sets off with the player's first move. */
            if (!bySolver && g.moves.length === 1 && g.solverMoves === 0)
                ghost.start(g);
            /* The first move of a daily run starts the server's clock. */
            if (g.kind === 'daily' && g.daily && !bySolver && g.moves.length === 1)
                daily.startRun(g.daily);
        },
        /* Solved by the player: the daily's server clock stops now,
           not when the nickname is typed (issue 45). */
        onSolved: (g) => {
            if (g.kind === 'daily' && g.daily && g.solverMoves === 0)
                daily.finishRun(g.daily, g.moves.slice(), g.hints > 0 || g.watched);
        },
        onFinish: () => sound.win(),
        onSave: (snapshot) => (snapshot ? saveGame(snapshot) : clearGame()),
        onSwitchSize: (key) => changeShape(key),
        pictureMode: () => $('board').classList.contains('pictures') &&
            !$('board').classList.contains('show-numbers'),
    },
});

const settings = new SettingsPanel({
    onSize: (key) => changeShape(key),
    onPicture: (id) => usePicture(id),
    onShowNumbers: (show) => {
        progress.showNumbers = show;
        view.setShowNumbers(show || game.kind === 'daily' || game.kind === 'archive');
        saveProgress(progress);
    },
    onPhotoFile: (file) => usePhotoFile(file),
});

new Lab({
    onPlay: (tiles, goal) => playPasted(tiles, goal, false),
    onWatch: (tiles, goal) => playPasted(tiles, goal, true),
});

new Think({ currentBoard: () => ({ tiles: game.start.slice(), goal: game.goal.slice(), shape: game.shape }) });

const daily = new Daily({ onPlay: (tiles, info) => playDaily(tiles, info) });
const today = new Today({
    onPlay: async (size) => {
        daily.selectSize(size);
        await daily.load(size);
        daily.play();
    },
});
/* The stats card's ranks: a board's button opens its day in the archive. */
new Ranks({
    entered: () => daily.enteredBoards(),
    onOpen: async (date, size) => {
        daily.selectSize(size);
        daily.size = size;
        $('daily').scrollIntoView({ block: 'start' });
        await daily.selectDay(date);
    },
});
card.onShow = (result) => {
    const race = ghost.verdict(result);
    $('score-race').textContent = race;
    $('score-race').hidden = !race;
    daily.offer(result);
    today.record(result);
};

/* Puts picture `id` on the board, cut to the board's shape (its aspect
   is columns : rows, so square cells show it unstretched). The player's
   photo is cut asynchronously; a later choice wins over an earlier one
   still being cut. */
let pictureToken = 0;

async function usePicture(id)
{
    const token = ++pictureToken;
    const shape = settings.shape;
    let url = null;
    if (id === OWN && ownUrl) {
        try {
            url = await cutPhoto(ownUrl, shape);
        } catch {
            url = null;
        }
        if (token !== pictureToken)
            return;
    } else if (isBuiltIn(id)) {
        url = pictureUrl(id, undefined, shape);
    }
    const chosen = url || id === NUMBERS ? id : NUMBERS;
    view.setPicture(url);
    settings.showPicture(chosen, url);
    progress.picture = chosen;
    saveProgress(progress);
}

async function usePhotoFile(file)
{
    hud.say('Cutting your picture into tiles…');
    try {
        ownUrl = await loadPhoto(file);
        settings.setOwn(ownUrl);
        usePicture(OWN);
        hud.say('Your picture is on the board. It stays on this device.', 'good');
    } catch (err) {
        hud.say(err.message, 'error');
    }
}

/* A shape from the picker (its key: "4", "3x4"), or the next one after
   a shape's last level. */
function changeShape(key)
{
    const shape = parseShape(key) || makeShape(3);
    progress.size = shape.key;
    saveProgress(progress);
    settings.showSize(shape);
    settings.setGoalSize(shape);
    usePicture(progress.picture);
    game.play(shape, levelFor(progress, shape));
    /* On a phone the picker is under the board: bring the new board
       back into view rather than leave it above the screen. */
    const top = $('board').getBoundingClientRect().top;
    if (top < 0 || top > innerHeight)
        document.querySelector('.stage').scrollIntoView({ block: 'start' });
}

/*
 * A pasted board is only worth playing if it can be solved; the server
 * says so (422 with the reason) before searching, and a one-node budget
 * keeps this check from searching at all.
 */
async function playPasted(tiles, goal, watch, kind = 'custom', shape = null)
{
    const own = shape || makeShape(Math.round(Math.sqrt(tiles.length)));
    await solve(tiles, { goal, cols: own.cols, limits: { max_nodes: 1 } });
    settings.showSize(own);
    settings.setGoalSize(own, goal);
    usePicture(progress.picture);
    game.playBoard(tiles, { goal, kind, shape: own });
    $('play').scrollIntoView({ block: 'start' });
    $('board').focus({ preventScroll: true });
    if (watch)
        game.solve();
}

/* The day's board, in the game: par from the server, no level. A day of
   the archive whose entries closed plays unranked ('archive'). */
function playDaily(tiles, { date, size, par, exact })
{
    settings.showSize(makeShape(size));
    settings.setGoalSize(makeShape(size));
    usePicture(progress.picture);
    const archive = closedDay(date);
    game.playBoard(tiles, { kind: archive ? 'archive' : 'daily', daily: { date, size },
        par: { moves: par, exact } });
    hud.say(`The daily ${size}×${size} of ${date}: par ${exact ? '' : '≤ '}${par}.` +
        (archive ? ' From the archive: unranked.' : '') + ' Your move.', 'good');
    $('play').scrollIntoView({ block: 'start' });
    $('board').focus({ preventScroll: true });
}

/* Enables what can be done now, and fills in the playback bar. */
function showControls()
{
    const playing = game.phase === 'playing' && !game.busy;
    $('hint').disabled = !playing;
    $('solve').disabled = !playing;
    $('restart').disabled = game.phase === 'loading' || game.phase === 'error';
    $('undo').disabled = !playing || !game.lastUndoable();
    $('share').disabled = game.phase === 'loading' || game.phase === 'error';
    $('board').setAttribute('aria-busy', String(game.phase === 'loading' || Boolean(game.busy)));
    $('board').dataset.phase = game.phase;

    const pb = game.playback;
    $('playback').hidden = !pb.active;
    const pause = $('play-pause');
    pause.firstChild.textContent = pb.paused ? 'Resume ' : 'Pause ';
    pause.setAttribute('aria-pressed', String(pb.paused));
    $('step').disabled = !pb.paused;
    $('playback-count').textContent = pb.active ? `${pb.index} / ${pb.moves.length}` : '';
    showStars();
}

function showStars()
{
    if (game.custom) {
        settings.showOwn(game.shape, game.kind);
        return;
    }
    const best = bestFor(progress, game.shape, game.level);
    const text = best ?
        `Best here: ${percent(best.ratio)}% in ${best.moves} moves.` :
        'No best score on this level yet.';
    settings.showStars(totalStars(progress, game.shape), text, game.shape);
}

function wireButtons()
{
    $('hint').addEventListener('click', () => game.hint());
    $('solve').addEventListener('click', () => game.solve());
    $('restart').addEventListener('click', () => game.restart());
    $('shuffle').addEventListener('click', () => game.shuffle());
    $('undo').addEventListener('click', () => game.undo());
    $('share').addEventListener('click', () => shareBoard());
    $('level-map-open').addEventListener('click', () => openLevelMap());
    $('peek').addEventListener('click', () => peekGoal());
    $('race').checked = Boolean(progress.race);
    $('race').addEventListener('change', () => {
        progress.race = $('race').checked;
        saveProgress(progress);
        ghost.setOn(progress.race);
    });
    /* After a click (not a key) on the theme or sound button the focus
       goes back to the board at once: Space would press the button again
       instead of pausing the solver. */
    const pointerBack = (event) => {
        if (event.detail > 0)
            $('board').focus({ preventScroll: true });
    };
    $('theme-toggle').addEventListener('click', (event) => {
        setTheme(nextTheme(progress.theme));
        pointerBack(event);
    });
    $('sound-toggle').addEventListener('click', (event) => {
        setSound(!progress.sound);
        pointerBack(event);
    });
    $('level-prev').addEventListener('click', () => game.changeLevel(-1));
    $('level-next').addEventListener('click', () => game.changeLevel(1));
    $('play-pause').addEventListener('click', () => game.playback.toggle());
    $('step').addEventListener('click', () => game.playback.step());
    $('stop').addEventListener('click', () => {
        game.stopPlayback();
        hud.say('Stopped. Your move.');
    });
    const speed = $('speed');
    speed.addEventListener('input', () => {
        game.setSpeed(Number(speed.value));
        speed.setAttribute('aria-valuetext', speedName(Number(speed.value)));
    });
    game.setSpeed(Number(speed.value));
}

function wireInput()
{
    attachPointer($('board'), view, {
        onTap: (tile) => game.tap(tile),
        onSwipe: (slide) => game.slide(slide),
    });
    attachKeys({
        slide: (slide) => game.slide(slide),
        hint: () => game.hint(),
        solve: () => game.solve(),
        restart: () => game.restart(),
        shuffle: () => game.shuffle(),
        undo: () => game.undo(),
        peek: () => peekGoal(),
        pause: () => game.playback.toggle(),
        step: () => game.playback.step(),
        stop: () => {
            if (game.playback.active) {
                game.stopPlayback();
                hud.say('Stopped. Your move.');
            }
        },
    }, () => card.open || $('level-map').open, $('board'), $('play'));
    returnFocusAfterPointer($('play'), $('board'));
    /* The clock is saved with each move; a reload or a closed tab keeps
       the time since the last one as well. Only a game already saved is
       brought up to date: one whose save was cleared stays cleared. */
    const keepTime = () => {
        if (loadGame())
            game.save();
    };
    window.addEventListener('pagehide', keepTime);
    document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden')
            keepTime();
    });
}

/* --- A peek at the goal --------------------------------------------------- */

/*
 * The goal over the board (the Goal button, G): the same picture (or
 * numbers) as the goal preview in the settings, which on a phone is a
 * screen or two below the board. Toggles, or `show` says; a move hides it.
 */
function peekGoal(show = $('goal-peek').hidden)
{
    const peek = $('goal-peek');
    if (!show && peek.hidden)
        return;
    if (show) {
        const goal = $('goal-image');
        peek.className = goal.className.replace('goal-image', 'goal-peek');
        peek.style.cssText = goal.style.cssText;
        peek.replaceChildren(...[...goal.children].map((cell) => cell.cloneNode(true)));
    }
    peek.hidden = !show;
    $('peek').setAttribute('aria-pressed', String(show));
}

/* --- Level map ---------------------------------------------------------- */

function openLevelMap()
{
    const size = game.shape;
    $('level-map-size').textContent = shapeName(size);
    const grid = $('level-grid');
    grid.replaceChildren();
    for (const entry of levelMap(progress, size)) {
        const li = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'level-cell';
        button.dataset.level = String(entry.level);
        if (!game.custom && entry.level === game.level)
            button.setAttribute('aria-current', 'true');
        if (entry.locked) {
            button.disabled = true;
            button.classList.add('locked');
        }
        const stars = '★'.repeat(entry.stars) + '☆'.repeat(3 - entry.stars);
        button.innerHTML = '';
        const num = document.createElement('span');
        num.className = 'level-num';
        num.textContent = String(entry.level);
        const row = document.createElement('span');
        row.className = 'level-stars';
        row.textContent = stars;
        button.append(num, ' ', row);
        if (entry.locked)
            row.textContent = 'locked';
        /* The name holds the visible text ("2 locked") as it reads. */
        button.setAttribute('aria-label', entry.locked ? `Level ${entry.level} locked` : `Level ${entry.level}, ` + (
            entry.played ? `${entry.stars} star${entry.stars === 1 ? '' : 's'}` : 'not finished yet'));
        button.addEventListener('click', () => {
            $('level-map').close();
            game.play(size, entry.level);
            $('board').focus({ preventScroll: true });
        });
        /* Locked levels are seen, not read one by one ("locked" 25
           times): the note above says how many there are, once. */
        if (entry.locked)
            li.setAttribute('aria-hidden', 'true');
        li.append(button);
        grid.append(li);
    }
    const all = levelMap(progress, size);
    const won = all.reduce((sum, e) => sum + e.stars, 0);
    const open = all.filter((e) => !e.locked).length;
    if (Number.isFinite(maxLevel(size))) {
        $('level-map-note').textContent = `${won} of ${all.length * 3} stars won on ${shapeName(size)}: ` +
            `${all.length * 3 - won} still to win. ${open} of ${all.length} levels open` +
            (open < all.length ? `, the other ${all.length - open} locked` : '') +
            '; finish one to open the next.';
    } else {
        $('level-map-note').textContent = `${won} of ${open * 3} stars won on ${shapeName(size)} ` +
            `in the ${open} level${open === 1 ? '' : 's'} open; ${shapeName(size)} levels go on ` +
            'without end: finish one to open the next.';
    }
    $('level-map').showModal();
}

/* --- Theme and sound ---------------------------------------------------- */

const THEMES = ['auto', 'light', 'dark'];
const THEME_NAMES = { auto: 'follows the system', light: 'light', dark: 'dark' };

function nextTheme(theme)
{
    return THEMES[(THEMES.indexOf(theme || 'auto') + 1) % THEMES.length];
}

function setTheme(theme)
{
    progress.theme = theme;
    saveProgress(progress);
    if (theme === 'auto')
        delete document.documentElement.dataset.theme;
    else
        document.documentElement.dataset.theme = theme;
    const label = `Colour theme: ${THEME_NAMES[theme]}`;
    $('theme-toggle').setAttribute('aria-label', label);
    $('theme-toggle').title = label;
    $('theme-toggle').textContent = theme === 'light' ? '☀' : theme === 'dark' ? '☾' : '◐';
}

function setSound(on)
{
    progress.sound = on;
    saveProgress(progress);
    sound.setOn(on);
    $('sound-toggle').setAttribute('aria-pressed', String(on));
    $('sound-toggle').title = `Sound: ${on ? 'on' : 'off'}`;
    $('sound-toggle').classList.toggle('on', on);
}

/* --- Share links -------------------------------------------------------- */

async function shareBoard()
{
    const url = shareUrl(location.href, game.start, game.goal, progress.picture, game.shape);
    $('share-line').hidden = false;
    const field = $('share-url');
    field.value = url;
    /* A phone's share sheet where there is one; else the clipboard. */
    if (canShare()) {
        const said = await shareNative({ title: 'puzzled', text: 'Can you solve this board?', url });
        if (said !== 'failed') {
            field.select();
            return;
        }
    }
    if (await copyField(field))
        hud.say('Link copied: it opens this board as a shared board.', 'good');
    else
        hud.say('The link is selected below: copy it with Ctrl+C (⌘C), or a long press.');
}

async function openShared(shared)
{
    if (shared.error) {
        hud.say(shared.error, 'error');
        return false;
    }
    if (shared.picture && (isBuiltIn(shared.picture) || shared.picture === NUMBERS))
        progress.picture = shared.picture;
    try {
        await playPasted(shared.tiles, shared.goal, false, 'shared', shared.shape);
        hud.say('A shared board: slide the tiles to its goal.', 'good');
        return true;
    } catch (err) {
        hud.say(`The shared board cannot be played: ${err.message}`, 'error');
        return false;
    }
}

async function startUp()
{
    wireButtons();
    wireInput();
    setTheme(progress.theme || 'auto');
    setSound(Boolean(progress.sound));
    settings.setOwn(ownUrl);
    const shape = parseShape(progress.size) || makeShape(3);
    settings.showSize(shape);
    settings.setGoalSize(shape);
    view.setShowNumbers(Boolean(progress.showNumbers));
    settings.showNumbers(Boolean(progress.showNumbers));
    usePicture(progress.picture);
    if (await openDayLink())
        return;
    const shared = readShared(location.href);
    let refused = '';
    if (shared) {
        /* The address has done its job; a reload resumes the game. */
        history.replaceState(null, '', location.pathname + location.hash);
        if (await openShared(shared))
            return;
        refused = $('status').textContent;
    }
    if (!resumeSaved())
        await game.play(shape, levelFor(progress, shape));
    /* Loading the fallback board clears the status line: say why the
       link's board is not the one on screen after it. */
    if (refused)
        hud.say(`${refused} Playing your own game instead.`, 'error');
}

/* A link back to a day's board (the share line's, /?daily=DATE&size=N):
   that day's daily, played. */
async function openDayLink()
{
    const query = new URL(location.href).searchParams;
    const date = query.get('daily');
    if (!date)
        return false;
    history.replaceState(null, '', location.pathname + location.hash);
    const size = Number(query.get('size')) || 3;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || ![3, 4, 5].includes(size) ||
        date > new Date().toISOString().slice(0, 10))
        return false;
    daily.selectSize(size);
    daily.size = size;
    await daily.selectDay(date);
    if (!daily.day)
        return false;
    daily.play();
    return true;
}

/* The game in progress before a reload, if there was one. */
function resumeSaved()
{
    const saved = loadGame();
    if (!saved)
        return false;
    const shape = parseShape(saved.size);
    if (shape) {
        settings.showSize(shape);
        settings.setGoalSize(shape, saved.goal);
        usePicture(progress.picture);
        if (game.resume(saved)) {
            if (game.kind === 'daily' && game.daily)
                daily.resumeRun(game.daily, game.moves.length);
            return true;
        }
    }
    clearGame();
    const own = parseShape(progress.size) || makeShape(3);
    settings.showSize(own);
    settings.setGoalSize(own);
    usePicture(progress.picture);
    return false;
}

watchConnection(document.getElementById('offline-note'), {
    onBack: () => daily.load(daily.size),
});
/* A link to a day's board loads that day itself (openDayLink). */
const dayLinked = new URL(location.href).searchParams.has('daily');
startUp();
if (!dayLinked)
    daily.load(3);
registerWorker();
