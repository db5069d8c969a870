// @ts-check
// The tap and drag state machine of the board, as the Tensor Chess
// rulebook's interactions need it: two taps for ordinary moves, ricochets
// and hop chains; piece → beast → square for a propel; king → rook →
// outline for castling; a chooser where one square means several moves
// (promotion, a beast that may capture or not); drops from a reserve.
//
// Pure: no DOM. It takes the position's legal moves (as the server lists
// them) and the current selection, and returns the next selection and, when
// the player has chosen, the move to play. A move the position does not
// offer is never played: it comes back as `tried`, so that the page can say
// why it is illegal. Mouse, touch and keyboard all go through here.

/** @typedef {import('./types.js').Color} Color */
/** @typedef {import('./types.js').LegalMove} LegalMove */

/**
 * @typedef {{ mode: 'idle' }
 *   | { mode: 'selected', from: string }
 *   | { mode: 'propel', from: string, beast: string }
 *   | { mode: 'castle', from: string, rook: string }
 *   | { mode: 'choose', from: string, to: string, kind: 'promotion' | 'beast', options: LegalMove[] }
 *   | { mode: 'hand', color: Color }
 *   | { mode: 'preselect', from: string }} Selection
 */

/**
 * What the machine needs to know of the position.
 * `premovable`: the colour whose pieces may be picked for a premove while
 * the other side is to move (none: no premoves).
 * @typedef {{
 *   legal: LegalMove[],
 *   movable: Color[],
 *   pieceAt: (square: string) => string | undefined,
 *   premovable?: Color | null,
 * }} TapContext
 */

/**
 * `play`: the move chosen. `tried`: a move the position does not offer
 * (from, to, and its move string as RULES 4.2 would write it). `premove`:
 * a move queued for when it is the player's turn. `snap`: a dragged piece
 * may stay where it was dropped (the drop was one move).
 * @typedef {{
 *   sel: Selection,
 *   play?: string,
 *   tried?: { uci: string, from: string, to: string },
 *   premove?: { from: string, to: string },
 *   snap?: boolean,
 * }} TapResult
 */

/**
 * A mark to draw on a square.
 * @typedef {{
 *   square: string,
 *   kind: 'dest' | 'propel-beast' | 'castle-arrow' | 'propel-beast-selected' | 'beast-sign' | 'propel-sign'
 *     | 'castle-rook-selected' | 'castle-target' | 'king-outline' | 'choose-target' | 'capture-mark',
 *   cls?: string,
 *   occupied?: boolean,
 *   dot?: boolean,
 * }} Mark
 */

/** @type {Selection} */
export const IDLE = Object.freeze({ mode: 'idle' });

/** @param {string} letter @returns {Color} */
export const colorOfPiece = (letter) => (letter === letter.toUpperCase() ? 'white' : 'black');

/** The promotion chooser's order: queen first, the beast last. */
const PROMOTION_ORDER = 'qrbnt';

/** @param {TapContext} ctx @param {string} square */
export function isMovable(ctx, square) {
  const p = ctx.pieceAt(square);
  return !!p && ctx.movable.includes(colorOfPiece(p));
}

/** @param {TapContext} ctx @param {string} square */
function isPremovable(ctx, square) {
  const p = ctx.pieceAt(square);
  return !!p && !!ctx.premovable && !ctx.movable.length && colorOfPiece(p) === ctx.premovable;
}

/** Moves of the piece on `square` (drops excluded). @param {TapContext} ctx @param {string} square */
export function movesFrom(ctx, square) {
  return ctx.legal.filter((m) => m.from === square && m.kind !== 'drop');
}

/** Drops of `color` (moves may carry the colour that plays them). @param {LegalMove} m @param {Color} color */
export function isDropFor(m, color) {
  return m.kind === 'drop' && (!m.color || m.color === color);
}

/** The square highlighted as selected, if any. @param {Selection} sel */
export function selectedSquare(sel) {
  return 'from' in sel ? sel.from : null;
}

/** @param {string} from @returns {Selection} */
const selected = (from) => ({ mode: 'selected', from });

/** @param {TapContext} ctx @param {Extract<Selection, {mode: 'propel'}>} s */
function propelTargets(ctx, s) {
  return movesFrom(ctx, s.from).filter((m) => m.kind === 'propel' && m.to === s.beast);
}

/** @param {TapContext} ctx @param {Extract<Selection, {mode: 'castle'}>} s */
function castleTargets(ctx, s) {
  return movesFrom(ctx, s.from).filter((m) => m.kind === 'castle' && m.rook === s.rook);
}

/**
 * Whether `square` means something to the current selection (a destination,
 * a beast to propel, a rook to castle with): pressing it must not select
 * the piece standing there.
 * @param {TapContext} ctx @param {Selection} sel @param {string} square
 */
export function isTarget(ctx, sel, square) {
  switch (sel.mode) {
    case 'selected':
      return movesFrom(ctx, sel.from).some((m) => m.to === square || m.rook === square);
    case 'propel':
      return square === sel.beast || propelTargets(ctx, sel).some((m) => m.aux === square);
    case 'castle':
      return square === sel.rook || castleTargets(ctx, sel).some((m) => m.to === square);
    case 'hand':
      return ctx.legal.some((m) => isDropFor(m, sel.color) && m.to === square);
    default:
      return false;
  }
}

