// @ts-check
// A chat room's panel, drawn alike for a game's rooms (game/chat.js) and
// a tournament's (tournaments/chat.js): the lines as text (never HTML, no
// link made), each with its author, a report button on others' lines,
// kept at the newest line unless the reader scrolled up; the form with
// its count of characters, the note saying why one may not write, and
// the error. The panel's parts are found in its root by class.

import { social } from '../api.js';
import { t, lang, playerName, nameLink, serverError } from '../i18n.js';
import { confirmDialog } from './notice.js';
import { titleMark } from './title-mark.js';

/** @typedef {import('../api.js').ChatLine} ChatLine */
/** @typedef {import('../api.js').ChatView} ChatView */

/** The most characters a line has (the server's limit too). */
export const MAX_CHAT = 140;
/** The lines kept per room. */
export const KEEP = 200;

/**
 * A panel's parts.
 * @typedef {{ log: HTMLElement, list: HTMLElement, empty: HTMLElement, form: HTMLFormElement,
 *   input: HTMLInputElement, count: HTMLElement, send: HTMLButtonElement, note: HTMLElement,
 *   error: HTMLElement }} PanelParts
 */

/**
 * What a panel's room holds as the page has it, and what its form says:
 * the lines (hidden ones too), whether this player may write, the lines
 * this page sent and reported.
 * @typedef {{ lines: ChatLine[], canWrite: boolean, loaded: boolean, mine: Set<number>,
 *   reported: Set<number>, error: string, sending: boolean }} PanelState
 */

/** A panel's state, empty. @returns {PanelState} */
export const emptyPanel = () => ({ lines: [], canWrite: false, loaded: false, mine: new Set(), reported: new Set(), error: '', sending: false });

/** The parts of the panel in `root`. @param {HTMLElement} root @returns {PanelParts} */
export function panelParts(root) {
  const q = (/** @type {string} */ c) => /** @type {HTMLElement} */ (root.querySelector(`.${c}`));
  const input = /** @type {HTMLInputElement} */ (q('chat-input'));
  input.maxLength = MAX_CHAT;
  return {
    log: q('chat-log'), list: q('chat-lines'), empty: q('chat-empty'), form: /** @type {HTMLFormElement} */ (q('chat-form')),
    input, count: q('chat-count'), send: /** @type {HTMLButtonElement} */ (q('chat-send')), note: q('chat-note'), error: q('chat-error'),
  };
}

/** A room's lines as the server has them now. @param {PanelState} room @param {ChatView} v */
export function takeHistory(room, v) {
  room.lines = v.lines.slice(-KEEP);
  room.canWrite = v.can_write;
  room.loaded = true;
}

/**
 * A new line, once (the answer to a post and the live line are the same):
 * whether it was new.
 * @param {PanelState} room @param {ChatLine} line
 */
export function addLine(room, line) {
  if (room.lines.some((l) => l.id === line.id)) return false;
  room.lines.push(line);
  if (room.lines.length > KEEP) room.lines.splice(0, room.lines.length - KEEP);
  return true;
}

/**
 * How lines are drawn: which are this page's, a mark before a name (a
 * seat), what a report does.
 * @typedef {{ mine: (line: ChatLine) => boolean, mark?: (line: ChatLine) => string,
 *   report: (line: ChatLine) => void }} LineWays
 */

/** @param {ChatLine} line @param {PanelState} room @param {LineWays} ways */
function lineNode(line, room, ways) {
  const li = document.createElement('li');
  li.className = 'chat-line';
  li.dataset.id = String(line.id);
  li.dataset.room = line.room;
  if (line.seat) li.dataset.seat = line.seat;
  const me = ways.mine(line);
  if (me) li.dataset.mine = 'true';
  const name = document.createElement('span');
  name.className = 'chat-name';
  name.textContent = ways.mark ? ways.mark(line) : '';
  if (line.title) name.append(titleMark(line.title), ' ');
  name.append(nameLink(line.name, line.account));
  const text = document.createElement('span');
  text.className = 'chat-text';
  text.textContent = line.text; // as text: never HTML, no link made
  const when = new Date(line.at);
  li.title = when.toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' });
  li.append(name, ' ', text);
  if (!me) {
    if (room.reported.has(line.id)) {
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
      b.addEventListener('click', () => ways.report(line));
      li.append(' ', b);
    }
  }
  return li;
}

