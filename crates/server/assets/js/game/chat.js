// @ts-check
// The game chat of online games (createChat, made by the game page): the
// players' room (theirs alone) while the game runs, the spectators' room
// for everyone else; once the game is over the players read and write
// both, as two tabs. Lines arrive on the WebSocket topics
// `chat:{id}:{room}` (the room's history first); text is shown as text,
// never as HTML, and no link is made. A player may mute the other side
// (remembered by the server, which then leaves their lines out of the
// history; the page hides the new ones), and report anyone else's line.

import { social } from '../api.js';
import { t, lang, plural, playerName, serverError } from '../i18n.js';
import { confirmDialog } from '../ui/notice.js';
import { titleMark } from '../ui/title-mark.js';
import { frozen } from '../frozen.js';

/** @typedef {import('../api.js').ChatRoom} ChatRoom */
/** @typedef {import('../api.js').ChatLine} ChatLine */
/** @typedef {import('../api.js').ChatView} ChatView */
/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').Live} Live */
/** @typedef {import('../board/types.js').Color} Color */

/** The most characters a line has (the server's limit too). */
export const MAX_CHAT = 140;
/** The lines kept per room. */
const KEEP = 200;
const ROOMS = frozen(/** @type {const} */ (['players', 'spectators']));

/**
 * One room as the page has it: its lines (the other side's too while
 * muted: they are hidden when drawn), whether this player may write,
 * lines not read yet (another tab shown).
 * @typedef {{ lines: ChatLine[], canWrite: boolean, loaded: boolean, unread: number }} RoomState
 */
/**
 * The chat's part of the game page's state: the game it is for, the rooms
 * followed (none for a game that is not online), the tab shown, the mute,
 * the lines this page sent and reported, what the form says.
 * @typedef {{ game: string | null, rooms: ChatRoom[], tab: ChatRoom, players: RoomState, spectators: RoomState,
 *   muted: boolean, mine: Set<number>, reported: Set<number>, error: string, sending: boolean }} ChatState
 */

/** @returns {RoomState} */
const emptyRoom = () => ({ lines: [], canWrite: false, loaded: false, unread: 0 });

