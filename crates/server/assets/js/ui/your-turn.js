// @ts-check
// "Your turn" in the header, on every page: how many correspondence games
// (days per move) wait for the player's move, as a link to the one with
// the least time left. Asked again when the player changes, when the page
// comes back into view, and when the app's page changes (after a move).

import { t, onLangChange } from '../i18n.js';
import { social } from '../api.js';
import { onPlayerChange } from '../player.js';

/** "3 days a move", in the player's language. @param {number} n */
export function daysPerMove(n) {
  return t(n === 1 ? 'corr.days_one' : n < 5 ? 'corr.days_few' : 'corr.days_many', { n });
}

/**
 * Puts the link into the header (hidden while no game waits) and keeps it
 * current. Returns `refresh`, for a page that knows something changed.
 * @returns {{ refresh: () => Promise<void> }}
 */
export function setupYourTurn() {
  /** @type {{ count: number, first: string | null }} */
  const state = { count: 0, first: null };
  const link = document.createElement('a');
  link.id = 'your-turn';
  link.className = 'your-turn hidden';
  const tools = document.querySelector('header.top .header-tools');
  if (tools) tools.prepend(link);

  function render() {
    link.classList.toggle('hidden', state.count === 0);
    link.textContent = t('corr.your_turn', { n: state.count });
    link.setAttribute('aria-label', t('corr.your_turn_label', { n: state.count }));
    link.href = state.first ? `/#/game/${state.first}` : '/#/games';
  }

  async function refresh() {
    const r = await social.correspondence();
    if (!r.ok) return; // the link stays as it was
    state.count = r.value.your_turn;
    const first = r.value.games.find((g) => g.your_turn);
    state.first = first ? first.id : null;
    render();
  }

  onPlayerChange(() => { refresh(); });
  onLangChange(render);
  window.addEventListener('hashchange', () => { refresh(); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  render();
  return { refresh };
}
