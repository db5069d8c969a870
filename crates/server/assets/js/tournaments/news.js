// @ts-check
// A tournament's news as its topic tells it (src/views/tournament_news.rs):
// the first lines of the standings and the best games, each whole only
// when it changed since the last news, else named by its key and version
// (`["player", v, rank]`, `["game", v]`), which the page holds already.
// A line named at a version the page does not hold (a news missed, a
// page that has only just come) makes the news unreadable: the page then
// asks for the whole view.

/** @typedef {import('../api.js').TournamentView} TournamentView */
/** @typedef {import('../api.js').TournamentNews} TournamentNews */
/** @typedef {import('../api.js').StandingView} StandingView */
/** @typedef {import('../api.js').PairingView} PairingView */

/**
 * The view the news describes, with the lines it names taken from `held`
 * (the view the page shows); null when a line named is not held at its
 * version.
 * @param {TournamentNews} news
 * @param {TournamentView | null} held
 * @returns {TournamentView | null}
 */
export function readNews(news, held) {
  /** @type {Map<string, StandingView>} */
  const lines = new Map();
  /** @type {Map<string, PairingView>} */
  const games = new Map();
  if (held && held.id === news.id) {
    for (const s of held.standings) lines.set(s.player.id, s);
    if (held.you && held.you.standing) lines.set(held.you.standing.player.id, held.you.standing);
    for (const p of held.pairings) games.set(p.game, p);
  }
  /** @type {StandingView[]} */
  const standings = [];
  for (const s of news.standings) {
    if (!Array.isArray(s)) {
      standings.push(s);
      continue;
    }
    const [id, v, rank] = s;
    const line = lines.get(id);
    if (!line || line.v !== v) return null;
    standings.push({ ...line, rank });
  }
  /** @type {PairingView[]} */
  const pairings = [];
  for (const p of news.pairings) {
    if (!Array.isArray(p)) {
      pairings.push(p);
      continue;
    }
    const [id, v] = p;
    const game = games.get(id);
    if (!game || game.v !== v) return null;
    pairings.push(game);
  }
  return { ...news, standings, pairings };
}

/**
 * The view with only the lines the news tells whole.
 * @param {TournamentNews} news
 * @returns {TournamentView}
 */
export function wholeLines(news) {
  /** @type {StandingView[]} */
  const standings = [];
  for (const s of news.standings) if (!Array.isArray(s)) standings.push(s);
  /** @type {PairingView[]} */
  const pairings = [];
  for (const p of news.pairings) if (!Array.isArray(p)) pairings.push(p);
  return { ...news, standings, pairings };
}
