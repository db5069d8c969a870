// @ts-check
// A tournament's games: an arena's games going on, or a Swiss's and a
// round robin's rounds one by one (a button per round; the current round
// live, a past one asked for once: it does not change), with the round's
// byes. Each player's name links to their profile, each game is a link
// away, and a game lost by a first move not made says so, as the
// standings count it.

import { t, colorName, playerName } from '../i18n.js';
import { el, playerLink } from './format.js';
import { mark } from './standings.js';

/** @typedef {import('../api.js').TournamentView} TournamentView */
/** @typedef {import('../api.js').PairingView} PairingView */
/** @typedef {import('../api.js').RoundView} RoundView */
/** @typedef {import('../api.js').TournamentPlayer} TournamentPlayer */

/**
 * The rounds as the page has them: the round shown (null: the current
 * one), the past rounds asked for, and how to ask for one.
 * @typedef {{ shown: number | null, past: Map<number, RoundView | null>, ask: (round: number) => void }} RoundsState
 */

/** A game of the tournament. @param {PairingView} p */
export function pairingItem(p) {
  const li = el('li', 'tour-pairing');
  li.dataset.game = p.game;
  li.dataset.result = p.result;
  const side = (/** @type {TournamentPlayer} */ who, /** @type {boolean} */ berserk) => {
    const s = el('span', 'tour-side');
    s.append(...playerLink(who));
    if (berserk) {
      s.dataset.berserk = '1';
      s.append(' ', mark('berserk', t('tour.berserked')));
    }
    return s;
  };
  li.append(side(p.white, p.white_berserked), el('span', 'muted', ' – '), side(p.black, p.black_berserked), ' ');
  const going = p.result === '*' && !p.no_show;
  const a = /** @type {HTMLAnchorElement} */ (el('a', 'tour-game-link small', going ? t('tour.watch_game') : p.result));
  a.href = `#/game/${p.game}`;
  if (!going) a.setAttribute('aria-label', `${p.result}, ${t('tour.open_game')}`);
  li.append(a);
  if (p.no_show) li.append(' ', el('span', 'muted small tour-no-show', t('tour.no_show', { color: colorName(p.no_show) })));
  return li;
}

/**
 * The byes of the current round, from the lines shown (each carries its
 * crosstable line).
 * @param {TournamentView} v
 * @returns {{ player: TournamentPlayer, result: string }[]}
 */
function currentByes(v) {
  const own = v.you && v.you.standing;
  const lines = own && !v.standings.some((s) => s.player.id === own.player.id) ? [...v.standings, own] : v.standings;
  return lines.flatMap((s) => (s.rounds || [])
    .filter((c) => c.bye && c.round === v.round)
    .map((c) => ({ player: s.player, result: c.result })));
}

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/**
 * Draws the games card: an arena's games now; a Swiss's or round robin's
 * round shown, with the buttons of its rounds and its byes.
 * @param {TournamentView} v @param {RoundsState} rounds
 */
export function renderGames(v, rounds) {
  const nav = $('#tour-round-nav');
  const byRounds = v.kind !== 'arena' && !!v.round;
  nav.classList.toggle('hidden', !byRounds);
  const current = v.round || 0;
  const shown = byRounds && rounds.shown && rounds.shown < current ? rounds.shown : current;
  if (byRounds) {
    const buttons = [];
    for (let r = 1; r <= current; r++) {
      const b = /** @type {HTMLButtonElement} */ (el('button', 'tour-round-button', String(r)));
      b.type = 'button';
      b.dataset.round = String(r);
      b.setAttribute('aria-label', t('tour.round_button', { round: r }));
      b.setAttribute('aria-pressed', String(r === shown));
      b.addEventListener('click', () => rounds.ask(r));
      buttons.push(b);
    }
    nav.replaceChildren(...buttons);
    nav.setAttribute('aria-label', t('tour.rounds_nav'));
  }
  $('#tour-pairings-title').textContent = byRounds ? t('tour.round', { round: shown }) : t('tour.games_now');
  /** @type {PairingView[]} */
  let games = v.pairings;
  /** @type {{ player: TournamentPlayer, result: string }[]} */
  let byes = byRounds ? currentByes(v) : [];
  let missing = false;
  if (byRounds && shown !== current) {
    const past = rounds.past.get(shown);
    games = past ? past.pairings : [];
    byes = past ? past.byes : [];
    missing = !past;
  }
  $('#tour-pairings').replaceChildren(...games.map(pairingItem));
  $('#tour-pairings').dataset.round = byRounds ? String(shown) : '';
  const none = $('#tour-no-games');
  none.textContent = missing ? t('common.loading') : byRounds ? t('tour.no_round') : t('tour.no_games');
  none.classList.toggle('hidden', games.length > 0 || (byRounds && byes.length > 0));
  $('#tour-byes').classList.toggle('hidden', byes.length === 0);
  $('#tour-bye-list').replaceChildren(...byes.map((b) => {
    const li = el('li', 'tour-bye');
    li.dataset.player = b.player.name;
    const [lead, rest] = t('tour.bye_line', { name: '\u0000', points: b.result }).split('\u0000');
    li.append(lead, ...playerLink(b.player), rest || '');
    li.title = t('tour.bye_line', { name: playerName(b.player.name), points: b.result });
    return li;
  }));
}
