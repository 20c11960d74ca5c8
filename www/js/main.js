/*
 * main.js - starts the page: builds each part (board, HUD, settings,
 * lab, score card), connects them to the game and to the player's
 * input, and restores the saved progress. It holds no rules of its own.
 */

import { solve } from './api.js';
import { Assistant } from './assist.js';
import { BoardView } from './board-view.js';
import { Game } from './game.js';
import { Hud } from './hud.js';
import { attachKeys, attachPointer } from './input.js';
import { Lab } from './lab.js';
import { loadPhoto, storedPhoto } from './photo.js';
import { NUMBERS, OWN, isBuiltIn, pictureUrl } from './pictures.js';
import { speedName } from './playback.js';
import { bestFor, levelFor, loadProgress, saveProgress, totalStars } from './progress.js';
import { ScoreCard } from './score-card.js';
import { SettingsPanel } from './settings-panel.js';
import { percent } from './levels.js';

const $ = (id) => document.getElementById(id);

const progress = loadProgress();
const view = new BoardView($('board'));
const hud = new Hud();
const card = new ScoreCard();
let ownUrl = storedPhoto();

const game = new Game({
    view, hud, card, progress,
    assistant: new Assistant(),
    onChange: showControls,
});

const settings = new SettingsPanel({
    onSize: (size) => changeSize(size),
    onPicture: (id) => usePicture(id),
    onShowNumbers: (show) => {
        progress.showNumbers = show;
        view.setShowNumbers(show);
        saveProgress(progress);
    },
    onPhotoFile: (file) => usePhotoFile(file),
});

new Lab({
    onPlay: (tiles) => playPasted(tiles, false),
    onWatch: (tiles) => playPasted(tiles, true),
});

function usePicture(id)
{
    let url = null;
    if (id === OWN)
        url = ownUrl;
    else if (isBuiltIn(id))
        url = pictureUrl(id);
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

function changeSize(size)
{
    progress.size = size;
    saveProgress(progress);
    settings.showSize(size);
    settings.setGoalSize(size);
    usePicture(progress.picture);
    game.play(size, levelFor(progress, size));
}

/*
 * A pasted board is only worth playing if it can be solved; the server
 * says so (422 with the reason) before searching, and a one-node budget
 * keeps this check from searching at all.
 */
async function playPasted(tiles, watch)
{
    await solve(tiles, { limits: { max_nodes: 1 } });
    settings.showSize(Math.round(Math.sqrt(tiles.length)));
    settings.setGoalSize(Math.round(Math.sqrt(tiles.length)));
    usePicture(progress.picture);
    game.playBoard(tiles);
    $('play').scrollIntoView({ block: 'start' });
    $('board').focus({ preventScroll: true });
    if (watch)
        game.solve();
}

/* Enables what can be done now, and fills in the playback bar. */
function showControls()
{
    const playing = game.phase === 'playing' && !game.busy;
    $('hint').disabled = !playing;
    $('solve').disabled = !playing;
    $('restart').disabled = game.phase === 'loading' || game.phase === 'error';
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
    const best = game.custom ? null : bestFor(progress, game.size, game.level);
    const text = best ?
        `Best here: ${percent(best.ratio)}% in ${best.moves} moves.` :
        'No best score on this level yet.';
    settings.showStars(totalStars(progress, game.size), game.custom ? 'Playing your own board.' : text);
}

function wireButtons()
{
    $('hint').addEventListener('click', () => game.hint());
    $('solve').addEventListener('click', () => game.solve());
    $('restart').addEventListener('click', () => game.restart());
    $('shuffle').addEventListener('click', () => game.shuffle());
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
        pause: () => game.playback.toggle(),
        step: () => game.playback.step(),
        stop: () => {
            if (game.playback.active) {
                game.stopPlayback();
                hud.say('Stopped. Your move.');
            }
        },
    }, () => card.open);
}

function startUp()
{
    wireButtons();
    wireInput();
    settings.setOwn(ownUrl);
    settings.showSize(progress.size);
    settings.setGoalSize(progress.size);
    view.setShowNumbers(Boolean(progress.showNumbers));
    settings.showNumbers(Boolean(progress.showNumbers));
    usePicture(progress.picture);
    game.play(progress.size, levelFor(progress, progress.size));
}

startUp();
