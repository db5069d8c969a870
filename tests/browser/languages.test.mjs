// Languages: a browser set to Ukrainian gets the app and the Rules page in
// Ukrainian (the rulebook's terms), the header's switch changes it and the
// choice is remembered; the server's English is translated by its codes.

import { test, before, after } from 'node:test';
import {
  openBrowser, shot, tap, newGame, waitForPly, waitForGame, toastText, assert, PHONE, firstGame, openMenu, startFile, stopFile,
} from './lib.mjs';

let server;

before(async () => ({ server } = await startFile()));
after(() => stopFile({ server }));

test('a Ukrainian browser: the game page in Ukrainian, illegal tries and the end too', async () => {
  const b = await openBrowser({ locale: 'uk-UA' });
  const page = b.page;
  try {
    await firstGame(page, server.url);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'uk');
    assert.equal(await page.textContent('#btn-new'), 'Нова партія');
    assert.equal(await page.getAttribute('#move-input', 'id'), 'move-input');
    assert.equal(await page.textContent('label[for="move-input"]'), 'Хід');
    assert.equal(await page.$eval('#board rect.sq[data-square="b1"]', (e) => e.getAttribute('aria-label')), 'білий монстр на b1');
    await shot(page, 'uk-game-desktop');

    // An illegal propel, explained in Ukrainian (by the server's code, when it has /api/explain).
    await newGame(page, { mode: 'local', text: '1n7k/10/2t7/4P5/10/10/10/9K b - - 0 1' });
    await tap(page, 'b8');
    await tap(page, 'c6');
    await page.waitForSelector('#board .propel-sign');
    await tap(page, 'e5');
    const text = await toastText(page);
    assert.match(text, /^Неправильний хід/);
    assert.match(text, /виштовхнути|Фігура з b8 не може/);
    await shot(page, 'uk-illegal-propel-desktop');

    // The wording an issue asked for: "неможливий" in one word, "Точно?".
    // (The general sentence, said when the server cannot explain a typed move.)
    await page.route('**/api/explain', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"busy","kind":"unavailable"}' }));
    await page.evaluate(() => document.querySelector('#toast').classList.add('hidden'));
    await page.fill('#move-input', 'zz9');
    await page.press('#move-input', 'Enter');
    assert.match(await toastText(page), /«zz9» — тут неможливий хід/);
    await page.unroute('**/api/explain');
    await page.click('#btn-resign');
    await page.waitForSelector('#dlg-confirm[open]');
    assert.match(await page.textContent('#confirm-text'), /здаються\. Точно\?$/);
    await page.click('#confirm-no');

    // Mate: the banner in Ukrainian.
    await newGame(page, { mode: 'local', text: '5k4/10/5K4/10/10/10/10/R9 w - - 0 1' });
    await tap(page, 'a1');
    await tap(page, 'a8');
    await waitForPly(page, 1, 'over');
    await page.waitForSelector('#banner:not(.hidden)');
    assert.equal(await page.textContent('#banner .banner-title'), 'Мат');
    assert.equal(await page.textContent('#banner .banner-text'), 'Перемога білих');
    await shot(page, 'uk-checkmate-desktop');

    // The switch: English, remembered after a reload.
    await page.click('.lang-switch button[data-lang="en"]');
    assert.equal(await page.textContent('#btn-new'), 'New game');
    assert.equal(await page.textContent('#banner .banner-title'), 'Checkmate');
    await page.reload();
    await waitForGame(page);
    assert.equal(await page.textContent('#btn-new'), 'New game');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('the Rules page in Ukrainian on a phone, and back to English by the switch', async () => {
  const b = await openBrowser({ viewport: PHONE, mobile: true, locale: 'uk-UA' });
  const page = b.page;
  try {
    await page.goto(`${server.url}/rules.html`);
    await page.waitForFunction(() => document.body.dataset.loaded === '1');
    assert.equal(await page.textContent('h1'), 'Як грати в шахи Тензор (і в Чесенс)');
    assert.equal(await page.textContent('#ricochet-rook h3'), 'Відскок: тура');
    assert.equal(await page.textContent('#propel-knight h3'), 'Виштовхування: кінь');
    assert.match(await page.textContent('#castling .rule-body'), /рокіровк/);
    assert.match(await page.textContent('#pass-through .rule-body'), /монстр/);
    assert.equal(await page.textContent('#castling .reset'), 'Скинути');
    await page.locator('#propel-knight').scrollIntoViewIfNeeded();
    await shot(page, 'uk-rules-phone');
    await openMenu(page); // on a phone the switches fold under the menu button
    await page.tap('.lang-switch button[data-lang="en"]');
    assert.equal(await page.textContent('#ricochet-rook h3'), 'Ricochet: the rook');
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    assert.equal(await page.textContent('#ricochet-rook h3'), 'Ricochet: the rook');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});
