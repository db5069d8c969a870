// The board's tap state machine, without a browser: taps and drops on
// positions whose legal moves the server listed (fixtures/positions.json,
// taken from POST /api/position).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import * as tapMachine from '../../../crates/server/assets/js/board/tap.js';
import { placement } from '../../../crates/server/assets/js/fen.js';

const { IDLE, tap, drop, press, tapHand, choose, marks, premoveMove, stillValid } = tapMachine;
const positions = JSON.parse(fs.readFileSync(new URL('./fixtures/positions.json', import.meta.url), 'utf8'));

/** A context for a fixture, the side to move movable (or `movable`). */
function ctx(name, movable) {
  const p = positions[name];
  const board = placement(p.fen, p.geometry);
  const turn = p.fen.split(' ')[1] === 'b' ? 'black' : 'white';
  return { legal: p.legal, movable: movable || [turn], pieceAt: (s) => board.get(s) };
}

/** Taps the squares in turn from idle; returns every result. */
function taps(c, ...squares) {
  let sel = IDLE;
  const out = [];
  for (const s of squares) {
    const r = tap(c, sel, s);
    out.push(r);
    sel = r.sel;
  }
  return out;
}
const last = (rs) => rs[rs.length - 1];
const squaresOf = (ms, kind) => ms.filter((m) => m.kind === kind).map((m) => m.square).sort();

test('ricochet: two taps, the rook to f4 through its beast on a4', () => {
  const c = ctx('ricochet');
  const [first, second] = taps(c, 'a1', 'f4');
  assert.deepEqual(first.sel, { mode: 'selected', from: 'a1' });
  assert.ok(squaresOf(marks(c, first.sel), 'dest').includes('f4'), 'f4 is offered');
  assert.equal(second.play, 'a1f4');
  assert.deepEqual(second.sel, IDLE);
  // g4 lies behind the pawn: not offered, so not played but "tried".
  const r = last(taps(c, 'a1', 'g4'));
  assert.equal(r.play, undefined);
  assert.deepEqual(r.tried, { uci: 'a1g4', from: 'a1', to: 'g4' });
});

test('hop chains: one tap on the chain\'s end plays it', () => {
  const c = ctx('hops');
  assert.equal(last(taps(c, 'c1', 'e5')).play, 'c1e5');
  assert.equal(last(taps(c, 'c1', 'e3')).play, 'c1e3');
  // c4 cannot be reached by a chain (it would need a step and a hop).
  assert.equal(last(taps(c, 'c1', 'c4')).tried.uci, 'c1c4');
});

test('propel: piece, beast, then where the beast goes; the beast again steps back', () => {
  const c = ctx('propel');
  const [piece, beast, where] = taps(c, 'b8', 'c6', 'd4');
  assert.ok(marks(c, piece.sel).some((m) => m.kind === 'propel-beast' && m.square === 'c6'));
  assert.deepEqual(beast.sel, { mode: 'propel', from: 'b8', beast: 'c6' });
  const ms = marks(c, beast.sel);
  assert.deepEqual(squaresOf(ms, 'beast-sign'), ['a5', 'a7', 'b4', 'b8', 'd4', 'd8', 'e7']);
  assert.deepEqual(squaresOf(ms, 'propel-sign'), ['c6']);
  assert.equal(where.play, 'b8c6>d4');
  // Back onto the square the knight left.
  assert.equal(last(taps(c, 'b8', 'c6', 'b8')).play, 'b8c6>b8');
  // A second tap on the beast goes back to the piece's own moves.
  assert.deepEqual(last(taps(c, 'b8', 'c6', 'c6')).sel, { mode: 'selected', from: 'b8' });
  // A square the beast cannot reach is tried as a propel.
  assert.equal(last(taps(c, 'b8', 'c6', 'e5')).tried.uci, 'b8c6>e5');
  // Not the knight's own ricochets: those are direct moves (b8 → c6 → d4 is one too).
  assert.equal(last(taps(c, 'b8', 'd4')).play, 'b8d4');
});

test('castling: king, rook, one of the king outlines; or the king\'s square at once', () => {
  const c = ctx('castling');
  const [king, rook, outline] = taps(c, 'f1', 'a1', 'c1');
  assert.deepEqual(squaresOf(marks(c, king.sel), 'castle-arrow'), ['a1', 'j1']);
  assert.deepEqual(rook.sel, { mode: 'castle', from: 'f1', rook: 'a1' });
  assert.deepEqual(squaresOf(marks(c, rook.sel), 'king-outline'), ['b1', 'c1']);
  assert.equal(outline.play, 'f1c1');
  assert.equal(last(taps(c, 'f1', 'h1')).play, 'f1h1');
  assert.equal(last(taps(c, 'f1', 'j1', 'i1')).play, 'f1i1');
  // The rook again: back to the king's moves; another square: as a king's tap.
  assert.deepEqual(last(taps(c, 'f1', 'a1', 'a1')).sel, { mode: 'selected', from: 'f1' });
  assert.equal(last(taps(c, 'f1', 'a1', 'f3')).tried.uci, 'f1f3');
  assert.equal(last(taps(c, 'f1', 'a1', 'g1')).play, 'f1g1');
  // Orthodox chess: the king's two squares, or king then rook then g1.
  const chess = ctx('chess-castling');
  assert.equal(last(taps(chess, 'e1', 'g1')).play, 'e1g1');
  assert.equal(last(taps(chess, 'e1', 'h1', 'g1')).play, 'e1g1');
});

