// @ts-check
// Talking to the server: JSON requests and the live-update WebSocket. The
// types below are the server's views: those the WebSocket's events carry
// are generated from the Rust types (generated/events.ts, by
// crates/server/tests/typescript.rs), the others written here after
// crates/server/src/views/ and http/views/.

import { frozen } from './frozen.js';

/** @typedef {import('./board/types.js').Color} Color */
/** @typedef {import('./board/types.js').LegalMove} LegalMove */
/** @typedef {import('./board/types.js').Path} Path */
/** @typedef {import('./board/types.js').Geometry} Geometry */
/** @typedef {import('./board/types.js').Hands} Hands */

/** @typedef {import('./generated/events.js').EndView} EndView */
/** @typedef {import('./generated/events.js').RulesView} RulesView */
/**
 * A position as the page keeps it: the server's, but the legal moves after
 * a move event are the page's own, expanded from their compact form
 * (without SAN).
 * @typedef {Omit<import('./generated/events.js').PositionView, 'legal'> & { legal: LegalMove[] }} PositionView
 */
/** @typedef {import('./generated/events.js').HistoryEntry} HistoryEntry */
/** @typedef {import('./generated/events.js').SeatView} SeatView */
/** @typedef {import('./generated/events.js').ClockView} ClockView */
/** @typedef {import('./generated/events.js').OnlineView} OnlineView */
/**
 * A game as the page keeps it: the server's, with the page's position.
 * @typedef {Omit<import('./generated/events.js').GameView, 'position'> & { position: PositionView }} GameView
 */
/** @typedef {import('./generated/events.js').GameSummaryView} GameSummary */
/** @typedef {import('./generated/events.js').GameListView} GameList */
/** @typedef {import('./generated/events.js').RatingView} RatingView */
/** @typedef {import('./generated/events.js').GameRatingsView} GameRatings */
/** @typedef {import('./generated/events.js').RatingsView} Ratings */
/** @typedef {import('./generated/events.js').MeView} MeView */
/** @typedef {import('./generated/events.js').ProfileView} ProfileView */
/** @typedef {import('./generated/events.js').FoundPlayerView} FoundPlayer */
/** A side of a game as lichess's export shows it: a player's user, or a name (the engine). @typedef {import('./generated/events.js').ExportedSideView} ExportedSide */
/** A game as lichess's export shows it (`GET /api/games/user/{name}`, NDJSON). @typedef {import('./generated/events.js').ExportedGameView} ExportedGame */
/** @typedef {import('./generated/events.js').ClockSpecView} ClockSpec */
/** @typedef {import('./generated/events.js').ListedBotView} ListedBot */
/** @typedef {import('./generated/events.js').BotsView} BotsView */
/** @typedef {import('./generated/events.js').TokenView} TokenView */
/** @typedef {import('./generated/events.js').NewTokenView} NewTokenView */
/** @typedef {import('./generated/events.js').TokensView} TokensView */
/** @typedef {import('./generated/events.js').RatedPlayerView} SeekPlayer */
/** @typedef {import('./generated/events.js').SeekView} SeekView */
/** @typedef {import('./generated/events.js').SeekRequest} SeekRequest */
/**
 * The answer to a draw offer, its game as the page keeps it.
 * @typedef {Omit<import('./generated/events.js').DrawAnswerView, 'game'> & { game: GameView }} DrawAnswer
 */
/** @typedef {import('./generated/events.js').ScoreView} Score */
/** @typedef {import('./generated/events.js').AnalysisView} Analysis */
/**
 * A mini-board's position after a move, as the page keeps positions.
 * @typedef {Omit<import('./generated/events.js').PlayedView, 'position'> & { position: PositionView }} Played
 */
/** @typedef {import('./generated/events.js').ExplainView} Explanation */
/** @typedef {import('./generated/events.js').ChatRoom} ChatRoom */
/**
 * A chat line: `seat` names a player's seat in the players' room; `text`
 * is shown as text, never as HTML.
 * @typedef {import('./generated/events.js').ChatLineView} ChatLine
 */
