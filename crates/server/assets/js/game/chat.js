// @ts-check
// The game chat of online games (createChat, made by the game page): the
// players' room (theirs alone) while the game runs, the spectators' room
// for everyone else; once the game is over the players read and write
// both, as two tabs. Lines arrive on the WebSocket topics
// `chat:{id}:{room}` (the room's history first); each room is drawn by the
// chat panel (ui/chat-panel.js: text as text, reports, the form). A player
// may mute the other side (remembered by the server, which then leaves
// their lines out of the history; the page hides the new ones).

import { social, topicOf } from '../api.js';
import { t, plural, serverError } from '../i18n.js';
import { frozen } from '../frozen.js';
import {
  emptyPanel, panelParts, takeHistory, addLine, drawLines, drawForm, reportLine, wireForm,
} from '../ui/chat-panel.js';

/** @typedef {import('../api.js').ChatRoom} ChatRoom */
/** @typedef {import('../api.js').ChatLine} ChatLine */
/** @typedef {import('../api.js').ChatView} ChatView */
/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').Live} Live */
/** @typedef {import('../board/types.js').Color} Color */
/** @typedef {import('../ui/chat-panel.js').PanelState} PanelState */

export { MAX_CHAT } from '../ui/chat-panel.js';
const ROOMS = frozen(/** @type {const} */ (['players', 'spectators']));

/**
 * One room as the page has it (the panel's state), and its lines not read
 * yet (another tab shown).
 * @typedef {PanelState & { unread: number }} RoomState
 */
/**
 * The chat's part of the game page's state: the game it is for, the rooms
 * followed (none for a game that is not online), the tab shown, the mute.
 * @typedef {{ game: string | null, rooms: ChatRoom[], tab: 'players' | 'spectators', players: RoomState, spectators: RoomState,
 *   muted: boolean }} ChatState
 */

/** @returns {RoomState} */
const emptyRoom = () => ({ ...emptyPanel(), unread: 0 });

/** A game page's chat state, empty. @returns {ChatState} */
export function createChatState() {
  return { game: null, rooms: [], tab: 'players', players: emptyRoom(), spectators: emptyRoom(), muted: false };
}

/**
 * The rooms a page follows in game `g`: none offline; the players' room
 * for a player (the spectators' too once the game is over); the
 * spectators' room for anyone else.
 * @param {GameView | null} g @param {Color | null} seat @returns {ChatRoom[]}
 */
export function roomsFor(g, seat) {
  if (!g || g.mode !== 'online' || !g.online) return [];
  if (!seat) return ['spectators'];
  return g.end ? ['players', 'spectators'] : ['players'];
}

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/**
 * The chat panel of the game page, on index.html's `#chat`.
 * @param {{ live: Live, i18n: import('../i18n.js').I18n, player: import('../player.js').Player,
 *   state: import('./state.js').GameState }} deps
 */
