// The game page: one game at a time, kept in step with the server.

import { api, Live } from './api.js';
import { Board } from './board.js';
import { turnOf } from './fen.js';

const $ = (sel) => document.querySelector(sel);
const LAST_GAME = 'tensorchess.lastGame';
const EVAL_ON = 'tensorchess.evalBar';

let info = null;
let game = null; // the server's GameView
let viewPly = null; // null: the live position; else the position after that many moves
let queue = Promise.resolve();
let bannerDismissed = false;
let hint = null; // { rev, ply, path, san }
let evalOn = localStorage.getItem(EVAL_ON) === '1';
let evalSeq = 0;
let replayTimer = null;
let orientationOverride = null;

const board = new Board($('#board'), { onMove });
const banner = document.createElement('div');
banner.id = 'banner';
banner.className = 'banner hidden';
banner.innerHTML = `<div class="banner-title"></div><div class="banner-text"></div>
  <div class="banner-buttons"><button type="button" id="banner-new" class="primary">New game</button>
  <button type="button" id="banner-close">See the board</button></div>`;
board.box.appendChild(banner);

const live = new Live(onEvent, (up) => $('#connection').classList.toggle('hidden', up));

// ---- helpers -------------------------------------------------------------

function toast(title, text, kind = 'info') {
  const t = $('#toast');
  t.className = `toast ${kind}`;
  t.querySelector('.toast-title').textContent = title;
  t.querySelector('.toast-text').textContent = text || '';
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.add('hidden'), kind === 'illegal' ? 4000 : 3500);
}

function confirmDialog(text) {
  return new Promise((resolve) => {
    const d = $('#dlg-confirm');
    $('#confirm-text').textContent = text;
    const done = (v) => {
      d.close();
      $('#confirm-yes').onclick = null;
      $('#confirm-no').onclick = null;
      resolve(v);
    };
    $('#confirm-yes').onclick = () => done(true);
    $('#confirm-no').onclick = () => done(false);
    d.showModal();
  });
}

const isActive = () => game && !game.end;
const isLive = () => viewPly === null;
const shownPly = () => (viewPly === null ? game.moves.length : viewPly);

function canMove() {
  if (!game || game.end || !isLive()) return false;
  if (game.mode === 'local') return true;
  return game.human_color === game.position.turn && !game.engine_thinking;
}

function handsOf(fen) {
  const m = fen.match(/\[([^\]]*)\]/);
  if (!m) return null;
  return { white: (m[1].match(/[A-Z]/g) || []).length, black: (m[1].match(/[a-z]/g) || []).length };
}

function positionFor(ply) {
  const g = game;
  if (ply >= g.moves.length) {
    const p = g.position;
    return {
      fen: p.fen, variant: g.variant, check: p.check, hands: p.hands,
      legal: canMove() ? p.legal : [],
      movable: canMove() ? [p.turn] : [],
      last: g.moves.length ? g.moves[g.moves.length - 1].path : null,
    };
  }
  const fen = ply === 0 ? g.start_fen : g.moves[ply - 1].fen;
  return {
    fen, variant: g.variant, legal: [], movable: [],
    check: ply === 0 ? null : g.moves[ply - 1].check,
    hands: handsOf(fen),
    last: ply === 0 ? null : g.moves[ply - 1].path,
  };
}

function defaultOrientation(g) {
  if (orientationOverride && orientationOverride.id === g.id) return orientationOverride.color;
  return g.mode === 'engine' && g.human_color === 'black' ? 'black' : 'white';
}

// ---- applying server states ------------------------------------------------

function enqueue(view, opts) {
  queue = queue.then(() => applyView(view, opts)).catch((e) => console.error(e));
  return queue;
}

async function applyView(view, opts = {}) {
  const old = game;
  if (!opts.fresh) {
    if (!old || old.id !== view.id) return;
    if (view.rev < old.rev) return;
  }
  if (!opts.fresh && view.rev === old.rev && view.engine_thinking === old.engine_thinking) {
    game = view; // the same state again (a snapshot after subscribing): keep what the player is doing
    return;
  }
  game = view;
  if (opts.fresh || !old || old.id !== view.id) {
    $('#toast').classList.add('hidden');
    board.setGeometry(view.position.geometry);
    board.orientation = defaultOrientation(view);
    board.drawSquares();
    bannerDismissed = false;
    hint = null;
    viewPly = null;
    renderAll();
    return;
  }
  const added = view.moves.length - old.moves.length;
  const extendsOld = added > 0 && added <= 2 && old.moves.every((m, i) => view.moves[i] && view.moves[i].uci === m.uci);
  if (isLive() && extendsOld) {
    board.busy = true;
    try {
      for (let i = old.moves.length; i < view.moves.length; i++) {
        const before = positionFor(i);
        if (board.pos.fen !== before.fen) board.setPosition(before);
        const entry = view.moves[i];
        await board.animate(entry.path, entry.uci, null);
        board.setPosition(positionFor(i + 1));
      }
    } finally {
      board.busy = false;
    }
  }
  if (view.end && !old.end) bannerDismissed = false;
  renderAll();
}

