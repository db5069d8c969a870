// @ts-check
// An online game's `move` event (crates/server/src/live/move_event.rs): the
// move just played, the clocks and offers after it, and — only for the side
// now to move — the new position's legal moves in a compact form. The page
// makes the next state of the game from the one it holds; when the event
// does not follow that state (its revision), the caller asks for a snapshot.

import { placement, turnOf } from '../fen.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').HistoryEntry} HistoryEntry */
/** @typedef {import('../board/types.js').LegalMove} LegalMove */
/** @typedef {import('../board/types.js').Path} Path */
/** @typedef {import('../board/types.js').Color} Color */

/**
 * A path in the compact form: left out where the page makes it from the
 * move string and the position (see `pathOf`), a route's squares, or the
 * whole path (castling, en passant).
 * @typedef {string[] | Path} CompactPath
 */
/**
 * The compact legal moves: move strings by what starts them (a square, or
 * `M@` for a drop), each without that start; the kinds a string does not
 * tell (castling with its rook, en passant); the paths the page cannot
 * make itself.
 * @typedef {{ moves: Record<string, string[]>, special?: Record<string, { kind: string, rook?: string | null }>,
 *   paths?: Record<string, CompactPath> }} CompactLegal
 */
/**
 * @typedef {{ white_ms: number, black_ms: number, running?: Color | null, first_move_ms?: number | null }} ClockTicks
 */
/**
 * The move, without what the page knows (its colour, most paths).
 * @typedef {{ ply: number, uci: string, san: string, fen: string, check?: string | null, path?: CompactPath }} MovePlayed
 */
/**
 * @typedef {{ type: 'move', topic: string, rev: number, move: MovePlayed,
 *   hands?: { white: number, black: number }, clock?: ClockTicks, draw_offer?: Color | null, can_abort?: boolean,
 *   legal?: CompactLegal }} MoveEvent
 */

/** A square's name at the start of `s`, and what follows it. @param {string} s */
function leadingSquare(s) {
  const m = s.match(/^([a-z])(\d{1,2})/);
  return m ? { square: m[0], rest: s.slice(m[0].length) } : null;
}

/**
 * What a move string says: its kind as far as the string tells it, its
 * squares, and the square after `>` or `x`.
 * @param {string} uci
 * @returns {{ kind: string, from: string, to: string, aux: string | null, promotion: string | null } | null}
 */
function readMove(uci) {
  const at = uci.indexOf('@');
  if (at >= 0) {
    const to = uci.slice(at + 1);
    return { kind: 'drop', from: to, to, aux: null, promotion: null };
  }
  const from = leadingSquare(uci);
  const to = from && leadingSquare(from.rest);
  if (!from || !to) return null;
  const tail = to.rest;
  const m = { kind: 'normal', from: from.square, to: to.square, aux: /** @type {string | null} */ (null), promotion: /** @type {string | null} */ (null) };
  if (tail.startsWith('>')) return { ...m, kind: 'propel', aux: tail.slice(1) };
  if (tail.startsWith('x')) return { ...m, kind: 'beast_capture', aux: tail.slice(1) };
  if (tail) return { ...m, kind: 'promotion', promotion: tail };
  return m;
}

/**
 * A move's path from its compact form and the position it is played in
 * (the server leaves out what this makes: crates/server/src/live/compact.rs).
 * @param {{ kind: string, from: string, to: string, aux: string | null }} m what its move string says
 * @param {CompactPath | undefined} compact
 * @param {Map<string, string>} pieces the position's placement
 * @param {Color} us the side that plays it
 * @returns {Path}
 */
function pathOf(m, compact, pieces, us) {
  if (compact && !Array.isArray(compact)) return compact;
  const own = (/** @type {string} */ letter) => (us === 'white' ? letter.toUpperCase() : letter);
  if (m.kind === 'drop') return { routes: [{ piece: own('m'), squares: [m.to] }], captured: null };
  const mover = pieces.get(m.from) || '';
  if (m.kind === 'propel' && m.aux) {
    return { routes: [{ piece: mover, squares: [m.from, m.to] }, { piece: own('t'), squares: [m.to, m.aux] }], captured: null };
  }
  const captured = m.kind === 'beast_capture' ? m.aux : pieces.has(m.to) ? m.to : null;
  return { routes: [{ piece: mover, squares: compact || [m.from, m.to] }], captured };
}

/**
 * The legal moves the compact form stands for, as the whole view lists
 * them (without SAN): kind, squares and path of each.
 * @param {CompactLegal} compact
 * @param {string} fen the position they are legal in
 * @param {{ ranks: number }} geometry
 * @returns {LegalMove[]}
 */
export function expandLegal(compact, fen, geometry) {
  const pieces = placement(fen, geometry);
  const us = turnOf(fen);
  const special = compact.special || {};
  const paths = compact.paths || {};
  /** @type {LegalMove[]} */
  const out = [];
  for (const [start, rests] of Object.entries(compact.moves)) {
    for (const rest of rests) {
      const uci = start + rest;
      const read = readMove(uci);
      if (!read) continue;
      /** @type {LegalMove} */
      const m = { uci, ...read, rook: null };
      const sp = special[uci];
      if (sp) Object.assign(m, { kind: sp.kind, rook: sp.rook || null });
      m.path = pathOf(read, paths[uci], pieces, us);
      out.push(m);
    }
  }
  return out;
}

/**
 * The move list's entry of a move event's move, made in the position
 * before it. @param {MovePlayed} played @param {string} fenBefore
 * @param {{ ranks: number }} geometry @returns {HistoryEntry | null}
 */
function entryOf(played, fenBefore, geometry) {
  const read = readMove(played.uci);
  if (!read) return null;
  const color = turnOf(fenBefore);
  const path = pathOf(read, played.path, placement(fenBefore, geometry), color);
  return {
    ply: played.ply, uci: played.uci, san: played.san, color, fen: played.fen, check: played.check || null,
    path: { routes: path.routes, captured: path.captured ?? null },
  };
}

/**
 * The game after `ev`, or null when `ev` does not follow `g` (a missed
 * event: the caller asks for the whole game).
 * @param {GameView} g @param {MoveEvent} ev @returns {GameView | null}
 */
export function afterMoveEvent(g, ev) {
  if (ev.topic !== `game:${g.id}` || ev.rev !== g.rev + 1 || ev.move.ply !== g.moves.length || g.end) return null;
  const entry = entryOf(ev.move, g.position.fen, g.position.geometry);
  if (!entry) return null;
  /** @type {Color} */
  const turn = entry.color === 'white' ? 'black' : 'white';
  const legal = ev.legal ? expandLegal(ev.legal, entry.fen, g.position.geometry) : [];
  const position = {
    ...g.position, fen: entry.fen, turn, check: entry.check, legal, outcome: null,
    hands: ev.hands || g.position.hands,
  };
  const online = g.online && {
    ...g.online,
    clock: g.online.clock && ev.clock
      ? { ...g.online.clock, ...ev.clock, running: ev.clock.running || null, first_move_ms: ev.clock.first_move_ms ?? null }
      : g.online.clock,
    draw_offer: ev.draw_offer || null,
    can_abort: !!ev.can_abort,
  };
  return { ...g, rev: ev.rev, moves: g.moves.concat([entry]), position, online, moves_from: 0, moves_before: null };
}
