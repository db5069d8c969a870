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
// Online play: the seat this browser holds in the game shown (from the
// server: the seat token is an HttpOnly cookie the page never sees).
let seat = null;
let clockAt = 0; // performance.now() when the shown clock times were received
let seatFixes = 0;

const board = new Board($('#board'), { onMove });
const banner = document.createElement('div');
banner.id = 'banner';
banner.className = 'banner hidden';
banner.innerHTML = `<div class="banner-title"></div><div class="banner-text"></div>
  <div class="banner-buttons"><button type="button" id="banner-rematch" class="primary hidden">Rematch</button>
  <button type="button" id="banner-new" class="primary">New game</button>
  <button type="button" id="banner-close">See the board</button></div>`;
board.box.appendChild(banner);

let connected = true; // this page's socket is up
let frozenAt = null; // performance.now() when the socket went down
const live = new Live(onEvent, (up) => {
  $('#connection').classList.toggle('hidden', up);
  connected = up;
  // While the server cannot be reached, nobody knows who is there, and the
  // clocks the page shows stop: the server's own clocks decide.
  if (up && frozenAt !== null) clockAt += performance.now() - frozenAt;
  frozenAt = up ? null : (frozenAt ?? performance.now());
  if (game) renderPlayers();
});

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
const isOnline = () => game && game.mode === 'online';
const cap = (c) => c[0].toUpperCase() + c.slice(1);
const other = (c) => (c === 'white' ? 'black' : 'white');
const seatsTaken = () => game.online.white.taken && game.online.black.taken;
const freeSeat = () => (!game.online.white.taken ? 'white' : !game.online.black.taken ? 'black' : null);

function canMove() {
  if (!game || game.end || !isLive()) return false;
  if (game.mode === 'local') return true;
  if (game.mode === 'online') return !!seat && seat === game.position.turn && seatsTaken();
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
  if (g.mode === 'online') return seat || 'white';
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
  if (view.online) clockAt = performance.now();
  if (!opts.fresh && view.rev === old.rev && view.engine_thinking === old.engine_thinking) {
    game = view; // the same state again (a snapshot after subscribing): keep what the player is doing
    renderPlayers();
    return;
  }
  game = view;
  // A rematch was just agreed: the players go to it.
  if (!opts.fresh && seat && old && old.online && view.online && !old.online.rematch_id && view.online.rematch_id) {
    location.hash = `#/game/${view.online.rematch_id}`;
    return;
  }
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

// Online games' updates carry only the new moves (from `moves_from` on):
// the page keeps the moves it has before that. Should its moves not match
// (an update missed), it asks for the whole game again.
function withMoves(view) {
  const from = view.moves_from || 0;
  if (!from) return view;
  const have = game && game.id === view.id ? game.moves : [];
  if (have.length < from || have[from - 1].uci !== view.moves_before) {
    refresh();
    return null;
  }
  return { ...view, moves: have.slice(0, from).concat(view.moves), moves_from: 0 };
}

function onEvent(msg) {
  if (msg.type === 'game' && game && msg.game.id === game.id) {
    // Merged when its turn in the queue comes, against the state shown then.
    queue = queue.then(() => {
      const view = withMoves(msg.game);
      return view && applyView(view);
    }).catch((e) => console.error(e));
  }
  else if (msg.type === 'presence' && isOnline() && msg.topic === `game:${game.id}`) {
    game.online.white.connected = msg.white;
    game.online.black.connected = msg.black;
    renderPlayers();
  } else if (msg.type === 'subscribed' && isOnline() && msg.topic === `game:${game.id}`) {
    // The socket plays with the cookies it was opened with: a seat taken
    // after it opened needs a new socket.
    const wsSeat = msg.seat || null;
    if (wsSeat && !seat) {
      seat = wsSeat;
      renderAll();
    } else if (seat && wsSeat !== seat && seatFixes < 3) {
      seatFixes++;
      live.reconnect();
    }
  } else if (msg.type === 'error') console.warn('server:', msg.message);
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
  renderOnline();
  renderBanner();
  document.body.dataset.game = game.id;
  document.body.dataset.mode = game.mode;
  document.body.dataset.seat = seat || '';
  document.body.dataset.ply = String(game.moves.length);
  document.body.dataset.shown = String(ply);
  document.body.dataset.rev = String(game.rev);
  document.body.dataset.state = game.end ? 'over' : game.engine_thinking ? 'thinking' : canMove() ? 'your-move' : 'waiting';
  if (evalOn && !isOnline()) updateEval();
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
    let name = color === 'white' ? game.white : game.black;
    if (isOnline() && seat === color) name += ' (you)';
    const node = $(`#name-${pos}`);
    node.textContent = `${color === 'white' ? '○' : '●'} ${name}`;
    node.classList.toggle('to-move', !game.end && turn === color);
    node.dataset.color = color;
    const engineSide = game.mode === 'engine' && game.human_color !== color;
    $(`#thinking-${pos}`).classList.toggle('hidden', !(engineSide && game.engine_thinking));
    const presence = $(`#presence-${pos}`);
    const s = isOnline() ? game.online[color] : null;
    presence.classList.toggle('hidden', !s || seat === color || !connected);
    if (s && connected) {
      const state = !s.taken ? 'empty' : s.connected ? 'connected' : 'disconnected';
      presence.textContent = !s.taken ? 'not joined yet' : s.connected ? 'connected' : 'disconnected';
      presence.dataset.state = state;
      presence.className = `presence ${state}${seat === color ? ' hidden' : ''}`;
    }
  }
  renderClocks();
}

