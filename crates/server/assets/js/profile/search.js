// @ts-check
// A player's games searched, on their profile (issue 42 item 3): by
// opponent, game, speed, result (the profile's player's), rated, dates and
// a position reached (moves, or a FEN). The form's fields are the API's
// parameters (`GET /api/games/user/{name}`, lichess's names), and so are
// the address's (`#/player/NAME?vs=bob&play=e2e4,e7e5`), so that a search
// can be linked to (the explorer's "games through this position").

import { api } from '../api.js';
import { t, plural, serverError } from '../i18n.js';
import { sidesNodes } from '../game/games-list.js';
import { frozen } from '../frozen.js';
import { el } from '../ui/el.js';

/** @typedef {import('../api.js').ExportedGame} ExportedGame */
/** @typedef {import('../api.js').ExportedSide} ExportedSide */
/** @typedef {import('../api.js').ApiError} ApiError */

/** Games shown first, and how many more each "More" shows. */
export const SEARCH_PAGE = 20;
/** The most games the server's export gives (its MAX_EXPORTED). */
const SEARCH_MAX = 300;
/** The API's parameters a search is made of (an address's others are ignored). */
export const SEARCH_PARAMS = frozen(['vs', 'variant', 'speeds', 'result', 'rated', 'since', 'until', 'play', 'fen']);
/** The fields given to the API as they are typed or chosen. */
const PLAIN = frozen(['vs', 'variant', 'speeds', 'result', 'rated', 'fen']);

