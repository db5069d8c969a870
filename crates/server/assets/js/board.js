// @ts-check
// The SVG board, put together from its parts: the tap machine
// (board/tap.js) decides what taps, drags and keys mean; board/render.js
// draws; board/choosers.js asks; board/animate.js moves pieces along their
// real paths; board/input.js listens.
//
// The board never decides legality. It offers the legal moves it is given
// (each with kind, squares and SAN, from the server), hands the chosen move
// string to `onMove`, and hands a move it does not offer to `onTried`, so
// that the page can say why it is illegal without playing it.

import * as machine from './board/tap.js';
import * as draw from './board/render.js';
import { S, M, xy, center, squares, step } from './board/geometry.js';
import { animatePath } from './board/animate.js';
import { showChooser, hideChooser } from './board/choosers.js';
import { attachInput } from './board/input.js';
import { pieceDefs, pieceSvg } from './pieces.js';
import { placement } from './fen.js';
import { t, plural } from './i18n.js';
import { frozen } from './frozen.js';

/** @typedef {import('./board/types.js').Color} Color */
/** @typedef {import('./board/types.js').Geometry} Geometry */
/** @typedef {import('./board/types.js').BoardPosition} BoardPosition */
/** @typedef {import('./board/types.js').Path} Path */
/** @typedef {import('./board/tap.js').Selection} Selection */
/** @typedef {import('./board/tap.js').TapResult} TapResult */
/** @typedef {import('./board/render.js').Drawing} Drawing */

/**
 * @typedef {{
 *   onMove?: (uci: string, sel: Selection) => Promise<boolean>,
 *   onTried?: (tried: { uci: string, from: string, to: string }, sel: Selection) => void,
 *   onPremove?: (premove: { from: string, to: string } | null) => void,
 *   onSelect?: (sel: Selection) => void,
 *   coords?: boolean,
 *   small?: boolean,
 *   label?: string,
 * }} BoardOptions
 */

/** A reserve (Chessence): a button that selects it. @param {string} cls */
function makeHand(cls) {
  const h = document.createElement('div');
  h.className = `hand ${cls}`;
  h.setAttribute('role', 'button');
  h.tabIndex = 0;
  return h;
}

const LAYERS = frozen(/** @type {const} */ (['squares', 'coords', 'highlights', 'marks', 'pieces', 'overlay', 'arrows', 'cursor', 'drag']));

/**
 * Puts `box` (absolutely placed in its board) right under the square
 * (`below`) or right above it, centred on it as far as the board allows.
 * @param {HTMLElement} box @param {Element} square @param {boolean} below
 */
function placeNear(box, square, below) {
  const parent = /** @type {HTMLElement | null} */ (box.offsetParent);
  if (!parent) return;
  const p = parent.getBoundingClientRect();
  const s = square.getBoundingClientRect();
  const c = box.getBoundingClientRect();
  const clamp = (/** @type {number} */ v, /** @type {number} */ hi) => Math.max(0, Math.min(v, Math.max(0, hi)));
  const left = clamp(s.left + s.width / 2 - c.width / 2 - p.left, p.width - c.width);
  const top = clamp(below ? s.bottom - p.top : s.top - p.top - c.height, p.height - c.height);
  box.classList.add('chooser-near');
  box.style.left = `${left}px`;
  box.style.top = `${top}px`;
  box.dataset.near = square.getAttribute('data-square') || '';
}

