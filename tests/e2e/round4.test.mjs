/*
 * round4.test.mjs - the web game's fourth round (issue 45), in a real
 * browser against a real puzzled: one test per defect fixed, each of
 * which failed before its fix. Screenshots: test-output/e2e/.
 *
 * Run: tests/scripts/e2e_round4.sh, or just this file:
 *   node --test tests/e2e/round4.test.mjs
 */

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { applyMove, fromApi, opposite } from '../../www/js/board.js';
import { lowContrast } from './contrast.mjs';
import { KEY_FOR_SLIDE, outputDir, screenshot, T } from './harness.mjs';
import { board, closeSession, freshPage, openSession } from './session.mjs';

/* One server, one browser page for the whole file. */
let server, browser, page, api;
const SHOTS = outputDir('test-output', 'e2e');

before(async () => {
    ({ server, browser, page, api } = await openSession({
        viewport: { width: 1280, height: 800 },
    }));
});

after(() => closeSession({ server, browser }));

/* A blank move that is legal on tiles (the first of up, down, left, right). */
function legalMove(tiles)
{
    const move = ['up', 'down', 'left', 'right'].find((m) => applyMove(tiles, m) !== null);
    assert.ok(move, 'some move is legal');
    return move;
}

/* Defect 4: the veil over the board ("Shuffling a new board…", the
   connection error) was dark navy on grey in the light theme, 2.0:1. */
test('the loading and error veil is readable in both themes', async () => {
    try {
        await veilsReadable();
    } finally {
        await page.unrouteAll({ behavior: 'ignoreErrors' });
        await page.emulateMedia({ colorScheme: null });
    }
});

async function veilsReadable()
{
    for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        /* Hold every new board, so that the veil stays up to be measured. */
        let release;
        const held = new Promise((resolve) => {
            release = resolve;
        });
        await page.route('**/v1/puzzles/random*', async (routed) => {
            await held;
            await routed.continue().catch(() => {});
        });
        await page.goto(`${server.base}/livez`);
        await page.evaluate(() => localStorage.clear());
        await page.goto(`${server.base}/`);
        await page.waitForSelector('#board-veil:not([hidden])', { timeout: T(20000) });
        await screenshot(page, { path: path.join(SHOTS, `r4-veil-loading-${scheme}.png`) });
        const loading = await lowContrast(page, '#board-veil');
        assert.deepEqual(loading, [], `loading veil (${scheme})`);
        /* Leave the page before the held board is let go, so that it is
           never saved to be resumed by the next load. */
        await page.goto(`${server.base}/livez`);
        await page.unroute('**/v1/puzzles/random*');
        release();

        /* The server fails to give a board: the error veil. (A server
           that cannot be reached at all no longer shows it: practice
           boards are then made in the page, load.test.mjs.) */
        await page.route('**/v1/puzzles/random*', (routed) => routed.fulfill({
            status: 503, contentType: 'application/problem+json',
            body: JSON.stringify({ type: 'https://puzzled.dev/problems/overloaded',
                title: 'Overloaded', status: 503 }),
        }));
        await page.evaluate(() => localStorage.clear());
        await page.goto(`${server.base}/`);
        await page.waitForSelector('#board-veil.error:not([hidden])', { timeout: T(20000) }).catch(async (err) => {
            await screenshot(page, { path: path.join(SHOTS, 'r4-debug.png') });
            throw new Error(`${err.message}: ${await page.textContent('#status')} / ${await page.getAttribute('#board', 'data-phase')}`);
        });
        await screenshot(page, { path: path.join(SHOTS, `r4-veil-error-${scheme}.png`) });
        const failed = await lowContrast(page, '#board-veil');
        assert.deepEqual(failed, [], `error veil (${scheme})`);
        await page.unroute('**/v1/puzzles/random*');
    }
}

/* Defect 2: an arrow pressed while reading further down the page moved a
   tile on the board out of sight (and on the daily started its clock). */
