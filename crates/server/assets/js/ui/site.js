// @ts-check
// What every page of the site has, set up by the page's entry function:
// its strings in the player's language, the header (the site's pages, the
// player's menu with their account, the settings) and who the player is.
// The app (index.html, app.js) also has a live connection and its own
// routes; the Rules and learning pages call `mountSite` alone.

import { applyI18n } from '../i18n.js';
import { setupHeader } from './header.js';
import { setupAccount } from './account.js';
import { loadPlayer, onPlayerChange, newIdentity } from '../player.js';

/**
 * @param {{ current: import('./header.js').SitePage, onTheme?: () => void, games?: () => void }} opts
 * @returns {Promise<void>} when the player is known (a failure is left to the menu's "…")
 */
export async function mountSite(opts) {
  applyI18n(document);
  setupHeader({ onTheme: opts.onTheme, current: opts.current });
  setupAccount({ games: opts.games });
  if (!opts.games) {
    // Logged in or out on a page that is not the app's: what it shows (a
    // puzzle rating, lesson progress) is the player's, so it is loaded anew.
    onPlayerChange((change) => { if (newIdentity(change)) location.reload(); });
  }
  try {
    await loadPlayer();
  } catch (_) { /* the menu says "…" until the server answers */ }
}
