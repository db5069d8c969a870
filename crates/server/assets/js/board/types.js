// @ts-check
// Types shared by the board's modules and the pages: what the server sends
// (views.rs) and what the board keeps. This file has no code.

/** @typedef {'white' | 'black'} Color */

/**
 * One piece's route during a move; `squares[0]` is where it starts.
 * @typedef {{ piece: string, squares: string[] }} Route
 */

/**
 * How a move looks on the board (animation, arrows).
 * @typedef {{ routes: Route[], captured?: string | null }} Path
 */

/**
 * A legal move as the server lists it (`position.legal[]`). The rules page
 * adds `color`, as it offers the moves of both sides at once.
 * @typedef {{
 *   uci: string,
 *   san?: string,
 *   kind: 'normal' | 'promotion' | 'en_passant' | 'castle' | 'propel' | 'beast_capture' | 'drop' | string,
 *   from: string,
 *   to: string,
 *   aux?: string | null,
 *   promotion?: string | null,
 *   rook?: string | null,
 *   path?: Path,
 *   color?: Color,
 * }} LegalMove
 */

/** @typedef {{ files: number, ranks: number, holes: string[] }} Geometry */

/** @typedef {{ white: number, black: number }} Hands */

/**
 * What a board shows.
 * @typedef {{
 *   fen: string,
 *   variant?: string,
 *   legal: LegalMove[],
 *   movable: Color[],
 *   check?: string | null,
 *   hands?: Hands | null,
 *   last?: Path | null,
 * }} BoardPosition
 */

export {};
