// @ts-check
// A tournament's page (`#/tournament/ID`): its settings and clock (the
// countdown to its start or an arena's end, the round), Join / Pause /
// Withdraw and what the player's entry is (playing, or waiting and why:
// tournaments/status.js), links to download its games (PGN) and a Swiss's
// TRF, the standings (tournaments/standings.js: an arena's line opens the
// player's games; a Swiss's is its crosstable line), the games going on or
// a round's, round by round (tournaments/rounds.js), the top game to watch
// while it is played, the podium once it is over, and its chat
// (tournaments/chat.js). It follows the WebSocket topic `tournament:ID`:
// every change comes as the tournament's first lines, those that did not
// change named only (tournaments/news.js); a new pairing that names the
// player takes them to their game, as on lichess — also from the game
// page, while they play in the tournament (the topic stays followed until
// they withdraw or pause, or it ends).

import { topicOf, tournaments } from '../api.js';
import { t, playerName } from '../i18n.js';
import { announce } from '../ui/notice.js';
import { setText, setAttr } from '../ui/el.js';
import { tourName, termsText, whenText, tourError, el, dateTime } from './format.js';
import { renderStandings, renderPodium } from './standings.js';
import { renderGames } from './rounds.js';
import { entryNote } from './status.js';
import { createTournamentChat } from './chat.js';
import { readNews, wholeLines } from './news.js';

/** @typedef {import('../api.js').TournamentView} TournamentView */
/** @typedef {import('../api.js').PairingView} PairingView */
/** @typedef {import('../api.js').Live} Live */
/** @typedef {import('../api.js').StandingView} StandingView */
/** @typedef {import('../api.js').PlayerGames} PlayerGames */

/**
 * The page's state: the tournament shown (and the one whose pairings the
 * player follows, maybe another page's by now), why it cannot be shown,
 * the action under way and its refusal, the countdown's timer; the line
 * opened (an arena player's games, and their sheet when asked for), the
 * rounds shown; `me`, the player's id (the page's `Player`).
 * @typedef {{ id: string, view: TournamentView | null, missing: string, error: string, busy: boolean,
 *   shown: boolean, following: string | null, timer: ReturnType<typeof setInterval> | undefined,
 *   seq: number, askedAt: number, me: () => string | null,
 *   open: { player: string | null, games: PlayerGames | null, sheet: string },
 *   rounds: import('./rounds.js').RoundsState, toggle: (s: StandingView) => void }} TournamentState
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
  renderDownloads(v);
  $('#tour-sheet-head').textContent = t(v.kind === 'arena' ? 'tour.sheet' : 'tour.crosstable');
  renderStandings(/** @type {HTMLElement} */ ($('#tour-standings').querySelector('tbody')), v, st.me(),
    { player: st.open.player, games: st.open.games, toggle: st.toggle });
  $('#tour-no-players').classList.toggle('hidden', v.standings.length > 0);
  const more = (/** @type {string} */ sel, /** @type {string} */ key, /** @type {number} */ shown, /** @type {number} */ total) => {
    $(sel).textContent = total > shown ? t(key, { shown, total }) : '';
    $(sel).classList.toggle('hidden', total <= shown);
  };
  more('#tour-standings-more', 'tour.standings_more', v.standings.length, v.standings_total);
  more('#tour-pairings-more', 'tour.pairings_more', v.pairings.length, v.pairings_total);
  const over = v.state === 'finished';
  $('#tour-podium').classList.toggle('hidden', !over || v.standings.length === 0);
  if (over) renderPodium($('#tour-podium-list'), v);
  renderGames(v, st.rounds);
  // Once it is over, no game is going on in an arena: its games card goes.
  $('#tour-games-card').classList.toggle('hidden', over && v.kind === 'arena');
  // The top game, while it is played; nothing to wait for once it is over.
  $('#tour-top-card').classList.toggle('hidden', over);
  const top = v.top_game ? v.pairings.find((p) => p.game === v.top_game) : null;
  const topBox = $('#tour-top-game');
  if (top) {
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'button primary', t('tour.watch', { white: playerName(top.white.name), black: playerName(top.black.name) })));
    a.href = `#/game/${top.game}`;
    a.id = 'tour-watch';
    topBox.replaceChildren(a);
  } else {
    topBox.replaceChildren(el('p', 'muted', t(over ? 'tour.no_top_over' : 'tour.no_top')));
  }
}

/** The links to download its games, and a Swiss's TRF once a round is paired. @param {TournamentView} v */
function renderDownloads(v) {
  const box = $('#tour-downloads');
  const links = [];
  const link = (/** @type {string} */ href, /** @type {string} */ text, /** @type {string} */ id) => {
    const a = /** @type {HTMLAnchorElement} */ (el('a', '', text));
    a.href = href;
    a.id = id;
    a.download = '';
    return a;
  };
  if (v.state !== 'upcoming') links.push(link(tournaments.pgnHref(v.id), t('tour.download_pgn'), 'tour-download-pgn'));
  if (v.kind === 'swiss' && v.round) links.push(link(tournaments.trfHref(v.id), t('tour.download_trf'), 'tour-download-trf'));
  box.classList.toggle('hidden', links.length === 0);
  box.replaceChildren(...(links.length ? [t('tour.downloads'), ' ', ...links.flatMap((a, i) => (i ? [' · ', a] : [a]))] : []));
}

