// A tournament's news read against the view a page holds
// (assets/js/tournaments/news.js): lines named by key and version are the
// page's own, with their new rank; one not held at its version, or held
// for another tournament, makes the page ask for the whole view.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readNews, wholeLines } from '../../../crates/server/assets/js/tournaments/news.js';

const player = (id) => ({ id, name: id.toUpperCase() });
const line = (rank, id, points, v) => ({
  rank, player: player(id), rating: 1500, points, points_line: String(points), sheet: [], games: 1,
  on_fire: false, performance: 1500, withdrawn: false, paused: false, v,
});
const game = (id, v) => ({ game: id, white: player('a'), black: player('b'), result: '*', white_berserked: false, black_berserked: false, v });
const view = (standings, pairings, id = 't') => ({
  id, kind: 'arena', name: 'Arena', standings, pairings, standings_total: standings.length,
  pairings_total: pairings.length, top_game: null,
});

test('lines named by key and version are the held ones, at their new rank', () => {
  const held = view([line(1, 'a', 4, 11), line(2, 'b', 2, 21)], [game('g1', 31)]);
  const news = view([line(1, 'c', 5, 41), ['a', 11, 2], ['b', 21, 3]], [['g1', 31], game('g2', 51)]);
  const v = readNews(news, held);
  assert.ok(v);
  assert.deepEqual(v.standings.map((s) => [s.player.id, s.rank, s.points]), [['c', 1, 5], ['a', 2, 4], ['b', 3, 2]]);
  assert.deepEqual(v.pairings.map((p) => p.game), ['g1', 'g2']);
  assert.equal(held.standings[0].rank, 1, 'the held view is not changed');
});

test("the player's own line held outside the first lines counts", () => {
  const held = { ...view([line(1, 'a', 4, 11)], []), you: { withdrawn: false, paused: false, standing: line(40, 'z', 0, 99) } };
  const v = readNews(view([['z', 99, 1]], []), held);
  assert.ok(v);
  assert.equal(v.standings[0].player.id, 'z');
});

test('a line not held at its version, or a news of another tournament, is unreadable', () => {
  const held = view([line(1, 'a', 4, 11)], [game('g1', 31)]);
  assert.equal(readNews(view([['a', 12, 1]], []), held), null, 'another version');
  assert.equal(readNews(view([['b', 11, 1]], []), held), null, 'a line not held');
  assert.equal(readNews(view([], [['g1', 32]]), held), null, 'a game at another version');
  assert.equal(readNews(view([['a', 11, 1]], [], 'other'), held), null, 'another tournament');
  assert.equal(readNews(view([['a', 11, 1]], []), null), null, 'nothing held');
  assert.ok(readNews(view([line(1, 'a', 4, 11)], []), null), 'whole lines need nothing held');
});

test('the lines told whole, without those named', () => {
  const v = wholeLines(view([line(1, 'c', 5, 41), ['a', 11, 2]], [['g1', 31], game('g2', 51)]));
  assert.deepEqual(v.standings.map((s) => s.player.id), ['c']);
  assert.deepEqual(v.pairings.map((p) => p.game), ['g2']);
});