function onEvent(msg) {
  if (msg.type === 'game' && game && msg.game.id === game.id) enqueue(msg.game);
  else if (msg.type === 'error') console.warn('server:', msg.message);
}

// ---- rendering -----------------------------------------------------------------

function renderAll() {
  if (!game) return;
  const ply = shownPly();
  const pos = positionFor(ply);
  board.setPosition(pos, { keepSelection: board.pos.fen === pos.fen });
  board.setArrow(hint && hint.rev === game.rev && isLive() ? hint.path : null);
  renderPlayers();
  renderStatus();
  renderMoves();
  renderButtons();
  renderBanner();
  document.body.dataset.game = game.id;
  document.body.dataset.ply = String(game.moves.length);
  document.body.dataset.shown = String(ply);
  document.body.dataset.rev = String(game.rev);
  document.body.dataset.state = game.end ? 'over' : game.engine_thinking ? 'thinking' : canMove() ? 'your-move' : 'waiting';
  if (evalOn) updateEval();
  // Live updates come over the WebSocket; should one be missed while the
  // engine thinks, ask for the state again.
  clearTimeout(renderAll.poll);
  if (game.engine_thinking) renderAll.poll = setTimeout(refresh, 5000);
}

function renderPlayers() {
  const bottom = board.orientation;
  const top = bottom === 'white' ? 'black' : 'white';
  const turn = game.position.turn;
  for (const [pos, color] of [['top', top], ['bottom', bottom]]) {
    const name = color === 'white' ? game.white : game.black;
    const node = $(`#name-${pos}`);
    node.textContent = `${color === 'white' ? '○' : '●'} ${name}`;
    node.classList.toggle('to-move', !game.end && turn === color);
    const engineSide = game.mode === 'engine' && game.human_color !== color;
    $(`#thinking-${pos}`).classList.toggle('hidden', !(engineSide && game.engine_thinking));
  }
}

function renderStatus() {
  const s = $('#status');
  const cap = (c) => c[0].toUpperCase() + c.slice(1);
  let text;
  if (!isLive()) {
    text = viewPly === 0 ? 'Start position' : `After ${moveLabel(viewPly - 1)}`;
    text += ' — » returns to the game';
  } else if (game.end) {
    text = `${game.end.title} — ${game.end.text}`;
  } else if (game.engine_thinking) {
    text = 'The engine is thinking…';
  } else {
    const turn = game.position.turn;
    text = game.mode === 'engine' ? (turn === game.human_color ? 'Your move' : `${cap(turn)} to move`) : `${cap(turn)} to move`;
    if (game.position.check) text += ' — check!';
  }
  if (hint && hint.rev === game.rev && isLive() && !game.end) text += ` · Hint: ${hint.san}`;
  s.textContent = text;
}

function moveLabel(i) {
  const m = game.moves[i];
  const startTurn = turnOf(game.start_fen);
  const startNo = parseInt(game.start_fen.split(/\s+/)[5] || '1', 10) || 1;
  const offset = startTurn === 'black' ? i + 1 : i;
  const no = startNo + Math.floor(offset / 2);
  return `${no}${m.color === 'white' ? '.' : '…'} ${m.san}`;
}

