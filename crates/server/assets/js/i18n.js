// @ts-check
// The page's languages: one catalogue of strings per language
// (i18n/en.js, i18n/uk.js), the browser's language by default, the
// player's choice remembered. The language is the page's (`<html lang>`,
// set by its `I18n`); this module keeps nothing.
//
// Strings are looked up by key; `{name}` in a string is replaced by the
// argument of that name. Static HTML carries its keys in attributes:
// data-i18n (text), data-i18n-html (markup from the catalogue itself) and
// data-i18n-attr="aria-label:key;title:key".

import en from './i18n/en.js';
import uk from './i18n/uk.js';
import { frozen } from './frozen.js';

/** @typedef {'en' | 'uk'} Lang */
/** @typedef {Record<string, string | number | null | undefined>} Args */

/** @type {Record<Lang, Record<string, string>>} */
export const CATALOGUES = frozen({ en, uk });
export const LANGS = frozen(/** @type {Lang[]} */ (Object.keys(CATALOGUES)));
const STORE_KEY = 'tensorchess.lang';

/**
 * The page's language: `<html lang>`, which the page's {@link I18n} sets
 * (English until then, and where there is no document).
 * @returns {Lang}
 */
function current() {
  const l = typeof document === 'undefined' ? '' : document.documentElement.lang;
  return l in CATALOGUES ? /** @type {Lang} */ (l) : 'en';
}

/** The page's language. */
export const lang = () => current();

/** The language saved by the player, else the first of the browser's we have. @returns {Lang} */
function detect() {
  let saved = null;
  try { saved = localStorage.getItem(STORE_KEY); } catch (_) { /* storage off */ }
  if (saved && saved in CATALOGUES) return /** @type {Lang} */ (saved);
  const wanted = typeof navigator !== 'undefined' ? (navigator.languages || [navigator.language]) : [];
  for (const tag of wanted) {
    const base = String(tag || '').toLowerCase().split('-')[0];
    if (base in CATALOGUES) return /** @type {Lang} */ (base);
  }
  return 'en';
}

/**
 * The page's language, one per page (made by the page's entry function and
 * handed to what follows a change of language): it detects the language
 * (the player's choice, else the browser's) and writes it on `<html lang>`,
 * where `t` reads it; it changes it, and tells its listeners.
 */
export class I18n {
  /** @param {Document} doc */
  constructor(doc) {
    this.doc = doc;
    /** @type {Set<() => void>} */
    this.listeners = new Set();
    doc.documentElement.lang = detect();
  }

  /** @returns {Lang} */
  lang() {
    return current();
  }

  /** The player's choice: remembered, the page's strings filled again, the listeners told. @param {Lang} next */
  setLang(next) {
    if (!(next in CATALOGUES) || next === current()) return;
    this.doc.documentElement.lang = next;
    try { localStorage.setItem(STORE_KEY, next); } catch (_) { /* storage off */ }
    applyI18n(this.doc);
    for (const f of [...this.listeners]) f();
  }

  /** Calls `f` after every change of language, until the function it returns is called. @param {() => void} f */
  onChange(f) {
    this.listeners.add(f);
    return () => { this.listeners.delete(f); };
  }
}

/**
 * The string for `key` in the current language (English if missing there,
 * the key itself if missing everywhere), with `{name}` filled from `args`.
 * @param {string} key @param {Args} [args]
 */
export function t(key, args) {
  const text = CATALOGUES[current()][key] ?? en[key] ?? key;
  return args ? fill(text, args) : text;
}

/**
 * A count in words, by the language's plural rules (Intl.PluralRules):
 * `key.one`, `key.few`, `key.many` or `key.other` (Ukrainian: 1 хід,
 * 2 ходи, 5 ходів), with `{n}` and any other `args`. Every string with a
 * count in it is a family like this.
 * @param {string} key @param {number} n @param {Args} [args]
 */
export function plural(key, n, args = {}) {
  let form = 'other';
  try { form = new Intl.PluralRules(current()).select(n); } catch (_) { /* no Intl: other */ }
  const k = has(`${key}.${form}`) ? `${key}.${form}` : `${key}.other`;
  return t(k, { ...args, n });
}

