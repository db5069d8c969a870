// @ts-check
// The lessons page: stages of levels, each a goal on a live board (reach
// the marked squares within a par of moves, take the marked pieces, give
// mate). The server judges every move by the rules (POST
// /api/lessons/{level}/check) and keeps the player's best: stars for
// meeting the par.

import { Board } from '../board.js';
import { t, plural, lang, applyI18n, illegalReason, I18n } from '../i18n.js';
import { Player } from '../player.js';
import { mountSite } from '../ui/site.js';
import { announce } from '../ui/notice.js';
import { learn } from './net.js';

/** @typedef {import('./net.js').Lessons} Lessons */
/** @typedef {import('./net.js').Level} Level */
/** @typedef {import('./net.js').Stage} Stage */
/** @typedef {import('./net.js').Check} Check */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

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
    /** @type {Lessons | null} */
    lessons: null,
    /** @type {Level | null} */
    level: null,
    /** @type {Stage | null} */
    stage: null,
    /** @type {string[]} the moves played on the level */
    moves: [],
    /** @type {Check | null} */
    check: null,
  };

  const board = new Board($('#board'), { label: t('lessons.board'), onMove: (uci) => move(uci) });

  /** @param {{ en: string, uk: string }} text */
  const tr = (text) => (lang() === 'uk' ? text.uk : text.en);
  /** @param {number} n */
  const starText = (n) => '★'.repeat(n) + '☆'.repeat(3 - n);

  function allLevels() {
    return state.lessons ? state.lessons.book.stages.flatMap((s) => s.levels.map((l) => ({ stage: s, level: l }))) : [];
  }

  function renderStages() {
    const ol = $('#stages');
    ol.innerHTML = '';
    if (!state.lessons) return;
    const progress = state.lessons.progress;
    for (const s of state.lessons.book.stages) {
      const li = document.createElement('li');
      const h = document.createElement('span');
      h.className = 'stage-name';
      h.textContent = tr(s.title);
      const levels = document.createElement('span');
      levels.className = 'stage-levels';
      s.levels.forEach((l, i) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `level-button${state.level && state.level.id === l.id ? ' current' : ''}`;
        b.dataset.level = l.id;
        const best = progress[l.id];
        b.textContent = `${i + 1}${best ? ` ${starText(best.stars)}` : ''}`;
        b.setAttribute('aria-label', t('lessons.level_label', { stage: tr(s.title), n: i + 1, stars: best ? best.stars : 0 }));
        if (state.level && state.level.id === l.id) b.setAttribute('aria-current', 'step');
        b.addEventListener('click', () => open(l.id));
        levels.appendChild(b);
      });
      li.append(h, levels);
      ol.appendChild(li);
    }
    const done = Object.keys(progress).length;
    $('#progress').textContent = plural('lessons.progress', allLevels().length, { done });
  }

  /** What the level asks, for people. @param {Level} l */
  function goalText(l) {
    if (l.goal === 'mate') return plural('lessons.goal_mate', l.par);
    if (l.goal === 'capture') return plural('lessons.goal_capture', l.par);
    return plural('lessons.goal_collect', l.par);
  }

  function renderLevel() {
    const l = state.level;
    const s = state.stage;
    const c = state.check;
    if (!l || !s || !c) return;
    $('#stage-title').textContent = tr(s.title);
    $('#stage-intro').textContent = tr(s.intro);
    $('#level-text').textContent = `${tr(l.text)} ${goalText(l)}`;
    $('#status').textContent = t('lessons.moves', { n: c.played, par: l.par });
    const stars = $('#stars');
    stars.textContent = c.stars ? starText(c.stars) : '';
    stars.setAttribute('aria-label', c.stars ? t('lessons.stars', { n: c.stars }) : t('lessons.no_stars'));
    $('#btn-next-level').classList.toggle('hidden', !c.goal_met);
    board.setGeometry(c.position.geometry);
    board.setPosition({
      fen: c.position.fen, variant: 'tensor', legal: c.position.legal, movable: c.goal_met ? [] : ['white'],
      check: c.position.check, last: c.last ? c.last.path : null,
    });
    // The marked squares left: orange circles; those done: green.
    board.drawings = [
      ...c.remaining.map((sq) => ({ from: sq, to: sq, color: l.goal === 'capture' ? 'red' : 'orange' })),
      ...c.done_squares.map((sq) => ({ from: sq, to: sq, color: 'green' })),
    ];
    board.render();
    board.container.dataset.level = l.id;
    renderStages();
  }

  /** Opens a level. @param {string} id */
  async function open(id) {
    const found = allLevels().find((x) => x.level.id === id);
    if (!found) return;
    state.level = found.level;
    state.stage = found.stage;
    state.moves = [];
    $('#feedback').textContent = '';
    state.check = await learn.check(id, []);
    history.replaceState(null, '', `#${id}`);
    renderLevel();
  }

  /** @param {string} uci */
  async function move(uci) {
    const l = state.level;
    if (!l || !state.check || state.check.goal_met) return false;
    const moves = [...state.moves, uci];
    let c;
    try {
      c = await learn.check(l.id, moves);
    } catch (e) {
      return false;
    }
    const fb = $('#feedback');
    if (c.refused && c.refused.index === moves.length - 1) {
      fb.className = 'feedback bad';
      const kind = c.refused.kind;
      fb.textContent = kind === 'illegal_move' && c.refused.code
        ? `${t('notice.illegal')}: ${illegalReason({ code: c.refused.code, args: c.refused.args || {}, reason: c.refused.message })}`
        : t(`lessons.refused.${kind}`);
      announce(fb.textContent);
      return false;
    }
    state.moves = moves;
    if (c.last && c.last.path) {
      board.busy = true;
      try { await board.animate(c.last.path, c.last.uci); } finally { board.busy = false; }
    }
    state.check = c;
    if (c.goal_met && state.lessons && c.best) state.lessons.progress[l.id] = c.best;
    fb.className = `feedback${c.goal_met ? ' good' : ''}`;
    fb.textContent = c.goal_met ? plural('lessons.done', c.played, { stars: c.stars || 0, par: l.par }) : '';
    if (!c.goal_met && c.played >= l.par + 4) fb.textContent = t('lessons.over_par');
    if (fb.textContent) announce(fb.textContent);
    renderLevel();
    return true;
  }

  function nextLevel() {
    const all = allLevels();
    const i = all.findIndex((x) => state.level && x.level.id === state.level.id);
    if (i >= 0 && i + 1 < all.length) open(all[i + 1].level.id);
  }

  async function run() {
    mountSite({ i18n, player, current: 'lessons', onTheme: () => board.render() });
    $('#btn-restart').addEventListener('click', () => { if (state.level) open(state.level.id); });
    $('#btn-next-level').addEventListener('click', nextLevel);
    i18n.onChange(() => { applyI18n(document); renderLevel(); renderStages(); });
    state.lessons = await learn.lessons();
    const all = allLevels();
    const wanted = location.hash.slice(1);
    const first = all.find((x) => x.level.id === wanted) || all.find((x) => !(state.lessons && state.lessons.progress[x.level.id])) || all[0];
    if (first) await open(first.level.id);
  }

  await run();
  return state;
}
