/*
 * readme-shots.mjs - takes the two screenshots the README shows:
 * docs/screenshot-playing.png (a level in progress, with a picture and a
 * hint) and docs/screenshot-finished.png (a finished level and its score).
 * Not a test: run it by hand after changing how the game looks.
 *
 *   PUZZLED=build/puzzled node tests/e2e/readme-shots.mjs
 */

import path from 'node:path';
import { opposite, toRows } from '../../www/js/board.js';
import { ROOT, apiClient, launchBrowser, outputDir, startServer } from './harness.mjs';

const KEY = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };
const VIEWPORT = { width: 1280, height: 860 };

/* A player a few levels in, so the page shows some progress. */
const PROGRESS = {
    version: 1, size: 3, picture: 'koi', showNumbers: false,
    sizes: {
        3: {
            level: 8, unlocked: 8,
            best: { 1: { ratio: 1, stars: 3, moves: 4, seconds: 6 },
                2: { ratio: 1, stars: 3, moves: 5, seconds: 9 },
                3: { ratio: 0.75, stars: 2, moves: 8, seconds: 14 },
                4: { ratio: 1, stars: 3, moves: 7, seconds: 12 },
                5: { ratio: 0.8, stars: 2, moves: 10, seconds: 21 },
                6: { ratio: 1, stars: 3, moves: 9, seconds: 19 },
                7: { ratio: 1, stars: 3, moves: 10, seconds: 25 } },
        },
    },
};

async function board(page)
{
    return (await page.getAttribute('#board', 'data-board')).split(' ').map(Number);
}

async function main()
{
    const server = await startServer();
    const api = apiClient(server.base);
    const browser = await launchBrowser(VIEWPORT);
    const docs = outputDir('docs');
    try {
        const page = browser.context.pages()[0] || await browser.context.newPage();
        /* The README shows the dark theme (headless chromium reports light). */
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.goto(`${server.base}/`);
        await page.evaluate((p) => localStorage.setItem('puzzled.progress.v1', JSON.stringify(p)),
            PROGRESS);
        await page.reload();
        await page.waitForSelector('#board[data-phase="playing"]');

        /* In progress: two optimal moves made, then a hint on screen. */
        const start = await board(page);
        const route = (await api('/v1/solve', { board: toRows(start) })).json.moves;
        await page.focus('#board');
        for (const move of route.slice(0, 2))
            await page.keyboard.press(KEY[opposite(move)]);
        await page.waitForTimeout(1300);
        await page.click('#hint');
        await page.waitForSelector('#board[data-hint-tile]');
        await page.mouse.move(0, 0);
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(docs, 'screenshot-playing.png') });

        /* Finished: the rest of the optimal route, so the score is perfect. */
        const rest = (await api('/v1/solve', { board: toRows(await board(page)) })).json.moves;
        await page.focus('#board');
        for (const move of rest) {
            await page.keyboard.press(KEY[opposite(move)]);
            await page.waitForTimeout(260);
        }
        await page.waitForSelector('#score-card[open]');
        await page.waitForTimeout(1200);
        await page.screenshot({ path: path.join(docs, 'screenshot-finished.png') });
        console.log(`wrote ${path.relative(ROOT, docs)}/screenshot-playing.png and screenshot-finished.png`);
    } finally {
        await browser.close();
        await server.stop();
    }
}

main().catch((err) => {
    console.error(err);
    process.exit(1);
});
