// @ts-check
// A tournament's standings as a table: rank, player (with rating, a fire
// mark while on fire, withdrawn or paused), the points of each game in a
// row of small digits as lichess shows them (a doubled game, on fire, in
// orange; a berserked win marked), and the score; and the podium.

import { t, playerName } from '../i18n.js';
import { el } from './format.js';
import { titleMark } from '../ui/title-mark.js';

/** @typedef {import('../api.js').TournamentView} TournamentView */
/** @typedef {import('../api.js').StandingView} StandingView */

// Drawn marks (emoji fonts are not everywhere): a flame, a lightning bolt.
const FLAME = 'M12 2c1 4 5 6 5 11a5 5 0 0 1-10 0c0-2 1-4 2-5 0 2 1 3 2 3 0-3-1-6 1-9z';
const BOLT = 'M13 2 4 14h6l-1 8 9-12h-6z';

/**
 * A drawn mark with its words for those who do not see it.
 * @param {'fire' | 'berserk'} kind @param {string} words
 */
export function mark(kind, words) {
  const span = el('span', `tour-mark tour-${kind}`);
  span.innerHTML = `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="${kind === 'fire' ? FLAME : BOLT}"/></svg>`;
  span.title = words;
  span.append(el('span', 'visually-hidden', ` (${words})`));
  return span;
}

/** A Swiss's or round robin's half-points as a score: 3½. @param {number} half */
export const halfPoints = (half) => `${Math.floor(half / 2)}${half % 2 ? '½' : ''}`.replace(/^0½$/, '½');

/** The games of one line: an arena's sheet, or a Swiss's results. @param {TournamentView} v @param {StandingView} s */
function sheet(v, s) {
  const cell = el('td', 'tour-sheet');
  if (v.kind === 'arena') {
    for (const g of s.sheet) {
      const d = el('span', `tour-digit${g.fire ? ' fire' : ''}${g.berserk ? ' berserk' : ''}`, String(g.points));
      const words = [g.fire ? t('tour.fire_game') : '', g.berserk ? t('tour.berserk_game') : ''].filter(Boolean).join(', ');
      if (words) {
        d.title = words;
        d.append(el('span', 'visually-hidden', ` (${words})`));
      }
      cell.append(d);
    }
  } else {
    for (const r of s.points_line.split(' ').filter(Boolean)) cell.append(el('span', 'tour-digit', r));
  }
  return cell;
}

/**
 * Fills `body` with the standings; `me` is the player's id (their line marked).
 * @param {HTMLElement} body @param {TournamentView} v @param {string | null} me
 */
export function renderStandings(body, v, me) {
  // The topic's news carries the first lines: the player's own follows them.
  const own = v.you && v.you.standing;
  const lines = own && !v.standings.some((s) => s.player.id === own.player.id) ? [...v.standings, own] : v.standings;
  body.replaceChildren(...lines.map((s) => {
    const tr = el('tr');
    tr.dataset.player = s.player.name;
    tr.dataset.points = String(s.points);
    if (s.player.id === me) tr.classList.add('mine');
    if (s.withdrawn) tr.classList.add('withdrawn');
    const rank = el('td', 'tour-rank', String(s.rank));
    const who = el('th', 'tour-player');
    who.setAttribute('scope', 'row');
    if (s.player.title) who.append(titleMark(s.player.title), ' ');
    who.append(el('span', 'tour-player-name', playerName(s.player.name)));
    if (s.player.id === me) who.append(' ', el('span', 'muted small', t('tour.you')));
    if (s.on_fire) who.append(' ', mark('fire', t('tour.on_fire')));
    const rating = el('span', 'tour-rating muted small', String(s.rating));
    rating.title = t('tour.rating', { rating: s.rating });
    who.append(' ', rating);
    if (s.withdrawn || s.paused) who.append(' ', el('span', 'tour-flag small', t(s.withdrawn ? 'tour.withdrawn' : 'tour.paused')));
    const score = el('td', 'tour-score', v.kind === 'arena' ? String(s.points) : halfPoints(s.points));
    tr.append(rank, who, sheet(v, s), score);
    return tr;
  }));
}

/** The first three, once it is over. @param {HTMLElement} list @param {TournamentView} v */
export function renderPodium(list, v) {
  list.replaceChildren(...v.standings.slice(0, 3).map((s, i) => {
    const li = el('li', `tour-place place-${i + 1}`);
    li.append(el('span', 'tour-place-n', t('tour.place', { n: i + 1 })), ' ',
      ...(s.player.title ? [titleMark(s.player.title), ' '] : []),
      el('strong', '', playerName(s.player.name)), ' ',
      el('span', 'muted', v.kind === 'arena' ? String(s.points) : halfPoints(s.points)));
    return li;
  }));
}
