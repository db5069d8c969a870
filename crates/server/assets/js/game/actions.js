// @ts-check
// The game page's buttons that act on the game: flip, take back, a hint,
// the evaluation bar; resign, abort, offer a draw; a rematch; the answers
// to the other seat's offers (accept, decline); taking the free seat and
// copying the invitation's link; and the end banner's buttons. A local or
// engine game's action is a request of its own; an online one is an
// action of this browser's seat (POST /api/games/ID/act). Each answer is
// the game's new state.

import { api } from '../api.js';
import { isOnline } from './state.js';
import { renderBanner } from './render.js';
import { t, has, colorArgs, serverError } from '../i18n.js';
import { toast, confirmDialog } from '../ui/notice.js';
import * as settings from '../settings.js';
import { enqueue, refresh } from './sync.js';

/** @typedef {import('./page.js').GamePage} GamePage */
/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').ApiError} ApiError */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/**
 * A local or engine game's action; the answer is handed to `after`.
 * @template T @param {() => Promise<T>} fn @param {(res: T) => void} [after]
 */
async function action(fn, after) {
  try {
    const res = await fn();
    if (after) after(res);
  } catch (e) {
    toast(t('notice.not_done'), serverError(/** @type {ApiError} */ (e)), 'error');
  }
}

/**
 * An online action by this browser's seat; the answer is the new state.
 * @param {GamePage} page @param {import('../generated/events.js').OnlineAction} a @param {(v: GameView) => void} [after]
 */
function act(page, a, after) {
  const { state } = page;
  const g = state.game;
  if (!g) return;
  return api.act(g.id, a).then((v) => {
    if (v.you) state.seat = v.you;
    enqueue(page, v);
    if (after) after(v);
  }).catch((e) => {
    toast(t('notice.not_done'), serverError(e), 'error');
    if (e.status === 409) refresh(page);
  });
}

/**
 * Wires the buttons. `openNewGame` opens the New game dialog (the banner's
 * New game).
 * @param {GamePage} page @param {{ openNewGame: (game: GameView | null) => void }} deps
 */
export function setupActions(page, { openNewGame }) {
  const { state, board, live } = page;
  /** @param {string} sel @param {() => void} f */
  const on = (sel, f) => $(sel).addEventListener('click', f);

  on('#btn-flip', () => {
    board.flip();
    if (state.game) state.orientation = { id: state.game.id, color: board.orientation };
    page.redraw();
  });
  on('#btn-takeback', () => {
    const g = state.game;
    if (g) action(() => api.takeback(g.id), (v) => { state.hint = null; enqueue(page, v); });
  });
  on('#btn-abort', async () => {
    if (await confirmDialog(t('confirm.abort'))) act(page, { type: 'abort' });
  });
  on('#btn-rematch', () => act(page, { type: 'rematch' }, (v) => {
    if (v.online && !v.online.rematch_id) toast(t('notice.rematch_offered'), t('notice.waiting_answer'));
  }));
  // The other seat's offer (`#offer`'s kind: a draw or a rematch).
  on('#btn-accept', () => {
    const kind = $('#offer').dataset.kind;
    if (kind === 'draw') act(page, { type: 'accept_draw' });
    else if (kind === 'rematch') act(page, { type: 'rematch' });
  });
  on('#btn-decline', () => {
    const kind = $('#offer').dataset.kind;
    if (kind === 'draw') act(page, { type: 'decline_draw' });
    else if (kind === 'rematch') act(page, { type: 'decline_rematch' });
  });
  on('#btn-join', async () => {
    const g = state.game;
    if (!g) return;
    try {
      const v = await api.join(g.id);
      state.seat = v.you || null;
      state.seatFixes = 0;
      live.refollow('game'); // the subscription made before the seat was taken counts the player as a watcher
      state.orientation = null;
      await enqueue(page, v, { fresh: true });
      toast(t('notice.joined'), state.seat ? t('notice.you_play', colorArgs(state.seat)) : '');
    } catch (e) {
      toast(t('notice.join_failed'), serverError(/** @type {ApiError} */ (e)), 'error');
      refresh(page);
    }
  });
  on('#btn-copy-link', async () => {
    const input = /** @type {HTMLInputElement} */ ($('#invite-link'));
    try {
      await navigator.clipboard.writeText(input.value);
      toast(t('notice.link_copied'), t('notice.send_it'));
    } catch (_) {
      input.select();
      document.execCommand('copy');
    }
  });
  on('#btn-resign', async () => {
    const g = state.game;
    if (!g) return;
    if (isOnline(g)) {
      if (await confirmDialog(t('confirm.resign'))) act(page, { type: 'resign' });
      return;
    }
    const question = g.mode === 'local' ? t('confirm.resign_local', colorArgs(g.position.turn)) : t('confirm.resign');
    if (await confirmDialog(question)) action(() => api.resign(g.id), (v) => enqueue(page, v));
  });
  on('#btn-draw', async () => {
    const g = state.game;
    if (!g) return;
    if (isOnline(g)) {
      act(page, { type: 'offer_draw' }, (v) => { if (!v.end) toast(t('notice.draw_offered'), t('notice.waiting_answer')); });
      return;
    }
    if (g.mode === 'local') {
      if (!(await confirmDialog(t('confirm.draw_local')))) return;
    } else {
      toast(t('notice.draw_offered'), t('notice.engine_considers'));
    }
    action(() => api.draw(g.id), (res) => {
      // The answer in a word (`code`), said in the page's language.
      const why = has(`draw.${res.code}`) ? t(`draw.${res.code}`) : res.message;
      toast(res.accepted ? t('notice.draw_agreed') : t('notice.draw_declined'), res.code === 'agreed' ? '' : why, res.accepted ? 'info' : 'error');
      enqueue(page, res.game);
    });
  });
  on('#btn-hint', () => {
    const g = state.game;
    if (!g) return;
    const rev = g.rev;
    /** @type {HTMLButtonElement} */ ($('#btn-hint')).disabled = true;
    action(() => api.hint(g.id), (a) => {
      if (!state.game || state.game.rev !== rev || !a.best || !a.best.path) return page.redraw();
      state.hint = { rev, path: a.best.path, san: a.best.san || a.best.uci };
      page.redraw();
    });
  });
  on('#btn-eval', () => {
    state.evalOn = !state.evalOn;
    settings.set('evalBar', state.evalOn);
    page.redraw();
  });
  on('#banner-close', () => { state.bannerDismissed = true; if (state.game) renderBanner(state, page.banner, state.game); });
  on('#banner-new', () => openNewGame(state.game));
  on('#banner-rematch', () => act(page, { type: 'rematch' }));
}
