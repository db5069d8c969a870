// The profile's game search without a page (assets/js/profile/search.js):
// moves as typed become the API's list, an address keeps only the search's
// parameters, and a game's result is read from the profile's player's side;
// the explorer's link names the position.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { movesParam, searchOf, resultFor } from '../../../crates/server/assets/js/profile/search.js';
import { gamesThroughHref } from '../../../crates/server/assets/js/learn/explorer.js';

test('moves typed with spaces, commas or move numbers become a comma list', () => {
  assert.equal(movesParam('e2e4 e7e5'), 'e2e4,e7e5');
  assert.equal(movesParam(' e2e4,  e7e5 ,g1f3 '), 'e2e4,e7e5,g1f3');
  assert.equal(movesParam('1. e4 e5 2. Nf3 1... c5'), 'e4,e5,Nf3,c5');
  assert.equal(movesParam('  '), '');
});

test("an address's query keeps the search's parameters, those given", () => {
  const q = searchOf(new URLSearchParams('vs=bob&result=win&play=e2e4%2Ce7e5&max=5&pgnInJson=true&rated='));
  assert.equal(q.toString(), 'vs=bob&result=win&play=e2e4%2Ce7e5');
});

test("a game's result is the profile player's, whichever side, in any case of the name", () => {
  const side = (name) => ({ user: { name, id: name.toLowerCase() } });
  const g = (winner, status = 'resign') => ({
    id: 'g', rated: false, variant: 'standard', speed: 'blitz', perf: 'blitz', createdAt: 0, lastMoveAt: 0, status, winner,
    moves: 'e4 e5', players: { white: side('Ann'), black: side('bob') },
  });
  assert.equal(resultFor(g('white'), 'ann'), 'win');
  assert.equal(resultFor(g('white'), 'Bob'), 'loss');
  assert.equal(resultFor(g(undefined, 'draw'), 'bob'), 'draw');
  assert.equal(resultFor(g(undefined, 'aborted'), 'ann'), '');
  assert.equal(resultFor(g('black'), 'cat'), '');
});

test("the explorer's link opens the profile's search at the position", () => {
  assert.equal(gamesThroughHref('Ann B', 'chess', '', ['e2e4', 'e7e5']), '/#/player/Ann%20B?variant=chess&play=e2e4%2Ce7e5');
  assert.equal(gamesThroughHref('ann', 'tensor', '', []), '/#/player/ann?variant=tensor');
  assert.match(gamesThroughHref('ann', 'chess', '8/8/8/8/8/8/8/K6k w - - 0 1', ['a1a2']), /^\/#\/player\/ann\?variant=chess&fen=8%2F8.*&play=a1a2$/);
});
