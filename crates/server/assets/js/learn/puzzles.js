// @ts-check
// The puzzle page: the opponent's move is played, then the player finds the
// solution, move by move (the opponent's replies are played for them). A
// wrong move is shown as wrong, then the player tries again or sees the
// solution. A hint marks the piece to move; themes to choose from; a streak
// mode (harder and harder, until a mistake). Each try is rated once, on the
// server (Glicko-2 for the player and the puzzle).

import { Board } from '../board.js';
import { t, applyI18n, serverError, I18n } from '../i18n.js';
import { Player } from '../player.js';
import { mountSite } from '../ui/site.js';
import { announce } from '../ui/notice.js';
import { learn } from './net.js';

/** @typedef {import('./net.js').Puzzle} Puzzle */
/** @typedef {import('../api.js').PositionView} PositionView */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const REPLY_MS = 450;

/** @typedef {'loading' | 'playing' | 'taking-back' | 'wrong' | 'solved' | 'failed'} Phase */

/**
 * The page's entry (the page calls it: importing this module does
 * nothing). Its state (`state`, the board) is made here, one per page, and
 * the functions below are the page's, over that state.
 */
export async function start() {
  // The page's language and player, one of each, handed to what needs them.
  const i18n = new I18n(document);
  const player = new Player();
  const state = {
    variant: 'tensor',
    theme: '',
    streak: false,
    streakCount: 0,
    /** @type {Puzzle | null} */
    puzzle: null,
    /** the index in `puzzle.moves` of the next move to find */
    step: 1,
    /** @type {Phase} */
    phase: /** @type {Phase} */ ('loading'),
    /** the last move shown before the solver's turn (highlighted) */
    lastPath: /** @type {import('../board/types.js').Path | null} */ (null),
    /** a wrong move or the solution seen: no longer solved */
    failed: false,
    reported: false,
    /** the solver's moves as played, up to the first wrong one (the server judges them) */
    tried: /** @type {string[]} */ ([]),
    /** @type {import('./net.js').PuzzleRating | null} */
    me: null,
  };

  const board = new Board($('#board'), { label: t('puzzles.board'), onMove: (uci) => tryMove(uci) });

  /** @param {string} text @param {'' | 'good' | 'bad'} [kind] */
  function feedback(text, kind = '') {
    const f = $('#feedback');
    f.textContent = text;
    f.className = `feedback ${kind}`;
    if (text) announce(text);
  }

  /** The position after the puzzle's first `k` moves. @param {number} k */
  async function positionAfter(k) {
    const p = /** @type {Puzzle} */ (state.puzzle);
    return (await learn.position(p.variant, p.fen, p.moves.slice(0, k))).position;
  }

  /** @param {PositionView} pos @param {import('../board/types.js').Path | null} last @param {boolean} movable */
  function showPosition(pos, last, movable) {
    const p = /** @type {Puzzle} */ (state.puzzle);
    board.setGeometry(pos.geometry);
    board.setOrientation(p.color);
    board.setPosition({ fen: pos.fen, variant: p.variant, legal: pos.legal, movable: movable ? [p.color] : [], check: pos.check, last, hands: pos.rules.hands ? pos.hands : null });
    // Which move of the solution the player is to find (tests wait on it).
    board.container.dataset.step = movable ? String(state.step) : '';
  }

  /** Plays move `k` of the puzzle with its animation (the opponent's, or the solution's). @param {number} k */
  async function playStep(k) {
    const p = /** @type {Puzzle} */ (state.puzzle);
    const res = await learn.position(p.variant, p.fen, p.moves.slice(0, k), p.moves[k]);
    if (res.played && res.played.path) {
      board.busy = true;
      try { await board.animate(res.played.path, res.played.uci); } finally { board.busy = false; }
    }
    return res;
  }

  function renderFacts() {
    const p = state.puzzle;
    const me = state.me || (p && p.player);
    $('#my-rating').textContent = me ? `${me.rating}${me.provisional ? '?' : ''}` : '–';
    const done = state.phase === 'solved' || state.phase === 'failed';
    $('#puzzle-rating').textContent = p && done ? String(p.rating.rating) : '?';
    $('#puzzle-themes').textContent = p && done ? p.themes.map((th) => t(`theme.${th}`) === `theme.${th}` ? th : t(`theme.${th}`)).join(', ') : '?';
    $('#btn-next').classList.toggle('hidden', !done);
    $('#btn-retry').classList.toggle('hidden', state.phase !== 'wrong');
    /** @type {HTMLButtonElement} */ ($('#btn-hint')).disabled = state.phase !== 'playing';
    /** @type {HTMLButtonElement} */ ($('#btn-solution')).disabled = done || state.phase === 'loading';
    const sc = $('#streak-count');
    sc.classList.toggle('hidden', !state.streak);
    sc.textContent = t('puzzles.streak_count', { n: state.streakCount });
    const link = /** @type {HTMLAnchorElement} */ ($('#analyse-link'));
    link.classList.toggle('hidden', !(p && done));
    if (p) link.href = `/analysis.html#variant=${p.variant}&fen=${encodeURIComponent(p.fen)}`;
  }

  /** The next puzzle (or the one the address names, `#ID`, the first time). @param {string} [id] */
  async function load(id) {
    state.phase = 'loading';
    state.failed = false;
    state.reported = false;
    state.tried = [];
    feedback('');
    renderFacts();
    try {
      state.puzzle = id ? await learn.puzzle(id) : await learn.nextPuzzle(state.variant, state.theme, state.streak ? state.streakCount : null);
    } catch (e) {
      $('#status').textContent = serverError(/** @type {any} */ (e));
      return;
    }
    const p = state.puzzle;
    state.me = p.player;
    state.step = 1;
    showPosition(await positionAfter(0), null, false);
    $('#status').textContent = t('puzzles.watch');
    await new Promise((r) => setTimeout(r, REPLY_MS));
    const res = await playStep(0);
    state.lastPath = (res.played && res.played.path) || null;
    showPosition(res.position, state.lastPath, true);
    state.phase = 'playing';
    $('#status').textContent = t(p.color === 'white' ? 'puzzles.find_white' : 'puzzles.find_black');
    board.container.dataset.puzzle = p.id;
    renderFacts();
  }

  /** Tells the server how the try went (once per puzzle). @param {boolean} solved */
  async function report(solved) {
    if (state.reported || !state.puzzle) return;
    state.reported = true;
    try {
      const r = await learn.puzzleResult(state.puzzle.id, state.tried, solved, state.streak);
      state.me = r.player;
      if (r.rated) feedback(`${$('#feedback').textContent} ${t('puzzles.rating_change', { diff: r.player_diff >= 0 ? `+${r.player_diff}` : `−${-r.player_diff}` })}`, solved ? 'good' : 'bad');
      state.puzzle.rating = r.puzzle;
    } catch (e) {
      feedback(serverError(/** @type {any} */ (e)), 'bad');
    }
    renderFacts();
  }

  /** @param {string} uci */
  async function tryMove(uci) {
    const p = state.puzzle;
    if (!p || state.phase !== 'playing') return false;
    const res = await learn.position(p.variant, p.fen, p.moves.slice(0, state.step), uci).catch(() => null);
    if (!res || !res.played) return false;
    const expected = p.moves[state.step];
    const mates = res.position.outcome && res.position.outcome.winner === p.color;
    // Until the try is reported: the moves it is judged on.
    if (!state.reported) state.tried.push(res.played.uci);
    if (res.played.path) {
      board.busy = true;
      try { await board.animate(res.played.path, res.played.uci); } finally { board.busy = false; }
    }
    if (res.played.uci !== expected && !mates) {
      // A wrong move is shown, then taken back (as lichess does): the player
      // tries another from the same position (a streak ends there).
      state.failed = true;
      state.phase = state.streak ? 'wrong' : 'taking-back';
      showPosition(res.position, res.played.path || null, false);
      const wrong = t('puzzles.wrong', { san: res.played.san || uci });
      if (state.streak) {
        feedback(t('puzzles.streak_over', { n: state.streakCount }), 'bad');
        state.streakCount = 0;
      } else feedback(`${wrong} ${t('puzzles.try_again')}`, 'bad');
      renderFacts();
      report(false);
      await new Promise((r) => setTimeout(r, REPLY_MS));
      const before = await positionAfter(state.step);
      if (state.puzzle !== p) return true;
      showPosition(before, state.lastPath, !state.streak);
      if (!state.streak) state.phase = 'playing';
      renderFacts();
      return true;
    }
    state.step += 1;
    showPosition(res.position, res.played.path || null, false);
    if (state.step >= p.moves.length || mates) return solved(), true;
    feedback(t('puzzles.good'), 'good');
    await new Promise((r) => setTimeout(r, REPLY_MS));
    const reply = await playStep(state.step);
    state.step += 1;
    state.lastPath = (reply.played && reply.played.path) || null;
    showPosition(reply.position, state.lastPath, true);
    return true;
  }

  function solved() {
    state.phase = state.failed ? 'failed' : 'solved';
    feedback(state.failed ? t('puzzles.done') : t('puzzles.solved'), state.failed ? '' : 'good');
    $('#status').textContent = t('puzzles.complete');
    if (!state.failed && state.streak) state.streakCount += 1;
    renderFacts();
    report(!state.failed);
  }

  async function retry() {
    state.phase = 'playing';
    feedback(t('puzzles.try_again'));
    showPosition(await positionAfter(state.step), state.lastPath, true);
    renderFacts();
  }

  async function showSolution() {
    const p = state.puzzle;
    if (!p) return;
    state.failed = true;
    report(false);
    if (state.phase === 'wrong') showPosition(await positionAfter(state.step), null, false);
    state.phase = 'loading';
    renderFacts();
    while (state.step < p.moves.length) {
      const res = await playStep(state.step);
      state.step += 1;
      showPosition(res.position, (res.played && res.played.path) || null, false);
      await new Promise((r) => setTimeout(r, REPLY_MS));
    }
    state.phase = 'failed';
    feedback(t('puzzles.solution_shown'));
    $('#status').textContent = t('puzzles.complete');
    renderFacts();
  }

  function hint() {
    const p = state.puzzle;
    if (!p || state.phase !== 'playing') return;
    const m = p.moves[state.step].match(/^([a-z]\d+)/);
    if (m) {
      board.drawings = [{ from: m[1], to: m[1], color: 'green' }];
      board.render();
    }
    feedback(t('puzzles.hint_text'));
  }

  async function loadThemes() {
    const sel = /** @type {HTMLSelectElement} */ ($('#theme'));
    for (const o of [...sel.options].slice(1)) o.remove();
    try {
      const th = await learn.themes(state.variant);
      for (const x of th.themes) {
        const o = document.createElement('option');
        o.value = x.name;
        const label = t(`theme.${x.name}`);
        o.textContent = `${label === `theme.${x.name}` ? x.name : label} (${x.count})`;
        sel.appendChild(o);
      }
    } catch (_) { /* no themes: any puzzle */ }
  }

  async function run() {
    mountSite({ i18n, player, current: 'puzzles', onTheme: () => board.render() });
    $('#btn-next').addEventListener('click', () => load());
    $('#btn-retry').addEventListener('click', retry);
    $('#btn-solution').addEventListener('click', showSolution);
    $('#btn-hint').addEventListener('click', hint);
    $('#variant').addEventListener('change', async (e) => {
      state.variant = /** @type {HTMLSelectElement} */ (e.target).value;
      state.theme = '';
      await loadThemes();
      load();
    });
    $('#theme').addEventListener('change', (e) => {
      state.theme = /** @type {HTMLSelectElement} */ (e.target).value;
      load();
    });
    $('#streak').addEventListener('change', (e) => {
      state.streak = /** @type {HTMLInputElement} */ (e.target).checked;
      state.streakCount = 0;
      load();
    });
    i18n.onChange(() => { applyI18n(document); loadThemes(); renderFacts(); });
    window.addEventListener('hashchange', () => { if (location.hash.length > 1) load(location.hash.slice(1)); });
    await loadThemes();
    await load(location.hash.slice(1) || undefined);
  }

  await run();
  return state;
}
