/*
 * jobs.js - long solves as server jobs, watched live.
 *
 * solveAsJob() submits POST /v1/jobs, follows the job's Server-Sent
 * Events with EventSource and settles with the same result object
 * POST /v1/solve would have answered. While it runs a JobView shows a
 * progress bar (time used out of the budget), the live node counts, the
 * search's bound and a Cancel button that DELETEs the job. Used by the
 * lab for 5x5 boards and budgets over two seconds.
 */

import { ApiError } from './api.js';
import { toRows } from './board.js';
import { formatCount } from './score-card.js';

/* The lab sends a solve here when it may take longer than a request
 * should wait: a 5x5 or larger board, or a 4x4 with a budget over 2 s. */
export function isLongSolve(size, limits = {})
{
    return size >= 5 || (size >= 4 && (limits.timeout_ms || 0) > 2000);
}

async function problemError(response)
{
    let problem = {};
    try {
        problem = await response.json();
    } catch {
        /* not JSON: keep the status */
    }
    const retryAfter = Number(response.headers.get('Retry-After')) || 0;
    const message = response.status === 503 ?
        `The job workers are busy. Try again in ${retryAfter || 1} s.` :
        [problem.title, problem.detail].filter(Boolean).join(': ') ||
        `The server answered ${response.status}.`;
    return new ApiError(message, {
        status: response.status, title: problem.title || '',
        detail: problem.detail || '', retryAfter, problem,
    });
}

/* A progress bar, the counts and a Cancel button, inside `parent`. */
export class JobView {
    constructor(parent, budgetMs)
    {
        this.budgetMs = budgetMs || 0;
        this.base = 0;
        this.lastSeen = 0;
        this.root = document.createElement('div');
        this.root.className = 'job-view';
        this.root.dataset.testid = 'job-view';
        this.bar = document.createElement('progress');
        this.bar.max = this.budgetMs || 1;
        this.bar.value = 0;
        this.bar.setAttribute('aria-label', 'Time used of the budget');
        this.text = document.createElement('span');
        this.text.className = 'job-text';
        this.text.setAttribute('aria-live', 'polite');
        this.text.textContent = 'Queued…';
        this.cancel = document.createElement('button');
        this.cancel.type = 'button';
        this.cancel.className = 'btn btn-small';
        this.cancel.dataset.testid = 'job-cancel';
        this.cancel.textContent = 'Cancel';
        this.root.append(this.bar, ' ', this.text, ' ', this.cancel);
        parent.append(this.root);
    }

    /*
     * A search in phases (a quick first route, then the search that
     * shortens it) restarts its own counts at each phase: the view adds
     * them up, so the count of boards never goes back down to 0.
     */
    show(p)
    {
        const secs = (p.elapsed_ms || 0) / 1000;
        const seen = p.expanded || 0;
        if (seen < this.lastSeen)
            this.base += this.lastSeen;
        this.lastSeen = seen;
        p = { ...p, expanded: this.base + seen };
        if (!this.budgetMs)
            this.bar.removeAttribute('value');      /* indeterminate */
        else
            this.bar.value = Math.min(p.elapsed_ms || 0, this.budgetMs);
        const parts = [p.state === 'queued' ? 'Queued' : 'Searching',
            `${formatCount(p.expanded)} boards`,
            `${formatCount(p.nodes_per_s)}/s`, `${secs.toFixed(1)} s`];
        if (p.bound)
            parts.push(`bound ${p.bound}`);
        if (p.best_length)
            parts.push(`best so far ${p.best_length} moves`);
        this.text.textContent = parts.join(' · ');
    }

    remove()
    {
        this.root.remove();
    }
}

/*
 * Submit a job and follow it to its end. settings as for solve() in
 * api.js; view (optional) is a JobView to update and whose Cancel
 * button cancels. Resolves with the job's result (or a result with
 * status "cancelled"), rejects with an ApiError.
 */
export async function solveAsJob(tiles, settings = {}, view = null)
{
    const body = { board: toRows(tiles) };
    /* The goal too (issue 31 defect 3: it was left out, so a long run
       searched for the usual goal), and the effort per layer. */
    for (const key of ['goal', 'algorithm', 'heuristic', 'limits', 'include_path', 'effort']) {
        if (settings[key] !== undefined && settings[key] !== '' && settings[key] !== null)
            body[key] = settings[key];
    }
    if (Array.isArray(body.goal) && !Array.isArray(body.goal[0]))
        body.goal = toRows(body.goal);
    let response;
    try {
        response = await fetch('/v1/jobs', {
            method: 'POST', body: JSON.stringify(body),
            headers: { 'Content-Type': 'application/json' },
        });
    } catch {
        throw new ApiError('Cannot reach the puzzled server: check the connection and try again.');
    }
    if (response.status !== 202)
        throw await problemError(response);
    const job = await response.json();
    return follow(job, view, body);
}

function follow(job, view, body)
{
    const url = `/v1/jobs/${job.id}`;
    return new Promise((resolve, reject) => {
        const events = new EventSource(`${url}/events`);
        const finish = (fn, value) => {
            events.close();
            if (view)
                view.remove();
            fn(value);
        };
        if (view) {
            view.show({ ...job.progress, state: job.state });
            view.cancel.addEventListener('click', () => {
                view.cancel.disabled = true;
                view.text.textContent = 'Cancelling…';
                fetch(url, { method: 'DELETE' }).catch(() => {});
            });
        }
        events.addEventListener('progress', (e) => {
            if (view)
                view.show(JSON.parse(e.data));
        });
        events.addEventListener('done', (e) =>
            finish(resolve, JSON.parse(e.data).result));
        events.addEventListener('cancelled', (e) => {
            const j = JSON.parse(e.data);
            finish(resolve, {
                status: 'cancelled', optimal: false, length: 0, moves: [],
                tiles: [], algorithm: body.algorithm || 'auto',
                heuristic: body.heuristic || null,
                reason: j.reason,
                stats: { expanded: j.progress.expanded,
                    generated: j.progress.generated,
                    time_us: j.progress.elapsed_ms * 1000 },
            });
        });
        events.addEventListener('failed', (e) => {
            const j = JSON.parse(e.data);
            const p = j.error || {};
            finish(reject, new ApiError(
                [p.title, p.detail].filter(Boolean).join(': ') || 'The job failed.',
                { status: p.status || 0, title: p.title || '',
                    detail: p.detail || '', problem: p }));
        });
        /* EventSource reconnects by itself after a dropped connection and
         * gets the current state at once; only a 404 (job forgotten) or a
         * closed stream without a final event ends here. */
        events.onerror = () => {
            if (events.readyState === EventSource.CLOSED)
                finish(reject, new ApiError('Lost the job’s progress stream.'));
        };
    });
}
