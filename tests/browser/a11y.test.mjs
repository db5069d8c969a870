// Without a mouse, and for everyone: axe-core finds no serious or critical
// violation on the game and Rules pages; the board is played by keyboard
// (the same tap machine as the mouse: propel, castling, the promotion
// chooser); the Move box takes move strings and SAN; squares have names;
// moves are announced.

import { test, before, after } from 'node:test';
import {
  openBrowser, shot, game, newGame, waitForPly, waitForGame, pieceAt, assert, PHONE, firstGame, openLobby, axeViolations, startFile, stopFile,
} from './lib.mjs';

let server;

before(async () => ({ server } = await startFile()));
after(() => stopFile({ server }));

/** Presses keys on the focused board. */
async function keys(page, ...names) {
  for (const k of names) await page.keyboard.press(k);
}

/** Moves the board's keyboard cursor to `square` and presses Enter. */
async function enterOn(page, square) {
  if (!(await page.$('#board .cursor'))) await keys(page, 'ArrowUp', 'ArrowDown');
  for (let i = 0; i < 40; i++) {
    const at = await page.$eval('#board .cursor', (c) => c.dataset.square).catch(() => null);
    if (at === square) break;
    const [f, r] = [square.charCodeAt(0), parseInt(square.slice(1), 10)];
    const [cf, cr] = at ? [at.charCodeAt(0), parseInt(at.slice(1), 10)] : [f, r];
    await page.keyboard.press(cr < r ? 'ArrowUp' : cr > r ? 'ArrowDown' : cf < f ? 'ArrowRight' : 'ArrowLeft');
  }
  assert.equal(await page.$eval('#board .cursor', (c) => c.dataset.square), square);
  await page.keyboard.press('Enter');
}

test('axe: no serious or critical violations on the game page and the Rules page, in both languages', async () => {
  for (const [viewport, mobile, size] of [[undefined, false, 'desktop'], [PHONE, true, 'phone']]) {
    for (const lang of ['en', 'uk']) {
      const b = await openBrowser(viewport ? { viewport, mobile } : {});
      const page = b.page;
      try {
        await page.addInitScript((l) => localStorage.setItem('tensorchess.lang', l), lang);
        await firstGame(page, server.url);
        await page.waitForSelector('#board use.piece');
        // With a selection, the legend and a notice shown.
        await page.click('#board rect.sq[data-square="e2"]');
        assert.deepEqual(await axeViolations(page), [], `game page, ${size}, ${lang}`);
        await page.goto(`${server.url}/rules.html`);
        await page.waitForFunction(() => document.body.dataset.loaded === '1');
        assert.deepEqual(await axeViolations(page), [], `rules page, ${size}, ${lang}`);
        assert.deepEqual(page.errors, []);
      } finally {
        await b.close();
      }
    }
  }
});

test('coordinates: at least 4.5:1 against the page and 11 px tall on a phone', async () => {
  const b = await openBrowser({ viewport: PHONE, mobile: true });
  const page = b.page;
  try {
    await firstGame(page, server.url);
    const m = await page.evaluate(() => {
      const lum = (rgb) => {
        const [r, g, b2] = rgb.match(/\d+/g).slice(0, 3).map((x) => {
          const c = +x / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
      };
      const coord = document.querySelector('#board .coord');
      const a = lum(getComputedStyle(coord).fill);
      const bg = lum(getComputedStyle(document.body).backgroundColor);
      const [hi, lo] = a > bg ? [a, bg] : [bg, a];
      return { ratio: (hi + 0.05) / (lo + 0.05), height: coord.getBoundingClientRect().height };
    });
    assert.ok(m.ratio >= 4.5, `contrast ${m.ratio.toFixed(2)}:1`);
    assert.ok(m.height >= 11, `coordinates ${m.height.toFixed(1)} px tall`);
  } finally {
    await b.close();
  }
});

test('squares and pieces have names; a move is announced', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await openLobby(page, server.url);
    await newGame(page, { mode: 'local' });
    const name = (s) => page.$eval(`#board rect.sq[data-square="${s}"]`, (e) => e.getAttribute('aria-label'));
    assert.equal(await name('b1'), 'white beast on b1');
    assert.equal(await name('e4'), 'e4, empty');
    assert.equal(await name('f8'), 'black king on f8');
    assert.equal(await page.$eval('#board use.piece[data-square="i8"]', (e) => e.getAttribute('aria-label')), 'black beast on i8');
    assert.equal(await page.$eval('#board svg.board-svg', (e) => e.getAttribute('role')), 'grid');
    // The Move box, by its accessible name.
    const box = page.getByRole('combobox', { name: 'Move' });
    await box.fill('e2e4');
    await box.press('Enter');
    await waitForPly(page, 1);
    await page.waitForFunction(() => document.querySelector('#announce').textContent === 'White: e4.');
    assert.equal(await name('e4'), 'white pawn on e4');
    // Check and the end are read out too.
    await newGame(page, { mode: 'local', text: '5k4/10/5K4/10/10/10/10/R9 w - - 0 1' });
    await box.fill('Ra8');
    await box.press('Enter');
    await waitForPly(page, 1, 'over');
    await page.waitForFunction(() => /^Checkmate\. White wins$/.test(document.querySelector('#announce').textContent));
  } finally {
    await b.close();
  }
});

