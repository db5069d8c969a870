// @ts-check
// Drawing the game page from its state: the players and clocks, the
// status line, the move list, the buttons, the online panel, the banner at
// the end. Each function reads the page's state (handed to it: there is
// one per page) and writes its part of the page.

import {
  isOnline, isLive, shownPly, other, seatsTaken, freeSeat, canMove, premoveColor, moveNumber,
} from './state.js';
import { t, plural, colorName, colorArgs, endText, playerName, daysPerMove } from '../i18n.js';
import { signed } from '../ratings.js';
import { titleMark } from '../ui/title-mark.js';
import { setText, setAttr } from '../ui/el.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('./state.js').GameState} GameState */
/** @typedef {import('../api.js').ClockView} ClockView */
/** @typedef {import('../board.js').Board} Board */
/** @typedef {import('../board/types.js').Color} Color */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const btn = (/** @type {string} */ sel) => /** @type {HTMLButtonElement} */ (document.querySelector(sel));

/** @param {GameState} state @param {Board} board @param {GameView} g */
export function renderPlayers(state, board, g) {
  const bottom = board.orientation;
  for (const [pos, color] of /** @type {[string, Color][]} */ ([['top', other(bottom)], ['bottom', bottom]])) {
    let name = color === 'white' ? g.white : g.black;
    if (g.mode === 'engine') {
      name = g.human_color === color ? t('player.you_plain') : t('player.engine', { level: g.level ?? '', name: t(`level.${g.level}`) });
    } else if (name === 'White' || name === 'Black') {
      name = colorName(color);
    } else {
      name = playerName(name);
    }
    if (isOnline(g) && state.seat === color) name = t('player.you', { name });
    const node = $(`#name-${pos}`);
    node.textContent = `${color === 'white' ? '○' : '●'} `;
    const title = g.online ? g.online[color].title : null;
    if (title) node.append(titleMark(title), ' ');
    // An account's name links to its profile.
    const seated = state.players && state.players.id === g.id ? state.players[color] : null;
    if (seated && seated.account) {
      const a = document.createElement('a');
      a.className = 'name-link';
      a.href = `#/player/${encodeURIComponent(seated.account)}`;
      a.textContent = name;
      node.append(a);
    } else {
      node.append(name);
    }
    node.classList.toggle('to-move', !g.end && g.position.turn === color);
    node.dataset.color = color;
    node.dataset.toMove = t('player.to_move');
    renderRating(state, g, color, $(`#rating-${pos}`));
    const engineSide = g.mode === 'engine' && g.human_color !== color;
    const thinking = $(`#thinking-${pos}`);
    thinking.classList.toggle('hidden', !(engineSide && g.engine_thinking));
    thinking.textContent = t('player.thinking');
    const presence = $(`#presence-${pos}`);
    const s = g.online ? g.online[color] : null;
    presence.classList.toggle('hidden', !s || state.seat === color || !state.connected);
    if (s && state.connected) {
      const st = !s.taken ? 'empty' : s.connected ? 'connected' : 'disconnected';
      presence.textContent = t(`presence.${st}`);
      presence.dataset.state = st;
      presence.className = `presence ${st}${state.seat === color ? ' hidden' : ''}`;
    }
  }
  renderClocks(state, board, g);
}

/**
 * A rated game's rating beside a name: the rating when the game began and,
 * once it is over, how the result changed it ("1500 +162").
 * @param {GameState} state @param {GameView} g @param {Color} color @param {HTMLElement} node
 */
function renderRating(state, g, color, node) {
  const o = g.online;
  const i = color === 'white' ? 0 : 1;
  const rating = o && o.rated ? o.ratings[i] : null;
  node.classList.toggle('hidden', rating === null || rating === undefined);
  node.innerHTML = '';
  if (!o || rating === null || rating === undefined) return;
  const diff = g.end ? o.rating_diffs[i] : null;
  node.append(String(rating));
  node.setAttribute('aria-label', diff === null || diff === undefined
    ? t('rating.label', { rating })
    : t('rating.label_diff', { rating, diff: signed(diff) }));
  if (diff !== null && diff !== undefined) {
    const d = document.createElement('span');
    d.className = `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : 'same'}`;
    d.textContent = ` ${signed(diff)}`;
    node.append(d);
  }
  node.dataset.rating = String(rating);
  node.dataset.diff = diff === null || diff === undefined ? '' : String(diff);
}

