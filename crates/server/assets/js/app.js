// @ts-check
// The app's entry (index.html): the site's header (ui/site.js), the live
// connection, and the router that shows a page for the address: the lobby
// (`#/`, the home page: a first screen for a newcomer, then the lobby;
// opening it starts no game), a game (`#/game/ID`), a player's profile
// (`#/player/NAME`), the tournaments (`#/tournaments`) and one
// (`#/tournament/ID`), the bots (`#/bots`) and the account's API tokens
// (`#/account`); `#/games` opens the player's games over the lobby.
// Importing this module does nothing: index.html calls `start()`.

import { serverError, I18n } from './i18n.js';
import { mountSite } from './ui/site.js';
import { fillChoices } from './ui/choices.js';
import { Router } from './router.js';
import { api, Live } from './api.js';
import { Player, newIdentity } from './player.js';
import { createGamePage } from './game/page.js';
import { createLobbyPage } from './lobby/page.js';
import { createProfilePage } from './profile/page.js';
import { mountWelcome } from './lobby/welcome.js';
import { createNow } from './lobby/now.js';
import { createTournamentsPage } from './tournaments/list.js';
import { createTournamentPage } from './tournaments/page.js';
import { createBotsPage } from './bots/page.js';
import { createAccountPage } from './account/page.js';
import { markCurrent } from './ui/header.js';

/** The skip link takes the focus to the main part of the page shown (not by the address: that is the route). */
function setupSkipLink() {
  const link = /** @type {HTMLElement} */ (document.querySelector('#skip-link'));
  link.addEventListener('click', (e) => {
    e.preventDefault();
    const target = /** @type {HTMLElement | null} */ (document.querySelector('main:not(.hidden) [data-skip-target]'));
    if (target) target.focus();
  });
}

/**
 * The app's pages and what they share, one of each per page load: made by
 * `start`, handed to what needs them.
 * @typedef {{ i18n: I18n, player: Player, live: Live, game: ReturnType<typeof createGamePage>, lobby: import('./router.js').Page,
 *   profile: import('./router.js').Page, router: Router }} App
 */

/**
 * `#/games`: the lobby, with the player's games open over it.
 * @param {import('./router.js').Page} lobbyPage @param {() => void} openGames
 * @returns {import('./router.js').Page}
 */
function gamesPage(lobbyPage, openGames) {
  return {
    ...lobbyPage,
    enter(params) {
      const r = lobbyPage.enter(params);
      history.replaceState(null, '', '#/');
      openGames();
      return r;
    },
  };
}

/**
 * The home page: the lobby, with what is going on on the site (`now`)
 * asked for while it is shown.
 * @param {import('./router.js').Page} lobbyPage @param {ReturnType<typeof createNow>} now
 * @returns {import('./router.js').Page}
 */
function homePage(lobbyPage, now) {
  return {
    ...lobbyPage,
    enter(params) {
      now.show();
      return lobbyPage.enter(params);
    },
    leave() {
      now.hide();
      if (lobbyPage.leave) lobbyPage.leave();
    },
  };
}

/**
 * `page`, marking `nav` in the header's links while it is shown (none:
 * a page that is none of them, the account's).
 * @param {import('./router.js').Page} page @param {import('./ui/header.js').SitePage | undefined} nav
 * @returns {import('./router.js').Page}
 */
function marked(page, nav) {
  return {
    ...page,
    enter(params) {
      markCurrent(nav);
      return page.enter(params);
    },
  };
}

/** Starts the app (index.html calls it; importing this module does nothing). @returns {Promise<App>} */
export async function start() {
  // The page's language and player, one of each, handed to what needs them.
  const i18n = new I18n(document);
  const player = new Player();
  // The forms' lists, before any page reads or restores a form.
  fillChoices(document);
  const live = new Live();
  player.bindLive(live);
  // The challenge form is the site's (under the header, on every page);
  // the profile and game pages open it for a player.
  /** @param {string} username @param {string} name */
  const challenge = (username, name) => site.challenges.open(username, name);
  const game = createGamePage({ live, i18n, player, challenge });
  const now = createNow({ live, i18n });
  const lobbyPage = homePage(createLobbyPage({
    live, i18n, player,
    openNewGame: (g, mode) => game.openNewGame(g, mode),
    openAccount: (mode) => site.account.openAccount(mode),
  }), now);
  const profilePage = createProfilePage({ i18n, player, challenge });
  const gamePage = game.page;
  const openGames = () => { game.games.open(); };
  const redrawBoard = game.redrawBoard;
  const setInfo = game.setInfo;
  const go = (/** @type {string} */ hash) => Router.go(hash);
  const tournamentsPage = createTournamentsPage({ i18n, go });
  const tournamentPage = createTournamentPage({ live, i18n, player, go });
  const botsPage = createBotsPage({ i18n, player, challenge });
  const accountPage = createAccountPage({ i18n, player, openAccount: (mode) => site.account.openAccount(mode) });
  const router = new Router([
    { pattern: /^#\/game\/([A-Za-z0-9_-]+)/, page: marked(gamePage, 'play') },
    { pattern: /^#\/player\/([^/?#]+)(?:\?(.*))?/, page: marked(profilePage, 'play') },
    { pattern: /^#\/games\/?$/, page: marked(gamesPage(lobbyPage, openGames), 'play') },
    { pattern: /^#\/tournaments\/?$/, page: marked(tournamentsPage, 'tournaments') },
    { pattern: /^#\/tournament\/([A-Za-z0-9_-]+)/, page: marked(tournamentPage, 'tournaments') },
    { pattern: /^#\/bots\/?$/, page: marked(botsPage, 'bots') },
    { pattern: /^#\/account\/?$/, page: marked(accountPage, undefined) },
  ], marked(lobbyPage, 'play'));
  /** @type {{ welcome: import('./lobby/welcome.js').WelcomeState | null }} */
  const boards = { welcome: null };
  // A new board or piece theme: every board of the page draws its pieces
  // anew (their symbols have the same ids in each board's defs).
  const onTheme = () => {
    const b = boards.welcome && boards.welcome.board;
    for (const board of [b, ...now.boards()]) {
      if (!board) continue;
      board.refreshDefs();
      board.render();
    }
    redrawBoard();
  };
  const site = mountSite({ i18n, player, current: 'play', onTheme, games: openGames, live, openGame: (id) => Router.go(`#/game/${id}`) });
  boards.welcome = mountWelcome({ i18n, openGame: (id) => Router.go(`#/game/${id}`) });
  setupSkipLink();
  player.onChange((change) => {
    if (!newIdentity(change)) return;
    // Logged out: what was shown may be the account's own (a local game),
    // so back to the lobby. Logged in: the page shown, for the new player.
    if (change === 'logout' && location.hash && location.hash !== '#/') Router.go('#/');
    else router.run();
  });
  router.run();
  await site.ready;
  if (!document.body.dataset.player) document.body.dataset.playerError = serverError({ kind: 'network' });
  try {
    setInfo(await api.info());
  } catch (e) {
    /** @type {HTMLElement} */ (document.querySelector('#status')).textContent = /** @type {Error} */ (e).message;
  }
  return { i18n, player, live, game, lobby: lobbyPage, profile: profilePage, router };
}
