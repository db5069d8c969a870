// Bots and their authors. A person challenges a bot from its profile and
// plays it: the bot's account is made a bot with a personal API token (the
// Bot API), the bridge (`tensorchess bot`, our engine on a small node
// budget) follows its events; the profile, the game's player bar and the
// Games list show BOT before the name; the challenge sent from the profile
// is accepted by the bridge, the person lands in the game, plays a move,
// and the bot answers. The Bots page (issue 41) lists the bots, one online
// first with its ratings and a Challenge button (desktop and phone); the
// account page makes a token, shows it once and revokes it; the Bot and
// Board APIs' documentation is a page of the site (from the footer and the
// Bots page). axe-core finds nothing serious on those pages.

import { test, before, after } from 'node:test';
import { spawn } from 'node:child_process';
import {
  shot, tap, waitForPly, waitForGame, assert, binary, pageApi, openGames, registered as registeredIn, startFile, stopFile,
  axeViolations, switchLanguage, openMenu,
} from './lib.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/** The API's answer, asked through the page (its cookies, or a token). */
const api = pageApi;
/** A person with an account named `username`, on the app's home page. */
const registered = (username, opts) => registeredIn(browser, server, username, opts);

test('a person challenges a bot from its profile and the bot answers their move', async () => {
  // The bot's owner makes its token and upgrades the account.
  const owner = await registered('robo');
  const made = await api(owner.page, 'POST', '/api/account/tokens', { description: 'bridge', scopes: ['bot:play', 'challenge:write'] });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const token = made.body.token;
  const up = await api(owner.page, 'POST', '/api/bot/account/upgrade', undefined, token);
  assert.equal(up.status, 200, JSON.stringify(up.body));
  await owner.context.close();

  const pia = await registered('pia');
  const p = pia.page;
  // Started last, and always stopped: a bridge left running would keep
  // this file's process (and the suite) waiting after a failure.
  const bridge = spawn(binary, ['bot', '--server', server.url, '--token', token, '--variants', 'tensor', '--level', '1', '--nodes', '300'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  let bridgeErr = '';
  bridge.stderr.on('data', (d) => { bridgeErr += d; });
  try {
    // The bridge is following its events: the bot is online.
    await p.waitForFunction(async () => (await (await fetch('/api/bot/online')).text()).includes('"robo"'), null, { timeout: 30000 });
    await p.evaluate(() => { location.hash = '#/player/robo'; });
    await p.waitForFunction(() => document.body.dataset.profile === 'robo');
    assert.equal(await p.textContent('#profile-name .title-mark'), 'BOT');
    assert.match(await p.textContent('#profile-name'), /^BOT\s*robo$/);
    await shot(p, 'bots-profile');

    await p.click('#btn-challenge');
    await p.waitForSelector('#dlg-challenge[open]');
    await p.selectOption('#form-challenge select[name=variant]', 'tensor');
    await p.selectOption('#form-challenge select[name=clock]', '300+3');
    await p.selectOption('#form-challenge select[name=color]', 'white');
    await p.uncheck('#form-challenge input[name=rated]');
    await p.click('#challenge-send');
    // The bridge accepts: the person lands in the game, White.
    await p.waitForURL(/\/#\/game\//, { timeout: 30000 });
    await waitForGame(p);
    await p.waitForFunction(() => document.body.dataset.seat === 'white');
    // The bot's player bar (Black, on top) is marked BOT; the person's is not.
    await p.waitForSelector('#name-top .title-mark');
    assert.equal(await p.textContent('#name-top .title-mark'), 'BOT');
    assert.match(await p.textContent('#name-top'), /BOT\s*robo/);
    assert.equal(await p.locator('#name-bottom .title-mark').count(), 0);
    await tap(p, 'e2');
    await p.waitForSelector('#board .mark-dest[data-square="e4"]');
    await tap(p, 'e4');
    await waitForPly(p, 2);
    await shot(p, 'bots-answered');
    const id = await p.evaluate(() => location.hash.split('/')[2]);
    const g = await api(p, 'GET', `/api/games/${id}`);
    assert.equal(g.body.moves.length, 2);
    assert.equal(g.body.moves[0].uci, 'e2e4');

    // The person's Games list: the bot's name after its title there too.
    await openGames(p);
    await p.waitForSelector('#games-list .game-row');
    assert.match(await p.textContent('#games-list .game-row .opp'), /– BOT robo/);
  } finally {
    bridge.kill();
    await pia.context.close();
    if (bridgeErr.includes('ERROR')) console.error(bridgeErr);
  }
});

const SMALL_PHONE = { width: 375, height: 667 };

/** A new bot account `username`: its token (with the scopes to play). */
async function newBot(username) {
  const owner = await registered(username);
  try {
    const made = await api(owner.page, 'POST', '/api/account/tokens', { description: 'engine', scopes: ['bot:play', 'challenge:write'] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const up = await api(owner.page, 'POST', '/api/bot/account/upgrade', undefined, made.body.token);
    assert.equal(up.status, 200, JSON.stringify(up.body));
    return made.body.token;
  } finally {
    await owner.context.close();
  }
}

/** Whether the page is wider than its window (something sticks out sideways). */
const overflows = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test('the Bots page: a bot online first, with its ratings and a Challenge button (desktop and phone)', async () => {
  // "alfa" comes first by name, but "vega" is online: vega first.
  await newBot('alfa');
  const token = await newBot('vega');
  // Vega's program follows its events (as the bridge does): vega is online.
  const stop = new AbortController();
  const stream = await fetch(`${server.url}/api/stream/event`, { headers: { Authorization: `Bearer ${token}` }, signal: stop.signal });
  assert.equal(stream.status, 200);
  stream.body.pipeTo(new WritableStream()).catch(() => { /* aborted at the end */ });
  const kim = await registered('kim');
  const phone = await browser.person({ viewport: SMALL_PHONE });
  try {
    const p = kim.page;
    await p.click('header.top nav a[data-nav="bots"]');
    await p.waitForFunction(() => document.body.dataset.page === 'bots' && document.body.dataset.bots === 'ready');
    assert.equal(await p.getAttribute('header.top nav a[data-nav="bots"]', 'aria-current'), 'page');
    const vega = p.locator('#bots-online li[data-username="vega"]');
    const alfa = p.locator('#bots-offline li[data-username="alfa"]');
    await vega.waitFor();
    assert.equal(await alfa.count(), 1, 'alfa is among the bots offline');
    // Online first: vega's line comes before alfa's on the page.
    assert.ok(await p.evaluate(() => {
      const v = document.querySelector('li[data-username="vega"]');
      const a = document.querySelector('li[data-username="alfa"]');
      return !!(v && a && (v.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING));
    }), 'vega is listed before alfa');
    assert.equal(await vega.locator('.title-mark').textContent(), 'BOT');
    assert.match(await vega.locator('.bot-state').textContent(), /online/);
    assert.deepEqual(await vega.locator('.bot-rating').evaluateAll((els) => els.map((e) => [e.dataset.variant, e.querySelector('dd').firstChild.textContent])),
      [['tensor', '1500'], ['chess', '1500'], ['chessence', '1500']]);
    // Only a bot online can answer a challenge: alfa has no button.
    assert.equal(await alfa.locator('button').count(), 0);
    assert.equal(await p.getAttribute('.bots-intro a[href="/docs/bots"]', 'href'), '/docs/bots');
    await shot(p, 'bots-page');
    assert.deepEqual(await axeViolations(p), [], 'Bots page, desktop, en');
    // The Challenge button opens the site's form for vega.
    await vega.locator('button.bot-challenge').click();
    await p.waitForSelector('#dlg-challenge[open]');
    assert.match(await p.textContent('#dlg-challenge-title'), /vega/);
    await p.keyboard.press('Escape');
    await p.waitForSelector('#dlg-challenge', { state: 'hidden' });

    // A 375×667 phone, in Ukrainian: the same list, nothing sticking out.
    const q = phone.page;
    await q.goto(`${server.url}/#/bots`);
    await q.waitForFunction(() => document.body.dataset.bots === 'ready' && !!document.body.dataset.player);
    await switchLanguage(q, 'uk');
    await q.locator('#bots-online li[data-username="vega"] button.bot-challenge').waitFor();
    assert.equal(await q.textContent('#bots-online-title'), 'Зараз онлайн');
    assert.equal(await overflows(q), false, 'the Bots page fits a phone');
    await shot(q, 'bots-page-phone-uk');
    assert.deepEqual(await axeViolations(q), [], 'Bots page, phone, uk');
    assert.deepEqual([...p.errors, ...q.errors], []);
  } finally {
    stop.abort();
    await kim.context.close();
    await phone.context.close();
  }
});

test('the account page makes an API token, shows it once and revokes it (phone)', async () => {
  const tara = await registered('tara', { viewport: SMALL_PHONE });
  const p = tara.page;
  try {
    // From the player's menu.
    await p.click('#btn-player');
    await p.click('#menu-tokens');
    await p.waitForFunction(() => document.body.dataset.page === 'account' && document.body.dataset.tokens === '0');
    assert.ok(await p.isVisible('#tokens-none'));
    // The form's own checks: a description, then a scope.
    await p.click('#token-create');
    await p.waitForSelector('#token-error:not(.hidden)');
    assert.equal(await p.getAttribute('#token-description', 'aria-invalid'), 'true');
    await p.fill('#token-description', 'my engine');
    await p.click('#token-create');
    assert.match(await p.textContent('#token-error'), /at least one/);
    await p.check('#form-token input[value="bot:play"]');
    await p.check('#form-token input[value="challenge:write"]');
    await p.click('#token-create');
    // Shown once, selected for copying; listed without it.
    await p.waitForSelector('#token-made:not(.hidden)');
    const token = await p.inputValue('#token-value');
    assert.match(token, /^tct_[0-9a-f]{32}$/);
    assert.equal(await p.evaluate(() => document.activeElement && document.activeElement.id), 'token-value');
    await p.waitForFunction(() => document.body.dataset.tokens === '1');
    const row = p.locator('#tokens-list li.token-row');
    assert.equal(await row.locator('.token-description').textContent(), 'my engine');
    assert.deepEqual(await row.locator('.token-scopes code').allTextContents(), ['bot:play', 'challenge:write']);
    assert.match(await row.locator('.token-dates').textContent(), /never used/);
    assert.equal(await overflows(p), false, 'the account page fits a phone');
    await shot(p, 'tokens-made-phone');
    assert.deepEqual(await axeViolations(p), [], 'account page, phone');
    // The token is the account's, for a program.
    const me = await api(p, 'GET', '/api/account', undefined, token);
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.username, 'tara');

    // Done, or a reload: never shown again.
    await p.click('#token-done');
    assert.equal(await p.isVisible('#token-made'), false);
    assert.equal(await p.inputValue('#token-value'), '');
    await p.reload();
    await p.waitForFunction(() => document.body.dataset.tokens === '1');
    assert.equal(await p.evaluate((tok) => document.documentElement.outerHTML.includes(tok), token), false, 'the token is nowhere on the page');

    // Revoked (after a question): gone from the list, refused from now on.
    await p.click('#tokens-list button.token-revoke');
    await p.waitForSelector('#dlg-confirm[open]');
    assert.match(await p.textContent('#confirm-text'), /my engine/);
    await p.click('#confirm-yes');
    await p.waitForFunction(() => document.body.dataset.tokens === '0');
    assert.ok(await p.isVisible('#tokens-none'));
    // (Asked from here, not the page: its console would report the 401.)
    const refused = await fetch(`${server.url}/api/account`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(refused.status, 401);
    assert.deepEqual(p.errors, []);
  } finally {
    await tara.context.close();
  }
});

test('the Bot and Board API page is served, from the footer and the Bots page', async () => {
  const guest = await browser.person();
  const p = guest.page;
  try {
    // A guest's account page asks them to register or log in.
    await p.goto(`${server.url}/#/account`);
    await p.waitForFunction(() => document.body.dataset.tokens === 'guest');
    assert.ok(await p.isVisible('#tokens-register'));
    assert.equal(await p.isVisible('#form-token'), false);
    // The footer's link.
    await p.click('footer.site-footer a[href="/docs/bots"]');
    await p.waitForURL(/\/docs\/bots$/);
    await p.waitForFunction(() => !!document.body.dataset.player);
    assert.match(await p.textContent('article.doc h1'), /^Programs: the Bot API, the Board API and tensorchess bot$/);
    assert.equal(await p.getAttribute('article.doc', 'lang'), 'en');
    assert.equal(await p.getAttribute('header.top nav a[data-nav="bots"]', 'aria-current'), 'page');
    assert.ok(await p.locator('article.doc table').count() >= 2);
    // The sections' list leads to them.
    await p.click('.doc-toc a[href="#4-routes"]');
    await p.waitForFunction(() => location.hash === '#4-routes');
    assert.ok(await p.evaluate(() => { const r = document.getElementById('4-routes').getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; }));
    await shot(p, 'docs-bots');
    assert.deepEqual(await axeViolations(p), [], 'API page, desktop, en');
    // And back to the Bots page from its lead.
    await p.click('.doc-lead a[href="/#/bots"]');
    await p.waitForFunction(() => document.body.dataset.page === 'bots' && !!document.body.dataset.bots);

    // On a 375×667 phone, in Ukrainian: the header's and the footer's texts
    // translated, the document in English, nothing sticking out sideways.
    await p.setViewportSize(SMALL_PHONE);
    await p.goto(`${server.url}/docs/bots`);
    await p.waitForFunction(() => !!document.body.dataset.player);
    await switchLanguage(p, 'uk');
    assert.equal(await p.textContent('footer.site-footer a[href="/docs/bots"]'), 'API для ботів і дошок');
    assert.match(await p.textContent('.doc-lead'), /англійською/);
    assert.equal(await overflows(p), false, 'the API page fits a phone');
    await openMenu(p);
    assert.equal(await p.textContent('header.top nav a[data-nav="bots"]'), 'Боти');
    await p.keyboard.press('Escape');
    await shot(p, 'docs-bots-phone-uk');
    assert.deepEqual(await axeViolations(p), [], 'API page, phone, uk');
    assert.deepEqual(p.errors, []);
  } finally {
    await guest.context.close();
  }
});
