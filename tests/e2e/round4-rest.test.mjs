/*
 * round4-rest.test.mjs - the rest of the web game's fourth round (issue
 * 45 defects 5, 7 and 8 and what players expect), in a real browser
 * against a real puzzled: one test per finding, each of which failed
 * before its fix. Screenshots: test-output/e2e/.
 *
 * Run: tests/scripts/e2e_round4_rest.sh, or just this file:
 *   node --test tests/e2e/round4-rest.test.mjs
 */

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fromApi } from '../../www/js/board.js';
import { axeCheck } from './axe.mjs';
import { lowContrast } from './contrast.mjs';
import { T } from './harness.mjs';
import { closeSession, freshPage, openSession, shot } from './session.mjs';

/* One server, one browser page for the whole file. */
let server, browser, page, api;
const problems = [];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

before(async () => {
    ({ server, browser, page, api } = await openSession({ viewport: DESKTOP, problems }));
});

after(() => closeSession({ server, browser }));

/* Where el is on the screen (at the current scroll), or null. */
function rect(selector)
{
    return page.evaluate((sel) => {
        const el = document.querySelector(sel);
        if (!el)
            return null;
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: innerHeight };
    }, selector);
}

/* Plays the day's board of `size` from the "Today" card. */
async function playDaily(size)
{
    const day = (await api(`/v1/daily/today/${size}`)).json;
    await page.click(`#today-boards .today-board[data-size="${size}"]`);
    await page.waitForFunction((b) => document.getElementById('board').dataset.board === b &&
        document.getElementById('board').dataset.phase === 'playing',
    fromApi(day.board).join(' '), { timeout: T(20000) });
    return day;
}

/* Defect 5: on a first visit at 1280x800 the Hint/Solve/Undo row and the
   status line were below the fold. */
test('a first visit at 1280x800 shows the board, its status and its buttons', async () => {
    await page.setViewportSize(DESKTOP);
    await freshPage();
    await shot('r4r-first-desktop');
    for (const sel of ['#board', '#status', '#hint', '#solve', '#undo', '#restart', '#shuffle', '#peek']) {
        const r = await rect(sel);
        assert.ok(r, `${sel} is on the page`);
        assert.ok(r.top >= 0 && r.bottom <= r.h, `${sel} within the first screen (${r.top}..${r.bottom} of ${r.h})`);
    }
    const board = await rect('#board');
    assert.ok(board.bottom - board.top >= 380, `the board stays large (${board.bottom - board.top} px)`);
});

/* Defect 5: on a phone the goal picture sat at y=1595, the board ending at
   771: a peek at the goal is one tap away beside the board. */
test('a peek at the goal from beside the board, on a phone', async () => {
    await page.setViewportSize(PHONE);
    try {
        await freshPage();
        const peek = await rect('#peek');
        assert.ok(peek && peek.top >= 0 && peek.bottom <= peek.h, `the peek control is on the first screen (${JSON.stringify(peek)})`);
        assert.equal(await page.isVisible('#goal-peek'), false, 'no goal over the board yet');
        await page.click('#peek');
        await page.waitForSelector('#goal-peek:not([hidden])', { timeout: T(5000) });
        assert.equal(await page.getAttribute('#peek', 'aria-pressed'), 'true');
        const shown = await rect('#goal-peek');
        const board = await rect('#board');
        assert.ok(Math.abs(shown.top - board.top) < 2 && Math.abs(shown.bottom - board.bottom) < 2,
            `the goal covers the board (${shown.top}..${shown.bottom} over ${board.top}..${board.bottom})`);
        const same = await page.evaluate(() => getComputedStyle(document.getElementById('goal-peek')).backgroundImage ===
            getComputedStyle(document.getElementById('goal-image')).backgroundImage);
        assert.ok(same, 'the peek shows the goal picture');
        await shot('r4r-peek-phone');
        await axeCheck(page, 'goal peek');
        /* Any move (or the control again) puts the board back. */
        await page.click('#peek');
        await page.waitForSelector('#goal-peek', { state: 'hidden', timeout: T(5000) });
        assert.equal(await page.getAttribute('#peek', 'aria-pressed'), 'false');
        /* G from the board peeks too. */
        await page.focus('#board');
        await page.keyboard.press('g');
        await page.waitForSelector('#goal-peek:not([hidden])', { timeout: T(5000) });
        await page.keyboard.press('g');
        await page.waitForSelector('#goal-peek', { state: 'hidden', timeout: T(5000) });
    } finally {
        await page.setViewportSize(DESKTOP);
    }
});

/* Defect 5: the 5x5 daily was several near-identical night-sky tiles with
   no numbers: on the daily, numbers are on the tiles whatever the picture. */
test('the daily shows numbers on picture tiles, practice keeps the setting', async () => {
    await freshPage();
    assert.equal(await page.isChecked('#show-numbers'), false);
    const visibleNumbers = () => page.$$eval('#board .tile .num', (nums) =>
        nums.filter((n) => getComputedStyle(n).display !== 'none' &&
            getComputedStyle(n).visibility !== 'hidden' && Number(getComputedStyle(n).opacity) > 0.5).length);
    assert.equal(await visibleNumbers(), 0, 'a practice picture has no numbers');
    await playDaily(5);
    assert.equal(await visibleNumbers(), 24, 'every daily tile shows its number');
    await shot('r4r-daily-numbers');
    assert.deepEqual(await lowContrast(page, '#board'), [], 'the numbers are readable');
    /* Back to practice: the player's own choice again. */
    await page.click('#size-choice label:has(input[value="3"])');
    await page.waitForFunction(() => document.getElementById('board').dataset.phase === 'playing' &&
        document.getElementById('board').dataset.board.split(' ').length === 9, null, { timeout: T(20000) });
    assert.equal(await visibleNumbers(), 0, 'practice is back to the setting');
});
