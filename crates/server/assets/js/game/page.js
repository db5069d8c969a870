// @ts-check
// The game page (`#/game/ID`, createGamePage): one game at a time, its
// state one `GamePage` object made here and handed to the parts, each a
// module of its own: sync.js (the server's states applied in order, one
// queue), events.js (the live connection), moves.js (the player's moves,
// illegal tries explained), actions.js (the buttons that act on the game,
// offers and their answers), replay.js (stepping through the game),
// clocks.js, eval.js (the evaluation bar), redraw.js (the page drawn from
// its state), chat.js, berserk.js, dialogs.js, games-list.js. Here: the
// page made and wired, and its route (a game opened, a bad link).

import { api } from '../api.js';
import { Board } from '../board.js';
import { createGameState } from './state.js';
import { createChat } from './chat.js';
import { renderNoGame } from './render.js';
import { t } from '../i18n.js';
import { createSounds } from '../sounds.js';
import { setupMoveInput } from './moveinput.js';
import { setupDialogs, openNewGame as openNewGameDialog, fillLevels } from './dialogs.js';
import { createGamesList } from './games-list.js';
import { createBerserk } from './berserk.js';
import { enqueue, inTurn, refresh } from './sync.js';
import { listenToGame } from './events.js';
import { sendMove, explainTry, typedMove } from './moves.js';
import { setupActions } from './actions.js';
import { setupStepping, stopReplay } from './replay.js';
import { startClocks } from './clocks.js';
import { redraw } from './redraw.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').ApiError} ApiError */
/** @typedef {import('../api.js').Live} Live */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const EMPTY_FEN = '8/8/8/8/8/8/8/8 w - - 0 1';

/**
 * The game page, one per page: made by `createGamePage` (the app's entry
 * calls it) and handed to the parts. `state` is the one source of what the
 * page shows; the rest is what it is drawn on and speaks through, and what
 * is under way.
 * @typedef {object} GamePage
 * @property {import('./state.js').GameState} state the game shown and what the player does with it
 * @property {Board} board
 * @property {HTMLElement} banner the end of the game, over the board
 * @property {Live} live the page's live connection
 * @property {import('../i18n.js').I18n} i18n the page's language
 * @property {import('../player.js').Player} player the page's player
 * @property {{ play: (name: import('../sounds.js').SoundName) => void }} sounds
 * @property {ReturnType<typeof createChat>} chat an online game's chat
 * @property {ReturnType<typeof createBerserk>} berserk a tournament game's box
 * @property {((username: string, name: string) => void) | undefined} challenge opens the site's challenge form
 * @property {() => void} redraw draws the page from its state (redraw.js)
 * @property {Promise<unknown>} queue server states and updates, applied one after another
 * @property {number} evalSeq the last evaluation asked for (older answers are dropped)
 * @property {ReturnType<typeof setInterval> | undefined} replayTimer
 * @property {ReturnType<typeof setTimeout> | undefined} poll asking again while the engine thinks
 * @property {boolean} lowTimeWarned
 */

/**
 * Makes the game page (`#/game/ID`) on index.html's elements: its board,
 * its buttons, its live updates, the chat of an online game. Nothing
 * happens before the app calls it. `challenge` opens the site's challenge
 * form (the opponent's name, after an online game).
 * @param {{ live: Live, i18n: import('../i18n.js').I18n, player: import('../player.js').Player,
 *   challenge?: (username: string, name: string) => void }} deps
 */