test('keys do not play a board that is out of view', async () => {
    await freshPage();
    const start = await board();
    /* Far below the board, as a player reading the lab would be; the
       page scrolls smoothly, so the test scrolls at once and checks. */
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight,
        behavior: 'instant' }));
    await page.click('#lab-title', { position: { x: 2, y: 2 } });
    const seen = await page.evaluate(() => {
        const r = document.getElementById('board').getBoundingClientRect();
        return Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0)) / r.height;
    });
    assert.ok(seen < 0.5, `the board is out of view (${seen} of it seen)`);
    const move = legalMove(start);
    await page.keyboard.press(KEY_FOR_SLIDE[opposite(move)]);
    await page.waitForTimeout(300);   /* a slide takes 140 ms to land */
    assert.deepEqual(await board(), start, 'the board did not move');
    assert.equal(await page.textContent('#moves'), '0');

    /* Back at the board, the same key plays (so the check above can fail). */
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.click('#level');   /* plain text beside the board: no control */
    await page.keyboard.press(KEY_FOR_SLIDE[opposite(move)]);
    await page.waitForSelector(`#board[data-board="${applyMove(start, move).join(' ')}"]`,
        { timeout: T(5000) });
});

/* Defect 2: `h` with a link of the top bar focused from the keyboard gave
   a hint (on the daily, marking the run assisted without asking). */
test('letter keys on a focused link leave the game alone', async () => {
    await freshPage();
    await page.focus('.topnav a[href="#daily"]');
    await page.keyboard.press('h');
    /* an absence: 'h' away from the board must not ask for a hint. */
    await page.waitForTimeout(300);
    assert.doesNotMatch(await page.textContent('#status'), /Hint/);
    /* The board focused, h hints (the check above can fail). */
    await page.focus('#board');
    await page.keyboard.press('h');
    await page.waitForFunction(() => /Hint/.test(document.getElementById('status').textContent),
        null, { timeout: T(10000) });
});

/* Defect 2: a hint on the daily marks the run assisted for good: it asks
   first, and only a second H gives it. */
test('a hint on the daily asks before it marks the run assisted', async () => {
    await freshPage();
    await page.waitForFunction(() => !document.getElementById('daily-play').disabled,
        null, { timeout: T(20000) });
    const day = (await api('/v1/daily/today/3')).json;
    await page.click('#daily-play');
    await page.waitForFunction((b) => document.getElementById('board').dataset.board === b &&
        document.getElementById('board').dataset.phase === 'playing', fromApi(day.board).join(' '));
    await page.focus('#board');
    await page.keyboard.press('h');
    await page.waitForFunction(() => /assisted/.test(document.getElementById('status').textContent),
        null, { timeout: T(5000) }).catch(async (err) => {
        const why = await page.evaluate(() => ({
            status: document.getElementById('status').textContent,
            active: document.activeElement?.id,
            rect: JSON.stringify(document.getElementById('board').getBoundingClientRect()),
            h: innerHeight,
        }));
        throw new Error(`${err.message}: ${JSON.stringify(why)}`);
    });
    assert.doesNotMatch(await page.textContent('#status'), /^Hint:/);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('puzzled.game.v1') || 'null'));
    assert.equal((saved?.hinted || []).length, 0, 'no hint was taken yet');
    await page.keyboard.press('h');
    await page.waitForFunction(() => /^Hint:/.test(document.getElementById('status').textContent),
        null, { timeout: T(10000) });
});

/* Defect 6: mini boards from 4x4 up ran numbers together ("14 9 1512")
   in the daily preview and the A* view, with digits of 8-9 px. */
test('mini boards keep every number apart and readable', async () => {
    await freshPage();
    for (const size of ['4', '5']) {
        await page.click(`#daily-size label:has(input[value="${size}"])`);
        await page.waitForFunction((n) => document.querySelectorAll('#daily-board .mini i').length === n * n,
            Number(size), { timeout: T(10000) });
        const cells = await page.$$eval('#daily-board .mini i', (items) => items.map((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            const text = range.getBoundingClientRect();
            const box = cell.getBoundingClientRect();
            return {
                text: cell.textContent, left: text.left, right: text.right,
                boxLeft: box.left, boxRight: box.right,
                px: parseFloat(getComputedStyle(cell).fontSize),
            };
        }));
        for (const c of cells.filter((x) => x.text)) {
            assert.ok(c.px >= 12, `${size}x${size}: "${c.text}" is ${c.px} px`);
            assert.ok(c.left >= c.boxLeft + 1 && c.right <= c.boxRight - 1,
                `${size}x${size}: "${c.text}" reaches its cell's edge (${c.left}..${c.right} in ${c.boxLeft}..${c.boxRight})`);
        }
        await screenshot(page, { path: path.join(SHOTS, `r4-mini-${size}.png`) });
    }
});
