// @ts-check
// Who this browser plays as: every browser is a player (the server's
// HttpOnly identity cookie, never seen here), a guest until it registers
// or logs in. One state object, changed only through the functions below,
// which tell the listeners (the header's menu, the lobby, the router).

import { api } from './api.js';
import { t } from './i18n.js';

/** @typedef {import('./api.js').MeView} MeView */

/** @typedef {import('./api.js').Live} Live */

/**
 * The player, and the page's live connection when it has one (the app's
 * pages; the Rules and learning pages have none): it speaks for the
 * identity it was opened with, so it is opened again on a new one.
 * @type {{ me: MeView | null, live: Live | null }}
 */
export const player = { me: null, live: null };

/**
 * What changed: `load` (the page asked who it is), `name`, or a new
 * identity (`register`, `login`, `logout`: the page's socket is opened
 * again, and what the page shows may belong to someone else now).
 * @typedef {'load' | 'name' | 'register' | 'login' | 'logout'} PlayerChange
 * @typedef {(change: PlayerChange) => void} PlayerListener
 */
/** @type {Set<PlayerListener>} */
const listeners = new Set();

/** Calls `f` after every change of the player. @param {PlayerListener} f */
export function onPlayerChange(f) {
  listeners.add(f);
}

/** @param {PlayerChange} change */
export const newIdentity = (change) => change === 'register' || change === 'login' || change === 'logout';

/** @param {MeView} me @param {PlayerChange} change */
function set(me, change) {
  player.me = me;
  if (me.banned) showBanned(t('account.banned', { reason: me.banned }));
  // The socket speaks for the identity it was opened with.
  else if (newIdentity(change) && player.live) player.live.reconnect();
  for (const f of listeners) f(change);
}

/**
 * Says, above everything, that the operator banned this player, and stops
 * the live connection (the server would only refuse it).
 * @param {string} text
 */
function showBanned(text) {
  if (player.live) player.live.halt();
  let banner = document.getElementById('banned');
  if (!banner) {
    banner = document.createElement('div');
    banner.id = 'banned';
    banner.className = 'banned';
    banner.setAttribute('role', 'alert');
    document.body.prepend(banner);
  }
  banner.textContent = text;
}

/**
 * The page's live connection, for the player: the server closes a socket
 * whose session ended (a logout on another page, a password change, the
 * operator) or whose player was banned.
 * @param {Live} live
 */
export function bindLive(live) {
  player.live = live;
  live.listen((msg) => {
    if (msg.type === 'banned') showBanned(msg.message);
    else if (msg.type === 'session_ended') loadPlayer().then(() => live.reconnect(), () => live.reconnect());
  });
}

/** Asks the server who this browser is. */
export async function loadPlayer() {
  set(await api.me(), 'load');
}

/** @param {string} name */
export async function rename(name) {
  set(await api.rename(name), 'name');
}

/** An account for this player, who keeps their games. @param {string} username @param {string} password */
export async function register(username, password) {
  set(await api.register(username, password), 'register');
}

/** @param {string} username @param {string} password */
export async function login(username, password) {
  set(await api.login(username, password), 'login');
}

/** The browser becomes a new guest. */
export async function logout() {
  set(await api.logout(), 'logout');
}

export const hasAccount = () => !!(player.me && player.me.account);
export const myId = () => (player.me ? player.me.id : null);

// User names and passwords as the server takes them (3–20 letters, digits,
// '-' or '_', starting with a letter or digit; 8–128 characters), checked
// here first so that the form can say which field is wrong.
export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$/;
/** @param {string} password */
export const passwordOk = (password) => [...password].length >= 8 && [...password].length <= 128;
export const MAX_NAME = 40;