function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return `0:0${(t / 1000).toFixed(1)}`;
  const secs = Math.ceil(t / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const sec = String(secs % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

// The server keeps the clocks; the page only counts down the running one
// from the time it was told, until the next update.
function renderClocks() {
  const clock = isOnline() && game.online.clock;
  const bottom = board.orientation;
  for (const [pos, color] of [['top', other(bottom)], ['bottom', bottom]]) {
    const node = $(`#clock-${pos}`);
    node.classList.toggle('hidden', !clock);
    if (!clock) continue;
    let ms = clock[`${color}_ms`];
    const running = clock.running === color && !game.end;
    if (running) ms -= (frozenAt ?? performance.now()) - clockAt;
    node.textContent = formatClock(ms);
    node.dataset.ms = String(Math.max(0, Math.round(ms)));
    node.classList.toggle('running', running);
    node.classList.toggle('low', ms < 20000);
  }
  renderFirstMoveWait(clock);
}

// With a clock, each side has a limited time for its first move; the server
// aborts the game when it runs out. The page counts it down.
function renderFirstMoveWait(clock) {
  const node = $('#first-move');
  const wait = clock && !game.end && isLive() ? clock.first_move_ms : null;
  node.classList.toggle('hidden', wait == null);
  if (wait == null) return;
  const left = Math.max(0, wait - ((frozenAt ?? performance.now()) - clockAt));
  const secs = Math.ceil(left / 1000);
  const turn = game.position.turn;
  const who = turn === seat ? 'You have' : `${cap(turn)} has`;
  node.textContent = `${who} ${secs} s to make a first move, or the game is aborted`;
  node.classList.toggle('low', secs <= 15);
}
setInterval(() => { if (game && isOnline()) renderClocks(); }, 100);

function renderStatus() {
  const s = $('#status');
  let text;
  if (!isLive()) {
    text = viewPly === 0 ? 'Start position' : `After ${moveLabel(viewPly - 1)}`;
    text += ' — » returns to the game';
  } else if (game.end) {
    text = `${game.end.title} — ${game.end.text}`;
  } else if (isOnline()) {
    const turn = game.position.turn;
    if (!seatsTaken()) text = seat ? 'Waiting for your friend to join' : `Waiting for a player: ${cap(freeSeat())}'s seat is free`;
    else if (!seat) text = `${cap(turn)} to move`;
    else text = turn === seat ? 'Your move' : `Waiting for ${cap(turn)}'s move`;
    if (game.position.check) text += ' — check!';
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
  for (const id of ['#btn-flip', '#btn-eval', '#btn-export', '#btn-abort']) $(id).disabled = false;
  // A finished game stays finished: no takeback reopens it.
  let canTakeback = game.moves.length > 0 && !game.end;
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
  if (game.mode === 'online') {
    const c = game.online.clock;
    bits.push('online, against a friend');
    bits.push(c ? `${c.base_ms / 60000} min + ${c.increment_ms / 1000} s a move` : 'no clock');
  } else {
    bits.push(game.mode === 'engine' ? `against the engine (level ${game.level}: ${game.level_name})` : 'two players on this device');
  }
  $('#game-info').textContent = bits.join(' · ');
  if (game.mode === 'online') renderOnlineButtons();
}

function renderOnlineButtons() {
  const o = game.online;
  const player = !!seat;
  for (const id of ['#btn-hint', '#btn-takeback', '#btn-eval']) $(id).classList.add('hidden');
  $('#evalbar').classList.add('hidden');
  $('#btn-draw').classList.toggle('hidden', !player || !!game.end);
  $('#btn-resign').classList.toggle('hidden', !player || !!game.end);
  $('#btn-draw').disabled = !seatsTaken() || o.draw_offer === seat;
  $('#btn-draw').textContent = o.draw_offer === seat ? 'Draw offered' : 'Offer draw';
  $('#btn-resign').disabled = !seatsTaken();
  $('#btn-abort').classList.toggle('hidden', !player || !o.can_abort);
  const rematch = player && !!game.end && seatsTaken() && !o.rematch_id;
  $('#btn-rematch').classList.toggle('hidden', !rematch);
  $('#btn-rematch').disabled = o.rematch_offer === seat;
  $('#btn-rematch').textContent = o.rematch_offer === seat ? 'Rematch offered'
    : o.rematch_offer ? 'Accept rematch' : 'Rematch';
}

// What the online panel says: the invite link, the free seat, offers.
function renderOnline() {
  const panel = $('#online-panel');
  panel.classList.toggle('hidden', !isOnline());
  for (const id of ['#btn-hint', '#btn-takeback', '#btn-eval', '#btn-draw', '#btn-resign']) {
    if (!isOnline()) $(id).classList.remove('hidden');
  }
  if (!isOnline()) {
    $('#btn-abort').classList.add('hidden');
    $('#btn-rematch').classList.add('hidden');
    return;
  }
  const o = game.online;
  const free = freeSeat();
  $('#invite').classList.toggle('hidden', !(seat && free && !game.end));
  $('#invite-link').value = `${location.origin}/#/game/${game.id}`;
  $('#invite-local').classList.toggle('hidden', !/^(localhost|127\.|\[::1\])/.test(location.hostname));
  $('#join').classList.toggle('hidden', !(!seat && free && !game.end));
  if (free) $('#join-text').textContent = `You are invited to play ${cap(free)}.`;
  $('#watching').classList.toggle('hidden', !(!seat && (!free || game.end)));
  let offer = null;
  if (seat && !game.end && o.draw_offer) {
    offer = o.draw_offer === seat ? { text: 'You offered a draw: waiting for an answer.' }
      : { kind: 'draw', text: 'Your opponent offers a draw.' };
  } else if (seat && game.end && o.rematch_offer && !o.rematch_id) {
    offer = o.rematch_offer === seat ? { text: 'You offered a rematch: waiting for an answer.' }
      : { kind: 'rematch', text: 'Your opponent wants a rematch (colours swapped).' };
  } else if (!seat && o.draw_offer && !game.end) {
    offer = { text: `${cap(o.draw_offer)} offers a draw.` };
  }
  $('#offer').classList.toggle('hidden', !offer);
  if (offer) {
    $('#offer-text').textContent = offer.text;
    $('#offer').dataset.kind = offer.kind || '';
    $('#btn-accept').classList.toggle('hidden', !offer.kind);
    $('#btn-decline').classList.toggle('hidden', !offer.kind);
  }
  const link = $('#rematch-link');
  link.classList.toggle('hidden', !o.rematch_id);
  if (o.rematch_id) {
    link.href = `#/game/${o.rematch_id}`;
    link.textContent = seat ? 'Go to the rematch' : 'Watch the rematch';
  }
}

function renderBanner() {
  const show = game.end && isLive() && !bannerDismissed;
  banner.classList.toggle('hidden', !show);
  if (!show) return;
  const o = game.online;
  const rematch = banner.querySelector('#banner-rematch');
  rematch.classList.toggle('hidden', !(o && seat && seatsTaken() && !o.rematch_id));
  if (o) {
    rematch.disabled = o.rematch_offer === seat;
    rematch.textContent = o.rematch_offer === seat ? 'Rematch offered' : o.rematch_offer ? 'Accept rematch' : 'Rematch';
  }
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
    const view = game.mode === 'online'
      ? await api.act(id, { type: 'move', move: uci, ply: game.moves.length })
      : await api.move(id, uci, game.moves.length);
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
    const view = await api.game(game.id);
    if (view.mode === 'online') seat = view.you || null;
    enqueue(view);
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

// An online action by this browser's seat; the answer is the new state.
function act(action, after) {
  if (!game) return;
  const id = game.id;
  return action === null ? null : api.act(id, action).then((view) => {
    if (view.you) seat = view.you;
    enqueue(view);
    if (after) after(view);
  }).catch((e) => {
    toast('Not done', e.message, 'error');
    if (e.status === 409) refresh();
  });
}

$('#btn-abort').addEventListener('click', async () => {
  if (await confirmDialog('Abort this game? It ends without a result.')) act({ type: 'abort' });
});

$('#btn-rematch').addEventListener('click', () => act({ type: 'rematch' }, (v) => {
  if (!v.online.rematch_id) toast('Rematch offered', 'Waiting for your opponent to accept');
}));

$('#btn-accept').addEventListener('click', () => {
  const kind = $('#offer').dataset.kind;
  act(kind === 'draw' ? { type: 'accept_draw' } : kind === 'rematch' ? { type: 'rematch' } : null);
});

$('#btn-decline').addEventListener('click', () => {
  const kind = $('#offer').dataset.kind;
  act(kind === 'draw' ? { type: 'decline_draw' } : kind === 'rematch' ? { type: 'decline_rematch' } : null);
});

$('#btn-join').addEventListener('click', async () => {
  if (!game) return;
  try {
    const view = await api.join(game.id);
    seat = view.you || null;
    seatFixes = 0;
    live.reconnect(); // the new socket carries the seat's cookie
    orientationOverride = null;
    await enqueue(view, { fresh: true });
    toast('You joined', seat ? `You play ${cap(seat)}` : '');
  } catch (e) {
    toast('Could not join', e.message, 'error');
    refresh();
  }
});

$('#btn-copy-link').addEventListener('click', async () => {
  const input = $('#invite-link');
  try {
    await navigator.clipboard.writeText(input.value);
    toast('Link copied', 'Send it to your friend');
  } catch (_) {
    input.select();
    document.execCommand('copy');
  }
});

$('#btn-resign').addEventListener('click', async () => {
  if (isOnline()) {
    if (await confirmDialog('Resign this game?')) act({ type: 'resign' });
    return;
  }
  const who = game.mode === 'local' ? `${game.position.turn === 'white' ? 'White' : 'Black'} resigns. Sure?` : 'Resign this game?';
  if (await confirmDialog(who)) action(() => api.resign(game.id), (v) => enqueue(v));
});

$('#btn-draw').addEventListener('click', async () => {
  if (isOnline()) {
    act({ type: 'offer_draw' }, (v) => {
      if (!v.end) toast('Draw offered', 'Waiting for your opponent to answer');
    });
    return;
  }
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
banner.querySelector('#banner-rematch').addEventListener('click', () => act({ type: 'rematch' }));

// ---- new game ---------------------------------------------------------------------

function openNewGame(mode) {
  const form = $('#form-new');
  $('#new-error').classList.add('hidden');
  if (game) form.variant.value = game.variant;
  if (typeof mode === 'string') form.querySelector(`input[name=mode][value=${mode}]`).checked = true;
  syncNewForm();
  $('#dlg-new').showModal();
}

function syncNewForm() {
  const form = $('#form-new');
  const mode = form.querySelector('input[name=mode]:checked').value;
  form.querySelector('.engine-only').classList.toggle('hidden', mode !== 'engine');
  form.querySelector('.color-choice').classList.toggle('hidden', mode === 'local');
  form.querySelector('.online-only').classList.toggle('hidden', mode !== 'online');
  form.querySelector('.import-only').classList.toggle('hidden', mode === 'online');
  form.querySelector('.clock-custom').classList.toggle('hidden', form.clock.value !== 'custom');
  $('#btn-start').textContent = mode === 'online' ? 'Create and get the link' : 'Start';
}

function clockRequest(form) {
  const v = form.clock.value;
  if (v === 'none') return null;
  if (v === 'custom') {
    return {
      base_seconds: Math.round(parseFloat(form.base_minutes.value || '0') * 60),
      increment_seconds: parseInt(form.increment_seconds.value || '0', 10),
    };
  }
  const [base, inc] = v.split('+').map((x) => parseInt(x, 10));
  return { base_seconds: base, increment_seconds: inc };
}

$('#btn-new').addEventListener('click', () => openNewGame());
$('#btn-friend').addEventListener('click', () => openNewGame('online'));
for (const r of document.querySelectorAll('#form-new input[name=mode]')) r.addEventListener('change', syncNewForm);
$('#form-new').clock.addEventListener('change', syncNewForm);

$('#form-new').addEventListener('submit', async (e) => {
  const submitter = e.submitter;
  if (!submitter || submitter.value !== 'start') return; // Cancel closes the dialog
  e.preventDefault();
  const form = e.target;
  if (form.querySelector('input[name=mode]:checked').value === 'online') {
    const err = $('#new-error');
    err.classList.add('hidden');
    try {
      const view = await api.online({ variant: form.variant.value, color: form.color.value, clock: clockRequest(form) });
      $('#dlg-new').close();
      orientationOverride = null;
      seatFixes = 0;
      live.reconnect(); // the new socket carries the seat's cookie
      location.hash = `#/game/${view.id}`;
    } catch (ex) {
      err.textContent = ex.message;
      err.classList.remove('hidden');
    }
    return;
  }
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
      const opp = g.mode === 'engine' ? `vs engine, level ${g.level}${g.human_color ? `, you play ${g.human_color}` : ''}`
        : g.mode === 'online' ? 'online, against a friend' : 'two players';
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
    seat = view.mode === 'online' ? view.you || null : null;
    seatFixes = 0;
    await enqueue(view, { fresh: true });
    live.follow(`game:${id}`);
    localStorage.setItem(LAST_GAME, id);
  } catch (e) {
    showNoGame(e.status === 404 ? 'This game does not exist. Start a new one.' : e.message);
  }
}

// A link to a game that cannot be shown: nothing of the previous game may
// stay playable (its board would still post moves into it).
function showNoGame(text) {
  queue = queue.then(() => {
    game = null;
    seat = null;
    hint = null;
    viewPly = null;
    clearTimeout(renderAll.poll);
    live.follow(null);
    board.setPosition({ fen: '8/8/8/8/8/8/8/8 w - - 0 1', legal: [], movable: [] });
    board.setArrow(null);
    banner.classList.add('hidden');
    for (const b of document.querySelectorAll('.controls button, .nav button')) b.disabled = true;
    $('#online-panel').classList.add('hidden');
    $('#moves').innerHTML = '';
    $('#game-info').textContent = '';
    for (const pos of ['top', 'bottom']) {
      $(`#name-${pos}`).textContent = '';
      for (const k of ['presence', 'thinking', 'clock']) $(`#${k}-${pos}`).classList.add('hidden');
    }
    $('#first-move').classList.add('hidden');
    for (const k of ['game', 'mode', 'seat', 'ply', 'shown', 'rev']) delete document.body.dataset[k];
    document.body.dataset.state = 'none';
    $('#status').textContent = text;
  });
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