/** @typedef {import('./generated/events.js').ChatView} ChatView */
/** @typedef {import('./generated/events.js').RatedPlayerView} ChallengePlayer */
/** @typedef {import('./generated/events.js').ChallengeView} ChallengeView */
/** @typedef {import('./generated/events.js').ChallengesView} ChallengesView */
/** @typedef {import('./generated/events.js').CorrespondenceGameView} CorrespondenceGame */
/** @typedef {import('./generated/events.js').CorrespondenceView} CorrespondenceView */
/** @typedef {import('./generated/events.js').ChallengeRequest} ChallengeRequest */
/** @typedef {import('./generated/events.js').TournamentKind} TournamentKind */
/** @typedef {import('./generated/events.js').TournamentSummaryView} TournamentSummary */
/** @typedef {import('./generated/events.js').PlayerView} TournamentPlayer */
/**
 * An arena game's points and marks: `berserk` says the player berserked,
 * `berserk_bonus` that it earned its point.
 * @typedef {import('./generated/events.js').SheetMarkView} SheetMark
 */
/**
 * A round of a crosstable line: the opponent's rank, the colour, the result
 * (`1` `½` `0` `+` `-`, `*` while played), or a bye and its points.
 * @typedef {import('./generated/events.js').RoundCellView} RoundCell
 */
/** @typedef {import('./generated/events.js').StandingView} StandingView */
/** @typedef {import('./generated/events.js').PairingView} PairingView */
/** @typedef {import('./generated/events.js').PairedGameView} PairedGame */
/** @typedef {import('./generated/events.js').RoundView} RoundView */
/** @typedef {import('./generated/events.js').PlayerGameView} PlayerGame */
/** @typedef {import('./generated/events.js').PlayerGamesView} PlayerGames */
/** @typedef {import('./generated/events.js').TournamentView} TournamentView */
/**
 * A tournament as its topic tells it (tournaments/news.js): a line that did not
 * change since the last news is named by its key and version, a standing with
 * its rank now.
 * @typedef {import('./generated/events.js').TournamentNewsView} TournamentNews
 */
/** @typedef {import('./generated/events.js').TournamentsView} TournamentsView */
/** @typedef {import('./generated/events.js').FeaturedGame} FeaturedGame */
/** @typedef {import('./generated/events.js').DailyPuzzle} DailyPuzzle */
/** @typedef {import('./generated/events.js').SiteView} SiteView */
/** @typedef {import('./generated/events.js').CreateTournamentRequest} TournamentRequest */
/** @typedef {import('./generated/events.js').GameTournamentView} GameTournament */
/** @typedef {import('./generated/events.js').PlayerView} SeatPlayer */
/** @typedef {import('./generated/events.js').GamePlayersView} GamePlayers */
/** @typedef {import('./generated/events.js').InfoView} Info */

/**
 * A request the server refused, or that never reached it: a value carrying
 * the server's refusal `kind` (`error.<kind>` in the catalogues; `network`
 * when the server cannot be reached), the HTTP status (0 without an
 * answer), the server's own sentence, and for a 429 or 503 the seconds its
 * `Retry-After` asked to wait.
 */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{ error?: string, message?: string, kind?: string, reason?: string, code?: string,
   *   args?: Record<string, string> } | null} body
   * @param {number | null} [retryAfter] seconds to wait (a 429's or 503's Retry-After)
   */
  constructor(status, body, retryAfter = null) {
    super((body && (body.error || body.message)) || `HTTP ${status}`);
    this.status = status;
    /** @type {string} */
    this.kind = (body && body.kind) || (status === 0 ? 'network' : 'unknown');
    this.reason = body && body.reason;
    this.code = body && body.code;
    this.args = body && body.args;
    this.retryAfter = retryAfter;
  }

  /** Whether the server asked to be asked again later (429, 503). */
  get busy() {
    return this.status === 429 || this.status === 503;
  }
}

/**
 * What a request gives: its value, or the error as a value.
 * @template T
 * @typedef {{ ok: true, value: T } | { ok: false, error: ApiError }} Result
 */

/**
 * @typedef {object} RequestOptions
 * @property {boolean} [idempotent] asking twice does no harm (GET, PUT and
 *   DELETE are; a POST that only computes, like /api/position, says so):
 *   a 429 or 503 is then asked again after its Retry-After, a few times
 * @property {number} [retries] how many times at most (default 2)
 * @property {string} [accept] the answer's type asked for (`Accept`):
 *   `application/x-ndjson` gives one value a line, read as an array
 */

