// Defects reported in issue 14, each reproduced first: the Chessence board
// on phones and tablets, a beast capture that ends on the beast's own
// square, a bad game link, and the Rules page's Chessence boards at 1280 px.

import { test, before, after } from 'node:test';
import {
  openBrowser, shot, settled, tap, sq, pieceAt, game, newGame, waitForPly, waitForGame, assert, PHONE, openLobby, startFile, stopFile,
} from './lib.mjs';

let server;

before(async () => ({ server } = await startFile()));
after(() => stopFile({ server }));

const boxOf = (page, sel) => page.$eval(sel, (e) => e.getBoundingClientRect().toJSON());

test('(1) the Chessence board fills a phone and a 768 px tablet', async () => {
  for (const [viewport, mobile, minWidth] of [[PHONE, true, 0.9 * PHONE.width], [{ width: 768, height: 1024 }, false, 500]]) {
    const b = await openBrowser({ viewport, mobile });
    const page = b.page;
    try {
      await openLobby(page, server.url);
      await newGame(page, { variant: 'chessence', mode: 'local' });
      const box = await boxOf(page, '#board svg.board-svg');
      assert.ok(box.width >= minWidth && box.width <= viewport.width, `board ${box.width}×${box.height} at ${viewport.width} px`);
      assert.ok(box.height > box.width, 'Chessence is taller than wide');
      // Both reserves are on screen with the board.
      const hand = await boxOf(page, '#board .hand-bottom');
      assert.ok(hand.height > 0 && hand.bottom <= viewport.height + 1, `reserve at ${hand.bottom} in ${viewport.width}×${viewport.height}`);
      // Reduced motion (the tests' default) resizes the board at once: a
      // transition on every property, however short, left the old size in
      // place until the next frame, which a busy machine drew late.
      const transitions = await page.evaluate(() => {
        const b = /** @type {HTMLElement} */ (document.querySelector('#board'));
        const was = b.style.getPropertyValue('--aspect');
        b.style.setProperty('--aspect', '1');
        const n = document.getAnimations().filter((a) => a instanceof CSSTransition).length;
        b.style.setProperty('--aspect', was);
        return n;
      });
      assert.equal(transitions, 0, 'no transition when the board changes size under reduced motion');
      await shot(page, `chessence-${viewport.width}`);
      // And a man can be tapped.
      await tap(page, 'd2', { touch: mobile });
      await page.waitForSelector('#board .mark-dest[data-square="a5"]');
      assert.deepEqual(page.errors, []);
    } finally {
      await b.close();
    }
  }
  // The Rules page's Chessence boards on a phone.
  const b = await openBrowser({ viewport: PHONE, mobile: true });
  try {
    await b.page.goto(`${server.url}/rules.html`);
    await b.page.waitForFunction(() => document.body.dataset.ready === '1');
    await b.page.waitForSelector('#chessence-board .mini use.piece');
    const box = await boxOf(b.page, '#chessence-board .mini svg.board-svg');
    assert.ok(box.width > 0.8 * PHONE.width - 40, `rules-page Chessence board ${box.width} px`);
  } finally {
    await b.close();
  }
});

test('(2) a beast capture ending on its own square: tap twice, or drag back onto it', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await openLobby(page, server.url);
    const fen = '9k/10/10/3P6/4t1t3/4T5/10/9K w - - 0 1';
    await newGame(page, { mode: 'local', text: fen });
    await tap(page, 'e3');
    await page.waitForSelector('#board .mark-dest[data-square="e3"]');
    await tap(page, 'e3');
    await waitForPly(page, 1);
    assert.equal((await game(page)).moves[0].uci, 'e3e3xe4');
    assert.equal(await pieceAt(page, 'e4'), null, 'the black beast was taken');
    assert.equal(await pieceAt(page, 'e3'), 'T');

    // The same by a drag that ends on the starting square.
    await newGame(page, { mode: 'local', text: fen });
    const a = await (await page.$(sq('e3'))).boundingBox();
    const c = { x: a.x + a.width / 2, y: a.y + a.height / 2 };
    await page.mouse.move(c.x, c.y);
    await page.mouse.down();
    await page.mouse.move(c.x + 60, c.y - 60, { steps: 5 });
    await page.mouse.move(c.x, c.y, { steps: 5 });
    await page.mouse.up();
    await waitForPly(page, 1);
    assert.equal((await game(page)).moves[0].uci, 'e3e3xe4');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('(3) a bad game link leaves no playable board behind', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await openLobby(page, server.url);
    await newGame(page, { mode: 'local' });
    const id = (await game(page)).id;
    await page.evaluate(() => { location.hash = '#/game/nosuchgame1'; });
    await page.waitForFunction(() => /does not exist/.test(document.querySelector('#status').textContent));
    // Taps do nothing, and nothing reaches the old game.
    await tap(page, 'e2');
    await settled(page);
    assert.equal(await page.$$eval('#board .mark-dest', (e) => e.length), 0, 'no moves offered');
    await tap(page, 'e4');
    await settled(page);
    const old = await page.evaluate(async (gid) => (await fetch(`/api/games/${gid}`)).json(), id);
    assert.equal(old.moves.length, 0, 'no move saved into the previous game');
    assert.notEqual(await page.evaluate(() => document.body.dataset.game || ''), id);
    for (const sel of ['#btn-takeback', '#btn-resign', '#btn-draw', '#btn-hint']) {
      assert.ok(await page.$eval(sel, (e) => e.disabled || e.classList.contains('hidden')), `${sel} is off`);
    }
    await shot(page, 'bad-game-link-desktop');
    // Back to the real game: playable again.
    await page.evaluate((gid) => { location.hash = `#/game/${gid}`; }, id);
    await waitForGame(page);
    await tap(page, 'e2');
    await page.waitForSelector('#board .mark-dest[data-square="e4"]');
  } finally {
    await b.close();
  }
});

test('(4) at 1280 px the Rules page boards stay inside their cards', async () => {
  const b = await openBrowser();
  const page = b.page;
  // And the page loads without an error in the console (it used to ask for
  // an impossible position: a 400 on every load).
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  try {
    await page.goto(`${server.url}/rules.html`);
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    await page.waitForSelector('#chessence-powers .mini use.piece');
    const overflow = await page.$$eval('.rule', (cards) => cards.map((card) => {
      const c = card.getBoundingClientRect();
      const m = card.querySelector('.mini').getBoundingClientRect();
      const s = card.querySelector('.mini svg.board-svg').getBoundingClientRect();
      const out = Math.max(m.right - c.right, s.right - c.right, c.left - s.left, 0);
      return { id: card.id, out, width: s.width };
    }).filter((x) => x.out > 0.5 || x.width < 100));
    assert.deepEqual(overflow, [], 'boards sticking out of their cards (or squashed)');
    await page.locator('#chessence-board').scrollIntoViewIfNeeded();
    await shot(page, 'rules-chessence-desktop');
    await page.waitForFunction(() => document.body.dataset.loaded === '1');
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});
