// The SVG board: drawing, taps and drags as the Tensor Chess rulebook
// describes them, choosers, and animation along a move's real path.
//
// The board never decides legality. It shows the legal moves it is given
// (each with kind, squares and SAN, computed by the server) and hands move
// strings to `onMove`; a move it does not offer is handed over all the same,
// so that the server can say why it is illegal.

import { pieceDefs, symbolId, pieceSvg, ROLE_NAMES } from './pieces.js';
import { placement, squareName, parseSquare } from './fen.js';

const S = 100; // square size in SVG units
const M = 30; // margin for coordinates
const NS = 'http://www.w3.org/2000/svg';

let boardCount = 0;

function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const colorOf = (letter) => (letter === letter.toUpperCase() ? 'white' : 'black');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class Board {
  // opts: { onMove(uci) -> Promise<boolean>, coords: true, small: false }
  constructor(container, opts = {}) {
    this.container = container;
    this.opts = { coords: true, small: false, ...opts };
    this.onMove = opts.onMove || (async () => false);
    this.id = `b${++boardCount}`;
    this.orientation = 'white';
    this.geometry = { files: 8, ranks: 8, holes: [] };
    this.pos = { fen: '8/8/8/8/8/8/8/8 w - - 0 1', legal: [], check: null, hands: null, last: null, movable: [] };
    this.pieces = new Map();
    this.sel = { mode: 'idle' };
    this.arrow = null;
    this.busy = false;
    this.skipAnimation = null;
    this.build();
  }

  build() {
    this.container.classList.add('board');
    if (this.opts.small) this.container.classList.add('board-small');
    this.container.innerHTML = '';
    this.handTop = document.createElement('div');
    this.handTop.className = 'hand hand-top';
    this.box = document.createElement('div');
    this.box.className = 'board-box';
    this.handBottom = document.createElement('div');
    this.handBottom.className = 'hand hand-bottom';
    this.container.append(this.handTop, this.box, this.handBottom);

    this.svg = el('svg', { class: 'board-svg', role: 'img', 'aria-label': 'board' });
    this.box.appendChild(this.svg);
    const defs = el('defs', {}, this.svg);
    defs.innerHTML = `${pieceDefs()}
      <radialGradient id="${this.id}-check"><stop offset="0%" stop-color="#ff2020" stop-opacity="1"/>
        <stop offset="45%" stop-color="#ee1010" stop-opacity="0.8"/><stop offset="100%" stop-color="#a00000" stop-opacity="0"/></radialGradient>
      <marker id="${this.id}-head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse">
        <path d="M0 0 L10 5 L0 10 z" fill="context-stroke"/></marker>`;
    this.layers = {};
    for (const name of ['squares', 'coords', 'highlights', 'marks', 'pieces', 'overlay', 'arrows', 'drag']) {
      this.layers[name] = el('g', { class: `layer-${name}` }, this.svg);
    }
    this.chooser = document.createElement('div');
    this.chooser.className = 'chooser hidden';
    this.box.appendChild(this.chooser);

    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('pointermove', (e) => this.pointerMove(e));
    this.svg.addEventListener('pointerup', (e) => this.pointerUp(e));
    this.svg.addEventListener('pointercancel', () => this.cancelDrag());
    this.svg.addEventListener('contextmenu', (e) => e.preventDefault());
    for (const hand of [this.handTop, this.handBottom]) {
      hand.addEventListener('pointerdown', (e) => this.handDown(e, hand));
    }
  }

  // ---- geometry ---------------------------------------------------------

  setGeometry(g) {
    const same = this.geometry.files === g.files && this.geometry.ranks === g.ranks &&
      this.geometry.holes.join() === g.holes.join();
    this.geometry = { files: g.files, ranks: g.ranks, holes: [...g.holes] };
    this.holes = new Set(g.holes);
    if (!same || !this.drawnSquares) this.drawSquares();
  }

  setOrientation(color) {
    if (color === this.orientation) return;
    this.orientation = color;
    this.drawSquares();
    this.render();
  }

  flip() {
    this.setOrientation(this.orientation === 'white' ? 'black' : 'white');
  }

  xy(name) {
    const { file, rank } = parseSquare(name);
    const { files, ranks } = this.geometry;
    const f = this.orientation === 'white' ? file : files - 1 - file;
    const r = this.orientation === 'white' ? ranks - 1 - rank : rank;
    return { x: M + f * S, y: r * S };
  }

  center(name) {
    const { x, y } = this.xy(name);
    return { x: x + S / 2, y: y + S / 2 };
  }

  squareAt(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    const { files, ranks } = this.geometry;
    const f = Math.floor((pt.x - M) / S);
    const r = Math.floor(pt.y / S);
    if (f < 0 || f >= files || r < 0 || r >= ranks) return null;
    const file = this.orientation === 'white' ? f : files - 1 - f;
    const rank = this.orientation === 'white' ? ranks - 1 - r : r;
    const name = squareName(file, rank);
    return this.holes.has(name) ? null : name;
  }

  drawSquares() {
    const { files, ranks } = this.geometry;
    this.svg.setAttribute('viewBox', `0 0 ${M + files * S} ${ranks * S + M}`);
    this.container.style.setProperty('--aspect', `${(M + files * S) / (ranks * S + M)}`);
    const sq = this.layers.squares;
    sq.innerHTML = '';
    for (let rank = 0; rank < ranks; rank++) {
      for (let file = 0; file < files; file++) {
        const name = squareName(file, rank);
        if (this.holes.has(name)) {
          // A square that does not exist: left out, with only a faint dashed trace.
          const { x, y } = this.xy(name);
          el('rect', { x: x + 6, y: y + 6, width: S - 12, height: S - 12, rx: 8, class: 'hole', 'data-hole': name }, sq);
          continue;
        }
        const { x, y } = this.xy(name);
        el('rect', {
          x, y, width: S, height: S,
          class: `sq ${(file + rank) % 2 === 0 ? 'dark' : 'light'}`,
          'data-square': name,
        }, sq);
      }
    }
    const co = this.layers.coords;
    co.innerHTML = '';
    if (this.opts.coords) {
      for (let file = 0; file < files; file++) {
        const { x } = this.xy(squareName(file, 0));
        const t = el('text', { x: x + S / 2, y: ranks * S + M * 0.78, class: 'coord', 'text-anchor': 'middle' }, co);
        t.textContent = String.fromCharCode(97 + file);
      }
      for (let rank = 0; rank < ranks; rank++) {
        const { y } = this.xy(squareName(0, rank));
        const t = el('text', { x: M / 2, y: y + S / 2 + 9, class: 'coord', 'text-anchor': 'middle' }, co);
        t.textContent = String(rank + 1);
      }
    }
    this.drawnSquares = true;
  }

  // ---- state ------------------------------------------------------------

  // pos: { fen, legal, check, hands, variant, last (a path), movable: ['white'] }
  setPosition(pos, { keepSelection = false } = {}) {
    this.pos = { legal: [], check: null, hands: null, last: null, movable: [], ...pos };
    this.placement = placement(this.pos.fen, this.geometry);
    const keep = keepSelection && this.sel.mode !== 'choose' &&
      (this.sel.mode === 'hand' ? this.pos.movable.includes(this.sel.color) : !this.sel.from || this.movable(this.sel.from));
    if (!keep) {
      this.sel = { mode: 'idle' };
      this.hideChooser();
    }
    this.render();
  }

  setArrow(path) {
    this.arrow = path;
    this.drawArrows();
  }

  movable(square) {
    const p = this.placement.get(square);
    return !!p && !this.busy && this.pos.movable.includes(colorOf(p));
  }

  movesFrom(square) {
    return this.pos.legal.filter((m) => m.from === square && m.kind !== 'drop');
  }

  // ---- drawing ----------------------------------------------------------

  render() {
    this.drawHighlights();
    this.drawPieces();
    this.drawMarks();
    this.drawHands();
    this.drawArrows();
    this.container.dataset.fen = this.pos.fen;
    this.container.dataset.mode = this.sel.mode;
  }

  rect(layer, name, cls, extra = {}) {
    const { x, y } = this.xy(name);
    return el('rect', { x, y, width: S, height: S, class: cls, 'data-square': name, ...extra }, layer);
  }

  drawHighlights() {
    const h = this.layers.highlights;
    h.innerHTML = '';
    const last = this.pos.last;
    if (last) {
      const squares = new Set();
      for (const r of last.routes) {
        squares.add(r.squares[0]);
        squares.add(r.squares[r.squares.length - 1]);
      }
      for (const s of squares) if (!this.holes.has(s)) this.rect(h, s, 'last-move');
    }
    if (this.sel.from) this.rect(h, this.sel.from, 'selected');
    if (this.pos.check) {
      const c = this.center(this.pos.check);
      el('circle', { cx: c.x, cy: c.y, r: S * 0.62, fill: `url(#${this.id}-check)`, class: 'check-glow', 'data-square': this.pos.check }, h);
    }
  }

  drawPieces() {
    const g = this.layers.pieces;
    g.innerHTML = '';
    this.pieces = new Map();
    for (const [square, letter] of this.placement) {
      const { x, y } = this.xy(square);
      const use = el('use', {
        href: `#${symbolId(letter)}`, x, y, width: S, height: S,
        class: `piece ${colorOf(letter)}`, 'data-square': square, 'data-piece': letter,
      }, g);
      this.pieces.set(square, use);
    }
  }

  drawMarks() {
    const marks = this.layers.marks;
    const over = this.layers.overlay;
    marks.innerHTML = '';
    over.innerHTML = '';
    const sel = this.sel;
    const dest = (name, extraClass = '', dot = true) => {
      const occupied = this.placement.has(name);
      this.rect(marks, name, `mark-dest ${occupied ? 'occupied' : ''} ${extraClass}`);
      if (!occupied && dot) {
        const c = this.center(name);
        el('circle', { cx: c.x, cy: c.y, r: 15, class: 'dest-dot', 'data-square': name }, marks);
      }
    };
    if (sel.mode === 'selected') {
      const moves = this.movesFrom(sel.from);
      const done = new Set();
      for (const m of moves) {
        if (m.kind === 'propel') {
          if (!done.has(`p${m.to}`)) {
            done.add(`p${m.to}`);
            this.rect(marks, m.to, 'mark-dest propel-beast');
          }
          continue;
        }
        if (!done.has(m.to)) {
          done.add(m.to);
          dest(m.to, m.kind === 'castle' ? 'castle-dest' : '');
        }
        if (m.kind === 'castle' && m.rook && !done.has(`r${m.rook}`)) {
          done.add(`r${m.rook}`);
          this.castleArrow(over, m.rook);
        }
      }
    } else if (sel.mode === 'propel') {
      this.rect(marks, sel.beast, 'propel-beast-selected');
      for (const m of this.movesFrom(sel.from)) {
        if (m.kind !== 'propel' || m.to !== sel.beast) continue;
        dest(m.aux, 'propel-dest', false);
        const { x, y } = this.xy(m.aux);
        el('use', { href: '#beast-sign', x: x + S * 0.25, y: y + S * 0.25, width: S * 0.5, height: S * 0.5, class: 'beast-sign', 'data-square': m.aux }, over);
      }
      const { x, y } = this.xy(sel.beast);
      const sign = el('g', { class: 'propel-sign', 'data-square': sel.beast }, over);
      el('circle', { cx: x + S * 0.5, cy: y + S * 0.5, r: S * 0.24 }, sign);
      el('path', { d: `M${x + S * 0.5} ${y + S * 0.35} V${y + S * 0.65} M${x + S * 0.35} ${y + S * 0.5} H${x + S * 0.65}` }, sign);
    } else if (sel.mode === 'castle') {
      this.rect(marks, sel.rook, 'castle-rook-selected');
      for (const m of this.movesFrom(sel.from)) {
        if (m.kind !== 'castle' || m.rook !== sel.rook) continue;
        this.rect(marks, m.to, 'castle-target');
        const { x, y } = this.xy(m.to);
        el('use', { href: '#king-outline', x, y, width: S, height: S, class: 'king-outline', 'data-square': m.to }, over);
      }
    } else if (sel.mode === 'choose') {
      this.rect(marks, sel.to, 'mark-dest choose-target');
      for (const m of sel.options) {
        if (m.kind === 'beast_capture') {
          const c = this.center(m.aux);
          const g = el('g', { class: 'capture-mark', 'data-square': m.aux }, over);
          el('circle', { cx: c.x, cy: c.y, r: S * 0.46 }, g);
          el('path', { d: `M${c.x - 22} ${c.y - 22} L${c.x + 22} ${c.y + 22} M${c.x + 22} ${c.y - 22} L${c.x - 22} ${c.y + 22}` }, g);
        }
      }
    } else if (sel.mode === 'hand') {
      for (const m of this.pos.legal) if (this.isDropFor(m, sel.color)) dest(m.to, 'drop-dest');
    }
  }

  castleArrow(layer, rook) {
    const { x, y } = this.xy(rook);
    const g = el('g', { class: 'castle-arrow', 'data-square': rook }, layer);
    el('rect', { x: x + 8, y: y + 2, width: S - 16, height: 30, rx: 15 }, g);
    const cy = y + 17;
    el('path', { d: `M${x + 22} ${cy} H${x + S - 22} M${x + 32} ${cy - 9} L${x + 20} ${cy} L${x + 32} ${cy + 9} M${x + S - 32} ${cy - 9} L${x + S - 20} ${cy} L${x + S - 32} ${cy + 9}` }, g);
  }

  drawHands() {
    const hands = this.pos.hands;
    const show = this.pos.variant === 'chessence' && hands;
    const bottom = this.orientation;
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [node, color] of [[this.handTop, top], [this.handBottom, bottom]]) {
      node.dataset.color = color;
      node.classList.toggle('hidden', !show);
      if (!show) continue;
      const n = hands[color];
      const selected = this.sel.mode === 'hand' && this.sel.color === color;
      node.classList.toggle('selected', selected);
      node.innerHTML = `${pieceSvg(color === 'white' ? 'M' : 'm', 30)}<span class="hand-count">× ${n}</span><span class="hand-label">${color} reserve</span>`;
    }
  }

  drawArrows() {
    const g = this.layers.arrows;
    g.innerHTML = '';
    if (!this.arrow) return;
    this.arrow.routes.forEach((route, i) => {
      if (route.squares.length < 2) return;
      const pts = route.squares.map((s) => this.center(s));
      const d = pts.map((p, j) => `${j ? 'L' : 'M'}${p.x} ${p.y}`).join(' ');
      el('path', { d, class: `hint-arrow ${i ? 'second' : ''}`, 'marker-end': `url(#${this.id}-head)` }, g);
    });
  }

  // ---- interaction ------------------------------------------------------

  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    if (this.busy || this.sel.mode === 'choose') {
      this.pointer = { square: this.squareAt(e.clientX, e.clientY), x: e.clientX, y: e.clientY, id: e.pointerId, tapOnly: true };
      return;
    }
    const square = this.squareAt(e.clientX, e.clientY);
    this.pointer = { square, x: e.clientX, y: e.clientY, id: e.pointerId, dragging: false, justSelected: false };
    if (!square) return;
    try { this.svg.setPointerCapture(e.pointerId); } catch (_) { /* not capturable */ }
    // Pressing one's own piece selects it at once (and may start a drag),
    // unless that square is a target of the current selection (a beast to
    // propel, a rook to castle with).
    const isTarget = this.isTargetOfSelection(square);
    if (this.movable(square) && !isTarget && square !== this.sel.from) {
      this.select(square);
      this.pointer.justSelected = true;
    }
    if (this.sel.mode === 'selected' && this.sel.from === square && this.movable(square)) {
      this.pointer.canDrag = true;
    }
    e.preventDefault();
  }

  pointerMove(e) {
    const p = this.pointer;
    if (!p || p.tapOnly || p.id !== e.pointerId || !p.canDrag) return;
    if (!p.dragging) {
      if (Math.hypot(e.clientX - p.x, e.clientY - p.y) < 6) return;
      p.dragging = true;
      const piece = this.pieces.get(p.square);
      if (!piece) return;
      piece.classList.add('drag-origin');
      this.ghost = el('use', { href: piece.getAttribute('href'), width: S, height: S, class: 'piece ghost' }, this.layers.drag);
    }
    if (this.ghost) {
      const ctm = this.svg.getScreenCTM();
      const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
      this.ghost.setAttribute('x', pt.x - S / 2);
      this.ghost.setAttribute('y', pt.y - S / 2);
    }
  }

  cancelDrag() {
    if (this.ghost) this.ghost.remove();
    this.ghost = null;
    for (const p of this.layers.pieces.querySelectorAll('.drag-origin')) p.classList.remove('drag-origin');
    this.pointer = null;
  }

  pointerUp(e) {
    const p = this.pointer;
    if (!p || p.id !== e.pointerId) return;
    const square = this.squareAt(e.clientX, e.clientY);
    if (p.tapOnly) {
      this.pointer = null;
      if (square && square === p.square) this.tap(square);
      return;
    }
    if (p.dragging) {
      const origin = p.square;
      const piece = this.pieces.get(origin);
      this.cancelDrag();
      if (!square) return;
      if (square === origin && !this.movesFrom(origin).some((m) => m.to === origin)) return;
      this.dropOn(square, piece);
      return;
    }
    this.pointer = null;
    if (!square || square !== p.square) return;
    if (p.justSelected) return; // the press already selected it
    this.tap(square);
  }

  isTargetOfSelection(square) {
    const s = this.sel;
    if (s.mode === 'selected') {
      return this.movesFrom(s.from).some((m) => m.to === square || m.rook === square);
    }
    if (s.mode === 'propel') return square === s.beast || this.propelTargets().includes(square);
    if (s.mode === 'castle') return square === s.rook || this.castleTargets().includes(square);
    if (s.mode === 'hand') return this.pos.legal.some((m) => this.isDropFor(m, s.color) && m.to === square);
    return false;
  }

  propelTargets() {
    return this.movesFrom(this.sel.from).filter((m) => m.kind === 'propel' && m.to === this.sel.beast).map((m) => m.aux);
  }

  castleTargets() {
    return this.movesFrom(this.sel.from).filter((m) => m.kind === 'castle' && m.rook === this.sel.rook).map((m) => m.to);
  }

  // Moves may carry the colour that plays them (the rules page offers both sides).
  isDropFor(m, color) {
    return m.kind === 'drop' && (!m.color || m.color === color);
  }

  select(square) {
    this.sel = { mode: 'selected', from: square };
    this.render();
  }

  deselect() {
    this.sel = { mode: 'idle' };
    this.hideChooser();
    this.render();
  }

  // A piece dragged from the selected square and dropped on `square`.
  dropOn(square, pieceEl) {
    if (this.sel.mode !== 'selected') return this.tap(square);
    const from = this.sel.from;
    const direct = this.movesFrom(from).filter((m) => m.kind !== 'propel' && m.to === square);
    if (direct.length === 1 && pieceEl) {
      // Leave the piece where it was dropped while the server answers.
      const { x, y } = this.xy(square);
      pieceEl.setAttribute('x', x);
      pieceEl.setAttribute('y', y);
      this.skipAnimation = direct[0].uci;
    }
    this.target(square);
  }

  tap(square) {
    if (this.busy) return;
    const s = this.sel;
    switch (s.mode) {
      case 'idle':
        if (this.movable(square)) this.select(square);
        return;
      case 'selected':
        // A beast capture may end where the beast started: its own square
        // is then a destination, not a way to cancel.
        if (square === s.from && !this.movesFrom(s.from).some((m) => m.to === square)) return this.deselect();
        return this.target(square);
      case 'propel': {
        if (square === s.beast) {
          this.sel = { mode: 'selected', from: s.from };
          return this.render();
        }
        const m = this.movesFrom(s.from).find((m) => m.kind === 'propel' && m.to === s.beast && m.aux === square);
        if (m) return this.submit(m.uci);
        if (this.movable(square) && square !== s.from) return this.select(square);
        if (square === s.from) return this.deselect();
        // Not offered: let the server say why.
        return this.submit(`${s.from}${s.beast}>${square}`);
      }
      case 'castle': {
        const m = this.movesFrom(s.from).find((m) => m.kind === 'castle' && m.rook === s.rook && m.to === square);
        if (m) return this.submit(m.uci);
        if (square === s.rook) {
          this.sel = { mode: 'selected', from: s.from };
          return this.render();
        }
        this.sel = { mode: 'selected', from: s.from };
        return this.tap(square);
      }
      case 'choose': {
        const m = s.options.find((m) => m.kind === 'beast_capture' && m.aux === square);
        if (m) {
          this.hideChooser();
          return this.submit(m.uci);
        }
        return;
      }
      case 'hand': {
        const m = this.pos.legal.find((m) => this.isDropFor(m, s.color) && m.to === square);
        if (m) return this.submit(m.uci);
        if (this.movable(square)) return this.select(square);
        return this.submit(`M@${square}`);
      }
      default:
        return;
    }
  }

  // The second tap (or a drop) of a selected piece on `square`.
  target(square) {
    const from = this.sel.from;
    const moves = this.movesFrom(from);
    const castles = moves.filter((m) => m.kind === 'castle' && m.rook === square);
    if (castles.length) {
      this.sel = { mode: 'castle', from, rook: square };
      return this.render();
    }
    const direct = moves.filter((m) => m.kind !== 'propel' && m.to === square);
    if (direct.length === 1) return this.submit(direct[0].uci);
    if (direct.length > 1) {
      if (direct.every((m) => m.kind === 'promotion')) return this.choosePromotion(from, square, direct);
      return this.chooseBeastMove(from, square, direct);
    }
    if (moves.some((m) => m.kind === 'propel' && m.to === square)) {
      this.sel = { mode: 'propel', from, beast: square };
      return this.render();
    }
    if (this.movable(square)) return this.select(square);
    // Not a move the server offered: post it anyway so it can say why.
    this.skipAnimation = null;
    return this.submit(`${from}${square}`);
  }

  // A press on a reserve: a tap selects it, a drag carries a man to a square.
  handDown(e, hand) {
    const color = hand.dataset.color;
    if (this.busy || !color || this.pos.variant !== 'chessence' || !this.pos.movable.includes(color)) return;
    e.preventDefault();
    const wasSelected = this.sel.mode === 'hand' && this.sel.color === color;
    if (!wasSelected) {
      this.sel = { mode: 'hand', color };
      this.render();
    }
    const start = { x: e.clientX, y: e.clientY };
    let ghost = null;
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 6) return;
      if (!ghost) {
        ghost = document.createElement('div');
        ghost.className = 'hand-ghost';
        ghost.innerHTML = pieceSvg(color === 'white' ? 'M' : 'm', 56);
        document.body.appendChild(ghost);
      }
      ghost.style.left = `${ev.clientX - 28}px`;
      ghost.style.top = `${ev.clientY - 28}px`;
    };
    const up = (ev) => {
      document.removeEventListener('pointermove', move);
      document.removeEventListener('pointerup', up);
      document.removeEventListener('pointercancel', up);
      if (ghost) {
        ghost.remove();
        const square = ev.type === 'pointerup' ? this.squareAt(ev.clientX, ev.clientY) : null;
        if (square) this.tap(square);
      } else if (wasSelected && ev.type === 'pointerup') {
        this.deselect(); // a second tap on the reserve puts it back
      }
    };
    document.addEventListener('pointermove', move);
    document.addEventListener('pointerup', up);
    document.addEventListener('pointercancel', up);
  }

  async submit(uci) {
    const sel = this.sel;
    this.sel = { mode: 'idle' };
    this.hideChooser();
    this.busy = true;
    this.container.dataset.mode = 'waiting';
    let ok = false;
    try {
      ok = await this.onMove(uci, sel);
    } finally {
      this.busy = false;
    }
    if (!ok) {
      this.skipAnimation = null;
      this.render();
    }
  }

  // ---- choosers ---------------------------------------------------------

  choosePromotion(from, to, moves) {
    const color = colorOf(this.placement.get(from) || 'P');
    const order = 'qrbnt';
    moves = [...moves].sort((a, b) => order.indexOf(a.promotion) - order.indexOf(b.promotion));
    const options = moves.map((m) => {
      const letter = color === 'white' ? m.promotion.toUpperCase() : m.promotion;
      return { html: `${pieceSvg(letter, 56)}<span>${ROLE_NAMES[m.promotion.toUpperCase()]}</span>`, value: m.uci, attr: `data-promo="${m.promotion}"` };
    });
    this.sel = { mode: 'choose', from, to, options: moves };
    this.render();
    this.showChooser('Promote to', options, 'promotion', to);
  }

  chooseBeastMove(from, to, moves) {
    const options = moves.map((m) => ({
      html: m.kind === 'beast_capture'
        ? `<span>Capture the beast on <b>${m.aux}</b></span>`
        : '<span>Jump there without capturing</span>',
      value: m.uci,
      attr: `data-uci="${m.uci}"`,
    }));
    this.sel = { mode: 'choose', from, to, options: moves };
    this.render();
    this.showChooser(`Beast to ${to}: which move?`, options, 'beast', to);
  }

  // The chooser sits on the half of the board away from `near`, so that the
  // squares it asks about (and the marked beasts) stay in sight.
  showChooser(title, options, kind, near) {
    const c = this.chooser;
    const upper = near && this.center(near).y < (this.geometry.ranks * S) / 2;
    c.className = `chooser chooser-${kind} ${upper ? 'chooser-low' : 'chooser-high'}`;
    c.innerHTML = `<div class="chooser-title">${title}</div><div class="chooser-options"></div><button class="chooser-cancel" type="button">Cancel</button>`;
    const list = c.querySelector('.chooser-options');
    for (const o of options) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'chooser-option';
      b.innerHTML = o.html;
      for (const part of o.attr.split(' ')) {
        const [k, v] = part.split('=');
        b.setAttribute(k, v.replace(/"/g, ''));
      }
      b.addEventListener('click', (e) => {
        e.stopPropagation();
        this.hideChooser();
        this.submit(o.value);
      });
      list.appendChild(b);
    }
    c.querySelector('.chooser-cancel').addEventListener('click', (e) => {
      e.stopPropagation();
      this.deselect();
    });
  }

  hideChooser() {
    this.chooser.className = 'chooser hidden';
    this.chooser.innerHTML = '';
  }

  // ---- animation --------------------------------------------------------

  // Animates `path` on the position now shown, then shows `after`.
  async animate(path, uci, after) {
    const skipFirst = this.skipAnimation === uci;
    this.skipAnimation = null;
    this.sel = { mode: 'idle' };
    this.hideChooser();
    this.layers.marks.innerHTML = '';
    this.layers.overlay.innerHTML = '';
    this.arrow = null;
    this.layers.arrows.innerHTML = '';
    const items = [...this.pieces.entries()].map(([square, node]) => ({ square, node, letter: node.dataset.piece }));
    const movedNodes = new Set();
    let capturedDone = false;
    for (const [i, route] of path.routes.entries()) {
      const start = route.squares[0];
      let item = items.find((it) => it.square === start && it.letter === route.piece && !movedNodes.has(it.node)) ||
        items.find((it) => it.square === start && it.letter === route.piece);
      if (!item) {
        // A drop: the piece appears.
        if (route.squares.length === 1) {
          const { x, y } = this.xy(start);
          const node = el('use', { href: `#${symbolId(route.piece)}`, x, y, width: S, height: S, class: 'piece appear' }, this.layers.pieces);
          await sleep(180);
          node.classList.remove('appear');
        }
        continue;
      }
      this.layers.pieces.appendChild(item.node);
      const hopping = route.piece.toUpperCase() === 'T' && route.squares.length > 1;
      if (i === 0 && skipFirst) {
        const { x, y } = this.xy(route.squares[route.squares.length - 1]);
        item.node.setAttribute('x', x);
        item.node.setAttribute('y', y);
      } else {
        for (let k = 1; k < route.squares.length; k++) {
          await this.tween(item.node, route.squares[k - 1], route.squares[k], hopping);
        }
      }
      item.square = route.squares[route.squares.length - 1];
      movedNodes.add(item.node);
      if (!capturedDone && path.captured) {
        capturedDone = true;
        const victim = items.find((it) => it.square === path.captured && !movedNodes.has(it.node));
        if (victim) {
          victim.node.classList.add('captured');
          await sleep(140);
        }
      }
    }
    if (after) this.setPosition(after);
  }

  tween(node, fromSq, toSq, hop) {
    const a = this.xy(fromSq);
    const b = this.xy(toSq);
    const dist = Math.hypot(b.x - a.x, b.y - a.y) / S;
    const duration = Math.min(340, 110 + 55 * dist);
    return new Promise((resolve) => {
      const t0 = performance.now();
      const step = (now) => {
        const t = Math.min(1, (now - t0) / duration);
        const e = t < 0.5 ? 2 * t * t : 1 - Math.pow(-2 * t + 2, 2) / 2;
        const x = a.x + (b.x - a.x) * e;
        const y = a.y + (b.y - a.y) * e;
        node.setAttribute('x', x);
        node.setAttribute('y', y);
        if (hop) {
          const s = 1 + 0.22 * Math.sin(Math.PI * t);
          const cx = x + S / 2;
          const cy = y + S / 2;
          node.setAttribute('transform', `translate(${cx} ${cy}) scale(${s}) translate(${-cx} ${-cy})`);
        }
        if (t < 1) requestAnimationFrame(step);
        else {
          node.removeAttribute('transform');
          resolve();
        }
      };
      requestAnimationFrame(step);
    });
  }
}
