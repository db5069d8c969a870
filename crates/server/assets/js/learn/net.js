// @ts-check
// The learning pages' requests (issue 16): the analysis board's positions
// and PGN import, game reviews, puzzles and lessons. The answers' types
// are the server's Rust types, generated (generated/events.ts: reviews,
// lessons, puzzles, the explorer, a PGN's tree); `Score` (an engine line's
// or a review's evaluation, as the page reads either) and the explorer's
// filters are the page's own.

// Every request goes through api.js's one wrapper (JSON, errors as
// values with the server's kind, Retry-After honoured).
import { request } from '../api.js';
import { frozen } from '../frozen.js';

/** @typedef {import('../api.js').PositionView} PositionView */
/** @typedef {import('../board/types.js').LegalMove} LegalMove */
/** @typedef {import('../board/types.js').Path} Path */
/** @typedef {{ cp?: number, mate?: number }} Score  White's view: centipawns or mate in n */
/** @typedef {import('../generated/events.js').TreeNodeView} TreeNodeView */
/** @typedef {import('../generated/events.js').TreeLineView} TreeLine */
/** @typedef {import('../generated/events.js').TreeImportView} TreeImport */
/** @typedef {import('../generated/events.js').BetterMove} BetterMove */
/** @typedef {import('../generated/events.js').PlyReview} PlyReview */
/** @typedef {import('../generated/events.js').SideSummary} SideSummary */
/** @typedef {import('../generated/events.js').Review} Review */
/** @typedef {import('../generated/events.js').ReviewStatusView} ReviewStatus */
/** @typedef {import('../generated/events.js').PuzzleRatingView} PuzzleRating */
/** @typedef {import('../generated/events.js').PuzzleView} Puzzle */
/** @typedef {import('../generated/events.js').PuzzleResultView} PuzzleResult */
/** @typedef {import('../generated/events.js').ThemesView} Themes */
/** @typedef {import('../generated/events.js').LessonText} Text */
/** @typedef {import('../generated/events.js').LessonLevel} Level */
/** @typedef {import('../generated/events.js').LessonStage} Stage */
/** @typedef {import('../generated/events.js').LevelProgressView} LevelProgress */
/** @typedef {import('../generated/events.js').LessonsView} Lessons */
/** @typedef {import('../generated/events.js').LessonRefusal} Refusal */
/** @typedef {import('../generated/events.js').LessonCheckView} Check */

/** @typedef {import('../generated/events.js').ExplorerEvalView} ExplorerEval */
/** @typedef {import('../generated/events.js').ExplorerMoveView} ExplorerMove */
/** @typedef {import('../generated/events.js').TopGamePlayer} ExplorerPlayer */
/** @typedef {import('../generated/events.js').TopGameView} ExplorerGame */
/** @typedef {import('../generated/events.js').ExplorerView} ExplorerAnswer */
/** @typedef {{ rated: boolean, speeds: string[], ratings: string[] }} ExplorerFilters */

const enc = encodeURIComponent;

export const learn = frozen({
  /**
   * The position after `moves` from `fen` (and `move` played there, if given).
   * @param {string} variant @param {string} fen @param {string[]} moves @param {string} [move]
   * @returns {Promise<{ played: LegalMove | null, position: PositionView }>}
   */
  position: (variant, fen, moves, move) => request('POST', '/api/position', { variant, fen, moves, move }, { idempotent: true }),
  /**
   * The opening explorer at the position after `moves` from `fen` (the
   * game's start when empty), among the games the filters keep.
   * @param {string} variant @param {string} fen @param {string[]} moves @param {ExplorerFilters} f
   * @returns {Promise<ExplorerAnswer>}
   */
  explorer: (variant, fen, moves, f) => request('GET', `/api/explorer?variant=${enc(variant)}${fen ? `&fen=${enc(fen)}` : ''}`
    + `&play=${enc(moves.join(','))}${f.rated ? '&rated=true' : ''}`
    + `${f.speeds.length ? `&speeds=${enc(f.speeds.join(','))}` : ''}${f.ratings.length ? `&ratings=${enc(f.ratings.join(','))}` : ''}`),
  /** @param {string} pgn @param {string} [variant] @returns {Promise<TreeImport>} */
  importPgn: (pgn, variant) => request('POST', '/api/analysis/pgn', { pgn, variant }),
  /** @param {string} id @returns {Promise<ReviewStatus>} */
  review: (id) => request('GET', `/api/games/${enc(id)}/review`),
  /** @param {string} id @returns {Promise<ReviewStatus>} */
  startReview: (id) => request('POST', `/api/games/${enc(id)}/review`, {}),
  /** @param {string} variant @returns {Promise<Themes>} */
  themes: (variant) => request('GET', `/api/puzzles/themes?variant=${enc(variant)}`),
  /** @param {string} variant @param {string} theme @param {number | null} streak @returns {Promise<Puzzle>} */
  nextPuzzle: (variant, theme, streak) => request('GET', `/api/puzzles/next?variant=${enc(variant)}&theme=${enc(theme)}${streak === null ? '' : `&streak=${streak}`}`),
  /** @param {string} id @returns {Promise<Puzzle>} */
  puzzle: (id) => request('GET', `/api/puzzles/${enc(id)}`),
  /**
   * The try as played (the server judges it from the moves).
   * @param {string} id @param {string[]} moves @param {boolean} solved @param {boolean} streak
   * @returns {Promise<PuzzleResult>}
   */
  puzzleResult: (id, moves, solved, streak) =>
    request('POST', `/api/puzzles/${enc(id)}/result`, { moves, solved, streak }),
  /** @returns {Promise<Lessons>} */
  lessons: () => request('GET', '/api/lessons'),
  /** @param {string} level @param {string[]} moves @returns {Promise<Check>} */
  check: (level, moves) => request('POST', `/api/lessons/${enc(level)}/check`, { moves }),
});

/** A score as people read it: `+0.35`, `−1.20`, `#3`, `#−2`. @param {Score | null | undefined} s */
export function scoreText(s) {
  if (!s) return '';
  if (typeof s.mate === 'number') return s.mate < 0 ? `#−${-s.mate}` : `#${s.mate}`;
  const cp = s.cp || 0;
  return `${cp >= 0 ? '+' : '−'}${(Math.abs(cp) / 100).toFixed(2)}`;
}

/** White's winning chances (−1 to 1) by lichess's curve. @param {Score | null | undefined} s */
export function winChance(s) {
  if (!s) return 0;
  if (typeof s.mate === 'number') return s.mate > 0 ? 1 : -1;
  const cp = Math.max(-1000, Math.min(1000, s.cp || 0));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}
