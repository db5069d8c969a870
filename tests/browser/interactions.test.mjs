// The rulebook's interactions, clicked through in Chromium: propel in three
// taps, ricochet in two, castling king → rook → outline, an illegal attempt
// with its reason, and the checkmate banner from an imported mate in one.

import { test, before, after } from 'node:test';
import {
  Server, openBrowser, shot, settled, tap, sq, pieceAt, game, newGame, waitForPly, waitForGame, toastText, assert, firstGame, openLobby, watchPage, stopFile
} from './lib.mjs';

let server;
let browser;
let page;

before(async () => {
  server = await new Server().start();
  browser = await openBrowser({ motion: 'full' });
  page = browser.page;
  await firstGame(page, server.url);
});

after(async () => {
  assert.deepEqual(page.errors, [], 'no script errors on the page');
  await stopFile({ server, browser });
});

test('propel in three taps: piece, beast (flashing +), green square with a beast sign', async () => {
  // The white beast stands on b3; the knight on c1 can throw it.
  await newGame(page, { mode: 'local', text: 'rtnbqkbntr/pppp1ppppp/4p5/10/10/1T8/PPPPPPPPPP/R1NBQKBNTR w KQkq - 0 2' });
  await tap(page, 'c1');
  // The beast's square is offered, and so are the knight's ricochets off it.
  await page.waitForSelector('#board .propel-beast[data-square="b3"]');
  await page.waitForSelector('#board .mark-dest[data-square="a5"]');
  await tap(page, 'b3');
  await page.waitForSelector('#board .propel-sign[data-square="b3"]');
  const targets = await page.$$eval('#board .beast-sign', (els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(targets, ['a5', 'c1', 'c5', 'd4']);
  await shot(page, 'propel-step2-desktop');
  // The + flashes, and keeps flashing; where the system turns motion down
  // it flashes once and stands still.
  const flashing = () => page.$eval('#board .propel-sign', (e) => {
    const s = getComputedStyle(e);
    return [s.animationName, s.animationIterationCount];
  });
  assert.deepEqual(await flashing(), ['blink', 'infinite']);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  assert.deepEqual(await flashing(), ['blink', '1']);
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  // It sits in the corner, clear of the beast's face (a red disk over it read as a red face).
  const clear = await page.evaluate(() => {
    const sq = document.querySelector('#board rect.sq[data-square="b3"]').getBoundingClientRect();
    const sign = document.querySelector('#board .propel-sign circle').getBoundingClientRect();
    // The disk keeps off the middle of the square (a circle of a quarter square's radius).
    const d = Math.hypot((sign.left + sign.right) / 2 - (sq.left + sq.right) / 2, (sign.top + sign.bottom) / 2 - (sq.top + sq.bottom) / 2);
    return d - sign.width / 2 >= sq.width * 0.25 && sign.width <= sq.width * 0.32;
  });
  assert.ok(clear, 'the propel sign is clear of the beast\'s face');
  await tap(page, 'd4');
  await waitForPly(page, 1);
  assert.equal(await pieceAt(page, 'b3'), 'N');
  assert.equal(await pieceAt(page, 'd4'), 'T');
  assert.equal(await pieceAt(page, 'c1'), null);
  assert.match(await page.textContent('#moves'), /Nb3>d4/);
  await shot(page, 'propel-done-desktop');
});

test('ricochet in two taps, animated along its path through the beast', async () => {
  await newGame(page, { mode: 'local', text: '9k/P9/10/10/T4p4/10/10/R8K w - - 0 1' });
  await tap(page, 'a1');
  await page.waitForSelector('#board .mark-dest[data-square="f4"]');
  await shot(page, 'ricochet-selected-desktop');
  // Record where the rook is drawn on every frame while it moves.
  await page.evaluate(() => {
    window.__track = [];
    const t0 = performance.now();
    const step = () => {
      const rook = [...document.querySelectorAll('#board use.piece')].find((u) => u.dataset.piece === 'R');
      if (rook) window.__track.push([+rook.getAttribute('x'), +rook.getAttribute('y')]);
      if (performance.now() - t0 < 2500) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
  await tap(page, 'f4');
  await waitForPly(page, 1);
  await settled(page); // the animation is over
  const track = await page.evaluate(() => window.__track);
  // a4's corner in board units (margin 44, squares 100, White at the bottom): x=44, y=400.
  const nearA4 = track.some(([x, y]) => Math.abs(x - 44) < 12 && Math.abs(y - 400) < 12);
  const straight = track.some(([x, y]) => x > 164 && y > 450); // would cut the corner a1→f4
  assert.ok(nearA4, 'the rook passes through the beast on a4');
  assert.ok(!straight, 'the rook does not slide straight from a1 to f4');
  assert.equal(await pieceAt(page, 'f4'), 'R');
  assert.equal(await pieceAt(page, 'a4'), 'T');
  assert.match(await page.textContent('#moves'), /Rxf4/);
});

test('castling: king, double arrow on the rook, yellow king outlines, then the outline', async () => {
  await newGame(page, { mode: 'local', text: 'r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3TK3R w KQkq - 0 1' });
  await tap(page, 'f1');
  await page.waitForSelector('#board .castle-arrow[data-square="a1"]');
  await page.waitForSelector('#board .castle-arrow[data-square="j1"]');
  await shot(page, 'castle-arrows-desktop');
  await tap(page, 'a1');
  const outlines = await page.$$eval('#board .king-outline', (els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(outlines, ['b1', 'c1']);
  await shot(page, 'castle-outlines-desktop');
  await tap(page, 'c1');
  await waitForPly(page, 1);
  assert.equal(await pieceAt(page, 'c1'), 'K');
  assert.equal(await pieceAt(page, 'd1'), 'R');
  assert.equal(await pieceAt(page, 'e1'), 'T', 'the king jumped its own beast');
  assert.match(await page.textContent('#moves'), /Kc1/);
  // Black castles by tapping the king's destination directly.
  await tap(page, 'f8');
  await page.waitForSelector('#board .castle-arrow[data-square="j8"]');
  await tap(page, 'h8');
  await waitForPly(page, 2);
  assert.equal(await pieceAt(page, 'h8'), 'k');
  assert.equal(await pieceAt(page, 'g8'), 'r');
});

test('an illegal try is explained, never sent to the game: "Illegal move" and why, off the board', async () => {
  await newGame(page, { mode: 'engine', level: 1, text: '5k4/10/5K4/10/10/10/10/R9 w - - 0 1' });
  // Does this server explain tries (POST /api/explain)? Older ones do not:
  // the page then says it in general words.
  const explains = (await fetch(`${server.url}/api/explain`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'tensor', move: 'e2e4' }),
  })).status === 200;
  const posted = [];
  page.on('request', (r) => { if (/\/moves$|\/act$/.test(r.url())) posted.push(r.url()); });
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  // The king may not step next to the other king: f7 is not offered.
  await tap(page, 'f6');
  assert.equal(await page.$('#board .mark-dest[data-square="f7"]'), null);
  await tap(page, 'f7');
  const text = await toastText(page);
  assert.match(text, /Illegal move/);
  assert.match(text, explains ? /your king would be in check/i : /cannot go to f7/);
  await shot(page, 'illegal-move-desktop');
  assert.equal(await pieceAt(page, 'f6'), 'K', 'nothing moved');
  // The message is in the panel: it covers no square of the board (rank 8 included).
  const toast = await page.$eval('#toast', (e) => e.getBoundingClientRect().toJSON());
  const boardBox = await page.$eval('#board svg.board-svg', (e) => e.getBoundingClientRect().toJSON());
  const overlaps = toast.left < boardBox.right && toast.right > boardBox.left && toast.top < boardBox.bottom && toast.bottom > boardBox.top;
  assert.ok(!overlaps, `the notice ${JSON.stringify(toast)} lies over the board ${JSON.stringify(boardBox)}`);
  // A drag to a square the rook cannot reach is explained as well.
  const from = await page.$(sq('a1'));
  const to = await page.$(sq('b2'));
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 20, a.y + a.height / 2 - 20, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('#toast').textContent),
    explains ? 'rook on a1 cannot move that way' : 'cannot go to b2');
  assert.equal(await pieceAt(page, 'a1'), 'R', 'the rook went back');
  assert.equal((await game(page)).moves.length, 0);
  assert.deepEqual(posted, [], 'no illegal move was sent to the game');
  if (explains) assert.deepEqual(consoleErrors, [], 'nothing in the console');
});

test('a server without /api/explain: the page says it in general words, and asks once only', async () => {
  const p = watchPage(await browser.context.newPage());
  let asked = 0;
  await p.route('**/api/explain', (route) => { asked++; return route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":"No such API endpoint","kind":"not_found"}' }); });
  try {
    await openLobby(p, server.url);
    await newGame(p, { mode: 'local', text: '5k4/10/5K4/10/10/10/10/R9 w - - 0 1' });
    await tap(p, 'f6');
    await tap(p, 'f7');
    assert.match(await toastText(p), /Illegal move.*The piece on f6 cannot go to f7/);
    await tap(p, 'a1');
    await tap(p, 'b2');
    await p.waitForFunction(() => /cannot go to b2/.test(document.querySelector('#toast').textContent));
    assert.equal(asked, 1, 'asked once, then not again');
    assert.equal((await game(p)).moves.length, 0);
    assert.deepEqual(p.errors, []);
  } finally {
    await p.close();
  }
});

test('checkmate from an imported mate in one: red glow and the banner', async () => {
  await newGame(page, { mode: 'engine', level: 1, text: '5k4/10/5K4/10/10/10/10/R9 w - - 0 1' });
  // Played by dragging the rook.
  const a = await (await page.$(sq('a1'))).boundingBox();
  const b = await (await page.$(sq('a8'))).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
  await waitForPly(page, 1, 'over');
  await page.waitForSelector("#banner:not(.hidden)");
  await settled(page); // the banner has popped in
  assert.equal(await page.textContent('#banner .banner-title'), 'Checkmate');
  assert.equal(await page.textContent('#banner .banner-text'), 'White wins');
  await page.waitForSelector('#board .check-glow[data-square="f8"]');
  assert.match(await page.textContent('#moves'), /Ra8#/);
  // A finished game is not reopened by a takeback: none is offered.
  assert.ok(await page.$eval('#btn-takeback', (e) => e.disabled || e.offsetParent === null), 'no Take back after the end');
  await shot(page, 'checkmate-banner-desktop');
  // The board stays visible under the banner on request, and the game can be exported.
  await page.click('#banner-close');
  await page.click('#btn-export');
  await page.waitForFunction(() => document.querySelector('#export-pgn').value.includes('1-0'));
  const fen = await page.inputValue('#export-fen');
  assert.equal(fen, 'R4k4/10/5K4/10/10/10/10/10 b - - 1 1');
  await page.click('#export-close');
});
