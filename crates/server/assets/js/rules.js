// @ts-check
// The Rules page: one live mini-board per rule. Moves and their paths come
// from the server (POST /api/position), for the pieces of either side; an
// illegal try is explained (POST /api/explain), never played. The texts of
// the rules are in rules/diagrams.json, one version per language.
//
// A board keeps the moves played on it since the last position it cannot
// reach by playing (its start, or a move by the side not to move): the
// server replays them, so that a repetition counts and ends the game.

import { api } from './api.js';
import { Board } from './board.js';
import { withOtherTurn, turnOf, placement } from './fen.js';
import { t, lang, applyI18n, illegalReason, endText, serverError, I18n } from './i18n.js';
import { Player } from './player.js';
import { mountSite } from './ui/site.js';
import { announce } from './ui/notice.js';

/** @typedef {import('./board/types.js').Color} Color */
/** @typedef {import('./board/types.js').LegalMove} LegalMove */
/** @typedef {import('./board/types.js').Path} Path */
/** @typedef {import('./board/tap.js').Selection} Selection */
/** @typedef {{ title: string, text: string, tryit: string }} DiagramText */
/**
 * @typedef {{ id: string, game: string, section: string, fen: string, expect: string[], absent: string[],
 *   en: DiagramText, uk?: DiagramText }} Diagram
 */

/** Moves a board keeps for the server to replay (it takes 512). */
const MAX_HISTORY = 400;
const colorOfLetter = (/** @type {string} */ l) => (l === l.toUpperCase() ? 'white' : 'black');
/** The diagram's text in the page's language (English where it has none). @param {Diagram} d */
const textOf = (d) => d[lang()] || d.en;

class MiniBoard {
  /** @param {Diagram} diagram @param {HTMLElement} boardEl @param {HTMLElement} statusEl */
  constructor(diagram, boardEl, statusEl) {
    this.d = diagram;
    this.status = statusEl;
    this.fen = diagram.fen;
    /** The position the moves of `history` were played from. */
    this.base = diagram.fen;
    /** @type {string[]} moves played in turn from `base` to `fen` */
    this.history = [];
    /** @type {import('./api.js').EndView | null} the end the moves reached */
    this.outcome = null;
    this.board = new Board(boardEl, {
      small: true,
      label: t('rules.board_label', { title: textOf(diagram).title }),
      onMove: (uci, sel) => this.play(uci, sel),
      onTried: (tried, sel) => this.explain(tried.uci, sel),
    });
    /** @type {Map<string, string>} the FEN each side's moves were listed for */
    this.sources = new Map();
    /** @type {Path | null} */
    this.last = null;
    this.geometry = this.board.geometry;
  }

  /** Shows the position `history` leads to from `base`, with the moves of both sides (none once the game is over). */
  async load() {
    const mine = await api.position(this.d.game, this.base, undefined, this.history);
    const fen = mine.position.fen;
    this.fen = fen;
    this.outcome = mine.position.outcome;
    // The other side's moves too, from the same placement with the turn
    // passed. Not when the side to move is in check: with the turn passed,
    // the side not to move would be in check, an impossible position.
    // Nor once the moves ended the game (a repetition): Reset starts again.
    const other = mine.position.check || this.outcome ? null : await api.position(this.d.game, withOtherTurn(fen)).catch(() => null);
    const turn = turnOf(fen);
    /** @type {LegalMove[]} */
    const legal = [];
    this.sources = new Map();
    for (const [v, color, src] of /** @type {[typeof mine | null, Color, string][]} */ ([[mine, turn, fen], [other, turn === 'white' ? 'black' : 'white', withOtherTurn(fen)]])) {
      if (!v) continue;
      for (const m of v.position.legal) {
        legal.push({ ...m, color });
        this.sources.set(`${color}:${m.uci}`, src);
      }
    }
    this.geometry = mine.position.geometry;
    this.board.setGeometry(mine.position.geometry);
    this.board.setPosition({
      fen, variant: this.d.game, legal, check: mine.position.check,
      hands: mine.position.rules.hands ? mine.position.hands : null,
      movable: ['white', 'black'], last: this.last,
    });
  }

  /** @param {string} uci @param {Selection} sel @returns {Color} */
  colorForMove(uci, sel) {
    if (uci.includes('@')) return sel && sel.mode === 'hand' ? sel.color : turnOf(this.fen);
    const from = uci.match(/^[a-z]\d+/);
    const piece = from && placement(this.fen, this.geometry).get(from[0]);
    return piece ? colorOfLetter(piece) : turnOf(this.fen);
  }

