/*
 * load.test.mjs - a page that loads like an app (issue 45), in a real
 * browser against a real puzzled: the first load's bytes on the wire
 * (Chromium's own network events) well under the files' own size, gzip
 * only for a client that asks, a second load that takes every
 * fingerprinted file from the cache, and a reload with the server
 * stopped that shows the game, says it is offline and plays a practice
 * level solved by the page itself. Each failed before the change.
 *
 * Run: tests/scripts/e2e_load.sh, or just this file:
 *   node --test tests/e2e/load.test.mjs
 */

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { applyMove, isSolved, legalMoves, opposite } from '../../www/js/board.js';
import { KEY_FOR_SLIDE, launchBrowser, screenshot, startServer, T } from './harness.mjs';
import { measureLoad, PHONE } from './loadstats.mjs';

let server, browser, page;

before(async () => {
    server = await startServer();
    browser = await launchBrowser(PHONE);
    page = browser.context.pages()[0] || await browser.context.newPage();
});

after(async () => {
    await browser?.close();
    await server?.stop();
});

/* One GET from node with exactly these headers: { status, headers, bytes }. */
function rawGet(url, headers = {})
{
    return new Promise((resolve, reject) => {
        http.get(url, { headers }, (res) => {
            let bytes = 0;
            res.on('data', (chunk) => {
                bytes += chunk.length;
            });
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes }));
        }).on('error', reject);
    });
}

const isStatic = (url) => !new URL(url).pathname.startsWith('/v1/');

test('a first load is gzipped on the wire: well under the files as they are', async () => {
    const load = await measureLoad(page, `${server.base}/`);
    const files = load.byUrl.filter((r) => isStatic(r.url));
    assert.ok(files.length >= 30, `the page and its files: ${files.length} requests`);
    let plain = 0, wire = 0;
    for (const r of files) {
        assert.equal(r.status, 200, r.url);
        /* What the same file costs to a client that does not ask for gzip. */
        const as = await rawGet(r.url);
        assert.equal(as.headers['content-encoding'], undefined, `${r.url} gzipped unasked`);
        plain += as.bytes;
        wire += r.bytes;
        if (as.bytes > 1024)
            assert.equal(r.encoding, 'gzip', `${r.url} (${as.bytes} bytes) was not compressed`);
    }
    console.log(`first load: ${files.length} files, ${wire} bytes on the wire ` +
        `(headers included) for ${plain} bytes of files; ${load.requests} requests in all`);
    assert.ok(wire < plain * 0.5, `${wire} bytes on the wire for ${plain} bytes of files`);
});

test('gzip only for a client that asks; Vary and a year for fingerprinted URLs', async () => {
    const html = await (await fetch(`${server.base}/`)).text();
    const main = /src="(js\/main\.js\?v=[0-9a-f]{16})"/.exec(html);
    assert.ok(main, 'the page names js/main.js by its fingerprint');
    const url = `${server.base}/${main[1]}`;
    for (const [ae, want] of [[undefined, undefined], ['identity', undefined],
        ['br, gzip;q=0', undefined], ['*;q=0', undefined], ['gzip', 'gzip'],
        ['gzip, deflate, br', 'gzip'], ['*', 'gzip']]) {
        const r = await rawGet(url, ae === undefined ? {} : { 'Accept-Encoding': ae });
        assert.equal(r.headers['content-encoding'], want, `Accept-Encoding: ${ae}`);
        assert.equal(r.headers.vary, 'Accept-Encoding', `Accept-Encoding: ${ae}`);
        assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable');
    }
    for (const path of ['/', '/sw.js']) {
        const r = await rawGet(`${server.base}${path}`, { 'Accept-Encoding': 'gzip' });
        assert.equal(r.headers['cache-control'], 'no-cache', path);
    }
    const manifest = await (await fetch(`${server.base}/manifest.webmanifest`)).json();
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.start_url, '/');
    assert.ok(manifest.icons.length > 0);
});

test('a second load takes every fingerprinted file from the HTTP cache', async () => {
    /* Without the service worker: what the headers alone achieve. */
    const load = await measureLoad(page, `${server.base}/`, { bypassWorker: true });
    const named = load.byUrl.filter((r) => /\?v=[0-9a-f]{16}$/.test(r.url));
    assert.ok(named.length >= 30, `files named by their fingerprint: ${named.length}`);
    const fetched = named.filter((r) => !r.cached);
    assert.deepEqual(fetched.map((r) => r.url), [], 'fingerprinted files downloaded again');
    const files = load.byUrl.filter((r) => isStatic(r.url) && !r.cached);
    console.log(`second load: ${files.length} files from the network, ` +
        `${files.reduce((s, r) => s + r.bytes, 0)} bytes`);
    assert.ok(files.length <= 2, `from the network: ${files.map((r) => r.url).join(' ')}`);
});

/* Blank moves from tiles to the goal, breadth-first (a level-1 board is
   a few moves away). */
function route(tiles)
{
    const seen = new Map([[tiles.join(' '), null]]);
    let frontier = [tiles];
    while (frontier.length > 0) {
        const next = [];
        for (const b of frontier) {
            if (isSolved(b)) {
                const moves = [];
                for (let k = b.join(' '); seen.get(k); k = seen.get(k).from)
                    moves.unshift(seen.get(k).move);
                return moves;
            }
            for (const move of legalMoves(b)) {
                const c = applyMove(b, move);
                if (!seen.has(c.join(' '))) {
                    seen.set(c.join(' '), { from: b.join(' '), move });
                    next.push(c);
                }
            }
        }
        frontier = next;
    }
    return null;
}

test('a reload with the server stopped shows the game, says so, and a practice level plays', async () => {
    const own = await startServer();
    const phone = await launchBrowser(PHONE);
    try {
        const p = phone.context.pages()[0] || await phone.context.newPage();
        await p.goto(`${own.base}/`);
        await p.waitForSelector('#board[data-phase="playing"]', { timeout: T(20000) });
        /* The service worker has kept the game once it controls the page. */
        await p.waitForFunction(() => navigator.serviceWorker?.controller !== null,
            null, { timeout: T(20000) });
        assert.equal(await p.isVisible('#offline-note'), false, 'the offline note while online');
        await own.stop();
        await p.reload();
        await p.waitForSelector('#board[data-phase="playing"]', { timeout: T(20000) });
        await p.waitForSelector('#offline-note:not([hidden])', { timeout: T(10000) });
        assert.match(await p.textContent('#offline-note'), /Offline.*cannot be reached/s);
        await p.waitForFunction(() => /waits for the puzzled server/.test(
            document.getElementById('daily-message').textContent), null, { timeout: T(10000) });
        /* The par is exact: the page's own search found the optimum. */
        const tiles = (await p.getAttribute('#board', 'data-board')).split(' ').map(Number);
        const moves = route(tiles);
        assert.ok(moves && moves.length > 0, `a board to solve: ${tiles.join(' ')}`);
        assert.equal((await p.textContent('#par')).trim(), String(moves.length), 'the par');
        await p.focus('#board');
        let now = tiles;
        for (const move of moves) {
            now = applyMove(now, move);
            await p.keyboard.press(KEY_FOR_SLIDE[opposite(move)]);
            await p.waitForSelector(`#board[data-board="${now.join(' ')}"]`, { timeout: T(5000) });
        }
        await p.waitForSelector('#score-card[open]', { timeout: T(20000) });
        assert.equal((await p.textContent('#score-percent')).trim(), '100');
        await screenshot(p, { path: 'test-output/e2e/load-offline-phone.png' });
    } finally {
        await phone.close();
        await own.stop();
    }
});
