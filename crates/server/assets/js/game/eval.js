// @ts-check
// The evaluation bar of the game page (local and engine games): the
// engine's score of the position shown, asked for a moment after it is
// shown (an answer for an older position is dropped), drawn as White's
// share of the bar.

import { call } from '../api.js';
import { isLive, shownPly } from './state.js';
import { t } from '../i18n.js';

/** @typedef {import('./page.js').GamePage} GamePage */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** Asks for the evaluation of the position shown, and draws it. @param {GamePage} page */
export async function updateEval(page) {
  const { state } = page;
  const g = state.game;
  if (!g) return;
  const ply = shownPly(state, g);
  if (isLive(state) && g.engine_thinking) return;
  const seq = ++page.evalSeq;
  const id = g.id;
  await new Promise((r) => setTimeout(r, 150));
  if (seq !== page.evalSeq) return;
  // A busy server (429, 503) is asked again after its Retry-After by the
  // request itself (a GET); after that the bar keeps its last value (it is
  // advisory).
  const r = await call('GET', `/api/games/${encodeURIComponent(id)}/eval?ply=${ply}`);
  if (!r.ok || seq !== page.evalSeq || !state.game || state.game.id !== id) return;
  showEval(page, r.value.score);
}

/** @param {GamePage} page @param {import('../api.js').Score} score */
function showEval(page, score) {
  const bar = $('#evalbar');
  let white; // share of the bar for White, 0..1
  let label;
  if (score.mate !== null && score.mate !== undefined) {
    white = score.mate > 0 ? 1 : 0;
    label = `${score.mate > 0 ? '' : '-'}M${Math.abs(score.mate)}`;
  } else {
    const cp = score.cp || 0;
    white = 0.5 + 0.5 * Math.tanh(cp / 500);
    label = `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(1)}`;
  }
  bar.style.setProperty('--white', `${(white * 100).toFixed(1)}%`);
  bar.classList.toggle('flipped', page.board.orientation === 'black');
  /** @type {HTMLElement} */ (bar.querySelector('.evalbar-label')).textContent = label;
  bar.dataset.score = label;
  bar.setAttribute('aria-label', t('eval.label', { score: label }));
}
