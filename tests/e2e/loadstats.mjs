/*
 * loadstats.mjs - what a load of the page costs on the wire, read from
 * Chromium's own network events (CDP): requests, bytes received
 * (encodedDataLength: headers and body as they crossed the wire, so
 * compressed when the server compressed) and the time from navigation
 * to a playable board. Used by tests/e2e/load.test.mjs and by
 * `node tests/e2e/load-figures.mjs` (docs/game.md's first-load table).
 */

/* The throttled phone: 150 ms latency, 1.6 Mbit/s down,
   750 kbit/s up (Lighthouse's "slow 4G"), at 390×844. */
export const THROTTLE = Object.freeze({
    offline: false, latency: 150,
    downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8,
});
export const PHONE = Object.freeze({ width: 390, height: 844 });

/*
 * Loads url in page and resolves to { requests, bytes, fromCache,
 * playableMs, byUrl } once the board is playable. With throttle, the
 * network is slowed as above for the load. fromCache counts answers
 * that the HTTP cache or the service worker gave without the network;
 * bypassWorker leaves the service worker out, for the HTTP cache alone.
 */
export async function measureLoad(page, url, { throttle = false, timeout = 60000,
    bypassWorker = false } = {})
{
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    /* The HTTP cache alone, as if there were no service worker. */
    if (bypassWorker)
        await cdp.send('Network.setBypassServiceWorker', { bypass: true });
    if (throttle)
        await cdp.send('Network.emulateNetworkConditions', THROTTLE);
    const seen = new Map();
    const fromCache = new Set();
    /* data: and blob: URLs (the board's picture) never touch the network */
    cdp.on('Network.requestWillBeSent', (e) => {
        if (!/^(data|blob):/.test(e.request.url))
            seen.set(e.requestId, { url: e.request.url, bytes: 0, status: 0 });
    });
    cdp.on('Network.responseReceived', (e) => {
        const r = seen.get(e.requestId);
        if (r) {
            r.status = e.response.status;
            r.encoding = (e.response.headers['content-encoding'] || e.response.headers['Content-Encoding'] || '');
            if (e.response.fromDiskCache || e.response.fromServiceWorker
                || e.response.fromPrefetchCache || e.response.fromMemoryCache)
                fromCache.add(e.requestId);
        }
    });
    cdp.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
    cdp.on('Network.loadingFinished', (e) => {
        const r = seen.get(e.requestId);
        if (r)
            r.bytes = e.encodedDataLength;
    });
    const t0 = Date.now();
    await page.goto(url, { waitUntil: 'commit', timeout });
    await page.waitForSelector('#board[data-phase="playing"]', { timeout });
    const playableMs = Date.now() - t0;
    /* Whatever the page asked for on its way to the board has landed
       by the time it is idle on the network. */
    await page.waitForLoadState('networkidle', { timeout }).catch(() => {});
    if (throttle)
        await cdp.send('Network.emulateNetworkConditions', {
            offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1,
        });
    await cdp.detach();
    const list = [...seen.entries()].map(([id, r]) => ({ ...r, cached: fromCache.has(id) }));
    const net = list.filter((r) => !r.cached);
    return {
        requests: list.length,
        network: net.length,
        bytes: net.reduce((sum, r) => sum + r.bytes, 0),
        fromCache: list.length - net.length,
        playableMs,
        byUrl: list,
    };
}
