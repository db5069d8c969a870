// @ts-check
// The home page's "now" (issue 41): how many players are online and how
// many games are being played (the presence every server shares), one
// game being played now moving live (the featured game, lichess's TV: the
// highest-rated game in progress, with its players' names), the
// tournaments running and starting soon, and the puzzle of the day.
// Asked again every 30 s while the home page is shown; the featured game
// follows its topic (its moves come as they are played).

import { api, call, topicOf } from '../api.js';
import { Board } from '../board.js';
import { t, plural, playerName, nameLink } from '../i18n.js';
import { tourName, termsText, whenText, el } from '../tournaments/format.js';

/** @typedef {import('../api.js').SiteView} SiteView */
/** @typedef {import('../api.js').Live} Live */
/** @typedef {import('../api.js').TournamentSummary} TournamentSummary */

/** How often the counts are asked again while the home page is shown (ms). */
const EVERY = 30000;

/**
 * @typedef {{ live: Live, site: SiteView | null, shown: boolean, featured: Board | null, puzzle: Board | null,
 *   featuredId: string | null, puzzleId: string | null, timer: ReturnType<typeof setInterval> | undefined,
 *   loading: boolean, again: boolean, seq: number, counted: boolean }} NowState
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/**
 * The home page's "now", drawn into `#site-now`; `show()` when the home
 * page is shown, `hide()` when it is left.
 * @param {{ live: Live, i18n: import('../i18n.js').I18n }} deps
 */
export function createNow({ live, i18n }) {
  /** @type {NowState} */
  const now = {
    live, site: null, shown: false, featured: null, puzzle: null, featuredId: null, puzzleId: null,
    timer: undefined, loading: false, again: false, seq: 0, counted: false,
  };
  // This page counts among the players online once its connection is
  // open: the first message heard on it proves so, and the counts are
  // asked again then (the first answer may have come before).
  live.onStatus((up) => { if (!up) now.counted = false; });
  live.listen((msg) => {
    if (!now.counted) {
      now.counted = true;
      if (now.shown) load(now);
    }
    if (!now.featuredId || topicOf(msg) !== `game:${now.featuredId}`) return;
    if (msg.type === 'move' || msg.type === 'game') drawFeatured(now);
  });
  i18n.onChange(() => render(now));
  return {
    /** The boards (redrawn on a change of theme). */
    boards: () => [now.featured, now.puzzle].filter((b) => !!b),
    show() {
      now.shown = true;
      load(now);
      clearInterval(now.timer);
      now.timer = setInterval(() => load(now), EVERY);
    },
    hide() {
      now.shown = false;
      clearInterval(now.timer);
      live.follow('featured', null);
    },
  };
}

/** Asks the server what is going on. @param {NowState} now */
async function load(now) {
  const seq = ++now.seq;
  const r = await call('GET', '/api/site');
  if (seq !== now.seq || !now.shown) return;
  if (r.ok) now.site = /** @type {SiteView} */ (r.value);
  render(now);
  const id = now.site && now.site.featured ? now.site.featured.id : null;
  if (id !== now.featuredId) {
    now.featuredId = id;
    if (id) drawFeatured(now);
  }
  // Followed while shown: its moves come as they are played.
  now.live.follow('featured', id ? `game:${id}` : null);
  const puzzle = now.site && now.site.puzzle;
  if (puzzle && puzzle.id !== now.puzzleId) {
    now.puzzleId = puzzle.id;
    drawPuzzle(now);
  }
  const box = $('#site-now');
  box.dataset.ready = '1';
  box.dataset.featured = id || '';
}

