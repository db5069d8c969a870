// Issue 41, a living site: the phone keeps the board through a game (the
// move list scrolls inside itself, the page does not move), the header's
// menu closes when it navigates; the home page says who is here and what
// is played (players online, games in progress, a featured game moving
// live, tournaments, a puzzle of the day) and a game page counts its
// spectators.

import { test, before, after } from 'node:test';
import {
  openBrowser, shot, assert, firstGame, tap, waitForPly, openMenu, startFile, stopFile, pageApi, axeViolations, registered, PASSWORD,
} from './lib.mjs';

const SMALL_PHONE = { width: 375, height: 667 };

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/** Where the board, the two player bars and the page's scroll are. */
function layout(page) {
  return page.evaluate(() => {
    const r = (/** @type {string} */ s) => {
      const b = /** @type {HTMLElement} */ (document.querySelector(s)).getBoundingClientRect();
      return { top: b.top, bottom: b.bottom };
    };
    return { scrollY, height: innerHeight, board: r('#board'), top: r('.player-top'), bottom: r('.player-bottom'), moves: r('#moves') };
  });
}

/** Whether the game on the page has ended (the engine may mate a player of pawn moves early). */
function ended(page) {
  return page.evaluate(() => !!document.querySelector('#banner[data-reason]'));
}

