// @ts-check
// Where squares are drawn: SVG coordinates of a board of any size, seen
// from either side. Pure.

import { squareName, parseSquare } from '../fen.js';

/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').Color} Color */

export const S = 100; // a square's size in SVG units
export const M = 44; // the margin that holds the coordinates (large enough to read on a phone)

/**
 * The top-left corner of `name`'s square.
 * @param {Geometry} g @param {Color} orientation @param {string} name
 */
export function xy(g, orientation, name) {
  const { file, rank } = parseSquare(name);
  const f = orientation === 'white' ? file : g.files - 1 - file;
  const r = orientation === 'white' ? g.ranks - 1 - rank : rank;
  return { x: M + f * S, y: r * S };
}

/** @param {Geometry} g @param {Color} orientation @param {string} name */
export function center(g, orientation, name) {
  const { x, y } = xy(g, orientation, name);
  return { x: x + S / 2, y: y + S / 2 };
}

/**
 * The square under a point in SVG units (null: off the board or a hole).
 * @param {Geometry} g @param {Color} orientation @param {number} px @param {number} py
 */
export function squareAtPoint(g, orientation, px, py) {
  const f = Math.floor((px - M) / S);
  const r = Math.floor(py / S);
  if (f < 0 || f >= g.files || r < 0 || r >= g.ranks) return null;
  const file = orientation === 'white' ? f : g.files - 1 - f;
  const rank = orientation === 'white' ? g.ranks - 1 - r : r;
  const name = squareName(file, rank);
  return g.holes.includes(name) ? null : name;
}

/** Every square that exists, rank 1 first. @param {Geometry} g */
export function squares(g) {
  const out = [];
  for (let rank = 0; rank < g.ranks; rank++) {
    for (let file = 0; file < g.files; file++) {
      const name = squareName(file, rank);
      if (!g.holes.includes(name)) out.push(name);
    }
  }
  return out;
}

/**
 * The square a keyboard cursor goes to from `from` by an arrow key, as the
 * board is seen (up is away from the player); holes are skipped.
 * @param {Geometry} g @param {Color} orientation @param {string} from
 * @param {'up' | 'down' | 'left' | 'right'} dir
 */
export function step(g, orientation, from, dir) {
  const { file, rank } = parseSquare(from);
  const flip = orientation === 'white' ? 1 : -1;
  const [df, dr] = { up: [0, 1], down: [0, -1], left: [-1, 0], right: [1, 0] }[dir].map((d) => d * flip);
  let f = file + df;
  let r = rank + dr;
  while (f >= 0 && f < g.files && r >= 0 && r < g.ranks) {
    const name = squareName(f, r);
    if (!g.holes.includes(name)) return name;
    f += df;
    r += dr;
  }
  return from;
}
