/*
 * board.test.mjs - the game's pure modules (board rules, levels) checked
 * in node without a browser, so a broken rule shows up as itself rather
 * than as a puzzling browser failure.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
    applyMove, fromApi, goalBoard, isSolved, legalMoves, moveForTile, opposite,
    parseBoard, tileForMove, toRows,
} from '../../www/js/board.js';
import { percent, scrambleLength, starsFor } from '../../www/js/levels.js';

test('the goal has the tiles in order and the blank last', () => {
    assert.deepEqual(goalBoard(3), [1, 2, 3, 4, 5, 6, 7, 8, 0]);
    assert.equal(isSolved(goalBoard(4)), true);
});

test('moves name the direction the blank goes', () => {
    const goal = goalBoard(3);
    assert.deepEqual(legalMoves(goal).sort(), ['left', 'up']);
    assert.deepEqual(applyMove(goal, 'left'), [1, 2, 3, 4, 5, 6, 7, 0, 8]);
    assert.equal(tileForMove(goal, 'up'), 6);
    assert.equal(applyMove(goal, 'right'), null);
    assert.equal(moveForTile(goal, 8), 'left');
    assert.equal(moveForTile(goal, 1), null);
    assert.equal(opposite('up'), 'down');
});

test('boards from the API come in any of its three forms', () => {
    const flat = [8, 6, 7, 2, 5, 4, 3, 0, 1];
    assert.deepEqual(fromApi('8 6 7 2 5 4 3 0 1'), flat);
    assert.deepEqual(fromApi(toRows(flat)), flat);
    assert.deepEqual(fromApi(flat), flat);
});

test('a pasted board may use commas, brackets, new lines and _ for the gap', () => {
    assert.deepEqual(parseBoard('[[1,2,3],[4,5,6],[7,8,_]]'), goalBoard(3));
    assert.deepEqual(parseBoard('1 2 3\n4 5 6\n7 8 0\n'), goalBoard(3));
    assert.throws(() => parseBoard('1 2 3 4 5'), /square number of cells/);
    assert.throws(() => parseBoard('1 2 3 4 5 6 7 8 x9'), /"x9" is not a tile number/);
    assert.throws(() => parseBoard('   '), /row by row/);
});

test('3×3 level k is k+3 moves from the goal, capped at 31', () => {
    assert.equal(scrambleLength(3, 1), 4);
    assert.equal(scrambleLength(3, 20), 23);
    assert.equal(scrambleLength(3, 500), 31);
    assert.ok(scrambleLength(4, 2) > scrambleLength(4, 1));
    assert.ok(scrambleLength(5, 1000) <= 70);
});

test('stars: three for optimal, two from 70%, one for any finish', () => {
    assert.equal(starsFor(1), 3);
    assert.equal(starsFor(0.75), 2);
    assert.equal(starsFor(0.2), 1);
    assert.equal(starsFor(Number.NaN), 0);
    assert.equal(percent(10 / 13), 77);
});
