// @ts-check
// Hash routes (`#/game/ID`, and more pages to come: a lobby, a player's
// profile, an analysis board, puzzles): each route a pattern and a handler;
// the first that matches the address runs, on load and on every change.
// A page that is left gets its `leave` called, so it can stop what it runs.

/**
 * @typedef {{ enter: (params: string[]) => void | Promise<void>, leave?: () => void }} Page
 * @typedef {{ pattern: RegExp, page: Page }} Route
 */

export class Router {
  /** @param {Route[]} routes @param {Page} fallback for an address no route matches */
  constructor(routes, fallback) {
    this.routes = routes;
    this.fallback = fallback;
    /** @type {Page | null} */
    this.current = null;
    window.addEventListener('hashchange', () => this.run());
  }

  run() {
    const hash = location.hash || '#/';
    for (const r of this.routes) {
      const m = hash.match(r.pattern);
      if (m) return this.show(r.page, m.slice(1));
    }
    return this.show(this.fallback, []);
  }

  /** @param {Page} page @param {string[]} params */
  show(page, params) {
    if (this.current && this.current !== page && this.current.leave) this.current.leave();
    this.current = page;
    return page.enter(params);
  }

  /** @param {string} hash */
  static go(hash) {
    location.hash = hash;
  }
}
