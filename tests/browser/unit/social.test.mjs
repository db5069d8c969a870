// The chat's and challenges' rules, without a browser: which chat rooms a
// page follows, and how a challenge's terms read for each of its players.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { roomsFor, createChatState } from '../../../crates/server/assets/js/game/chat.js';
import { challengeTerms } from '../../../crates/server/assets/js/ui/challenges.js';

const online = (end) => ({ mode: 'online', online: {}, end });

test('chat rooms: the players\' room for the players, the spectators\' for others, both after the end', () => {
  assert.deepEqual(roomsFor(null, null), []);
  assert.deepEqual(roomsFor({ mode: 'engine', online: null, end: null }, null), [], 'no chat off line');
  assert.deepEqual(roomsFor(online(null), 'white'), ['players']);
  assert.deepEqual(roomsFor(online(null), null), ['spectators']);
  assert.deepEqual(roomsFor(online({ reason: 'resignation' }), 'black'), ['players', 'spectators']);
  assert.deepEqual(roomsFor(online({ reason: 'resignation' }), null), ['spectators']);
  const s = createChatState();
  assert.equal(s.game, null);
  assert.deepEqual(s.rooms, []);
});

test('a challenge\'s terms: the challenger\'s colour for the sender, the other for the one challenged', () => {
  const c = {
    id: 'x', direction: 'out', variant: 'tensor', clock: { base_seconds: 300, increment_seconds: 3 },
    rated: true, color: 'white',
  };
  assert.equal(challengeTerms(c), 'Tensor Chess · 5+3 · Rated · you play White');
  assert.equal(challengeTerms({ ...c, direction: 'in' }), 'Tensor Chess · 5+3 · Rated · you play Black');
  assert.equal(challengeTerms({ ...c, direction: 'in', clock: null, rated: false, color: 'random', variant: 'chess' }),
    'Chess · no clock · Casual · colour by lot');
});