function renderMoves() {
  const list = $('#moves');
  list.innerHTML = '';
  const startTurn = turnOf(game.start_fen);
  const startNo = parseInt(game.start_fen.split(/\s+/)[5] || '1', 10) || 1;
  let row = null;
  const shown = shownPly();
  game.moves.forEach((m, i) => {
    const offset = startTurn === 'black' ? i + 1 : i;
    if (!row || offset % 2 === 0) {
      row = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = `${startNo + Math.floor(offset / 2)}.`;
      row.appendChild(num);
      if (offset % 2 === 1) {
        const gap = document.createElement('span');
        gap.className = 'mv gap';
        gap.textContent = '…';
        row.appendChild(gap);
      }
      list.appendChild(row);
    }
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv';
    b.dataset.ply = String(i + 1);
    b.textContent = m.san;
    b.title = m.uci;
    if (i + 1 === shown) b.classList.add('current');
    b.addEventListener('click', () => stepTo(i + 1));
    row.appendChild(b);
  });
  const current = list.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

function renderButtons() {
  const active = isActive();
  const decided = game.end && ['resignation', 'agreement', 'imported'].includes(game.end.reason);
  let canTakeback = game.moves.length > 0 && !decided;
  if (game.mode === 'engine') {
    const need = game.position.turn === game.human_color ? 2 : 1;
    canTakeback = canTakeback && game.moves.length >= need;
  }
  $('#btn-takeback').disabled = !canTakeback;
  $('#btn-hint').disabled = !active || !isLive() || game.engine_thinking;
  $('#btn-draw').disabled = !active;
  $('#btn-resign').disabled = !active;
  $('#btn-eval').setAttribute('aria-pressed', evalOn ? 'true' : 'false');
  $('#evalbar').classList.toggle('hidden', !evalOn);
  const shown = shownPly();
  $('#nav-first').disabled = shown === 0;
  $('#nav-prev').disabled = shown === 0;
  $('#nav-next').disabled = isLive();
  $('#nav-last').disabled = isLive();
  $('#nav-play').disabled = game.moves.length === 0;
  $('#nav-play').textContent = replayTimer ? 'Pause' : 'Replay';
  const bits = [game.variant_title];
  bits.push(game.mode === 'engine' ? `against the engine (level ${game.level}: ${game.level_name})` : 'two players on this device');
  $('#game-info').textContent = bits.join(' · ');
}

function renderBanner() {
  const show = game.end && isLive() && !bannerDismissed;
  banner.classList.toggle('hidden', !show);
  if (!show) return;
  banner.querySelector('.banner-title').textContent = game.end.title;
  banner.querySelector('.banner-text').textContent = game.end.text;
  banner.dataset.reason = game.end.reason;
}

// ---- evaluation bar ------------------------------------------------------------

async function updateEval() {
  if (!game) return;
  const ply = shownPly();
  if (isLive() && game.engine_thinking) return;
  const seq = ++evalSeq;
  const id = game.id;
  await new Promise((r) => setTimeout(r, 150));
  if (seq !== evalSeq) return;
  try {
    const a = await api.evaluate(id, ply);
    if (seq !== evalSeq || !game || game.id !== id) return;
    showEval(a.score);
  } catch (e) {
    // The eval bar is advisory: keep the last value.
  }
}

function showEval(score) {
  const bar = $('#evalbar');
  let white; // share of the bar for White, 0..1
  let label;
  if (score.mate !== null && score.mate !== undefined) {
    white = score.mate > 0 ? 1 : 0;
    label = `${score.mate > 0 ? '' : '-'}M${Math.abs(score.mate)}`;
  } else {
    const cp = score.cp || 0;
    white = 0.5 + 0.5 * Math.tanh(cp / 500);
    label = `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(1)}`;
  }
  bar.style.setProperty('--white', `${(white * 100).toFixed(1)}%`);
  bar.classList.toggle('flipped', board.orientation === 'black');
  bar.querySelector('.evalbar-label').textContent = label;
  bar.dataset.score = label;
}

// ---- stepping through the game ---------------------------------------------------

async function stepTo(ply) {
  if (!game) return;
  ply = Math.max(0, Math.min(ply, game.moves.length));
  const from = shownPly();
  viewPly = ply >= game.moves.length ? null : ply;
  if (ply === from + 1) {
    const entry = game.moves[from];
    board.busy = true;
    try {
      if (board.pos.fen !== positionFor(from).fen) board.setPosition(positionFor(from));
      await board.animate(entry.path, entry.uci, null);
    } finally {
      board.busy = false;
    }
  }
  renderAll();
}

function stopReplay() {
  clearInterval(replayTimer);
  replayTimer = null;
}

function toggleReplay() {
  if (replayTimer) {
    stopReplay();
    renderButtons();
    return;
  }
  if (isLive()) viewPly = 0;
  renderAll();
  replayTimer = setInterval(() => {
    if (!game || isLive()) {
      stopReplay();
      renderButtons();
      return;
    }
    stepTo(shownPly() + 1);
  }, 1100);
  renderButtons();
}

// ---- moves and actions -----------------------------------------------------------

async function onMove(uci) {
  if (!game) return false;
  const id = game.id;
  try {
    const view = await api.move(id, uci, game.moves.length);
    hint = null;
    await enqueue(view);
    return true;
  } catch (e) {
    if (e.kind === 'illegal_move') toast('Illegal move', e.reason || e.message, 'illegal');
    else toast('Move not played', e.message, 'error');
    if (e.status === 409) refresh();
    return false;
  }
}

async function refresh() {
  if (!game) return;
  try {
    enqueue(await api.game(game.id));
  } catch (e) {
    toast('Could not reload the game', e.message, 'error');
  }
}

async function action(fn, after) {
  try {
    const res = await fn();
    if (after) after(res);
  } catch (e) {
    toast('Not done', e.message, 'error');
  }
}

$('#btn-flip').addEventListener('click', () => {
  board.flip();
  if (game) orientationOverride = { id: game.id, color: board.orientation };
  renderAll();
});

$('#btn-takeback').addEventListener('click', () => action(() => api.takeback(game.id), (v) => { hint = null; enqueue(v); }));

$('#btn-resign').addEventListener('click', async () => {
  const who = game.mode === 'local' ? `${game.position.turn === 'white' ? 'White' : 'Black'} resigns. Sure?` : 'Resign this game?';
  if (await confirmDialog(who)) action(() => api.resign(game.id), (v) => enqueue(v));
});

$('#btn-draw').addEventListener('click', async () => {
  if (game.mode === 'local') {
    if (!(await confirmDialog('Do both players agree to a draw?'))) return;
  } else {
    toast('Draw offered', 'The engine is considering your offer…');
  }
  action(() => api.draw(game.id), (res) => {
    toast(res.accepted ? 'Draw agreed' : 'Draw declined', res.message, res.accepted ? 'info' : 'error');
    enqueue(res.game);
  });
});

$('#btn-hint').addEventListener('click', () => {
  const rev = game.rev;
  $('#btn-hint').disabled = true;
  action(() => api.hint(game.id), (a) => {
    if (!game || game.rev !== rev || !a.best) return renderButtons();
    hint = { rev, path: a.best.path, san: a.best.san };
    renderAll();
  });
});

$('#btn-eval').addEventListener('click', () => {
  evalOn = !evalOn;
  localStorage.setItem(EVAL_ON, evalOn ? '1' : '0');
  renderAll();
});

$('#nav-first').addEventListener('click', () => { stopReplay(); stepTo(0); });
$('#nav-prev').addEventListener('click', () => { stopReplay(); stepTo(shownPly() - 1); });
$('#nav-next').addEventListener('click', () => { stopReplay(); stepTo(shownPly() + 1); });
$('#nav-last').addEventListener('click', () => { stopReplay(); stepTo(game.moves.length); });
$('#nav-play').addEventListener('click', toggleReplay);

document.addEventListener('keydown', (e) => {
  if (!game || document.querySelector('dialog[open]')) return;
  if (e.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName)) return;
  if (e.key === 'ArrowLeft') { stopReplay(); stepTo(shownPly() - 1); }
  if (e.key === 'ArrowRight') { stopReplay(); stepTo(shownPly() + 1); }
});

