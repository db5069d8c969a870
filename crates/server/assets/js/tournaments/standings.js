// @ts-check
// A tournament's standings as a table: rank, player (their name a link to
// their profile, with rating, a fire mark while on fire, withdrawn or
// paused), then an arena's points of each game in a row of small digits as
// lichess shows them (a doubled game, on fire, in orange; a berserk win's
// +1 marked) — the line, clicked, shows the player's games under it — or a
// Swiss's or round robin's crosstable line, round by round (the opponent's
// rank, the colour and the result, or a bye); and the score. Then the
// podium.

import { t, plural, colorName, playerName } from '../i18n.js';
import { el, playerLink, halfPoints, resultWords } from './format.js';

/** @typedef {import('../api.js').TournamentView} TournamentView */
/** @typedef {import('../api.js').StandingView} StandingView */
/** @typedef {import('../api.js').RoundCell} RoundCell */
/** @typedef {import('../api.js').PlayerGames} PlayerGames */
/** @typedef {import('../api.js').PlayerGame} PlayerGame */

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

/**
 * Text seen, with other words for screen readers.
 * @param {HTMLElement} node @param {string} seen @param {string} words
 */
function spoken(node, seen, words) {
  const shown = el('span', '', seen);
  shown.setAttribute('aria-hidden', 'true');
  node.append(shown, el('span', 'visually-hidden', words));
  node.title = words;
  return node;
}

/** An arena game's points, marked as lichess marks them. @param {import('../api.js').SheetMark} g */
function digit(g) {
  // The berserk mark is for the point it earned only (`berserk` alone: berserked).
  const d = el('span', `tour-digit${g.fire ? ' fire' : ''}${g.berserk_bonus ? ' berserk' : ''}`, String(g.points));
  const words = [g.fire ? t('tour.fire_game') : '', g.berserk_bonus ? t('tour.berserk_game') : ''].filter(Boolean).join(', ');
  if (words) {
    d.title = words;
    d.append(el('span', 'visually-hidden', ` (${words})`));
  }
  return d;
}

/**
 * One round of a crosstable line: the opponent's rank over the result, on
 * the colour played (a link to the game), or a bye.
 * @param {RoundCell} c @param {Map<number, string>} names the shown players' names by rank
 */
function roundCell(c, names) {
  const cell = c.game ? /** @type {HTMLAnchorElement} */ (el('a', 'tour-cell')) : el('span', 'tour-cell');
  if (cell instanceof HTMLAnchorElement && c.game) cell.href = `#/game/${c.game}`;
  if (c.color) cell.classList.add(c.color);
  if (c.bye) cell.classList.add('bye');
  cell.dataset.round = String(c.round);
  cell.dataset.result = c.result;
  const rank = c.opponent;
  const name = rank ? names.get(rank) : undefined;
  const opponent = rank ? (name ? t('tour.opponent_named', { rank, name }) : t('tour.opponent', { rank })) : '';
  const words = c.bye
    ? t('tour.cell_bye', { round: c.round, points: c.result })
    : t('tour.cell_game', { round: c.round, color: colorName(c.color || 'white'), opponent, result: resultWords(c.result) });
  const shown = el('span', 'tour-cell-seen');
  shown.setAttribute('aria-hidden', 'true');
  shown.append(el('span', 'tour-cell-opp', c.bye ? t('tour.bye') : String(rank || '?')), el('span', 'tour-cell-res', c.result));
  cell.append(shown, el('span', 'visually-hidden', words));
  cell.title = words;
  return cell;
}

/**
 * The games of one line: an arena's sheet (a button that opens the
 * player's games), or a Swiss's crosstable line.
 * @param {TournamentView} v @param {StandingView} s @param {Map<number, string>} names
 * @param {boolean} open @param {(s: StandingView) => void} toggle
 */
function sheet(v, s, names, open, toggle) {
  const cell = el('td', 'tour-sheet');
  if (v.kind === 'arena') {
    const b = /** @type {HTMLButtonElement} */ (el('button', 'tour-sheet-button'));
    b.type = 'button';
    b.setAttribute('aria-expanded', String(open));
    b.append(el('span', 'visually-hidden', `${t('tour.show_games', { name: playerName(s.player.name) })}: `), ...s.sheet.map(digit));
    b.addEventListener('click', () => toggle(s));
    cell.append(b);
  } else {
    cell.append(...(s.rounds || []).map((c) => roundCell(c, names)));
  }
  return cell;
}

/**
 * A player's games, under their line: each game's result, colour and
 * opponent, its points (an arena's), a link to it.
 * @param {TournamentView} v @param {StandingView} s @param {PlayerGames | null} games
 */
