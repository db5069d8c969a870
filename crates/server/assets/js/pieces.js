// @ts-check
// The piece set, drawn for this project: SVG symbols on a 100×100 grid.
// Letters are FEN letters: K Q R B N P, T the Tensor Beast, M the Chessence man.
// The same shapes come in a few colourings (piece themes).

import * as settings from './settings.js';
import { frozen } from './frozen.js';

/** @typedef {{ fill: string, stroke: string, detail: string, accent: string, eye: string }} Colors */

/** @type {Record<string, { white: Colors, black: Colors }>} */
export const PIECE_THEMES = frozen({
  classic: {
    white: { fill: '#fbf8ef', stroke: '#1b1b1b', detail: '#1b1b1b', accent: '#0f9c93', eye: '#ffffff' },
    black: { fill: '#2b2b2e', stroke: '#050505', detail: '#e9e6dc', accent: '#19c2b5', eye: '#f5e663' },
  },
  // Stronger contrast: pure white and black, bright accents.
  contrast: {
    white: { fill: '#ffffff', stroke: '#000000', detail: '#000000', accent: '#006b65', eye: '#ffffff' },
    black: { fill: '#000000', stroke: '#000000', detail: '#ffffff', accent: '#00e0cf', eye: '#ffe600' },
  },
  // Warm ivory and deep red-brown, like a turned wooden set.
  wood: {
    white: { fill: '#f3e3c3', stroke: '#3b2412', detail: '#3b2412', accent: '#b5541c', eye: '#fff8e8' },
    black: { fill: '#5a2c17', stroke: '#1e0d05', detail: '#f3e3c3', accent: '#f09a3e', eye: '#ffd34d' },
  },
});

// The player's choice, from the start: boards draw their pieces when made.
// The theme drawn is the page's (`<body data-pieces>`, as the board theme
// is a class on <body>), else the one in the settings.
const theme = () => {
  const chosen = typeof document !== 'undefined' && document.body ? document.body.dataset.pieces : undefined;
  return PIECE_THEMES[chosen || settings.get('pieceTheme')] || PIECE_THEMES.classic;
};

/** Chooses the colouring used by pieceDefs and pieceSvg (the page's: `<body data-pieces>`). @param {string} name */
export function setPieceTheme(name) {
  document.body.dataset.pieces = name in PIECE_THEMES ? name : 'classic';
}

/** @param {Colors} c */
const base = (c) =>
  `<path d="M22 88 Q22 77 33 74 L67 74 Q78 77 78 88 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>`;

