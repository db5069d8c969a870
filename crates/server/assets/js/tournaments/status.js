// @ts-check
// What the tournament page tells its player of their own entry: that
// they play (and where), or that they wait and why — paired when it
// starts, when a board is free (an arena), when the round's games have
// ended (a Swiss, a round robin: after their game, a bye, or joining
// late), paused until they join again, withdrawn.

import { t } from '../i18n.js';

/** @typedef {import('../api.js').TournamentView} TournamentView */
/** @typedef {import('../api.js').StandingView} StandingView */

/**
 * The player's note: its words, and the game they play now, if any.
 * @param {TournamentView} v @param {StandingView | null} me
 * @returns {{ text: string, game: string | null }}
 */
export function entryNote(v, me) {
  const note = (/** @type {string} */ text, game = /** @type {string | null} */ (null)) => ({ text, game });
  if (!me || v.state === 'finished') return note('');
  if (me.withdrawn) return note(t('tour.you_withdrew'));
  if (me.playing) return note(t('tour.playing_now'), me.playing);
  if (me.paused) return note(t('tour.you_paused'));
  if (v.state === 'upcoming') return note(t('tour.wait_start'));
  if (v.kind === 'arena') return note(v.ends_at && v.ends_at <= Date.now() ? t('tour.wait_over') : t('tour.wait_board'));
  const round = v.round || 0;
  const cell = (me.rounds || []).find((c) => c.round === round);
  if (!cell) return note(t('tour.wait_next', { round }));
  if (cell.bye) return note(t('tour.wait_bye', { round, points: cell.result }));
  return note(t('tour.wait_round', { round }));
}
