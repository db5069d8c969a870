// @ts-check
// The clocks of an online game, drawn ten times a second while the game
// page is shown (the server's times, counted down since they came), and
// one warning, sounded and read out, when this player's own time runs low.

import { renderClocks } from './render.js';
import { t } from '../i18n.js';
import { announce } from '../ui/notice.js';
import { gameShown } from './state.js';

/** @typedef {import('./page.js').GamePage} GamePage */

/** The time left that is low (ms). */
const LOW_TIME_MS = 20000;

/** Starts the clocks' ticking (for the page's life). @param {GamePage} page */
export function startClocks(page) {
  setInterval(() => {
    const { state, board } = page;
    const g = state.game;
    if (!g || !g.online || !gameShown()) return;
    const mine = renderClocks(state, board, g);
    // One warning when this player's own time runs low.
    if (mine !== null && mine < LOW_TIME_MS && !page.lowTimeWarned) {
      page.lowTimeWarned = true;
      page.sounds.play('lowtime');
      announce(t('announce.low_time'));
    }
  }, 100);
}
