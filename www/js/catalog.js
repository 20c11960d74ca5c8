/*
 * catalog.js - the search algorithms and heuristics the server offers,
 * loaded from GET /v1/catalog (built from the solver's own registries),
 * with the one-line explanations a student sees in the lab. The page
 * keeps no list of its own: only the display titles below, for names it
 * knows (a name it does not know shows as it is).
 *
 * ALGORITHMS and HEURISTICS are empty until loadCatalog() resolves; it
 * fills them in place. Entries apply only to the sizes they list (the
 * pdb heuristic only to sizes whose default goal has tables loaded); the
 * lab disables the rest.
 */

import { catalog } from './api.js';

const TITLES = Object.freeze({
    astar: 'A*',
    idastar: 'IDA*',
    bfs: 'Breadth-first',
    dfs: 'Depth-first',
    bnb: 'Branch and bound',
    greedy: 'Greedy best-first',
    wastar: 'Weighted A*',
    constructive: 'Constructive',
    anytime: 'Anytime',
    misplaced: 'Misplaced tiles',
    manhattan: 'Manhattan distance',
    'linear-conflict': 'Linear conflict',
    pdb: 'Pattern databases',
});

/* A heuristic's title inside a sentence: "with manhattan distance" reads
   wrong, so a name starting with a proper noun keeps its capital. */
const PROPER = /^(Manhattan)\b/;

export function heuristicInline(id)
{
    const name = heuristicName(id);
    return PROPER.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1);
}

/* "1 move", "2 moves". */
export function plural(n, word)
{
    return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export const ALGORITHMS = [];
export const HEURISTICS = [];

/* Algorithms that never look at a heuristic. */
export const BLIND = new Set();

function range(sizes)
{
    const out = [];
    for (let n = sizes.min; n <= sizes.max; n++)
        out.push(n);
    return out;
}

function entry(item, sizes)
{
    return Object.freeze({
        id: item.name,
        name: TITLES[item.name] || item.name,
        about: item.description,
        sizes: Object.freeze(sizes),
    });
}

/* The sizes whose default goal has tables loaded (for `pdb`). */
function servedSizes(data)
{
    return (data.sizes || []).filter((s) => s.tables !== null).map((s) => s.size);
}

/*
 * Fill ALGORITHMS, HEURISTICS and BLIND from the server, once; later
 * calls return the same promise. `auto` is left out: the lab's "Server
 * default" option is it.
 */
let loading = null;
export function loadCatalog()
{
    if (!loading) {
        loading = catalog().then((data) => {
            const served = servedSizes(data);
            ALGORITHMS.length = 0;
            HEURISTICS.length = 0;
            BLIND.clear();
            for (const a of data.algorithms) {
                if (a.name === 'auto')
                    continue;
                ALGORITHMS.push(entry(a, range(a.sizes)));
                if (!a.uses_heuristic)
                    BLIND.add(a.name);
            }
            for (const h of data.heuristics) {
                const sizes = range(h.sizes);
                HEURISTICS.push(entry(h, h.needs_tables ? sizes.filter((n) => served.includes(n)) : sizes));
            }
            return data;
        }).catch((err) => {
            loading = null;     /* a later call may try again */
            throw err;
        });
    }
    return loading;
}

/* The heuristics compared by "Compare heuristics", in order. */
export function heuristicsFor(size)
{
    return HEURISTICS.filter((h) => appliesTo(h, size));
}

/* The algorithms compared by "Compare algorithms", in the registry's
   order (gentlest first). */
export function algorithmsFor(size)
{
    return ALGORITHMS.filter((a) => appliesTo(a, size));
}

export function appliesTo(entry, size)
{
    return !entry.sizes || entry.sizes.includes(size);
}

export function algorithmName(id)
{
    const a = ALGORITHMS.find((x) => x.id === id);
    return a ? a.name : TITLES[id] || id || '—';
}

export function heuristicName(id)
{
    const h = HEURISTICS.find((x) => x.id === id);
    return h ? h.name : TITLES[id] || id || '—';
}