/** @type {Record<string, (c: Colors) => string>} */
const SHAPES = frozen({
  P: (c) => `
    <circle cx="50" cy="28" r="13" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5"/>
    <path d="M37 45 Q50 38 63 45 L58 50 Q57 63 66 75 L34 75 Q43 63 42 50 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    ${base(c)}`,
  R: (c) => `
    <path d="M27 17 H38 V25 H45 V17 H55 V25 H62 V17 H73 V35 L66 41 V66 L72 74 H28 L34 66 V41 L27 35 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M34 41 H66 M34 66 H66" stroke="${c.detail}" stroke-width="3"/>
    ${base(c)}`,
  B: (c) => `
    <circle cx="50" cy="14" r="6" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5"/>
    <path d="M50 21 C33 33 30 52 39 64 H61 C70 52 67 33 50 21 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M56 34 L45 47" stroke="${c.detail}" stroke-width="4" stroke-linecap="round"/>
    <rect x="35" y="64" width="30" height="9" rx="2" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5"/>
    ${base(c)}`,
  N: (c) => `
    <path d="M31 75 C30 62 36 55 45 48 C39 47 33 50 27 54 C21 57 15 51 18 45 C23 37 32 29 39 23 L38 12 L47 20 C62 18 75 30 77 48 C79 60 76 68 73 75 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    <circle cx="43" cy="32" r="3.6" fill="${c.detail}"/>
    <path d="M22 49 L26 48" stroke="${c.detail}" stroke-width="3" stroke-linecap="round"/>
    <path d="M57 26 C66 34 70 48 67 68" fill="none" stroke="${c.detail}" stroke-width="2.5" stroke-linecap="round" opacity="0.8"/>
    ${base(c)}`,
  Q: (c) => `
    <path d="M19 33 L31 66 H69 L81 33 L64 52 L59 24 L50 50 L41 24 L36 52 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    <circle cx="19" cy="30" r="5.5" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3"/>
    <circle cx="41" cy="21" r="5.5" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3"/>
    <circle cx="59" cy="21" r="5.5" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3"/>
    <circle cx="81" cy="30" r="5.5" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3"/>
    <rect x="31" y="65" width="38" height="9" rx="2" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5"/>
    ${base(c)}`,
  K: (c) => `
    <path d="M46 6 H54 V13 H61 V21 H54 V31 H46 V21 H39 V13 H46 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3" stroke-linejoin="round"/>
    <path d="M50 36 C33 26 13 35 20 54 L30 66 H70 L80 54 C87 35 67 26 50 36 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M50 37 V64" stroke="${c.detail}" stroke-width="3"/>
    <rect x="30" y="65" width="40" height="9" rx="2" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5"/>
    ${base(c)}`,
  // The Tensor Beast: a horned, wide-eyed creature with teal horns, unlike any chess piece.
  T: (c) => `
    <path d="M29 33 L13 7 L42 24 Z" fill="${c.accent}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M71 33 L87 7 L58 24 Z" fill="${c.accent}" stroke="${c.stroke}" stroke-width="3.5" stroke-linejoin="round"/>
    <path d="M50 19 C75 19 87 37 86 57 C85 78 69 90 50 90 C31 90 15 78 14 57 C13 37 25 19 50 19 Z" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5"/>
    <path d="M14 55 L5 49 M14 62 L5 66 M86 55 L95 49 M86 62 L95 66" stroke="${c.stroke}" stroke-width="3.5" stroke-linecap="round"/>
    <circle cx="37" cy="47" r="10" fill="${c.eye}" stroke="${c.stroke}" stroke-width="3"/>
    <circle cx="63" cy="47" r="10" fill="${c.eye}" stroke="${c.stroke}" stroke-width="3"/>
    <circle cx="39" cy="49" r="4.5" fill="#111"/>
    <circle cx="61" cy="49" r="4.5" fill="#111"/>
    <path d="M31 68 L37 75 L43 68 L50 75 L57 68 L63 75 L69 68" fill="none" stroke="${c.accent}" stroke-width="4" stroke-linejoin="round" stroke-linecap="round"/>`,
  M: (c) => `
    <circle cx="50" cy="52" r="33" fill="${c.fill}" stroke="${c.stroke}" stroke-width="3.5"/>
    <circle cx="50" cy="52" r="21" fill="none" stroke="${c.detail}" stroke-width="3"/>
    <circle cx="50" cy="52" r="7" fill="${c.detail}"/>`,
});

const isWhite = (/** @type {string} */ letter) => letter === letter.toUpperCase();

/** The id of a piece's <symbol>. @param {string} letter */
export function symbolId(letter) {
  return `piece-${isWhite(letter) ? 'w' : 'b'}${letter.toUpperCase()}`;
}

/**
 * <defs> content: every piece of both colours, a king drawn as a yellow
 * outline (castling targets) and a small beast sign (propel targets).
 */
export function pieceDefs() {
  let out = '';
  for (const role of Object.keys(SHAPES)) {
    out += `<symbol id="piece-w${role}" viewBox="0 0 100 100">${SHAPES[role](theme().white)}</symbol>`;
    out += `<symbol id="piece-b${role}" viewBox="0 0 100 100">${SHAPES[role](theme().black)}</symbol>`;
  }
  const halo = { fill: 'none', stroke: 'rgba(60,40,0,0.55)', detail: 'none', accent: 'none', eye: 'none' };
  const outline = { fill: 'rgba(255,214,0,0.3)', stroke: '#ffd400', detail: '#ffd400', accent: '#ffd400', eye: 'none' };
  out += `<symbol id="king-outline" viewBox="0 0 100 100"><g stroke-width="8">${SHAPES.K(halo).replace(/stroke-width="[\d.]+"/g, '')}</g>${SHAPES.K(outline)}</symbol>`;
  out += `<symbol id="beast-sign" viewBox="0 0 100 100">${SHAPES.T({ ...PIECE_THEMES.classic.white, fill: '#e9fff6', accent: '#0b7d74' })}</symbol>`;
  return out;
}

/**
 * A standalone <svg> of one piece (choosers, reserves, the legend); with a
 * label it is an image of that name, else decoration.
 * @param {string} letter @param {number} [size] @param {string} [label]
 */
export function pieceSvg(letter, size = 48, label = '') {
  const c = isWhite(letter) ? theme().white : theme().black;
  const shape = SHAPES[letter.toUpperCase()];
  if (!shape) return '';
  const a11y = label ? `role="img" aria-label="${label.replace(/"/g, '')}"` : 'aria-hidden="true"';
  return `<svg class="piece-icon" width="${size}" height="${size}" viewBox="0 0 100 100" ${a11y}>${shape(c)}</svg>`;
}