  /** @param {string} uci @param {Selection} sel */
  async play(uci, sel) {
    const color = this.colorForMove(uci, sel);
    const src = this.sources.get(`${color}:${uci}`) || (color === turnOf(this.fen) ? this.fen : withOtherTurn(this.fen));
    // A move of the side to move goes on from the moves before; one of the
    // other side (the turn passed) starts a new line from its position.
    // (The server replays at most 512 moves: a longer line starts afresh.)
    const inTurn = src === this.fen && this.history.length < MAX_HISTORY;
    const base = inTurn ? this.base : src;
    const history = inTurn ? this.history : [];
    try {
      const res = await api.position(this.d.game, base, uci, history);
      const played = res.played;
      if (!played || !played.path) return false;
      this.status.className = 'mini-status';
      const via = played.path.routes.map((r) => r.squares.join('–')).join(t('rules.then'));
      let text = `${played.san}  (${via})`;
      this.board.busy = true;
      try {
        await this.board.animate(played.path, played.uci);
      } finally {
        this.board.busy = false;
      }
      this.last = played.path;
      this.base = base;
      this.history = [...history, played.uci];
      await this.load();
      if (res.position.outcome) {
        const e = endText(res.position.outcome, this.d.game);
        text += ` — ${e.title}: ${e.text}`;
      }
      this.status.textContent = text;
      announce(text);
      return true;
    } catch (e) {
      this.status.className = 'mini-status illegal';
      this.status.textContent = serverError(/** @type {any} */ (e));
      return false;
    }
  }

  /** An illegal try: why, from the server (or a general word). @param {string} uci @param {Selection} sel */
  async explain(uci, sel) {
    const color = this.colorForMove(uci, sel);
    const fen = color === turnOf(this.fen) ? this.fen : withOtherTurn(this.fen);
    const why = await api.explain(this.d.game, fen, uci);
    if (why && why.legal) return;
    this.status.className = 'mini-status illegal';
    this.status.textContent = `${t('notice.illegal')}: ${why ? illegalReason(why) : t('illegal.generic')}`;
    announce(this.status.textContent);
  }

  reset() {
    this.last = null;
    this.base = this.d.fen;
    this.history = [];
    this.status.className = 'mini-status';
    this.status.textContent = '';
    return this.load();
  }
}

/** @param {Diagram[]} diagrams @param {Map<string, MiniBoard>} minis */
function renderTexts(diagrams, minis) {
  const toc = /** @type {HTMLElement} */ (document.getElementById('toc'));
  toc.innerHTML = '';
  for (const d of diagrams) {
    const tx = textOf(d);
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#${d.id}`;
    a.textContent = tx.title;
    li.appendChild(a);
    toc.appendChild(li);
    const section = /** @type {HTMLElement} */ (document.getElementById(d.id));
    /** @type {HTMLElement} */ (section.querySelector('h3')).textContent = tx.title;
    /** @type {HTMLElement} */ (section.querySelector('.rule-body')).innerHTML = tx.text;
    /** @type {HTMLElement} */ (section.querySelector('.try')).textContent = tx.tryit;
    /** @type {HTMLElement} */ (section.querySelector('.reset')).textContent = t('rules.reset');
    const mini = minis.get(d.id);
    if (mini) mini.board.svg.setAttribute('aria-label', t('rules.board_label', { title: tx.title }));
  }
  for (const h of document.querySelectorAll('#rules h2[data-section]')) h.textContent = t(`rules.section.${/** @type {HTMLElement} */ (h).dataset.section}`);
}

/** The page's entry (the page calls it: importing this module does nothing). */
export async function start() {
  // The page's language and player, one of each, handed to what needs them.
  const i18n = new I18n(document);
  const player = new Player();
  const minis = new Map();
  mountSite({ i18n, player, current: 'rules', onTheme: () => { for (const m of minis.values()) { m.board.refreshDefs(); m.board.render(); } } });
  /** @type {Diagram[]} */
  const diagrams = await (await fetch('/rules/diagrams.json')).json();
  const root = /** @type {HTMLElement} */ (document.getElementById('rules'));
  let lastSection = null;
  const loads = [];
  for (const d of diagrams) {
    if (d.section !== lastSection) {
      const h = document.createElement('h2');
      h.dataset.section = d.section;
      root.appendChild(h);
      lastSection = d.section;
    }
    const section = document.createElement('section');
    section.className = 'rule';
    section.id = d.id;
    section.setAttribute('aria-labelledby', `${d.id}-title`);
    section.innerHTML = `<div class="rule-text"><h3 id="${d.id}-title"></h3><div class="rule-body"></div><p class="try"></p></div>
      <div class="rule-board"><div class="mini"></div><div class="mini-status" role="status"></div>
      <div class="rule-controls"><button type="button" class="reset"></button></div></div>`;
    root.appendChild(section);
    const mini = new MiniBoard(d, /** @type {HTMLElement} */ (section.querySelector('.mini')), /** @type {HTMLElement} */ (section.querySelector('.mini-status')));
    minis.set(d.id, mini);
    /** @type {HTMLElement} */ (section.querySelector('.reset')).addEventListener('click', () => mini.reset());
    loads.push(mini.reset().catch((e) => {
      /** @type {HTMLElement} */ (section.querySelector('.mini-status')).textContent = t('rules.could_not_load', { message: e.message });
    }));
  }
  renderTexts(diagrams, minis);
  i18n.onChange(() => {
    renderTexts(diagrams, minis);
    for (const m of minis.values()) m.board.render();
  });
  document.body.dataset.ready = '1';
  await Promise.all(loads);
  document.body.dataset.loaded = '1';
}
