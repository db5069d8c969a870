// @ts-check
// The evaluation graph of a line: White's winning chances after each move
// (lichess's curve), the area above the middle White's, below Black's;
// mistakes marked; a click on the graph goes to that move.

import { winChance, scoreText } from './net.js';
import { t } from '../i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 120;

/** @param {string} tag @param {Record<string, string | number>} attrs @param {Element} parent */
function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent.appendChild(e);
  return e;
}

/**
 * Draws the graph into `box`.
 * @param {HTMLElement} box
 * @param {{ score: import('./net.js').Score | null | undefined, judgement?: string | null, san: string }[]} points one per move
 * @param {number} current index of the move shown (−1: the start)
 * @param {(index: number) => void} onPick
 */
export function drawGraph(box, points, current, onPick) {
  box.innerHTML = '';
  const known = points.filter((p) => p.score).length;
  box.classList.toggle('hidden', known === 0);
  if (!known) return;
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'eval-graph', role: 'img', 'aria-label': t('analysis.graph') }, box);
  const n = Math.max(points.length, 2);
  const x = (/** @type {number} */ i) => ((i + 1) / n) * W;
  const y = (/** @type {number} */ w) => H / 2 - (w * H) / 2 * 0.94;
  let prev = 0;
  const ys = points.map((p) => {
    if (p.score) prev = winChance(p.score);
    return prev;
  });
  el('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-black' }, svg);
  const d = `M0 ${H} L0 ${y(0)} ${ys.map((w, i) => `L${x(i).toFixed(1)} ${y(w).toFixed(1)}`).join(' ')} L${W} ${y(ys[ys.length - 1] || 0)} L${W} ${H} Z`;
  el('path', { d, class: 'graph-white' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }, svg);
  points.forEach((p, i) => {
    if (p.judgement === 'mistake' || p.judgement === 'blunder' || p.judgement === 'inaccuracy') {
      el('circle', { cx: x(i), cy: y(ys[i]), r: 4, class: `graph-mark ${p.judgement}` }, svg);
    }
  });
  if (current >= 0 && current < points.length) {
    el('line', { x1: x(current), y1: 0, x2: x(current), y2: H, class: 'graph-now' }, svg);
  }
  const title = el('title', {}, svg);
  title.textContent = t('analysis.graph');
  svg.addEventListener('click', (e) => {
    const r = svg.getBoundingClientRect();
    const i = Math.round(((/** @type {MouseEvent} */ (e).clientX - r.left) / r.width) * n) - 1;
    onPick(Math.max(-1, Math.min(points.length - 1, i)));
  });
  const last = points[current];
  if (last && last.score) svg.setAttribute('aria-label', `${t('analysis.graph')}: ${last.san} ${scoreText(last.score)}`);
}
