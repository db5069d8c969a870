// @ts-check
// A page of the documentation (docs.html, served at /docs/bots with
// docs/bots.md as HTML in its article): the site's header and footer around
// it, in the player's language; the document itself is in English (its
// article says so, `lang="en"`). Importing this module does nothing:
// docs.html calls `start()`.

import { I18n } from './i18n.js';
import { Player } from './player.js';
import { mountSite } from './ui/site.js';

/** Starts the page (docs.html calls it). */
export function start() {
  const i18n = new I18n(document);
  const player = new Player();
  mountSite({ i18n, player, current: 'bots' });
  // The section asked for by the address, once the header is in (it moves the page).
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) target.scrollIntoView();
}
