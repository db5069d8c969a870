// @ts-check
// "Your turn" in the header, on every page: how many correspondence games
// (days per move) wait for the player's move, as a link to the one with
// the least time left. Asked again when the player changes, when the page
// comes back into view, when the app's page changes, and when news of one
// of those games comes on the page's live connection (a move made).

import { t } from '../i18n.js';
import { social } from '../api.js';
/** @typedef {import('../api.js').Live} Live */
/** @typedef {import('../i18n.js').I18n} I18n */
/** @typedef {import('../player.js').Player} Player */

/**
 * Puts the link into the header (hidden while no game waits) and keeps it
 * current. Returns `refresh`, for a page that knows something changed.
 * @param {{ live: Live, i18n: I18n, player: Player }} deps `live`: the page's live connection
 * @returns {{ refresh: () => Promise<void> }}
 */
export function setupYourTurn({ live, i18n, player }) {
  /** @type {{ count: number, first: string | null, ids: Set<string>, soon: ReturnType<typeof setTimeout> | null }} */
  const state = { count: 0, first: null, ids: new Set(), soon: null };
  const link = document.createElement('a');
  link.id = 'your-turn';
  link.className = 'your-turn hidden';
  const tools = document.querySelector('header.top .header-tools');
  if (tools) tools.prepend(link);

  // The words, and the count alone for a phone's narrow header (the CSS
  // shows one of them); the label says it all to a screen reader.
  const words = document.createElement('span');
  words.className = 'your-turn-words';
  const count = document.createElement('span');
  count.className = 'your-turn-count';
  count.setAttribute('aria-hidden', 'true');
  link.append(words, count);

  function render() {
    link.classList.toggle('hidden', state.count === 0);
    words.textContent = t('corr.your_turn', { n: state.count });
    count.textContent = String(state.count);
    link.title = t('corr.your_turn_label', { n: state.count });
    link.setAttribute('aria-label', link.title);
    link.href = state.first ? `/#/game/${state.first}` : '/#/games';
  }

  async function refresh() {
    const r = await social.correspondence();
    if (!r.ok) return; // the link stays as it was
    state.count = r.value.your_turn;
    state.ids = new Set(r.value.games.map((g) => g.id));
    const first = r.value.games.find((g) => g.your_turn);
    state.first = first ? first.id : null;
    render();
  }

  player.onChange(() => { refresh(); });
  // A game of the list changed: asked again once its news has settled.
  live.listen((msg) => {
    if ((msg.type !== 'game' && msg.type !== 'move') || !state.ids.has(String(msg.topic).slice('game:'.length))) return;
    if (state.soon) clearTimeout(state.soon);
    state.soon = setTimeout(() => { state.soon = null; refresh(); }, 300);
  });
  i18n.onChange(render);
  window.addEventListener('hashchange', () => { refresh(); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  render();
  return { refresh };
}