/**
 * The search's state, one per profile page.
 * `games`: the last answer (null before a search); `limit`: how many are
 * shown; `more`: whether the server has more.
 * @typedef {{ username: string, query: URLSearchParams | null, limit: number, games: ExportedGame[] | null,
 *   more: boolean, error: ApiError | null, busy: boolean, seq: number }} SearchState
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** A date field's value (`2025-03-01`) for a time (ms), in local time. @param {number} ms */
function dateValue(ms) {
  const d = new Date(ms);
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/**
 * Moves as typed (`e2e4 e7e5`, `e2e4,e7e5`, or with move numbers as in
 * `1. e4 e5`) as the API takes them: comma separated.
 * @param {string} text
 */
export function movesParam(text) {
  return text.split(/[\s,]+/).filter((m) => m && !/^\d+\.+$/.test(m)).join(',');
}

/**
 * The form's search as the API's parameters: only the fields filled; the
 * dates as times (ms), from the start of the first day to the end of the
 * last, in local time.
 * @param {HTMLFormElement} form @returns {URLSearchParams}
 */
export function queryOf(form) {
  const data = new FormData(form);
  const field = (/** @type {string} */ name) => String(data.get(name) || '').trim();
  const q = new URLSearchParams();
  for (const name of PLAIN) if (field(name)) q.set(name, field(name));
  const play = movesParam(field('play'));
  if (play) q.set('play', play);
  const from = field('from');
  if (from) q.set('since', String(new Date(`${from}T00:00:00`).getTime()));
  const to = field('to');
  if (to) q.set('until', String(new Date(`${to}T23:59:59.999`).getTime()));
  return q;
}

/** Fills the form from a search (the address's). @param {HTMLFormElement} form @param {URLSearchParams} q */
function fillForm(form, q) {
  form.reset();
  const set = (/** @type {string} */ name, /** @type {string} */ value) => {
    const input = /** @type {HTMLInputElement | HTMLSelectElement | null} */ (form.elements.namedItem(name));
    if (input) input.value = value;
  };
  for (const name of PLAIN) set(name, q.get(name) || '');
  set('play', (q.get('play') || '').split(',').filter(Boolean).join(' '));
  const since = Number(q.get('since'));
  if (q.get('since') && Number.isFinite(since)) set('from', dateValue(since));
  const until = Number(q.get('until'));
  if (q.get('until') && Number.isFinite(until)) set('to', dateValue(until));
}

/** The search of an address's query (its search parameters only). @param {URLSearchParams} q */
export function searchOf(q) {
  const out = new URLSearchParams();
  for (const name of SEARCH_PARAMS) {
    const v = q.get(name);
    if (v) out.set(name, v);
  }
  return out;
}

/** A side's account (a guest's id is no user name: no profile). @param {ExportedSide} side */
const accountOf = (side) => (side.user && !side.user.id.startsWith('guest-') ? side.user.name : null);

/**
 * How the game ended for `username`'s player: `win`, `loss`, `draw`, or ''
 * (not theirs, or not ended).
 * @param {ExportedGame} g @param {string} username
 */
export function resultFor(g, username) {
  const me = username.toLowerCase();
  const color = g.players.white.user?.id === me ? 'white' : g.players.black.user?.id === me ? 'black' : null;
  if (!color || g.status === 'started' || g.status === 'aborted') return '';
  if (!g.winner) return 'draw';
  return g.winner === color ? 'win' : 'loss';
}

/** A found game's line: its players (links), then the game's link. @param {ExportedGame} g @param {string} username */
function row(g, username) {
  const li = el('li', 'profile-game');
  li.dataset.id = g.id;
  const result = resultFor(g, username);
  if (result) li.dataset.result = result;
  const side = (/** @type {ExportedSide} */ s) => ({ name: s.user ? s.user.name : (s.name || '?'), account: accountOf(s), title: s.user?.title });
  const who = el('span', 'profile-game-players');
  who.append(...sidesNodes(side(g.players.white), side(g.players.black)));
  const game = g.variant === 'standard' ? 'chess' : g.variant;
  const score = g.winner === 'white' ? '1-0' : g.winner === 'black' ? '0-1' : '½-½';
  const plies = g.moves ? g.moves.split(' ').length : 0;
  const parts = [
    t(`game.${game}`),
    t(`explorer.speed.${g.speed}`),
    t(g.rated ? 'game_search.rated.true' : 'game_search.rated.false'),
    result ? `${t(`game_search.result.${result}`)} ${score}` : score,
    plural('games.moves', Math.ceil(plies / 2)),
    new Date(g.createdAt).toLocaleDateString(document.documentElement.lang),
  ];
  const a = /** @type {HTMLAnchorElement} */ (el('a', 'profile-game-link', parts.join(' · ')));
  a.href = `#/game/${encodeURIComponent(g.id)}`;
  li.append(who, ' · ', a);
  return li;
}

/**
 * The search card of the profile page (its form is index.html's
 * `#form-gsearch`); `onQuery` is told each search made (null: cleared), for
 * the address to name it.
 * @param {{ onQuery: (username: string, query: URLSearchParams | null) => void }} deps
 */
export function createGameSearch({ onQuery }) {
  /** @type {SearchState} */
  const s = { username: '', query: null, limit: SEARCH_PAGE, games: null, more: false, error: null, busy: false, seq: 0 };
  const form = /** @type {HTMLFormElement} */ ($('#form-gsearch'));

  function render() {
    const err = s.error;
    const vs = s.query && s.query.get('vs');
    // The API's 404 names a player: here, the opponent asked for.
    const message = !err ? '' : err.status === 404 && vs ? t('game_search.no_player', { name: vs }) : serverError(err);
    $('#gsearch-error').textContent = message;
    $('#gsearch-error').classList.toggle('hidden', !message);
    const games = s.games;
    const status = s.busy ? t('game_search.searching') : !games ? '' : !games.length ? t('game_search.none')
      : s.more ? plural('game_search.first', games.length) : plural('game_search.found', games.length);
    $('#gsearch-status').textContent = status;
    $('#gsearch-status').classList.toggle('hidden', !status);
    $('#gsearch-results').replaceChildren(...(games || []).map((g) => row(g, s.username)));
    /** @type {HTMLButtonElement} */ ($('#gsearch-more')).disabled = s.busy;
    $('#gsearch-more').classList.toggle('hidden', !s.more);
    /** @type {HTMLButtonElement} */ ($('#gsearch-go')).disabled = s.busy;
    form.setAttribute('aria-busy', String(s.busy));
  }

  async function run() {
    const query = s.query;
    if (!query) return;
    const seq = ++s.seq;
    s.busy = true;
    s.error = null;
    render();
    const asked = new URLSearchParams(query);
    // One more than shown: whether there are more to show.
    asked.set('max', String(Math.min(s.limit + 1, SEARCH_MAX)));
    try {
      const games = await api.userGames(s.username, asked);
      if (seq !== s.seq) return;
      s.more = games.length > s.limit;
      s.games = games.slice(0, s.limit);
    } catch (e) {
      if (seq !== s.seq) return;
      s.error = /** @type {ApiError} */ (e);
      s.games = null;
      s.more = false;
    }
    s.busy = false;
    render();
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    s.query = queryOf(form);
    s.limit = SEARCH_PAGE;
    onQuery(s.username, s.query);
    run();
  });
  $('#gsearch-clear').addEventListener('click', () => {
    s.seq++;
    form.reset();
    Object.assign(s, { query: null, games: null, more: false, error: null, busy: false, limit: SEARCH_PAGE });
    onQuery(s.username, null);
    render();
  });
  $('#gsearch-more').addEventListener('click', () => {
    s.limit = Math.min(s.limit + SEARCH_PAGE, SEARCH_MAX);
    run();
  });

  return {
    /**
     * Shows `username`'s search: the address's (run at once), or an empty
     * form when it names none.
     * @param {string} username @param {URLSearchParams} address
     */
    show(username, address) {
      const query = searchOf(address);
      s.seq++;
      Object.assign(s, { username, games: null, more: false, error: null, busy: false, limit: SEARCH_PAGE });
      s.query = [...query.keys()].length ? query : null;
      fillForm(form, query);
      render();
      return run();
    },
    /** Stops waiting for an answer (the page is left). */
    leave() {
      s.seq++;
      s.busy = false;
    },
    /** Draws the results again (the language changed). */
    render,
  };
}
