// @ts-check
// A tournament's page (`#/tournament/ID`): its settings and clock (the
// countdown to its start or an arena's end, the round), Join / Pause /
// Withdraw, the standings (tournaments/standings.js), the games going on
// (the current round's), the top game to watch, and the podium once it is
// over. It follows the WebSocket topic `tournament:ID`: every change comes
// as the whole tournament; a new pairing that names the player takes them
// to their game, as on lichess — also from the game page, while they play
// in the tournament (the topic stays followed until they withdraw or pause,
// or it ends).

import { tournaments } from '../api.js';
import { t, playerName } from '../i18n.js';
import { announce } from '../ui/notice.js';
import { tourName, termsText, whenText, tourError, el, dateTime } from './format.js';
import { renderStandings, renderPodium, mark } from './standings.js';

/** @typedef {import('../api.js').TournamentView} TournamentView */
/** @typedef {import('../api.js').PairingView} PairingView */
/** @typedef {import('../api.js').Live} Live */

/**
 * The page's state: the tournament shown (and the one whose pairings the
 * player follows, maybe another page's by now), why it cannot be shown,
 * the action under way and its refusal, the countdown's timer; `me`, the
 * player's id (the page's `Player`).
 * @typedef {{ id: string, view: TournamentView | null, missing: string, error: string, busy: boolean,
 *   shown: boolean, following: string | null, timer: ReturnType<typeof setInterval> | undefined,
 *   seq: number, askedAt: number, me: () => string | null }} TournamentState
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const FOLLOWER = 'tournament';
/** How often a page outside the first lines asks for its own line, at most (ms). */
const OWN_LINE_EVERY_MS = 30000;

/**
 * The player's own line, if they joined (the topic's news carries the first lines only).
 * @param {TournamentView} v @param {string | null} myId
 */
const mine = (v, myId) => v.standings.find((s) => s.player.id === myId) || (v.you && v.you.standing) || null;

/** Whether the player is in it and wants games (neither withdrawn nor paused). @param {TournamentView} v @param {string | null} myId */
function playing(v, myId) {
  const me = mine(v, myId);
  return !!me && !me.withdrawn && !me.paused && v.state !== 'finished';
}

/** @param {PairingView} p */
function pairingItem(p) {
  const li = el('li', 'tour-pairing');
  li.dataset.game = p.game;
  const a = /** @type {HTMLAnchorElement} */ (el('a'));
  a.href = `#/game/${p.game}`;
  const side = (/** @type {import('../api.js').TournamentPlayer} */ who, /** @type {boolean} */ berserk) => {
    const s = el('span', 'tour-side', playerName(who.name));
    if (berserk) {
      s.dataset.berserk = '1';
      s.append(' ', mark('berserk', t('tour.berserked')));
    }
    return s;
  };
  a.append(side(p.white, p.white_berserked), el('span', 'muted', ' – '), side(p.black, p.black_berserked));
  li.append(a);
  if (p.result !== '*') li.append(' ', el('span', 'muted small', p.result));
  return li;
}

/** @param {TournamentState} st */
function render(st) {
  const v = st.view;
  $('#tour-missing').textContent = st.missing;
  $('#tour-missing').classList.toggle('hidden', !st.missing);
  $('#tour-body').classList.toggle('hidden', !v);
  $('#tour-error').textContent = st.error;
  $('#tour-error').classList.toggle('hidden', !st.error);
  if (!v) {
    $('#tour-name').textContent = st.missing ? t('tour.missing') : t('common.loading');
    $('#tour-sub').textContent = '';
    $('#tour-actions').replaceChildren();
    return;
  }
  document.title = `${tourName(v)} — ${t('page.title')}`;
  document.body.dataset.tournament = v.id;
  document.body.dataset.tournamentState = v.state;
  $('#tour-name').textContent = tourName(v);
  $('#tour-sub').textContent = termsText(v);
  renderWhen(st);
  renderActions(st, v);
  renderStandings(/** @type {HTMLElement} */ ($('#tour-standings').querySelector('tbody')), v, st.me());
  $('#tour-no-players').classList.toggle('hidden', v.standings.length > 0);
  const more = (/** @type {string} */ sel, /** @type {string} */ key, /** @type {number} */ shown, /** @type {number} */ total) => {
    $(sel).textContent = total > shown ? t(key, { shown, total }) : '';
    $(sel).classList.toggle('hidden', total <= shown);
  };
  more('#tour-standings-more', 'tour.standings_more', v.standings.length, v.standings_total);
  more('#tour-pairings-more', 'tour.pairings_more', v.pairings.length, v.pairings_total);
  $('#tour-podium').classList.toggle('hidden', v.state !== 'finished' || v.standings.length === 0);
  if (v.state === 'finished') renderPodium($('#tour-podium-list'), v);
  const going = v.pairings;
  $('#tour-pairings-title').textContent = v.kind === 'arena' || !v.round ? t('tour.games_now') : t('tour.round', { round: v.round });
  $('#tour-pairings').replaceChildren(...going.map(pairingItem));
  $('#tour-no-games').classList.toggle('hidden', going.length > 0);
  const top = v.top_game ? going.find((p) => p.game === v.top_game) : null;
  const topBox = $('#tour-top-game');
  if (top) {
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'button primary', t('tour.watch', { white: playerName(top.white.name), black: playerName(top.black.name) })));
    a.href = `#/game/${top.game}`;
    a.id = 'tour-watch';
    topBox.replaceChildren(a);
  } else {
    topBox.replaceChildren(el('p', 'muted', t('tour.no_top')));
  }
}