banner.querySelector('#banner-close').addEventListener('click', () => { bannerDismissed = true; renderBanner(); });
banner.querySelector('#banner-new').addEventListener('click', () => openNewGame());

// ---- new game ---------------------------------------------------------------------

function openNewGame() {
  const form = $('#form-new');
  $('#new-error').classList.add('hidden');
  if (game) form.variant.value = game.variant;
  syncNewForm();
  $('#dlg-new').showModal();
}

function syncNewForm() {
  const form = $('#form-new');
  const engine = form.querySelector('input[name=mode]:checked').value === 'engine';
  form.querySelector('.engine-only').classList.toggle('hidden', !engine);
}

$('#btn-new').addEventListener('click', openNewGame);
for (const r of document.querySelectorAll('#form-new input[name=mode]')) r.addEventListener('change', syncNewForm);

$('#form-new').addEventListener('submit', async (e) => {
  const submitter = e.submitter;
  if (!submitter || submitter.value !== 'start') return; // Cancel closes the dialog
  e.preventDefault();
  const form = e.target;
  const body = {
    variant: form.variant.value,
    mode: form.querySelector('input[name=mode]:checked').value,
    level: parseInt(form.level.value, 10),
    color: form.color.value,
  };
  const text = form.import.value.trim();
  if (text) {
    if (text.startsWith('[') || text.includes('.')) body.pgn = text;
    else body.fen = text;
  }
  const err = $('#new-error');
  err.classList.add('hidden');
  try {
    const view = await api.create(body);
    $('#dlg-new').close();
    form.import.value = '';
    orientationOverride = null;
    location.hash = `#/game/${view.id}`;
  } catch (ex) {
    err.textContent = ex.message;
    err.classList.remove('hidden');
  }
});

