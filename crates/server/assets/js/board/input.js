// @ts-check
// A board's input: pointer presses, taps and drags (mouse and touch), the
// reserves' taps and drags, the keyboard cursor, and the player's own
// arrows and circles (right-drag, or a long press on touch). Everything
// that chooses a move goes through the tap machine (tap.js).

import * as machine from './tap.js';
import { S, squareAtPoint } from './geometry.js';
import { el } from './render.js';
import { pieceSvg } from '../pieces.js';

/** @typedef {import('../board.js').Board} Board */
/** @typedef {import('./types.js').Color} Color */

const DRAG_START = 6; // px a press moves before it is a drag
const LONG_PRESS = 550; // ms a touch holds still to start drawing

/**
 * @typedef {{
 *   id: number, square: string | null, x: number, y: number,
 *   tapOnly?: boolean, dragging?: boolean, justSelected?: boolean, canDrag?: boolean,
 *   draw?: boolean, longPress?: ReturnType<typeof setTimeout>, touch?: boolean,
 * }} Press
 */

/** The square under a screen point. @param {Board} b @param {number} cx @param {number} cy */
export function squareAt(b, cx, cy) {
  const ctm = b.svg.getScreenCTM();
  if (!ctm) return null;
  const pt = new DOMPoint(cx, cy).matrixTransform(ctm.inverse());
  return squareAtPoint(b.geometry, b.orientation, pt.x, pt.y);
}

/** The colour a drawing gets from the keys held (as on the big chess sites). @param {PointerEvent} e */
const drawColor = (e) => (e.shiftKey ? 'red' : e.altKey ? 'blue' : e.ctrlKey || e.metaKey ? 'orange' : 'green');

/** Wires `b`'s elements to its input handlers. @param {Board} b */
export function attachInput(b) {
  /** @type {Press | null} */
  let press = null;
  /** @type {SVGElement | null} */
  let ghost = null;

  const cancelDrag = () => {
    if (ghost) ghost.remove();
    ghost = null;
    for (const p of b.layers.pieces.querySelectorAll('.drag-origin')) p.classList.remove('drag-origin');
    if (press && press.longPress) clearTimeout(press.longPress);
    press = null;
    delete b.container.dataset.press;
  };

  b.svg.addEventListener('pointerdown', (e) => {
    const square = squareAt(b, e.clientX, e.clientY);
    if (e.button === 2) {
      // Right button: an arrow (or a circle) from here.
      press = { id: e.pointerId, square, x: e.clientX, y: e.clientY, draw: true };
      e.preventDefault();
      return;
    }
    if (e.button !== undefined && e.button !== 0) return;
    if (b.drawings.length) b.clearDrawings(); // a left click clears the drawings
    if (b.premove && b.sel.mode !== 'preselect') b.cancelPremove(); // and a queued premove
    if (b.busy || b.sel.mode === 'choose') {
      press = { square, x: e.clientX, y: e.clientY, id: e.pointerId, tapOnly: true };
      return;
    }
    press = { square, x: e.clientX, y: e.clientY, id: e.pointerId, touch: e.pointerType === 'touch' };
    // The press's default is prevented (no text selection, no scrolling),
    // which keeps the focus where it was: the board takes it, so that Esc
    // and the arrow keys work after a click.
    if (document.activeElement !== b.svg) b.svg.focus({ preventScroll: true });
    if (!square) return;
    try { b.svg.setPointerCapture(e.pointerId); } catch (_) { /* not capturable */ }
    const p = machine.press(b.tapContext(), b.sel, square);
    if (p.selectedNow) b.setSelection(p.sel);
    press.justSelected = p.selectedNow;
    press.canDrag = p.canDrag;
    if (press.touch) {
      const mine = press;
      mine.longPress = setTimeout(() => {
        // Held still: the press draws instead (the selection it made is dropped).
        if (press !== mine || mine.dragging) return;
        mine.draw = true;
        mine.canDrag = false;
        b.container.dataset.press = 'draw'; // held long enough: says so (tests wait on it)
        if (mine.justSelected) b.setSelection(machine.IDLE);
      }, LONG_PRESS);
    }
    e.preventDefault();
  });

  b.svg.addEventListener('pointermove', (e) => {
    const p = press;
    if (!p || p.id !== e.pointerId) return;
    const far = Math.hypot(e.clientX - p.x, e.clientY - p.y) >= DRAG_START;
    if (far && p.longPress && !p.draw) {
      clearTimeout(p.longPress);
      p.longPress = undefined;
    }
    if (p.draw || p.tapOnly || !p.canDrag || !p.square) return;
    if (!p.dragging) {
      if (!far) return;
      p.dragging = true;
      const piece = b.pieces.get(p.square);
      if (!piece) return;
      piece.classList.add('drag-origin');
      ghost = el('use', { href: piece.getAttribute('href') || '', width: S, height: S, class: 'piece ghost' }, b.layers.drag);
    }
    if (ghost) {
      const ctm = b.svg.getScreenCTM();
      if (!ctm) return;
      const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
      ghost.setAttribute('x', String(pt.x - S / 2));
      ghost.setAttribute('y', String(pt.y - S / 2));
    }
  });

  b.svg.addEventListener('pointerup', (e) => {
    const p = press;
    if (!p || p.id !== e.pointerId) return;
    const square = squareAt(b, e.clientX, e.clientY);
    if (p.draw) {
      cancelDrag();
      if (p.square && square) b.toggleDrawing(p.square, square, drawColor(e));
      return;
    }
    if (p.tapOnly) {
      press = null;
      if (square && square === p.square) b.tapSquare(square);
      return;
    }
    if (p.dragging && p.square) {
      const origin = p.square;
      const piece = b.pieces.get(origin) || null;
      cancelDrag();
      b.dropPiece(origin, square, piece);
      return;
    }
    cancelDrag();
    if (!square || square !== p.square) return;
    if (p.justSelected) return; // the press already selected it
    b.tapSquare(square);
  });

  b.svg.addEventListener('pointercancel', cancelDrag);
  b.svg.addEventListener('contextmenu', (e) => e.preventDefault());

  for (const hand of [b.handTop, b.handBottom]) {
    hand.addEventListener('pointerdown', (e) => handDown(b, e, hand));
    hand.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      const color = /** @type {Color} */ (hand.dataset.color);
      b.applyTap(machine.tapHand(b.tapContext(), b.sel, color));
      if (b.sel.mode === 'hand') b.focusBoard();
    });
  }

  b.svg.addEventListener('keydown', (e) => keyDown(b, e));
  // The cursor shows when the focus came by keyboard (not after a click).
  b.svg.addEventListener('focus', () => b.showCursor(b.svg.matches(':focus-visible')));
  b.svg.addEventListener('blur', () => b.showCursor(false));
}

