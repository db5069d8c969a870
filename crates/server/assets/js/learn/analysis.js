// @ts-check
// The analysis board (issue 16): start from a game (one in progress too,
// from its current position), a FEN or a pasted PGN; play moves freely to
// make a tree of variations; the server's engine analyses the position
// shown, live over the WebSocket; a graph of the main line's evaluation;
// PGN out and in with variations, comments and NAGs. A finished game can be
// reviewed here (review.js). Everything the page holds is in `state`.

import { api, social } from '../api.js';
import { Board } from '../board.js';
import { t, applyI18n, serverError, illegalReason, I18n } from '../i18n.js';
import { Player } from '../player.js';
import { mountSite } from '../ui/site.js';
import { fillChoices } from '../ui/choices.js';
import { announce } from '../ui/notice.js';
import { learn, scoreText } from './net.js';
import * as tree from './tree.js';
import { drawGraph } from './graph.js';
import { EngineClient } from './engine.js';
import { reviewPanel } from './review.js';
import { explorerPanel } from './explorer.js';
import { frozen } from '../frozen.js';

/** @typedef {import('./tree.js').TreeNode} TreeNode */
/** @typedef {import('./engine.js').AnalysisMsg} AnalysisMsg */
/** @typedef {import('../api.js').PositionView} PositionView */
/** @typedef {import('../board/types.js').Color} Color */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const NAGS = frozen([1, 2, 3, 4, 5, 6]);

/**
 * The page's entry (the page calls it: importing this module does
 * nothing). Its state (`state`, the board) is made here, one per page, and
 * the functions below are the page's, over that state.
 */
