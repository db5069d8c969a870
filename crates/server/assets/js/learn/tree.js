// @ts-check
// The analysis board's move tree: the main line and its variations, each
// move with its comments and annotation glyphs (NAGs); promoting and
// deleting a variation; PGN export with all of it. No DOM here (the unit
// tests run it in Node).

import { frozen } from '../frozen.js';

/** @typedef {import('../board/types.js').Path} Path */
/** @typedef {import('./net.js').Score} Score */
/** @typedef {import('./net.js').TreeLine} TreeLine */

/**
 * A move of the tree (the root has no move: its `fen` is the start; it
 * holds the last id given in its tree, `lastId`: ids are unique in a tree).
 * @typedef {{
 *   id: number, uci: string, san: string, fen: string, check: string | null, path: Path | null,
 *   nags: number[], comments: string[], children: TreeNode[], parent: TreeNode | null,
 *   ply: number, eval?: Score | null, judgement?: string | null, lastId?: number,
 * }} TreeNode
 */

/** A new tree: its root (ids are counted per tree, on the root: `lastId`). @param {string} fen @returns {TreeNode} */
export function newRoot(fen) {
  return { id: 0, uci: '', san: '', fen, check: null, path: null, nags: [], comments: [], children: [], parent: null, ply: 0, lastId: 0 };
}

/** The root of `node`'s tree. @param {TreeNode} node */
function rootOf(node) {
  let n = node;
  while (n.parent) n = n.parent;
  return n;
}

/** A new id in `node`'s tree. @param {TreeNode} node */
function nextId(node) {
  const root = rootOf(node);
  root.lastId = (root.lastId || 0) + 1;
  return root.lastId;
}

/**
 * The child of `parent` playing `move` (a new one at the end of its
 * variations, unless that move is there already).
 * @param {TreeNode} parent
 * @param {{ uci: string, san: string, fen: string, check?: string | null, path?: Path | null, nags?: number[], comments?: string[] }} move
 * @returns {TreeNode}
 */
export function addMove(parent, move) {
  const same = parent.children.find((c) => c.uci === move.uci);
  if (same) return same;
  /** @type {TreeNode} */
  const node = {
    id: nextId(parent), uci: move.uci, san: move.san, fen: move.fen, check: move.check || null, path: move.path || null,
    nags: move.nags ? [...move.nags] : [], comments: move.comments ? [...move.comments] : [], children: [], parent, ply: parent.ply + 1,
  };
  parent.children.push(node);
  return node;
}

/** The moves from the root to `node`, first first. @param {TreeNode} node @returns {TreeNode[]} */
export function pathTo(node) {
  const out = [];
  for (let n = /** @type {TreeNode | null} */ (node); n && n.parent; n = n.parent) out.unshift(n);
  return out;
}

/** The main line from `node` on (its first children). @param {TreeNode} node @returns {TreeNode[]} */
export function mainLine(node) {
  const out = [];
  for (let n = node.children[0]; n; n = n.children[0]) out.push(n);
  return out;
}

/** Whether `node` is on the main line. @param {TreeNode} node */
export function onMainLine(node) {
  for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
  return true;
}

/** Finds a node by id under `root`. @param {TreeNode} root @param {number} id @returns {TreeNode | null} */
export function findNode(root, id) {
  if (root.id === id) return root;
  for (const c of root.children) {
    const f = findNode(c, id);
    if (f) return f;
  }
  return null;
}

/**
 * Promotes the variation `node` is in one level: it takes the place of the
 * line it branches from. Answers whether anything changed.
 * @param {TreeNode} node
 */
export function promote(node) {
  for (let n = node; n.parent; n = n.parent) {
    const siblings = n.parent.children;
    const i = siblings.indexOf(n);
    if (i > 0) {
      siblings.splice(i, 1);
      siblings.unshift(n);
      return true;
    }
  }
  return false;
}

