// @ts-check
// Game review on the analysis board: "Review" runs the server's review of a
// finished game (a progress bar while it works), then marks the main line's
// moves (?!, ?, ??) with counts and accuracies per side, feeds the graph,
// goes to the next mistake and shows the better move as an arrow. The
// review is stored with the game: it opens at once the next time.

import { t, plural } from '../i18n.js';
import { learn, scoreText } from './net.js';
import { serverError } from '../i18n.js';
import { frozen } from '../frozen.js';

/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./net.js').Review} Review */
/** @typedef {import('./net.js').PlyReview} PlyReview */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const GLYPH = frozen(/** @type {Record<string, string>} */ ({ inaccuracy: '?!', mistake: '?', blunder: '??' }));
const POLL_MS = 500;

/**
 * @param {{ mainLine: () => TreeNode[], goTo: (n: TreeNode) => void, current: () => TreeNode,
 *   setArrows: () => void, redraw: () => void }} deps
 */
export function reviewPanel(deps) {
  const st = {
    /** @type {string | null} */
    game: null,
    /** @type {Review | null} */
    review: null,
    /** @type {Map<TreeNode, PlyReview>} the review of each main-line move, by node */
    byNode: new Map(),
    polling: false,
  };

  /** Puts the review on the main line's moves. */
  function attach() {
    const r = st.review;
    if (!r) return;
    const line = deps.mainLine();
    st.byNode = new Map();
    r.plies.forEach((p, i) => {
      const n = line[i];
      if (!n || n.uci !== p.uci) return;
      st.byNode.set(n, p);
      n.eval = p.eval;
      n.judgement = p.judgement;
    });
  }

  function render() {
    const box = $('#review-box');
    box.classList.toggle('hidden', !st.game);
    const r = st.review;
    $('#btn-review').classList.toggle('hidden', !!r);
    $('#review-summary').classList.toggle('hidden', !r);
    if (!r) return;
    /** @param {number | null} a */
    const acc = (a) => (a === null || a === undefined ? '–' : `${a.toFixed(1)}%`);
    $('#acc-white').textContent = acc(r.white.accuracy);
    $('#acc-black').textContent = acc(r.black.accuracy);
    $('#inacc-white').textContent = String(r.white.inaccuracies);
    $('#inacc-black').textContent = String(r.black.inaccuracies);
    $('#mist-white').textContent = String(r.white.mistakes);
    $('#mist-black').textContent = String(r.black.mistakes);
    $('#blun-white').textContent = String(r.white.blunders);
    $('#blun-black').textContent = String(r.black.blunders);
    note();
  }

  /** The judged move that follows the shown position on the main line. */
  function nextJudged() {
    const n = deps.current().children[0];
    const p = n && st.byNode.get(n);
    return p && p.judgement ? { node: n, ply: p } : null;
  }

  /** What the panel says about the shown position. */
  function note() {
    const box = $('#review-note');
    const j = nextJudged();
    const here = st.byNode.get(deps.current());
    if (j && j.ply.better) {
      box.textContent = t('review.better', {
        played: j.ply.san, judgement: t(`review.${j.ply.judgement}`), better: j.ply.better.san, eval: scoreText(j.ply.better.eval),
      });
    } else if (here) {
      box.textContent = here.judgement ? t('review.was', { played: here.san, judgement: t(`review.${here.judgement}`) }) : `${here.san} ${scoreText(here.eval)}`;
    } else box.textContent = '';
  }

  /** @param {import('./net.js').ReviewStatus} s */
  function progress(s) {
    const bar = /** @type {HTMLProgressElement} */ ($('#review-bar'));
    $('#review-progress').classList.toggle('hidden', !(s.status === 'queued' || s.status === 'running'));
    const p = s.progress || { done: 0, total: 1 };
    bar.max = p.total;
    bar.value = p.done;
    $('#review-progress-text').textContent = s.status === 'queued' ? t('review.queued') : plural('review.progress_text', p.total, { done: p.done });
  }

  /** @param {import('./net.js').ReviewStatus} s */
  function take(s) {
    progress(s);
    if (s.status === 'done' && s.review) {
      st.review = s.review;
      attach();
      render();
      deps.redraw();
      deps.setArrows();
      return true;
    }
    if (s.status === 'failed') {
      $('#review-progress-text').textContent = s.error || t('review.failed');
      $('#review-progress').classList.remove('hidden');
      return true;
    }
    return false;
  }

  async function poll() {
    if (st.polling || !st.game) return;
    st.polling = true;
    const game = st.game;
    try {
      for (;;) {
        const s = await learn.review(game);
        if (st.game !== game || take(s)) break;
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    } catch (e) {
      $('#review-progress-text').textContent = serverError(/** @type {any} */ (e));
    } finally {
      st.polling = false;
    }
  }

  async function start() {
    if (!st.game) return;
    try {
      const s = await learn.startReview(st.game);
      if (!take(s)) poll();
    } catch (e) {
      $('#review-progress').classList.remove('hidden');
      $('#review-progress-text').textContent = serverError(/** @type {any} */ (e));
    }
  }

  $('#btn-review').addEventListener('click', start);
  $('#btn-next-mistake').addEventListener('click', () => {
    const line = deps.mainLine();
    const cur = deps.current();
    // The position before each judged move, after the one shown.
    const at = line.indexOf(cur);
    for (let i = Math.max(0, at + 2); i < line.length; i++) {
      const p = st.byNode.get(line[i]);
      if (p && p.judgement) {
        deps.goTo(/** @type {TreeNode} */ (line[i].parent));
        return;
      }
    }
    for (let i = 0; i < line.length; i++) {
      const p = st.byNode.get(line[i]);
      if (p && p.judgement && line[i].parent !== cur) {
        deps.goTo(/** @type {TreeNode} */ (line[i].parent));
        return;
      }
    }
  });

  return {
    /** @param {string | null} game @param {boolean} finished */
    setGame(game, finished) {
      st.game = finished ? game : null;
      st.review = null;
      st.byNode = new Map();
      render();
    },
    /** Shows the stored review at once; starts one when asked to. @param {boolean} autoStart */
    async open(autoStart) {
      if (!st.game) return;
      try {
        const s = await learn.review(st.game);
        if (take(s)) return;
        if (s.status === 'queued' || s.status === 'running') poll();
        else if (autoStart) start();
      } catch (e) {
        $('#review-progress-text').textContent = serverError(/** @type {any} */ (e));
      }
    },
    onShow: note,
    render,
    /** The marks of a move in the list. @param {TreeNode} n */
    glyph(n) {
      const p = st.byNode.get(n);
      return p && p.judgement ? GLYPH[p.judgement] : '';
    },
    /** The better move, as arrows, when the next move was a mistake. */
    betterArrow() {
      const j = nextJudged();
      if (!j || !j.ply.better) return null;
      const m = j.ply.better.uci.match(/^([a-z]\d+)([a-z]\d+)(?:>([a-z]\d+))?/);
      if (!m) return null;
      const arrows = [{ from: m[1], to: m[2], color: 'green' }];
      if (m[3]) arrows.push({ from: m[2], to: m[3], color: 'green' });
      return arrows;
    },
  };
}