/**
 * A pointer pressed on `square`: one's own piece is selected at once (so
 * that it can be dragged), unless the square is a target of the selection.
 * @param {TapContext} ctx @param {Selection} sel @param {string} square
 * @returns {{ sel: Selection, selectedNow: boolean, canDrag: boolean }}
 */
export function press(ctx, sel, square) {
  let next = sel;
  let selectedNow = false;
  if (isMovable(ctx, square) && !isTarget(ctx, sel, square) && square !== selectedSquare(sel)) {
    next = selected(square);
    selectedNow = true;
  } else if (isPremovable(ctx, square) && square !== selectedSquare(sel) && sel.mode !== 'preselect') {
    next = { mode: 'preselect', from: square };
    selectedNow = true;
  }
  const from = selectedSquare(next);
  const canDrag = from === square && (next.mode === 'selected' ? isMovable(ctx, square) : next.mode === 'preselect');
  return { sel: next, selectedNow, canDrag };
}

/**
 * A tap (a click, a touch, Enter or Space on a square).
 * @param {TapContext} ctx @param {Selection} sel @param {string} square
 * @returns {TapResult}
 */
export function tap(ctx, sel, square) {
  switch (sel.mode) {
    case 'idle':
      if (isMovable(ctx, square)) return { sel: selected(square) };
      if (isPremovable(ctx, square)) return { sel: { mode: 'preselect', from: square } };
      return { sel };
    case 'selected':
      // A beast capture may end where the beast started: its own square is
      // then a destination, not a way to cancel.
      if (square === sel.from && !movesFrom(ctx, sel.from).some((m) => m.to === square)) return { sel: IDLE };
      return target(ctx, sel.from, square);
    case 'propel': {
      if (square === sel.beast) return { sel: selected(sel.from) };
      const m = propelTargets(ctx, sel).find((x) => x.aux === square);
      if (m) return { sel: IDLE, play: m.uci };
      if (isMovable(ctx, square) && square !== sel.from) return { sel: selected(square) };
      if (square === sel.from) return { sel: IDLE };
      return { sel: IDLE, tried: { uci: `${sel.from}${sel.beast}>${square}`, from: sel.from, to: square } };
    }
    case 'castle': {
      const m = castleTargets(ctx, sel).find((x) => x.to === square);
      if (m) return { sel: IDLE, play: m.uci };
      if (square === sel.rook) return { sel: selected(sel.from) };
      return tap(ctx, selected(sel.from), square);
    }
    case 'choose': {
      // The chooser asks; on the board only a marked beast answers it.
      const m = sel.options.find((x) => x.kind === 'beast_capture' && x.aux === square);
      if (m) return { sel: IDLE, play: m.uci };
      return { sel };
    }
    case 'hand': {
      const m = ctx.legal.find((x) => isDropFor(x, sel.color) && x.to === square);
      if (m) return { sel: IDLE, play: m.uci };
      if (isMovable(ctx, square)) return { sel: selected(square) };
      return { sel: IDLE, tried: { uci: `M@${square}`, from: '', to: square } };
    }
    case 'preselect': {
      if (square === sel.from) return { sel: IDLE };
      if (isPremovable(ctx, square)) return { sel: { mode: 'preselect', from: square } };
      return { sel: IDLE, premove: { from: sel.from, to: square } };
    }
    default:
      return { sel: IDLE };
  }
}

/**
 * The second tap (or a drop) of the selected piece on `from`.
 * @param {TapContext} ctx @param {string} from @param {string} square
 * @returns {TapResult}
 */
function target(ctx, from, square) {
  const moves = movesFrom(ctx, from);
  const rook = moves.find((m) => m.kind === 'castle' && m.rook === square);
  if (rook) return { sel: { mode: 'castle', from, rook: square } };
  const direct = moves.filter((m) => m.kind !== 'propel' && m.to === square);
  if (direct.length === 1) return { sel: IDLE, play: direct[0].uci };
  if (direct.length > 1) {
    if (direct.every((m) => m.kind === 'promotion')) {
      const options = [...direct].sort((a, b) =>
        PROMOTION_ORDER.indexOf(a.promotion || '') - PROMOTION_ORDER.indexOf(b.promotion || ''));
      return { sel: { mode: 'choose', from, to: square, kind: 'promotion', options } };
    }
    return { sel: { mode: 'choose', from, to: square, kind: 'beast', options: direct } };
  }
  if (moves.some((m) => m.kind === 'propel' && m.to === square)) return { sel: { mode: 'propel', from, beast: square } };
  if (isMovable(ctx, square)) return { sel: selected(square) };
  return { sel: IDLE, tried: { uci: `${from}${square}`, from, to: square } };
}

/**
 * A piece dragged from `from` and let go on `square` (null: off the board).
 * @param {TapContext} ctx @param {Selection} sel @param {string} from @param {string | null} square
 * @returns {TapResult}
 */
