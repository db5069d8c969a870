// @ts-check
// The game page's controller (createGamePage): one game at a time, kept in step with the
// server (answers and WebSocket updates go through one queue, in order),
// the player's moves, illegal tries explained, premoves, and the buttons.

import { api, call, social } from '../api.js';
/** @typedef {import('../api.js').ApiError} ApiError */
import { Board } from '../board.js';
import { premoveMove } from '../board/tap.js';
import { createGameState, isOnline, isLive, shownPly, canMove, premoveColor, positionFor, defaultOrientation, other } from './state.js';
import { createChat } from './chat.js';
import { player } from '../player.js';
import * as view from './render.js';
import { t, has, colorName, colorArgs, endText, illegalReason, serverError, onLangChange } from '../i18n.js';
import { toast, hideToast, announce, confirmDialog } from '../ui/notice.js';
import * as sounds from '../sounds.js';
import * as settings from '../settings.js';
import { showLegendIfNew } from '../ui/legend.js';
import { setupMoveInput } from './moveinput.js';
import { afterMoveEvent } from './move-event.js';
import { setupDialogs, openNewGame as openNewGameDialog, fillLevels } from './dialogs.js';
import { setupGamesList } from './games-list.js';
import { createBerserk } from './berserk.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../board/types.js').Color} Color */
/** @typedef {import('../api.js').Live} Live */
/** @typedef {import('./move-event.js').MoveEvent} MoveEvent */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const EMPTY_FEN = '8/8/8/8/8/8/8/8 w - - 0 1';

/**
 * The game page's state, one per page: made by `createGamePage` (the app's
 * entry calls it) and handed to what reads it.
 * @typedef {object} GamePage
 * @property {import('./state.js').GameState} state the game shown and what the player does with it
 * @property {Board} board
 * @property {HTMLElement} banner the end of the game, over the board
 * @property {Live} live the page's live connection
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
 * @param {{ live: Live, challenge?: (username: string, name: string) => void }} deps
 */
