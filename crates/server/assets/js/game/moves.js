// @ts-check
// The player's moves on the game page: a legal move sent to the game (the
// server's answer is the new state), an illegal try never sent but
// explained by the server, a move typed in the Move box (its move string
// or SAN; a premove when it is the other side's turn).

import { api } from '../api.js';
import { canMove, premoveColor } from './state.js';
import { t, illegalReason, serverError } from '../i18n.js';
import { toast, announce } from '../ui/notice.js';
import { enqueue, refresh } from './sync.js';

/** @typedef {import('./page.js').GamePage} GamePage */
/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').ApiError} ApiError */

/** Plays a legal move; the server's answer is the new state. @param {GamePage} page @param {string} uci @returns {Promise<boolean>} */
export async function sendMove(page, uci) {
  const { state } = page;
  const g = state.game;
  if (!g) return false;
  const id = g.id;
  try {
    const v = g.mode === 'online'
      ? await api.act(id, { type: 'move', move: uci, ply: g.moves.length })
      : await api.move(id, uci, g.moves.length);
    state.hint = null;
    await enqueue(page, v);
    return true;
  } catch (e) {
    const err = /** @type {ApiError} */ (e);
    if (err.kind === 'illegal_move') showIllegal(page, err.reason || err.message);
    else toast(t('notice.move_not_played'), serverError(err), 'error');
    if (err.status === 409) refresh(page);
    return false;
  }
}

/** @param {GamePage} page @param {string} reason */
function showIllegal(page, reason) {
  page.sounds.play('illegal');
  toast(t('notice.illegal'), reason, 'illegal');
  announce(`${t('notice.illegal')}: ${reason}`);
}

/**
 * A move the position does not offer: never sent to the game; the server
 * explains why (POST /api/explain), or the page says it generally.
 * @param {GamePage} page @param {{ uci: string, from: string, to: string }} tried
 */
export async function explainTry(page, tried) {
  const g = page.state.game;
  if (!g) return;
  const why = await api.explain(g.variant, g.position.fen, tried.uci);
  if (why && why.legal) return; // offered after all (the position changed meanwhile)
  showIllegal(page, why ? illegalReason(why) : tried.from ? t('illegal.generic_from', { from: tried.from, to: tried.to }) : t('illegal.generic_drop', { to: tried.to }));
}

/** A move typed in the Move box. @param {GamePage} page @param {string} text */
export async function typedMove(page, text) {
  const { state, board } = page;
  const g = state.game;
  if (!g) return;
  const m = matchTyped(g, text);
  if (m && canMove(state, g)) {
    board.play(m);
    return true;
  }
  if (!canMove(state, g) && premoveColor(state, g)) {
    // Not this player's turn: a move string from one square to another is
    // queued as a premove, as if made on the board.
    const pm = text.trim().match(/^([a-j][1-9])([a-j][1-9])/);
    if (!pm) {
      toast(t('notice.not_your_turn'), '', 'error');
      return false;
    }
    board.queuePremove({ from: pm[1], to: pm[2] });
    return true;
  }
  const why = await api.explain(g.variant, g.position.fen, text);
  if (why && why.legal && why.uci) {
    board.play(why.uci);
    return true;
  }
  showIllegal(page, why ? illegalReason(why) : t('illegal.typed', { move: text }));
  return false;
}

/** The legal move a typed text names: its move string, or its SAN. @param {GameView} g @param {string} text */
function matchTyped(g, text) {
  const clean = (/** @type {string} */ s) => s.trim().replace(/[+#!?]+$/g, '').replace(/^0-0(-0)?$/, (x) => x.replace(/0/g, 'O'));
  const want = clean(text);
  const legal = g.position.legal;
  const byUci = legal.find((m) => m.uci === want.toLowerCase() || m.uci === want);
  if (byUci) return byUci.uci;
  const bySan = legal.find((m) => m.san && clean(m.san) === want);
  return bySan ? bySan.uci : null;
}