/** A game page's chat state, empty. @returns {ChatState} */
export function createChatState() {
  return {
    game: null, rooms: [], tab: 'players', players: emptyRoom(), spectators: emptyRoom(),
    muted: false, mine: new Set(), reported: new Set(), error: '', sending: false,
  };
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
  const input = /** @type {HTMLInputElement} */ ($('#chat-input'));
  input.maxLength = MAX_CHAT;

  live.listen((msg) => {
    const id = chat.game;
    if (!id || typeof msg.topic !== 'string') return;
    const m = /^chat:(.+):(players|spectators)$/.exec(msg.topic);
    if (!m || m[1] !== id) return;
    const room = /** @type {ChatRoom} */ (m[2]);
    if (!chat.rooms.includes(room)) return;
    if (msg.type === 'chat_history') history(room, /** @type {ChatView} */ (msg.chat));
    else if (msg.type === 'chat') add(room, /** @type {ChatLine} */ (msg.line));
    render();
  });

  /** A room's lines as the server has them now. @param {ChatRoom} room @param {ChatView} v */
  function history(room, v) {
    const r = chat[room];
    r.lines = v.lines.slice(-KEEP);
    r.canWrite = v.can_write;
    r.loaded = true;
    if (room === 'players') chat.muted = v.muted;
  }

  /** A new line (once: the answer to a post and the live line are the same). @param {ChatRoom} room @param {ChatLine} line */
  function add(room, line) {
    const r = chat[room];
    if (r.lines.some((l) => l.id === line.id)) return;
    r.lines.push(line);
    if (r.lines.length > KEEP) r.lines.splice(0, r.lines.length - KEEP);
    if (room !== chat.tab && visible(line)) r.unread++;
  }

  /** Whether this page wrote `line`. @param {ChatLine} line */
  function mine(line) {
    if (chat.mine.has(line.id)) return true;
    if (line.room === 'players') return !!line.seat && line.seat === state.seat;
    return !!player.me && line.name === player.me.name;
  }

  /** A line is hidden while this player mutes the other side. @param {ChatLine} line */
  const visible = (line) => !(chat.muted && line.room === 'players' && line.seat && line.seat !== state.seat);

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
      input.value = '';
    }
    const rooms = roomsFor(g, state.seat);
    for (const room of ROOMS) {
      const want = id && rooms.includes(room) ? `chat:${id}:${room}` : null;
      if (!want) chat[room] = emptyRoom();
      live.follow(`chat-${room}`, want);
    }
    chat.rooms = rooms;
    if (rooms.length && !rooms.includes(chat.tab)) chat.tab = rooms[0];
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

    const list = $('#chat-lines');
    const log = $('#chat-log');
    const shown = room.lines.filter(visible);
    // Drawn again only when the lines change (a move drawn does not take
    // the focus off a report button); kept at the newest line unless the
    // reader scrolled up, where it stays.
    const drawn = `${lang()}|${chat.tab}|${state.seat}|${shown.map((l) => `${l.id}${chat.reported.has(l.id) ? 'r' : ''}`).join(',')}`;
    if (list.dataset.drawn !== drawn) {
      const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 12 || list.dataset.tab !== chat.tab;
      const top = log.scrollTop;
      list.replaceChildren(...shown.map(lineNode));
      list.dataset.drawn = drawn;
      list.dataset.tab = chat.tab;
      log.scrollTop = atEnd ? log.scrollHeight : top;
    }
    const empty = $('#chat-empty');
    empty.classList.toggle('hidden', shown.length > 0 || !room.loaded);
    empty.textContent = chat.muted && chat.tab === 'players' ? t('chat.empty_muted') : t('chat.empty');
    log.setAttribute('aria-label', t(`chat.title.${chat.tab}`));

    const form = $('#chat-form');
    form.classList.toggle('hidden', !room.canWrite);
    const note = $('#chat-note');
    const why = !room.loaded || room.canWrite ? '' : chat.tab === 'spectators' ? t('chat.account_needed') : '';
    note.textContent = why;
    note.classList.toggle('hidden', !why);
    input.placeholder = t('chat.placeholder');
    /** @type {HTMLButtonElement} */ ($('#chat-send')).disabled = chat.sending;
    count();
    const err = $('#chat-error');
    err.textContent = chat.error;
    err.classList.toggle('hidden', !chat.error);
  }

  /** The characters typed, of the most a line has. */
  function count() {
    $('#chat-count').textContent = `${[...input.value].length}/${MAX_CHAT}`;
  }

  /** @param {ChatLine} line */
  function lineNode(line) {
    const li = document.createElement('li');
    li.className = 'chat-line';
    li.dataset.id = String(line.id);
    li.dataset.room = line.room;
    if (line.seat) li.dataset.seat = line.seat;
    const me = mine(line);
    if (me) li.dataset.mine = 'true';
    const name = document.createElement('span');
    name.className = 'chat-name';
    const mark = line.seat ? `${line.seat === 'white' ? '○' : '●'} ` : '';
    name.textContent = mark;
    if (line.title) name.append(titleMark(line.title), ' ');
    name.append(playerName(line.name));
    const text = document.createElement('span');
    text.className = 'chat-text';
    text.textContent = line.text; // as text: never HTML, no link made
    const when = new Date(line.at);
    li.title = when.toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' });
    li.append(name, ' ', text);
    if (!me) {
      if (chat.reported.has(line.id)) {
        const done = document.createElement('span');
        done.className = 'chat-reported';
        done.textContent = t('chat.reported');
        li.append(' ', done);
      } else {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'chat-report';
        b.textContent = '⚑';
        b.title = t('chat.report');
        b.setAttribute('aria-label', t('chat.report_label', { name: playerName(line.name) }));
        b.addEventListener('click', () => report(line));
        li.append(' ', b);
      }
    }
    return li;
  }

  /** @param {ChatLine} line */
  async function report(line) {
    if (!(await confirmDialog(t('chat.report_confirm', { name: playerName(line.name), text: line.text })))) return;
    const r = await social.report(line.id);
    if (r.ok) chat.reported.add(line.id);
    chat.error = r.ok ? '' : serverError(r.error);
    render();
    if (r.ok) $('#chat-input').focus();
  }

  /** @param {SubmitEvent} e */
  async function send(e) {
    e.preventDefault();
    const id = chat.game;
    const room = chat.tab;
    const text = input.value.trim();
    if (!id || !text || chat.sending) return;
    chat.sending = true;
    chat.error = '';
    render();
    const r = await social.say(id, room, text);
    chat.sending = false;
    if (r.ok) {
      chat.mine.add(r.value.id);
      if (chat.game === id && chat.rooms.includes(room)) add(room, r.value);
      input.value = '';
      const log = $('#chat-log');
      log.scrollTop = log.scrollHeight;
      render();
      log.scrollTop = log.scrollHeight;
    } else {
      const err = r.error;
      chat.error = err.kind === 'account_needed' ? t('chat.account_needed') : serverError(err);
    }
    render();
    input.focus();
  }

  async function toggleMute() {
    const id = chat.game;
    if (!id) return;
    const muted = !chat.muted;
    const r = await social.mute(id, muted);
    if (!r.ok) {
      chat.error = serverError(r.error);
      render();
      return;
    }
    chat.muted = muted;
    chat.error = '';
    // Shown again: the history has the other side's lines the server left out.
    if (!muted) {
      const h = await social.chat(id, 'players');
      if (h.ok && chat.game === id && chat.rooms.includes('players')) history('players', h.value);
    }
    render();
  }

  /** @param {ChatRoom} room */
  function showTab(room) {
    if (!chat.rooms.includes(room)) return;
    chat.tab = room;
    chat[room].unread = 0;
    chat.error = '';
    render();
  }

  $('#chat-form').addEventListener('submit', (e) => send(/** @type {SubmitEvent} */ (e)));
  input.addEventListener('input', count);
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