// ---- saved games --------------------------------------------------------------------

async function openGames() {
  const d = $('#dlg-games');
  const list = $('#games-list');
  list.textContent = 'Loading…';
  d.showModal();
  try {
    const games = await api.games();
    list.innerHTML = '';
    if (!games.length) list.textContent = 'No saved games yet.';
    for (const g of games) {
      const row = document.createElement('div');
      row.className = 'game-row';
      row.dataset.id = g.id;
      const opp = g.mode === 'engine' ? `vs engine, level ${g.level}${g.human_color ? `, you play ${g.human_color}` : ''}` : 'two players';
      const state = g.finished ? `${g.result}${g.end_reason ? ` (${g.end_reason.replace(/_/g, ' ')})` : ''}` : 'in progress';
      const when = new Date(g.updated_at).toLocaleString();
      row.innerHTML = `<div class="game-row-main"><b>${g.variant_title}</b> · ${opp}<br><span class="muted">${state} · ${g.move_count} moves · ${when}</span></div>`;
      const open = document.createElement('button');
      open.type = 'button';
      open.textContent = g.finished ? 'Replay' : 'Resume';
      open.className = 'primary open-game';
      open.addEventListener('click', () => { d.close(); location.hash = `#/game/${g.id}`; });
      const del = document.createElement('button');
      del.type = 'button';
      del.textContent = 'Delete';
      del.addEventListener('click', async () => {
        await action(() => api.remove(g.id), () => row.remove());
      });
      row.append(open, del);
      list.appendChild(row);
    }
  } catch (e) {
    list.textContent = e.message;
  }
}

$('#btn-games').addEventListener('click', openGames);
$('#games-close').addEventListener('click', () => $('#dlg-games').close());

// ---- export ---------------------------------------------------------------------------

$('#btn-export').addEventListener('click', async () => {
  if (!game) return;
  $('#export-fen').value = positionFor(shownPly()).fen;
  $('#export-pgn').value = 'Loading…';
  $('#download-pgn').href = `/api/games/${game.id}/pgn`;
  $('#dlg-export').showModal();
  try {
    $('#export-pgn').value = await api.pgn(game.id);
  } catch (e) {
    $('#export-pgn').value = e.message;
  }
});
$('#export-close').addEventListener('click', () => $('#dlg-export').close());
for (const [btn, field] of [['#copy-fen', '#export-fen'], ['#copy-pgn', '#export-pgn']]) {
  $(btn).addEventListener('click', async () => {
    const text = $(field).value;
    try {
      await navigator.clipboard.writeText(text);
      toast('Copied', '');
    } catch (_) {
      $(field).select();
      document.execCommand('copy');
    }
  });
}

// ---- routing --------------------------------------------------------------------------

async function openGame(id) {
  stopReplay();
  try {
    const view = await api.game(id);
    await enqueue(view, { fresh: true });
    live.follow(`game:${id}`);
    localStorage.setItem(LAST_GAME, id);
  } catch (e) {
    $('#status').textContent = e.status === 404 ? 'This game does not exist. Start a new one.' : e.message;
  }
}

async function route() {
  const m = location.hash.match(/^#\/game\/([A-Za-z0-9_-]+)/);
  if (m) return openGame(m[1]);
  const last = localStorage.getItem(LAST_GAME);
  if (last) {
    try {
      await api.game(last);
      location.replace(`#/game/${last}`);
      return;
    } catch (_) {
      localStorage.removeItem(LAST_GAME);
    }
  }
  try {
    const view = await api.create({ variant: 'tensor', mode: 'engine', level: 3, color: 'white' });
    location.replace(`#/game/${view.id}`);
  } catch (e) {
    $('#status').textContent = e.message;
  }
}

async function init() {
  try {
    info = await api.info();
    const sel = $('#form-new').level;
    for (const l of info.levels) {
      const o = document.createElement('option');
      o.value = String(l.level);
      o.textContent = `${l.level} — ${l.name}`;
      if (l.level === 3) o.selected = true;
      sel.appendChild(o);
    }
  } catch (e) {
    $('#status').textContent = e.message;
  }
  window.addEventListener('hashchange', route);
  route();
}

init();
