/*
 * axe.mjs - axe-core's WCAG 2.1 A/AA rules on a page as it is now, for
 * every browser test that checks accessibility (daily, round2, shapes).
 */

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/* Fails with each violation (rule, help, how many nodes, the first three)
   when the page p has any; what names the state checked. */
export async function axeCheck(p, what)
{
    await p.addScriptTag({ path: AXE });
    const result = await p.evaluate(async () => {
        const r = await window.axe.run(document, {
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
        });
        return r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}) ` +
            v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '));
    });
    assert.deepEqual(result, [], `${what}: ${result.join('\n')}`);
}
