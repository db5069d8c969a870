// @ts-check
// The game page drawn from its state (`redraw`, after every change): the
// board, the players, the status, the moves, the buttons, the online
// panel, the end banner, the chat and the tournament's box; the page's
// data attributes (for tests and styles); the evaluation bar and the
// legend of the Tensor marks; and after an online game, a Challenge button
// by the opponent's name.

import { social } from '../api.js';
import { isLive, shownPly, canMove, premoveColor, positionFor, other } from './state.js';
import * as view from './render.js';
import { t } from '../i18n.js';
import { showLegendIfNew } from '../ui/legend.js';
import { updateEval } from './eval.js';
import { stepTo } from './replay.js';
import { refresh } from './sync.js';

/** @typedef {import('./page.js').GamePage} GamePage */
/** @typedef {import('../api.js').GameView} GameView */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** How long the page waits for the engine's move before asking for the game again (ms). */
const ENGINE_POLL_MS = 5000;

/** Draws the game shown. @param {GamePage} page */
export function redraw(page) {
  const { state, board } = page;
  const g = state.game;
  if (!g) return;
  const ply = shownPly(state, g);
  const pos = positionFor(state, g, ply);
  board.premovable = premoveColor(state, g);
  board.setPosition(pos, { keepSelection: board.pos.fen === pos.fen });
  board.setArrow(state.hint && state.hint.rev === g.rev && isLive(state) ? state.hint.path : null);
  board.setPremove(isLive(state) ? state.premove : null);
  view.renderPlayers(state, board, g);
  view.renderStatus(state, g);
  view.renderMoves(state, g, (n) => stepTo(page, n));
  view.renderButtons(state, g);
  view.renderOnline(state, g);
  view.renderBanner(state, page.banner, g);
  page.chat.sync(g);
  page.berserk.sync(g, state.seat);
  loadPlayers(page, g);
  renderChallenge(page, g);
  const d = document.body.dataset;
  d.game = g.id;
  d.mode = g.mode;
  d.seat = state.seat || '';
  d.ply = String(g.moves.length);
  d.shown = String(ply);
  d.rev = String(g.rev);
  d.state = g.end ? 'over' : g.engine_thinking ? 'thinking' : canMove(state, g) ? 'your-move' : 'waiting';
  if (state.evalOn && !g.online) updateEval(page);
  // The legend is for who plays (a spectator has no moves to mark).
  const spectator = !!g.online && !state.seat;
  if (g.position.rules && g.position.rules.beasts && isLive(state) && !spectator) showLegendIfNew(page.i18n);
  const legend = document.querySelector('#legend');
  if (legend) legend.classList.toggle('hidden', spectator);
  // Live updates come over the WebSocket; should one be missed while the
  // engine thinks, ask for the state again.
  clearTimeout(page.poll);
  if (g.engine_thinking) page.poll = setTimeout(() => refresh(page), ENGINE_POLL_MS);
}

/**
 * An online game's players and their accounts, asked once per game and
 * again when a seat is taken: each name with an account links to its
 * profile, and the Challenge button needs the opponent's.
 * @param {GamePage} page @param {GameView} g
 */
function loadPlayers(page, g) {
  const { state, board } = page;
  if (!g.online) return;
  const seats = `${g.online.white.taken}${g.online.black.taken}`;
  if (state.players && state.players.id === g.id && state.players.seats === seats) return;
  const players = { id: g.id, seats, white: null, black: null };
  state.players = players;
  social.gamePlayers(g.id).then((r) => {
    if (!r.ok || state.players !== players) return;
    Object.assign(players, r.value);
    if (state.game && state.game.id === g.id) {
      view.renderPlayers(state, board, state.game);
      renderChallenge(page, state.game);
    }
  });
}

/**
 * After an online game, a Challenge button by the opponent's name (an
 * account's: a guest cannot be challenged), for a new game on new terms.
 * @param {GamePage} page @param {GameView} g
 */
function renderChallenge(page, g) {
  const { state, board, challenge, player } = page;
  for (const pos of ['top', 'bottom']) $(`#challenge-${pos}`).classList.add('hidden');
  if (!g.online || !g.end || !state.seat || !challenge) return;
  if (!state.players || state.players.id !== g.id) return;
  const opponent = state.players[other(state.seat)];
  if (!opponent || !opponent.account || (player.me && player.me.account === opponent.account)) return;
  const account = opponent.account;
  const b = $(`#challenge-${board.orientation === other(state.seat) ? 'bottom' : 'top'}`);
  b.classList.remove('hidden');
  b.textContent = t('challenge.button');
  b.setAttribute('aria-label', t('challenge.button_label', { name: opponent.name }));
  b.onclick = () => challenge(account, opponent.name);
}
