// @ts-check
// English strings of bots and their authors: the Bots page, the account
// page's API tokens, the API documentation's page and the site's footer
// (merged into en.js).

import { frozen } from '../frozen.js';

/** @type {Record<string, string>} */
export default frozen({
  'nav.bots': 'Bots',
  'footer.nav': 'More of the site',
  'footer.bots': 'Bots',
  'footer.api': 'Bot and Board API',
  'footer.account': 'API tokens',

  'bots.title': 'Bots',
  'bots.intro': 'Programs that play here through the Bot API. Challenge one that is online, or write your own: read <a href="/docs/bots">the Bot and Board API</a> and make a token on <a href="/#/account">your account page</a>.',
  'bots.online_title': 'Online now',
  'bots.offline_title': 'Offline',
  'bots.none_online': 'No bot is online now.',
  'bots.none': 'No bot account yet: write the first one.',
  'bots.online': 'online',
  'bots.offline': 'offline',
  'bots.ratings': 'Ratings',

  'tokens.page_title': 'Your account',
  'tokens.signed_in': 'Signed in as {username}',
  'tokens.title': 'API tokens',
  'tokens.intro': 'A personal API token lets a program play for this account: a bot through the Bot API, or your own games from a board or a client through the Board API. How it works: <a href="/docs/bots">the Bot and Board API</a>.',
  'tokens.guest': 'Only an account has API tokens: register or log in first.',
  'tokens.new_title': 'A new token',
  'tokens.description': 'What it is for',
  'tokens.description_hint': 'A name you will know it by, such as the program\'s (at most 100 characters).',
  'tokens.scopes': 'What it may do',
  'tokens.scope.bot_play': 'Play as a bot account (the Bot API; only a new account with no games becomes a bot)',
  'tokens.scope.board_play': 'Play this account\'s games from a program (the Board API)',
  'tokens.scope.challenge_write': 'Make, accept and decline challenges',
  'tokens.create': 'Make the token',
  'tokens.error_description': 'Write what the token is for.',
  'tokens.error_scopes': 'Choose at least one thing it may do.',
  'tokens.error_too_many': 'An account has at most 20 tokens: revoke one first.',
  'tokens.made_title': 'Your new token',
  'tokens.made_note': 'Copy it now: it is shown only this once. The server keeps only a hash of it, so nobody can show it to you again.',
  'tokens.token_label': 'The new token',
  'tokens.done': 'Done',
  'tokens.list_title': 'Your tokens',
  'tokens.none': 'No token yet.',
  'tokens.created': 'made {date}',
  'tokens.used': 'last used {date}',
  'tokens.never_used': 'never used',
  'tokens.revoke': 'Revoke',
  'tokens.revoke_label': 'Revoke the token {description}',
  'tokens.revoke_confirm': 'Revoke the token “{description}”? A program using it is refused from now on.',
  'tokens.revoked': 'The token {description} was revoked.',

  'docs.title': 'Bot and Board API — Tensor Chess',
  'docs.lead': 'For programmers: how a program plays on this site. The <a href="/#/bots">Bots page</a> lists the bots; tokens are made on <a href="/#/account">your account page</a>.',
});
