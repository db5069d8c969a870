// @ts-check
// What every page of the site has, set up by the page's entry function:
// its strings in the player's language, the header (the site's pages, the
// player's menu with their account, the settings) and who the player is.
// Every page has a live connection (the app's own, handed in; else one
// made here) on which the player's challenges arrive, shown under the
// header (ui/challenges.js). The page's language and player (`I18n`,
// `Player`) are made by its entry function and handed in. The app
// (index.html, app.js) has its own routes too; the Rules and learning
// pages call `mountSite` alone.

import { applyI18n } from '../i18n.js';
import { setupHeader } from './header.js';
import { setupSearch } from './search.js';
import { setupAccount } from './account.js';
import { newIdentity } from '../player.js';
import { Live } from '../api.js';
import { createChallenges } from './challenges.js';
import { setupYourTurn } from './your-turn.js';

/** @typedef {import('../i18n.js').I18n} I18n */
/** @typedef {import('../player.js').Player} Player */

/**
 * Sets up what every page has. `i18n` and `player`: the page's language
 * and player (made by its entry function). `live`: the page's live
 * connection (the app's); without one, one is made for the challenges.
 * `openGame`: how the page goes to a game (the app's router; else the
 * app's address).
 * @param {{ i18n: I18n, player: Player, current: import('./header.js').SitePage, onTheme?: () => void, games?: () => void,
 *   live?: Live, openGame?: (id: string) => void }} opts
 * @returns {{ ready: Promise<void>, challenges: ReturnType<typeof createChallenges>,
 *   account: ReturnType<typeof setupAccount> }} `ready` when the player is known (a failure is left to the menu's "…")
 */
export function mountSite(opts) {
  const { i18n, player } = opts;
  applyI18n(document);
  setupHeader(i18n, { onTheme: opts.onTheme, current: opts.current });
  setupSearch(i18n);
  const account = setupAccount({ i18n, player, games: opts.games });
  const live = opts.live || new Live();
  setupYourTurn({ live, i18n, player });
  // The player's connection: told of a ban or an ended session.
  if (player.live !== live) player.bindLive(live);
  const challenges = createChallenges({ live, i18n, player, openGame: opts.openGame });
  if (!opts.games) {
    // Logged in or out on a page that is not the app's: what it shows (a
    // puzzle rating, lesson progress) is the player's, so it is loaded anew.
    player.onChange((change) => { if (newIdentity(change)) location.reload(); });
  }
  // Who this browser is. A page opened while the server restarts, or is
  // too busy to answer, asks again (less often each time) until it knows:
  // the menu says "…" meanwhile.
  const ready = player.load().catch(() => askAgain(() => player.load(), 500));
  return { ready, challenges, account };
}

/**
 * Calls `ask` after `wait` ms, and again after twice as long (at most 10 s)
 * while it fails. @param {() => Promise<void>} ask @param {number} wait
 */
function askAgain(ask, wait) {
  setTimeout(() => {
    ask().catch(() => askAgain(ask, Math.min(wait * 2, 10000)));
  }, wait);
}
