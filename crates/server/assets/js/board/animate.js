// @ts-check
// Moves animated along their real path: a ricochet through its beast, a
// hop chain hop by hop (the beast swelling in each hop), a propel as the
// piece and then the beast, a drop fading in, a capture fading out.

import { S, xy } from './geometry.js';
import { el } from './render.js';
import { symbolId } from '../pieces.js';

/** @typedef {import('./types.js').Path} Path */
/** @typedef {import('./types.js').Geometry} Geometry */
/** @typedef {import('./types.js').Color} Color */

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));
// No animation where nobody would see it move (a hidden tab draws no
// frames: its moves are set at once) or where motion is turned down.
const reducedMotion = () => (typeof document !== 'undefined' && document.hidden)
  || (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches);

/**
 * Animates `path` on the pieces drawn in `layer`.
 * @param {{ g: Geometry, orientation: Color, layer: SVGElement, pieces: Map<string, SVGElement>, skipFirst: boolean }} board
 * @param {Path} path
 */
export async function animatePath(board, path) {
  const { g, orientation, layer } = board;
  const fast = reducedMotion();
  const items = [...board.pieces.entries()].map(([square, node]) => ({ square, node, letter: node.dataset.piece || '' }));
  const moved = new Set();
  let capturedDone = false;
  for (const [i, route] of path.routes.entries()) {
    const start = route.squares[0];
    const item = items.find((it) => it.square === start && it.letter === route.piece && !moved.has(it.node)) ||
      items.find((it) => it.square === start && it.letter === route.piece);
    if (!item) {
      // A drop: the piece appears.
      if (route.squares.length === 1) {
        const { x, y } = xy(g, orientation, start);
        const node = el('use', { href: `#${symbolId(route.piece)}`, x, y, width: S, height: S, class: 'piece appear' }, layer);
        await sleep(fast ? 0 : 180);
        node.classList.remove('appear');
      }
      continue;
    }
    layer.appendChild(item.node);
    const hopping = route.piece.toUpperCase() === 'T' && route.squares.length > 1;
    if ((i === 0 && board.skipFirst) || fast) {
      const { x, y } = xy(g, orientation, route.squares[route.squares.length - 1]);
      item.node.setAttribute('x', String(x));
      item.node.setAttribute('y', String(y));
    } else {
      for (let k = 1; k < route.squares.length; k++) {
        await tween(item.node, xy(g, orientation, route.squares[k - 1]), xy(g, orientation, route.squares[k]), hopping);
      }
    }
    item.square = route.squares[route.squares.length - 1];
    moved.add(item.node);
    if (!capturedDone && path.captured) {
      capturedDone = true;
      const victim = items.find((it) => it.square === path.captured && !moved.has(it.node));
      if (victim) {
        victim.node.classList.add('captured');
        await sleep(fast ? 0 : 140);
      }
    }
  }
}

/**
 * @param {SVGElement} node @param {{x: number, y: number}} a @param {{x: number, y: number}} b @param {boolean} hop
 * @returns {Promise<void>}
 */
function tween(node, a, b, hop) {
  const dist = Math.hypot(b.x - a.x, b.y - a.y) / S;
  const duration = Math.min(340, 110 + 55 * dist);
  return new Promise((resolve) => {
    const t0 = performance.now();
    let done = false;
    // Frames stop when the tab is hidden (or stall on a busy machine): the
    // move ends on time anyway, so that the states queued after it are not
    // held up.
    const backstop = setTimeout(() => frame(t0 + duration), duration + 120);
    const frame = (/** @type {number} */ now) => {
      if (done) return;
      const t = Math.min(1, Math.max(0, (now - t0) / duration));
      const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
      const x = a.x + (b.x - a.x) * e;
      const y = a.y + (b.y - a.y) * e;
      node.setAttribute('x', String(x));
      node.setAttribute('y', String(y));
      if (hop) {
        const s = 1 + 0.22 * Math.sin(Math.PI * t);
        const cx = x + S / 2;
        const cy = y + S / 2;
        node.setAttribute('transform', `translate(${cx} ${cy}) scale(${s}) translate(${-cx} ${-cy})`);
      }
      if (t < 1) requestAnimationFrame(frame);
      else {
        done = true;
        clearTimeout(backstop);
        node.removeAttribute('transform');
        resolve();
      }
    };
    requestAnimationFrame(frame);
  });
}