function gamesRow(v, s, games) {
  const tr = el('tr', 'tour-games-row');
  tr.dataset.gamesOf = s.player.name;
  const td = el('td');
  td.setAttribute('colspan', '4');
  const list = el('ol', 'tour-player-games');
  list.setAttribute('aria-label', t('tour.games_of', { name: playerName(s.player.name) }));
  if (!games) {
    td.append(el('p', 'muted small', t('common.loading')));
  } else if (!games.games.length) {
    td.append(el('p', 'muted small', t('tour.no_player_games')));
  } else {
    list.append(...games.games.map((g) => playerGame(v, g)));
    td.append(list);
  }
  tr.append(td);
  return tr;
}

/** @param {TournamentView} v @param {PlayerGame} g */
function playerGame(v, g) {
  const li = el('li', 'tour-player-game');
  li.dataset.game = g.game;
  li.dataset.result = g.result;
  li.append(spoken(el('span', 'tour-game-result'), g.result, resultWords(g.result)), ' ');
  const [lead, rest] = t('tour.player_game', { color: colorName(g.color), opponent: '\u0000' }).split('\u0000');
  li.append(lead, ...playerLink(g.opponent, 'tour-opponent'), rest || '');
  if (g.sheet) {
    li.append(' ', digit(g.sheet));
    li.append(el('span', 'visually-hidden', ` ${plural('tour.points_mark', g.sheet.points)}`));
  }
  if (g.no_show) li.append(' ', el('span', 'muted small', t('tour.no_show', { color: colorName(g.no_show) })));
  if (g.berserked && v.kind === 'arena') li.append(' ', mark('berserk', t('tour.berserked')));
  const a = /** @type {HTMLAnchorElement} */ (el('a', 'tour-game-link small', g.result === '*' ? t('tour.watch_game') : t('tour.open_game')));
  a.href = `#/game/${g.game}`;
  li.append(' ', a);
  return li;
}

/**
 * What the standings open: the player whose games show under their line
 * (their id), those games once asked for, and what a click on a line does.
 * @typedef {{ player: string | null, games: PlayerGames | null, toggle: (s: StandingView) => void }} OpenLine
 */

/**
 * Fills `body` with the standings; `me` is the player's id (their line marked).
 * @param {HTMLElement} body @param {TournamentView} v @param {string | null} me @param {OpenLine} open
 */
export function renderStandings(body, v, me, open) {
  // The topic's news carries the first lines: the player's own follows them.
  const own = v.you && v.you.standing;
  const lines = own && !v.standings.some((s) => s.player.id === own.player.id) ? [...v.standings, own] : v.standings;
  const names = new Map(lines.map((s) => [s.rank, playerName(s.player.name)]));
  const over = v.state === 'finished';
  /** @type {HTMLElement[]} */
  const rows = [];
  for (const s of lines) {
    const tr = el('tr');
    tr.dataset.player = s.player.name;
    tr.dataset.id = s.player.id;
    tr.dataset.points = String(s.points);
    if (s.player.id === me) tr.classList.add('mine');
    if (s.withdrawn) tr.classList.add('withdrawn');
    const rank = el('td', 'tour-rank', String(s.rank));
    const who = el('th', 'tour-player');
    who.setAttribute('scope', 'row');
    who.append(...playerLink(s.player));
    if (s.player.id === me) who.append(' ', el('span', 'muted small', t('tour.you')));
    // Nobody is on fire once it is over: there is no next game.
    if (s.on_fire && !over) who.append(' ', mark('fire', t('tour.on_fire')));
    const rating = el('span', 'tour-rating muted small', String(s.rating));
    rating.title = t('tour.rating', { rating: s.rating });
    who.append(' ', rating);
    // A pause means nothing once it is over; a withdrawal still says why a line stopped.
    if (s.withdrawn || (s.paused && !over)) who.append(' ', el('span', 'tour-flag small', t(s.withdrawn ? 'tour.withdrawn' : 'tour.paused')));
    const score = el('td', 'tour-score', v.kind === 'arena' ? String(s.points) : halfPoints(s.points));
    const opened = v.kind === 'arena' && open.player === s.player.id;
    tr.append(rank, who, sheet(v, s, names, opened, open.toggle), score);
    if (v.kind === 'arena') {
      // A click anywhere on the line but a link opens it too.
      tr.classList.add('tour-openable');
      tr.addEventListener('click', (e) => {
        const target = /** @type {HTMLElement} */ (e.target);
        if (!target.closest('a, button')) open.toggle(s);
      });
    }
    rows.push(tr);
    if (opened) rows.push(gamesRow(v, s, open.games));
  }
  body.replaceChildren(...rows);
}

/** The first three, once it is over. @param {HTMLElement} list @param {TournamentView} v */
export function renderPodium(list, v) {
  list.replaceChildren(...v.standings.slice(0, 3).map((s, i) => {
    const li = el('li', `tour-place place-${i + 1}`);
    const name = el('strong');
    name.append(...playerLink(s.player));
    li.append(el('span', 'tour-place-n', t('tour.place', { n: i + 1 })), ' ', name, ' ',
      el('span', 'muted', v.kind === 'arena' ? String(s.points) : halfPoints(s.points)));
    return li;
  }));
}
