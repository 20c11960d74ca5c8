/*
 * score-card.js - the card shown when a level is finished: stars, the
 * score (optimal moves ÷ your moves), the numbers behind it, and how hard
 * the solver had to work. show() resolves to the button the player chose.
 */

import { algorithmName, heuristicInline } from './catalog.js';
import { formatSeconds } from './clock.js';

const $ = (id) => document.getElementById(id);

export function formatCount(n)
{
    return Number.isFinite(n) ? n.toLocaleString('en-US') : '–';
}

export function formatMicros(us)
{
    if (!Number.isFinite(us))
        return '–';
    if (us < 1000)
        return `${Math.round(us)} µs`;
    if (us < 1e6)
        return `${(us / 1000).toFixed(us < 1e4 ? 2 : 1)} ms`;
    return `${(us / 1e6).toFixed(2)} s`;
}

function solverLine(solver)
{
    if (!solver || !solver.stats)
        return 'The solver\u2019s numbers are not available for this board.';
    const s = solver.stats;
    const how = [algorithmName(solver.algorithm)];
    if (solver.heuristic)
        how.push(`with ${heuristicInline(solver.heuristic)}`);
    /* Not proven optimal: its length is the best found, and the proven
       lower bound says how far off it could be. */
    const bound = Number.isFinite(solver.lowerBound) ?
        ` Its ${solver.moves.length}-move route is the best it found, not proven shortest: ` +
        `every route takes at least ${solver.lowerBound} moves.` :
        ` Its ${solver.moves.length}-move route is the best it found, not proven shortest.`;
    return `${how.join(' ')} expanded ${formatCount(s.expanded)} boards and ` +
        `generated ${formatCount(s.generated)} in ${formatMicros(s.time_us)}` +
        `${solver.optimal ? ', and proved its route optimal.' : `.${bound}`}`;
}

function renderStars(count, box)
{
    box.replaceChildren();
    for (let i = 0; i < 3; i++) {
        const star = document.createElement('span');
        star.textContent = '★';
        if (i < count)
            star.className = 'on';
        box.append(star);
    }
    box.setAttribute('aria-label', `${count} of 3 stars`);
    box.dataset.stars = String(count);
}

export class ScoreCard {
    constructor()
    {
        this.dialog = $('score-card');
    }

    get open()
    {
        return this.dialog.open;
    }

    /*
     * `r`: { kicker, title, percent, stars, moves, optimal, seconds, hints,
     * solver, note, canGoOn }. Resolves to 'next', 'replay' or '' (closed).
     */
    show(r)
    {
        $('score-kicker').textContent = r.kicker;
        $('score-title').textContent = r.title;
        $('score-stars').hidden = r.stars === null;
        renderStars(r.stars || 0, $('score-stars'));
        const scored = Number.isFinite(r.percent);
        $('score-percent').textContent = scored ? String(r.percent) : '–';
        $('score-percent').parentElement.hidden = !scored;
        $('score-sub').textContent = r.sub || 'of the optimal route';
        $('score-moves').textContent = formatCount(r.moves);
        $('score-optimal').textContent = r.exact === false && Number.isFinite(r.optimal) ?
            `≤ ${formatCount(r.optimal)}` : formatCount(r.optimal);
        $('score-optimal-label').textContent = r.exact === false ? 'Best found' : 'Optimal';
        $('score-time').textContent = formatSeconds(r.seconds);
        /* The page's time to the millisecond, beside the server's. */
        $('score-time').dataset.ms = String(Math.round(r.seconds * 1000));
        $('score-hints').textContent = String(r.hints);
        $('solver-line').textContent = solverLine(r.solver);
        $('score-note').textContent = r.note || '';
        $('score-next').textContent = r.nextLabel || (r.canGoOn ? 'Next level →' : 'New board →');
        /* Only a level is a level: the daily and a pasted or shared
           board are played again (issue 45 defect 8). */
        $('score-replay').textContent = r.canGoOn && !r.daily ? 'Replay level' : 'Play it again';
        if (this.onShow)
            this.onShow(r);
        this.dialog.returnValue = '';
        this.dialog.showModal();
        return new Promise((resolve) => {
            this.dialog.addEventListener('close', () => resolve(this.dialog.returnValue),
                { once: true });
        });
    }
}