export async function start() {
  // The page's language and player, one of each, handed to what needs them.
  const i18n = new I18n(document);
  const player = new Player();
  // The game list, before the position loads and selects its game.
  fillChoices(document);
  const state = {
    variant: 'tensor',
    startFen: '',
    standardStart: true,
    /** @type {TreeNode} */
    root: tree.newRoot(''),
    /** @type {TreeNode} */
    current: tree.newRoot(''),
    /** @type {Map<TreeNode, PositionView>} positions by node (of the tree shown: ids are a tree's own) */
    positions: new Map(),
    /** @type {string | null} the game this analysis came from */
    gameId: null,
    /** @type {string[]} the accounts of that game's players */
    accounts: [],
    gameOver: false,
    result: '*',
    /** @type {[string, string][]} */
    tags: [],
    engineOn: false,
    multipv: 3,
    /** @type {AnalysisMsg | null} */
    lines: null,
    /** @type {Color} */
    orientation: 'white',
  };

  const board = new Board($('#board'), {
    label: t('analysis.board'),
    onMove: (uci) => play(uci),
    onTried: (tried) => explain(tried.uci),
  });

  const engine = new EngineClient(onLines, (kind, message) => {
    state.engineOn = false;
    renderEngine();
    $('#engine-depth').textContent = kind === 'overloaded' || kind === 'rate_limited' ? t('analysis.busy') : message;
  }, () => {});

  const review = reviewPanel({
    mainLine: () => tree.mainLine(state.root),
    goTo: (node) => show(node),
    current: () => state.current,
    setArrows: () => drawArrows(),
    redraw: () => { renderTree(); renderGraph(); },
  });

  // The opening explorer at the position shown; a click on a move plays it.
  // Its links: the games through the position of the account logged in,
  // and of the analysed game's players who have accounts.
  const searchers = () => {
    const me = player.me && player.me.account;
    const others = state.accounts.filter((a) => !me || a.toLowerCase() !== me.toLowerCase());
    return [...(me ? [{ username: me, mine: true }] : []), ...others.map((username) => ({ username, mine: false }))];
  };
  const explorer = explorerPanel({ root: $('#explorer'), onPlay: (uci) => { play(uci); }, searchers });
  player.onChange(() => explorer.render());

  /** The move strings from the start to `node`. @param {TreeNode} node */
  const movesTo = (node) => tree.pathTo(node).map((n) => n.uci);

  /** The position at `node`, from the server (kept). @param {TreeNode} node @returns {Promise<PositionView>} */
  async function positionAt(node) {
    const known = state.positions.get(node);
    if (known) return known;
    const res = await learn.position(state.variant, state.startFen, movesTo(node));
    state.positions.set(node, res.position);
    return res.position;
  }

  /** Starts over from `fen` (the game's start when empty). @param {string} variant @param {string} fen */
  async function begin(variant, fen) {
    state.variant = variant;
    /** @type {HTMLSelectElement} */ ($('#variant')).value = variant;
    const start = await learn.position(variant, fen || '', []).catch(async (e) => {
      if (fen) throw e;
      return learn.position(variant, /** @type {any} */ (undefined), []);
    });
    const info = await api.info().catch(() => null);
    const standard = info && info.variants.find((v) => v.name === variant);
    state.startFen = start.position.fen;
    state.standardStart = !!standard && standard.start_fen === start.position.fen;
    state.root = tree.newRoot(state.startFen);
    state.positions = new Map([[state.root, start.position]]);
    state.current = state.root;
    board.setGeometry(start.position.geometry);
  }

  /** Loads a game of the server: its moves are the main line. @param {string} id */
  async function fromGame(id) {
    const g = await api.game(id);
    await begin(g.variant, g.start_fen);
    state.gameId = id;
    state.accounts = [];
    // An online game's players with accounts: the explorer links to their
    // games through the position (asked aside: the board does not wait).
    if (g.online) {
      social.gamePlayers(id).then((r) => {
        if (!r.ok || state.gameId !== id) return;
        state.accounts = [r.value.white, r.value.black].flatMap((p) => (p && p.account ? [p.account] : []));
        explorer.render();
      });
    }
    state.gameOver = !!g.end;
    state.result = g.end ? g.end.result : '*';
    state.tags = [['White', g.white], ['Black', g.black]];
    let at = state.root;
    for (const m of g.moves) at = tree.addMove(at, { uci: m.uci, san: m.san, fen: m.fen, check: m.check, path: m.path });
    state.current = at;
    if (g.you === 'black' || g.human_color === 'black') state.orientation = 'black';
  }

  /** Loads a PGN with its variations. @param {string} pgn */
  async function fromPgn(pgn) {
    const imported = await learn.importPgn(pgn, state.variant);
    await begin(imported.variant, imported.start_fen);
    state.gameId = null;
    state.accounts = [];
    state.gameOver = false;
    state.result = imported.result || '*';
    state.tags = imported.tags.filter(([k]) => k === 'White' || k === 'Black' || k === 'Event' || k === 'Date');
    tree.addLine(state.root, imported.line);
    state.current = state.root;
  }

  /** Shows `node`: the board, the move list, the engine on the new position. @param {TreeNode} node */
  async function show(node) {
    state.current = node;
    let pos;
    try {
      pos = await positionAt(node);
    } catch (e) {
      status(serverError(/** @type {any} */ (e)));
      return;
    }
    if (state.current !== node) return;
    board.setOrientation(state.orientation);
    board.setPosition({
      fen: pos.fen, variant: state.variant, legal: pos.legal, movable: pos.outcome ? [] : [pos.turn],
      check: pos.check, hands: pos.rules.hands ? pos.hands : null, last: node.path,
    });
    /** @type {HTMLInputElement} */ ($('#fen-out')).value = pos.fen;
    /** @type {HTMLTextAreaElement} */ ($('#comment')).value = node.comments.join(' ');
    status(pos.outcome ? `${pos.outcome.title}: ${pos.outcome.text}` : t(pos.turn === 'white' ? 'analysis.white_to_move' : 'analysis.black_to_move'));
    state.lines = null;
    renderTree();
    renderGraph();
    renderNags();
    review.onShow();
    explorer.show(state.variant, state.standardStart ? '' : state.startFen, movesTo(node));
    drawArrows();
    if (state.engineOn) analyse();
    else renderLines();
  }

  /** @param {string} text */
  function status(text) {
    $('#status').textContent = text;
  }

  /** Plays `uci` at the shown node: a new move of the tree (or the one there). @param {string} uci */
  async function play(uci) {
    const from = state.current;
    try {
      const res = await learn.position(state.variant, state.startFen, movesTo(from), uci);
      if (!res.played) return false;
      const node = tree.addMove(from, {
        uci: res.played.uci, san: res.played.san || res.played.uci, fen: res.position.fen,
        check: res.position.check, path: res.played.path || null,
      });
      state.positions.set(node, res.position);
      if (res.played.path) {
        board.busy = true;
        try { await board.animate(res.played.path, res.played.uci); } finally { board.busy = false; }
      }
      announce(res.played.san || uci);
      await show(node);
      return true;
    } catch (e) {
      status(serverError(/** @type {any} */ (e)));
      return false;
    }
  }

  /** An illegal try: why. @param {string} uci */
  async function explain(uci) {
    const why = await api.explain(state.variant, board.pos.fen, uci);
    if (why && !why.legal) status(`${t('notice.illegal')}: ${illegalReason(why)}`);
  }

  // ---- the engine -------------------------------------------------------

  function analyse() {
    const pos = state.positions.get(state.current);
    if (pos && pos.outcome) {
      engine.stop();
      renderLines();
      return;
    }
    engine.start({ variant: state.variant, fen: state.startFen, moves: movesTo(state.current), multipv: state.multipv });
    renderLines();
  }

  /** @param {AnalysisMsg} msg */
  function onLines(msg) {
    if (!state.engineOn && !msg.done) return;
    state.lines = msg;
    const best = msg.lines[0];
    // The main line's graph learns the position's evaluation.
    if (best && msg.depth >= 6 && (!state.current.eval || msg.done)) {
      state.current.eval = best.score;
      renderGraph();
    }
    if (msg.done) {
      state.engineOn = false;
      renderEngine();
    }
    renderLines();
    drawArrows();
  }

  function renderEngine() {
    const b = $('#engine-toggle');
    b.setAttribute('aria-pressed', String(state.engineOn));
    b.textContent = t(state.engineOn ? 'analysis.engine_stop' : 'analysis.engine_go');
  }

  function renderLines() {
    const ol = $('#lines');
    ol.innerHTML = '';
    const msg = state.lines;
    $('#engine-depth').textContent = msg ? t('analysis.depth', { depth: msg.depth }) : (state.engineOn ? t('analysis.thinking') : '');
    if (!msg) return;
    msg.lines.forEach((line, i) => {
      const li = document.createElement('li');
      li.className = 'engine-line';
      const score = document.createElement('span');
      score.className = 'line-score';
      score.textContent = scoreText(line.score);
      const moves = document.createElement('button');
      moves.type = 'button';
      moves.className = 'line-moves';
      moves.textContent = line.san.join(' ');
      moves.title = t('analysis.play_line');
      moves.dataset.line = String(i);
      moves.addEventListener('click', () => { if (line.uci[0]) play(line.uci[0]); });
      li.append(score, moves);
      ol.appendChild(li);
    });
  }

  /** The engine's best moves, and the review's better move, as arrows. */
  function drawArrows() {
    const better = review.betterArrow();
    /** @type {{ from: string, to: string, color: string }[]} */
    const drawings = [];
    const lines = state.lines && state.lines.fen === board.pos.fen ? state.lines.lines : [];
    lines.slice(1).forEach((l) => {
      const m = (l.uci[0] || '').match(/^([a-z]\d+)([a-z]\d+)/);
      if (m) drawings.push({ from: m[1], to: m[2], color: 'orange' });
    });
    if (better) drawings.push(...better);
    board.drawings = drawings;
    board.setArrow(lines[0] && lines[0].path ? lines[0].path : null);
  }

  // ---- the move list ----------------------------------------------------

  /** The move list: the main line, variations indented under the move they replace. */
  function renderTree() {
    const box = $('#tree');
    box.innerHTML = '';
    const start = state.startFen.split(/\s+/);
    const blackFirst = start[1] === 'b';
    const firstNumber = parseInt(start[5] || '1', 10) || 1;
    /** @param {TreeNode} n @param {boolean} forceNumber */
    const label = (n, forceNumber) => {
      const half = n.ply - 1 + (blackFirst ? 1 : 0);
      const num = firstNumber + Math.floor(half / 2);
      if (half % 2 === 0) return `${num}. `;
      return forceNumber ? `${num}… ` : '';
    };
    /** @param {TreeNode} parent @param {HTMLElement} into @param {boolean} forceFirst */
    const line = (parent, into, forceFirst) => {
      let force = forceFirst;
      for (let p = parent; p.children.length;) {
        const [main, ...sides] = p.children;
        into.appendChild(moveButton(main, label(main, force)));
        force = false;
        if (sides.length) {
          for (const s of sides) {
            const v = document.createElement('div');
            v.className = 'variation';
            v.appendChild(moveButton(s, label(s, true)));
            line(s, v, false);
            into.appendChild(v);
          }
          force = true;
        }
        p = main;
      }
    };
    const main = document.createElement('div');
    main.className = 'mainline';
    line(state.root, main, true);
    box.appendChild(main);
    if (!state.root.children.length) box.textContent = t('analysis.no_moves');
    const cur = box.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
    /** @type {HTMLButtonElement} */ ($('#btn-promote')).disabled = tree.onMainLine(state.current);
    /** @type {HTMLButtonElement} */ ($('#btn-delete')).disabled = !state.current.parent;
  }

  /** @param {TreeNode} n @param {string} number */
  function moveButton(n, number) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `mv${n === state.current ? ' current' : ''}${n.judgement ? ` j-${n.judgement}` : ''}`;
    b.dataset.node = String(n.id);
    const glyphs = n.nags.map(tree.nagGlyph).join('') + review.glyph(n);
    b.textContent = `${number}${n.san}${glyphs}`;
    if (n === state.current) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', () => show(n));
    const span = document.createElement('span');
    span.className = 'mv-wrap';
    span.appendChild(b);
    if (n.comments.length) {
      const c = document.createElement('span');
      c.className = 'mv-comment';
      c.textContent = n.comments.join(' ');
      span.append(' ', c);
    }
    span.append(' ');
    return span;
  }

  function renderGraph() {
    const line = tree.mainLine(state.root);
    const index = line.indexOf(state.current);
    drawGraph($('#graph'), line.map((n) => ({ score: n.eval, judgement: n.judgement, san: n.san })), index, (i) => {
      show(i < 0 ? state.root : line[i]);
    });
  }

  function renderNags() {
    const box = $('#nags');
    box.innerHTML = '';
    for (const nag of NAGS) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'nag';
      b.textContent = tree.nagGlyph(nag);
      b.setAttribute('aria-label', t(`nag.${nag}`));
      b.setAttribute('aria-pressed', String(state.current.nags.includes(nag)));
      b.disabled = !state.current.parent;
      b.addEventListener('click', () => {
        const n = state.current;
        n.nags = n.nags.includes(nag) ? n.nags.filter((g) => g !== nag) : [...n.nags.filter((g) => g > 6), nag];
        renderNags();
        renderTree();
      });
      box.appendChild(b);
    }
  }

  // ---- controls ---------------------------------------------------------

  function exportPgn() {
    const pgn = tree.toPgn(state.root, {
      variant: state.variant, startFen: state.startFen, standardStart: state.standardStart, result: state.result, tags: state.tags,
    });
    /** @type {HTMLTextAreaElement} */ ($('#pgn-out')).value = pgn;
    return pgn;
  }

  async function importText() {
    const text = /** @type {HTMLTextAreaElement} */ ($('#import-text')).value.trim();
    const variant = /** @type {HTMLSelectElement} */ ($('#variant')).value;
    try {
      if (!text) await begin(variant, '');
      else if (/^\s*(\[|1\.|\{)/.test(text) || /\d\.\s*\S/.test(text)) {
        state.variant = variant;
        await fromPgn(text);
      } else {
        try {
          await begin(variant, text);
        } catch (e) {
          // Not a FEN the server reads: say what one looks like, in words a
          // player understands (not "Invalid FEN board: 1 ranks, expected 8").
          if (/** @type {any} */ (e).kind !== 'bad_request') throw e;
          status(await badFenText(variant));
          return;
        }
        state.gameId = null;
      }
      review.setGame(null, false);
      await show(state.current);
    } catch (e) {
      status(serverError(/** @type {any} */ (e)));
    }
  }

  /** What a FEN of `variant` looks like, for a text that is none. @param {string} variant */
  async function badFenText(variant) {
    const info = await api.info().catch(() => null);
    const v = info && info.variants.find((x) => x.name === variant);
    const example = v ? v.start_fen : '';
    return t('analysis.bad_fen', { game: t(`game.${variant}`), example });
  }

  function setup() {
    $('#engine-toggle').addEventListener('click', () => {
      state.engineOn = !state.engineOn;
      renderEngine();
      if (state.engineOn) analyse();
      else { engine.stop(); renderLines(); }
    });
    $('#multipv').addEventListener('change', (e) => {
      state.multipv = parseInt(/** @type {HTMLSelectElement} */ (e.target).value, 10) || 1;
      if (state.engineOn) analyse();
    });
    $('#nav-first').addEventListener('click', () => show(state.root));
    $('#nav-prev').addEventListener('click', () => { if (state.current.parent) show(state.current.parent); });
    $('#nav-next').addEventListener('click', () => { if (state.current.children[0]) show(state.current.children[0]); });
    $('#nav-last').addEventListener('click', () => {
      let n = state.current;
      while (n.children[0]) n = n.children[0];
      show(n);
    });
    $('#btn-flip').addEventListener('click', () => {
      state.orientation = state.orientation === 'white' ? 'black' : 'white';
      board.setOrientation(state.orientation);
    });
    $('#btn-promote').addEventListener('click', () => {
      if (tree.promote(state.current)) { renderTree(); renderGraph(); }
    });
    $('#btn-delete').addEventListener('click', () => {
      const parent = tree.remove(state.current);
      if (parent) show(parent);
    });
    $('#comment').addEventListener('input', (e) => {
      const v = /** @type {HTMLTextAreaElement} */ (e.target).value.trim();
      state.current.comments = v ? [v] : [];
      renderTree();
    });
    $('#btn-import').addEventListener('click', importText);
    $('#btn-export-pgn').addEventListener('click', exportPgn);
    document.addEventListener('keydown', (e) => {
      const tag = /** @type {HTMLElement} */ (e.target).tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
      if (e.key === 'ArrowLeft' && state.current.parent) show(state.current.parent);
      else if (e.key === 'ArrowRight' && state.current.children[0]) show(state.current.children[0]);
    });
    i18n.onChange(() => { applyI18n(document); renderEngine(); renderLines(); renderTree(); renderNags(); review.render(); explorer.render(); });
  }

  /** The address: `#game=ID`, `#fen=FEN`, `#variant=V`, `#review=1`. */
  function params() {
    const p = new URLSearchParams(location.hash.slice(1));
    return { game: p.get('game'), fen: p.get('fen'), variant: p.get('variant') || 'tensor', review: p.get('review') === '1', ply: p.get('ply') };
  }

  async function run() {
    mountSite({ i18n, player, current: 'analysis', onTheme: () => board.render(), live: engine.live });
    setup();
    renderEngine();
    const p = params();
    try {
      if (p.game) {
        await fromGame(p.game);
        review.setGame(p.game, state.gameOver);
      } else {
        await begin(p.variant, p.fen || '');
        review.setGame(null, false);
      }
      await show(state.current);
      if (p.game && state.gameOver) await review.open(p.review);
    } catch (e) {
      status(serverError(/** @type {any} */ (e)));
    }
  }

  await run();
  return state;
}
