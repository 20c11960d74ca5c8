/*
 * shapes.test.mjs - the web game's rectangular boards (issue 33), in a
 * real browser against a real puzzled: the size picker's shapes (rows ×
 * columns, one tall), a 3×4 board that shows 3 rows of 4 square cells and
 * moves the way the server counts moves (the server measures the shown
 * board after each kind of move), a win on the solver's route with its
 * score, honest words on a 4×5 board whose route the solver could not
 * prove shortest, pictures cut to the board's aspect (built-in and the
 * player's own), a tall board on a phone, levels kept per shape (the
 * squares' old saves still read), share links that keep the shape, and a
 * daily that stays square. Screenshots: test-output/e2e/shapes-*.png.
 *
 * Run: tests/scripts/e2e_shapes.sh, or alone:
 *   node --test tests/e2e/shapes.test.mjs
 */

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { applyMove, opposite, toRows } from '../../www/js/board.js';
import { apiClient, launchBrowser, outputDir, screenshot, startServer, T } from './harness.mjs';
import { axeCheck } from './axe.mjs';
import { chooseOwnPicture } from './session.mjs';

const SHOTS = outputDir('test-output', 'e2e');
const KEY_FOR_SLIDE = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };
/* A 4×5 board 200 random steps from the goal: A* gives up on it within
   the game's 3 s, and the server's default (the anytime search) answers
   with a route it does not prove shortest (optimal: false). */
const HARD_4X5 = [4, 3, 19, 0, 14, 9, 16, 13, 5, 11, 8, 6, 7, 15, 1, 12, 17, 18, 2, 10];

let server;
let browser;
let page;
let api;
const problems = [];

async function shot(name, p = page)
{
    await screenshot(p, { path: path.join(SHOTS, `shapes-${name}.png`) });
}

async function board(p = page)
{
    const text = await p.getAttribute('#board', 'data-board');
    return text.split(' ').map(Number);
}

async function waitForPlaying(p = page, cells = 0)
{
    await p.waitForFunction((n) => {
        const b = document.getElementById('board');
        return b.dataset.phase === 'playing' && (!n || b.dataset.board.split(' ').length === n);
    }, cells, { timeout: T(20000) });
}

async function waitForBoard(tiles, p = page)
{
    await p.waitForSelector(`#board[data-board="${tiles.join(' ')}"]`, { timeout: T(5000) });
}

/* No progress, no saved game: level 1 of 3×3 (see round2's freshPage). */
async function freshPage(p = page)
{
    await p.goto(`${server.base}/livez`);
    await p.evaluate(() => localStorage.clear());
    await p.goto(`${server.base}/`);
    await waitForPlaying(p, 9);
}

async function pickShape(key, cells, p = page)
{
    await p.click(`#size-choice label:has(input[value="${key}"])`);
    await waitForPlaying(p, cells);
}

/* The server's answer for a board of `cols` columns (rows go as rows). */
async function solveOn(tiles, cols, extra = {})
{
    const r = await api('/v1/solve', { board: toRows(tiles, cols), ...extra });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'solved', r.text);
    return r.json;
}

/* Plays blank moves with the arrow keys on a board of `cols` columns:
   all the keys, then a wait for the board they lead to (each key is
   handled as it comes, so there is no need to wait between them). */
async function playKeys(moves, cols, p = page)
{
    let tiles = await board(p);
    for (const move of moves) {
        const next = applyMove(tiles, move, cols);
        assert.ok(next, `${move} is not legal on ${tiles}`);
        tiles = next;
    }
    for (const move of moves)
        await p.keyboard.press(KEY_FOR_SLIDE[opposite(move)]);
    await waitForBoard(tiles, p);
}

/* Where the tiles are drawn: distinct rows and columns of their boxes,
   and each face's width and height. */
/* The stage scrolled to the top of the screen, again until the scroll
   holds (stage at the top, or the page scrolled as far as it goes) and
   the board has kept the same box for 10 frames in a row: on a loaded
   machine one scroll could come before the page's last layout and
   leave the board where the page was then (a 5×3 measured at 403..939,
   and in CI's make test at 361..897, on an 844px screen, yet fitting
   once settled). A board that never fits still fails: the measure
   comes after, from the settled page. */
