// @ts-check
// Drawing the board: squares (each an element carrying data-square, with
// its accessible name), coordinates, pieces, highlights, the marks of a
// selection, arrows (hints, the player's own drawings, a premove) and the
// keyboard cursor. Each function redraws one layer from what it is given.

import { S, M, xy, center } from './geometry.js';
import { symbolId } from '../pieces.js';
import { squareName } from '../fen.js';
import { t, pieceName } from '../i18n.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').Color} Color */
/** @typedef {import('./types.js').Path} Path */
/** @typedef {import('./tap.js').Mark} Mark */
/** @typedef {{ from: string, to: string, color: string }} Drawing  a circle when from === to */

export const NS = 'http://www.w3.org/2000/svg';

/**
 * @param {string} tag @param {Record<string, string | number>} [attrs] @param {Element | null} [parent]
 * @returns {SVGElement}
 */
export function el(tag, attrs = {}, parent = null) {
  const e = /** @type {SVGElement} */ (document.createElementNS(NS, tag));
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

/** A view of the board for drawing. @typedef {{ g: Geometry, orientation: Color, id: string }} View */

/** @param {View} v @param {string} name */
const at = (v, name) => xy(v.g, v.orientation, name);

/** An empty square's or a piece's name, as read out. @param {string} square @param {string | undefined} piece */
export function squareLabel(square, piece) {
  if (!piece) return t('board.square_empty', { square });
  return t('board.square_piece', { piece: pieceName(piece), square });
}

/** The id of a square's element (aria-activedescendant). @param {View} v @param {string} square */
export const squareId = (v, square) => `${v.id}-sq-${square}`;

/**
 * The squares, one row element per rank (a grid, for assistive technology),
 * and the holes of boards that have them.
 * @param {SVGElement} layer @param {View} v
 */
export function drawSquares(layer, v) {
  layer.innerHTML = '';
  const ranks = [...Array(v.g.ranks).keys()];
  if (v.orientation === 'white') ranks.reverse();
  const files = [...Array(v.g.files).keys()];
  if (v.orientation === 'black') files.reverse();
  for (const rank of ranks) {
    const row = el('g', { role: 'row' }, layer);
    for (const file of files) {
      const name = squareName(file, rank);
      const { x, y } = at(v, name);
      if (v.g.holes.includes(name)) {
        // A square that does not exist: a faint dashed trace only.
        el('rect', { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 8, class: 'hole', 'data-hole': name, role: 'gridcell', 'aria-label': t('board.hole', { square: name }) }, row);
        continue;
      }
      el('rect', {
        x, y, width: S, height: S, id: squareId(v, name), role: 'gridcell',
        class: `sq ${(file + rank) % 2 === 0 ? 'dark' : 'light'}`, 'data-square': name,
      }, row);
    }
  }
}

/**
 * Brings the squares' accessible names up to date with the pieces on them.
 * @param {SVGElement} layer @param {Map<string, string>} placement
 */
export function labelSquares(layer, placement) {
  for (const r of layer.querySelectorAll('rect.sq')) {
    const s = r.getAttribute('data-square') || '';
    r.setAttribute('aria-label', squareLabel(s, placement.get(s)));
  }
}

/** @param {SVGElement} layer @param {View} v */
export function drawCoords(layer, v) {
  layer.innerHTML = '';
  for (let file = 0; file < v.g.files; file++) {
    const { x } = at(v, squareName(file, 0));
    const tx = el('text', { x: x + S / 2, y: v.g.ranks * S + M * 0.78, class: 'coord', 'text-anchor': 'middle' }, layer);
    tx.textContent = String.fromCharCode(97 + file);
  }
  for (let rank = 0; rank < v.g.ranks; rank++) {
    const { y } = at(v, squareName(0, rank));
    const tx = el('text', { x: M / 2, y: y + S / 2 + 12, class: 'coord', 'text-anchor': 'middle' }, layer);
    tx.textContent = String(rank + 1);
  }
}

/**
 * @param {SVGElement} layer @param {View} v @param {Map<string, string>} placement
 * @returns {Map<string, SVGElement>} the piece elements by square
 */
export function drawPieces(layer, v, placement) {
  layer.innerHTML = '';
  const out = new Map();
  for (const [square, letter] of placement) {
    const { x, y } = at(v, square);
    out.set(square, el('use', {
      href: `#${symbolId(letter)}`, x, y, width: S, height: S,
      class: `piece ${letter === letter.toUpperCase() ? 'white' : 'black'}`, 'data-square': square, 'data-piece': letter,
      'aria-label': squareLabel(square, letter),
    }, layer));
  }
  return out;
}

/**
 * The last move, the selected square, a king in check, a queued premove.
 * @param {SVGElement} layer @param {View} v
 * @param {{ last?: Path | null, selected?: string | null, check?: string | null, premove?: { from: string, to: string } | null }} h
 */
export function drawHighlights(layer, v, h) {
  layer.innerHTML = '';
  /** @param {string} name @param {string} cls */
  const rect = (name, cls) => {
    const { x, y } = at(v, name);
    el('rect', { x, y, width: S, height: S, class: cls, 'data-square': name }, layer);
  };
  if (h.last) {
    const squares = new Set();
    for (const r of h.last.routes) {
      squares.add(r.squares[0]);
      squares.add(r.squares[r.squares.length - 1]);
    }
    for (const s of squares) if (!v.g.holes.includes(s)) rect(s, 'last-move');
  }
  if (h.premove) {
    rect(h.premove.from, 'premove');
    rect(h.premove.to, 'premove');
  }
  if (h.selected) rect(h.selected, 'selected');
  if (h.check) {
    const c = center(v.g, v.orientation, h.check);
    el('circle', { cx: c.x, cy: c.y, r: S * 0.62, fill: `url(#${v.id}-check)`, class: 'check-glow', 'data-square': h.check }, layer);
  }
}

/**
 * A selection's marks: destinations (green), the beast to propel (dashed),
 * the beast sign of propel squares, castling arrows and king outlines, the
 * beasts a capture would take.
 * @param {SVGElement} marksLayer @param {SVGElement} overLayer @param {View} v @param {Mark[]} marks
 */
export function drawMarks(marksLayer, overLayer, v, marks) {
  marksLayer.innerHTML = '';
  overLayer.innerHTML = '';
  for (const m of marks) {
    const { x, y } = at(v, m.square);
    const c = { x: x + S / 2, y: y + S / 2 };
    const sq = { x, y, width: S, height: S, 'data-square': m.square };
    switch (m.kind) {
      case 'dest':
        el('rect', { ...sq, class: `mark-dest ${m.occupied ? 'occupied' : ''} ${m.cls || ''}` }, marksLayer);
        if (!m.occupied && m.dot !== false) el('circle', { cx: c.x, cy: c.y, r: 15, class: 'dest-dot', 'data-square': m.square }, marksLayer);
        break;
      case 'propel-beast':
        el('rect', { ...sq, class: 'mark-dest propel-beast' }, marksLayer);
        break;
      case 'propel-beast-selected':
      case 'castle-rook-selected':
      case 'castle-target':
        el('rect', { ...sq, class: m.kind }, marksLayer);
        break;
      case 'choose-target':
        el('rect', { ...sq, class: 'mark-dest choose-target' }, marksLayer);
        break;
      case 'beast-sign':
        el('use', { href: '#beast-sign', x: x + S * 0.25, y: y + S * 0.25, width: S * 0.5, height: S * 0.5, class: 'beast-sign', 'data-square': m.square }, overLayer);
        break;
      case 'propel-sign': {
        // A badge in the square's corner, clear of the beast's face (a red
        // disk over it read as a red face).
        const g = el('g', { class: 'propel-sign', 'data-square': m.square }, overLayer);
        const b = { x: x + S * 0.83, y: y + S * 0.17 };
        const r = S * 0.14;
        el('circle', { cx: b.x, cy: b.y, r }, g);
        el('path', { d: `M${b.x} ${b.y - r * 0.55} V${b.y + r * 0.55} M${b.x - r * 0.55} ${b.y} H${b.x + r * 0.55}` }, g);
        break;
      }
      case 'castle-arrow': {
        const g = el('g', { class: 'castle-arrow', 'data-square': m.square }, overLayer);
        el('rect', { x: x + 8, y: y + 2, width: S - 16, height: 30, rx: 15 }, g);
        const cy = y + 17;
        el('path', { d: `M${x + 22} ${cy} H${x + S - 22} M${x + 32} ${cy - 9} L${x + 20} ${cy} L${x + 32} ${cy + 9} M${x + S - 32} ${cy - 9} L${x + S - 20} ${cy} L${x + S - 32} ${cy + 9}` }, g);
        break;
      }
      case 'king-outline':
        el('use', { href: '#king-outline', x, y, width: S, height: S, class: 'king-outline', 'data-square': m.square }, overLayer);
        break;
      case 'capture-mark': {
        const g = el('g', { class: 'capture-mark', 'data-square': m.square }, overLayer);
        el('circle', { cx: c.x, cy: c.y, r: S * 0.46 }, g);
        el('path', { d: `M${c.x - 22} ${c.y - 22} L${c.x + 22} ${c.y + 22} M${c.x + 22} ${c.y - 22} L${c.x - 22} ${c.y + 22}` }, g);
        break;
      }
      default:
        break;
    }
  }
}

/**
 * Arrows along paths (the engine's hint: the piece, then a propelled beast),
 * and the player's own arrows and circles.
 * @param {SVGElement} layer @param {View} v @param {Path | null} hint @param {Drawing[]} drawings
 */
export function drawArrows(layer, v, hint, drawings) {
  layer.innerHTML = '';
  const c = (/** @type {string} */ s) => center(v.g, v.orientation, s);
  if (hint) {
    hint.routes.forEach((route, i) => {
      if (route.squares.length < 2) return;
      const d = route.squares.map((s, j) => `${j ? 'L' : 'M'}${c(s).x} ${c(s).y}`).join(' ');
      el('path', { d, class: `hint-arrow ${i ? 'second' : ''}`, 'marker-end': `url(#${v.id}-head)` }, layer);
    });
  }
  for (const dr of drawings) {
    if (dr.from === dr.to) {
      const p = c(dr.from);
      el('circle', { cx: p.x, cy: p.y, r: S * 0.44, class: `drawing circle ${dr.color}`, 'data-square': dr.from }, layer);
    } else {
      const a = c(dr.from);
      const b = c(dr.to);
      // Stop short of the centre so that the head sits inside the square.
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      const k = (len - S * 0.28) / len;
      el('path', {
        d: `M${a.x} ${a.y} L${a.x + (b.x - a.x) * k} ${a.y + (b.y - a.y) * k}`,
        class: `drawing arrow ${dr.color}`, 'marker-end': `url(#${v.id}-head)`, 'data-from': dr.from, 'data-to': dr.to,
      }, layer);
    }
  }
}

/** The keyboard cursor (shown while the board has the focus). @param {SVGElement} layer @param {View} v @param {string | null} square */
export function drawCursor(layer, v, square) {
  layer.innerHTML = '';
  if (!square) return;
  const { x, y } = at(v, square);
  el('rect', { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, class: 'cursor', 'data-square': square }, layer);
}
