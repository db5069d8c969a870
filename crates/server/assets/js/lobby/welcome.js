// @ts-check
// The home page's first screen, for a newcomer: a live board of Tensor
// Chess (the first move played on it starts a game against the engine
// with that move), one short paragraph of what the game is with links to
// the lessons and the rules, a button that starts a game against the
// engine at once, and one that goes down to the lobby.

import { api } from '../api.js';
import { Board } from '../board.js';
import { t, serverError } from '../i18n.js';

/** The engine level a newcomer meets first. */
export const WELCOME_LEVEL = 1;

/**
 * @typedef {{ board: Board | null, busy: boolean, error: string | null,
 *   openGame: (id: string) => void }} WelcomeState
 */

/**
 * Puts the welcome board into `#welcome-board` and wires the buttons.
 * @param {{ i18n: import('../i18n.js').I18n, openGame: (id: string) => void }} deps
 * @returns {WelcomeState}
 */
export function mountWelcome({ i18n, openGame }) {
  /** @type {WelcomeState} */
  const w = { board: null, busy: false, error: null, openGame };
  const box = /** @type {HTMLElement} */ (document.querySelector('#welcome-board'));
  w.board = new Board(box, {
    label: t('welcome.board'),
    coords: false,
    onMove: (uci) => start(w, uci),
  });
  /** @type {HTMLElement} */ (document.querySelector('#btn-play-engine')).addEventListener('click', () => start(w, null));
  i18n.onChange(() => { if (w.board) w.board.svg.setAttribute('aria-label', t('welcome.board')); });
  load(w);
  return w;
}

/** The start position of Tensor Chess, White to move. @param {WelcomeState} w */
async function load(w) {
  const r = await api.position('tensor', /** @type {any} */ (undefined)).catch(() => null);
  if (!r || !w.board) return;
  const p = r.position;
  w.board.setGeometry(p.geometry);
  w.board.setPosition({ fen: p.fen, variant: 'tensor', legal: p.legal, movable: ['white'], check: null, last: null, hands: null });
  w.board.container.dataset.ready = '1';
}

/**
 * A game against the engine, the player White; `first` is the move the
 * player made on the welcome board (played in the new game at once).
 * @param {WelcomeState} w @param {string | null} first
 * @returns {Promise<boolean>}
 */
async function start(w, first) {
  if (w.busy) return false;
  w.busy = true;
  const note = /** @type {HTMLElement} */ (document.querySelector('#welcome-error'));
  note.classList.add('hidden');
  try {
    const g = await api.create({ variant: 'tensor', mode: 'engine', level: WELCOME_LEVEL, color: 'white' });
    if (first) await api.move(g.id, first, 0);
    w.openGame(g.id);
    return true;
  } catch (e) {
    note.textContent = serverError(/** @type {any} */ (e));
    note.classList.remove('hidden');
    return false;
  } finally {
    w.busy = false;
  }
}
