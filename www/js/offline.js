/*
 * offline.js - the page as an app (issue 45): registers the service
 * worker (sw.js) that keeps the game's files for a reload without the
 * server, and says so on the page while the server cannot be reached.
 *
 * api.js fires "puzzled:unreachable" when a request gets no answer at
 * all and "puzzled:reached" when one does. While unreachable, the note
 * is up and /livez is asked every few seconds; the first answer takes
 * the note down and calls onBack (the daily loads again).
 */

const PROBE_MS = 5000;

export function watchConnection(note, { onBack = () => {} } = {})
{
    let probing = null;
    const back = () => {
        if (note.hidden)
            return;
        note.hidden = true;
        clearInterval(probing);
        probing = null;
        onBack();
    };
    window.addEventListener('puzzled:reached', back);
    window.addEventListener('puzzled:unreachable', () => {
        note.hidden = false;
        if (probing === null) {
            probing = setInterval(() => {
                fetch('/livez', { cache: 'no-store' }).then((r) => {
                    if (r.ok)
                        back();
                }, () => {});
            }, PROBE_MS);
        }
    });
}

/* Service workers need a secure context: https, or http on localhost
   and 127.0.0.1. Elsewhere (plain http on a LAN address) the page works
   as before, online only. */
export function registerWorker()
{
    if (!('serviceWorker' in navigator) || !window.isSecureContext)
        return;
    navigator.serviceWorker.register('/sw.js').catch(() => {
        /* No worker: the page still works, online only. */
    });
}
