// Issue 41, a living site: the phone keeps the board through a game (the
// move list scrolls inside itself, the page does not move), the header's
// menu closes when it navigates; the home page says who is here and what
// is played (players online, games in progress, a featured game moving
// live, tournaments, a puzzle of the day) and a game page counts its
// spectators.

import { test, before, after } from 'node:test';
import {
  openBrowser, shot, assert, firstGame, tap, waitForPly, openMenu, startFile, stopFile,
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

test('a 375×667 phone keeps the whole board and both players on screen through three moves', async () => {
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
