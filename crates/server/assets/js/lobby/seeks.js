// @ts-check
// The lobby's rules, without a page or a server (unit/lobby.test.mjs):
// the quick pairings, which open seek a quick pairing takes, what it posts
// when none fits, and how seeks and ratings read.

import { frozen } from '../frozen.js';

/** @typedef {import('../api.js').SeekView} SeekView */
/** @typedef {import('../api.js').SeekRequest} SeekRequest */
/** @typedef {import('../api.js').ClockSpec} ClockSpec */
/** @typedef {{ id: string, variant: import('../generated/events.js').VariantKind, clock: ClockSpec }} QuickPairing */
/** @typedef {{ id: string, account: string | null }} Who */

/** @param {import('../generated/events.js').VariantKind} variant @param {number} minutes @param {number} increment @returns {QuickPairing} */
const quick = (variant, minutes, increment) => ({
  id: `${variant}-${minutes}+${increment}`,
  variant,
  clock: { base_seconds: minutes * 60, increment_seconds: increment },
});

/** The lobby's quick-pairing buttons, in their order on the page. */
export const QUICK_PAIRINGS = frozen([
  quick('tensor', 3, 2),
  quick('tensor', 5, 3),
  quick('tensor', 10, 5),
  quick('tensor', 15, 10),
  quick('chess', 5, 3),
  quick('chessence', 10, 5),
]);

/** @param {ClockSpec | null} a @param {ClockSpec | null} b */
export function sameClock(a, b) {
  if (!a || !b) return !a && !b;
  return a.base_seconds === b.base_seconds && a.increment_seconds === b.increment_seconds;
}

/** Whether a seek is for a quick pairing's game and clock (any colour, rated or not). @param {SeekView} seek @param {QuickPairing} q */
export const hasTerms = (seek, q) => seek.variant === q.variant && sameClock(seek.clock, q.clock);

/**
 * The open seek a quick pairing accepts: someone else's, for its game and
 * clock, the oldest first. Rated seeks only for a player with an account
 * (the server refuses the others), who takes a rated one before a casual one.
 * @param {SeekView[]} seeks @param {QuickPairing} q @param {Who} me
 * @returns {SeekView | null}
 */
export function quickMatch(seeks, q, me) {
  const fits = seeks
    .filter((s) => s.player.id !== me.id && hasTerms(s, q) && (!s.rated || !!me.account))
    .sort((a, b) => a.created_at - b.created_at);
  return (me.account && fits.find((s) => s.rated)) || fits[0] || null;
}

/**
 * This player's own open seek for a quick pairing's terms: while it is
 * open, the button waits, and pressing it again cancels the seek.
 * @param {SeekView[]} seeks @param {QuickPairing} q @param {string | null} myId
 */
export const mySeekFor = (seeks, q, myId) => seeks.find((s) => s.player.id === myId && hasTerms(s, q)) || null;

/** The seek a quick pairing posts when none fits: rated for a player with an account. @param {QuickPairing} q @param {Who} me @returns {SeekRequest} */
export const quickSeek = (q, me) => ({ variant: q.variant, clock: { ...q.clock }, rated: !!me.account, color: 'random' });

/** This player's open seeks. @param {SeekView[]} seeks @param {string | null} myId */
export const mySeeks = (seeks, myId) => seeks.filter((s) => s.player.id === myId);

/**
 * The seeks as the lobby lists them: this player's own first, then the
 * others, oldest first (the longest waiting at the top).
 * @param {SeekView[]} seeks @param {string | null} myId
 */
export function listed(seeks, myId) {
  const mine = (/** @type {SeekView} */ s) => (s.player.id === myId ? 0 : 1);
  return [...seeks].sort((a, b) => mine(a) - mine(b) || a.created_at - b.created_at);
}

/** Minutes as written in a time control: 5, 1.5, 0.25. @param {number} seconds */
const minutes = (seconds) => String(Math.round((seconds / 60) * 100) / 100);

/** A clock in its short form, "5+3" (minutes + seconds a move); null without a clock. @param {ClockSpec | null} clock */
export const clockShort = (clock) => (clock ? `${minutes(clock.base_seconds)}+${clock.increment_seconds}` : null);

/** @param {ClockSpec | null} clock */
export const clockMinutes = (clock) => (clock ? minutes(clock.base_seconds) : '');

/** The colour the player who accepts a seek plays. @param {'white' | 'black' | 'random'} creator @returns {'white' | 'black' | 'random'} */
export const acceptorColor = (creator) => (creator === 'white' ? 'black' : creator === 'black' ? 'white' : 'random');