/** @param {number} ms */
export function formatClock(ms) {
  const tt = Math.max(0, ms);
  if (tt < 10000) return `0:0${(tt / 1000).toFixed(1)}`;
  const secs = Math.ceil(tt / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const sec = String(secs % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A correspondence clock: days and hours left, then hours and minutes. @param {number} ms */
export function formatDaysLeft(ms) {
  const mins = Math.ceil(Math.max(0, ms) / 60000);
  const d = Math.floor(mins / 1440);
  const h = Math.floor((mins % 1440) / 60);
  if (d) return t('corr.left_days', { d, h });
  return h ? t('corr.left_hours', { h, m: mins % 60 }) : formatClock(ms);
}

/**
 * The server keeps the clocks; the page only counts the running one down
 * from the time it was told, until the next update. Returns the time left
 * to the running clock of this page's player (for the low-time sound).
 * @param {GameState} state @param {Board} board @param {GameView} g @returns {number | null}
 */
export function renderClocks(state, board, g) {
  const clock = g.online && g.online.clock;
  const bottom = board.orientation;
  let mine = null;
  for (const [pos, color] of /** @type {[string, Color][]} */ ([['top', other(bottom)], ['bottom', bottom]])) {
    const node = $(`#clock-${pos}`);
    node.classList.toggle('hidden', !clock);
    if (!clock) continue;
    let ms = clock[`${color}_ms`];
    const running = clock.running === color && !g.end;
    if (running) ms -= (state.frozenAt ?? performance.now()) - state.clockAt;
    // Drawn ten times a second, its text changing about once (ui/el.js).
    const time = clock.days ? formatDaysLeft(ms) : formatClock(ms);
    setText(node, time);
    node.dataset.ms = String(Math.max(0, Math.round(ms)));
    node.classList.toggle('running', running);
    node.classList.toggle('low', ms < 20000);
    setAttr(node, 'aria-label', t('clock.label', { ...colorArgs(color), time }));
    if (running && color === state.seat) mine = ms;
  }
  renderFirstMoveWait(state, g, clock || null);
  return mine;
}

// With a clock, each side has a limited time for its first move; the server
// aborts the game when it runs out. The page counts it down.
/** @param {GameState} state @param {GameView} g @param {ClockView | null} clock */
function renderFirstMoveWait(state, g, clock) {
  const node = $('#first-move');
  // Correspondence: the first move's days show on the clock itself.
  const wait = clock && !clock.days && !g.end && isLive(state) ? clock.first_move_ms : null;
  node.classList.toggle('hidden', wait == null);
  if (wait == null) return;
  const left = Math.max(0, wait - ((state.frozenAt ?? performance.now()) - state.clockAt));
  const secs = Math.ceil(left / 1000);
  const turn = g.position.turn;
  setText(node, turn === state.seat ? t('first_move.you', { secs }) : t('first_move.other', { ...colorArgs(turn), secs }));
  node.classList.toggle('low', secs <= 15);
}

/** @param {GameView} g @param {number} i */
export function moveLabel(g, i) {
  const { no, white } = moveNumber(g, i);
  return `${no}${white ? '.' : '…'} ${g.moves[i].san}`;
}

/** @param {GameState} state @param {GameView} g */
export function renderStatus(state, g) {
  let text;
  const turn = g.position.turn;
  if (!isLive(state)) {
    text = state.viewPly === 0 ? t('status.start') : t('status.after', { move: moveLabel(g, /** @type {number} */ (state.viewPly) - 1) });
    text += ` — ${t('status.back_to_game')}`;
  } else if (g.end) {
    const e = endText(g.end, g.variant);
    text = `${e.title} — ${e.text}`;
  } else if (isOnline(g)) {
    const free = freeSeat(g);
    if (!seatsTaken(g)) text = state.seat ? t('status.waiting_friend') : t('status.waiting_player', colorArgs(free || 'white'));
    else if (!state.seat) text = t('status.to_move', colorArgs(turn));
    else text = turn === state.seat ? t('status.your_move') : t('status.waiting_move', colorArgs(turn));
    if (g.position.check) text += ` — ${t('status.check')}`;
  } else if (g.engine_thinking) {
    text = t('status.engine_thinking');
  } else {
    text = g.mode === 'engine' && turn === g.human_color ? t('status.your_move') : t('status.to_move', colorArgs(turn));
    if (g.position.check) text += ` — ${t('status.check')}`;
  }
  if (state.hint && state.hint.rev === g.rev && isLive(state) && !g.end) text += ` · ${t('status.hint', { san: state.hint.san })}`;
  if (state.premove && isLive(state) && !g.end) text += ` · ${t('status.premove', { from: state.premove.from, to: state.premove.to })}`;
  $('#status').textContent = text;
}

/** @param {GameState} state @param {GameView} g @param {(ply: number) => void} stepTo */
export function renderMoves(state, g, stepTo) {
  const list = $('#moves');
  list.innerHTML = '';
  list.setAttribute('aria-label', t('moves.label'));
  /** @type {HTMLElement | null} */
  let row = null;
  const shown = shownPly(state, g);
  g.moves.forEach((m, i) => {
    const { no, white } = moveNumber(g, i);
    if (!row || white) {
      row = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = `${no}.`;
      row.appendChild(num);
      if (!white) {
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
    if (i + 1 === shown) {
      b.classList.add('current');
      b.setAttribute('aria-current', 'step');
    }
    b.addEventListener('click', () => stepTo(i + 1));
    row.appendChild(b);
  });
  const current = list.querySelector('.current');
  if (current) scrollWithin(list, /** @type {HTMLElement} */ (current));
}

/**
 * Brings `item` into sight inside the scrolling `list`, moving only the
 * list: `scrollIntoView` would scroll the page too (on a phone the board
 * and the clocks would leave the screen after every move).
 * @param {HTMLElement} list @param {HTMLElement} item
 */
function scrollWithin(list, item) {
  const box = list.getBoundingClientRect();
  const at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop -= box.top - at.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

/** @param {GameState} state @param {GameView} g */
export function renderButtons(state, g) {
  const active = !g.end;
  for (const id of ['#btn-flip', '#btn-eval', '#btn-export', '#btn-abort']) btn(id).disabled = false;
  // A rated game being played: no New game, no FEN / PGN (no engine help
  // at hand); a spectator has no Move box.
  const ratedLive = !!g.online && g.online.rated && !g.end;
  btn('#btn-new').classList.toggle('hidden', ratedLive);
  btn('#btn-export').classList.toggle('hidden', ratedLive);
  $('.panel .move-entry').classList.toggle('hidden', !!g.online && !state.seat);
  // A finished game stays finished: no takeback reopens it (the server refuses too).
  let canTakeback = g.moves.length > 0 && !g.end;
  if (g.mode === 'engine') canTakeback = canTakeback && g.moves.length >= (g.position.turn === g.human_color ? 2 : 1);
  btn('#btn-takeback').disabled = !canTakeback;
  btn('#btn-takeback').classList.toggle('hidden', !!g.end || isOnline(g));
  btn('#btn-hint').disabled = !active || !isLive(state) || g.engine_thinking;
  btn('#btn-draw').disabled = !active;
  btn('#btn-resign').disabled = !active;
  btn('#btn-eval').setAttribute('aria-pressed', state.evalOn ? 'true' : 'false');
  $('#evalbar').classList.toggle('hidden', !state.evalOn);
  const shown = shownPly(state, g);
  btn('#nav-first').disabled = shown === 0;
  btn('#nav-prev').disabled = shown === 0;
  btn('#nav-next').disabled = isLive(state);
  btn('#nav-last').disabled = isLive(state);
  btn('#nav-play').disabled = g.moves.length === 0;
  btn('#nav-play').textContent = state.replaying ? t('nav.pause') : t('nav.replay');
  const bits = [t(`game.${g.variant}`)];
  if (g.online) {
    const c = g.online.clock;
    bits.push(t(g.online.rated ? 'info.online_rated' : 'info.online_casual'));
    if (c && c.days) bits.push(t('corr.info', { days: daysPerMove(c.days) }));
    else bits.push(c ? t('info.clock', { min: c.base_ms / 60000, inc: c.increment_ms / 1000 }) : t('info.no_clock'));
  } else {
    bits.push(g.mode === 'engine' ? t('info.engine', { level: g.level ?? '', name: t(`level.${g.level}`) }) : t('info.local'));
  }
  $('#game-info').textContent = bits.join(' · ');
  renderLearnLinks(state, g);
  /** @type {HTMLInputElement} */ (document.querySelector('#move-input')).disabled = !(canMove(state, g) || premoveColor(state, g));
  if (g.online) renderOnlineButtons(state, g);
}

/**
 * The links to the analysis board (a finished game, or one against the
 * engine or on this device, from its current position) and to the review
 * (a finished game). @param {GameState} state @param {GameView} g
 */
function renderLearnLinks(state, g) {
  const analyse = /** @type {HTMLAnchorElement | null} */ (document.querySelector('#btn-analyse'));
  const review = /** @type {HTMLAnchorElement | null} */ (document.querySelector('#btn-review'));
  if (!analyse || !review) return;
  analyse.classList.toggle('hidden', !!g.online && !g.end);
  analyse.href = `/analysis.html#game=${encodeURIComponent(g.id)}`;
  review.classList.toggle('hidden', !g.end || g.moves.length === 0);
  review.href = `/analysis.html#game=${encodeURIComponent(g.id)}&review=1`;
}

/** @param {GameState} state @param {GameView} g */
function renderOnlineButtons(state, g) {
  const o = /** @type {import('../api.js').OnlineView} */ (g.online);
  const player = !!state.seat;
  for (const id of ['#btn-hint', '#btn-takeback', '#btn-eval']) $(id).classList.add('hidden');
  $('#evalbar').classList.add('hidden');
  $('#btn-draw').classList.toggle('hidden', !player || !!g.end);
  $('#btn-resign').classList.toggle('hidden', !player || !!g.end);
  btn('#btn-draw').disabled = !seatsTaken(g) || o.draw_offer === state.seat;
  btn('#btn-draw').textContent = o.draw_offer === state.seat ? t('btn.draw_offered') : t('btn.draw');
  btn('#btn-resign').disabled = !seatsTaken(g);
  $('#btn-abort').classList.toggle('hidden', !player || !o.can_abort);
  const rematch = player && !!g.end && seatsTaken(g) && !o.rematch_id;
  $('#btn-rematch').classList.toggle('hidden', !rematch);
  btn('#btn-rematch').disabled = o.rematch_offer === state.seat;
  btn('#btn-rematch').textContent = rematchLabel(state, o);
}

/** @param {GameState} state @param {import('../api.js').OnlineView} o */
const rematchLabel = (state, o) => (o.rematch_offer === state.seat ? t('btn.rematch_offered') : o.rematch_offer ? t('btn.rematch_accept') : t('btn.rematch'));

/** What the online panel says: the invite link, the free seat, offers. @param {GameState} state @param {GameView} g */
export function renderOnline(state, g) {
  $('#online-panel').classList.toggle('hidden', !g.online);
  if (!g.online) {
    for (const id of ['#btn-hint', '#btn-eval', '#btn-draw', '#btn-resign']) $(id).classList.remove('hidden');
    $('#btn-abort').classList.add('hidden');
    $('#btn-rematch').classList.add('hidden');
    btn('#btn-draw').textContent = t('btn.draw');
    return;
  }
  const o = g.online;
  const seat = state.seat;
  const free = freeSeat(g);
  $('#invite').classList.toggle('hidden', !(seat && free && !g.end));
  /** @type {HTMLInputElement} */ ($('#invite-link')).value = `${location.origin}/#/game/${g.id}`;
  $('#invite-local').classList.toggle('hidden', !/^(localhost|127\.|\[::1\])/.test(location.hostname));
  $('#join').classList.toggle('hidden', !(!seat && free && !g.end));
  if (free) $('#join-text').textContent = t('online.invited', colorArgs(free));
  $('#watching').classList.toggle('hidden', !(!seat && (!free || g.end)));
  // Who watches without a seat (each person once, on every server).
  const watchers = o.spectators || 0;
  const sp = $('#spectators');
  sp.classList.toggle('hidden', watchers === 0);
  sp.textContent = watchers ? plural('game.spectators', watchers) : '';
  sp.dataset.count = String(watchers);
  /** @type {{ kind?: string, text: string } | null} */
  let offer = null;
  if (seat && !g.end && o.draw_offer) {
    offer = o.draw_offer === seat ? { text: t('online.draw_sent') } : { kind: 'draw', text: t('online.draw_offered') };
  } else if (seat && g.end && o.rematch_offer && !o.rematch_id) {
    offer = o.rematch_offer === seat ? { text: t('online.rematch_sent') } : { kind: 'rematch', text: t('online.rematch_offered') };
  } else if (!seat && o.draw_offer && !g.end) {
    offer = { text: t('online.draw_by', colorArgs(o.draw_offer)) };
  }
  $('#offer').classList.toggle('hidden', !offer);
  if (offer) {
    $('#offer-text').textContent = offer.text;
    $('#offer').dataset.kind = offer.kind || '';
    $('#btn-accept').classList.toggle('hidden', !offer.kind);
    $('#btn-decline').classList.toggle('hidden', !offer.kind);
  }
  const link = /** @type {HTMLAnchorElement} */ ($('#rematch-link'));
  link.classList.toggle('hidden', !o.rematch_id);
  if (o.rematch_id) {
    link.href = `#/game/${o.rematch_id}`;
    link.textContent = seat ? t('online.go_rematch') : t('online.watch_rematch');
  }
}

/** @param {GameState} state @param {HTMLElement} banner @param {GameView} g */
export function renderBanner(state, banner, g) {
  const show = !!g.end && isLive(state) && !state.bannerDismissed;
  banner.classList.toggle('hidden', !show);
  if (!show || !g.end) return;
  const o = g.online;
  const rematch = btn('#banner-rematch');
  rematch.classList.toggle('hidden', !(o && state.seat && seatsTaken(g) && !o.rematch_id));
  if (o) {
    rematch.disabled = o.rematch_offer === state.seat;
    rematch.textContent = rematchLabel(state, o);
  }
  const e = endText(g.end, g.variant);
  /** @type {HTMLElement} */ (banner.querySelector('.banner-title')).textContent = e.title;
  /** @type {HTMLElement} */ (banner.querySelector('.banner-text')).textContent = e.text;
  banner.dataset.reason = g.end.reason;
  // A rated game: the player's new rating (a watcher sees both changes beside the names).
  const line = /** @type {HTMLElement} */ (banner.querySelector('.banner-rating'));
  const i = state.seat === 'black' ? 1 : 0;
  const before = o && o.rated && state.seat ? o.ratings[i] : null;
  const diff = o && o.rated && state.seat ? o.rating_diffs[i] : null;
  line.classList.toggle('hidden', before === null || before === undefined || diff === null || diff === undefined);
  if (before !== null && before !== undefined && diff !== null && diff !== undefined) {
    line.textContent = t('banner.rating', { before, after: before + diff, diff: signed(diff) });
  }
}

/** The page when no game can be shown (a bad link): nothing to press. @param {string} text */
export function renderNoGame(text) {
  for (const b of document.querySelectorAll('.controls button, .nav button')) /** @type {HTMLButtonElement} */ (b).disabled = true;
  /** @type {HTMLInputElement} */ ($('#move-input')).disabled = true;
  $('#online-panel').classList.add('hidden');
  $('#moves').innerHTML = '';
  $('#game-info').textContent = '';
  for (const pos of ['top', 'bottom']) {
    $(`#name-${pos}`).textContent = '';
    for (const k of ['presence', 'thinking', 'clock', 'rating']) $(`#${k}-${pos}`).classList.add('hidden');
  }
  $('#first-move').classList.add('hidden');
  $('#status').textContent = text;
}