/** The longest wait between two tries, whatever Retry-After says (s). */
const MAX_RETRY_WAIT = 8;
const IDEMPOTENT = frozen(['GET', 'HEAD', 'PUT', 'DELETE']);

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The number of requests in flight, on <html data-requests> (tests wait for
 * it to be 0 before checking that nothing happened).
 * @param {number} delta
 */
function inFlight(delta) {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  root.dataset.requests = String(Math.max(0, (parseInt(root.dataset.requests || '0', 10) || 0) + delta));
}

/**
 * The page's one way to ask the server: JSON in and out, `Content-Type:
 * application/json` on every request that is not a GET (the server refuses
 * others: a form on another site cannot say it), never throwing: the
 * answer's value, or the error as a value ({@link ApiError}). A busy server
 * (429, 503) is asked again after its `Retry-After` when asking twice is
 * harmless, a bounded number of times; otherwise its error says when to try
 * again (see `serverError` in i18n.js).
 * @param {string} method @param {string} path @param {unknown} [body] @param {RequestOptions} [opts]
 * @returns {Promise<Result<any>>}
 */
export async function call(method, path, body, opts = {}) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: {} };
  if (method !== 'GET' && method !== 'HEAD') init.headers['Content-Type'] = 'application/json';
  if (opts.accept) init.headers.Accept = opts.accept;
  if (body !== undefined) init.body = JSON.stringify(body);
  const again = opts.idempotent ?? IDEMPOTENT.includes(method);
  const retries = again ? (opts.retries ?? 2) : 0;
  inFlight(1);
  try {
    for (let attempt = 0; ; attempt++) {
      const r = await once(path, init);
      if (r.ok || !r.error.busy || attempt >= retries) return r;
      await sleep(1000 * Math.min(Math.max(r.error.retryAfter ?? 1, 0.2), MAX_RETRY_WAIT));
    }
  } finally {
    inFlight(-1);
  }
}

/** @param {string} path @param {RequestInit} init @returns {Promise<Result<any>>} */
async function once(path, init) {
  let res;
  try {
    res = await fetch(path, init);
  } catch (_) {
    return { ok: false, error: new ApiError(0, { error: 'The server cannot be reached', kind: 'network' }) };
  }
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('ndjson') ? await lines(res)
    : type.includes('json') ? await res.json().catch(() => null) : await res.text().catch(() => '');
  if (res.ok) return { ok: true, value: data };
  const retry = parseFloat(res.headers.get('Retry-After') || '');
  const errBody = data && typeof data === 'object' ? data : { error: String(data || '') || undefined };
  return { ok: false, error: new ApiError(res.status, errBody, Number.isFinite(retry) ? retry : null) };
}

/** An NDJSON answer's values (null when it does not read). @param {Response} res */
async function lines(res) {
  try {
    return (await res.text()).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  } catch (_) {
    return null;
  }
}

/**
 * {@link call}, for callers that would rather catch: the value, or the
 * {@link ApiError} thrown.
 * @param {string} method @param {string} path @param {unknown} [body] @param {RequestOptions} [opts]
 * @returns {Promise<any>}
 */
export async function request(method, path, body, opts) {
  const r = await call(method, path, body, opts);
  if (!r.ok) throw r.error;
  return r.value;
}

const enc = encodeURIComponent;

