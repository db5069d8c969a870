// The analysis board's move tree (assets/js/learn/tree.js): variations,
// promote and delete, and PGN movetext with comments and NAGs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as tree from '../../../crates/server/assets/js/learn/tree.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
/** @param {any} parent @param {string} san */
const add = (parent, san) => tree.addMove(parent, { uci: san, san, fen: '' });

test('a tree with a variation exports as PGN with comments and NAGs', () => {
  const root = tree.newRoot(START);
  const e4 = add(root, 'e4');
  const e5 = add(e4, 'e5');
  const c5 = add(e4, 'c5');
  add(e5, 'Nf3');
  add(c5, 'Nf3').comments.push('the Sicilian');
  e4.nags.push(1);
  assert.equal(add(e4, 'e5'), e5, 'the same move is not added twice');
  assert.equal(tree.movetext(root, START), '1. e4 $1 e5 (1... c5 2. Nf3 { the Sicilian }) 2. Nf3');
  assert.deepEqual(tree.mainLine(root).map((n) => n.san), ['e4', 'e5', 'Nf3']);
  assert.equal(tree.onMainLine(c5), false);

  assert.equal(tree.promote(c5.children[0]), true);
  assert.deepEqual(tree.mainLine(root).map((n) => n.san), ['e4', 'c5', 'Nf3']);
  assert.equal(tree.movetext(root, START), '1. e4 $1 c5 (1... e5 2. Nf3) 2. Nf3 { the Sicilian }');
  assert.equal(tree.remove(e5), e4);
  assert.equal(tree.movetext(root, START), '1. e4 $1 c5 2. Nf3 { the Sicilian }');
  const pgn = tree.toPgn(root, { variant: 'tensor', startFen: START, standardStart: false });
  assert.match(pgn, /\[Variant "Tensor"\]/);
  assert.match(pgn, /\[FEN "rnbqkbnr/);
  assert.match(pgn, /Nf3 \{ the Sicilian \} \*\n$/);
});

test('black to move first numbers its moves with an ellipsis', () => {
  const fen = '4k3/8/8/8/8/8/8/4K3 b - - 0 7';
  const root = tree.newRoot(fen);
  add(add(root, 'Kd7'), 'Kd2');
  assert.equal(tree.movetext(root, fen), '7... Kd7 8. Kd2');
});