/** The countdown or the round (every second). @param {TournamentState} st */
function renderWhen(st) {
  const v = st.view;
  if (!v) return;
  const when = $('#tour-when');
  setText(when, whenText(v, Date.now()));
  setAttr(when, 'title', t('tour.starts_at', { time: dateTime(v.starts_at) }));
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
  const { text, game } = entryNote(v, me);
  const you = $('#tour-you');
  you.replaceChildren(text);
  if (game) {
    const a = /** @type {HTMLAnchorElement} */ (el('a', '', t('tour.your_game')));
    a.href = `#/game/${game}`;
    a.id = 'tour-your-game';
    you.append(' ', a);
  }
  you.classList.toggle('hidden', !text);
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
    open: { player: null, games: null, sheet: '' },
    rounds: { shown: null, past: new Map(), ask: (round) => showRound(round) },
    toggle: (s) => toggleLine(s),
  };
  const chat = createTournamentChat({ live, i18n, player });

  /** Opens (or closes) an arena player's line: their games under it. @param {StandingView} s */
  function toggleLine(s) {
    const open = st.open;
    if (open.player === s.player.id) {
      st.open = { player: null, games: null, sheet: '' };
    } else {
      st.open = { player: s.player.id, games: null, sheet: '' };
      askGames(s);
    }
    render(st);
  }

  /** Asks for the open line's games (again when its sheet changed). @param {StandingView} s */
  async function askGames(s) {
    const id = st.id;
    const who = s.player.id;
    st.open.sheet = `${s.games}|${s.points_line}|${s.playing || ''}`;
    const r = await tournaments.playerGames(id, who);
    if (st.id !== id || st.open.player !== who) return;
    st.open.games = r.ok ? r.value : { player: s.player, games: [] };
    if (!r.ok) st.error = tourError(r.error);
    if (st.shown) render(st);
  }

  /** After news: the open line's games asked again if its sheet changed. */
  function freshOpenLine() {
    const v = st.view;
    const line = v && st.open.player ? v.standings.find((s) => s.player.id === st.open.player) : null;
    if (line && `${line.games}|${line.points_line}|${line.playing || ''}` !== st.open.sheet) askGames(line);
  }

  /** Shows round `round` (a past one asked for once: it does not change). @param {number} round */
  async function showRound(round) {
    const v = st.view;
    if (!v) return;
    st.rounds.shown = round === v.round ? null : round;
    render(st);
    if (st.rounds.shown === null || st.rounds.past.has(round)) return;
    st.rounds.past.set(round, null);
    const id = st.id;
    const r = await tournaments.round(id, round);
    if (st.id !== id) return;
    if (r.ok) st.rounds.past.set(round, r.value);
    else {
      st.rounds.past.delete(round);
      st.error = tourError(r.error);
    }
    if (st.shown) render(st);
  }

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
    if (!st.following || topicOf(msg) !== `tournament:${st.following}`) return;
    if (msg.type === 'tournament') {
      /** @type {import('../api.js').TournamentNews} */
      const news = msg.tournament;
      if (st.view && st.view.id !== news.id) return;
      let v = readNews(news, st.view);
      if (!v) {
        // A line named that this page does not hold: the whole view, when
        // shown; else what the news tells whole is enough to follow the
        // player's games (the page asks for the whole view when shown).
        if (st.shown) {
          refresh();
          return;
        }
        v = wholeLines(news);
      }
      // The news is the same for every page: the player's own entry stays
      // as this page last asked for it, and is asked again now and then
      // when their line is not among the first.
      const you = st.view && st.view.you;
      if (you && !v.you) {
        v.you = you;
        if (st.shown && !v.standings.some((s) => s.player.id === st.me())) refreshSometimes();
      }
      st.view = v;
      if (st.shown) {
        render(st);
        freshOpenLine();
      }
      keepFollowing();
    } else if (msg.type === 'tournament_pairings') {
      /** @type {import('../api.js').PairedGame[]} */
      const pairings = msg.pairings;
      const me = st.me();
      const game = pairings.find((p) => p.white === me || p.black === me);
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
        st.open = { player: null, games: null, sheet: '' };
        st.rounds.shown = null;
        st.rounds.past = new Map();
      }
      st.id = id;
      st.missing = '';
      render(st);
      follow(id);
      chat.follow(id);
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
      chat.follow(null);
      delete document.body.dataset.tournament;
      delete document.body.dataset.tournamentState;
      delete document.body.dataset.tournamentReady;
      document.title = t('page.title');
    },
  };
}