/** @param {NowState} now */
function render(now) {
  const s = now.site;
  const counts = $('#now-counts');
  counts.textContent = s ? `${plural('now.players', s.players_online)} · ${plural('now.games', s.games_playing)}` : '';
  counts.dataset.players = s ? String(s.players_online) : '';
  counts.dataset.games = s ? String(s.games_playing) : '';
  const f = s && s.featured;
  $('#featured').classList.toggle('hidden', !f);
  $('#featured-none').classList.toggle('hidden', !!f);
  if (f) {
    $('#featured-white').replaceChildren(...seatNodes(f.white, f.white_account, f.white_rating));
    $('#featured-black').replaceChildren(...seatNodes(f.black, f.black_account, f.black_rating));
    /** @type {HTMLAnchorElement} */ ($('#featured-watch')).href = `#/game/${f.id}`;
    $('#featured-watch').setAttribute('aria-label', t('now.watch_game', { white: playerName(f.white), black: playerName(f.black) }));
  }
  /** @type {TournamentSummary[]} */
  const tours = s ? [...s.tournaments_running, ...s.tournaments_upcoming] : [];
  const at = Date.now();
  $('#now-tournaments').replaceChildren(...tours.map((x) => {
    const li = el('li', 'tour-item');
    li.dataset.id = x.id;
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'tour-item-name', tourName(x)));
    a.href = `#/tournament/${x.id}`;
    li.append(a, el('span', 'muted small', termsText(x)), el('span', 'tour-when small', whenText(x, at)));
    return li;
  }));
  $('#now-no-tournaments').classList.toggle('hidden', !s || tours.length > 0);
  const p = s && s.puzzle;
  $('#puzzle-day').classList.toggle('hidden', !p);
  if (p) {
    $('#puzzle-day-text').textContent = t(p.solver === 'black' ? 'now.puzzle_black' : 'now.puzzle_white', { rating: p.rating });
    /** @type {HTMLAnchorElement} */ ($('#puzzle-day-link')).href = `/puzzles.html#${encodeURIComponent(p.id)}`;
  }
}

/**
 * A player's name (a link to the profile of an account) with their rating.
 * @param {string} name @param {string | null | undefined} account @param {number | null} rating
 * @returns {(Node | string)[]}
 */
function seatNodes(name, account, rating) {
  return rating ? [nameLink(name, account), ` (${rating})`] : [nameLink(name, account)];
}

/** The featured game's position, as the server has it now. @param {NowState} now */
async function drawFeatured(now) {
  if (now.loading) {
    now.again = true;
    return;
  }
  const id = now.featuredId;
  if (!id) return;
  now.loading = true;
  try {
    const g = await api.game(id).catch(() => null);
    if (!g || id !== now.featuredId) return;
    if (!now.featured) now.featured = new Board($('#featured-board'), { label: t('now.featured'), coords: false, small: true });
    const b = now.featured;
    b.setGeometry(g.position.geometry);
    const last = g.moves.length ? g.moves[g.moves.length - 1] : null;
    b.setPosition({ fen: g.position.fen, variant: g.variant, legal: [], movable: [], check: g.position.check, last: last ? last.path : null, hands: g.position.rules.hands ? g.position.hands : null });
    b.container.dataset.ply = String(g.moves.length);
    b.container.dataset.game = g.id;
    // A game over: another is asked for (the server keeps its reading a few seconds).
    if (g.end && now.shown) setTimeout(() => load(now), 4000);
  } finally {
    now.loading = false;
    if (now.again) {
      now.again = false;
      drawFeatured(now);
    }
  }
}

/** The puzzle of the day's position, the solver's side at the bottom. @param {NowState} now */
async function drawPuzzle(now) {
  const p = now.site && now.site.puzzle;
  if (!p) return;
  const r = await api.position(p.variant, p.fen).catch(() => null);
  if (!r) return;
  if (!now.puzzle) now.puzzle = new Board($('#puzzle-day-board'), { label: t('now.puzzle'), coords: false, small: true });
  const b = now.puzzle;
  b.setGeometry(r.position.geometry);
  b.setOrientation(p.solver === 'black' ? 'black' : 'white');
  b.setPosition({ fen: r.position.fen, variant: p.variant, legal: [], movable: [], check: null, last: null, hands: r.position.rules.hands ? r.position.hands : null });
}
