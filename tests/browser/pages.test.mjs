// Every board size at desktop and phone size, touch taps, Chessence drops,
// replaying a finished game, and the rules page's live mini-boards.

import { test, before, after } from 'node:test';
import {
  openBrowser, shot, settled, tap, sq, pieceAt, game, newGame, waitForPly, waitForGame, assert, PHONE, firstGame, openLobby, openGames, startFile, stopFile,
  switchLanguage,
} from './lib.mjs';

let server;

before(async () => ({ server } = await startFile()));
after(() => stopFile({ server }));

test('phone portrait: taps with touch, every board, choosers fit', async () => {
  const b = await openBrowser({ viewport: PHONE, mobile: true });
  const page = b.page;
  try {
    await firstGame(page, server.url);
    // The board fits the screen width.
    const box = await page.$eval('#board svg', (s) => s.getBoundingClientRect().toJSON());
    assert.ok(box.width <= PHONE.width && box.width > PHONE.width * 0.8, `board width ${box.width}`);
    await tap(page, 'e2', { touch: true });
    await page.waitForSelector('#board .mark-dest[data-square="e4"]');
    await shot(page, 'tensor-phone-selected');
    await tap(page, 'e4', { touch: true });
    await waitForPly(page, 2, 'your-move');
    await shot(page, 'tensor-phone');

    // The New game dialog's selects show their options' whole names.
    for (const lang of ['en', 'uk']) {
      await switchLanguage(page, lang);
      await page.click('#btn-new');
      for (const v of ['tensor', 'chess', 'chessence']) {
        await page.selectOption('#form-new select[name=variant]', v);
        const fits = await page.$eval('#form-new select[name=variant]', (sel) => {
          // The chosen option's text, measured in the select's font, within its box (less its arrow).
          const c = document.createElement('canvas').getContext('2d');
          const cs = getComputedStyle(sel);
          c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
          const text = sel.options[sel.selectedIndex].textContent;
          return { text, need: c.measureText(text).width, have: sel.clientWidth - 40 };
        });
        assert.ok(fits.need <= fits.have, `${lang}: "${fits.text}" needs ${fits.need} px, the select has ${fits.have}`);
      }
      await page.keyboard.press('Escape');
    }
    await switchLanguage(page, 'en');
    await page.click('#btn-new');
    await shot(page, 'new-game-dialog-phone');
    await page.keyboard.press('Escape');

    await newGame(page, { variant: 'chess', mode: 'local' });
    await shot(page, 'chess-phone');

    await newGame(page, { variant: 'chessence', mode: 'local' });
    const holes = await page.$$eval('#board rect.sq[data-square="a2"], #board rect.sq[data-square="e7"]', (e) => e.length);
    assert.equal(holes, 0, 'missing squares are not drawn');
    await shot(page, 'chessence-phone');

    // Promotion chooser with the beast, at phone size.
    await newGame(page, { variant: 'tensor', mode: 'local', text: 'k9/2P7/10/10/10/10/10/9K w - - 0 1' });
    await tap(page, 'c7', { touch: true });
    await tap(page, 'c8', { touch: true });
    await page.waitForSelector('.chooser-promotion');
    const promos = await page.$$eval('.chooser-option', (els) => els.map((e) => e.dataset.promo));
    assert.deepEqual(promos, ['q', 'r', 'b', 'n', 't']);
    // Next to the promotion square: right under it, across its file.
    const near = await page.evaluate(() => {
      const s = document.querySelector('#board rect.sq[data-square="c8"]').getBoundingClientRect();
      const c = document.querySelector('.chooser-promotion').getBoundingClientRect();
      return { gap: c.top - s.bottom, across: c.left <= s.left + s.width / 2 && c.right >= s.left + s.width / 2 };
    });
    assert.ok(Math.abs(near.gap) <= 2 && near.across, `the chooser next to c8: ${JSON.stringify(near)}`);
    await shot(page, 'promotion-phone');
    await page.tap('.chooser-option[data-promo="t"]');
    await waitForPly(page, 1);
    assert.equal(await pieceAt(page, 'c8'), 'T');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('desktop: chess and Chessence boards, drops, beast-capture chooser, flip, replay', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await openLobby(page, server.url);
    await newGame(page, { variant: 'chess', mode: 'engine', level: 1, color: 'black' });
    // Playing Black: Black at the bottom, and the engine opens.
    await waitForPly(page, 1, 'your-move');
    const a8 = await page.$eval('#board rect.sq[data-square="a8"]', (r) => +r.getAttribute('y'));
    assert.ok(a8 > 600, 'the board is seen from Black');
    await shot(page, 'chess-desktop-black');
    await page.click('#btn-flip');
    await page.waitForFunction(() => +document.querySelector('#board rect.sq[data-square="a8"]').getAttribute('y') === 0);

    // Chessence: capture to free a drop square, then drop from the reserve.
    await newGame(page, { variant: 'chessence', mode: 'local' });
    await shot(page, 'chessence-desktop');
    await tap(page, 'd2');
    await tap(page, 'a5');
    await waitForPly(page, 1);
    // Black answers with any move of a man.
    const g = await game(page);
    const reply = g.position.legal.find((x) => x.kind === 'normal');
    await tap(page, reply.from);
    await tap(page, reply.to);
    await waitForPly(page, 2);
    await page.click('#board .hand-bottom');
    await page.waitForSelector('#board .drop-dest[data-square="d2"]');
    await shot(page, 'chessence-drop-desktop');
    // A second tap puts the reserve back; a drag from it drops a man.
    await page.click('#board .hand-bottom');
    await page.waitForSelector('#board .drop-dest', { state: 'detached' });
    const hand = await page.$eval('#board .hand-bottom', (e) => e.getBoundingClientRect().toJSON());
    const d2 = await (await page.$(sq('d2'))).boundingBox();
    await page.mouse.move(hand.x + 20, hand.y + hand.height / 2);
    await page.mouse.down();
    await page.mouse.move(d2.x + d2.width / 2, d2.y + d2.height / 2, { steps: 10 });
    await page.mouse.up();
    await waitForPly(page, 3);
    assert.equal(await pieceAt(page, 'd2'), 'M');

    // A beast landing where it may capture or not: the board asks.
    await newGame(page, { variant: 'tensor', mode: 'local', text: '9k/10/10/3P6/4t1t3/4T5/10/9K w - - 0 1' });
    await tap(page, 'e3');
    await tap(page, 'e5');
    await page.waitForSelector('.chooser-beast');
    await page.waitForSelector('#board .capture-mark[data-square="e4"]');
    await shot(page, 'beast-capture-chooser-desktop');
    await page.click('.chooser-option[data-uci="e3e5xe4"]');
    await waitForPly(page, 1);
    assert.equal(await pieceAt(page, 'e4'), null, 'the black beast was captured');
    assert.equal(await pieceAt(page, 'e5'), 'T');

    // A finished game replays from the start.
    await newGame(page, { variant: 'tensor', mode: 'local', text: '[Variant "Tensor"]\n\n1. e4 e5 2. Tb3 Tb6 1/2-1/2' });
    await page.waitForSelector('#banner:not(.hidden)');
    await page.click('#banner-close');
    await page.click('#nav-play');
    await page.waitForFunction(() => document.body.dataset.shown === '0');
    await page.waitForFunction(() => document.body.dataset.shown === '4', null, { timeout: 15000 });
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('the rules page: live mini-boards for every rule', async () => {
  for (const [viewport, mobile, name] of [[undefined, false, 'desktop'], [PHONE, true, 'phone']]) {
    const b = await openBrowser(viewport ? { viewport, mobile } : {});
    const page = b.page;
    try {
      await page.goto(`${server.url}/rules.html`);
      await page.waitForFunction(() => document.body.dataset.ready === '1');
      const boards = await page.$$eval('.rule .mini svg', (e) => e.length);
      assert.ok(boards >= 15, `${boards} boards`);
      const at = (id, s) => `#${id} .mini rect.sq[data-square="${s}"]`;
      const press = (sel) => (mobile ? page.tap(sel) : page.click(sel));
      await page.waitForSelector('#propel-knight .mini use.piece[data-square="b8"]');
      // Knight propel in three taps.
      await page.locator('#propel-knight').scrollIntoViewIfNeeded();
      await press(at('propel-knight', 'b8'));
      await press(at('propel-knight', 'c6'));
      await page.waitForSelector('#propel-knight .propel-sign');
      await shot(page, `rules-propel-${name}`);
      await press(at('propel-knight', 'd4'));
      await page.waitForFunction(() => document.querySelector('#propel-knight .mini-status').textContent.includes('Nc6>d4'));
      // Pieces of the side not to move show their moves too.
      await page.locator('#pass-through').scrollIntoViewIfNeeded();
      await press(at('pass-through', 'a2'));
      await page.waitForSelector('#pass-through .mark-dest[data-square="g2"]');
      assert.equal(await page.$('#pass-through .mark-dest[data-square="h2"]'), null);
      await shot(page, `rules-pass-through-${name}`);
      // Castling through the beast on the rules page.
      await page.locator('#castling').scrollIntoViewIfNeeded();
      await press(at('castling', 'f1'));
      await press(at('castling', 'a1'));
      await press(at('castling', 'c1'));
      await page.waitForFunction(() => document.querySelector('#castling .mini-status').textContent.includes('Kc1'));
      await page.click('#castling .reset');
      await page.waitForSelector('#castling .mini use.piece[data-square="f1"]');
      assert.deepEqual(page.errors, []);
    } finally {
      await b.close();
    }
  }
});

test('bad FEN and PGN are shown in the dialog; resign, draw agreement and delete', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await openLobby(page, server.url);
    await page.click('#btn-engine');
    await page.evaluate(() => { document.querySelector('#form-new details').open = true; });
    await page.fill('#form-new textarea[name=import]', 'rtnbqkbntr/pppppppppp/10/10/10/10/PPPPPPPPPP/RTNBQKBNTR x KQkq - 0 1');
    await page.click('#btn-start');
    await page.waitForSelector('#new-error:not(.hidden)');
    assert.match(await page.textContent('#new-error'), /FEN side to move/);
    await page.fill('#form-new textarea[name=import]', '[Variant "Tensor"]\n\n1. e4 e5 2. Qh9 *');
    await page.click('#btn-start');
    await page.waitForFunction(() => document.querySelector('#new-error').textContent.includes('Qh9'));
    await shot(page, 'bad-pgn-desktop');
    await page.click('#form-new button[value=cancel]');

    // Resigning against the engine, after confirming.
    await newGame(page, { variant: 'tensor', mode: 'engine', level: 1 });
    await page.click('#btn-resign');
    await page.click('#confirm-yes');
    await page.waitForSelector('#banner:not(.hidden)');
    assert.equal(await page.textContent('#banner .banner-title'), 'White resigns');
    assert.equal(await page.textContent('#banner .banner-text'), 'Black wins');
    const resigned = (await game(page)).id;

    // Two players agree to a draw.
    await newGame(page, { variant: 'chess', mode: 'local' });
    await page.click('#btn-draw');
    await page.click('#confirm-yes');
    await page.waitForFunction(() => document.querySelector('#banner .banner-text').textContent === 'by agreement');

    // The resigned game is in the list as finished; delete it.
    await openGames(page);
    const row = `#games-list .game-row[data-id="${resigned}"]`;
    await page.waitForSelector(row);
    assert.match(await page.textContent(row), /0-1 \(resignation\)/);
    assert.equal(await page.textContent(`${row} .open-game`), 'Replay');
    await page.click(`${row} button:not(.open-game)`);
    await page.waitForSelector(row, { state: 'detached' });
    await page.click('#games-close');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('the rules page: check, mate, stalemate, en passant and the draws, played on their boards', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await page.goto(`${server.url}/rules.html`);
    await page.waitForFunction(() => document.body.dataset.loaded === '1');
    // The footer links the site's rules, not a file of the project's sources.
    const footer = await page.$eval('.rules-page > p.muted:last-of-type', (p) => ({ text: p.textContent, links: [...p.querySelectorAll('a')].map((a) => a.getAttribute('href')) }));
    assert.doesNotMatch(footer.text, /docs\/rules\.md/);
    assert.ok(footer.links.includes('/rules.html'), `footer links ${footer.links}`);
    const at = (id, s) => `#${id} .mini rect.sq[data-square="${s}"]`;
    const status = (id) => page.textContent(`#${id} .mini-status`);
    const play = async (id, from, to) => {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.click(at(id, from));
      await page.click(at(id, to));
      await page.waitForFunction((i) => document.querySelector(`#${i} .mini-status`).textContent.length > 0, id);
    };
    // In check: only the moves that end it are offered.
    await page.locator('#check').scrollIntoViewIfNeeded();
    await page.waitForSelector('#check .check-glow[data-square="f8"]');
    await page.click(at('check', 'g6'));
    const beast = await page.$$eval('#check .mark-dest', (e) => e.map((x) => x.dataset.square).sort());
    assert.deepEqual(beast, ['f5', 'f6', 'f7'], 'the beast may only step into the rook\'s line');
    await play('checkmate', 'a1', 'a8');
    assert.match(await status('checkmate'), /Ra8# .* — Checkmate: White wins/);
    await play('stalemate', 'c1', 'c7');
    assert.match(await status('stalemate'), /Stalemate: Draw/);
    await play('en-passant', 'd5', 'e6');
    assert.match(await status('en-passant'), /dxe6/);
    await page.waitForSelector('#en-passant .mini use.piece[data-square="e5"]', { state: 'detached' });
    await play('draw-hundred', 'c2', 'c3');
    assert.match(await status('draw-hundred'), /Draw: 100 plies/);
    // The repetition board: the moves its try-it line names are the board's
    // own (it named h8-g6 while the knight stood on i8), played twice: a draw.
    const tryit = await page.textContent('#draw-repetition .try');
    const named = [...tryit.matchAll(/([a-j][1-8])–([a-j][1-8])/g)].map((m) => [m[1], m[2]]);
    assert.equal(named.length, 4, tryit);
    for (let round = 0; round < 2; round++) {
      for (const [from, to] of named) {
        await page.locator('#draw-repetition').scrollIntoViewIfNeeded();
        await page.click(at('draw-repetition', from));
        await page.click(at('draw-repetition', to));
        await page.waitForSelector(`#draw-repetition .mini use.piece[data-square="${to}"]`, { state: 'attached' });
        await settled(page);
      }
    }
    assert.match(await status('draw-repetition'), /Draw/);
    await play('draw-dead', 'e4', 'e5');
    assert.match(await status('draw-dead'), /Draw: neither side can checkmate/);
    await shot(page, 'rules-draw-dead-desktop');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});