test('optional beast captures: a chooser where both are possible, the own square is a capture', () => {
  const c = ctx('beast-capture');
  const r = last(taps(c, 'e3', 'e5'));
  assert.equal(r.sel.mode, 'choose');
  assert.equal(r.sel.kind, 'beast');
  assert.deepEqual(r.sel.options.map((m) => m.uci).sort(), ['e3e5', 'e3e5xe4']);
  assert.deepEqual(squaresOf(marks(c, r.sel), 'capture-mark'), ['e4']);
  assert.equal(choose(r.sel, 'e3e5xe4').play, 'e3e5xe4');
  assert.equal(choose(r.sel, 'e3e5').play, 'e3e5');
  assert.equal(choose(r.sel, 'e3e6').play, undefined, 'only the options offered');
  // Tapping the marked beast answers the chooser too.
  assert.equal(tap(c, r.sel, 'e4').play, 'e3e5xe4');
  // The beast's own square is a destination (captures the beast on e4).
  const own = taps(c, 'e3', 'e3');
  assert.ok(marks(c, own[0].sel).some((m) => m.kind === 'dest' && m.square === 'e3'));
  assert.equal(own[1].play, 'e3e3xe4');
  // A drag back onto the own square plays it as well; elsewhere it snaps.
  const sel = { mode: 'selected', from: 'e3' };
  assert.equal(drop(c, sel, 'e3', 'e3').play, 'e3e3xe4');
  assert.deepEqual(drop(c, sel, 'e3', 'f3'), { sel: IDLE, play: 'e3f3', snap: true });
});

test('a piece without a move to its own square: a second tap or a drag back cancels', () => {
  const c = ctx('ricochet');
  assert.deepEqual(last(taps(c, 'a1', 'a1')).sel, IDLE);
  const sel = { mode: 'selected', from: 'a1' };
  assert.deepEqual(drop(c, sel, 'a1', 'a1'), { sel });
  assert.deepEqual(drop(c, sel, 'a1', null), { sel });
  // Another own piece selects it instead.
  assert.deepEqual(last(taps(c, 'a1', 'j1')).sel, { mode: 'selected', from: 'j1' });
});

test('promotion: a chooser, queen first and the beast last', () => {
  const c = ctx('promotion');
  const r = last(taps(c, 'c7', 'c8'));
  assert.equal(r.sel.kind, 'promotion');
  assert.deepEqual(r.sel.options.map((m) => m.promotion), ['q', 'r', 'b', 'n', 't']);
  assert.equal(choose(r.sel, 'c7c8t').play, 'c7c8t');
  // A tap on the board does not answer a promotion chooser.
  assert.deepEqual(tap(c, r.sel, 'c8').sel, r.sel);
});

test('drops: the reserve, then a drop square; a second tap on the reserve puts it back', () => {
  const c = ctx('drops');
  const hand = tapHand(c, IDLE, 'white');
  assert.deepEqual(hand.sel, { mode: 'hand', color: 'white' });
  assert.ok(squaresOf(marks(c, hand.sel), 'dest').includes('d2'));
  assert.equal(tap(c, hand.sel, 'd2').play, 'M@d2');
  assert.deepEqual(tapHand(c, hand.sel, 'white').sel, IDLE);
  assert.deepEqual(tapHand(c, IDLE, 'black').sel, IDLE, 'not the side to move');
  assert.equal(tap(c, hand.sel, 'a9').tried.uci, 'M@a9');
  // A man of one's own instead selects it.
  assert.deepEqual(tap(c, hand.sel, 'c3').sel, { mode: 'selected', from: 'c3' });
});

test('pressing: one\'s own piece selects at once, a target of the selection does not', () => {
  const c = ctx('castling');
  const p = press(c, IDLE, 'f1');
  assert.deepEqual(p, { sel: { mode: 'selected', from: 'f1' }, selectedNow: true, canDrag: true });
  // The rook is a target of the king's selection: pressing it keeps the king.
  const r = press(c, p.sel, 'a1');
  assert.equal(r.selectedNow, false);
  assert.deepEqual(r.sel, p.sel);
  // An enemy piece, nothing.
  assert.equal(press(c, IDLE, 'f8').selectedNow, false);
  // The beast of a propel is not selected on press either.
  const k = ctx('propel');
  assert.equal(press(k, { mode: 'selected', from: 'b8' }, 'c6').selectedNow, false);
});

test('premoves: picked while the other side moves, resolved against the next legal moves', () => {
  const p = positions.castling;
  const board = placement(p.fen, p.geometry);
  const c = { legal: [], movable: [], premovable: 'white', pieceAt: (s) => board.get(s) };
  const [pick, to] = taps(c, 'e2', 'e4');
  assert.deepEqual(pick.sel, { mode: 'preselect', from: 'e2' });
  assert.deepEqual(to.premove, { from: 'e2', to: 'e4' });
  assert.deepEqual(drop(c, pick.sel, 'e2', 'e3').premove, { from: 'e2', to: 'e3' });
  assert.deepEqual(last(taps(c, 'e2', 'e2')).sel, IDLE, 'a second tap cancels');
  assert.deepEqual(tap(c, IDLE, 'e7').sel, IDLE, 'not the other side\'s pieces');
  assert.equal(premoveMove(p.legal, { from: 'e2', to: 'e4' }), 'e2e4');
  assert.equal(premoveMove(p.legal, { from: 'e2', to: 'e5' }), null);
  assert.equal(premoveMove(p.legal, { from: 'f1', to: 'a1' }), null, 'two castlings with that rook');
  assert.equal(premoveMove(positions.promotion.legal, { from: 'c7', to: 'c8' }), 'c7c8q');
  assert.equal(premoveMove(positions['beast-capture'].legal, { from: 'e3', to: 'e5' }), null);
  assert.equal(stillValid(c, pick.sel), true);
});
