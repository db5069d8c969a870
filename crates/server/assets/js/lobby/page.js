// @ts-check
// The lobby (the home page, `#/`): the open seeks, live over the `lobby`
// topic; quick pairings that take a fitting seek or post one and wait; a
// form for any seek; the other ways to play (the engine, a friend on this
// device or by link); the player's games in progress. When someone accepts
// one of this player's seeks, the server says `paired` and the page goes to
// the game at once, wherever the player is in the app.

import { api, call } from '../api.js';
import { t, colorArgs, serverError, playerName } from '../i18n.js';
import { newIdentity } from '../player.js';
import {
  QUICK_PAIRINGS, quickMatch, mySeekFor, quickSeek, mySeeks, listed, clockShort, clockMinutes, acceptorColor,
} from './seeks.js';
import { renderSeekGraph } from './seek-graph.js';
import { summaryText } from '../game/games-list.js';
import { chosenClock } from '../ui/choices.js';

/** @typedef {import('../api.js').SeekView} SeekView */
/** @typedef {import('../api.js').SeekRequest} SeekRequest */
/** @typedef {import('../api.js').GameSummary} GameSummary */
/** @typedef {import('../api.js').ApiError} ApiError */
/** @typedef {import('./seeks.js').QuickPairing} QuickPairing */

/**
 * @typedef {{
 *   seeks: SeekView[],
 *   shown: boolean,
 *   busy: boolean,
 *   error: string | null,
 *   going: GameSummary[],
 * }} LobbyState
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const seekForm = () => /** @type {HTMLFormElement & Record<string, any>} */ ($('#form-seek'));

/**
 * Makes the lobby page (`#/`) on index.html's elements, with its state
 * (one `LobbyState` per page); nothing happens before the app calls it.
 * `openAccount` opens the header's Register or Log in dialog.
 * @param {{ live: import('../api.js').Live, i18n: import('../i18n.js').I18n, player: import('../player.js').Player,
 *   openNewGame: (game: null, mode: string) => void, openAccount: (mode: 'register' | 'login') => void }} deps
 * @returns {import('../router.js').Page}
 */
