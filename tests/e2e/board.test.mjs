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
import { maxLevel, percent, scrambleLength, starsFor } from '../../www/js/levels.js';
import { nextShape, parseShape, shapeName } from '../../www/js/shapes.js';
import { readShared, shareUrl } from '../../www/js/share.js';
import { formatCountdown, formatSeconds } from '../../www/js/clock.js';

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

test('rectangles: the goal, moves and rows of a 3×4 go by its 4 columns', () => {
    const goal = goalBoard(3, 4);
    assert.deepEqual(goal, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0]);
    assert.deepEqual(toRows(goal, 4), [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 0]]);
    assert.deepEqual(legalMoves(goal, 4).sort(), ['left', 'up']);
    /* Up from the corner takes the tile above the gap: 8, not 9 (which a
       square reading of 12 cells, 3 wide, would take). */
    assert.equal(tileForMove(goal, 'up', 4), 8);
    assert.deepEqual(applyMove(goal, 'up', 4), [1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 8]);
    assert.equal(moveForTile(goal, 11, 4), 'left');
    assert.equal(applyMove(goal, 'down', 4), null);
    /* A tall 5×3: 3 columns, 5 rows. */
    const tall = goalBoard(5, 3);
    assert.equal(tall.length, 15);
    assert.equal(toRows(tall, 3).length, 5);
    assert.equal(tileForMove(tall, 'up', 3), 12);
});

test('shapes: keys, names, levels per shape', () => {
    assert.deepEqual(parseShape(3), { rows: 3, cols: 3, key: '3' });
    assert.deepEqual(parseShape('3x4'), { rows: 3, cols: 4, key: '3x4' });
    assert.equal(parseShape('9x2'), null);
    assert.equal(parseShape('3x'), null);
    assert.equal(shapeName(parseShape('5x3')), '5×3');
    assert.equal(maxLevel(parseShape('2x3')), 14);
    assert.equal(maxLevel('3'), 28);
    assert.equal(maxLevel(parseShape('3x4')), Infinity);
    assert.equal(nextShape(parseShape('2x3')).key, '3');
    assert.equal(nextShape(parseShape('3')).key, '4');
    assert.ok(scrambleLength(parseShape('3x4'), 2) > scrambleLength(parseShape('3x4'), 1));
    assert.ok(scrambleLength(parseShape('2x3'), 100) <= 30);
    assert.ok(scrambleLength(parseShape('4x5'), 1000) <= 70);
});

test('share links keep a rectangle\u2019s shape; a square\u2019s stay as they were', () => {
    const tiles = [1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 8];
    const url = shareUrl('http://x/', tiles, null, 'koi', parseShape('3x4'));
    assert.equal(url, 'http://x/?board=1,2,3,4,5,6,7,0,9,10,11,8&shape=3x4&picture=koi');
    const back = readShared(url);
    assert.deepEqual(back.tiles, tiles);
    assert.equal(back.shape.key, '3x4');
    assert.equal(shareUrl('http://x/', goalBoard(3), null, ''), 'http://x/?board=1,2,3,4,5,6,7,8,0');
    assert.match(readShared('http://x/?board=1,2,3,4,5,0&shape=3x4').error, /does not fill its shape/);
    assert.match(readShared('http://x/?board=1,2,0&shape=1x3').error, /shape/);
});

test('the daily countdown reads HH:MM:SS, also in the last hour of the day', () => {
    /* it showed "00053:30" with under an hour left (a level's format
     * padded to 8) */
    assert.equal(formatCountdown(53 * 60 + 30), '00:53:30');
    assert.equal(formatCountdown(5), '00:00:05');
    assert.equal(formatCountdown(86399.7), '23:59:59');
    assert.equal(formatCountdown(-3), '00:00:00');
    assert.equal(formatSeconds(53 * 60 + 30), '53:30');
});