async function scrollToStage(p)
{
    await p.waitForFunction(() => {
        const stage = document.querySelector('.stage');
        stage.scrollIntoView({ block: 'start', behavior: 'instant' });
        const end = document.documentElement.scrollHeight - window.innerHeight;
        const placed = Math.abs(stage.getBoundingClientRect().top) < 1 || window.scrollY >= end - 1;
        const b = document.getElementById('board').getBoundingClientRect();
        const box = [b.x, b.y, b.width, b.height].map(Math.round).join(',');
        const w = window;
        w.__stageSettle = (placed && w.__stageBox === box) ? (w.__stageSettle || 0) + 1 : 0;
        w.__stageBox = box;
        return w.__stageSettle >= 10;
    }, null, { polling: 'raf', timeout: T(10000) });
}

async function layout(p = page)
{
    return p.evaluate(() => {
        const tiles = [...document.querySelectorAll('#board .tile:not(.last-piece)')];
        const boxes = tiles.map((t) => t.getBoundingClientRect());
        const faces = [...document.querySelectorAll('#board .tile .face')]
            .map((f) => f.getBoundingClientRect());
        const round = (v) => Math.round(v);
        const b = document.getElementById('board').getBoundingClientRect();
        return {
            tops: [...new Set(boxes.map((r) => round(r.top)))].length,
            lefts: [...new Set(boxes.map((r) => round(r.left)))].length,
            faces: faces.map((f) => [f.width, f.height]),
            board: { x: b.x, y: b.y, width: b.width, height: b.height, bottom: b.bottom, right: b.right },
        };
    });
}

async function cardResult(p = page)
{
    await p.waitForSelector('#score-card[open]', { timeout: T(20000) });
    return p.evaluate(() => ({
        kicker: document.getElementById('score-kicker').textContent,
        title: document.getElementById('score-title').textContent,
        stars: Number(document.getElementById('score-stars').dataset.stars),
        percent: document.getElementById('score-percent').textContent,
        sub: document.getElementById('score-sub').textContent,
        label: document.getElementById('score-optimal-label').textContent,
        optimal: document.getElementById('score-optimal').textContent,
        moves: document.getElementById('score-moves').textContent,
        solver: document.getElementById('solver-line').textContent,
        note: document.getElementById('score-note').textContent,
        next: document.getElementById('score-next').textContent,
    }));
}

async function closeCard(choice = 'score-replay', p = page)
{
    await p.click(`#${choice}`);
    await p.waitForFunction(() => !document.getElementById('score-card').open);
}

/* The picture on the board: its image's size, and what a face's
   background is scaled to. */
async function pictureGeometry(p = page)
{
    return p.evaluate(async () => {
        const b = document.getElementById('board');
        const url = /url\("(.*)"\)/.exec(b.style.getPropertyValue('--picture'))[1];
        const img = new Image();
        img.src = url;
        await img.decode();
        const face = document.querySelector('#board .tile:not(.last-piece) .face');
        const size = getComputedStyle(face).backgroundSize.split(' ').map(parseFloat);
        const box = b.getBoundingClientRect();
        return { w: img.naturalWidth, h: img.naturalHeight, bg: size, board: [box.width, box.height] };
    });
}

before(async () => {
    server = await startServer();
    api = apiClient(server.base);
    browser = await launchBrowser({ width: 1280, height: 900 });
    page = browser.context.pages()[0] || await browser.context.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
});

after(async () => {
    await browser?.close();
    await server?.stop();
});

