// @ts-check
// Talking to the server: JSON requests and the live-update WebSocket. The
// types below are the server's views (crates/tensorchess/src/server/views.rs).

/** @typedef {import('./board/types.js').Color} Color */
/** @typedef {import('./board/types.js').LegalMove} LegalMove */
/** @typedef {import('./board/types.js').Path} Path */
/** @typedef {import('./board/types.js').Geometry} Geometry */
/** @typedef {import('./board/types.js').Hands} Hands */

/** @typedef {{ result: string, reason: string, winner: Color | null, title: string, text: string }} EndView */
/** @typedef {{ hands: boolean, beasts: boolean, castling: boolean, king_moves: boolean }} RulesView */
/**
 * @typedef {{ variant: string, fen: string, turn: Color, check: string | null, hands: Hands,
 *   geometry: Geometry, rules: RulesView, legal: LegalMove[], outcome: EndView | null }} PositionView
 */
/** @typedef {{ ply: number, uci: string, san: string, color: Color, fen: string, check: string | null, path: Path }} HistoryEntry */
/** @typedef {{ taken: boolean, connected: boolean }} SeatView */
/**
 * @typedef {{ base_ms: number, increment_ms: number, white_ms: number, black_ms: number,
 *   running: Color | null, first_move_ms: number | null }} ClockView
 */
/**
 * @typedef {{ white: SeatView, black: SeatView, clock: ClockView | null, draw_offer: Color | null,
 *   rematch_offer: Color | null, rematch_of: string | null, rematch_id: string | null, can_abort: boolean }} OnlineView
 */
/**
 * @typedef {{ id: string, variant: string, variant_title: string, mode: 'engine' | 'local' | 'online',
 *   human_color: Color | null, level: number | null, level_name: string | null, white: string, black: string,
 *   rev: number, start_fen: string, position: PositionView, moves: HistoryEntry[], end: EndView | null,
 *   engine_thinking: boolean, created_at: number, updated_at: number, online: OnlineView | null,
 *   you: Color | null, moves_from: number, moves_before: string | null }} GameView
 */
/**
 * @typedef {{ id: string, variant: string, variant_title: string, mode: string, human_color: Color | null,
 *   level: number | null, white: string, black: string, result: string, end_reason: string | null,
 *   finished: boolean, move_count: number, created_at: number, updated_at: number }} GameSummary
 */
/** @typedef {{ cp: number | null, mate: number | null, depth: number }} Score */
/** @typedef {{ ply: number, best: LegalMove | null, score: Score }} Analysis */
/** @typedef {{ played: LegalMove | null, position: PositionView }} Played */
/** @typedef {{ legal: boolean, uci?: string, reason?: string, code?: string, args?: Record<string, string> }} Explanation */
/**
 * @typedef {{ version: string, levels: { level: number, name: string }[],
 *   variants: { name: string, title: string, start_fen: string, rules: RulesView }[] }} Info
 */

export class ApiError extends Error {
  /** @param {number} status @param {{ error?: string, kind?: string, reason?: string } | null} body */
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.kind = body && body.kind;
    this.reason = body && body.reason;
  }
}

