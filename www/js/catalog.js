/*
 * catalog.js - the search algorithms and heuristics the API offers, with
 * the names and one-line explanations a student sees in the lab.
 *
 * Kept in step with the enums of POST /v1/solve in openapi.yaml. Entries
 * with `sizes` apply only to those board sizes; the lab disables the rest.
 */

export const ALGORITHMS = Object.freeze([
    { id: 'astar', name: 'A*', about: 'best-first on moves so far + heuristic; optimal' },
    { id: 'idastar', name: 'IDA*', about: 'A* as iterative deepening; optimal, tiny memory' },
    { id: 'bfs', name: 'Breadth-first', about: 'every board at distance 1, then 2…; optimal, no heuristic' },
    { id: 'dfs', name: 'Depth-first', about: 'dives deep first; finds a path, rarely a short one' },
    { id: 'bnb', name: 'Branch and bound', about: 'least cost first from a min-heap on moves + misplaced tiles; optimal' },
    { id: 'greedy', name: 'Greedy best-first', about: 'follows the heuristic alone; fast, not optimal' },
    { id: 'wastar', name: 'Weighted A*', about: 'A* with the heuristic counted three times; at most 3× optimal, far fewer nodes' },
    { id: 'constructive', name: 'Constructive', about: 'places rows and columns one by one; big boards, not optimal', minSize: 5 },
]);

export const HEURISTICS = Object.freeze([
    { id: 'misplaced', name: 'Misplaced tiles', about: 'counts tiles out of place' },
    { id: 'manhattan', name: 'Manhattan distance', about: 'sums each tile\u2019s row + column distance' },
    { id: 'linear-conflict', name: 'Linear conflict', about: 'Manhattan + 2 per pair of tiles blocking each other in a line' },
    { id: 'pdb', name: 'Pattern databases', about: 'precomputed exact costs: the whole 3×3 table, tile groups on 4×4', sizes: [3, 4] },
]);

/* Algorithms that never look at a heuristic. */
export const BLIND = new Set(['bfs', 'dfs', 'constructive']);

/* The heuristics compared by "Compare heuristics", in order. */
export function heuristicsFor(size)
{
    return HEURISTICS.filter((h) => appliesTo(h, size));
}

/* The algorithms compared by "Compare algorithms", gentlest first. */
export function algorithmsFor(size)
{
    return ALGORITHMS.filter((a) => appliesTo(a, size));
}

export function appliesTo(entry, size)
{
    if (entry.sizes && !entry.sizes.includes(size))
        return false;
    if (entry.minSize && size < entry.minSize)
        return false;
    return true;
}

export function algorithmName(id)
{
    const a = ALGORITHMS.find((x) => x.id === id);
    return a ? a.name : id || '—';
}

export function heuristicName(id)
{
    const h = HEURISTICS.find((x) => x.id === id);
    return h ? h.name : id || '—';
}
