// @ts-check
// Stepping through the game shown: a move forward (animated), back, to
// either end, the replay (a move a second), by the buttons under the board
// and by the arrow keys; Esc drops a premove and the player's drawings.

import { isLive, shownPly, positionFor, gameShown } from './state.js';
import { forMove } from '../sounds.js';

/** @typedef {import('./page.js').GamePage} GamePage */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** Shows the position after `ply` moves (the next one animated). @param {GamePage} page @param {number} ply */
export async function stepTo(page, ply) {
  const { state, board } = page;
  const g = state.game;
  if (!g) return;
  ply = Math.max(0, Math.min(ply, g.moves.length));
  const from = shownPly(state, g);
  state.viewPly = ply >= g.moves.length ? null : ply;
  if (ply === from + 1) {
    const entry = g.moves[from];
    board.busy = true;
    try {
      if (board.pos.fen !== positionFor(state, g, from).fen) board.setPosition(positionFor(state, g, from));
      await board.animate(entry.path, entry.uci);
      page.sounds.play(forMove(entry));
    } finally {
      board.busy = false;
    }
  }
  page.redraw();
}

/** @param {GamePage} page */
export function stopReplay(page) {
  clearInterval(page.replayTimer);
  page.replayTimer = undefined;
  page.state.replaying = false;
}

/** @param {GamePage} page */
function toggleReplay(page) {
  const { state } = page;
  if (state.replaying) {
    stopReplay(page);
    page.redraw();
    return;
  }
  if (isLive(state)) state.viewPly = 0;
  state.replaying = true;
  page.redraw();
  page.replayTimer = setInterval(() => {
    const g = state.game;
    if (!g || isLive(state)) {
      stopReplay(page);
      if (g) page.redraw();
      return;
    }
    stepTo(page, shownPly(state, g) + 1);
  }, 1100);
}

/** Wires the buttons under the board and the keys. @param {GamePage} page */
export function setupStepping(page) {
  const { state, board } = page;
  /** @param {string} sel @param {() => void} f */
  const on = (sel, f) => $(sel).addEventListener('click', f);
  on('#nav-first', () => { stopReplay(page); stepTo(page, 0); });
  on('#nav-prev', () => { stopReplay(page); if (state.game) stepTo(page, shownPly(state, state.game) - 1); });
  on('#nav-next', () => { stopReplay(page); if (state.game) stepTo(page, shownPly(state, state.game) + 1); });
  on('#nav-last', () => { stopReplay(page); if (state.game) stepTo(page, state.game.moves.length); });
  on('#nav-play', () => toggleReplay(page));
  document.addEventListener('keydown', (e) => {
    const g = state.game;
    if (!g || !gameShown() || document.querySelector('dialog[open]')) return;
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target === /** @type {Element} */ (board.svg))) return;
    if (e.key === 'ArrowLeft') { stopReplay(page); stepTo(page, shownPly(state, g) - 1); }
    if (e.key === 'ArrowRight') { stopReplay(page); stepTo(page, shownPly(state, g) + 1); }
    if (e.key === 'Escape' && (state.premove || board.drawings.length)) board.cancelAll();
  });
}