/** Whether the catalogues know `key`. @param {string} key */
export const has = (key) => key in en;

/** @param {string} text @param {Args} args */
export function fill(text, args) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (args[name] === undefined || args[name] === null ? m : String(args[name])));
}

/**
 * The string for `key` as nodes, each `{name}` in it filled with the node
 * `args` gives (a link) or the text: a sentence whose name is a link keeps
 * the language's word order.
 * @param {string} key @param {Record<string, Node | string | number>} args @returns {(Node | string)[]}
 */
export function tNodes(key, args) {
  const text = t(key);
  /** @type {(Node | string)[]} */
  const out = [];
  let at = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const v = args[m[1]];
    if (v === undefined) continue;
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(typeof v === 'object' ? v : String(v));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

/**
 * A player's name that leads to their profile where they have an account
 * (a guest has none: their name stays text).
 * @param {string} name as the server gives it @param {string | null | undefined} account
 * @returns {HTMLElement}
 */
export function nameLink(name, account) {
  const e = document.createElement(account ? 'a' : 'span');
  e.className = 'player-link';
  e.textContent = playerName(name);
  if (account) /** @type {HTMLAnchorElement} */ (e).href = `/#/player/${encodeURIComponent(account)}`;
  return e;
}

/**
 * Fills the static strings under `root` from their data-i18n attributes.
 * @param {Document | Element} root
 */
export function applyI18n(root) {
  if (root instanceof Document) {
    root.documentElement.lang = current();
    const title = root.querySelector('title[data-i18n]');
    if (title) root.title = t(title.getAttribute('data-i18n') || '');
  }
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n') || '');
  for (const el of root.querySelectorAll('[data-i18n-html]')) el.innerHTML = t(el.getAttribute('data-i18n-html') || '');
  for (const el of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of (el.getAttribute('data-i18n-attr') || '').split(';')) {
      const [attr, key] = pair.split(':').map((x) => x.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

// ---- words the server sends --------------------------------------------------

/**
 * A player's name as the server gives it, with the names it makes for
 * guests ("Guest 3a42") in the page's language.
 * @param {string} name
 */
export function playerName(name) {
  const m = /^Guest ([0-9a-f]{4})$/.exec(name);
  return m ? t('player.guest', { code: m[1] }) : name;
}

/** A colour's name, capitalised ("White"). @param {string} color */
export const colorName = (color) => t(color === 'black' ? 'color.black' : 'color.white');

/**
 * A colour's name in the forms sentences need (Ukrainian declines it:
 * "Білі", "хід білих", "грати білими"): `{color}`, `{color_gen}`, `{color_ins}`.
 * @param {string} color
 */
export function colorArgs(color) {
  const c = color === 'black' ? 'black' : 'white';
  return { color: t(`color.${c}`), color_gen: t(`color.${c}.gen`), color_ins: t(`color.${c}.ins`) };
}

/** A piece with its colour ("white beast"), from its FEN letter. @param {string} letter */
export function pieceName(letter) {
  const c = letter === letter.toUpperCase() ? 'white' : 'black';
  const byLetter = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn', t: 'beast', m: 'man' };
  return t(`piece.${c}.${byLetter[/** @type {keyof byLetter} */ (letter.toLowerCase())]}`);
}

/** A piece kind's name ("knight") from its English name or FEN letter. @param {string} role */
export function roleName(role) {
  const byLetter = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn', t: 'beast', m: 'man' };
  const name = role.length === 1 ? byLetter[/** @type {keyof byLetter} */ (role.toLowerCase())] : role;
  return t(`role.${name}`);
}

/**
 * An illegal move's reason, from the server's `code` and `args` (POST
 * /api/explain); the server's English sentence when the code is unknown.
 * @param {{ code?: string | null, args?: Record<string, string> | null, reason?: string | null }} why
 */
export function illegalReason(why) {
  const key = `illegal.${why.code}`;
  if (!why.code || !has(key)) return why.reason || t('illegal.generic');
  /** @type {Args} */
  const args = { ...(why.args || {}) };
  if (args.role) {
    // How a beast propelled by this piece moves (the reason names the beast's move).
    if (has(`propel_like.${args.role}`)) args.how = t(`propel_like.${args.role}`);
    args.role = roleName(String(args.role));
    args.Role = args.role.charAt(0).toUpperCase() + args.role.slice(1);
  }
  if (args.turn) {
    const c = colorArgs(String(args.turn));
    args.turn = c.color;
    args.turn_gen = c.color_gen;
  }
  if (args.game) args.game = t(`game.${args.game}`);
  return t(key, args);
}

/**
 * A game's end, as the banner says it: by the end's `reason` and `winner`,
 * the server's English title and text when the reason is unknown.
 * @param {{ reason: string, winner?: string | null, no_show?: string | null, title: string, text: string, result?: string }} end
 * @param {string} [variant]
 * @returns {{ title: string, text: string }}
 */
export function endText(end, variant) {
  const w = end.winner ? colorArgs(end.winner) : colorArgs('white');
  const l = end.winner ? colorArgs(end.winner === 'white' ? 'black' : 'white') : colorArgs('black');
  const wins = t('end.wins', w);
  switch (end.reason) {
    case 'checkmate': return end.winner ? { title: t('end.checkmate'), text: wins } : server(end);
    case 'no_legal_moves': return { title: t('end.no_legal_moves'), text: t('end.cannot_move', { wins, loser: l.color }) };
    case 'resignation': return { title: t('end.resigns', l), text: wins };
    case 'timeout': return end.winner ? { title: t('end.timeout', l), text: wins } : { title: t('end.draw'), text: t('end.timeout_draw') };
    case 'abandoned': return { title: t('end.abandoned'), text: wins };
    case 'stalemate': return end.winner ? server(end) : { title: t('end.stalemate'), text: t('end.draw') };
    case 'repetition': return { title: t('end.draw'), text: t('end.repetition') };
    case 'hundred_plies': return { title: t('end.draw'), text: t(variant === 'chessence' ? 'end.hundred_plies_drops' : 'end.hundred_plies') };
    case 'dead_material': return { title: t('end.draw'), text: t('end.dead_material') };
    case 'agreement': return { title: t('end.draw'), text: t('end.agreement') };
    // A tournament's game: the side that did not move in time lost.
    case 'no_start': return { title: t('end.no_start', colorArgs(end.no_show || 'white')), text: t('end.no_start_text', w) };
    case 'aborted':
      // `no_show`: the side that did not make its first move in time.
      return { title: t('end.aborted'), text: end.no_show ? t('end.no_show', colorArgs(end.no_show)) : t('end.aborted_text') };
    case 'imported': return { title: t('end.game_over'), text: end.result === '1/2-1/2' ? t('end.drawn') : t('end.won', w) };
    default: return server(end);
  }
}

/** @param {{ title: string, text: string }} end */
const server = (end) => ({ title: end.title, text: end.text });

/**
 * A refusal or an error from the server, by its `kind`; its own message
 * when the kind has no translation. A busy server's (429, 503) says in how
 * many seconds to try again, when it said so (Retry-After).
 * @param {{ kind?: string | null, message?: string, retryAfter?: number | null }} err
 */
export function serverError(err) {
  const busy = err.kind === 'rate_limited' || err.kind === 'overloaded' || err.kind === 'unavailable';
  if (busy && typeof err.retryAfter === 'number' && err.retryAfter > 0) {
    const secs = Math.ceil(err.retryAfter);
    return err.kind === 'rate_limited' ? plural('error.wait.rate_limited', secs) : plural('error.wait.busy', secs);
  }
  // Malformed input: the server's sentence says what is wrong with it (a
  // FEN's side to move, a PGN's move), which "not understood" would not.
  if (err.kind === 'bad_request' && err.message && !/^HTTP \d+$/.test(err.message)) return err.message;
  const key = `error.${err.kind}`;
  return err.kind && has(key) ? t(key) : (err.message || t('error.unknown'));
}

/** "3 days a move" (correspondence), in the player's language. @param {number} n */
export function daysPerMove(n) {
  return t(n === 1 ? 'corr.days_one' : n < 5 ? 'corr.days_few' : 'corr.days_many', { n });
}