export function createLobbyPage({ live, i18n, player, openNewGame, openAccount }) {
  /** @type {LobbyState} */
  const lobby = {
    seeks: [], // the open seeks, as the server last said
    shown: false, // the lobby is the page shown
    busy: false, // a quick pairing or an acceptance is under way
    error: null, // the last refusal, shown until the next action
    going: [], // the player's games in progress
  };

  // ---- what the server says ------------------------------------------------------

  // The whole list comes once, on subscription; then only what changed.
  live.listen((msg) => {
    if (msg.type === 'lobby') {
      const now = new Set(msg.seeks.map((/** @type {SeekView} */ s) => s.id));
      lost(mySeeks(lobby.seeks, player.id()).filter((s) => !now.has(s.id)));
      lobby.seeks = msg.seeks;
    } else if (msg.type === 'seek_added') {
      if (!lobby.seeks.some((s) => s.id === msg.seek.id)) lobby.seeks = [...lobby.seeks, msg.seek];
    } else if (msg.type === 'seek_removed') {
      const gone = new Set(msg.ids);
      lost(mySeeks(lobby.seeks, player.id()).filter((s) => gone.has(s.id)));
      lobby.seeks = lobby.seeks.filter((s) => !gone.has(s.id));
    } else if (msg.type === 'paired') {
      const me = player.id();
      lobby.seeks = lobby.seeks.filter((s) => s.id !== msg.seek);
      if (me && Array.isArray(msg.players) && msg.players.includes(me)) goToGame(msg.game);
      return;
    } else {
      return;
    }
    follow();
    render();
  });

  // The lobby's topic is followed while the lobby is shown, and while the
  // player has a seek open anywhere in the app (to hear that it was taken).
  function follow() {
    live.follow('lobby', lobby.shown || mySeeks(lobby.seeks, player.id()).length ? 'lobby' : null);
  }

  /**
   * This player's seeks went without a `paired` heard first (a cancelled
   * one leaves the list before the server says so): the socket may have
   * dropped just as someone accepted one, so the game it became is looked
   * for among the player's games made since, of the same game.
   * @param {SeekView[]} seeks
   */
  async function lost(seeks) {
    if (!seeks.length) return;
    let games;
    try {
      games = (await api.games({ limit: 5 })).games;
    } catch (_) {
      return; // the seek lapsed or the server is away: nothing to go to
    }
    const game = games.find((g) => g.mode === 'online' && !g.finished
      && seeks.some((s) => s.variant === g.variant && g.created_at >= s.created_at));
    if (game && !location.hash.startsWith(`#/game/${game.id}`)) goToGame(game.id);
  }

  /**
   * To a game just paired: one game at a time, so this player's other open
   * seeks are cancelled (nobody else can take them meanwhile).
   * @param {string} id
   */
  function goToGame(id) {
    const me = player.id();
    const rest = mySeeks(lobby.seeks, me);
    lobby.seeks = lobby.seeks.filter((s) => !rest.includes(s));
    follow();
    location.hash = `#/game/${id}`;
    if (rest.length) cancelRest(me, new Set(rest.map((s) => s.id)));
  }

  /**
   * Cancels this player's other seeks that are still open, as the server
   * has them now (not the list the page last heard: the seek just paired,
   * or one that lapsed, is gone already and would only answer 404).
   * @param {string | null} me @param {Set<string>} ids
   */
  async function cancelRest(me, ids) {
    const r = await call('GET', '/api/seeks');
    if (!r.ok) return;
    for (const s of mySeeks(r.value, me)) {
      if (ids.has(s.id)) call('DELETE', `/api/seeks/${encodeURIComponent(s.id)}`);
    }
  }

  async function refreshSeeks() {
    try {
      lobby.seeks = await api.seeks();
    } catch (e) {
      lobby.error = serverError(/** @type {ApiError} */ (e));
    }
    follow();
    render();
  }

  async function refreshGoing() {
    try {
      const page = await api.games({ limit: 20 });
      lobby.going = page.games.filter((g) => !g.finished).slice(0, 5);
    } catch (_) {
      lobby.going = []; // only a convenience: the Games list has them all
    }
    renderGoing();
  }

  // ---- actions ---------------------------------------------------------------------

  /** @param {unknown} e @param {string} [gone] what to say when the seek no longer exists */
  function refusal(e, gone = 'lobby.error_gone') {
    const err = /** @type {ApiError} */ (e);
    if (err.status === 404) return t(gone);
    return serverError(err);
  }

  /** @param {() => Promise<void>} f */
  async function busy(f) {
    if (lobby.busy) return;
    lobby.busy = true;
    lobby.error = null;
    render();
    try {
      await f();
    } finally {
      lobby.busy = false;
      render();
    }
  }

  /** Adds a seek this page just posted (the lobby topic says so too, a moment later). @param {SeekView} s */
  function posted(s) {
    if (!lobby.seeks.some((x) => x.id === s.id)) lobby.seeks = [...lobby.seeks, s];
    follow();
  }

  /**
   * Out of the list at once, so that the server's `seek_removed` for it is
   * not taken for a seek lost to a pairing unheard.
   * @param {string} id
   */
  async function cancel(id) {
    lobby.seeks = lobby.seeks.filter((s) => s.id !== id);
    try {
      await api.cancelSeek(id);
    } catch (e) {
      if (/** @type {ApiError} */ (e).status !== 404) {
        lobby.error = refusal(e);
        refreshSeeks(); // it may still be open
      }
    }
    follow();
    render();
  }

  /** @param {SeekView} seek */
  function accept(seek) {
    return busy(async () => {
      try {
        const game = await api.acceptSeek(seek.id);
        goToGame(game.id);
      } catch (e) {
        lobby.error = refusal(e);
        refreshSeeks();
      }
    });
  }

  /**
   * A quick pairing: pressed while its own seek waits, it cancels the seek;
   * else it takes the first open seek that fits (looking again if that one
   * was just taken by someone else), or posts one and waits.
   * @param {QuickPairing} q
   */
  function pressQuick(q) {
    return busy(async () => {
      const me = player.me;
      if (!me) return;
      const mine = mySeekFor(lobby.seeks, q, me.id);
      if (mine) return cancel(mine.id);
      try {
        for (let tries = 0; tries < 3; tries++) {
          lobby.seeks = await api.seeks();
          const fit = quickMatch(lobby.seeks, q, me);
          if (!fit) break;
          try {
            const game = await api.acceptSeek(fit.id);
            goToGame(game.id);
            return;
          } catch (e) {
            if (/** @type {ApiError} */ (e).status !== 404) throw e;
          }
        }
        posted(await api.postSeek(quickSeek(q, me)));
      } catch (e) {
        lobby.error = refusal(e);
      }
    });
  }

  async function postCustom() {
    const f = seekForm();
    const err = $('#seek-error');
    err.classList.add('hidden');
    /** @type {SeekRequest} */
    const seek = { variant: f.variant.value, clock: chosenClock(f), rated: !!f.rated.checked && player.hasAccount(), color: f.color.value };
    const c = seek.clock;
    if (c && (!(c.base_seconds >= 1 && c.base_seconds <= 10800) || !(c.increment_seconds >= 0 && c.increment_seconds <= 180))) {
      err.textContent = t('seek.error_clock');
      err.classList.remove('hidden');
      return;
    }
    try {
      posted(await api.postSeek(seek));
      render();
    } catch (e) {
      err.textContent = refusal(e);
      err.classList.remove('hidden');
    }
  }

  // ---- drawing -----------------------------------------------------------------------

  /** "Tensor Chess 5+3", "Chess, no clock". @param {{ variant: string, clock: import('../api.js').ClockSpec | null }} s */
  const termsName = (s) => (s.clock ? `${t(`game.${s.variant}`)} ${clockShort(s.clock)}` : `${t(`game.${s.variant}`)}, ${t('seek.no_clock')}`);

  /** The clock in words, for screen readers and titles. @param {import('../api.js').ClockSpec | null} c */
  const clockWords = (c) => (c ? t('info.clock', { min: clockMinutes(c), inc: c.increment_seconds }) : t('info.no_clock'));

  /** @param {string} tag @param {string} [cls] @param {string} [text] */
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function renderQuick() {
    const grid = $('#quick-grid');
    if (!grid.children.length) {
      for (const q of QUICK_PAIRINGS) {
        const b = /** @type {HTMLButtonElement} */ (el('button', 'quick'));
        b.type = 'button';
        b.dataset.quick = q.id;
        // Named by what it shows (the clock, the game or that it waits), the clock in words after it.
        b.append(el('span', 'quick-clock'), ' ', el('span', 'quick-game'), el('span', 'visually-hidden quick-words'));
        b.addEventListener('click', () => pressQuick(q));
        grid.appendChild(b);
      }
    }
    const me = player.id();
    for (const q of QUICK_PAIRINGS) {
      const b = /** @type {HTMLButtonElement} */ (grid.querySelector(`[data-quick="${q.id}"]`));
      const waiting = !!mySeekFor(lobby.seeks, q, me);
      /** @type {HTMLElement} */ (b.querySelector('.quick-clock')).textContent = clockShort(q.clock) || '';
      /** @type {HTMLElement} */ (b.querySelector('.quick-game')).textContent = waiting ? t('quick.waiting') : t(`game.${q.variant}`);
      b.classList.toggle('waiting', waiting);
      b.setAttribute('aria-pressed', String(waiting));
      /** @type {HTMLElement} */ (b.querySelector('.quick-words')).textContent = waiting
        ? ` — ${t(`game.${q.variant}`)}, ${clockWords(q.clock)}`
        : ` (${clockWords(q.clock)})`;
      b.disabled = lobby.busy || !player.me;
    }
    $('#quick-note').textContent = t(player.hasAccount() ? 'lobby.quick_note' : 'lobby.quick_note_guest');
  }

  function renderWaiting() {
    const box = $('#waiting');
    const mine = mySeeks(lobby.seeks, player.id());
    box.classList.toggle('hidden', !mine.length);
    box.innerHTML = '';
    if (!mine.length) return;
    box.appendChild(el('p', 'waiting-title', t('lobby.waiting')));
    const list = el('ul', 'waiting-list');
    for (const s of mine) {
      const li = el('li');
      li.dataset.seek = s.id;
      li.append(el('span', 'spinner'), el('span', '', `${termsName(s)} · ${t(s.rated ? 'seek.rated' : 'seek.casual')}`));
      const b = el('button', 'cancel-seek', t('seek.cancel'));
      b.setAttribute('aria-label', t('seek.cancel_label', { terms: termsName(s) }));
      b.addEventListener('click', () => cancel(s.id));
      li.appendChild(b);
      list.appendChild(li);
    }
    box.appendChild(list);
  }

  /** The rating as the lobby shows it: "1500?" while provisional. @param {import('../api.js').SeekPlayer} p */
  function ratingCell(p) {
    const span = el('span', 'seek-rating', String(p.rating));
    if (p.provisional) {
      const q = el('span', 'provisional', '?');
      q.setAttribute('aria-hidden', 'true');
      q.title = t('rating.provisional');
      span.append(q, el('span', 'visually-hidden', ` (${t('rating.provisional')})`));
    }
    return span;
  }

  function renderSeeks() {
    const body = $('#seeks-body');
    const me = player.id();
    const seeks = listed(lobby.seeks, me);
    body.innerHTML = '';
    $('#seeks-table').classList.toggle('hidden', !seeks.length);
    $('#seeks-empty').classList.toggle('hidden', !!seeks.length);
    for (const s of seeks) {
      const mine = s.player.id === me;
      const tr = document.createElement('tr');
      tr.dataset.seek = s.id;
      tr.dataset.variant = s.variant;
      tr.classList.toggle('mine', mine);
      const who = el('td', 'seek-player');
      // A player with an account has a profile: the name leads there.
      const name = el(s.player.account ? 'a' : 'span', 'seek-name', playerName(s.player.name));
      if (s.player.account) /** @type {HTMLAnchorElement} */ (name).href = `#/player/${encodeURIComponent(s.player.account)}`;
      who.append(name, ' ', ratingCell(s.player));
      if (mine) who.append(' ', el('span', 'muted', t('seek.you')));
      const game = el('td', 'seek-game', t(`game.${s.variant}`));
      const terms = el('td', 'seek-terms');
      const clock = el('span', 'seek-clock', s.clock ? clockShort(s.clock) || '' : t('seek.no_clock'));
      clock.title = clockWords(s.clock);
      const color = mine ? s.color : acceptorColor(s.color);
      terms.append(
        clock, ' · ',
        el('span', `seek-mode${s.rated ? ' rated' : ''}`, t(s.rated ? 'seek.rated' : 'seek.casual')), ' · ',
        el('span', 'seek-color', color === 'random' ? t('seek.you_play_random') : t('seek.you_play', colorArgs(color))),
      );
      const action = el('td', 'seek-action');
      const b = /** @type {HTMLButtonElement} */ (el('button', mine ? 'cancel-seek' : 'primary accept-seek', t(mine ? 'seek.cancel' : 'seek.accept')));
      b.type = 'button';
      b.setAttribute('aria-label', t(mine ? 'seek.cancel_label' : 'seek.accept_label', { name: playerName(s.player.name), terms: termsName(s) }));
      b.disabled = lobby.busy && !mine;
      b.addEventListener('click', () => (mine ? cancel(s.id) : accept(s)));
      action.appendChild(b);
      tr.append(who, game, terms, action);
      body.appendChild(tr);
    }
    renderSeekGraph($('#seek-graph'), {
      seeks, me, busy: lobby.busy,
      describe: (s) => `${playerName(s.player.name)} (${s.player.rating}${s.player.provisional ? '?' : ''}) · ${termsName(s)} · `
        + `${t(s.rated ? 'seek.rated' : 'seek.casual')}${s.player.id === me ? ` · ${t('seek.cancel')}` : ''}`,
      noClock: '∞', timeLabel: t('seeks.graph_time'), ratingLabel: t('seeks.graph_rating'),
      onAccept: accept, onCancel: cancel,
    });
  }

  function renderForm() {
    const f = seekForm();
    /** @type {HTMLElement} */ (f.querySelector('.clock-custom')).classList.toggle('hidden', f.clock.value !== 'custom');
    const account = player.hasAccount();
    const rated = /** @type {HTMLInputElement} */ (f.rated);
    rated.disabled = !account;
    if (!account) rated.checked = false;
    const note = $('#rated-note');
    note.innerHTML = '';
    if (account) {
      note.textContent = t('seek.rated_note');
    } else {
      note.append(t('seek.rated_guest'), ' ');
      const reg = el('button', 'link-button', t('account.register'));
      reg.addEventListener('click', () => openAccount('register'));
      const log = el('button', 'link-button', t('account.login'));
      log.addEventListener('click', () => openAccount('login'));
      for (const b of [reg, log]) /** @type {HTMLButtonElement} */ (b).type = 'button';
      note.append(reg, ` ${t('seek.or')} `, log, '.');
    }
  }

  function renderGoing() {
    const list = $('#going');
    list.innerHTML = '';
    $('#going-title').classList.toggle('hidden', !lobby.going.length);
    for (const g of lobby.going) {
      const li = el('li');
      const a = /** @type {HTMLAnchorElement} */ (el('a', 'going-game', summaryText(g)));
      a.href = `#/game/${g.id}`;
      li.appendChild(a);
      list.appendChild(li);
    }
  }

  function render() {
    if (!lobby.shown) return;
    renderQuick();
    renderWaiting();
    renderSeeks();
    renderForm();
    const err = $('#lobby-error');
    err.textContent = lobby.error || '';
    err.classList.toggle('hidden', !lobby.error);
    document.body.dataset.seeks = String(lobby.seeks.length);
  }

  // ---- the page ------------------------------------------------------------------------

  seekForm().addEventListener('submit', (e) => { e.preventDefault(); postCustom(); });
  seekForm().clock.addEventListener('change', renderForm);
  $('#btn-engine').addEventListener('click', () => openNewGame(null, 'engine'));
  $('#btn-local').addEventListener('click', () => openNewGame(null, 'local'));
  $('#btn-friend').addEventListener('click', () => openNewGame(null, 'online'));
  i18n.onChange(() => { render(); renderGoing(); });
  player.onChange((change) => {
    // Another player: the seeks that are theirs and their games are others.
    if (newIdentity(change) && lobby.shown) {
      refreshSeeks();
      refreshGoing();
    }
    render();
  });

  /** @type {import('../router.js').Page} */
  const lobbyPage = {
    name: 'lobby',
    enter() {
      lobby.shown = true;
      lobby.error = null;
      follow();
      render();
      refreshSeeks();
      refreshGoing();
    },
    leave() {
      lobby.shown = false;
      follow();
    },
  };

  return lobbyPage;
}
