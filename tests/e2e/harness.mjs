/*
 * harness.mjs - what the browser tests stand on: a real `puzzled serve` on
 * a free loopback port, Debian's chromium (its headless shell) driven by
 * playwright-core with a throwaway profile, and a tiny client for calling
 * the API directly (to check what the page shows against what the server
 * says).
 */

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/*
 * Chromium's headless shell where it is installed (scripts/deps.sh installs
 * it), else the full browser: the same engine (Blink, V8, Skia), without
 * the full browser's display compositor and GPU process. All twelve
 * browser suites took 307 CPU-s with it against 373 with /usr/bin/chromium
 * (T='e2e_*' sh tests/run.sh, back to back on a quiet machine), and pass
 * on both; CHROMIUM=/usr/bin/chromium runs them on the full browser.
 */
export const CHROMIUM = process.env.CHROMIUM ||
    (fs.existsSync('/usr/bin/chromium-headless-shell')
        ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
/* The arrow key that slides a tile in each direction. */
export const KEY_FOR_SLIDE = Object.freeze({
    up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight',
});

const CHROMIUM_ARGS = [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
    '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync',
];
/*
 * Waits stretch with TEST_TIMEOUT_SCALE (tests/run.py's, 4 under the
 * sanitizers): a server built with ASan answers several times slower,
 * and a wait sized for the release build is not what these suites test.
 * T(ms) is every explicit wait of the suites; the pages' default too.
 */
export const TIMEOUT_SCALE = Math.max(1, Number(process.env.TEST_TIMEOUT_SCALE) || 1);
export function T(ms)
{
    return ms * TIMEOUT_SCALE;
}

const LISTEN_TIMEOUT_MS = T(20000);

/*
 * Starts `$PUZZLED serve --port 0` from the repository root (so that its
 * static root "www" is ours) and resolves to { base, stop, log() } once it
 * prints "listening on http://127.0.0.1:PORT". Its store (the daily
 * leaderboard) is in stateDir, by default a throwaway directory that
 * stop() removes; a test that restarts the server passes its own.
 */
export function startServer({ stateDir = null } = {})
{
    const binary = path.resolve(ROOT, process.env.PUZZLED || 'build/puzzled');
    const extra = (process.env.PUZZLED_SERVE_ARGS || '').split(/\s+/).filter(Boolean);
    const own = stateDir === null;
    const state = own ? fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-e2e-state-')) : stateDir;
    /* Scripted players press keys far faster than a person: the daily's
       move floor (issue 44) is off here and tested in test_store.c,
       test_api_daily.c and test_http_daily.c. */
    const child = spawn(binary, ['serve', '--bind', '127.0.0.1', '--port', '0',
        '--state-dir', state, '--daily-move-floor-ms', '0', ...extra], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    return new Promise((resolve, reject) => {
        /* the server's start deadline (a timer that fails the run), not a pause. */
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`${binary} did not say where it listens within ` +
                `${LISTEN_TIMEOUT_MS} ms. Its output:\n${output}`));
        }, LISTEN_TIMEOUT_MS);
        const watch = (chunk) => {
            output += chunk;
            const found = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
            if (found) {
                clearTimeout(timer);
                resolve({
                    base: found[1], log: () => output,
                    stop: async () => {
                        await stopServer(child);
                        if (own)
                            fs.rmSync(state, { recursive: true, force: true });
                    },
                });
            }
        };
        child.stdout.setEncoding('utf8').on('data', watch);
        child.stderr.setEncoding('utf8').on('data', watch);
        child.on('error', (err) => {
            clearTimeout(timer);
            reject(new Error(`cannot start ${binary}: ${err.message}`));
        });
        child.on('exit', (code, signal) => {
            clearTimeout(timer);
            reject(new Error(`${binary} exited (${signal || code}) before listening:\n${output}`));
        });
    });
}

function stopServer(child)
{
    return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
        }
        /* the deadline of a graceful stop, then SIGKILL: not a pause. */
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
            clearTimeout(force);
            resolve();
        });
        child.kill('SIGTERM');
    });
}

/*
 * CSS transitions and animations run this many times faster than the
 * page asks, in every page of the context. Headless chromium draws every
 * frame in software, and a finish (the picture closing its gaps, the
 * glow, the card's stars) was 1.4 CPU-s of frames; at this rate it is
 * 0.4 (measured from the last move to a second after the card). A
 * screenshot's settle finds them over all the same. The pages'
 * JavaScript timers (the pause before the score card, the solver's
 * playback) keep real time: the suites that time something time those.
 * No suite tests a CSS animation's pace.
 */
const ANIMATION_RATE = 20;

async function hurryAnimations(page)
{
    try {
        const cdp = await page.context().newCDPSession(page);
        /* enabled, the rate holds for the documents the page loads later */
        await cdp.send('Animation.enable');
        await cdp.send('Animation.setPlaybackRate', { playbackRate: ANIMATION_RATE });
    } catch {
        /* A page closed at once: nothing of it to hurry. */
    }
}

/* Chromium with a fresh profile directory; close() removes it again. */
export async function launchBrowser(viewport = { width: 1280, height: 900 })
{
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'puzzled-e2e-'));
    const context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport,
        deviceScaleFactor: 1,
        reducedMotion: 'no-preference',
    });
    context.setDefaultTimeout(T(30000));
    context.on('page', hurryAnimations);
    await Promise.all(context.pages().map(hurryAnimations));
    const close = async () => {
        await context.close();
        fs.rmSync(profile, { recursive: true, force: true });
    };
    return { context, close };
}

/*
 * A PNG of what the page shows: its viewport, or clip (CSS pixels of the
 * viewport, as getBoundingClientRect gives them); written to file when
 * one is given, and returned. Chromium encodes it with its fast settings
 * (optimizeForSpeed): the same pixels as page.screenshot()'s PNG, a file
 * about a third larger, for a third of the CPU (0.07 s against 0.21 s a
 * 1440x900 shot; the suites take about eighty).
 */
const cdpOf = new WeakMap();

export async function screenshot(page, { path: file = null, clip = null } = {})
{
    if (!cdpOf.has(page))
        cdpOf.set(page, page.context().newCDPSession(page));
    const cdp = await cdpOf.get(page);
    const params = { format: 'png', optimizeForSpeed: true };
    if (clip) {
        /* The protocol's clip is in the document's coordinates. */
        const [sx, sy] = await page.evaluate(() => [scrollX, scrollY]);
        params.clip = { x: clip.x + sx, y: clip.y + sy, width: clip.width,
            height: clip.height, scale: 1 };
    }
    const png = Buffer.from((await cdp.send('Page.captureScreenshot', params)).data, 'base64');
    if (file)
        fs.writeFileSync(file, png);
    return png;
}

/* Calls the API straight from node, for the answers the page is judged by. */
export function apiClient(base)
{
    return async function api(route, body) {
        const response = await fetch(base + route, body ? {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
        } : {});
        const text = await response.text();
        let json = null;
        try {
            json = JSON.parse(text);
        } catch {
            /* Left null: the caller asserts on status and body. */
        }
        return { status: response.status, json, text };
    };
}

export function outputDir(...parts)
{
    const dir = path.join(ROOT, ...parts);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
}