test('the size picker offers 2×3, 3×4, 4×5 and a tall 5×3 beside the squares, named rows × columns', async () => {
    await freshPage();
    const options = await page.$$eval('#size-choice input[name="size"]', (inputs) => inputs.map((i) => ({
        value: i.value,
        name: i.closest('label').textContent.replace(/\s+/g, ' ').trim(),
    })));
    assert.deepEqual(options.map((o) => o.value), ['3', '4', '5', '2x3', '3x4', '4x5', '5x3']);
    const byValue = Object.fromEntries(options.map((o) => [o.value, o.name]));
    assert.match(byValue['3x4'], /^3×4 .*3 rows by 4 columns/);
    assert.match(byValue['5x3'], /^5×3 tall.*5 rows by 3 columns/);
    assert.match(await page.textContent('#size-choice'), /2×3/);
    assert.match(await page.$eval('#size-choice', (e) => e.closest('fieldset').querySelector('legend').textContent),
        /rows × columns/);
    await pickShape('4x5', 20);
    assert.deepEqual([await page.getAttribute('#board', 'data-rows'), await page.getAttribute('#board', 'data-cols')],
        ['4', '5']);
    const l = await layout();
    assert.deepEqual([l.tops, l.lefts], [4, 5], '4 rows of 5 tiles');
    assert.match(await page.getAttribute('#board', 'aria-label'), /\(4 rows of 5\)/);
    await pickShape('2x3', 6);
    assert.deepEqual([(await layout()).tops, (await layout()).lefts], [2, 3]);
    await axeCheck(page, '2×3 board');
});

test('3×4 shows 3 rows of 4 square cells; click, key, swipe, undo and hint move as the server counts', async () => {
    await pickShape('3x4', 12);
    assert.equal(await page.isChecked('#size-choice input[value="3x4"]'), true);
    assert.equal(await page.textContent('#size-name'), '3×4');
    const l = await layout();
    assert.deepEqual([l.tops, l.lefts], [3, 4], '3 rows of 4 tiles');
    for (const [w, h] of l.faces)
        assert.ok(Math.abs(w - h) < 1, `a cell is ${w}×${h}, not square`);
    assert.ok(Math.abs(l.board.width / l.board.height - 4 / 3) < 0.01, JSON.stringify(l.board));

    /* A board a few moves out, so the route is long enough to try every
       kind of move on (a New board until one is). */
    let start = await board();
    let answer = await solveOn(start, 4);
    for (let i = 0; i < 8 && answer.length < 6; i++) {
        await page.click('#shuffle');
        await waitForPlaying(page, 12);
        start = await board();
        answer = await solveOn(start, 4);
    }
    assert.ok(answer.length >= 6, `3×4 boards too short: ${answer.length}`);
    assert.equal(answer.optimal, true, '3×4 is solved optimally');
    const k = answer.length;
    const distance = async () => (await solveOn(await board(), 4)).length;

    /* 1: a click on the tile the server says slides first. */
    await page.click(`#board .tile[data-tile="${answer.tiles[0]}"]`);
    await waitForBoard(applyMove(start, answer.moves[0], 4));
    /* 2: the arrow key for the server's second move. */
    await page.focus('#board');
    await page.keyboard.press(KEY_FOR_SLIDE[opposite(answer.moves[1])]);
    let now = applyMove(applyMove(start, answer.moves[0], 4), answer.moves[1], 4);
    await waitForBoard(now);
    /* 3: a swipe the way the third tile goes. */
    const box = await page.locator('#board').boundingBox();
    const [dx, dy] = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[opposite(answer.moves[2])];
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + dx * 90, box.y + box.height / 2 + dy * 90, { steps: 4 });
    await page.mouse.up();
    now = applyMove(now, answer.moves[2], 4);
    await waitForBoard(now);
    assert.equal(await page.textContent('#moves'), '3');
    /* The server agrees: the shown board is k - 3 moves from the goal,
       and it accepts the moves from the start as legal. */
    assert.equal(await distance(), k - 3);
    const scored = await api('/v1/score', { board: toRows(start, 4), moves: answer.moves.slice(0, 3) });
    assert.equal(scored.status, 200, scored.text);
    assert.equal(scored.json.legal, true);

    /* Undo takes the swipe back: k - 2 again. */
    await page.click('#undo');
    await waitForBoard(applyMove(applyMove(start, answer.moves[0], 4), answer.moves[1], 4));
    assert.equal(await distance(), k - 2);

    /* A hint points at a tile; sliding it brings the board one closer. */
    await page.click('#hint');
    await page.waitForSelector('#board[data-hint-tile]', { timeout: T(10000) });
    assert.match(await page.textContent('#status'), /moves? from the goal/);
    const hinted = await page.getAttribute('#board', 'data-hint-tile');
    const before = await board();
    await page.click(`#board .tile[data-tile="${hinted}"]`);
    await page.waitForFunction((b) => document.getElementById('board').dataset.board !== b, before.join(' '));
    assert.equal(await distance(), k - 3);
    await shot('3x4-play');
    /* A reload resumes the 3×4 game where it was, shape and all. */
    const shown = await board();
    const moves = await page.textContent('#moves');
    await page.reload();
    await waitForBoard(shown);
    assert.equal(await page.textContent('#moves'), moves);
    assert.deepEqual([(await layout()).tops, (await layout()).lefts], [3, 4]);
    assert.equal(await page.isChecked('#size-choice input[value="3x4"]'), true);
});