export const api = frozen({
  /** @returns {Promise<Info>} */
  info: () => request('GET', '/api/info'),
  /**
   * A page of the asker's own games, newest first; `next` is the cursor of
   * the page after it (null on the last).
   * @param {{ limit?: number, cursor?: string | null }} [page] @returns {Promise<GameList>}
   */
  games: ({ limit, cursor } = {}) => {
    const q = new URLSearchParams();
    if (limit) q.set('limit', String(limit));
    if (cursor) q.set('cursor', cursor);
    const query = q.toString();
    return request('GET', `/api/games${query ? `?${query}` : ''}`);
  },
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
  /** @param {string} id @returns {Promise<DrawAnswer>} */
  draw: (id) => request('POST', `/api/games/${enc(id)}/draw`),
  /** @param {string} id @returns {Promise<Analysis>} */
  hint: (id) => request('POST', `/api/games/${enc(id)}/hint`),
  /** @param {string} id @param {number} ply @returns {Promise<Analysis>} */
  evaluate: (id, ply) => request('GET', `/api/games/${enc(id)}/eval?ply=${ply}`),
  /** @param {string} id @returns {Promise<string>} */
  pgn: (id) => request('GET', `/api/games/${enc(id)}/pgn`),
  /**
   * The legal moves of a position (after `moves` played from `fen`, so that
   * repetitions count), optionally after one more `move`.
   * @param {string} variant @param {string} fen @param {string} [move] @param {string[]} [moves]
   * @returns {Promise<Played>}
   */
  position: (variant, fen, move, moves = []) => request('POST', '/api/position', { variant, fen, move, moves }, { idempotent: true }),
  /**
   * Why a move is not legal (or that it is), without playing it; null when
   * the server cannot say (an older server without the endpoint, no network).
   * @param {string} variant @param {string} fen @param {string} move
   * @returns {Promise<Explanation | null>}
   */
  explain: async (variant, fen, move) => {
    // A server without /api/explain (404) is not asked again by this page:
    // the page says something general instead. That is the page's to know
    // (<html data-no-explain>, as the requests in flight), not this module's.
    const root = typeof document === 'undefined' ? null : document.documentElement;
    if (root && root.dataset.noExplain) return null;
    try {
      return await request('POST', '/api/explain', { variant, fen, move }, { idempotent: true });
    } catch (e) {
      if (root && e instanceof ApiError && (e.status === 404 || e.status === 405)) root.dataset.noExplain = '1';
      return null;
    }
  },
  // Online play: the seat is a cookie the server sets (HttpOnly: never seen here).
  /** @param {object} body @returns {Promise<GameView>} */
  online: (body) => request('POST', '/api/online', body),
  /** @param {string} id @returns {Promise<GameView>} */
  join: (id) => request('POST', `/api/games/${enc(id)}/join`, {}),
  /** @param {string} id @param {import('./generated/events.js').OnlineAction} action @returns {Promise<GameView>} */
  act: (id, action) => request('POST', `/api/games/${enc(id)}/act`, action),
  // Players: the identity is an HttpOnly cookie (tcid) the server sets.
  /** @returns {Promise<MeView>} */
  me: () => request('GET', '/api/me'),
  /** @param {string} name @returns {Promise<MeView>} */
  rename: (name) => request('PATCH', '/api/me', { name }),
  /** @param {string} username @param {string} password @returns {Promise<MeView>} */
  register: (username, password) => request('POST', '/api/account/register', { username, password }),
  /** @param {string} username @param {string} password @returns {Promise<MeView>} */
  login: (username, password) => request('POST', '/api/account/login', { username, password }),
  /** @returns {Promise<MeView>} the new guest */
  logout: () => request('POST', '/api/account/logout'),
  /** @param {string} username @returns {Promise<ProfileView>} */
  profile: (username) => request('GET', `/api/players/${enc(username)}`),
  /**
   * A player's finished games that `query` finds (lichess's export:
   * `vs`, `variant`, `speeds`, `result`, `rated`, `since`, `until`,
   * `play`, `fen`, `max`), newest first.
   * @param {string} username @param {URLSearchParams} query @returns {Promise<ExportedGame[]>}
   */
  userGames: (username, query) => request('GET', `/api/games/user/${enc(username)}?${query}`, undefined,
    { accept: 'application/x-ndjson' }),
  // The lobby.
  /** @returns {Promise<SeekView[]>} */
  seeks: () => request('GET', '/api/seeks'),
  /** @param {SeekRequest} seek @returns {Promise<SeekView>} */
  postSeek: (seek) => request('POST', '/api/seeks', seek),
  /** @param {string} id */
  cancelSeek: (id) => request('DELETE', `/api/seeks/${enc(id)}`),
  /** @param {string} id @returns {Promise<GameView>} the new online game */
  acceptSeek: (id) => request('POST', `/api/seeks/${enc(id)}/accept`, {}),
});

