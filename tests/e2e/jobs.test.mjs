/*
 * jobs.test.mjs - the lab's long solves in a real browser: a 5x5 optimal
 * solve goes to POST /v1/jobs, a progress bar with live node counts
 * appears fed by EventSource, Cancel stops the job (the server says
 * cancelled) and the run lands in the table as cancelled; a 4x4 with a
 * big budget runs as a job to its result.
 *
 * Run by tests/scripts/e2e_jobs.sh (skips without chromium/playwright).
 */

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { launchBrowser, outputDir, screenshot, startServer, T } from './harness.mjs';

const SHOTS = outputDir('test-output', 'e2e');
/* A 5x5 board far from the goal: IDA* runs for ages on it. */
const HARD5 = '18 16 7 10 14\n21 11 9 4 8\n15 13 0 2 20\n19 17 1 6 12\n3 24 5 22 23';

let server;
let browser;
let page;
const problems = [];
const jobs = [];

before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = browser.context.pages()[0] || await browser.context.newPage();
    page.on('request', (r) => {
        if (/\/v1\/jobs/.test(r.url()))
            jobs.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    await page.goto(`${server.base}/`);
});

after(async () => {
    if (browser)
        await browser.close();
    if (server)
        await server.stop();
});

test('a 5×5 optimal solve runs as a job with live progress and Cancel', async () => {
    await page.fill('#lab-input', HARD5);
    await page.selectOption('#lab-algorithm', 'idastar');
    await page.fill('#lab-timeout', '60000');
    await page.fill('#lab-max-nodes', '100000000000');
    await page.click('#lab-solve');
    await page.waitForSelector('[data-testid="job-view"] progress');
    /* Node counts move while it runs. */
    const text = () => (document.querySelector('.job-text') || {}).textContent || '';
    await page.waitForFunction(`/Searching · [0-9.,kM]+ boards/.test((${text})())`,
        null, { timeout: T(15000) });
    const first = await page.textContent('.job-text');
    await page.waitForFunction(`(${text})() !== ${JSON.stringify(first)}`, null,
        { timeout: T(5000) });
    await page.locator('#lab').scrollIntoViewIfNeeded();
    await screenshot(page, { path: path.join(SHOTS, '10-job-progress.png') });
    await page.click('[data-testid="job-cancel"]');
    await page.waitForSelector('[data-testid="job-view"]', { state: 'detached', timeout: T(5000) });
    const rows = await page.$$eval('#lab-runs tbody tr:not(.group)', (trs) =>
        trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
    assert.equal(rows.at(-1)[2], 'cancelled', JSON.stringify(rows.at(-1)));
    assert.ok(jobs.includes('POST /v1/jobs'), jobs.join(', '));
    assert.ok(jobs.some((j) => /^GET \/v1\/jobs\/[0-9a-f]{32}\/events$/.test(j)), jobs.join(', '));
    assert.ok(jobs.some((j) => /^DELETE \/v1\/jobs\/[0-9a-f]{32}$/.test(j)), jobs.join(', '));
    /* The server agrees, and its worker is free again. */
    /* (Listing jobs anonymously is off by default: /metrics says it.) */
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    assert.match(metrics, /\npuzzled_jobs_running 0\n/);
});

test('a 4×4 with a big budget runs as a job to its result', async () => {
    await page.fill('#lab-input', '5 1 2 3\n0 6 7 4\n9 10 11 8\n13 14 15 12');
    await page.selectOption('#lab-algorithm', '');
    await page.fill('#lab-timeout', '10000');
    const before = jobs.length;
    await page.click('#lab-solve');
    await page.waitForSelector('#lab-message.good', { timeout: T(20000) });
    assert.match(await page.textContent('#lab-message'), /Solved in 7 moves/);
    assert.ok(jobs.slice(before).includes('POST /v1/jobs'));
    assert.deepEqual(problems, []);
});