/**
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function request(method, path, body) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, { error: 'The server cannot be reached', kind: 'network' });
  }
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) throw new ApiError(res.status, typeof data === 'object' ? data : { error: String(data) });
  return data;
}

const enc = encodeURIComponent;
// The server answers /api/explain once it has it; until then (404) the page
// says something general instead, and stops asking.
let explainMissing = false;

export const api = {
  /** @returns {Promise<Info>} */
  info: () => request('GET', '/api/info'),
  /** @returns {Promise<GameSummary[]>} */
  games: () => request('GET', '/api/games'),
  /** @param {string} id @returns {Promise<GameView>} */
  game: (id) => request('GET', `/api/games/${enc(id)}`),
  /** @param {object} body @returns {Promise<GameView>} */
  create: (body) => request('POST', '/api/games', body),
  /** @param {string} id */
  remove: (id) => request('DELETE', `/api/games/${enc(id)}`),
  /** @param {string} id @param {string} move @param {number} ply @returns {Promise<GameView>} */
  move: (id, move, ply) => request('POST', `/api/games/${enc(id)}/moves`, { move, ply }),
  /** @param {string} id @returns {Promise<GameView>} */
  takeback: (id) => request('POST', `/api/games/${enc(id)}/takeback`),
  /** @param {string} id @returns {Promise<GameView>} */
  resign: (id) => request('POST', `/api/games/${enc(id)}/resign`),
  /** @param {string} id @returns {Promise<{ accepted: boolean, message: string, game: GameView }>} */
  draw: (id) => request('POST', `/api/games/${enc(id)}/draw`),
  /** @param {string} id @returns {Promise<Analysis>} */
  hint: (id) => request('POST', `/api/games/${enc(id)}/hint`),
  /** @param {string} id @param {number} ply @returns {Promise<Analysis>} */
  evaluate: (id, ply) => request('GET', `/api/games/${enc(id)}/eval?ply=${ply}`),
  /** @param {string} id @returns {Promise<string>} */
  pgn: (id) => request('GET', `/api/games/${enc(id)}/pgn`),
  /** @param {string} variant @param {string} fen @param {string} [move] @returns {Promise<Played>} */
  position: (variant, fen, move) => request('POST', '/api/position', { variant, fen, move }),
  /**
   * Why a move is not legal (or that it is), without playing it; null when
   * the server cannot say (an older server without the endpoint, no network).
   * @param {string} variant @param {string} fen @param {string} move
   * @returns {Promise<Explanation | null>}
   */
  explain: async (variant, fen, move) => {
    if (explainMissing) return null;
    try {
      return await request('POST', '/api/explain', { variant, fen, move });
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 405)) explainMissing = true;
      return null;
    }
  },
  // Online play: the seat is a cookie the server sets (HttpOnly: never seen here).
  /** @param {object} body @returns {Promise<GameView>} */
  online: (body) => request('POST', '/api/online', body),
  /** @param {string} id @returns {Promise<GameView>} */
  join: (id) => request('POST', `/api/games/${enc(id)}/join`, {}),
  /** @param {string} id @param {object} action @returns {Promise<GameView>} */
  act: (id, action) => request('POST', `/api/games/${enc(id)}/act`, action),
};

// One WebSocket, resubscribing after every reconnection (the server sends a
// whole snapshot on subscription, so a page always resyncs after a drop).
// A socket that has heard nothing for a while (a laptop that slept, a
// network gone without a goodbye) is given up and replaced.
const PING_EVERY = 15000;
const SILENCE_LIMIT = 40000;

/** @typedef {{ type: string, [key: string]: any }} ServerMessage */

export class Live {
  /** @param {(msg: ServerMessage) => void} onEvent @param {(up: boolean) => void} onStatus */
  constructor(onEvent, onStatus) {
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    /** @type {Set<string>} */
    this.topics = new Set();
    this.delay = 300;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.heard = Date.now();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retry = undefined;
    this.connect();
    setInterval(() => this.keepAlive(), PING_EVERY);
    window.addEventListener('online', () => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) this.reconnect();
    });
  }

  keepAlive() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > SILENCE_LIMIT) {
      this.onStatus(false);
      this.reconnect();
      return;
    }
    this.send({ type: 'ping' });
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/ws`);
    this.ws = ws;
    this.heard = Date.now();
    ws.addEventListener('open', () => {
      this.delay = 300;
      this.onStatus(true);
      for (const t of this.topics) this.send({ type: 'subscribe', topic: t });
    });
    ws.addEventListener('message', (e) => {
      if (this.ws !== ws) return; // an old socket's last words
      this.heard = Date.now();
      let msg;
      try { msg = JSON.parse(e.data); } catch (_) { return; }
      if (msg.type === 'resync') {
        this.send({ type: 'subscribe', topic: msg.topic });
        return;
      }
      this.onEvent(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.onStatus(false);
      clearTimeout(this.retry);
      this.retry = setTimeout(() => { if (this.ws === ws) this.connect(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    });
  }

  // A new connection at once: the cookies sent when a socket opens are the
  // ones it plays with, so after taking a seat the socket must be new.
  reconnect() {
    const old = this.ws;
    this.ws = null;
    clearTimeout(this.retry);
    if (old) old.close();
    this.connect();
  }

  /** @param {object} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Follows one topic (or none, with null). @param {string | null} topic */
  follow(topic) {
    for (const t of this.topics) if (t !== topic) this.send({ type: 'unsubscribe', topic: t });
    this.topics = new Set(topic ? [topic] : []);
    if (topic) this.send({ type: 'subscribe', topic });
  }
}
