// @ts-check
// Who this browser plays as: every browser is a player (the server's
// HttpOnly identity cookie, never seen here), a guest until it registers
// or logs in. One `Player` per page, made by the page's entry function,
// changed only through its methods, which tell its listeners (the
// header's menu, the lobby, the router).

import { api } from './api.js';
import { t } from './i18n.js';

/** @typedef {import('./api.js').MeView} MeView */

/** @typedef {import('./api.js').Live} Live */

/**
 * What changed: `load` (the page asked who it is), `name`, or a new
 * identity (`register`, `login`, `logout`: the page's socket is opened
 * again, and what the page shows may belong to someone else now).
 * @typedef {'load' | 'name' | 'register' | 'login' | 'logout'} PlayerChange
 * @typedef {(change: PlayerChange) => void} PlayerListener
 */

/** @param {PlayerChange} change */
export const newIdentity = (change) => change === 'register' || change === 'login' || change === 'logout';

/**
 * The player, one per page (made by the page's entry function and handed
 * to what shows or follows them): who the server says this browser is
 * (`me`), and the page's live connection once bound (`live`): it speaks
 * for the identity it was opened with, so it is opened again on a new one.
 */
export class Player {
  constructor() {
    /** @type {MeView | null} */
    this.me = null;
    /** @type {Live | null} */
    this.live = null;
    /** @type {Set<PlayerListener>} */
    this.listeners = new Set();
  }

  /** Calls `f` after every change of the player, until the function it returns is called. @param {PlayerListener} f */
  onChange(f) {
    this.listeners.add(f);
    return () => { this.listeners.delete(f); };
  }

  /** @param {MeView} me @param {PlayerChange} change */
  set(me, change) {
    this.me = me;
    if (me.banned) this.showBanned(t('account.banned', { reason: me.banned }));
    // The socket speaks for the identity it was opened with.
    else if (newIdentity(change) && this.live) this.live.reconnect();
    for (const f of [...this.listeners]) f(change);
  }

  /**
   * Says, above everything, that the operator banned this player, and stops
   * the live connection (the server would only refuse it).
   * @param {string} text
   */
  showBanned(text) {
    if (this.live) this.live.halt();
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
  bindLive(live) {
    this.live = live;
    live.listen((msg) => {
      if (msg.type === 'banned') this.showBanned(msg.message);
      else if (msg.type === 'session_ended') this.load().then(() => live.reconnect(), () => live.reconnect());
    });
  }

  /** Asks the server who this browser is. */
  async load() {
    this.set(await api.me(), 'load');
  }

  /** @param {string} name */
  async rename(name) {
    this.set(await api.rename(name), 'name');
  }

  /** An account for this player, who keeps their games. @param {string} username @param {string} password */
  async register(username, password) {
    this.set(await api.register(username, password), 'register');
  }

  /** @param {string} username @param {string} password */
  async login(username, password) {
    this.set(await api.login(username, password), 'login');
  }

  /** The browser becomes a new guest. */
  async logout() {
    this.set(await api.logout(), 'logout');
  }

  hasAccount() {
    return !!(this.me && this.me.account);
  }

  /** @returns {string | null} */
  id() {
    return this.me ? this.me.id : null;
  }
}

// User names and passwords as the server takes them (3–20 letters, digits,
// '-' or '_', starting with a letter or digit; 8–128 characters), checked
// here first so that the form can say which field is wrong.
export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_-]{2,19}$/;
/** @param {string} password */
export const passwordOk = (password) => [...password].length >= 8 && [...password].length <= 128;
export const MAX_NAME = 40;
