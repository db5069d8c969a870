// @ts-check
// The Move box: a move typed as a move string (RULES 4.2: e2e4, c1e3>g5,
// b1d3xc2, M@c2, c7c8t) or in SAN, played on Enter; the legal moves are
// offered as you type (a datalist of SAN with the move string beside it).

import { canMove } from './state.js';

/**
 * @param {import('./state.js').GameState} state the game page's
 * @param {{ typedMove: (text: string) => Promise<boolean | undefined>, needSan: () => void }} deps
 */
export function setupMoveInput(state, { typedMove, needSan }) {
  const input = /** @type {HTMLInputElement} */ (document.querySelector('#move-input'));
  const list = /** @type {HTMLDataListElement} */ (document.querySelector('#move-options'));
  let filledFor = '';
  let askedFor = '';
  // The options are made when the box is used, for the position shown then.
  const fill = () => {
    const g = state.game;
    const key = g ? `${g.id}:${g.rev}:${canMove(state, g)}` : '';
    if (key === filledFor) return;
    filledFor = key;
    list.innerHTML = '';
    if (!g || !canMove(state, g)) return;
    // A move event's legal moves come without SAN: the whole game has it.
    if (g.position.legal.some((m) => !m.san)) {
      filledFor = '';
      if (askedFor !== key) {
        askedFor = key;
        needSan();
      }
      return;
    }
    for (const m of g.position.legal) {
      const o = document.createElement('option');
      o.value = m.san || m.uci;
      o.label = m.uci;
      list.appendChild(o);
    }
  };
  input.addEventListener('focus', fill);
  input.addEventListener('input', fill);
  input.addEventListener('keydown', async (e) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (await typedMove(text)) input.value = '';
  });
}
