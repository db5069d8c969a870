// The opening explorer on the analysis board (issue 42): two online games
// played through the API (one blitz, one correspondence) are counted when
// they end; the panel shows the start position's moves, a click on a move
// plays it and the panel follows; a speed filter changes the counts.

import { test, before, after } from 'node:test';
import { startFile, stopFile, pageApi, shot, assert, openOrigin } from './lib.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/** An online game between `white` and `black` (pages): `moves`, then `loser` resigns. */
async function playGame(white, black, clock, moves, loser) {
  const made = await pageApi(white, 'POST', '/api/online', { variant: 'tensor', color: 'white', clock });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  assert.equal((await pageApi(black, 'POST', `/api/games/${id}/join`, {})).status, 200);
  for (const [ply, move] of moves.entries()) {
    const mover = ply % 2 === 0 ? white : black;
    const r = await pageApi(mover, 'POST', `/api/games/${id}/act`, { type: 'move', move, ply });
    assert.equal(r.status, 200, `${move}: ${JSON.stringify(r.body)}`);
  }
  const quitter = loser === 'white' ? white : black;
  assert.equal((await pageApi(quitter, 'POST', `/api/games/${id}/act`, { type: 'resign' })).status, 200);
}

/** The panel's rows: `SAN games`. */
const rows = (page) => page.$$eval('#explorer tbody tr', (trs) => trs.map((tr) => `${tr.querySelector('.explorer-move')?.textContent} ${tr.querySelector('.explorer-games')?.textContent}`));

test('the explorer panel: moves played here, a click plays one, a filter counts fewer', async () => {
  const a = await browser.person();
  const b = await browser.person();
  try {
    // The games are played through the API.
    await openOrigin(a.page, server);
    await openOrigin(b.page, server);
    await playGame(a.page, b.page, { base_seconds: 180, increment_seconds: 2 }, ['e2e4', 'e7e5'], 'black');
    await playGame(a.page, b.page, null, ['e2e4', 'd7d5'], 'white');
    // Counted in the background once each game ends: wait for both.
    await a.page.waitForFunction(async () => {
      const r = await fetch('/api/explorer?variant=tensor');
      const j = await r.json();
      return j.white + j.draws + j.black === 2;
    }, undefined, { polling: 50 });

    const page = a.page;
    await page.goto(`${server.url}/analysis.html`);
    await page.waitForSelector('#explorer .explorer-move');
    assert.deepEqual(await rows(page), ['e4 2']);
    assert.equal(await page.$eval('#explorer tfoot .explorer-bar', (e) => e.getAttribute('title')), '50% / 0% / 50%');

    // A click plays the move on the board; the panel shows the replies.
    await page.click('#explorer .explorer-move[data-uci="e2e4"]');
    await page.waitForFunction(() => [...document.querySelectorAll('#tree .mv')].some((m) => m.textContent?.endsWith('e4')));
    await page.waitForFunction(() => document.querySelectorAll('#explorer tbody tr').length === 2);
    assert.deepEqual((await rows(page)).sort(), ['d5 1', 'e5 1']);
    await shot(page, 'explorer-after-e4');

    // Blitz only: the correspondence game's reply goes.
    await page.click('#explorer .explorer-filters summary');
    await page.check('#explorer input[name="explorer-speed"][value="blitz"]');
    await page.waitForFunction(() => document.querySelectorAll('#explorer tbody tr').length === 1);
    assert.deepEqual(await rows(page), ['e5 1']);
    // Rated only: neither game was rated.
    await page.check('#explorer-rated');
    await page.waitForSelector('#explorer .explorer-none');
    assert.deepEqual(page.errors, []);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
