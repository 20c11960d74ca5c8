/*
 * contrast-sweep.test.mjs - the third round's defects 1 and 2 (issue
 * 31; docs/game.md's round 3 table): all text is 4.5:1 against what is
 * painted behind it, light and dark, measured by tests/e2e/contrast.mjs.
 * It was round3.test.mjs's first test and the longest of that file; on
 * its own, tests/run.py runs it beside the rest of the round.
 *
 * Run: tests/scripts/e2e_contrast.sh, or just this file:
 *   node --test tests/e2e/contrast-sweep.test.mjs
 */

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { lowContrast, lowContrastPage } from './contrast.mjs';
import { T } from './harness.mjs';
import {
    board, closeSession, freshPage, openSession, playKeys, route, shot,
} from './session.mjs';

let server, browser, page;
const problems = [];

async function setTheme(theme, p = page)
{
    for (let i = 0; i < 3; i++) {
        const now = await p.evaluate(() => document.documentElement.dataset.theme || 'auto');
        if (now === theme)
            return;
        await p.click('#theme-toggle');
    }
}

before(async () => {
    ({ server, browser, page } = await openSession({
        viewport: { width: 1440, height: 900 }, problems,
    }));
});

after(() => closeSession({ server, browser }));

test('defects 1 and 2: all text is 4.5:1 against what is painted behind it, light and dark', async () => {
    const found = [];
    for (const theme of ['light', 'dark']) {
        await freshPage();
        await setTheme(theme);
        await page.click('#lab-compare-h');
        await page.waitForFunction(() => document.querySelectorAll('#lab-runs tbody tr').length >= 4,
            null, { timeout: T(30000) });
        await page.focus('#board');
        await page.keyboard.press('h');
        await page.waitForFunction(() => /Hint/.test(document.getElementById('status').textContent));
        const low = await lowContrastPage(page);
        /* The board's numbers: plain tiles, and badges on a picture. */
        await page.click('#picture-choice label:has(input[value="numbers"])');
        low.push(...await lowContrast(page, '#play'));
        await page.click('#picture-choice label:has(input[value="dusk"])');
        await page.click('#show-numbers');
        low.push(...await lowContrast(page, '#play'));
        await page.click('#show-numbers');
        await playKeys(await route(await board()));
        await page.waitForSelector('#score-card[open]', { timeout: T(20000) });
        /* the page settles (transitions, a scroll) before it is pictured: no event says it has painted. */
        await page.waitForTimeout(400);
        await shot(`r3-contrast-card-${theme}`);
        const card = await lowContrast(page, '#score-card');
        found.push(...[...low, ...card].map((line) => `${theme}: ${line}`));
        await page.click('#score-replay');
    }
    /* The top of the page on a phone, both themes. */
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    for (const theme of ['light', 'dark']) {
        await phone.emulateMedia({ colorScheme: theme });
        await freshPage(phone);
        found.push(...(await lowContrast(phone)).map((line) => `phone ${theme}: ${line}`));
    }
    await phone.close();
    assert.deepEqual(found, [], found.join('\n'));
});

test('no script errors in the contrast sweep', () => {
    assert.deepEqual(problems, []);
});