/** The countdown or the round (every second). @param {TournamentState} st */
function renderWhen(st) {
  const v = st.view;
  if (!v) return;
  const when = $('#tour-when');
  when.textContent = whenText(v, Date.now());
  when.title = t('tour.starts_at', { time: dateTime(v.starts_at) });
}

/** Join, Pause, Withdraw, and what the player's entry is. @param {TournamentState} st @param {TournamentView} v */
function renderActions(st, v) {
  const box = $('#tour-actions');
  const me = mine(v, st.me());
  /** @type {HTMLElement[]} */
  const items = [];
  if (v.state !== 'finished') {
    /** @param {'join' | 'withdraw' | 'pause'} what @param {string} label @param {string} [cls] */
    const button = (what, label, cls = '') => {
      const b = /** @type {HTMLButtonElement} */ (el('button', cls, label));
      b.type = 'button';
      b.id = `btn-tour-${what}`;
      b.disabled = st.busy;
      b.addEventListener('click', () => act(st, what));
      return b;
    };
    if (!me || me.withdrawn) items.push(button('join', t('tour.join'), 'primary'));
    else if (me.paused) items.push(button('join', t('tour.resume'), 'primary'));
    else if (v.kind !== 'round_robin') items.push(button('pause', t('tour.pause')));
    if (me && !me.withdrawn) items.push(button('withdraw', t('tour.withdraw')));
  }
  box.replaceChildren(...items);
  const note = !me || v.state === 'finished' ? '' : me.withdrawn ? t('tour.you_withdrew') : me.paused ? t('tour.you_paused') : t(v.kind === 'arena' ? 'tour.you_in' : 'tour.you_in_rounds');
  $('#tour-you').textContent = note;
  $('#tour-you').classList.toggle('hidden', !note);
}

/** @param {TournamentState} st @param {'join' | 'withdraw' | 'pause'} what */
async function act(st, what) {
  if (st.busy || !st.view) return;
  st.busy = true;
  st.error = '';
  render(st);
  const r = await tournaments.act(st.view.id, what);
  st.busy = false;
  if (r.ok && st.view && r.value.id === st.view.id) st.view = r.value;
  else if (!r.ok) st.error = tourError(r.error);
  render(st);
}

/**
 * The tournament page (`#/tournament/ID`). `go` takes the app to an
 * address (the player's new game).
 * @param {{ live: Live, i18n: import('../i18n.js').I18n, player: import('../player.js').Player, go: (hash: string) => void }} deps
 * @returns {import('../router.js').Page}
 */
export function createTournamentPage({ live, i18n, player, go }) {
  /** @type {TournamentState} */
  const st = {
    id: '', view: null, missing: '', error: '', busy: false, shown: false, following: null, timer: undefined, seq: 0, askedAt: 0,
    me: () => player.id(),
  };

  /** Follows `id`'s topic (null: none). @param {string | null} id */
  function follow(id) {
    st.following = id;
    live.follow(FOLLOWER, id ? `tournament:${id}` : null);
  }

  /** After news: the topic stays followed while the page shows it, or while the player plays in it. */
  function keepFollowing() {
    if (st.shown || !st.view || st.view.id !== st.following) return;
    if (!playing(st.view, st.me())) follow(null);
  }

  live.listen((msg) => {
    if (!st.following || msg.topic !== `tournament:${st.following}`) return;
    if (msg.type === 'tournament') {
      /** @type {TournamentView} */
      const v = msg.tournament;
      if (st.view && st.view.id !== v.id) return;
      // The news is the same for every page: the player's own entry stays
      // as this page last asked for it, and is asked again now and then
      // when their line is not among the first.
      const you = st.view && st.view.you;
      if (you && !v.you) {
        v.you = you;
        if (st.shown && !v.standings.some((s) => s.player.id === st.me())) refreshSometimes();
      }
      st.view = v;
      if (st.shown) render(st);
      keepFollowing();
    } else if (msg.type === 'tournament_pairings') {
      /** @type {PairingView[]} */
      const pairings = msg.pairings;
      const me = st.me();
      const game = pairings.find((p) => p.white.id === me || p.black.id === me);
      // Others' games show with the news that follows them.
      if (game) {
        announce(t('tour.paired'));
        go(`#/game/${game.game}`);
      }
    }
  });
  i18n.onChange(() => { if (st.shown) render(st); });
  player.onChange(() => { if (st.shown) render(st); });

  /** Asks for the player's own line at most every half minute (a thousand pages follow a large arena). */
  function refreshSometimes() {
    const now = Date.now();
    if (now - st.askedAt < OWN_LINE_EVERY_MS) return;
    st.askedAt = now;
    refresh();
  }

  async function refresh() {
    st.askedAt = Date.now();
    const seq = ++st.seq;
    const r = await tournaments.get(st.id);
    if (seq !== st.seq) return;
    if (r.ok) {
      st.view = r.value;
      st.missing = '';
    } else {
      st.missing = r.error.status === 404 ? t('tour.missing') : tourError(r.error);
    }
    render(st);
  }

  return {
    name: 'tournament',
    async enter([id]) {
      st.shown = true;
      if (st.id !== id) {
        st.view = null;
        st.error = '';
      }
      st.id = id;
      st.missing = '';
      render(st);
      follow(id);
      clearInterval(st.timer);
      st.timer = setInterval(() => renderWhen(st), 1000);
      await refresh();
      document.body.dataset.tournamentReady = '1';
    },
    leave() {
      st.shown = false;
      st.seq++;
      clearInterval(st.timer);
      st.timer = undefined;
      // Still playing in it: its pairings keep taking the player to their games.
      if (!st.view || !playing(st.view, st.me())) follow(null);
      delete document.body.dataset.tournament;
      delete document.body.dataset.tournamentState;
      delete document.body.dataset.tournamentReady;
      document.title = t('page.title');
    },
  };
}