/** @param {Board} b @param {KeyboardEvent} e */
function keyDown(b, e) {
  /** @type {Record<string, 'up' | 'down' | 'left' | 'right'>} */
  const dirs = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };
  if (e.key in dirs) {
    e.preventDefault();
    e.stopPropagation();
    b.moveCursor(dirs[e.key]);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    e.stopPropagation();
    if (b.cursor && !b.busy) b.tapSquare(b.cursor);
  } else if (e.key === 'Escape') {
    if (b.sel.mode !== 'idle' || b.premove || b.drawings.length) {
      e.preventDefault();
      e.stopPropagation();
      b.cancelAll();
    }
  } else if (e.key === 'Home' || e.key === 'End') {
    e.preventDefault();
    b.moveCursorToEdge(e.key === 'Home');
  }
}

/**
 * A press on a reserve: a tap selects it (a second one puts it back), a
 * drag carries a man to a square.
 * @param {Board} b @param {PointerEvent} e @param {HTMLElement} hand
 */
function handDown(b, e, hand) {
  const color = /** @type {Color} */ (hand.dataset.color);
  const ctx = b.tapContext();
  if (b.busy || !color || !b.pos.hands || !ctx.movable.includes(color)) return;
  e.preventDefault();
  const wasSelected = b.sel.mode === 'hand' && b.sel.color === color;
  if (!wasSelected) b.setSelection({ mode: 'hand', color });
  const start = { x: e.clientX, y: e.clientY };
  /** @type {HTMLElement | null} */
  let ghost = null;
  const move = (/** @type {PointerEvent} */ ev) => {
    if (!ghost && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < DRAG_START) return;
    if (!ghost) {
      ghost = document.createElement('div');
      ghost.className = 'hand-ghost';
      ghost.innerHTML = pieceSvg(color === 'white' ? 'M' : 'm', 56);
      document.body.appendChild(ghost);
    }
    ghost.style.left = `${ev.clientX - 28}px`;
    ghost.style.top = `${ev.clientY - 28}px`;
  };
  const up = (/** @type {PointerEvent} */ ev) => {
    document.removeEventListener('pointermove', move);
    document.removeEventListener('pointerup', up);
    document.removeEventListener('pointercancel', up);
    if (ghost) {
      ghost.remove();
      const square = ev.type === 'pointerup' ? squareAt(b, ev.clientX, ev.clientY) : null;
      if (square) b.tapSquare(square);
    } else if (wasSelected && ev.type === 'pointerup') {
      b.setSelection(machine.IDLE); // a second tap on the reserve puts it back
    }
  };
  document.addEventListener('pointermove', move);
  document.addEventListener('pointerup', up);
  document.addEventListener('pointercancel', up);
}