export function createGamePage({ live, challenge }) {
  const state = createGameState();
  const chat = createChat({ live, state });
  const berserk = createBerserk({ onView: (v) => { enqueue(v); } });
  const board = new Board($('#board'), {
    onMove,
    onTried: explainTry,
    onPremove: (pm) => { state.premove = pm; renderAll(); },
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
  const ctl = {
    state, board, banner, live,
    queue: Promise.resolve(), evalSeq: 0, replayTimer: undefined, poll: undefined, lowTimeWarned: false,
  };

  live.listen(onEvent);
  live.onStatus((up) => {
    $('#connection').classList.toggle('hidden', up);
    state.connected = up;
    // While the server cannot be reached, nobody knows who is there, and the
    // clocks the page shows stop: the server's own clocks decide.
    if (up && state.frozenAt !== null) state.clockAt += performance.now() - state.frozenAt;
    state.frozenAt = up ? null : (state.frozenAt ?? performance.now());
    if (state.game) view.renderPlayers(state, board, state.game);
  });

  // ---- applying server states ------------------------------------------------

  /** @param {GameView} v @param {{ fresh?: boolean }} [opts] */
  function enqueue(v, opts) {
    ctl.queue = ctl.queue.then(() => applyView(v, opts)).catch((e) => console.error(e));
    return ctl.queue;
  }

  /** @param {GameView} v @param {{ fresh?: boolean }} [opts] */
  async function applyView(v, opts = {}) {
    const old = state.game;
    if (!opts.fresh) {
      if (!old || old.id !== v.id) return;
      if (v.rev < old.rev) return;
    }
    if (v.online) state.clockAt = performance.now();
    if (!opts.fresh && old && old.id === v.id) noteAnswers(old, v);
    if (!opts.fresh && old && v.rev === old.rev && v.engine_thinking === old.engine_thinking) {
      state.game = v; // the same state again (a snapshot after subscribing): keep what the player is doing
      view.renderPlayers(state, board, v);
      return;
    }
    state.game = v;
    // A rematch was just agreed: the players go to it.
    if (!opts.fresh && state.seat && old && old.online && v.online && !old.online.rematch_id && v.online.rematch_id) {
      location.hash = `#/game/${v.online.rematch_id}`;
      return;
    }
    if (opts.fresh || !old || old.id !== v.id) {
      hideToast();
      // What was typed in the Move box was for the game before.
      if (!old || old.id !== v.id) /** @type {HTMLInputElement} */ ($('#move-input')).value = '';
      state.missing = null;
      board.setGeometry(v.position.geometry);
      board.orientation = defaultOrientation(state, v);
      board.drawSquares();
      state.bannerDismissed = false;
      state.hint = null;
      state.viewPly = null;
      state.premove = null;
      board.setPremove(null);
      ctl.lowTimeWarned = false;
      renderAll();
      return;
    }
    const added = v.moves.length - old.moves.length;
    const extendsOld = added > 0 && added <= 2 && old.moves.every((m, i) => v.moves[i] && v.moves[i].uci === m.uci);
    if (isLive(state) && extendsOld) {
      board.busy = true;
      try {
        for (let i = old.moves.length; i < v.moves.length; i++) {
          const before = positionFor(state, v, i);
          if (board.pos.fen !== before.fen) board.setPosition(before);
          const entry = v.moves[i];
          await board.animate(entry.path, entry.uci);
          sounds.play(sounds.forMove(entry));
          announceMove(v, i);
          board.setPosition(positionFor(state, v, i + 1));
        }
      } finally {
        board.busy = false;
      }
    }
    if (v.end && !old.end) {
      state.bannerDismissed = false;
      sounds.play('end');
      const e = endText(v.end, v.variant);
      announce(`${e.title}. ${e.text}`);
    }
    renderAll();
    tryPremove();
  }

  /**
   * An offer of this seat's answered online: a declined one is said (the
   * offerer would otherwise never know), an accepted one (a draw by
   * agreement, a rematch) ends the "waiting for an answer" notice.
   * @param {GameView} old @param {GameView} v
   */
  function noteAnswers(old, v) {
    const seat = state.seat;
    if (!seat || !old.online || !v.online) return;
    const moved = v.moves.length !== old.moves.length;
    if (old.online.draw_offer === seat && v.online.draw_offer !== seat) {
      if (v.end || moved) hideToast();
      else toast(t('notice.draw_declined'), t('notice.draw_declined_online'), 'info');
    }
    if (old.online.rematch_offer === seat && v.online.rematch_offer !== seat) {
      if (v.online.rematch_id) hideToast();
      else toast(t('notice.rematch_declined'), t('notice.rematch_declined_online'), 'info');
    }
  }

  /** Reads a move out: "White: Nf3", and check. @param {GameView} g @param {number} i */
  function announceMove(g, i) {
    const m = g.moves[i];
    const check = m.check ? ` ${t('announce.check')}` : '';
    announce(`${t('announce.move', { color: colorName(m.color), san: m.san })}${check}`);
  }

  // Online games' updates carry only the new moves (from `moves_from` on):
  // the page keeps the moves it has before that. Should its moves not match
  // (an update missed), it asks for the whole game again.
  /** @param {GameView} v @returns {GameView | null} */
  function withMoves(v) {
    const from = v.moves_from || 0;
    if (!from) return v;
    const have = state.game && state.game.id === v.id ? state.game.moves : [];
    if (have.length < from || have[from - 1].uci !== v.moves_before) {
      refresh();
      return null;
    }
    return { ...v, moves: have.slice(0, from).concat(v.moves), moves_from: 0 };
  }

  /** @param {import('../api.js').ServerMessage} msg */
  function onEvent(msg) {
    const g = state.game;
    if (msg.type === 'game' && g && msg.game.id === g.id) {
      // Merged when its turn in the ctl.queue comes, against the state shown then.
      ctl.queue = ctl.queue.then(() => {
        const v = withMoves(msg.game);
        return v && applyView(v);
      }).catch((e) => console.error(e));
    } else if (msg.type === 'move' && g && msg.topic === `game:${g.id}`) {
      // A move in its compact form, made into the next state of the game
      // held then; one that does not follow it (an event missed) brings
      // the whole game instead, as does one that leaves this player to
      // move without the moves to choose from.
      ctl.queue = ctl.queue.then(() => {
        const held = state.game;
        const v = held && afterMoveEvent(held, /** @type {MoveEvent} */ (/** @type {unknown} */ (msg)));
        if (!v || (canMove(state, v) && !msg.legal)) return refresh();
        return applyView(v);
      }).catch((e) => console.error(e));
    } else if (msg.type === 'presence' && g && g.online && msg.topic === `game:${g.id}`) {
      g.online.white.connected = msg.white;
      g.online.black.connected = msg.black;
      view.renderPlayers(state, board, g);
    } else if (msg.type === 'subscribed' && g && isOnline(g) && msg.topic === `game:${g.id}`) {
      // The socket plays with the cookies it was opened with: a seat taken
      // after it opened needs a new socket.
      const wsSeat = msg.seat || null;
      if (wsSeat && !state.seat) {
        state.seat = wsSeat;
        renderAll();
      } else if (state.seat && wsSeat !== state.seat && state.seatFixes < 3) {
        state.seatFixes++;
        live.reconnect();
      }
    } else if (msg.type === 'error') console.warn('server:', msg.message);
  }

  // ---- rendering -----------------------------------------------------------------

  function renderAll() {
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
    view.renderMoves(state, g, stepTo);
    view.renderButtons(state, g);
    view.renderOnline(state, g);
    view.renderBanner(state, banner, g);
    chat.sync(g);
    berserk.sync(g, state.seat);
    renderChallenge(g);
    const d = document.body.dataset;
    d.game = g.id;
    d.mode = g.mode;
    d.seat = state.seat || '';
    d.ply = String(g.moves.length);
    d.shown = String(ply);
    d.rev = String(g.rev);
    d.state = g.end ? 'over' : g.engine_thinking ? 'thinking' : canMove(state, g) ? 'your-move' : 'waiting';
    if (state.evalOn && !g.online) updateEval();
    if (g.position.rules && g.position.rules.beasts && isLive(state)) showLegendIfNew();
    // Live updates come over the WebSocket; should one be missed while the
    // engine thinks, ask for the state again.
    clearTimeout(ctl.poll);
    if (g.engine_thinking) ctl.poll = setTimeout(refresh, 5000);
  }

  /**
   * After an online game, a Challenge button by the opponent's name (an
   * account's: a guest cannot be challenged), for a new game on new terms.
   * @param {GameView} g
   */
  function renderChallenge(g) {
    for (const pos of ['top', 'bottom']) $(`#challenge-${pos}`).classList.add('hidden');
    if (!g.online || !g.end || !state.seat || !challenge) return;
    if (!state.players || state.players.id !== g.id) {
      const players = { id: g.id, white: null, black: null };
      state.players = players;
      social.gamePlayers(g.id).then((r) => {
        if (!r.ok || state.players !== players) return;
        Object.assign(players, r.value);
        if (state.game && state.game.id === g.id) renderChallenge(state.game);
      });
      return;
    }
    const opponent = state.players[other(state.seat)];
    if (!opponent || !opponent.account || (player.me && player.me.account === opponent.account)) return;
    const account = opponent.account;
    const b = $(`#challenge-${board.orientation === other(state.seat) ? 'bottom' : 'top'}`);
    b.classList.remove('hidden');
    b.textContent = t('challenge.button');
    b.setAttribute('aria-label', t('challenge.button_label', { name: opponent.name }));
    b.onclick = () => challenge(account, opponent.name);
  }

  setInterval(() => {
    const g = state.game;
    if (!g || !g.online || !shown()) return;
    const mine = view.renderClocks(state, board, g);
    // One warning when this player's own time runs low.
    if (mine !== null && mine < 20000 && !ctl.lowTimeWarned) {
      ctl.lowTimeWarned = true;
      sounds.play('lowtime');
      announce(t('announce.low_time'));
    }
  }, 100);

  // ---- evaluation bar ------------------------------------------------------------

  async function updateEval() {
    const g = state.game;
    if (!g) return;
    const ply = shownPly(state, g);
    if (isLive(state) && g.engine_thinking) return;
    const seq = ++ctl.evalSeq;
    const id = g.id;
    await new Promise((r) => setTimeout(r, 150));
    if (seq !== ctl.evalSeq) return;
    // A busy server (429, 503) is asked again after its Retry-After by the
    // request itself (a GET); after that the bar keeps its last value (it is
    // advisory).
    const r = await call('GET', `/api/games/${encodeURIComponent(id)}/eval?ply=${ply}`);
    if (!r.ok || seq !== ctl.evalSeq || !state.game || state.game.id !== id) return;
    showEval(r.value.score);
  }

  /** @param {import('../api.js').Score} score */
  function showEval(score) {
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
    bar.classList.toggle('flipped', board.orientation === 'black');
    /** @type {HTMLElement} */ (bar.querySelector('.evalbar-label')).textContent = label;
    bar.dataset.score = label;
    bar.setAttribute('aria-label', t('eval.label', { score: label }));
  }

  // ---- stepping through the game ---------------------------------------------------

  /** @param {number} ply */
  async function stepTo(ply) {
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
        sounds.play(sounds.forMove(entry));
      } finally {
        board.busy = false;
      }
    }
    renderAll();
  }

  function stopReplay() {
    clearInterval(ctl.replayTimer);
    ctl.replayTimer = undefined;
    state.replaying = false;
  }

  function toggleReplay() {
    if (state.replaying) {
      stopReplay();
      renderAll();
      return;
    }
    if (isLive(state)) state.viewPly = 0;
    state.replaying = true;
    renderAll();
    ctl.replayTimer = setInterval(() => {
      const g = state.game;
      if (!g || isLive(state)) {
        stopReplay();
        if (g) renderAll();
        return;
      }
      stepTo(shownPly(state, g) + 1);
    }, 1100);
  }

  // ---- moves -----------------------------------------------------------------------

  /** Plays a legal move; the server's answer is the new state. @param {string} uci @returns {Promise<boolean>} */
  async function onMove(uci) {
    const g = state.game;
    if (!g) return false;
    const id = g.id;
    try {
      const v = g.mode === 'online'
        ? await api.act(id, { type: 'move', move: uci, ply: g.moves.length })
        : await api.move(id, uci, g.moves.length);
      state.hint = null;
      await enqueue(v);
      return true;
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      if (err.kind === 'illegal_move') showIllegal(err.reason || err.message);
      else toast(t('notice.move_not_played'), serverError(err), 'error');
      if (err.status === 409) refresh();
      return false;
    }
  }

  /** @param {string} reason */
  function showIllegal(reason) {
    sounds.play('illegal');
    toast(t('notice.illegal'), reason, 'illegal');
    announce(`${t('notice.illegal')}: ${reason}`);
  }

  /**
   * A move the position does not offer: never sent to the game; the server
   * explains why (POST /api/explain), or the page says it generally.
   * @param {{ uci: string, from: string, to: string }} tried
   */
  async function explainTry(tried) {
    const g = state.game;
    if (!g) return;
    const why = await api.explain(g.variant, g.position.fen, tried.uci);
    if (why && why.legal) return; // offered after all (the position changed meanwhile)
    showIllegal(why ? illegalReason(why) : tried.from ? t('illegal.generic_from', { from: tried.from, to: tried.to }) : t('illegal.generic_drop', { to: tried.to }));
  }

  /** A move typed in the Move box. @param {string} text */
  async function typedMove(text) {
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
    showIllegal(why ? illegalReason(why) : t('illegal.typed', { move: text }));
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

  /** A queued premove, played as soon as it is this player's turn and legal. */
  function tryPremove() {
    const g = state.game;
    const pm = state.premove;
    if (!g || !pm || !canMove(state, g)) return;
    state.premove = null;
    board.setPremove(null);
    const uci = premoveMove(g.position.legal, pm);
    if (uci) board.play(uci);
    else renderAll();
  }

  async function refresh() {
    const g = state.game;
    if (!g) return;
    try {
      const v = await api.game(g.id);
      if (v.mode === 'online') state.seat = v.you || null;
      enqueue(v);
    } catch (e) {
      toast(t('notice.reload_failed'), serverError(/** @type {ApiError} */ (e)), 'error');
    }
  }

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

  /** An online action by this browser's seat; the answer is the new state. @param {object} a @param {(v: GameView) => void} [after] */
  function act(a, after) {
    const g = state.game;
    if (!g) return;
    return api.act(g.id, a).then((v) => {
      if (v.you) state.seat = v.you;
      enqueue(v);
      if (after) after(v);
    }).catch((e) => {
      toast(t('notice.not_done'), serverError(e), 'error');
      if (e.status === 409) refresh();
    });
  }

  // ---- buttons -----------------------------------------------------------------------

  /** @param {string} sel @param {() => void} f */
  const on = (sel, f) => $(sel).addEventListener('click', f);

  on('#btn-flip', () => {
    board.flip();
    if (state.game) state.orientation = { id: state.game.id, color: board.orientation };
    renderAll();
  });
  on('#btn-takeback', () => {
    const g = state.game;
    if (g) action(() => api.takeback(g.id), (v) => { state.hint = null; enqueue(v); });
  });
  on('#btn-abort', async () => {
    if (await confirmDialog(t('confirm.abort'))) act({ type: 'abort' });
  });
  on('#btn-rematch', () => act({ type: 'rematch' }, (v) => {
    if (v.online && !v.online.rematch_id) toast(t('notice.rematch_offered'), t('notice.waiting_answer'));
  }));
  on('#btn-accept', () => {
    const kind = $('#offer').dataset.kind;
    if (kind === 'draw') act({ type: 'accept_draw' });
    else if (kind === 'rematch') act({ type: 'rematch' });
  });
  on('#btn-decline', () => {
    const kind = $('#offer').dataset.kind;
    if (kind === 'draw') act({ type: 'decline_draw' });
    else if (kind === 'rematch') act({ type: 'decline_rematch' });
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
      await enqueue(v, { fresh: true });
      toast(t('notice.joined'), state.seat ? t('notice.you_play', colorArgs(state.seat)) : '');
    } catch (e) {
      toast(t('notice.join_failed'), serverError(/** @type {ApiError} */ (e)), 'error');
      refresh();
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
      if (await confirmDialog(t('confirm.resign'))) act({ type: 'resign' });
      return;
    }
    const question = g.mode === 'local' ? t('confirm.resign_local', colorArgs(g.position.turn)) : t('confirm.resign');
    if (await confirmDialog(question)) action(() => api.resign(g.id), (v) => enqueue(v));
  });
  on('#btn-draw', async () => {
    const g = state.game;
    if (!g) return;
    if (isOnline(g)) {
      act({ type: 'offer_draw' }, (v) => { if (!v.end) toast(t('notice.draw_offered'), t('notice.waiting_answer')); });
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
      enqueue(res.game);
    });
  });
  on('#btn-hint', () => {
    const g = state.game;
    if (!g) return;
    const rev = g.rev;
    /** @type {HTMLButtonElement} */ ($('#btn-hint')).disabled = true;
    action(() => api.hint(g.id), (a) => {
      if (!state.game || state.game.rev !== rev || !a.best || !a.best.path) return renderAll();
      state.hint = { rev, path: a.best.path, san: a.best.san || a.best.uci };
      renderAll();
    });
  });
  on('#btn-eval', () => {
    state.evalOn = !state.evalOn;
    settings.set('evalBar', state.evalOn);
    renderAll();
  });
  on('#nav-first', () => { stopReplay(); stepTo(0); });
  on('#nav-prev', () => { stopReplay(); if (state.game) stepTo(shownPly(state, state.game) - 1); });
  on('#nav-next', () => { stopReplay(); if (state.game) stepTo(shownPly(state, state.game) + 1); });
  on('#nav-last', () => { stopReplay(); if (state.game) stepTo(state.game.moves.length); });
  on('#nav-play', toggleReplay);
  on('#banner-close', () => { state.bannerDismissed = true; if (state.game) view.renderBanner(state, banner, state.game); });
  on('#banner-new', () => openNewGameDialog(state.game));
  on('#banner-rematch', () => act({ type: 'rematch' }));

  document.addEventListener('keydown', (e) => {
    const g = state.game;
    if (!g || !shown() || document.querySelector('dialog[open]')) return;
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target === /** @type {Element} */ (board.svg))) return;
    if (e.key === 'ArrowLeft') { stopReplay(); stepTo(shownPly(state, g) - 1); }
    if (e.key === 'ArrowRight') { stopReplay(); stepTo(shownPly(state, g) + 1); }
    if (e.key === 'Escape' && (state.premove || board.drawings.length)) board.cancelAll();
  });

  setupMoveInput(state, { typedMove, needSan: () => { refresh(); } });
  setupDialogs(state, { openGame: (id) => { location.hash = `#/game/${id}`; } });
  setupGamesList((id) => { location.hash = `#/game/${id}`; });
  onLangChange(() => {
    board.svg.setAttribute('aria-label', t('board.label'));
    if (state.game) {
      board.drawSquares();
      renderAll();
    } else if (state.missing) view.renderNoGame(t(state.missing));
  });

  /** Board and piece themes changed: the pieces are drawn again. */
  function redrawBoard() {
    board.refreshDefs();
    board.render();
  }

  // ---- routing --------------------------------------------------------------------------

  /** Opens the game `id` (from `#/game/ID`). @param {string} id */
  async function openGame(id) {
    stopReplay();
    try {
      const v = await api.game(id);
      state.seat = v.mode === 'online' ? v.you || null : null;
      state.seatFixes = 0;
      await enqueue(v, { fresh: true });
      live.follow('game', `game:${id}`);
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      showNoGame(err.status === 404 ? 'status.no_such_game' : err.message);
    }
  }

  /**
   * A link to a game that cannot be shown: nothing of the previous game may
   * stay playable (its board would still post moves into it).
   * @param {string} key a catalogue key, or a message as it is
   */
  function showNoGame(key) {
    ctl.queue = ctl.queue.then(() => {
      state.game = null;
      state.seat = null;
      state.hint = null;
      state.viewPly = null;
      state.premove = null;
      state.missing = key;
      clearTimeout(ctl.poll);
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
      view.renderNoGame(t(key));
    });
  }

  /** Whether the game page is the page shown (keys and sounds are its own only then). */
  const shown = () => document.body.dataset.page === 'game';

  /**
   * The game page (`#/game/ID`). Left for another page, it stops following
   * its game: an online opponent sees the player gone, as when a tab closes.
   * @type {import('../router.js').Page}
   */
  const gamePage = {
    name: 'game',
    enter: ([id]) => openGame(id),
    leave() {
      stopReplay();
      clearTimeout(ctl.poll);
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
    setInfo,
    redrawBoard,
    /** Opens the New game dialog. @param {GameView | null} game @param {string} [mode] */
    openNewGame: (game, mode) => openNewGameDialog(game, mode),
    ctl,
  };
}