/**
 * Draws `shown` (the room's lines to show) in the log, again only when
 * they change (a redraw does not take the focus off a report button);
 * kept at the newest line unless the reader scrolled up, where it stays.
 * `view` names what is shown (a tab): another one starts at its end.
 * @param {PanelParts} p @param {PanelState} room @param {ChatLine[]} shown @param {string} view @param {LineWays} ways
 */
export function drawLines(p, room, shown, view, ways) {
  const drawn = `${lang()}|${view}|${shown.map((l) => `${l.id}${room.reported.has(l.id) ? 'r' : ''}${ways.mine(l) ? 'm' : ''}`).join(',')}`;
  if (p.list.dataset.drawn === drawn) return;
  const atEnd = p.log.scrollHeight - p.log.scrollTop - p.log.clientHeight < 12 || p.list.dataset.view !== view;
  const top = p.log.scrollTop;
  p.list.replaceChildren(...shown.map((l) => lineNode(l, room, ways)));
  p.list.dataset.drawn = drawn;
  p.list.dataset.view = view;
  p.log.scrollTop = atEnd ? p.log.scrollHeight : top;
}

/**
 * The form (shown to whoever may write), the note saying why one may not,
 * the count of characters and the error.
 * @param {PanelParts} p @param {PanelState} room @param {string} note
 */
export function drawForm(p, room, note) {
  p.form.classList.toggle('hidden', !room.canWrite);
  const why = !room.loaded || room.canWrite ? '' : note;
  p.note.textContent = why;
  p.note.classList.toggle('hidden', !why);
  p.input.placeholder = t('chat.placeholder');
  p.send.disabled = room.sending;
  count(p);
  p.error.textContent = room.error;
  p.error.classList.toggle('hidden', !room.error);
}

/** The characters typed, of the most a line has. @param {PanelParts} p */
function count(p) {
  p.count.textContent = `${[...p.input.value].length}/${MAX_CHAT}`;
}

/**
 * Asks, then reports `line` to the operator: the line marked reported, or
 * the refusal said.
 * @param {PanelParts} p @param {PanelState} room @param {ChatLine} line @param {() => void} render
 */
export async function reportLine(p, room, line, render) {
  if (!(await confirmDialog(t('chat.report_confirm', { name: playerName(line.name), text: line.text })))) return;
  const r = await social.report(line.id);
  if (r.ok) room.reported.add(line.id);
  room.error = r.ok ? '' : serverError(r.error);
  render();
  if (r.ok) p.input.focus();
}

/**
 * A line sent: the server's answer, and where its line goes (the room it
 * was sent to, unless another game is shown by then).
 * @typedef {{ sent: Promise<import('../api.js').Result<ChatLine>>, add: (line: ChatLine) => void }} Sending
 */

/**
 * The form sends its text with `say` (nothing when there is nowhere to
 * send it); the line it answers is the page's own. `needAccount` is what
 * a guest is told when the server wants an account.
 * @param {PanelParts} p @param {() => PanelState} room
 * @param {(text: string) => Sending | null} say @param {() => void} render @param {string} needAccount
 */
export function wireForm(p, room, say, render, needAccount) {
  p.input.addEventListener('input', () => count(p));
  p.form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const r0 = room();
    const text = p.input.value.trim();
    const sending = text && !r0.sending ? say(text) : null;
    if (!sending) return;
    r0.sending = true;
    r0.error = '';
    render();
    const r = await sending.sent;
    r0.sending = false;
    if (r.ok) {
      r0.mine.add(r.value.id);
      sending.add(r.value);
      p.input.value = '';
      render();
      p.log.scrollTop = p.log.scrollHeight;
    } else {
      r0.error = r.error.kind === 'account_needed' ? t(needAccount) : serverError(r.error);
    }
    render();
    p.input.focus();
  });
}