test('a 375×667 phone keeps the whole board and both players on screen through three moves', async (t) => {
  const b = await openBrowser({ viewport: SMALL_PHONE, mobile: true });
  const page = b.page;
  try {
    await firstGame(page, server.url);
    let ply = 0;
    for (const [from, to] of [['a2', 'a3'], ['j2', 'j3'], ['h2', 'h3']]) {
      await tap(page, from, { touch: true });
      await tap(page, to, { touch: true });
      ply += 2; // the engine answers
      await waitForPly(page, ply);
      const l = await layout(page);
      assert.equal(l.scrollY, 0, `after move ${ply / 2} the page did not scroll`);
      for (const part of ['board', 'top', 'bottom']) {
        assert.ok(l[part].top >= 0 && l[part].bottom <= l.height, `after move ${ply / 2}: the ${part} is on screen: ${JSON.stringify(l)}`);
      }
      // The moves come right under the board, on the first screen.
      assert.ok(l.moves.top < l.height, `the move list starts on screen: ${JSON.stringify(l)}`);
    }
    // The list scrolls inside itself: three more moves than it shows.
    for (const [from, to] of [['b2', 'b3'], ['c2', 'c3']]) {
      if (await ended(page)) {
        // Seen once under load: the engine mated before the fifth move.
        t.skip('the engine ended the game before five moves: the move list scrolling inside itself was not checked');
        return;
      }
      await tap(page, from, { touch: true });
      await tap(page, to, { touch: true });
      ply += 2;
      await waitForPly(page, ply);
    }
    const inner = await page.evaluate(() => {
      const list = /** @type {HTMLElement} */ (document.querySelector('#moves'));
      const cur = /** @type {HTMLElement} */ (list.querySelector('.current')).getBoundingClientRect();
      const box = list.getBoundingClientRect();
      return { scrolled: list.scrollTop, overflow: list.scrollHeight > list.clientHeight, seen: cur.top >= box.top - 1 && cur.bottom <= box.bottom + 1, y: scrollY };
    });
    assert.ok(inner.overflow && inner.scrolled > 0 && inner.seen && inner.y === 0, JSON.stringify(inner));
    await shot(page, 'living-phone-game');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test("the phone's open menu closes when it navigates", async () => {
  const b = await openBrowser({ viewport: SMALL_PHONE, mobile: true });
  const page = b.page;
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => !!document.body.dataset.player);
    await openMenu(page);
    assert.ok(await page.isVisible('#site-nav'));
    // Navigation that is not the menu's own links: Back, a link in the page.
    await page.evaluate(() => { location.hash = '#/tournaments'; });
    await page.waitForFunction(() => document.body.dataset.page === 'tournaments');
    assert.equal(await page.isVisible('#site-nav'), false, 'the menu closed');
    assert.equal(await page.getAttribute('#btn-menu', 'aria-expanded'), 'false');
  } finally {
    await b.close();
  }
});

test("the home page's counts and featured game while a game is played; a spectator counted", async () => {
  const alice = await browser.person();
  const bob = await browser.person();
  const carol = await browser.person();
  const dave = await browser.person();
  try {
    const a = alice.page;
    await a.goto(server.url);
    await a.waitForFunction(() => !!document.body.dataset.player);
    const made = await pageApi(a, 'POST', '/api/online', { variant: 'tensor', color: 'white', clock: { base_seconds: 300, increment_seconds: 3 } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    await a.goto(`${server.url}/#/game/${id}`);
    await a.waitForFunction(() => document.body.dataset.seat === 'white');
    const b = bob.page;
    await b.goto(`${server.url}/#/game/${id}`);
    await b.click('#btn-join');
    await b.waitForFunction(() => document.body.dataset.seat === 'black');
    await a.waitForFunction(() => document.querySelector('#presence-top').dataset.state === 'connected');
    // Nobody watches yet.
    assert.equal(await a.isVisible('#spectators'), false);
    // Carol watches: both players' pages count one spectator.
    const c = carol.page;
    await c.goto(`${server.url}/#/game/${id}`);
    await c.waitForFunction(() => document.body.dataset.game === location.hash.split('/')[2]);
    for (const p of [a, b, c]) {
      await p.waitForFunction(() => document.querySelector('#spectators').dataset.count === '1');
    }
    assert.equal(await a.textContent('#spectators'), '1 watching');
    // A spectator has no Move box and no legend of the marks (the players have both).
    assert.equal(await c.isVisible('.panel .move-entry'), false, "no Move box for a spectator");
    assert.equal(await c.isVisible('#legend'), false, 'no legend for a spectator');
    assert.equal(await a.isVisible('.panel .move-entry'), true);
    assert.equal(await a.isVisible('#legend'), true);
    await shot(a, 'living-spectator-counted');

    // Dave opens the home page: four players online, one game being
    // played, featured with its players' names.
    const d = dave.page;
    await d.goto(server.url);
    await d.waitForFunction((g) => document.querySelector('#site-now').dataset.featured === g, id);
    await d.waitForFunction(() => document.querySelector('#now-counts').dataset.players === '4');
    assert.equal(await d.getAttribute('#now-counts', 'data-games'), '1');
    assert.match(await d.textContent('#now-counts'), /^4 players online · 1 game being played$/);
    const names = await a.evaluate(async (g) => (await (await fetch(`/api/games/${g}`)).json()), id);
    assert.equal(await d.textContent('#featured-white'), names.white);
    assert.equal(await d.textContent('#featured-black'), names.black);
    assert.equal(await d.getAttribute('#featured-watch', 'href'), `#/game/${id}`);
    await d.waitForFunction(() => document.querySelector('#featured-board').dataset.ply === '0');
    // The puzzle of the day is there, with its board, one tap from the puzzles page.
    assert.match(await d.getAttribute('#puzzle-day-link', 'href'), /^\/puzzles\.html#.+/);
    await d.waitForSelector('#puzzle-day-board svg');
    // A move in the game moves the featured board (live).
    await tap(a, 'a2');
    await a.waitForSelector('#board .mark-dest[data-square="a3"]');
    await tap(a, 'a3');
    await d.waitForFunction(() => document.querySelector('#featured-board').dataset.ply === '1');
    await d.evaluate(() => document.querySelector('#site-now').scrollIntoView());
    await shot(d, 'living-home-now');
    assert.deepEqual(await axeViolations(d), [], 'the home page with its featured game');
    assert.deepEqual(await axeViolations(a), [], 'a game page with a spectator counted');
    assert.deepEqual([...a.errors, ...b.errors, ...c.errors, ...d.errors], []);
  } finally {
    for (const p of [alice, bob, carol, dave]) await p.context.close();
  }
});

test('a player found from the header, followed (kept after a reload), their game one tap away, names linking to profiles', async () => {
  const alice = await registered(browser, server, 'alice_w');
  const bob = await registered(browser, server, 'bobby');
  try {
    const a = alice.page;
    const b = bob.page;
    // Alice plays (an online game of hers in progress, her page open).
    const made = await pageApi(a, 'POST', '/api/online', { variant: 'tensor', color: 'white', clock: { base_seconds: 300, increment_seconds: 3 } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    await a.goto(`${server.url}/#/game/${id}`);
    await a.waitForFunction(() => document.body.dataset.seat === 'white');

    // Bob types part of her name in the header's search: her profile.
    await b.fill('#search-input', 'ALI');
    const hit = b.locator('#search-results a[data-username="alice_w"]');
    await hit.waitFor();
    assert.match(await hit.textContent(), /alice_w.*online/);
    await shot(b, 'living-search');
    await hit.click();
    await b.waitForFunction(() => document.body.dataset.profile === 'alice_w');
    assert.equal(await b.isVisible('#search-results'), false, 'the results close');

    // Follow, kept after a reload.
    await b.waitForSelector('#btn-follow:not(.hidden)');
    assert.equal(await b.textContent('#btn-follow'), 'Follow');
    await b.click('#btn-follow');
    await b.waitForFunction(() => document.querySelector('#btn-follow').dataset.following === 'true');
    await b.reload();
    await b.waitForFunction(() => document.body.dataset.profile === 'alice_w');
    await b.waitForFunction(() => document.querySelector('#btn-follow').dataset.following === 'true');
    assert.equal(await b.textContent('#btn-follow'), 'Unfollow');

    // Bob's own profile lists her, online and playing: her game one tap away.
    await b.goto(`${server.url}/#/player/bobby`);
    await b.waitForFunction(() => document.body.dataset.profile === 'bobby');
    const item = b.locator('#following-list li[data-username="alice_w"]');
    await item.waitFor();
    assert.match(await item.textContent(), /online/);
    await shot(b, 'living-following');
    await item.locator('a.following-watch').click();
    await b.waitForFunction((g) => document.body.dataset.game === g, id);

    // On the game page her name links to her profile.
    const link = b.locator('.player a.name-link[href="#/player/alice_w"]');
    await link.waitFor();
    await link.click();
    await b.waitForFunction(() => document.body.dataset.profile === 'alice_w');

    // Unfollow, kept after a reload.
    await b.click('#btn-follow');
    await b.waitForFunction(() => document.querySelector('#btn-follow').dataset.following === 'false');
    await b.reload();
    await b.waitForFunction(() => document.body.dataset.profile === 'alice_w');
    await b.waitForSelector('#btn-follow:not(.hidden)');
    assert.equal(await b.getAttribute('#btn-follow', 'data-following'), 'false');
    assert.deepEqual(await axeViolations(b), [], 'the profile with Follow and the header search');
    assert.deepEqual([...a.errors, ...b.errors], []);
  } finally {
    for (const p of [alice, bob]) await p.context.close();
  }
});

test('the header search on a phone: in the menu, a bot marked', async () => {
  const ph = await browser.person({ viewport: SMALL_PHONE });
  try {
    const p = ph.page;
    await p.goto(server.url);
    await p.waitForFunction(() => !!document.body.dataset.player);
    // A bot account to find.
    const r = await pageApi(p, 'POST', '/api/account/register', { username: 'robo_bot', password: PASSWORD });
    assert.equal(r.status, 201);
    const tok = await pageApi(p, 'POST', '/api/account/tokens', { description: 'bot', scopes: ['bot:play'] });
    assert.equal(tok.status, 201, JSON.stringify(tok.body));
    const up = await pageApi(p, 'POST', '/api/bot/account/upgrade', undefined, tok.body.token);
    assert.equal(up.status, 200, JSON.stringify(up.body));
    await openMenu(p);
    await p.fill('#search-input', 'robo');
    const hit = p.locator('#search-results a[data-username="robo_bot"]');
    await hit.waitFor();
    assert.match(await hit.textContent(), /BOT/);
    await shot(p, 'living-search-phone');
    await hit.click();
    await p.waitForFunction(() => document.body.dataset.profile === 'robo_bot');
    assert.equal(await p.isVisible('#site-nav'), false, 'the menu closed');
  } finally {
    await ph.context.close();
  }
});
