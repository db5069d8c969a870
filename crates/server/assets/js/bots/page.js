// @ts-check
// The Bots page (`#/bots`): the bot accounts, those online now first,
// each with its ratings in the three games and, when online, a Challenge
// button (the site's challenge form, as on a profile); a link to the Bot
// and Board APIs' documentation (`/docs/bots`) for those who would write
// one.

import { bots } from '../api.js';
import { t, serverError } from '../i18n.js';
import { isProvisional } from '../ratings.js';
import { titleMark } from '../ui/title-mark.js';
import { frozen } from '../frozen.js';
import { el } from '../ui/el.js';

/** @typedef {import('../api.js').ListedBot} ListedBot */
/**
 * What the page is handed: the page's player, and how to challenge another.
 * @typedef {{ player: import('../player.js').Player, challenge?: (username: string, name: string) => void }} BotsDeps
 */
/**
 * The page's state, one per page: the list as last asked (null before an
 * answer), why it could not be asked, and which answer is awaited.
 * @typedef {{ list: ListedBot[] | null, error: string, seq: number }} BotsState
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const VARIANTS = frozen(/** @type {const} */ (['tensor', 'chess', 'chessence']));

/** One bot's line. @param {ListedBot} b @param {BotsDeps} deps */
function row(b, { player, challenge }) {
  const li = el('li', `bot-row${b.online ? ' online' : ''}`);
  li.dataset.username = b.username;
  li.dataset.online = String(b.online);
  const who = el('div', 'bot-who');
  const link = /** @type {HTMLAnchorElement} */ (el('a', 'bot-name'));
  link.href = `#/player/${encodeURIComponent(b.username)}`;
  link.append(titleMark(b.title), ' ', b.name);
  who.append(el('span', `bot-dot${b.online ? ' on' : ''}`, b.online ? '●' : '○'), ' ', link, ' ',
    el('span', 'muted small bot-state', t(b.online ? 'bots.online' : 'bots.offline')));
  who.firstElementChild?.setAttribute('aria-hidden', 'true');
  const ratings = el('dl', 'bot-ratings');
  for (const v of VARIANTS) {
    const r = b.ratings[v];
    const item = el('div', 'bot-rating');
    item.dataset.variant = v;
    const value = el('dd', '', String(Math.round(r.rating)));
    if (isProvisional(r)) {
      const q = el('span', 'provisional', '?');
      q.setAttribute('aria-hidden', 'true');
      q.title = t('rating.provisional');
      value.append(q, el('span', 'visually-hidden', ` (${t('rating.provisional')})`));
    }
    item.append(el('dt', '', t(`game.${v}`)), value);
    ratings.append(item);
  }
  li.append(who, ratings);
  const mine = !!(player.me && player.me.account === b.username);
  if (b.online && challenge && !mine) {
    const button = el('button', 'primary bot-challenge', t('challenge.button'));
    button.setAttribute('type', 'button');
    button.setAttribute('aria-label', t('challenge.button_label', { name: b.name }));
    button.addEventListener('click', () => challenge(b.username, b.name));
    li.append(button);
  }
  return li;
}

/** @param {BotsState} view @param {BotsDeps} deps */
function render(view, deps) {
  document.title = `${t('bots.title')} — ${t('page.title')}`;
  $('#bots-error').textContent = view.error;
  $('#bots-error').classList.toggle('hidden', !view.error);
  const list = view.list || [];
  const online = list.filter((b) => b.online);
  const offline = list.filter((b) => !b.online);
  const none = !!view.list && list.length === 0;
  $('#bots-none').classList.toggle('hidden', !none);
  $('#bots-online-card').classList.toggle('hidden', !view.list || none);
  $('#bots-online').replaceChildren(...online.map((b) => row(b, deps)));
  $('#bots-none-online').classList.toggle('hidden', online.length > 0);
  $('#bots-offline-card').classList.toggle('hidden', offline.length === 0);
  $('#bots-offline').replaceChildren(...offline.map((b) => row(b, deps)));
}

/** @param {BotsState} view @param {BotsDeps} deps */
async function load(view, deps) {
  const seq = ++view.seq;
  const r = await bots.list();
  if (seq !== view.seq) return;
  if (r.ok) view.list = r.value.bots;
  view.error = r.ok ? '' : serverError(r.error);
  render(view, deps);
  document.body.dataset.bots = view.list ? 'ready' : 'error';
}

/**
 * The Bots page; nothing happens before the app makes it.
 * @param {{ i18n: import('../i18n.js').I18n } & BotsDeps} deps
 * @returns {import('../router.js').Page}
 */
export function createBotsPage({ i18n, player, challenge }) {
  const deps = { player, challenge };
  /** @type {BotsState} */
  const view = { list: null, error: '', seq: 0 };
  const shown = () => document.body.dataset.page === 'bots';
  i18n.onChange(() => { if (shown()) render(view, deps); });
  // Logged in as one of the bots: no challenging oneself.
  player.onChange(() => { if (shown()) render(view, deps); });
  return {
    name: 'bots',
    enter() {
      render(view, deps);
      return load(view, deps);
    },
    leave() {
      view.seq++;
      delete document.body.dataset.bots;
      document.title = t('page.title');
    },
  };
}
