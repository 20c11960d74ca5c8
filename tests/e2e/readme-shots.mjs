/*
 * readme-shots.mjs - takes the screenshots the README and docs/game.md
 * show: docs/screenshot-playing.png (a level in progress, with a picture
 * and a hint), docs/screenshot-finished.png (a finished level and its
 * score), docs/screenshot-think.png (the A* step view a few steps into a
 * 14-move board), docs/screenshot-daily.png (a finished daily puzzle
 * with its leaderboard entry form) and docs/screenshot-daily-phone.png
 * (the daily puzzle and its leaderboard on a phone), and for issue 31
 * the page at the top in both themes at desktop and phone size
 * (docs/screenshot-{desktop,phone}-{light,dark}.png, with the daily card,
 * a streak and a share line), the level map with its locked levels
 * (docs/screenshot-levels.png) and the lab's effort charts
 * (docs/screenshot-effort.png), and for issue 33 a 3×4 board with the
 * Koi pond cut to its 4:3 (docs/screenshot-shape-3x4.png) and the tall
 * 5×3 on a phone (docs/screenshot-shape-phone.png). Not a test: run it by hand after
 * changing how the game looks.
 *
 *   PUZZLED=build/puzzled node tests/e2e/readme-shots.mjs
 */

import path from 'node:path';
import { opposite, toRows } from '../../www/js/board.js';
import { apiClient, launchBrowser, outputDir, ROOT, startServer, T } from './harness.mjs';

const KEY = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };
const VIEWPORT = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

function utcDay(offset = 0)
{
    return new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
}

/* A player who has played the daily three days running. */
const DAILY_STATS = {
    days: {
        [utcDay(-3)]: { 3: { moves: 30, par: 24, exact: true, stars: 2, seconds: 63 } },
        [utcDay(-2)]: { 3: { moves: 22, par: 22, exact: true, stars: 3, seconds: 48 },
            4: { moves: 61, par: 49, exact: false, stars: 2, seconds: 201 } },
        [utcDay(-1)]: { 3: { moves: 26, par: 24, exact: true, stars: 2, seconds: 41 } },
        [utcDay()]: { 3: { moves: 26, par: 24, exact: true, stars: 2, seconds: 41 } },
    },
};

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

async function play(page, moves)
{
    await page.focus('#board');
    for (const move of moves) {
        await page.keyboard.press(KEY[opposite(move)]);
        /* each slide lands (140 ms) before the next key: the game's animation. */
        await page.waitForTimeout(200);
    }
}

/* Watch A* think on a board 14 moves from the goal, six steps in. */
async function thinkShot(page, api, base, docs)
{
    const puzzle = (await api('/v1/puzzles/random?size=3&moves=14&seed=7')).json;
    await page.goto(`${base}/?board=${puzzle.board.flat().join(',')}`);
    await page.waitForSelector('#board[data-phase="playing"]');
    await page.click('#think-load');
    await page.waitForFunction(() => document.querySelectorAll('#think-columns .think-col').length === 3);
    for (let i = 0; i < 5; i++)
        await page.click('#think-next');
    await page.mouse.move(0, 0);
    /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
    await page.waitForTimeout(300);
    await (await page.$('#think')).screenshot({ path: path.join(docs, 'screenshot-think.png') });
}

/* The day's 3x3 finished by hand, three other players already on it. */
async function dailyShots(page, api, base, docs)
{
    const day = (await api('/v1/daily/today/3')).json;
    const best = (await api('/v1/solve', { board: day.board })).json.moves;
    const detour = [...best, 'up', 'down'];
    /* Their runs start now and end a few seconds apart: the server
       times them (start token to entry); one had help. */
    const runs = [['kestrel', best, false, 3000], ['mo.b', best, false, 2500],
        ['tile_wrangler', detour, true, 1500]];
    const tokens = [];
    for (const _ of runs)
        tokens.push((await api(`/v1/daily/${day.date}/3/start`, {})).json.token);
    for (const [i, [nickname, moves, help, wait]] of runs.entries()) {
        /* the player's time of this run: the server times it from its token. */
        await new Promise((done) => setTimeout(done, wait));
        const r = await api(`/v1/daily/${day.date}/3/entries`,
            { nickname, moves, token: tokens[i], help });
        if (r.status !== 201)
            throw new Error(`entry ${nickname}: ${r.status} ${r.text}`);
    }
    /* A hash change alone would not reload the page's leaderboard. */
    await page.goto(`${base}/#daily`);
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('#daily-leaders li').length === 3);
    await page.click('#daily-play');
    await page.waitForSelector('#board[data-phase="playing"]');
    await play(page, best);
    await page.waitForSelector('#score-card[open] #daily-entry:not([hidden])');
    await page.fill('#daily-nick', 'ada');
    await page.click('#daily-submit');
    await page.waitForFunction(() => /number/.test(document.getElementById('daily-entry-message').textContent));
    /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(docs, 'screenshot-daily.png') });
    await page.click('#score-next');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.$eval('#daily', (e) => e.scrollIntoView({ behavior: 'instant' }));
    /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(docs, 'screenshot-daily-phone.png') });
    await page.setViewportSize(VIEWPORT);
}

