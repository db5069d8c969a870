// @ts-check
// The game page kept in step with the server: every state of the game (an
// action's answer, a WebSocket update, the game asked for again) goes
// through the page's one queue, in order, and is applied against the state
// shown then: a new game drawn afresh; the moves added since animated,
// sounded and read out; the end said; then a queued premove played.

import { api } from '../api.js';
import { premoveMove } from '../board/tap.js';
import { isLive, canMove, positionFor, defaultOrientation } from './state.js';
import { renderPlayers } from './render.js';
import { t, colorName, endText, serverError } from '../i18n.js';
import { toast, hideToast, announce } from '../ui/notice.js';
import { forMove } from '../sounds.js';

/** @typedef {import('./page.js').GamePage} GamePage */
/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').ApiError} ApiError */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/**
 * Runs `f` when its turn in the page's queue comes (after the states
 * before it are applied). @param {GamePage} page @param {() => unknown} f
 */
export function inTurn(page, f) {
  page.queue = page.queue.then(f).catch((e) => console.error(e));
  return page.queue;
}

/** A state of the game, applied in its turn. @param {GamePage} page @param {GameView} v @param {{ fresh?: boolean }} [opts] */
export function enqueue(page, v, opts) {
  return inTurn(page, () => applyView(page, v, opts));
}

/**
 * Applies a state of the game shown (`fresh`: a game opened, whatever was
 * shown before); an older one than shown is dropped.
 * @param {GamePage} page @param {GameView} v @param {{ fresh?: boolean }} [opts]
 */
export async function applyView(page, v, opts = {}) {
  const { state, board } = page;
  const old = state.game;
  if (!opts.fresh) {
    if (!old || old.id !== v.id) return;
    if (v.rev < old.rev) return;
  }
  if (v.online) state.clockAt = performance.now();
  if (!opts.fresh && old && old.id === v.id) noteAnswers(state.seat, old, v);
  if (!opts.fresh && old && v.rev === old.rev && v.engine_thinking === old.engine_thinking) {
    state.game = v; // the same state again (a snapshot after subscribing): keep what the player is doing
    renderPlayers(state, board, v);
    return;
  }
  state.game = v;
  // A rematch was just agreed: the players go to it.
  if (!opts.fresh && state.seat && old && old.online && v.online && !old.online.rematch_id && v.online.rematch_id) {
    location.hash = `#/game/${v.online.rematch_id}`;
    return;
  }
  if (opts.fresh || !old || old.id !== v.id) {
    hideToast();
    // What was typed in the Move box was for the game before.
    if (!old || old.id !== v.id) /** @type {HTMLInputElement} */ ($('#move-input')).value = '';
    state.missing = null;
    board.setGeometry(v.position.geometry);
    board.orientation = defaultOrientation(state, v);
    board.drawSquares();
    state.bannerDismissed = false;
    state.hint = null;
    state.viewPly = null;
    state.premove = null;
    board.setPremove(null);
    page.lowTimeWarned = false;
    page.redraw();
    return;
  }
  const added = v.moves.length - old.moves.length;
  const extendsOld = added > 0 && added <= 2 && old.moves.every((m, i) => v.moves[i] && v.moves[i].uci === m.uci);
  if (isLive(state) && extendsOld) {
    board.busy = true;
    try {
      for (let i = old.moves.length; i < v.moves.length; i++) {
        const before = positionFor(state, v, i);
        if (board.pos.fen !== before.fen) board.setPosition(before);
        const entry = v.moves[i];
        await board.animate(entry.path, entry.uci);
        page.sounds.play(forMove(entry));
        announceMove(v, i);
        board.setPosition(positionFor(state, v, i + 1));
      }
    } finally {
      board.busy = false;
    }
  }
  if (v.end && !old.end) {
    state.bannerDismissed = false;
    page.sounds.play('end');
    const e = endText(v.end, v.variant);
    announce(`${e.title}. ${e.text}`);
  }
  page.redraw();
  tryPremove(page);
}

/**
 * An offer of this seat's answered online: a declined one is said (the
 * offerer would otherwise never know), an accepted one (a draw by
 * agreement, a rematch) ends the "waiting for an answer" notice.
 * @param {import('../board/types.js').Color | null} seat @param {GameView} old @param {GameView} v
 */
function noteAnswers(seat, old, v) {
  if (!seat || !old.online || !v.online) return;
  const moved = v.moves.length !== old.moves.length;
  if (old.online.draw_offer === seat && v.online.draw_offer !== seat) {
    if (v.end || moved) hideToast();
    else toast(t('notice.draw_declined'), t('notice.draw_declined_online'), 'info');
  }
  if (old.online.rematch_offer === seat && v.online.rematch_offer !== seat) {
    if (v.online.rematch_id) hideToast();
    else toast(t('notice.rematch_declined'), t('notice.rematch_declined_online'), 'info');
  }
}

/** Reads a move out: "White: Nf3", and check. @param {GameView} g @param {number} i */
function announceMove(g, i) {
  const m = g.moves[i];
  const check = m.check ? ` ${t('announce.check')}` : '';
  announce(`${t('announce.move', { color: colorName(m.color), san: m.san })}${check}`);
}

// Online games' updates carry only the new moves (from `moves_from` on):
// the page keeps the moves it has before that. Should its moves not match
// (an update missed), it asks for the whole game again.
/** @param {GamePage} page @param {GameView} v @returns {GameView | null} */
export function withMoves(page, v) {
  const { state } = page;
  const from = v.moves_from || 0;
  if (!from) return v;
  const have = state.game && state.game.id === v.id ? state.game.moves : [];
  if (have.length < from || have[from - 1].uci !== v.moves_before) {
    refresh(page);
    return null;
  }
  return { ...v, moves: have.slice(0, from).concat(v.moves), moves_from: 0 };
}

/** A queued premove, played as soon as it is this player's turn and legal. @param {GamePage} page */
export function tryPremove(page) {
  const { state, board } = page;
  const g = state.game;
  const pm = state.premove;
  if (!g || !pm || !canMove(state, g)) return;
  state.premove = null;
  board.setPremove(null);
  const uci = premoveMove(g.position.legal, pm);
  if (uci) board.play(uci);
  else page.redraw();
}

/** The game shown, asked for again (a move missed, a refusal of a stale action). @param {GamePage} page */
export async function refresh(page) {
  const { state } = page;
  const g = state.game;
  if (!g) return;
  try {
    const v = await api.game(g.id);
    if (v.mode === 'online') state.seat = v.you || null;
    enqueue(page, v);
  } catch (e) {
    toast(t('notice.reload_failed'), serverError(/** @type {ApiError} */ (e)), 'error');
  }
}