export function drop(ctx, sel, from, square) {
  if (!square) return { sel };
  if (sel.mode === 'preselect') {
    if (square === from) return { sel };
    return { sel: IDLE, premove: { from, to: square } };
  }
  if (sel.mode !== 'selected' || sel.from !== from) return tap(ctx, sel, square);
  // Let go where it was picked up: nothing, unless a move ends there.
  if (square === from && !movesFrom(ctx, from).some((m) => m.to === from)) return { sel };
  const result = target(ctx, from, square);
  const direct = movesFrom(ctx, from).filter((m) => m.kind !== 'propel' && m.to === square);
  return direct.length === 1 ? { ...result, snap: true } : result;
}

/**
 * A tap on a side's reserve: selects it, or puts it back when selected.
 * @param {TapContext} ctx @param {Selection} sel @param {Color} color
 * @returns {TapResult}
 */
export function tapHand(ctx, sel, color) {
  if (!ctx.movable.includes(color)) return { sel };
  if (sel.mode === 'hand' && sel.color === color) return { sel: IDLE };
  return { sel: { mode: 'hand', color } };
}

/**
 * An option picked in a chooser.
 * @param {Selection} sel @param {string} uci
 * @returns {TapResult}
 */
export function choose(sel, uci) {
  if (sel.mode !== 'choose' || !sel.options.some((m) => m.uci === uci)) return { sel };
  return { sel: IDLE, play: uci };
}

/**
 * Whether a selection still makes sense in a new position (same pieces
 * movable): the board keeps it across a refresh of the same position.
 * @param {TapContext} ctx @param {Selection} sel
 */
export function stillValid(ctx, sel) {
  if (sel.mode === 'choose') return false;
  if (sel.mode === 'hand') return ctx.movable.includes(sel.color);
  if (sel.mode === 'preselect') return isPremovable(ctx, sel.from);
  const from = selectedSquare(sel);
  return !from || isMovable(ctx, from);
}

/**
 * What to draw for a selection.
 * @param {TapContext} ctx @param {Selection} sel
 * @returns {Mark[]}
 */
export function marks(ctx, sel) {
  /** @type {Mark[]} */
  const out = [];
  const seen = new Set();
  /** @param {string} square @param {string} cls @param {boolean} [dot] */
  const dest = (square, cls = '', dot = true) => {
    out.push({ square, kind: 'dest', cls, occupied: !!ctx.pieceAt(square), dot });
  };
  switch (sel.mode) {
    case 'selected':
      for (const m of movesFrom(ctx, sel.from)) {
        if (m.kind === 'propel') {
          if (!seen.has(`p${m.to}`)) out.push({ square: m.to, kind: 'propel-beast' });
          seen.add(`p${m.to}`);
          continue;
        }
        if (!seen.has(m.to)) dest(m.to, m.kind === 'castle' ? 'castle-dest' : '');
        seen.add(m.to);
        if (m.kind === 'castle' && m.rook && !seen.has(`r${m.rook}`)) {
          seen.add(`r${m.rook}`);
          out.push({ square: m.rook, kind: 'castle-arrow' });
        }
      }
      break;
    case 'propel':
      out.push({ square: sel.beast, kind: 'propel-beast-selected' });
      for (const m of propelTargets(ctx, sel)) {
        if (!m.aux) continue;
        dest(m.aux, 'propel-dest', false);
        out.push({ square: m.aux, kind: 'beast-sign' });
      }
      out.push({ square: sel.beast, kind: 'propel-sign' });
      break;
    case 'castle':
      out.push({ square: sel.rook, kind: 'castle-rook-selected' });
      for (const m of castleTargets(ctx, sel)) {
        out.push({ square: m.to, kind: 'castle-target' });
        out.push({ square: m.to, kind: 'king-outline' });
      }
      break;
    case 'choose':
      out.push({ square: sel.to, kind: 'choose-target' });
      for (const m of sel.options) if (m.kind === 'beast_capture' && m.aux) out.push({ square: m.aux, kind: 'capture-mark' });
      break;
    case 'hand':
      for (const m of ctx.legal) if (isDropFor(m, sel.color)) dest(m.to, 'drop-dest');
      break;
    default:
      break;
  }
  return out;
}

/**
 * The legal move a premove stands for, once its side is to move: the one
 * move from `from` to `to` (a promotion becomes a queen, castling may name
 * the rook); null when there is none or the choice is not clear.
 * @param {LegalMove[]} legal @param {{ from: string, to: string }} pm
 * @returns {string | null}
 */
export function premoveMove(legal, pm) {
  const direct = legal.filter((m) => m.from === pm.from && m.kind !== 'propel' && m.kind !== 'drop' && m.to === pm.to);
  if (direct.length === 1) return direct[0].uci;
  if (direct.length > 1 && direct.every((m) => m.kind === 'promotion')) {
    const queen = direct.find((m) => m.promotion === 'q');
    return queen ? queen.uci : direct[0].uci;
  }
  if (direct.length) return null; // a beast that may capture or not: the player must say
  const castles = legal.filter((m) => m.from === pm.from && m.kind === 'castle' && m.rook === pm.to);
  return castles.length === 1 ? castles[0].uci : null;
}