test('the Move box: move strings, SAN, the legal moves offered, and an illegal one explained', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await openLobby(page, server.url);
    await newGame(page, { mode: 'local', text: 'rtnbqkbntr/pppp1ppppp/4p5/10/10/1T8/PPPPPPPPPP/R1NBQKBNTR w KQkq - 0 2' });
    const box = page.getByRole('combobox', { name: 'Move' });
    await box.focus();
    const offered = await page.$$eval('#move-options option', (os) => os.map((o) => [o.value, o.label]));
    assert.ok(offered.some(([san, uci]) => san === 'Nb3>d4' && uci === 'c1b3>d4'), 'the propel is offered with its SAN and move string');
    // A propel by its move string.
    await box.fill('c1b3>d4');
    await box.press('Enter');
    await waitForPly(page, 1);
    assert.equal(await pieceAt(page, 'd4'), 'T');
    assert.equal(await box.inputValue(), '', 'the box is emptied');
    // SAN for Black.
    await box.fill('Tb6');
    await box.press('Enter');
    await waitForPly(page, 2);
    assert.equal((await game(page)).moves[1].san, 'Tb6');
    // Not a legal move: said why, nothing played, the text stays to correct.
    await box.fill('d4d9');
    await box.press('Enter');
    await page.waitForSelector('#toast.illegal:not(.hidden)');
    assert.equal(await box.inputValue(), 'd4d9');
    assert.equal((await game(page)).moves.length, 2);
    await shot(page, 'move-box-illegal-desktop');
    // A new game starts with an empty Move box (it kept the text before).
    // Typed SAN that check forbids says so, as the move string does
    // (it said "No pawn of yours can make that move to a3").
    await newGame(page, { mode: 'local', text: '4k5/10/10/10/10/10/P3q5/5K4 w - - 0 1' });
    assert.equal(await box.inputValue(), '', 'the box is empty in the new game');
    for (const typed of ['a3', 'a2a3']) {
      await page.evaluate(() => document.querySelector('#toast').classList.add('hidden'));
      await box.fill(typed);
      await box.press('Enter');
      await page.waitForSelector('#toast.illegal:not(.hidden)');
      const said = await page.textContent('#toast');
      assert.match(said, /in check/, `${typed}: ${said}`);
      assert.doesNotMatch(said, /No pawn of yours/);
    }
  } finally {
    await b.close();
  }
});

test('keyboard: a propel, castling and a promotion through the same taps as the mouse', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await openLobby(page, server.url);
    // Propel: knight c1, its beast b3, then d4.
    await newGame(page, { mode: 'local', text: 'rtnbqkbntr/pppp1ppppp/4p5/10/10/1T8/PPPPPPPPPP/R1NBQKBNTR w KQkq - 0 2' });
    // The skip link, then Tab: the board has the focus.
    await page.focus('.skip-link');
    await keys(page, 'Enter', 'Tab');
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('board-svg')), true, 'Tab reaches the board');
    await page.waitForSelector('#board .cursor');
    await enterOn(page, 'c1');
    await page.waitForSelector('#board .propel-beast[data-square="b3"]');
    await enterOn(page, 'b3');
    await page.waitForSelector('#board .propel-sign[data-square="b3"]');
    await shot(page, 'keyboard-propel-desktop');
    await enterOn(page, 'd4');
    await waitForPly(page, 1);
    assert.equal(await pieceAt(page, 'd4'), 'T');
    assert.equal(await pieceAt(page, 'b3'), 'N');
    // Esc cancels a selection.
    await enterOn(page, 'd7');
    await page.waitForSelector('#board .mark-dest');
    await keys(page, 'Escape');
    await page.waitForFunction(() => document.querySelector('#board').dataset.mode === 'idle');
    assert.equal(await page.$$eval('#board .mark-dest', (e) => e.length), 0);

    // Castling: king, rook, then an outline.
    await newGame(page, { mode: 'local', text: 'r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3TK3R w KQkq - 0 1' });
    await page.focus('#board svg.board-svg');
    await enterOn(page, 'f1');
    await enterOn(page, 'a1');
    await page.waitForSelector('#board .king-outline[data-square="b1"]');
    await enterOn(page, 'b1');
    await waitForPly(page, 1);
    assert.equal(await pieceAt(page, 'b1'), 'K');
    assert.equal(await pieceAt(page, 'c1'), 'R');

    // Promotion: the chooser takes the focus; arrows and Enter pick the beast.
    await newGame(page, { mode: 'local', text: 'k9/2P7/10/10/10/10/10/9K w - - 0 1' });
    await page.focus('#board svg.board-svg');
    await enterOn(page, 'c7');
    await enterOn(page, 'c8');
    await page.waitForSelector('.chooser-promotion');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.promo), 'q', 'the first option has the focus');
    await keys(page, 'Tab', 'Tab', 'Tab', 'Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.promo), 't');
    await keys(page, 'Enter');
    await waitForPly(page, 1);
    assert.equal(await pieceAt(page, 'c8'), 'T');
    assert.equal(await page.evaluate(() => document.activeElement.classList.contains('board-svg')), true, 'the focus is back on the board');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});
