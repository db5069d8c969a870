// The feel of a chess site: sounds (and a remembered mute), a premove
// against the engine, arrows and circles drawn with the right button and
// cleared by a left click, board and piece themes, the legend of the
// Tensor marks shown once.

import { test, before, after } from 'node:test';
import {
  Server, openBrowser, shot, settled, tap, sq, pieceAt, game, newGame, waitForPly, waitForGame, assert, PHONE, firstGame, stopFile
} from './lib.mjs';

let server;
let browser;
let page;

before(async () => {
  server = await new Server().start();
  browser = await openBrowser({ motion: 'full' });
  page = browser.page;
  // Every sound the page plays is announced as a `tc-sound` event.
  await page.addInitScript(() => {
    window.__sounds = [];
    window.addEventListener('tc-sound', (e) => window.__sounds.push(e.detail));
  });
  await firstGame(page, server.url);
});

after(async () => {
  assert.deepEqual(page.errors, [], 'no script errors on the page');
  await stopFile({ server, browser });
});

const sounds = () => page.evaluate(() => window.__sounds.map((s) => s.name));
const clearSounds = () => page.evaluate(() => { window.__sounds = []; });

test('the legend of the Tensor marks: shown the first time, dismissed for good', async () => {
  await page.waitForSelector('#legend');
  assert.match(await page.textContent('#legend'), /dashed green beast/);
  await shot(page, 'legend-desktop');
  await page.click('#legend-ok');
  await page.waitForSelector('#legend', { state: 'detached' });
  await page.reload();
  await waitForGame(page);
  await page.waitForFunction(() => document.querySelector('#board').dataset.mode === 'idle');
  await settled(page);
  assert.equal(await page.$('#legend'), null, 'not shown again');
});

test('sounds for a move, a capture, a check and the end; the mute is remembered', async () => {
  await newGame(page, { mode: 'local', text: '5k4/9p/5K4/10/10/4p5/10/R3R5 w - - 0 1' });
  await clearSounds();
  await tap(page, 'e1');
  await tap(page, 'e3'); // takes the pawn
  await waitForPly(page, 1);
  await page.waitForFunction(() => window.__sounds.length >= 1);
  assert.deepEqual(await sounds(), ['capture']);
  await tap(page, 'j7');
  await tap(page, 'j6');
  await waitForPly(page, 2);
  await tap(page, 'a1');
  await tap(page, 'a8'); // mate
  await waitForPly(page, 3, 'over');
  await page.waitForFunction(() => window.__sounds.length >= 4);
  assert.deepEqual(await sounds(), ['capture', 'move', 'check', 'end']);
  // Mute: the button says so, sounds are muted, and it stays muted after a reload.
  await page.click('#btn-sound');
  assert.equal(await page.getAttribute('#btn-sound', 'aria-pressed'), 'false');
  await page.reload();
  await waitForGame(page);
  assert.equal(await page.getAttribute('#btn-sound', 'aria-pressed'), 'false');
  await newGame(page, { mode: 'local' });
  await clearSounds();
  await tap(page, 'e2');
  await tap(page, 'e4');
  await waitForPly(page, 1);
  await page.waitForFunction(() => window.__sounds.length >= 1);
  assert.deepEqual(await page.evaluate(() => window.__sounds), [{ name: 'move', muted: true }]);
  await page.click('#btn-sound');
  assert.equal(await page.getAttribute('#btn-sound', 'aria-pressed'), 'true');
});

