// @ts-check
// What the game page hears on its live connection: the game shown (a whole
// state, or a move in its compact form), who is connected, the seat the
// socket plays for; and whether the connection is up (the clocks shown
// stop while it is down).

import { isOnline, canMove } from './state.js';
import { renderPlayers, renderOnline } from './render.js';
import { afterMoveEvent } from './move-event.js';
import { inTurn, applyView, withMoves, refresh } from './sync.js';

/** @typedef {import('./page.js').GamePage} GamePage */
/** @typedef {import('./move-event.js').MoveEvent} MoveEvent */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** Follows the page's live connection for the game shown. @param {GamePage} page */
export function listenToGame(page) {
  const { state, board, live } = page;
  live.listen((msg) => onEvent(page, msg));
  live.onStatus((up) => {
    $('#connection').classList.toggle('hidden', up);
    state.connected = up;
    // While the server cannot be reached, nobody knows who is there, and the
    // clocks the page shows stop: the server's own clocks decide.
    if (up && state.frozenAt !== null) state.clockAt += performance.now() - state.frozenAt;
    state.frozenAt = up ? null : (state.frozenAt ?? performance.now());
    if (state.game) renderPlayers(state, board, state.game);
  });
}

/** @param {GamePage} page @param {import('../api.js').ServerMessage} msg */
function onEvent(page, msg) {
  const { state, board, live } = page;
  const g = state.game;
  if (msg.type === 'game' && g && msg.game.id === g.id) {
    // Merged when its turn in the queue comes, against the state shown then.
    inTurn(page, () => {
      const v = withMoves(page, msg.game);
      return v && applyView(page, v);
    });
  } else if (msg.type === 'move' && g && msg.topic === `game:${g.id}`) {
    // A move in its compact form, made into the next state of the game
    // held then; one that does not follow it (an event missed) brings
    // the whole game instead, as does one that leaves this player to
    // move without the moves to choose from.
    inTurn(page, () => {
      const held = state.game;
      const v = held && afterMoveEvent(held, /** @type {MoveEvent} */ (/** @type {unknown} */ (msg)));
      if (!v || (canMove(state, v) && !msg.legal)) return refresh(page);
      return applyView(page, v);
    });
  } else if (msg.type === 'presence' && g && g.online && msg.topic === `game:${g.id}`) {
    g.online.white.connected = msg.white;
    g.online.black.connected = msg.black;
    if (typeof msg.spectators === 'number') g.online.spectators = msg.spectators;
    renderPlayers(state, board, g);
    renderOnline(state, g);
  } else if (msg.type === 'subscribed' && g && isOnline(g) && msg.topic === `game:${g.id}`) {
    // The socket plays with the cookies it was opened with: a seat taken
    // after it opened needs a new socket.
    const wsSeat = msg.seat || null;
    if (wsSeat && !state.seat) {
      state.seat = wsSeat;
      page.redraw();
    } else if (state.seat && wsSeat !== state.seat && state.seatFixes < 3) {
      state.seatFixes++;
      live.reconnect();
    }
  } else if (msg.type === 'error') console.warn('server:', msg.message);
}