/* The top of the page, light and dark, desktop and phone. */
async function themeShots(page, base, docs)
{
    for (const theme of ['light', 'dark']) {
        for (const [name, viewport] of [['desktop', VIEWPORT], ['phone', PHONE]]) {
            await page.setViewportSize(viewport);
            await page.emulateMedia({ colorScheme: theme });
            await page.goto(`${base}/`);
            await page.evaluate((s) => {
                localStorage.setItem('puzzled.daily.v1', JSON.stringify(s));
                localStorage.removeItem('puzzled.game.v1');
            }, DAILY_STATS);
            await page.reload();
            await page.waitForSelector('#board[data-phase="playing"]');
            await page.mouse.move(0, 0);
            /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
            await page.waitForTimeout(700);
            await page.screenshot({ path: path.join(docs, `screenshot-${name}-${theme}.png`) });
        }
    }
    await page.setViewportSize(VIEWPORT);
    await page.emulateMedia({ colorScheme: 'dark' });
}

/* The level map (locked levels ahead) and the lab's effort charts. */
async function mapAndEffortShots(page, base, docs)
{
    await page.goto(`${base}/`);
    await page.waitForSelector('#board[data-phase="playing"]');
    await page.click('#level-map-open');
    await page.waitForSelector('#level-map[open]');
    /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(docs, 'screenshot-levels.png') });
    await page.click('#level-map-close');
    await page.selectOption('#lab-algorithm', 'astar');
    await page.click('#lab-compare-h');
    await page.waitForFunction(() => /Done/.test(document.getElementById('lab-message').textContent),
        null, { timeout: T(60000) });
    await page.$eval('#lab-charts', (e) => e.scrollIntoView({ block: 'center', behavior: 'instant' }));
    /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
    await page.waitForTimeout(300);
    await (await page.$('#lab-charts')).screenshot({ path: path.join(docs, 'screenshot-effort.png') });
}

/* Rectangles: a 3×4 with a picture on a desktop, the tall 5×3 on a phone. */
async function shapeShots(page, base, docs)
{
    await page.goto(`${base}/`);
    await page.waitForSelector('#board[data-phase="playing"]');
    await page.click('#size-choice label:has(input[value="3x4"])');
    await page.waitForFunction(() => document.getElementById('board').dataset.board.split(' ').length === 12 &&
        document.getElementById('board').dataset.phase === 'playing');
    await page.click('#picture-choice label:has(input[value="koi"])');
    await page.$eval('#play', (e) => e.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await page.mouse.move(0, 0);
    /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(docs, 'screenshot-shape-3x4.png') });
    await page.setViewportSize(PHONE);
    await page.click('#size-choice label:has(input[value="5x3"])');
    await page.waitForFunction(() => document.getElementById('board').dataset.board.split(' ').length === 15 &&
        document.getElementById('board').dataset.phase === 'playing');
    await page.$eval('.stage', (e) => e.scrollIntoView({ block: 'start', behavior: 'instant' }));
    /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(docs, 'screenshot-shape-phone.png') });
    await page.setViewportSize(VIEWPORT);
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
        /* the hint is asked after the player stalls: the idle time is the trigger. */
        await page.waitForTimeout(1300);
        await page.click('#hint');
        await page.waitForSelector('#board[data-hint-tile]');
        await page.mouse.move(0, 0);
        /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
        await page.waitForTimeout(400);
        await page.screenshot({ path: path.join(docs, 'screenshot-playing.png') });

        /* Finished: the rest of the optimal route, so the score is perfect. */
        const rest = (await api('/v1/solve', { board: toRows(await board(page)) })).json.moves;
        await page.focus('#board');
        for (const move of rest) {
            await page.keyboard.press(KEY[opposite(move)]);
            /* each slide lands before the next key: the game's animation. */
            await page.waitForTimeout(260);
        }
        await page.waitForSelector('#score-card[open]');
        /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
        await page.waitForTimeout(1200);
        await page.screenshot({ path: path.join(docs, 'screenshot-finished.png') });
        await page.keyboard.press('Escape');
        await thinkShot(page, api, server.base, docs);
        await dailyShots(page, api, server.base, docs);
        await mapAndEffortShots(page, server.base, docs);
        await themeShots(page, server.base, docs);
        await shapeShots(page, server.base, docs);
        console.log(`wrote ${path.relative(ROOT, docs)}/screenshot-{playing,finished,think,` +
            'daily,daily-phone,levels,effort,desktop-light,desktop-dark,phone-light,phone-dark,' +
            'shape-3x4,shape-phone}.png');
    } finally {
        await browser.close();
        await server.stop();
    }
}

main().catch((err) => {
    console.error(err);
    process.exit(1);
});
