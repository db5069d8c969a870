// Talking to the server: JSON requests and the live-update WebSocket.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `HTTP ${status}`);
    this.status = status;
    this.kind = body && body.kind;
    this.reason = body && body.reason;
  }
}

async function request(method, path, body) {
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

export const api = {
  info: () => request('GET', '/api/info'),
  games: () => request('GET', '/api/games'),
  game: (id) => request('GET', `/api/games/${encodeURIComponent(id)}`),
  create: (body) => request('POST', '/api/games', body),
  remove: (id) => request('DELETE', `/api/games/${encodeURIComponent(id)}`),
  move: (id, move, ply) => request('POST', `/api/games/${encodeURIComponent(id)}/moves`, { move, ply }),
  takeback: (id) => request('POST', `/api/games/${encodeURIComponent(id)}/takeback`),
  resign: (id) => request('POST', `/api/games/${encodeURIComponent(id)}/resign`),
  draw: (id) => request('POST', `/api/games/${encodeURIComponent(id)}/draw`),
  hint: (id) => request('POST', `/api/games/${encodeURIComponent(id)}/hint`),
  evaluate: (id, ply) => request('GET', `/api/games/${encodeURIComponent(id)}/eval?ply=${ply}`),
  pgn: (id) => request('GET', `/api/games/${encodeURIComponent(id)}/pgn`),
  position: (variant, fen, move) => request('POST', '/api/position', { variant, fen, move }),
  // Online play: the seat is a cookie the server sets (HttpOnly: never seen here).
  online: (body) => request('POST', '/api/online', body),
  join: (id) => request('POST', `/api/games/${encodeURIComponent(id)}/join`, {}),
  act: (id, action) => request('POST', `/api/games/${encodeURIComponent(id)}/act`, action),
};

// One WebSocket, resubscribing after every reconnection (the server sends a
// whole snapshot on subscription, so a page always resyncs after a drop).
// A socket that has heard nothing for a while (a laptop that slept, a
// network gone without a goodbye) is given up and replaced.
const PING_EVERY = 15000;
const SILENCE_LIMIT = 40000;

export class Live {
  constructor(onEvent, onStatus) {
    this.onEvent = onEvent;
    this.onStatus = onStatus;
    this.topics = new Set();
    this.delay = 300;
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

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  // Follows one topic (or none, with null).
  follow(topic) {
    for (const t of this.topics) if (t !== topic) this.send({ type: 'unsubscribe', topic: t });
    this.topics = new Set(topic ? [topic] : []);
    if (topic) this.send({ type: 'subscribe', topic });
  }
}
