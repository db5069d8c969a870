// The lobby's rules without a page or a server (assets/js/lobby/seeks.js):
// which open seek a quick pairing takes, what it posts when none fits, how
// the seeks are listed, and how clocks read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  QUICK_PAIRINGS, quickMatch, quickSeek, mySeekFor, mySeeks, listed, clockShort, acceptorColor, sameClock,
} from '../../../crates/server/assets/js/lobby/seeks.js';
import {
  estimatedMinutes, xOf, yOf, placeSeeks, GRAPH, RATING_RANGE,
} from '../../../crates/server/assets/js/lobby/seek-graph.js';

const clock = (m, inc) => ({ base_seconds: m * 60, increment_seconds: inc });
let n = 0;
/** A seek as the server lists it. */
const seek = (player, { variant = 'tensor', c = clock(5, 3), rated = false, color = 'random', account = null, at } = {}) => ({
  id: `s${++n}`,
  variant,
  variant_title: variant,
  clock: c,
  rated,
  color,
  player: { id: player, name: player, account, rating: 1500, provisional: true },
  created_at: at ?? n,
  expires_at: (at ?? n) + 1800000,
});
const q = (id) => QUICK_PAIRINGS.find((x) => x.id === id);
const guest = { id: 'me', account: null };
const member = { id: 'me', account: 'me' };

test('the quick pairings: Tensor Chess 3+2, 5+3 and 10+5 among them', () => {
  for (const id of ['tensor-3+2', 'tensor-5+3', 'tensor-10+5']) assert.ok(q(id), id);
  assert.deepEqual(q('tensor-5+3').clock, clock(5, 3));
  assert.equal(new Set(QUICK_PAIRINGS.map((x) => x.id)).size, QUICK_PAIRINGS.length, 'ids are unique');
});

test('a quick pairing takes the oldest fitting seek of someone else', () => {
  const own = seek('me', { at: 1 });
  const otherClock = seek('bob', { c: clock(10, 5), at: 2 });
  const otherGame = seek('bob', { variant: 'chess', at: 3 });
  const noClock = seek('bob', { c: null, at: 4 });
  const newer = seek('carol', { at: 9 });
  const older = seek('dan', { at: 5 });
  assert.equal(quickMatch([own, otherClock, otherGame, noClock, newer, older], q('tensor-5+3'), guest), older);
  assert.equal(quickMatch([own, otherClock], q('tensor-5+3'), guest), null, 'never one\'s own');
});

test('rated seeks: only for a player with an account, who takes them first', () => {
  const casual = seek('bob', { at: 1 });
  const rated = seek('carol', { rated: true, account: 'carol', at: 2 });
  assert.equal(quickMatch([casual, rated], q('tensor-5+3'), guest), casual);
  assert.equal(quickMatch([rated], q('tensor-5+3'), guest), null);
  assert.equal(quickMatch([casual, rated], q('tensor-5+3'), member), rated);
});

test('when none fits, a quick pairing posts its seek: rated with an account, colour by lot', () => {
  assert.deepEqual(quickSeek(q('tensor-10+5'), guest), { variant: 'tensor', clock: clock(10, 5), rated: false, color: 'random' });
  assert.equal(quickSeek(q('tensor-10+5'), member).rated, true);
});

test('one\'s own seeks: the button waits on its own, the list puts them first', () => {
  const mine = seek('me', { c: clock(3, 2), at: 7 });
  const other = seek('bob', { at: 1 });
  assert.equal(mySeekFor([other, mine], q('tensor-3+2'), 'me'), mine);
  assert.equal(mySeekFor([other, mine], q('tensor-5+3'), 'me'), null);
  assert.deepEqual(mySeeks([other, mine], 'me'), [mine]);
  assert.deepEqual(listed([other, mine], 'me'), [mine, other]);
});

test('clocks and colours as the lobby writes them', () => {
  assert.equal(clockShort(clock(5, 3)), '5+3');
  assert.equal(clockShort({ base_seconds: 90, increment_seconds: 0 }), '1.5+0');
  assert.equal(clockShort(null), null);
  assert.ok(sameClock(null, null));
  assert.ok(!sameClock(null, clock(1, 0)));
  assert.equal(acceptorColor('white'), 'black');
  assert.equal(acceptorColor('black'), 'white');
  assert.equal(acceptorColor('random'), 'random');
});

test('the seek graph: longer games to the right, higher ratings up, no clock at the end, no dot covering another', () => {
  assert.equal(estimatedMinutes(clock(5, 3)), 7); // 5 minutes and 40 increments of 3 s
  assert.equal(estimatedMinutes(null), Infinity);
  const xs = [clock(1, 0), clock(3, 2), clock(10, 5), clock(60, 30)].map((c) => xOf(estimatedMinutes(c)));
  for (let i = 1; i < xs.length; i++) assert.ok(xs[i] > xs[i - 1], `${xs}`);
  assert.ok(xOf(Infinity) > xs[xs.length - 1], 'no clock is right of every clock');
  assert.ok(xs.every((x) => x >= GRAPH.left && x <= GRAPH.width - GRAPH.right));
  assert.ok(yOf(1800) < yOf(1500), 'higher is up');
  assert.equal(yOf(RATING_RANGE[1] + 500), yOf(RATING_RANGE[1]), 'clamped above');
  assert.equal(yOf(100), yOf(RATING_RANGE[0]), 'clamped below');
  // Five seeks of one player on one clock: five dots, none on another.
  const same = Array.from({ length: 5 }, (_, i) => seek('ann', { at: i }));
  const placed = placeSeeks(same);
  assert.equal(placed.length, 5);
  for (const a of placed) {
    for (const b of placed) {
      if (a !== b) assert.ok(Math.abs(a.x - b.x) >= 12 || Math.abs(a.y - b.y) >= 12, `${a.seek.id} and ${b.seek.id} overlap`);
    }
  }
});
