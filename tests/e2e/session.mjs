/*
 * session.mjs - the set-up the browser suites each wrote again: one
 * puzzled and one chromium page for a whole test file (opened in its
 * before(), closed in its after()), the page's errors gathered for the
 * file's last test to find none, and the page reads every suite makes
 * (its board, a screenshot, waiting for play, a fresh level 1, the
 * server's route for a square board played by keys, a UTC day).
 *
 * The helpers default to the page openSession() opened: a file holds one
 * session, and node --test runs each file in a process of its own.
 */

import assert from 'node:assert/strict';
import path from 'node:path';
import { applyMove, opposite, toRows } from '../../www/js/board.js';
import {
    apiClient, KEY_FOR_SLIDE, launchBrowser, outputDir, screenshot, startServer, T,
} from './harness.mjs';

const SHOTS = outputDir('test-output', 'e2e');

let current = null;

/*
 * Starts the server and the browser and resolves to { server, browser,
 * page, api }. With problems (an array), the page's uncaught errors go
 * there, and unless consoleErrors is false its console errors too, but
 * for chromium's "Failed to load resource", which it logs for every 4xx:
 * the suites provoke those on purpose (an unsolvable board's 422).
 * colorScheme: headless chromium reports a light system theme and the
 * game follows it; a suite that looks at the dark one says so here.
 */
export async function openSession({
    viewport, colorScheme = null, problems = null, consoleErrors = true,
} = {})
{
    const server = await startServer();
    const browser = await launchBrowser(viewport);
    const page = browser.context.pages()[0] || await browser.context.newPage();
    if (colorScheme)
        await page.emulateMedia({ colorScheme });
    if (problems) {
        page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
        if (consoleErrors)
            page.on('console', (message) => {
                if (message.type() === 'error' &&
                    !/Failed to load resource/.test(message.text()))
                    problems.push(`console: ${message.text()}`);
            });
    }
    current = { server, browser, page, api: apiClient(server.base) };
    return current;
}

/* For after(): closes what openSession() opened, even when it failed halfway. */
export async function closeSession({ server, browser } = {})
{
    await browser?.close();
    await server?.stop();
}

/* The board the page shows, as numbers (0 is the blank). */
export async function board(p = current.page)
{
    return (await p.getAttribute('#board', 'data-board')).split(' ').map(Number);
}

/* A screenshot in test-output/e2e/NAME.png. */
export async function shot(name, p = current.page)
{
    await screenshot(p, { path: path.join(SHOTS, `${name}.png`) });
}

export async function waitForPlaying(p = current.page)
{
    await p.waitForSelector('#board[data-phase="playing"]', { timeout: T(20000) });
}

/*
 * A fresh start: no progress, no saved game, level 1 of 3×3 (or the page
 * at /QUERY, not waited for). The storage is cleared on a page of the
 * same origin that is not the game: a game page restored from the last
 * test's save could write its board again after the clear (it saves when
 * its par arrives), and the next load would resume that board.
 */
export async function freshPage(p = current.page, query = '')
{
    await p.goto(`${current.server.base}/livez`);
    await p.evaluate(() => localStorage.clear());
    await p.goto(`${current.server.base}/${query}`);
    if (!query)
        await waitForPlaying(p);
}

/*
 * The player's own photo, as the game's file input takes it: a 640×480
 * stand-in the browser paints itself (five stripes, as columns or rows,
 * a sun if asked), given to #own-picture; resolves once the page has
 * picked "own". Painted in the page so that nothing comes from disk.
 */
export async function chooseOwnPicture(p, { columns = false, sun = false } = {})
{
    const png = await p.evaluate(({ columns, sun }) => {
        const canvas = document.createElement('canvas');
        canvas.width = 640;
        canvas.height = 480;
        const ctx = canvas.getContext('2d');
        ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'].forEach((c, i) => {
            ctx.fillStyle = c;
            if (columns)
                ctx.fillRect(i * 128, 0, 128, 480);
            else
                ctx.fillRect(0, i * 96, 640, 96);
        });
        if (sun) {
            ctx.fillStyle = '#fff';
            ctx.beginPath();
            ctx.arc(320, 240, 120, 0, Math.PI * 2);
            ctx.fill();
        }
        return canvas.toDataURL('image/png').split(',')[1];
    }, { columns, sun });
    await p.setInputFiles('#own-picture', {
        name: 'holiday.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64'),
    });
    await p.waitForFunction(() =>
        document.querySelector('#picture-choice input[value="own"]').checked);
}

/* An optimal route (blank moves) for the square board tiles, from the
   server (extra: more of the request, as an algorithm). */
export async function route(tiles, extra = {})
{
    const r = await current.api('/v1/solve', { board: toRows(tiles), ...extra });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'solved', r.text);
    return r.json.moves;
}

/* Plays blank moves with the arrow keys on a square board, waiting for
   each to land. */
export async function playKeys(moves, p = current.page)
{
    let tiles = await board(p);
    for (const move of moves) {
        const next = applyMove(tiles, move);
        await p.keyboard.press(KEY_FOR_SLIDE[opposite(move)]);
        await p.waitForSelector(`#board[data-board="${next.join(' ')}"]`, { timeout: T(5000) });
        tiles = next;
    }
}

/* The UTC date offset days from today, as the daily names it. */
export function utcDay(offset = 0)
{
    return new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
}
