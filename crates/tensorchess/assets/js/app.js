// @ts-check
// The app's entry: languages, the header's settings, and the router that
// shows a page for the address (`#/game/ID` today; the lobby, profiles,
// analysis and puzzles will be routes beside it).

import { applyI18n } from './i18n.js';
import { setupHeader } from './ui/header.js';
import { Router } from './router.js';
import { api } from './api.js';
import { openGame, openDefault, setInfo, redrawBoard } from './game/page.js';

/** @typedef {import('./router.js').Page} Page */

/** @type {Page} */
const gamePage = { name: 'game', enter: ([id]) => openGame(id) };
/** @type {Page} */
const home = { name: 'game', enter: () => openDefault() }; // the last game, or a new one

async function main() {
  applyI18n(document);
  setupHeader({ onTheme: redrawBoard });
  try {
    setInfo(await api.info());
  } catch (e) {
    /** @type {HTMLElement} */ (document.querySelector('#status')).textContent = /** @type {Error} */ (e).message;
  }
  new Router([{ pattern: /^#\/game\/([A-Za-z0-9_-]+)/, page: gamePage }], home).run();
}

main();