// Chat and challenges: every answer a value (`call`), the error one too.
export const social = frozen({
  /** An online game's seats' players and accounts. @param {string} id @returns {Promise<Result<GamePlayers>>} */
  gamePlayers: (id) => call('GET', `/api/games/${enc(id)}/players`),
  /** @param {string} id @param {ChatRoom} room @returns {Promise<Result<ChatView>>} */
  chat: (id, room) => call('GET', `/api/games/${enc(id)}/chat?room=${room}`),
  /** @param {string} id @param {ChatRoom} room @param {string} text @returns {Promise<Result<ChatLine>>} */
  say: (id, room, text) => call('POST', `/api/games/${enc(id)}/chat`, { room, text }),
  /** The other side's lines hidden (or shown again). @param {string} id @param {boolean} muted @returns {Promise<Result<null>>} */
  mute: (id, muted) => call('POST', `/api/games/${enc(id)}/chat/mute`, { muted }),
  /** @param {number} line @returns {Promise<Result<null>>} */
  report: (line) => call('POST', `/api/chat/${line}/report`, {}),
  /** @returns {Promise<Result<ChallengesView>>} */
  challenges: () => call('GET', '/api/challenges'),
  /** @param {ChallengeRequest} req @returns {Promise<Result<ChallengeView>>} */
  challenge: (req) => call('POST', '/api/challenges', req),
  /** @param {string} id @returns {Promise<Result<ChallengeView>>} with its `game` */
  accept: (id) => call('POST', `/api/challenges/${enc(id)}/accept`, {}),
  /** @param {string} id @param {string} reason @returns {Promise<Result<ChallengeView>>} */
  decline: (id, reason) => call('POST', `/api/challenges/${enc(id)}/decline`, reason ? { reason } : {}),
  /** @param {string} id @returns {Promise<Result<null>>} */
  withdraw: (id) => call('DELETE', `/api/challenges/${enc(id)}`),
  /** The player's correspondence games in progress. @returns {Promise<Result<CorrespondenceView>>} */
  correspondence: () => call('GET', '/api/correspondence'),
});

// Bots and their authors' tokens: every answer a value (`call`), the refusal one too.
export const bots = frozen({
  /** The bot accounts, those online first. @returns {Promise<Result<BotsView>>} */
  list: () => call('GET', '/api/bots'),
  /** The account's API tokens (never the tokens themselves). @returns {Promise<Result<{ tokens: TokenView[] }>>} */
  tokens: () => call('GET', '/api/account/tokens'),
  /** A new token, shown this once. @param {string} description @param {string[]} scopes @returns {Promise<Result<NewTokenView>>} */
  makeToken: (description, scopes) => call('POST', '/api/account/tokens', { description, scopes }),
  /** @param {string} id @returns {Promise<Result<null>>} */
  revokeToken: (id) => call('DELETE', `/api/account/tokens/${enc(id)}`),
});

// Tournaments: every answer a value (`call`), the refusal one too.
export const tournaments = frozen({
  /** @returns {Promise<Result<TournamentsView>>} */
  list: () => call('GET', '/api/tournaments'),
  /** @param {string} id @returns {Promise<Result<TournamentView>>} */
  get: (id) => call('GET', `/api/tournaments/${enc(id)}`),
  /** @param {TournamentRequest} req @returns {Promise<Result<TournamentView>>} */
  create: (req) => call('POST', '/api/tournaments', req),
  /** @param {string} id @param {'join' | 'withdraw' | 'pause'} what @returns {Promise<Result<TournamentView>>} */
  act: (id, what) => call('POST', `/api/tournaments/${enc(id)}/${what}`, {}),
  /** The tournament a game was paired in (null: none). @param {string} id @returns {Promise<Result<GameTournament | null>>} */
  ofGame: (id) => call('GET', `/api/games/${enc(id)}/tournament`),
  /** @param {string} id @returns {Promise<Result<GameView>>} */
  berserk: (id) => call('POST', `/api/games/${enc(id)}/berserk`, {}),
  /** A round's games and byes. @param {string} id @param {number} round @returns {Promise<Result<RoundView>>} */
  round: (id, round) => call('GET', `/api/tournaments/${enc(id)}/round/${round}`),
  /** A player's games in it. @param {string} id @param {string} player @returns {Promise<Result<PlayerGames>>} */
  playerGames: (id, player) => call('GET', `/api/tournaments/${enc(id)}/players/${enc(player)}`),
  /** A line in its chat. @param {string} id @param {string} text @returns {Promise<Result<ChatLine>>} */
  say: (id, text) => call('POST', `/api/tournaments/${enc(id)}/chat`, { text }),
  /** Where its games (PGN) are downloaded. @param {string} id */
  pgnHref: (id) => `/api/tournaments/${enc(id)}/games`,
  /** Where a Swiss's TRF report is downloaded. @param {string} id */
  trfHref: (id) => `/api/tournaments/${enc(id)}/trf`,
});

