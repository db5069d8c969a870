// @ts-check
// The game page's state: one object per page, made by the page's entry
// (game/page.js, createGamePage), read by the render functions it is
// handed to and changed only by the page's controller; and what follows
// from it (who may move, which position is shown).

import { turnOf, moveNumberOf } from '../fen.js';
import * as settings from '../settings.js';
import { createChatState } from './chat.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').Info} Info */
/** @typedef {import('../board/types.js').Color} Color */
/** @typedef {import('../board/types.js').BoardPosition} BoardPosition */
/** @typedef {import('../board/types.js').Path} Path */

/**
 * @typedef {{
 *   info: Info | null,
 *   game: GameView | null,
 *   viewPly: number | null,
 *   seat: Color | null,
 *   hint: { rev: number, path: Path, san: string } | null,
 *   evalOn: boolean,
 *   replaying: boolean,
 *   orientation: { id: string, color: Color } | null,
 *   connected: boolean,
 *   clockAt: number,
 *   frozenAt: number | null,
 *   seatFixes: number,
 *   bannerDismissed: boolean,
 *   premove: { from: string, to: string } | null,
 *   missing: string | null,
 *   chat: import('./chat.js').ChatState,
 *   players: { id: string, seats: string, white: import('../api.js').SeatPlayer | null, black: import('../api.js').SeatPlayer | null } | null,
 * }} GameState
 */

/**
 * A new game page's state (one per page: the page's entry makes it and
 * hands it to what reads it).
 * @returns {GameState}
 */
export function createGameState() {
  return {
    info: null,
    game: null, // the server's GameView
    viewPly: null, // null: the live position; else the position after that many moves
    seat: null, // online: the seat this browser holds (the token is an HttpOnly cookie)
    hint: null,
    evalOn: settings.get('evalBar'),
    replaying: false,
    orientation: null, // the player's flip, for one game
    connected: true, // this page's socket is up
    clockAt: 0, // performance.now() when the clock times shown were received
    frozenAt: null, // performance.now() when the socket went down
    seatFixes: 0,
    bannerDismissed: false,
    premove: null,
    missing: null, // why no game is shown (a bad link)
    chat: createChatState(), // the online game's chat (chat.js)
    players: null, // an online game's players and their accounts (names link to profiles; challenge the opponent)
  };
}

/** Whether the game page is the page shown (keys, clocks and sounds are its own only then). */
export const gameShown = () => document.body.dataset.page === 'game';

/** @param {GameView} g */
export const isOnline = (g) => g.mode === 'online';
/** @param {GameState} state */
export const isLive = (state) => state.viewPly === null;
/** @param {GameState} state @param {GameView} g */
export const shownPly = (state, g) => (state.viewPly === null ? g.moves.length : state.viewPly);
/** @param {Color} c @returns {Color} */
export const other = (c) => (c === 'white' ? 'black' : 'white');
/** @param {GameView} g */
export const seatsTaken = (g) => !!g.online && g.online.white.taken && g.online.black.taken;
/** @param {GameView} g @returns {Color | null} */
export const freeSeat = (g) => (!g.online ? null : !g.online.white.taken ? 'white' : !g.online.black.taken ? 'black' : null);

/** Whether this page may move now. @param {GameState} state @param {GameView} g */
export function canMove(state, g) {
  if (g.end || !isLive(state)) return false;
  if (g.mode === 'local') return true;
  if (g.mode === 'online') return !!state.seat && state.seat === g.position.turn && seatsTaken(g);
  return g.human_color === g.position.turn && !g.engine_thinking;
}

/** The colour that may queue a premove now (the other side moves). @param {GameState} state @param {GameView} g @returns {Color | null} */
export function premoveColor(state, g) {
  if (g.end || !isLive(state)) return null;
  if (g.mode === 'engine' && g.human_color && g.human_color !== g.position.turn) return g.human_color;
  if (g.mode === 'online' && state.seat && state.seat !== g.position.turn && seatsTaken(g)) return state.seat;
  return null;
}

/** @param {string} fen @returns {{ white: number, black: number } | null} */
function handsOf(fen) {
  const m = fen.match(/\[([^\]]*)\]/);
  if (!m) return null;
  return { white: (m[1].match(/[A-Z]/g) || []).length, black: (m[1].match(/[a-z]/g) || []).length };
}

/** The board's position after `ply` moves. @param {GameState} state @param {GameView} g @param {number} ply @returns {BoardPosition} */
export function positionFor(state, g, ply) {
  const hasHands = g.position.rules ? g.position.rules.hands : g.variant === 'chessence';
  if (ply >= g.moves.length) {
    const p = g.position;
    const mine = canMove(state, g);
    return {
      fen: p.fen, variant: g.variant, check: p.check, hands: hasHands ? p.hands : null,
      legal: mine ? p.legal : [], movable: mine ? [p.turn] : [],
      last: g.moves.length ? g.moves[g.moves.length - 1].path : null,
    };
  }
  const fen = ply === 0 ? g.start_fen : g.moves[ply - 1].fen;
  return {
    fen, variant: g.variant, legal: [], movable: [],
    check: ply === 0 ? null : g.moves[ply - 1].check,
    hands: hasHands ? handsOf(fen) : null,
    last: ply === 0 ? null : g.moves[ply - 1].path,
  };
}

/** Which side is at the bottom. @param {GameState} state @param {GameView} g @returns {Color} */
export function defaultOrientation(state, g) {
  if (state.orientation && state.orientation.id === g.id) return state.orientation.color;
  if (g.mode === 'online') return state.seat || 'white';
  return g.mode === 'engine' && g.human_color === 'black' ? 'black' : 'white';
}

/** The number of move `i` (0-based ply) and whether it is White's. @param {GameView} g @param {number} i */
export function moveNumber(g, i) {
  const offset = turnOf(g.start_fen) === 'black' ? i + 1 : i;
  return { no: moveNumberOf(g.start_fen) + Math.floor(offset / 2), white: offset % 2 === 0 };
}
