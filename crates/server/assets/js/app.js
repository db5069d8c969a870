// @ts-check
// The app's entry: languages, the header (settings, and the player with
// their account), and the router that shows a page for the address: the
// lobby (`#/`, the home page: opening the page starts no game), a game
// (`#/game/ID`), a player's profile (`#/player/NAME`).

import { applyI18n, serverError } from './i18n.js';
import { setupHeader } from './ui/header.js';
import { setupAccount } from './ui/account.js';
import { Router } from './router.js';
import { api } from './api.js';
import { loadPlayer, onPlayerChange, newIdentity } from './player.js';
import { gamePage, setInfo, redrawBoard } from './game/page.js';
import { lobbyPage } from './lobby/page.js';
import { profilePage } from './profile/page.js';

/** The skip link takes the focus to the main part of the page shown (not by the address: that is the route). */
function setupSkipLink() {
  const link = /** @type {HTMLElement} */ (document.querySelector('#skip-link'));
  link.addEventListener('click', (e) => {
    e.preventDefault();
    const target = /** @type {HTMLElement | null} */ (document.querySelector('main:not(.hidden) [data-skip-target]'));
    if (target) target.focus();
  });
}

async function main() {
  applyI18n(document);
  setupHeader({ onTheme: redrawBoard });
  setupAccount();
  setupSkipLink();
  const router = new Router([
    { pattern: /^#\/game\/([A-Za-z0-9_-]+)/, page: gamePage },
    { pattern: /^#\/player\/([^/?#]+)/, page: profilePage },
  ], lobbyPage);
  onPlayerChange((change) => {
    if (!newIdentity(change)) return;
    // Logged out: what was shown may be the account's own (a local game),
    // so back to the lobby. Logged in: the page shown, for the new player.
    if (change === 'logout' && location.hash && location.hash !== '#/') Router.go('#/');
    else router.run();
  });
  router.run();
  try {
    await loadPlayer();
  } catch (e) {
    document.body.dataset.playerError = serverError(/** @type {any} */ (e));
  }
  try {
    setInfo(await api.info());
  } catch (e) {
    /** @type {HTMLElement} */ (document.querySelector('#status')).textContent = /** @type {Error} */ (e).message;
  }
}

main();
