// @ts-check
// The lobby's seeks as lichess draws them on a desktop: a graph of rating
// (up) against the game's length (right), a dot a seek, coloured by game,
// filled when rated; a click takes someone else's seek or cancels one's
// own. The table beside it says the same for keyboards and screen readers,
// so the graph is a picture to them (aria-hidden). Its scales are pure
// functions (unit/lobby.test.mjs).

/** @typedef {import('../api.js').SeekView} SeekView */
/** @typedef {import('../api.js').ClockSpec} ClockSpec */

const SVG = 'http://www.w3.org/2000/svg';

/** The drawing's size and margins, in its own units. */
export const GRAPH = Object.freeze({ width: 560, height: 260, left: 54, right: 16, top: 12, bottom: 30 });

/** The lengths marked on the time axis, in minutes of estimated game time. */
export const TIME_TICKS = Object.freeze([1, 3, 5, 10, 15, 30, 60]);
/** The ratings marked on the rating axis. */
export const RATING_TICKS = Object.freeze([1000, 1200, 1400, 1600, 1800, 2000, 2200]);
/** The rating axis's ends (a rating beyond them sits at the edge). */
export const RATING_RANGE = Object.freeze([800, 2400]);
/** The time axis's ends in minutes (log scale); no clock sits past its end. */
export const TIME_RANGE = Object.freeze([0.5, 90]);

/**
 * A game's estimated length in minutes, as lichess sorts time controls:
 * the base time and forty increments; `Infinity` without a clock.
 * @param {ClockSpec | null} clock
 */
export const estimatedMinutes = (clock) => (clock ? (clock.base_seconds + 40 * clock.increment_seconds) / 60 : Infinity);

const plotLeft = GRAPH.left;
const plotRight = GRAPH.width - GRAPH.right;
const plotTop = GRAPH.top;
const plotBottom = GRAPH.height - GRAPH.bottom;
/** Where seeks without a clock stand: a column of their own at the right. */
const NO_CLOCK_X = plotRight - 8;
const TIMED_RIGHT = plotRight - 28;

/** The x of a game of `minutes` (log scale, clamped; no clock at the right end). @param {number} minutes */
export function xOf(minutes) {
  if (!Number.isFinite(minutes)) return NO_CLOCK_X;
  const [lo, hi] = TIME_RANGE;
  const m = Math.min(hi, Math.max(lo, minutes));
  return plotLeft + ((Math.log(m) - Math.log(lo)) / (Math.log(hi) - Math.log(lo))) * (TIMED_RIGHT - plotLeft);
}

/** The y of a rating (linear, higher up, clamped). @param {number} rating */
export function yOf(rating) {
  const [lo, hi] = RATING_RANGE;
  const r = Math.min(hi, Math.max(lo, rating));
  return plotBottom - ((r - lo) / (hi - lo)) * (plotBottom - plotTop);
}

/**
 * Each seek's place: seeks that would cover each other are moved apart,
 * up and down in turn, so that every dot can be clicked.
 * @param {SeekView[]} seeks @returns {{ seek: SeekView, x: number, y: number }[]}
 */
export function placeSeeks(seeks) {
  /** @type {{ seek: SeekView, x: number, y: number }[]} */
  const placed = [];
  const ordered = [...seeks].sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  for (const seek of ordered) {
    const x = xOf(estimatedMinutes(seek.clock));
    const y0 = yOf(seek.player.rating);
    let y = y0;
    for (let k = 1; placed.some((p) => Math.abs(p.x - x) < 12 && Math.abs(p.y - y) < 12); k++) {
      y = y0 + (k % 2 ? -1 : 1) * Math.ceil(k / 2) * 12;
    }
    placed.push({ seek, x, y });
  }
  return placed;
}

/** @param {string} tag @param {Record<string, string | number>} attrs */
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * Draws the graph into `box` (its contents replaced).
 * @param {HTMLElement} box
 * @param {{ seeks: SeekView[], me: string | null, busy: boolean, describe: (s: SeekView) => string,
 *   noClock: string, timeLabel: string, ratingLabel: string,
 *   onAccept: (s: SeekView) => void, onCancel: (id: string) => void }} o
 */
export function renderSeekGraph(box, o) {
  const svg = svgEl('svg', { viewBox: `0 0 ${GRAPH.width} ${GRAPH.height}`, class: 'seek-graph-svg' });
  svg.setAttribute('aria-hidden', 'true');
  const axes = svgEl('g', { class: 'seek-graph-axes' });
  for (const r of RATING_TICKS) {
    const y = yOf(r);
    axes.append(svgEl('line', { x1: plotLeft, x2: plotRight, y1: y, y2: y, class: 'grid' }));
    const label = svgEl('text', { x: plotLeft - 6, y: y + 4, 'text-anchor': 'end' });
    label.textContent = String(r);
    axes.append(label);
  }
  for (const m of TIME_TICKS) {
    const x = xOf(m);
    axes.append(svgEl('line', { x1: x, x2: x, y1: plotTop, y2: plotBottom, class: 'grid' }));
    const label = svgEl('text', { x, y: plotBottom + 16, 'text-anchor': 'middle' });
    label.textContent = String(m);
    axes.append(label);
  }
  const inf = svgEl('text', { x: NO_CLOCK_X, y: plotBottom + 16, 'text-anchor': 'middle' });
  inf.textContent = o.noClock;
  axes.append(inf);
  const time = svgEl('text', { x: (plotLeft + plotRight) / 2, y: GRAPH.height - 2, 'text-anchor': 'middle', class: 'axis-title' });
  time.textContent = o.timeLabel;
  const rating = svgEl('text', { x: 10, y: (plotTop + plotBottom) / 2, 'text-anchor': 'middle', class: 'axis-title',
    transform: `rotate(-90 10 ${(plotTop + plotBottom) / 2})` });
  rating.textContent = o.ratingLabel;
  axes.append(time, rating);
  svg.append(axes);
  for (const { seek, x, y } of placeSeeks(o.seeks)) {
    const mine = seek.player.id === o.me;
    const dot = svgEl('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 7,
      class: `seek-dot ${seek.variant}${seek.rated ? ' rated' : ''}${mine ? ' mine' : ''}` });
    dot.dataset.seek = seek.id;
    const title = svgEl('title', {});
    title.textContent = o.describe(seek);
    dot.append(title);
    dot.addEventListener('click', () => {
      if (mine) o.onCancel(seek.id);
      else if (!o.busy) o.onAccept(seek);
    });
    svg.append(dot);
  }
  box.replaceChildren(svg);
}