// One WebSocket for the whole page, resubscribing after every reconnection
// (the server sends a whole snapshot on subscription, so a page always
// resyncs after a drop). Several parts of the page follow topics on it (the
// game page its game, the lobby its seeks), each under its own name. A
// socket that has heard nothing for a while (a laptop that slept, a network
// gone without a goodbye) is given up and replaced.
const PING_EVERY = 15000;
const SILENCE_LIMIT = 40000;

/**
 * What the socket sends: the server's `ServerEvent` (generated/events.ts).
 * @typedef {import('./generated/events.js').ServerEvent} ServerMessage
 */

/**
 * The topic an event belongs to, if it names one.
 * @param {ServerMessage} msg @returns {string | null}
 */
export function topicOf(msg) {
  return 'topic' in msg ? msg.topic : null;
}

export class Live {
  constructor() {
    /** @type {Set<(msg: ServerMessage) => void>} */
    this.listeners = new Set();
    /** @type {Set<(up: boolean) => void>} */
    this.statusListeners = new Set();
    /** @type {Map<string, string>} the topic each follower follows */
    this.following = new Map();
    this.delay = 300;
    /** Set when the server said this player may not connect (banned). */
    this.halted = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.up = false;
    this.heard = Date.now();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retry = undefined;
    this.connect();
    setInterval(() => this.keepAlive(), PING_EVERY);
    window.addEventListener('online', () => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) this.reconnect();
    });
  }

  /** Calls `f` with every message. @param {(msg: ServerMessage) => void} f */
  listen(f) {
    this.listeners.add(f);
  }

  /** Calls `f` whenever the socket goes up or down. @param {(up: boolean) => void} f */
  onStatus(f) {
    this.statusListeners.add(f);
  }

  /** @param {boolean} up */
  setUp(up) {
    this.up = up;
    for (const f of this.statusListeners) f(up);
  }

  /** The topics followed by anyone. */
  topics() {
    return new Set(this.following.values());
  }

  keepAlive() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > SILENCE_LIMIT) {
      this.setUp(false);
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
      this.setUp(true);
      for (const t of this.topics()) this.send({ type: 'subscribe', topic: t });
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
      for (const f of this.listeners) f(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws || this.halted) return;
      this.setUp(false);
      clearTimeout(this.retry);
      this.retry = setTimeout(() => { if (this.ws === ws) this.connect(); }, this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    });
  }

  /** No more connections: the server refuses this player (a ban). */
  halt() {
    this.halted = true;
    clearTimeout(this.retry);
    if (this.ws) this.ws.close();
    this.ws = null;
    this.setUp(false);
  }

  // A new connection at once: a socket speaks for the player whose identity
  // cookie it was opened with, so after logging in or out it must be new.
  // (Closing the player's last socket also ends their open seeks.)
  reconnect() {
    if (this.halted) return;
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

  /**
   * Subscribes to `who`'s topic again: the server then takes the
   * subscription as the player is now (a seat just taken counts as present).
   * @param {string} who
   */
  refollow(who) {
    const topic = this.following.get(who);
    if (topic) this.send({ type: 'subscribe', topic });
  }

  /**
   * `who` follows one topic from now on (or none, with null): the topic it
   * followed before is left, unless someone else still follows it. A topic
   * newly followed answers with its snapshot.
   * @param {string} who @param {string | null} topic
   */
  follow(who, topic) {
    const before = this.following.get(who) || null;
    if (before === topic) return; // followed already (a reconnection resubscribes by itself)
    if (topic) this.following.set(who, topic);
    else this.following.delete(who);
    const now = this.topics();
    if (before && before !== topic && !now.has(before)) this.send({ type: 'unsubscribe', topic: before });
    if (topic) this.send({ type: 'subscribe', topic });
  }
}