/** Deletes `node` and what follows it; answers its parent. @param {TreeNode} node @returns {TreeNode | null} */
export function remove(node) {
  const p = node.parent;
  if (!p) return null;
  p.children = p.children.filter((c) => c !== node);
  return p;
}

/**
 * The tree of an imported PGN's line under `parent`.
 * @param {TreeNode} parent @param {TreeLine} line
 */
export function addLine(parent, line) {
  if (line.comments.length && !parent.parent) parent.comments.push(...line.comments);
  let at = parent;
  for (const m of line.moves) {
    const before = at;
    at = addMove(before, m);
    for (const v of m.variations) {
      const first = v.moves[0];
      if (!first) continue;
      addLine(before, v);
    }
  }
}

const NAG_GLYPHS = frozen(/** @type {Record<number, string>} */ ({ 1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!' }));
/** The glyph of a NAG for the move list (`$n` when it has none). @param {number} nag */
export const nagGlyph = (nag) => NAG_GLYPHS[nag] || `$${nag}`;

/** The side to move in a FEN, and its move number. @param {string} fen */
function turnAndNumber(fen) {
  const f = fen.split(/\s+/);
  return { white: f[1] !== 'b', number: parseInt(f[5] || '1', 10) || 1 };
}

/** A comment made safe for PGN (no closing brace). @param {string} c */
const comment = (c) => `{ ${c.replace(/}/g, ')')} }`;

/**
 * The tree as PGN movetext (moves numbered, variations in parentheses,
 * comments in braces, NAGs as `$n`).
 * @param {TreeNode} root @param {string} startFen
 */
export function movetext(root, startFen) {
  const start = turnAndNumber(startFen);
  /** @param {number} ply 1-based ply of the move */
  const numberOf = (ply) => {
    const half = ply - 1 + (start.white ? 0 : 1);
    return { white: half % 2 === 0, number: start.number + Math.floor(half / 2) };
  };
  /** @type {string[]} */
  const out = [];
  if (root.comments.length) out.push(...root.comments.map(comment));
  /** @param {TreeNode} node @param {boolean} forceNumber */
  const emit = (node, forceNumber) => {
    const n = numberOf(node.ply);
    if (n.white) out.push(`${n.number}.`);
    else if (forceNumber) out.push(`${n.number}...`);
    out.push(node.san + node.nags.map((g) => ` $${g}`).join(''));
    for (const c of node.comments) out.push(comment(c));
  };
  /** @param {TreeNode} parent @param {boolean} forceNumber */
  const line = (parent, forceNumber) => {
    let force = forceNumber;
    for (let p = parent; p.children.length;) {
      const [main, ...sides] = p.children;
      emit(main, force);
      force = false;
      for (const s of sides) {
        out.push('(');
        emit(s, true);
        line(s, false);
        out.push(')');
        force = true;
      }
      if (main.comments.length) force = true;
      p = main;
    }
  };
  line(root, true);
  return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
}

/**
 * A whole PGN: the tags, then the movetext and the result.
 * @param {TreeNode} root @param {{ variant: string, startFen: string, standardStart: boolean, result?: string, tags?: [string, string][] }} o
 */
export function toPgn(root, o) {
  const result = o.result || '*';
  /** @type {[string, string][]} */
  const tags = [['Event', 'Analysis'], ['Site', 'Tensor Chess'], ['Result', result]];
  for (const [k, v] of o.tags || []) if (!tags.some(([t]) => t === k) && k !== 'FEN' && k !== 'SetUp' && k !== 'Variant') tags.push([k, v]);
  if (o.variant !== 'chess') tags.push(['Variant', o.variant === 'tensor' ? 'Tensor' : 'Chessence']);
  if (!o.standardStart) tags.push(['SetUp', '1'], ['FEN', o.startFen]);
  const head = tags.map(([k, v]) => `[${k} "${v.replace(/["\\]/g, '')}"]`).join('\n');
  return `${head}\n\n${movetext(root, o.startFen)} ${result}\n`;
}