test('3×4: the solver\u2019s route by hand wins 100% and three stars, and opens level 2 of 3×4 only', async () => {
    await page.click('#shuffle');
    await waitForPlaying(page, 12);
    const start = await board();
    const answer = await solveOn(start, 4);
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById('par').textContent),
        null, { timeout: T(10000) });
    assert.equal(await page.textContent('#par'), String(answer.length), 'par is the optimal length');
    await page.focus('#board');
    await playKeys(answer.moves, 4);
    const r = await cardResult();
    assert.equal(r.percent, '100');
    assert.equal(r.stars, 3);
    assert.equal(r.label, 'Optimal');
    assert.equal(r.optimal, String(answer.length));
    assert.equal(r.moves, String(answer.length));
    assert.match(r.sub, /of the optimal route/);
    assert.match(r.kicker, /Level 1 · 3×4/);
    assert.match(r.solver, /proved its route optimal/);
    await shot('3x4-card');
    await closeCard('score-next');
    await waitForPlaying(page, 12);
    assert.equal(await page.textContent('#level'), '2');
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('puzzled.progress.v1')));
    assert.equal(saved.size, '3x4');
    assert.equal(saved.sizes['3x4'].unlocked, 2);
    assert.equal(saved.sizes['3x4'].best['1'].stars, 3);
    assert.ok(!saved.sizes['3'] || saved.sizes['3'].unlocked === 1, 'the 3×3 levels did not move');
});

test('levels are kept per shape, and a save from before shapes still reads', async () => {
    await pickShape('3', 9);
    assert.equal(await page.textContent('#level'), '1');
    assert.equal(await page.textContent('#size-name'), '3×3');
    await pickShape('3x4', 12);
    assert.equal(await page.textContent('#level'), '2');
    assert.equal(await page.textContent('#total-stars'), '3');
    await page.click('#level-map-open');
    await page.waitForSelector('#level-map[open]');
    assert.equal(await page.textContent('#level-map-size'), '3×4');
    assert.match(await page.textContent('#level-map-note'), /3 of \d+ stars won on 3×4/);
    await page.click('#level-map-close');

    /* The squares' progress as an older page saved it: size a number. */
    await page.goto(`${server.base}/livez`);
    await page.evaluate(() => {
        localStorage.clear();
        localStorage.setItem('puzzled.progress.v1', JSON.stringify({
            version: 1, size: 4, picture: 'numbers', showNumbers: false,
            sizes: { 4: { level: 5, unlocked: 5, best: { 1: { ratio: 1, stars: 3, moves: 10, seconds: 9 },
                2: { ratio: 0.8, stars: 2, moves: 15, seconds: 20 } } } },
        }));
    });
    await page.goto(`${server.base}/`);
    await waitForPlaying(page, 16);
    assert.equal(await page.textContent('#level'), '5');
    assert.equal(await page.textContent('#total-stars'), '5');
    assert.equal(await page.isChecked('#size-choice input[value="4"]'), true);
    await pickShape('4x5', 20);
    assert.equal(await page.textContent('#level'), '1');
    assert.equal(await page.textContent('#total-stars'), '0');
});

