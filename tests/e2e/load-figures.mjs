/*
 * load-figures.mjs - docs/game.md's first-load figures: a first visit
 * (fresh profile) and a second one, on a 390×844 phone with the network
 * throttled to 150 ms and 1.6 Mbit/s, against a real puzzled.
 *
 *   PUZZLED=build/puzzled node tests/e2e/load-figures.mjs [RUNS]
 *
 * Prints one line per run and the medians.
 */

import { launchBrowser, startServer } from './harness.mjs';
import { measureLoad, PHONE } from './loadstats.mjs';

const runs = Number(process.argv[2]) || 3;
const server = await startServer();
const rows = [];
try {
    for (let i = 0; i < runs; i++) {
        const browser = await launchBrowser(PHONE);
        try {
            const page = browser.context.pages()[0] || await browser.context.newPage();
            const first = await measureLoad(page, `${server.base}/`, { throttle: true });
            const second = await measureLoad(page, `${server.base}/`, { throttle: true });
            rows.push({ first, second });
            console.log(`run ${i + 1}: first ${first.requests} requests, ` +
                `${(first.bytes / 1000).toFixed(1)} KB, playable ${first.playableMs} ms; ` +
                `second ${second.network} of ${second.requests} from the network, ` +
                `${(second.bytes / 1000).toFixed(1)} KB, playable ${second.playableMs} ms`);
            if (process.env.VERBOSE)
                for (const [name, load] of [['first', first], ['second', second]])
                    for (const r of load.byUrl)
                        console.log(`  ${name} ${r.status} ${r.bytes} ${r.encoding || '-'}` +
                            `${r.cached ? ' cached' : ''} ${r.url}`);
        } finally {
            await browser.close();
        }
    }
} finally {
    await server.stop();
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`median: first ${median(rows.map((r) => r.first.requests))} requests, ` +
    `${(median(rows.map((r) => r.first.bytes)) / 1000).toFixed(1)} KB, playable ` +
    `${median(rows.map((r) => r.first.playableMs))} ms; second ` +
    `${median(rows.map((r) => r.second.network))} from the network, ` +
    `${(median(rows.map((r) => r.second.bytes)) / 1000).toFixed(1)} KB, playable ` +
    `${median(rows.map((r) => r.second.playableMs))} ms`);