export class Board {
  /** @param {HTMLElement} container @param {BoardOptions} [opts] */
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = { coords: true, small: false, ...opts };
    // The prefix of its SVG ids (gradients, markers): unique in the page
    // without a count kept anywhere.
    this.id = `b${crypto.getRandomValues(new Uint32Array(2)).join('')}`;
    /** @type {Color} */
    this.orientation = 'white';
    /** @type {Geometry} */
    this.geometry = { files: 8, ranks: 8, holes: [] };
    /** @type {BoardPosition} */
    this.pos = { fen: '8/8/8/8/8/8/8/8 w - - 0 1', legal: [], movable: [] };
    /** @type {Map<string, string>} */
    this.placement = new Map();
    /** @type {Map<string, SVGElement>} */
    this.pieces = new Map();
    /** @type {Selection} */
    this.sel = machine.IDLE;
    /** @type {Path | null} */
    this.arrow = null;
    /** @type {Drawing[]} the player's own arrows and circles */
    this.drawings = [];
    /** @type {{ from: string, to: string } | null} */
    this.premove = null;
    /** @type {Color | null} the colour that may premove while the other side moves */
    this.premovable = null;
    /** @type {string | null} the keyboard cursor */
    this.cursor = null;
    this.cursorShown = false;
    this.busy = false;
    /** @type {string | null} a move whose first route is already where a drag left it */
    this.skipAnimation = null;
    const c = this.container;
    c.classList.add('board');
    if (this.opts.small) c.classList.add('board-small');
    c.innerHTML = '';
    this.handTop = makeHand('hand-top');
    this.box = document.createElement('div');
    this.box.className = 'board-box';
    this.handBottom = makeHand('hand-bottom');
    c.append(this.handTop, this.box, this.handBottom);
    this.svg = /** @type {SVGSVGElement} */ (draw.el('svg', {
      class: 'board-svg', role: 'grid', tabindex: 0, 'aria-label': this.opts.label || t('board.label'),
    }));
    this.box.appendChild(this.svg);
    this.defs = draw.el('defs', {}, this.svg);
    /** @type {Record<typeof LAYERS[number], SVGElement>} */
    this.layers = /** @type {any} */ ({});
    for (const name of LAYERS) {
      this.layers[name] = draw.el('g', { class: `layer-${name}` }, this.svg);
      // Only the squares (a grid of named cells) are for assistive technology.
      if (name !== 'squares') this.layers[name].setAttribute('aria-hidden', 'true');
    }
    this.chooser = document.createElement('div');
    this.chooser.className = 'chooser hidden';
    this.box.appendChild(this.chooser);
    this.drawnSquares = false;
    this.refreshDefs();
    attachInput(this);
  }

  /** The pieces' symbols, again after a change of piece theme. */
  refreshDefs() {
    this.defs.innerHTML = `${pieceDefs()}
      <radialGradient id="${this.id}-check"><stop offset="0%" stop-color="#ff2020" stop-opacity="1"/>
        <stop offset="45%" stop-color="#ee1010" stop-opacity="0.8"/><stop offset="100%" stop-color="#a00000" stop-opacity="0"/></radialGradient>
      <marker id="${this.id}-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse">
        <path d="M0 0 L10 5 L0 10 z" fill="context-stroke"/></marker>`;
    if (this.pos.hands) this.drawHands();
  }

  /** @returns {draw.View} */
  get view() {
    return { g: this.geometry, orientation: this.orientation, id: this.id };
  }

  // ---- geometry ---------------------------------------------------------

  /** @param {Geometry} g */
  setGeometry(g) {
    const same = this.geometry.files === g.files && this.geometry.ranks === g.ranks &&
      this.geometry.holes.join() === g.holes.join();
    this.geometry = { files: g.files, ranks: g.ranks, holes: [...g.holes] };
    if (!same || !this.drawnSquares) this.drawSquares();
  }

  /** @param {Color} color */
  setOrientation(color) {
    if (color === this.orientation) return;
    this.orientation = color;
    this.drawSquares();
    this.render();
  }

  flip() {
    this.setOrientation(this.orientation === 'white' ? 'black' : 'white');
  }

  drawSquares() {
    const { files, ranks } = this.geometry;
    // The margin (left and below) holds the coordinates; a board without them shows none.
    const m = this.opts.coords ? M : 0;
    this.svg.setAttribute('viewBox', `${M - m} 0 ${m + files * S} ${ranks * S + m}`);
    this.container.style.setProperty('--aspect', `${(m + files * S) / (ranks * S + m)}`);
    draw.drawSquares(this.layers.squares, this.view);
    if (this.opts.coords) draw.drawCoords(this.layers.coords, this.view);
    else this.layers.coords.innerHTML = '';
    this.drawnSquares = true;
    if (this.cursor && !squares(this.geometry).includes(this.cursor)) this.cursor = null;
  }

  // ---- state ------------------------------------------------------------

  /** @returns {machine.TapContext} */
  tapContext() {
    return {
      legal: this.pos.legal,
      movable: this.busy ? [] : this.pos.movable,
      pieceAt: (s) => this.placement.get(s),
      premovable: this.busy ? null : this.premovable,
    };
  }

  /** @param {BoardPosition} pos @param {{ keepSelection?: boolean }} [opts] */
  setPosition(pos, { keepSelection = false } = {}) {
    this.pos = { ...pos, legal: pos.legal || [], movable: pos.movable || [] };
    this.placement = placement(this.pos.fen, this.geometry);
    if (!(keepSelection && machine.stillValid(this.tapContext(), this.sel))) {
      this.sel = machine.IDLE;
      hideChooser(this.chooser);
    }
    this.render();
  }

  /** @param {Path | null} path the engine's hint */
  setArrow(path) {
    this.arrow = path;
    this.drawArrows();
  }

  /** @param {{ from: string, to: string } | null} pm */
  setPremove(pm) {
    this.premove = pm;
    this.drawHighlights();
  }

  clearDrawings() {
    this.drawings = [];
    this.drawArrows();
  }

  /** Adds an arrow (a circle when from === to), or takes it away if it is there. @param {string} from @param {string} to @param {string} color */
  toggleDrawing(from, to, color) {
    const i = this.drawings.findIndex((d) => d.from === from && d.to === to);
    if (i >= 0 && this.drawings[i].color === color) this.drawings.splice(i, 1);
    else if (i >= 0) this.drawings[i] = { from, to, color };
    else this.drawings.push({ from, to, color });
    this.drawArrows();
  }

  /** @param {Selection} sel */
  setSelection(sel) {
    this.sel = sel;
    if (sel.mode !== 'choose') hideChooser(this.chooser);
    this.render();
    if (this.opts.onSelect) this.opts.onSelect(sel);
  }

  /** Drops a queued premove (a click on the board, Esc). */
  cancelPremove() {
    this.premove = null;
    this.drawHighlights();
    if (this.opts.onPremove) this.opts.onPremove(null);
  }

  /** Esc: drops the selection, the premove and the drawings. */
  cancelAll() {
    if (this.premove && this.opts.onPremove) this.opts.onPremove(null);
    this.premove = null;
    this.drawings = [];
    this.setSelection(machine.IDLE);
  }

  // ---- drawing ----------------------------------------------------------

  render() {
    this.drawHighlights();
    this.pieces = draw.drawPieces(this.layers.pieces, this.view, this.placement);
    draw.labelSquares(this.layers.squares, this.placement);
    draw.drawMarks(this.layers.marks, this.layers.overlay, this.view, machine.marks(this.tapContext(), this.sel));
    this.drawHands();
    this.drawArrows();
    this.drawCursor();
    this.container.dataset.fen = this.pos.fen;
    this.container.dataset.mode = this.sel.mode;
  }

  drawHighlights() {
    draw.drawHighlights(this.layers.highlights, this.view, {
      last: this.pos.last, selected: machine.selectedSquare(this.sel), check: this.pos.check, premove: this.premove,
    });
  }

  drawArrows() {
    draw.drawArrows(this.layers.arrows, this.view, this.arrow, this.drawings);
  }

  drawCursor() {
    draw.drawCursor(this.layers.cursor, this.view, this.cursorShown ? this.cursor : null);
    if (this.cursor) this.svg.setAttribute('aria-activedescendant', draw.squareId(this.view, this.cursor));
    else this.svg.removeAttribute('aria-activedescendant');
  }

  drawHands() {
    const hands = this.pos.hands;
    const bottom = this.orientation;
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [node, color] of /** @type {[HTMLElement, Color][]} */ ([[this.handTop, top], [this.handBottom, bottom]])) {
      node.dataset.color = color;
      node.classList.toggle('hidden', !hands);
      if (!hands) continue;
      const n = hands[color];
      node.classList.toggle('selected', this.sel.mode === 'hand' && this.sel.color === color);
      node.setAttribute('aria-pressed', String(this.sel.mode === 'hand' && this.sel.color === color));
      node.title = plural(`board.reserve.${color}`, n);
      node.innerHTML = `${pieceSvg(color === 'white' ? 'M' : 'm', 30)}<span class="hand-count">× ${n}</span><span class="hand-label"></span>`;
      /** @type {HTMLElement} */ (node.querySelector('.hand-label')).textContent = t(`board.reserve_short.${color}`);
    }
  }

  // ---- input ------------------------------------------------------------

  /** A tap on `square` (pointer or keyboard). @param {string} square */
  tapSquare(square) {
    if (this.busy) return;
    this.cursor = square;
    this.applyTap(machine.tap(this.tapContext(), this.sel, square));
  }

  /**
   * A piece dragged from `from` and let go on `square`.
   * @param {string} from @param {string | null} square @param {SVGElement | null} pieceEl
   */
  dropPiece(from, square, pieceEl) {
    if (this.busy) return;
    const r = machine.drop(this.tapContext(), this.sel, from, square);
    if (r.snap && r.play && pieceEl && square) {
      // Leave the piece where it was dropped while the move is played.
      const { x, y } = xy(this.geometry, this.orientation, square);
      pieceEl.setAttribute('x', String(x));
      pieceEl.setAttribute('y', String(y));
      this.skipAnimation = r.play;
    }
    this.applyTap(r);
  }

  /** @param {TapResult} r */
  applyTap(r) {
    const before = this.sel;
    this.sel = r.sel;
    if (r.play) {
      this.submit(r.play, before);
      return;
    }
    if (r.sel.mode === 'choose') {
      this.render();
      this.openChooser(r.sel);
      return;
    }
    this.setSelection(r.sel);
    if (r.tried && this.opts.onTried) this.opts.onTried(r.tried, before);
    if (r.premove) {
      this.premove = r.premove;
      this.drawHighlights();
      if (this.opts.onPremove) this.opts.onPremove(r.premove);
    }
  }

  /** @param {Extract<Selection, { mode: 'choose' }>} sel */
  openChooser(sel) {
    const hadFocus = document.activeElement === this.svg;
    const piece = this.placement.get(sel.from) || 'P';
    const upper = center(this.geometry, this.orientation, sel.to).y < (this.geometry.ranks * S) / 2;
    const back = () => { if (hadFocus) this.focusBoard(); };
    showChooser(this.chooser, { kind: sel.kind, to: sel.to, options: sel.options, color: machine.colorOfPiece(piece), upper },
      (uci) => { hideChooser(this.chooser); back(); this.applyTap(machine.choose(this.sel, uci)); },
      () => { this.setSelection(machine.IDLE); back(); });
    // A promotion is chosen next to its square (as on the big sites); the
    // beast chooser stays on the other half, to keep the beasts in sight.
    if (sel.kind === 'promotion') {
      const square = /** @type {Element | null} */ (this.svg.querySelector(`rect.sq[data-square="${sel.to}"]`));
      if (square) placeNear(this.chooser, square, upper);
    }
  }

  /** @param {string} uci @param {Selection} sel */
  async submit(uci, sel) {
    this.sel = machine.IDLE;
    hideChooser(this.chooser);
    this.busy = true;
    this.container.dataset.mode = 'waiting';
    let ok = false;
    try {
      ok = this.opts.onMove ? await this.opts.onMove(uci, sel) : false;
    } finally {
      this.busy = false;
    }
    if (!ok) {
      this.skipAnimation = null;
      this.render();
    }
  }

  /** Queues a premove as if it had been made on the board (the Move box). @param {{ from: string, to: string }} pm */
  queuePremove(pm) {
    this.premove = pm;
    this.sel = machine.IDLE;
    this.render();
    if (this.opts.onPremove) this.opts.onPremove(pm);
  }

  /** Plays `uci` as if it had been tapped (the move box, premoves). @param {string} uci */
  play(uci) {
    if (this.busy) return;
    this.submit(uci, this.sel);
  }

  focusBoard() {
    this.svg.focus({ preventScroll: true });
  }

  /** @param {boolean} on */
  showCursor(on) {
    this.cursorShown = on;
    if (on && !this.cursor) this.cursor = this.startSquare();
    this.drawCursor();
  }

  /** Where the cursor starts: the selected piece, else the player's king's side. */
  startSquare() {
    const sel = machine.selectedSquare(this.sel);
    if (sel) return sel;
    const mine = this.pos.movable[0] || this.orientation;
    for (const [s, p] of this.placement) if (p === (mine === 'white' ? 'K' : 'k')) return s;
    return squares(this.geometry)[0];
  }

  /** @param {'up' | 'down' | 'left' | 'right'} dir */
  moveCursor(dir) {
    this.cursor = step(this.geometry, this.orientation, this.cursor || this.startSquare(), dir);
    this.cursorShown = true;
    this.drawCursor();
  }

  /** @param {boolean} start Home: the first square of the row, End: the last */
  moveCursorToEdge(start) {
    let s = this.cursor || this.startSquare();
    for (;;) {
      const next = step(this.geometry, this.orientation, s, start ? 'left' : 'right');
      if (next === s) break;
      s = next;
    }
    this.cursor = s;
    this.drawCursor();
  }

  // ---- animation --------------------------------------------------------

  /** Animates `path` on the position shown. @param {Path} path @param {string} uci */
  async animate(path, uci) {
    const skipFirst = this.skipAnimation === uci;
    this.skipAnimation = null;
    this.sel = machine.IDLE;
    hideChooser(this.chooser);
    this.layers.marks.innerHTML = '';
    this.layers.overlay.innerHTML = '';
    this.arrow = null;
    this.layers.arrows.innerHTML = '';
    // While a move is animated the board says so (data-animating): tests
    // wait for it to end rather than for a fixed time.
    this.container.dataset.animating = String((parseInt(this.container.dataset.animating || '0', 10) || 0) + 1);
    try {
      await animatePath({ g: this.geometry, orientation: this.orientation, layer: this.layers.pieces, pieces: this.pieces, skipFirst }, path);
    } finally {
      const left = (parseInt(this.container.dataset.animating || '1', 10) || 1) - 1;
      if (left > 0) this.container.dataset.animating = String(left);
      else delete this.container.dataset.animating;
    }
  }
}
