// A short game against the engine, then the server killed mid-game and
// restarted: the page resumes the game and play goes on.

import { test, before, after } from 'node:test';
import {
  Server, openBrowser, shot, tap, pieceAt, game, newGame, waitForPly, waitForGame, assert, sq, firstGame, openGames, stopFile
} from './lib.mjs';

let server;
let browser;
let page;

before(async () => {
  server = await new Server().start();
  browser = await openBrowser();
  page = browser.page;
  await firstGame(page, server.url);
});

after(async () => {
  assert.deepEqual(page.errors, [], 'no script errors on the page');
  await stopFile({ server, browser });
});

// Plays one of the offered quiet moves of the side to move by two taps (or a drag).
async function playSomeMove(drag = false) {
  const g = await game(page);
  const quiet = g.position.legal.filter((m) => m.kind === 'normal' && !m.san.includes('x'));
  // Prefer pawn moves and developing moves, so that the game stays ordinary.
  const m = quiet.find((m) => /^[a-j]\d$/.test(m.san)) || quiet[0];
  assert.ok(m, 'a quiet move exists');
  if (drag) {
    const a = await (await page.$(sq(m.from))).boundingBox();
    const b = await (await page.$(sq(m.to))).boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
    await page.mouse.up();
  } else {
    await tap(page, m.from);
    await page.waitForSelector(`#board .mark-dest[data-square="${m.to}"]`);
    await tap(page, m.to);
  }
  return m;
}

test('a short game against the engine: moves, replies, move list, takeback', async () => {
  await newGame(page, { variant: 'tensor', mode: 'engine', level: 1, color: 'white' });
  for (let i = 0; i < 3; i++) {
    const m = await playSomeMove(i === 1);
    // The person's move, then the engine's answer, each shown on the board.
    await waitForPly(page, 2 * i + 2, 'your-move');
    const g = await game(page);
    assert.equal(g.moves[2 * i].uci, m.uci);
    assert.equal(g.moves[2 * i + 1].color, 'black');
  }
  const sans = await page.$$eval('#moves button.mv', (els) => els.map((e) => e.textContent));
  assert.equal(sans.length, 6);
  // The last move is highlighted.
  const g = await game(page);
  const last = g.moves[5].path.routes[0].squares;
  await page.waitForSelector(`#board .last-move[data-square="${last[last.length - 1]}"]`);
  await shot(page, 'engine-game-desktop');

  // Stepping back and forward through the moves.
  await page.click('#nav-first');
  await page.waitForFunction(() => document.body.dataset.shown === '0');
  assert.equal(await pieceAt(page, 'e2'), 'P');
  await page.click('#nav-next');
  await page.waitForFunction(() => document.body.dataset.shown === '1');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.body.dataset.shown === '2');
  await page.click('#moves button.mv[data-ply="6"]');
  await page.waitForFunction(() => document.body.dataset.shown === '6');

  // A hint draws an arrow; the evaluation bar shows a score.
  await page.click('#btn-hint');
  await page.waitForSelector('#board .hint-arrow', { state: 'attached', timeout: 20000 });
  await page.click('#btn-eval');
  await page.waitForFunction(() => document.querySelector('#evalbar').dataset.score, null, { timeout: 20000 });
  await shot(page, 'engine-hint-eval-desktop');
  await page.click('#btn-eval');

  // Take back the last pair of moves.
  await page.click('#btn-takeback');
  await waitForPly(page, 4, 'your-move');
  assert.equal((await game(page)).moves.length, 4);

  // Offering a draw: the engine answers by its evaluation (at level 1 it
  // may stand worse and accept); the page says the server's answer.
  const answered = page.waitForResponse((r) => r.url().endsWith('/draw') && r.request().method() === 'POST', { timeout: 20000 });
  await page.click('#btn-draw');
  const answer = await (await answered).json();
  const said = answer.accepted ? 'Draw agreed' : 'declines';
  await page.waitForFunction((s) => document.querySelector('#toast').textContent.includes(s), said, { timeout: 20000 });
  if (answer.accepted) await page.waitForFunction(() => document.body.dataset.state === 'over');
});

test('the server is killed mid-game and restarted: the game resumes', async () => {
  await newGame(page, { variant: 'tensor', mode: 'engine', level: 1, color: 'white' });
  const id = (await game(page)).id;
  await playSomeMove();
  await waitForPly(page, 2, 'your-move');
  const before = await game(page);

  await server.kill();
  await page.waitForSelector('#connection:not(.hidden)');
  await shot(page, 'server-down-desktop');
  await server.start(); // same port, same database
  await page.waitForSelector('#connection', { state: 'hidden', timeout: 20000 });

  // Nothing acknowledged was lost, and play goes on.
  const after = await game(page);
  assert.deepEqual(after.moves.map((m) => m.uci), before.moves.map((m) => m.uci));
  await playSomeMove();
  await waitForPly(page, 4, 'your-move');

  // A reload shows the same game.
  await page.reload();
  await waitForGame(page);
  await waitForPly(page, 4);
  assert.equal((await game(page)).id, id);

  // And the saved games list offers it.
  await openGames(page);
  await page.waitForSelector(`#games-list .game-row[data-id="${id}"]`);
  await shot(page, 'saved-games-desktop');
  await page.click(`#games-list .game-row[data-id="${id}"] .open-game`);
  await waitForPly(page, 4);

  // Killed while the engine thinks about its move: it thinks again after the restart.
  await newGame(page, { variant: 'chess', mode: 'engine', level: 6, color: 'black' });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'thinking');
  await server.kill();
  await server.start();
  await waitForPly(page, 1, 'your-move');
});
