// @ts-check
// The player's settings, remembered in localStorage: sound, board and
// piece themes, the evaluation bar, which explanations were seen.

import { frozen } from './frozen.js';

/**
 * @typedef {{
 *   muted: boolean,
 *   boardTheme: string,
 *   pieceTheme: string,
 *   evalBar: boolean,
 *   legendSeen: boolean,
 * }} Settings
 */

/** @type {{ [K in keyof Settings]: string }} */
const KEYS = frozen({
  muted: 'tensorchess.muted',
  boardTheme: 'tensorchess.boardTheme',
  pieceTheme: 'tensorchess.pieceTheme',
  evalBar: 'tensorchess.evalBar',
  legendSeen: 'tensorchess.legendSeen',
});

/** @type {Settings} */
const DEFAULTS = frozen({ muted: false, boardTheme: 'wood', pieceTheme: 'classic', evalBar: false, legendSeen: false });

export const BOARD_THEMES = frozen(['wood', 'green', 'blue']);

/** @param {string} key */
function read(key) {
  try { return localStorage.getItem(key); } catch (_) { return null; }
}

/**
 * @template {keyof Settings} K
 * @param {K} name @returns {Settings[K]}
 */
export function get(name) {
  const raw = read(KEYS[name]);
  const d = DEFAULTS[name];
  if (raw === null) return d;
  if (typeof d === 'boolean') return /** @type {Settings[K]} */ (raw === '1');
  return /** @type {Settings[K]} */ (raw);
}

/**
 * @template {keyof Settings} K
 * @param {K} name @param {Settings[K]} value
 */
export function set(name, value) {
  try {
    if (value === null) localStorage.removeItem(KEYS[name]);
    else localStorage.setItem(KEYS[name], typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  } catch (_) { /* storage off: the setting lasts for this page */ }
}
