// The rules page: one live mini-board per rule. Moves and their paths come
// from the server (/api/position), for the pieces of either side.

import { api } from './api.js';
import { Board } from './board.js';
import { withOtherTurn, turnOf, placement } from './fen.js';

const colorOfLetter = (l) => (l === l.toUpperCase() ? 'white' : 'black');

class MiniBoard {
  constructor(diagram, boardEl, statusEl) {
    this.d = diagram;
    this.status = statusEl;
    this.board = new Board(boardEl, { small: true, onMove: (uci, sel) => this.play(uci, sel) });
    this.sources = new Map();
    this.last = null;
  }

  async load(fen) {
    this.fen = fen;
    const [mine, other] = await Promise.all([
      api.position(this.d.game, fen),
      api.position(this.d.game, withOtherTurn(fen)).catch(() => null),
    ]);
    const turn = turnOf(fen);
    const legal = [];
    this.sources = new Map();
    for (const [view, color, src] of [[mine, turn, fen], [other, turn === 'white' ? 'black' : 'white', withOtherTurn(fen)]]) {
      if (!view) continue;
      for (const m of view.position.legal) {
        legal.push({ ...m, color });
        this.sources.set(`${color}:${m.uci}`, src);
      }
    }
    this.board.setGeometry(mine.position.geometry);
    this.board.setPosition({
      fen, variant: this.d.game, legal, check: mine.position.check, hands: mine.position.hands,
      movable: ['white', 'black'], last: this.last,
    });
    this.geometry = mine.position.geometry;
  }

  colorForMove(uci, sel) {
    if (uci.includes('@')) return sel && sel.color ? sel.color : turnOf(this.fen);
    const from = uci.match(/^[a-z]\d+/);
    const piece = from && placement(this.fen, this.geometry).get(from[0]);
    return piece ? colorOfLetter(piece) : turnOf(this.fen);
  }

  async play(uci, sel) {
    const color = this.colorForMove(uci, sel);
    const src = this.sources.get(`${color}:${uci}`) || (color === turnOf(this.fen) ? this.fen : withOtherTurn(this.fen));
    try {
      const res = await api.position(this.d.game, src, uci);
      this.status.className = 'mini-status';
      const played = res.played;
      const via = played.path.routes.map((r) => r.squares.join('–')).join(', then ');
      this.status.textContent = `${played.san}  (${via})`;
      this.board.busy = true;
      try {
        await this.board.animate(played.path, played.uci, null);
      } finally {
        this.board.busy = false;
      }
      this.last = played.path;
      await this.load(res.position.fen);
      if (res.position.outcome) this.status.textContent += ` — ${res.position.outcome.title}: ${res.position.outcome.text}`;
      return true;
    } catch (e) {
      this.status.className = 'mini-status illegal';
      this.status.textContent = e.kind === 'illegal_move' ? `Illegal move: ${e.reason}` : e.message;
      return false;
    }
  }

  reset() {
    this.last = null;
    this.status.className = 'mini-status';
    this.status.textContent = '';
    return this.load(this.d.fen);
  }
}

async function main() {
  const diagrams = await (await fetch('/rules/diagrams.json')).json();
  const toc = document.getElementById('toc');
  const root = document.getElementById('rules');
  let lastGame = null;
  for (const d of diagrams) {
    if (d.game !== lastGame) {
      const h = document.createElement('h2');
      h.textContent = d.game === 'chessence' ? 'Chessence' : 'Tensor Chess';
      root.appendChild(h);
      lastGame = d.game;
    }
    const li = document.createElement('li');
    li.innerHTML = `<a href="#${d.id}"></a>`;
    li.firstChild.textContent = d.title;
    toc.appendChild(li);

    const section = document.createElement('section');
    section.className = 'rule';
    section.id = d.id;
    section.innerHTML = `<div class="rule-text"><h3></h3>${d.text}<p class="try"></p></div>
      <div class="rule-board"><div class="mini"></div><div class="mini-status"></div>
      <div class="rule-controls"><button type="button" class="reset">Reset</button></div></div>`;
    section.querySelector('h3').textContent = d.title;
    section.querySelector('.try').textContent = d.tryit;
    root.appendChild(section);
    const mini = new MiniBoard(d, section.querySelector('.mini'), section.querySelector('.mini-status'));
    section.querySelector('.reset').addEventListener('click', () => mini.reset());
    mini.reset().catch((e) => {
      section.querySelector('.mini-status').textContent = `Could not load this board: ${e.message}`;
    });
  }
  document.body.dataset.ready = '1';
}

main();
