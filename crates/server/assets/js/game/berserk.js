// @ts-check
// A tournament game on the game page: a link back to its tournament, and
// in an arena game the Berserk button for the player (before their first
// move, when the clock has an initial time: half their time, no increment;
// POST /api/games/ID/berserk), then who berserked. The tournament is asked
// once per game (GET /api/games/ID/tournament: null for any other game).

import { tournaments } from '../api.js';
import { t, colorArgs, serverError, lang } from '../i18n.js';
import { toast } from '../ui/notice.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').GameTournament} GameTournament */

/**
 * What this part knows: the game asked about and its tournament (null:
 * none, or not known yet), and a berserk on its way.
 * @typedef {{ game: string | null, tournament: GameTournament | null, sending: boolean }} BerserkState
 */

/**
 * Puts the tournament's box into the online panel; `sync(g, seat)` after
 * every render, `onView` takes the game the server answers a berserk with.
 * @param {{ onView: (v: GameView) => void }} deps
 */
export function createBerserk({ onView }) {
  /** @type {BerserkState} */
  const st = { game: null, tournament: null, sending: false };
  const box = document.createElement('div');
  box.id = 'tournament-game';
  box.className = 'tournament-game hidden';
  const link = document.createElement('a');
  link.id = 'tournament-game-link';
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'btn-berserk';
  button.className = 'berserk-button hidden';
  const note = document.createElement('p');
  note.id = 'berserk-note';
  note.className = 'muted small hidden';
  box.append(link, button, note);
  const panel = document.querySelector('#online-panel');
  if (panel) panel.prepend(box);
  /** @type {{ g: GameView | null, seat: string | null }} */
  const last = { g: null, seat: null };

  button.addEventListener('click', async () => {
    const g = last.g;
    if (!g || st.sending) return;
    st.sending = true;
    button.disabled = true;
    const r = await tournaments.berserk(g.id);
    st.sending = false;
    button.disabled = false;
    if (r.ok) onView(r.value);
    else toast(t('tour.berserk'), serverError(r.error), 'error');
  });

  /** @param {GameView} g @param {string | null} seat */
  function sync(g, seat) {
    last.g = g;
    last.seat = seat;
    if (st.game !== g.id) {
      st.game = g.id;
      st.tournament = null;
      if (g.online) {
        const id = g.id;
        tournaments.ofGame(id).then((r) => {
          if (st.game !== id || !r.ok) return;
          st.tournament = r.value;
          if (last.g && last.g.id === id) render(last.g, last.seat);
        });
      }
    }
    render(g, seat);
  }

  /** @param {GameView} g @param {string | null} seat */
  function render(g, seat) {
    const tour = st.tournament;
    box.classList.toggle('hidden', !tour || !g.online);
    document.body.dataset.tournamentGame = tour ? tour.id : '';
    if (!tour || !g.online) return;
    link.href = `#/tournament/${tour.id}`;
    link.textContent = t('tour.link', { kind: t(`tour.kind.${tour.kind}`), name: (tour.names && tour.names[lang()]) || tour.name });
    const o = g.online;
    /** @type {boolean[]} */
    const berserked = o.berserked ? [...o.berserked] : [false, false];
    const mineIdx = seat === 'white' ? 0 : seat === 'black' ? 1 : -1;
    // Before one's first move (White's is ply 1, Black's ply 2), with an initial time.
    const notMoved = mineIdx >= 0 && g.moves.length <= mineIdx;
    const can = tour.kind === 'arena' && mineIdx >= 0 && !g.end && notMoved && !berserked[mineIdx]
      && !!o.clock && o.clock.base_ms > 0 && !o.clock.days;
    button.classList.toggle('hidden', !can);
    button.textContent = t('tour.berserk');
    button.title = t('tour.berserk_title');
    const said = [];
    if (mineIdx >= 0 && berserked[mineIdx]) said.push(t('tour.berserk_done'));
    for (const [i, color] of /** @type {const} */ ([[0, 'white'], [1, 'black']])) {
      if (berserked[i] && i !== mineIdx) said.push(t('tour.berserk_other', colorArgs(color)));
    }
    note.textContent = said.join(' ');
    note.classList.toggle('hidden', said.length === 0);
  }

  return { sync };
}