test('a premove while the engine thinks is played as soon as it may be; Esc cancels one', async () => {
  // The engine plays White at full strength (it thinks for a while).
  await newGame(page, { variant: 'chess', mode: 'engine', level: 6, color: 'black' });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'thinking');
  await tap(page, 'e7');
  await tap(page, 'e5');
  await page.waitForSelector('#board .premove[data-square="e5"]');
  assert.match(await page.textContent('#status'), /Premove e7–e5/);
  await shot(page, 'premove-desktop');
  await waitForPly(page, 2, 'thinking');
  const g = await game(page);
  assert.equal(g.moves[1].uci, 'e7e5', 'the premove was played right after the engine\'s move');
  // One typed in the Move box while the engine thinks.
  await page.fill('#move-input', 'd7d6');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#board .premove[data-square="d6"]');
  await waitForPly(page, 4, 'thinking');
  assert.equal((await game(page)).moves[3].uci, 'd7d6');
  // Another one, cancelled by a click on the board; and one more, cancelled by Esc.
  await tap(page, 'a7');
  await tap(page, 'a6');
  await page.waitForSelector('#board .premove');
  await tap(page, 'a4');
  await page.waitForSelector('#board .premove', { state: 'detached' });
  await tap(page, 'a7');
  await tap(page, 'a6');
  await page.waitForSelector('#board .premove');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#board .premove', { state: 'detached' });
  await waitForPly(page, 5, 'your-move');
  await settled(page);
  assert.equal((await game(page)).moves.length, 5, 'the cancelled premove was not played');
});

test('arrows and circles with the right button, cleared by a left click', async () => {
  await newGame(page, { mode: 'local' });
  const centre = async (s) => {
    const b = await (await page.$(sq(s))).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const a = await centre('e2');
  const b = await centre('e4');
  await page.mouse.move(a.x, a.y);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up({ button: 'right' });
  await page.waitForSelector('#board .drawing.arrow[data-from="e2"][data-to="e4"]', { state: 'attached' });
  const c = await centre('d5');
  await page.mouse.click(c.x, c.y, { button: 'right' });
  await page.waitForSelector('#board .drawing.circle[data-square="d5"]', { state: 'attached' });
  await shot(page, 'drawings-desktop');
  // A left click clears them (and the tap still selects the pawn).
  await tap(page, 'e2');
  assert.equal(await page.$$eval('#board .drawing', (e) => e.length), 0);
  await page.waitForSelector('#board .mark-dest[data-square="e4"]');
});

test('board and piece themes from the settings menu, remembered', async () => {
  await page.click('#btn-settings');
  await page.selectOption('#set-board', 'green');
  await page.selectOption('#set-pieces', 'contrast');
  await page.keyboard.press('Escape');
  const light = () => page.$eval(sq('e4'), (r) => getComputedStyle(r).fill);
  assert.equal(await light(), 'rgb(238, 238, 210)');
  const whiteFill = () => page.$eval('#piece-wP path', (p) => p.getAttribute('fill'));
  assert.equal(await whiteFill(), '#ffffff');
  await shot(page, 'theme-green-contrast-desktop');
  await page.reload();
  await waitForGame(page);
  assert.equal(await light(), 'rgb(238, 238, 210)');
  assert.equal(await whiteFill(), '#ffffff');
  assert.equal(await pieceAt(page, 'e2'), 'P');
  await page.click('#btn-settings');
  await page.selectOption('#set-board', 'wood');
  await page.selectOption('#set-pieces', 'classic');
});

test('on a phone, a long press draws: an arrow to where the finger is lifted', async () => {
  const b = await openBrowser({ viewport: PHONE, mobile: true, motion: 'full' });
  const p = b.page;
  try {
    await firstGame(p, server.url);
    const centre = async (s) => {
      const r = await (await p.$(sq(s))).boundingBox();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    };
    const a = await centre('e2');
    const c = await centre('e4');
    const cdp = await p.context().newCDPSession(p);
    const touch = (type, pt) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: pt ? [{ x: pt.x, y: pt.y }] : [] });
    await touch('touchStart', a);
    // Held still until the board says the press draws (a long press), not a selection.
    await p.waitForSelector('#board[data-press="draw"]', { state: 'attached' });
    await touch('touchMove', { x: (a.x + c.x) / 2, y: (a.y + c.y) / 2 });
    await touch('touchMove', c);
    await touch('touchEnd');
    await p.waitForSelector('#board .drawing.arrow[data-from="e2"][data-to="e4"]', { state: 'attached' });
    assert.equal(await p.$$eval('#board .mark-dest', (e) => e.length), 0, 'the long press selected nothing');
    assert.equal((await game(p)).moves.length, 0, 'and moved nothing');
    await shot(p, 'long-press-arrow-phone');
    assert.deepEqual(p.errors, []);
  } finally {
    await b.close();
  }
});
