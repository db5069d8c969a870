// @ts-check
// A tournament's chat, for its players and whoever watches it: one room,
// the topic `chat:{id}:tournament` on the socket (its history first),
// drawn by the chat panel (ui/chat-panel.js) as a game's rooms are, with
// the server's limits, moderation and reports. Everyone reads it; accounts
// write, and guests who joined.

import { topicOf, tournaments } from '../api.js';
import { t } from '../i18n.js';
import {
  emptyPanel, panelParts, takeHistory, addLine, drawLines, drawForm, reportLine, wireForm,
} from '../ui/chat-panel.js';

/** @typedef {import('../api.js').ChatLine} ChatLine */
/** @typedef {import('../api.js').ChatView} ChatView */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/**
 * The tournament page's chat, on index.html's `#tour-chat`.
 * @param {{ live: import('../api.js').Live, i18n: import('../i18n.js').I18n, player: import('../player.js').Player }} deps
 */
export function createTournamentChat({ live, i18n, player }) {
  /** The tournament whose room is followed, and the room. */
  const st = { id: /** @type {string | null} */ (null), room: emptyPanel() };
  const parts = panelParts($('#tour-chat'));

  live.listen((msg) => {
    if (!st.id || topicOf(msg) !== `chat:${st.id}:tournament`) return;
    if (msg.type === 'chat_history') takeHistory(st.room, /** @type {ChatView} */ (msg.chat));
    else if (msg.type === 'chat') addLine(st.room, /** @type {ChatLine} */ (msg.line));
    render();
  });

  /** @type {import('../ui/chat-panel.js').LineWays} */
  const ways = {
    mine: (line) => st.room.mine.has(line.id) || (!!player.me && line.name === player.me.name),
    report: (line) => reportLine(parts, st.room, line, render),
  };

  function render() {
    const room = st.room;
    $('#tour-chat').dataset.lines = room.loaded ? String(room.lines.length) : '';
    drawLines(parts, room, room.lines, 'tournament', ways);
    parts.empty.classList.toggle('hidden', room.lines.length > 0 || !room.loaded);
    parts.empty.textContent = t('chat.empty');
    parts.log.setAttribute('aria-label', t('tour.chat'));
    drawForm(parts, room, t('chat.account_needed_tour'));
  }

  /** Follows tournament `id`'s room (null: none). @param {string | null} id */
  function follow(id) {
    if (id !== st.id) {
      st.id = id;
      st.room = emptyPanel();
      parts.input.value = '';
    }
    live.follow('tour-chat', id ? `chat:${id}:tournament` : null);
    render();
  }

  wireForm(parts, () => st.room, (text) => {
    const id = st.id;
    if (!id) return null;
    return { sent: tournaments.say(id, text), add: (line) => { if (st.id === id) addLine(st.room, line); } };
  }, render, 'chat.account_needed_tour');
  i18n.onChange(render);
  // Logged in or out: who may write changes, asked again.
  player.onChange(() => { if (st.id) live.refollow('tour-chat'); });

  return { follow };
}