export function createChat({ live, i18n, player, state }) {
  const chat = state.chat;
  const parts = panelParts($('#chat'));

  live.listen((msg) => {
    const id = chat.game;
    const topic = topicOf(msg);
    if (!id || !topic) return;
    const m = /^chat:(.+):(players|spectators)$/.exec(topic);
    if (!m || m[1] !== id) return;
    const room = /** @type {'players' | 'spectators'} */ (m[2]);
    if (!chat.rooms.includes(room)) return;
    if (msg.type === 'chat_history') history(room, /** @type {ChatView} */ (msg.chat));
    else if (msg.type === 'chat') add(room, /** @type {ChatLine} */ (msg.line));
    render();
  });

  /** A room's lines as the server has them now. @param {'players' | 'spectators'} room @param {ChatView} v */
  function history(room, v) {
    takeHistory(chat[room], v);
    if (room === 'players') chat.muted = v.muted;
  }

  /** A new line, once. @param {'players' | 'spectators'} room @param {ChatLine} line */
  function add(room, line) {
    const r = chat[room];
    if (addLine(r, line) && room !== chat.tab && visible(line)) r.unread++;
  }

  /** Whether this page wrote `line`. @param {ChatLine} line */
  function mine(line) {
    if (line.room === 'players' && chat.players.mine.has(line.id)) return true;
    if (line.room === 'spectators' && chat.spectators.mine.has(line.id)) return true;
    if (line.room === 'players') return !!line.seat && line.seat === state.seat;
    return !!player.me && line.name === player.me.name;
  }

  /** A line is hidden while this player mutes the other side. @param {ChatLine} line */
  const visible = (line) => !(chat.muted && line.room === 'players' && line.seat && line.seat !== state.seat);

  /** @type {import('../ui/chat-panel.js').LineWays} */
  const ways = {
    mine,
    mark: (line) => (line.seat ? `${line.seat === 'white' ? '○' : '●'} ` : ''),
    report: (line) => reportLine(parts, chat[chat.tab], line, render),
  };

  /**
   * Follows the rooms the game shown has for this page (called whenever
   * the game page draws): a new game starts an empty chat; the end of the
   * game opens the spectators' room to its players.
   * @param {GameView | null} g
   */
  function sync(g) {
    const id = g && g.mode === 'online' ? g.id : null;
    if (id !== chat.game) {
      Object.assign(chat, createChatState(), { game: id });
      parts.input.value = '';
    }
    const rooms = roomsFor(g, state.seat);
    for (const room of ROOMS) {
      const want = id && rooms.includes(room) ? `chat:${id}:${room}` : null;
      if (!want) chat[room] = emptyRoom();
      live.follow(`chat-${room}`, want);
    }
    chat.rooms = rooms;
    if (rooms.length && !rooms.includes(chat.tab)) chat.tab = /** @type {'players' | 'spectators'} */ (rooms[0]);
    render();
  }

  /** The game page is left: no room followed. */
  function leave() {
    sync(null);
  }

  function render() {
    const box = $('#chat');
    box.classList.toggle('hidden', chat.rooms.length === 0);
    if (!chat.rooms.length) {
      for (const k of ['rooms', 'tab', 'players', 'spectators', 'muted']) delete box.dataset[k];
      return;
    }
    const room = chat[chat.tab];
    room.unread = 0;
    // For tests and styles: the rooms, the tab shown, the lines each room
    // has had (hidden ones too), the mute.
    const d = box.dataset;
    d.rooms = chat.rooms.join(' ');
    d.tab = chat.tab;
    d.players = chat.players.loaded ? String(chat.players.lines.length) : '';
    d.spectators = chat.spectators.loaded ? String(chat.spectators.lines.length) : '';
    d.muted = String(chat.muted);
    // The tabs: both rooms for the players of a finished game.
    const tabs = $('#chat-tabs');
    tabs.classList.toggle('hidden', chat.rooms.length < 2);
    for (const r of ROOMS) {
      const tab = $(`#chat-tab-${r}`);
      const selected = r === chat.tab;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      const unread = chat[r].unread;
      tab.textContent = t(`chat.room.${r}`);
      if (unread) {
        const badge = document.createElement('span');
        badge.className = 'chat-unread';
        badge.textContent = String(unread);
        badge.setAttribute('aria-label', plural('chat.unread', unread));
        tab.append(' ', badge);
      }
    }
    $('#chat-panel').setAttribute('aria-labelledby', chat.rooms.length > 1 ? `chat-tab-${chat.tab}` : 'chat-title');
    $('#chat-title').textContent = chat.rooms.length > 1 ? t('chat.title') : t(`chat.title.${chat.tab}`);
    // The mute: the players' own, over the other side's lines.
    const mute = /** @type {HTMLButtonElement} */ ($('#chat-mute'));
    const canMute = !!state.seat && chat.tab === 'players';
    mute.classList.toggle('hidden', !canMute);
    mute.setAttribute('aria-pressed', String(chat.muted));
    mute.textContent = chat.muted ? t('chat.unmute') : t('chat.mute');
    mute.title = chat.muted ? t('chat.unmute_title') : t('chat.mute_title');

    const shown = room.lines.filter(visible);
    drawLines(parts, room, shown, `${chat.tab}|${state.seat}`, ways);
    parts.empty.classList.toggle('hidden', shown.length > 0 || !room.loaded);
    parts.empty.textContent = chat.muted && chat.tab === 'players' ? t('chat.empty_muted') : t('chat.empty');
    parts.log.setAttribute('aria-label', t(`chat.title.${chat.tab}`));
    drawForm(parts, room, chat.tab === 'spectators' ? t('chat.account_needed') : '');
  }

  async function toggleMute() {
    const id = chat.game;
    if (!id) return;
    const muted = !chat.muted;
    const r = await social.mute(id, muted);
    if (!r.ok) {
      chat.players.error = serverError(r.error);
      render();
      return;
    }
    chat.muted = muted;
    chat.players.error = '';
    // Shown again: the history has the other side's lines the server left out.
    if (!muted) {
      const h = await social.chat(id, 'players');
      if (h.ok && chat.game === id && chat.rooms.includes('players')) history('players', h.value);
    }
    render();
  }

  /** @param {'players' | 'spectators'} room */
  function showTab(room) {
    if (!chat.rooms.includes(room)) return;
    chat.tab = room;
    chat[room].unread = 0;
    chat[room].error = '';
    render();
  }

  wireForm(parts, () => chat[chat.tab], (text) => {
    const id = chat.game;
    const room = chat.tab;
    if (!id) return null;
    return {
      sent: social.say(id, room, text),
      add: (line) => { if (chat.game === id && chat.rooms.includes(room)) add(room, line); },
    };
  }, render, 'chat.account_needed');
  $('#chat-mute').addEventListener('click', toggleMute);
  for (const r of ROOMS) $(`#chat-tab-${r}`).addEventListener('click', () => showTab(r));
  // Tabs by keyboard: the arrows go to the other tab.
  $('#chat-tabs').addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const next = chat.tab === 'players' ? 'spectators' : 'players';
    showTab(next);
    $(`#chat-tab-${next}`).focus();
  });
  i18n.onChange(render);

  return { sync, leave, render };
}