test('pictures are cut to the board: square cells, the picture as wide as cols:rows', async () => {
    await pickShape('3x4', 12);
    await page.click('#picture-choice label:has(input[value="koi"])');
    await page.waitForSelector('#board.pictures');
    let g = await pictureGeometry();
    assert.ok(Math.abs(g.w / g.h - 4 / 3) < 0.01, `koi on 3×4 is ${g.w}×${g.h}`);
    /* The picture spans the board exactly (no stretch: same aspect). */
    assert.ok(Math.abs(g.bg[0] - g.board[0]) < 1 && Math.abs(g.bg[1] - g.board[1]) < 1,
        `picture ${g.bg} on a board ${g.board}`);
    for (const [w, h] of (await layout()).faces)
        assert.ok(Math.abs(w - h) < 1, `a cell is ${w}×${h}`);
    const goal = await page.$eval('#goal-image', (e) => [e.offsetWidth, e.offsetHeight]);
    assert.ok(Math.abs(goal[0] / goal[1] - 4 / 3) < 0.05, `goal preview ${goal}`);
    await shot('3x4-koi');

    /* The player's own photo (a 640×480 stand-in) on 3×4, then on the tall 5×3. */
    await chooseOwnPicture(page, { columns: true });
    g = await pictureGeometry();
    assert.ok(Math.abs(g.w / g.h - 4 / 3) < 0.01, `own photo on 3×4 is ${g.w}×${g.h}`);
    await pickShape('5x3', 15);
    await page.waitForFunction(async () => {
        const b = document.getElementById('board');
        const m = /url\("(.*)"\)/.exec(b.style.getPropertyValue('--picture'));
        if (!m)
            return false;
        const img = new Image();
        img.src = m[1];
        await img.decode();
        return Math.abs(img.naturalWidth / img.naturalHeight - 3 / 5) < 0.01;
    }, null, { timeout: T(5000) });
    g = await pictureGeometry();
    assert.ok(Math.abs(g.bg[0] - g.board[0]) < 1 && Math.abs(g.bg[1] - g.board[1]) < 1);
    await shot('5x3-own');
    await page.click('#picture-choice label:has(input[value="numbers"])');
    await page.waitForSelector('#board.numbers');
});

test('a 4×5 board whose route is not proven shortest says "best found", never "optimal"', async () => {
    const answers = [];
    const listen = async (response) => {
        if (response.url().endsWith('/v1/solve') && response.request().method() === 'POST') {
            try {
                const json = await response.json();
                if (json.status === 'solved')
                    answers.push(json);
            } catch { /* not JSON */ }
        }
    };
    page.on('response', listen);
    try {
        await page.goto(`${server.base}/?board=${HARD_4X5.join(',')}&shape=4x5`);
        await waitForPlaying(page, 20);
        assert.deepEqual([(await layout()).tops, (await layout()).lefts], [4, 5]);
        await page.waitForFunction(() => document.getElementById('par').textContent.startsWith('≤'),
            null, { timeout: T(20000) });
        /* The route the game took its par from (the first answer is the
           one-node solvability check of a shared board). */
        const par = Number((await page.textContent('#par')).replace(/\D/g, ''));
        const used = answers.find((a) => a.length === par && a.moves.length === par);
        assert.ok(used, `the game's par ${par} is the length of a route the server sent`);
        assert.equal(used.optimal, false, 'the answer is not proven optimal');
        assert.equal(await page.textContent('#par'), `≤\u2009${used.length}`);
        assert.match(await page.getAttribute('#par', 'title'), /not proven shortest/);
        /* The server, asked on its own, does not prove it either. */
        assert.equal((await solveOn(HARD_4X5, 5)).optimal, false);
        await page.focus('#board');
        await playKeys(used.moves, 5);
        const r = await cardResult();
        assert.equal(r.label, 'Best found');
        assert.equal(r.optimal, `≤ ${used.length}`);
        assert.equal(r.percent, '100');
        assert.match(r.sub, /best route found.*not proven shortest/);
        assert.doesNotMatch(`${r.title} ${r.sub}`, /optimal|perfect/i);
        assert.match(r.title, /best route found/);
        assert.match(r.solver, /not proven shortest/);
        assert.match(r.kicker, /Shared board · 4×5/);
        await shot('4x5-best-found');
        await closeCard('score-replay');
    } finally {
        page.off('response', listen);
    }
});

