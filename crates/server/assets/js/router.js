// @ts-check
// Hash routes (`#/` the lobby, `#/game/ID`, `#/player/NAME`; analysis and
// puzzles to come): each route a pattern and a page; the first that matches
// the address runs, on load and on every change. Each page owns an element
// of index.html (`<main data-page="NAME">`), shown while it is the current
// page; a page that is left gets its `leave` called, so it can stop what it
// runs; another page starts at the top of the window. A hash that is no
// route (`#main`, an anchor in the page) changes nothing.
//
// A new page: its <main data-page="NAME"> in index.html, a module with
// `enter(params)` (and `leave()`), and a route in app.js.

/**
 * @typedef {{ name: string, enter: (params: string[]) => void | Promise<void>, leave?: () => void }} Page
 * @typedef {{ pattern: RegExp, page: Page }} Route
 */

export class Router {
  /** @param {Route[]} routes @param {Page} fallback for `#/` and any address no route matches */
  constructor(routes, fallback) {
    this.routes = routes;
    this.fallback = fallback;
    /** @type {Page | null} */
    this.current = null;
    /** @type {string | undefined} the page and parameters shown last */
    this.shown = undefined;
    window.addEventListener('hashchange', () => this.run());
  }

  /** Shows the page of the address (again, when it is already shown). */
  run() {
    const hash = location.hash || '#/';
    if (!hash.startsWith('#/')) return;
    for (const r of this.routes) {
      const m = hash.match(r.pattern);
      if (m) return this.show(r.page, m.slice(1));
    }
    return this.show(this.fallback, []);
  }

  /** @param {Page} page @param {string[]} params */
  show(page, params) {
    if (this.current && this.current !== page && this.current.leave) this.current.leave();
    // Another page (or another game, player…) starts at its top, not where
    // the last one was scrolled to; the same one shown again stays put.
    const address = `${page.name}/${params.join('/')}`;
    if (this.shown !== undefined && this.shown !== address) window.scrollTo(0, 0);
    this.shown = address;
    this.current = page;
    for (const root of document.querySelectorAll('[data-page]')) {
      if (root === document.body) continue;
      root.classList.toggle('hidden', /** @type {HTMLElement} */ (root).dataset.page !== page.name);
    }
    document.body.dataset.page = page.name;
    return page.enter(params);
  }

  /** @param {string} hash */
  static go(hash) {
    location.hash = hash;
  }
}
