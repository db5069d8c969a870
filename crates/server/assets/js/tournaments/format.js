// @ts-check
// How tournaments are said on the pages: their kind, clock, length and
// the time until they start or end, and the server's refusals.

import { t, plural, serverError, has, daysPerMove, playerName, lang } from '../i18n.js';
import { titleMark } from '../ui/title-mark.js';
import { el } from '../ui/el.js';

/** @typedef {import('../api.js').TournamentSummary} TournamentSummary */
/** @typedef {import('../api.js').ApiError} ApiError */
/** @typedef {import('../api.js').TournamentPlayer} TournamentPlayer */

/**
 * A tournament's name in the page's language: a scheduled one's own name
 * in it where the schedule gives one (`names`), else its name.
 * @param {TournamentSummary} s
 */
export const tourName = (s) => (s.names && s.names[lang()]) || s.name;

/** "3+2": minutes and seconds a move. @param {{ base_seconds: number, increment_seconds: number }} c */
export const clockText = (c) => t('tour.clock', { min: c.base_seconds / 60, inc: c.increment_seconds });

/** An arena's minutes, a Swiss's rounds (nothing for a round robin). @param {TournamentSummary} s */
export function lengthText(s) {
  if (s.minutes) return plural('tour.minutes', s.minutes);
  if (s.rounds) return plural('tour.rounds', s.rounds);
  return '';
}

/** "Arena · Chess · 3+2 · Rated · 30 minutes", then "Scheduled" for one the server's schedule made. @param {TournamentSummary} s */
export function termsText(s) {
  return [t(`tour.kind.${s.kind}`), t(`game.${s.variant}`), s.days ? daysPerMove(s.days) : clockText(s.clock), t(s.rated ? 'tour.rated' : 'tour.casual'), lengthText(s),
    s.scheduled ? t('tour.scheduled') : '']
    .filter(Boolean).join(' · ');
}

/** A span of time as a clock shows it: 1:05:09, 4:07, 0:09. @param {number} ms */
export function span(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/**
 * What the tournament's clock says now: the countdown to its start, to an
 * arena's end, the round, or that it is over.
 * @param {TournamentSummary & { round?: number }} s @param {number} now
 */
export function whenText(s, now) {
  if (s.state === 'upcoming') return s.starts_at > now ? t('tour.starts_in', { time: span(s.starts_at - now) }) : t('tour.starting');
  if (s.state === 'finished') return t('tour.over');
  if (s.ends_at) return s.ends_at > now ? t('tour.ends_in', { time: span(s.ends_at - now) }) : t('tour.ending');
  if (s.round && s.rounds) return t('tour.round_of', { round: s.round, rounds: s.rounds });
  return s.round ? t('tour.round', { round: s.round }) : '';
}

/** A date and time in the page's language. @param {number} ms */
export const dateTime = (ms) => new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A refusal of the tournament routes, said for tournaments where the
 * site-wide sentence would mislead ("Not allowed in this game").
 * @param {ApiError} err
 */
export function tourError(err) {
  const key = `tour.error.${err.kind}`;
  if (err.kind && has(key)) return t(key, { message: err.message });
  return serverError(err);
}

export { el };

/**
 * A player's name as the standings and pairings show it: a link to their
 * profile (an account's; a guest has none), after a BOT mark.
 * @param {TournamentPlayer} who @param {string} [cls]
 * @returns {(HTMLElement | string)[]}
 */
export function playerLink(who, cls = 'tour-player-name') {
  const name = who.account ? /** @type {HTMLAnchorElement} */ (el('a', cls, playerName(who.name))) : el('span', cls, playerName(who.name));
  if (who.account && name instanceof HTMLAnchorElement) name.href = `#/player/${encodeURIComponent(who.account)}`;
  return who.title ? [titleMark(who.title), ' ', name] : [name];
}

/** A Swiss's or round robin's half-points as a score: 3½. @param {number} half */
export const halfPoints = (half) => `${Math.floor(half / 2)}${half % 2 ? '½' : ''}`.replace(/^0½$/, '½');

/**
 * A player's result in a round as words: won, drawn, lost, by forfeit, being played.
 * @param {string} r `1`, `½`, `0`, `+`, `-` or `*`
 */
export function resultWords(r) {
  /** @type {Record<string, string>} */
  const keys = { '1': 'win', '½': 'draw', '0': 'loss', '+': 'forfeit_win', '-': 'forfeit_loss' };
  const key = keys[r] || 'playing';
  return t(`tour.res.${key}`);
}