test('a share link keeps the shape: a 3×4 board opens as 3 rows of 4', async () => {
    await freshPage();
    await pickShape('3x4', 12);
    const tiles = await board();
    await page.click('#share');
    const url = await page.inputValue('#share-url');
    assert.match(url, /[?&]shape=3x4(&|$)/);
    await page.goto(url);
    await waitForPlaying(page, 12);
    assert.deepEqual(await board(), tiles);
    assert.deepEqual([(await layout()).tops, (await layout()).lefts], [3, 4]);
    assert.equal(await page.textContent('#level'), 'Shared');
    /* Watch A* think draws squares: on a rectangle it says so and traces
       its sample 3×3 rather than misread the 12 tiles as 4 rows of 3. */
    await page.click('#think-load');
    await page.waitForFunction(() => /A\* from/.test(document.getElementById('think-message').textContent),
        null, { timeout: T(15000) });
    assert.match(await page.textContent('#think-message'), /sample 3×3 board: the board you are playing is 3×4, a rectangle/);
});

test('the tall 5×3 fits a 390×844 phone screen, and a wide 4×5 fits it and a desktop', async () => {
    const phone = await browser.context.newPage();
    phone.on('pageerror', (err) => problems.push(`phone page error: ${err.message}`));
    try {
        await phone.setViewportSize({ width: 390, height: 844 });
        await freshPage(phone);
        await pickShape('5x3', 15, phone);
        await scrollToStage(phone);
        const l = await layout(phone);
        assert.deepEqual([l.tops, l.lefts], [5, 3]);
        assert.ok(l.board.y >= 0 && l.board.bottom <= 844,
            `the tall board spans ${l.board.y}..${l.board.bottom} on an 844px screen`);
        assert.ok(l.board.x >= 0 && l.board.right <= 390);
        for (const [w, h] of l.faces)
            assert.ok(Math.abs(w - h) < 1 && w >= 44, `a cell is ${w}×${h}`);
        assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth) <= 390);
        /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
        await phone.waitForTimeout(300);
        await shot('5x3-phone', phone);
        await pickShape('4x5', 20, phone);
        await scrollToStage(phone);
        const w = await layout(phone);
        assert.ok(w.board.x >= 0 && w.board.right <= 390 && w.board.bottom <= 844, JSON.stringify(w.board));
        assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth) <= 390);
        await axeCheck(phone, 'phone, 4×5');
    } finally {
        await phone.close();
    }
    await pickShape('4x5', 20);
    await scrollToStage(page);
    const d = await layout();
    assert.ok(d.board.y >= 0 && d.board.bottom <= 900 && d.board.right <= 1280, JSON.stringify(d.board));
    await pickShape('2x3', 6);
    const s = await layout();
    assert.ok(s.board.bottom <= 900 && Math.abs(s.board.width / s.board.height - 1.5) < 0.01);
});

test('Solve plays the solver\u2019s route on a 2×3 with the playback bar, and the card says so', async () => {
    await pickShape('2x3', 6);
    await page.waitForFunction(() => /^\d+$/.test(document.getElementById('par').textContent),
        null, { timeout: T(10000) });
    const par = Number(await page.textContent('#par'));
    const answer = await solveOn(await board(), 3);
    assert.equal(par, answer.length, 'par on 2×3 is the optimal length');
    await page.click('#solve');
    await page.waitForSelector('#playback:not([hidden])', { timeout: T(10000) });
    const r = await cardResult();
    assert.equal(r.title, 'Solved by the solver');
    assert.equal(r.moves, String(par));
    assert.equal(r.label, 'Optimal');
    assert.match(r.kicker, /2×3/);
    await closeCard('score-replay');
    await waitForPlaying(page, 6);
});

test('the daily stays square: no shape to choose, and it plays a square after a 3×4 game', async () => {
    await pickShape('3x4', 12);
    const daily = await page.$$eval('#daily-size input', (inputs) => inputs.map((i) => i.value));
    assert.deepEqual(daily, ['3', '4', '5']);
    const today = await page.$$eval('#today-boards [data-size]', (b) => b.map((x) => x.dataset.size));
    assert.deepEqual(today, ['3', '4', '5']);
    await page.waitForSelector('#daily-play:not([disabled])', { timeout: T(10000) });
    await page.click('#daily-play');
    await waitForPlaying(page, 9);
    assert.equal(await page.textContent('#level'), 'Daily');
    assert.equal(await page.isChecked('#size-choice input[value="3"]'), true);
    assert.deepEqual([(await layout()).tops, (await layout()).lefts], [3, 3]);
});

test('no script errors with shapes', () => {
    assert.deepEqual(problems, []);
});