export function createGamePage({ live, i18n, player, challenge }) {
  const state = createGameState();
  const chat = createChat({ live, i18n, player, state });
  const berserk = createBerserk({ onView: (v) => { enqueue(page, v); } });
  const board = new Board($('#board'), {
    onMove: (uci) => sendMove(page, uci),
    onTried: (tried) => explainTry(page, tried),
    onPremove: (pm) => { state.premove = pm; page.redraw(); },
  });
  const banner = document.createElement('div');
  banner.id = 'banner';
  banner.className = 'banner hidden';
  banner.setAttribute('role', 'status');
  banner.innerHTML = `<div class="banner-title"></div><div class="banner-text"></div><div class="banner-rating hidden"></div>
    <div class="banner-buttons"><button type="button" id="banner-rematch" class="primary hidden"></button>
    <button type="button" id="banner-new" class="primary" data-i18n="btn.new_game"></button>
    <button type="button" id="banner-close" data-i18n="banner.see_board"></button></div>`;
  board.box.appendChild(banner);

  /** @type {GamePage} */
  const page = {
    state, board, banner, live, i18n, player, sounds: createSounds(), chat, berserk, challenge,
    redraw: () => redraw(page),
    queue: Promise.resolve(), evalSeq: 0, replayTimer: undefined, poll: undefined, lowTimeWarned: false,
  };

  listenToGame(page);
  startClocks(page);
  setupActions(page, { openNewGame: (g) => openNewGameDialog(g) });
  setupStepping(page);
  setupMoveInput(state, { typedMove: (text) => typedMove(page, text), needSan: () => { refresh(page); } });
  setupDialogs(state, { i18n, openGame: (id) => { location.hash = `#/game/${id}`; } });
  const games = createGamesList({ open: (id) => { location.hash = `#/game/${id}`; } });
  i18n.onChange(() => {
    board.svg.setAttribute('aria-label', t('board.label'));
    if (state.game) {
      board.drawSquares();
      page.redraw();
    } else if (state.missing) renderNoGame(t(state.missing));
  });

  /** Board and piece themes changed: the pieces are drawn again. */
  function redrawBoard() {
    board.refreshDefs();
    board.render();
  }

  // ---- routing --------------------------------------------------------------------------

  /** Opens the game `id` (from `#/game/ID`). @param {string} id */
  async function openGame(id) {
    stopReplay(page);
    try {
      const v = await api.game(id);
      state.seat = v.mode === 'online' ? v.you || null : null;
      state.seatFixes = 0;
      await enqueue(page, v, { fresh: true });
      live.follow('game', `game:${id}`);
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      if (err.status !== 404) console.warn(`game ${id} could not be opened:`, err.message);
      showNoGame(err.status === 404 ? 'status.no_such_game' : err.message);
    }
  }

  /**
   * A link to a game that cannot be shown: nothing of the previous game may
   * stay playable (its board would still post moves into it).
   * @param {string} key a catalogue key, or a message as it is
   */
  function showNoGame(key) {
    inTurn(page, () => {
      state.game = null;
      state.seat = null;
      state.hint = null;
      state.viewPly = null;
      state.premove = null;
      state.missing = key;
      clearTimeout(page.poll);
      live.follow('game', null);
      chat.leave();
      for (const pos of ['top', 'bottom']) $(`#challenge-${pos}`).classList.add('hidden');
      board.premovable = null;
      board.setPremove(null);
      board.setPosition({ fen: EMPTY_FEN, legal: [], movable: [] });
      board.setArrow(null);
      banner.classList.add('hidden');
      for (const k of ['game', 'mode', 'seat', 'ply', 'shown', 'rev']) delete document.body.dataset[k];
      document.body.dataset.state = 'none';
      renderNoGame(t(key));
    });
  }

  /**
   * The game page (`#/game/ID`). Left for another page, it stops following
   * its game: an online opponent sees the player gone, as when a tab closes.
   * @type {import('../router.js').Page}
   */
  const gamePage = {
    name: 'game',
    enter: ([id]) => openGame(id),
    leave() {
      stopReplay(page);
      clearTimeout(page.poll);
      live.follow('game', null);
      chat.leave();
    },
  };

  /** @param {import('../api.js').Info} info */
  function setInfo(info) {
    state.info = info;
    fillLevels(state);
  }

  return {
    page: gamePage,
    games,
    setInfo,
    redrawBoard,
    /** Opens the New game dialog. @param {GameView | null} game @param {string} [mode] */
    openNewGame: (game, mode) => openNewGameDialog(game, mode),
  };
}
