/*
 * sw.js - the service worker that makes the game an app (issue 45): a
 * reload with the server down still shows the game.
 *
 * On install it fetches the page and keeps it with every file the page
 * names by its fingerprint (?v=, from the server's import map, links and
 * modulepreloads), plus the manifest and the icon. Afterwards:
 * - the page: from the network (it is never stale while the server is
 *   up), the kept copy only when the network fails;
 * - a fingerprinted file: from the cache, as its content never changes;
 * - the API (/v1/, /livez ...): never from here, always the network, so
 *   the page knows when the server is gone and the daily waits for it.
 * Each page fetched replaces the kept one, and the files it no longer
 * names are dropped.
 */

const CACHE = 'puzzled-shell';
const PAGE = '/';
const EXTRAS = ['/manifest.webmanifest', '/icon.svg'];
const FINGERPRINTED = /\?v=[0-9a-f]{16}$/;

/* Every same-origin fingerprinted URL a page names. */
function namedBy(html)
{
    const urls = new Set();
    for (const m of html.matchAll(/(?:href|src)="([^"]+\?v=[0-9a-f]{16})"|":"(\/[^"]+\?v=[0-9a-f]{16})"/g))
        urls.add(new URL(m[1] || m[2], self.location.origin).href);
    return urls;
}

/* Keeps the page answer and what it names; drops what it does not. */
async function keepPage(response)
{
    const cache = await caches.open(CACHE);
    const html = await response.clone().text();
    const wanted = namedBy(html);
    await cache.put(PAGE, response);
    const have = new Set((await cache.keys()).map((r) => r.url));
    await Promise.all([...wanted].filter((u) => !have.has(u)).map((u) =>
        cache.add(u).catch(() => {})));
    for (const url of have) {
        if (FINGERPRINTED.test(url) && !wanted.has(url))
            await cache.delete(url);
    }
}

self.addEventListener('install', (event) => {
    event.waitUntil((async () => {
        const response = await fetch(PAGE, { cache: 'no-cache' });
        if (!response.ok)
            throw new Error(`the page answered ${response.status}`);
        await keepPage(response);
        const cache = await caches.open(CACHE);
        await cache.addAll(EXTRAS).catch(() => {});
        await self.skipWaiting();
    })());
});

self.addEventListener('activate', (event) => {
    event.waitUntil(self.clients.claim());
});

async function page(request)
{
    try {
        const response = await fetch(request);
        if (response.ok && new URL(request.url).pathname === PAGE)
            await keepPage(response.clone()).catch(() => {});
        return response;
    } catch (err) {
        const kept = await caches.match(PAGE);
        if (kept)
            return kept;
        throw err;
    }
}

async function file(request)
{
    const kept = await caches.match(request);
    if (kept)
        return kept;
    const response = await fetch(request);
    if (response.ok && FINGERPRINTED.test(request.url)) {
        const cache = await caches.open(CACHE);
        await cache.put(request, response.clone()).catch(() => {});
    }
    return response;
}

async function extra(request)
{
    try {
        return await fetch(request);
    } catch (err) {
        const kept = await caches.match(request);
        if (kept)
            return kept;
        throw err;
    }
}

self.addEventListener('fetch', (event) => {
    const { request } = event;
    const url = new URL(request.url);
    if (request.method !== 'GET' || url.origin !== self.location.origin)
        return;
    if (request.mode === 'navigate')
        event.respondWith(page(request));
    else if (FINGERPRINTED.test(url.pathname + url.search))
        event.respondWith(file(request));
    else if (EXTRAS.includes(url.pathname))
        event.respondWith(extra(request));
    /* Anything else (the API) goes to the network untouched. */
});
