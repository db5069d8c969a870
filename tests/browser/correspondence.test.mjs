// Correspondence games in the browser: a challenge with days per move from
// a profile, accepted on a phone; the clocks show days and hours; the
// header's "Your turn" counts the games waiting for the player's move and
// follows the moves; axe-core on the game with its days clock.

import { test, before, after } from 'node:test';
import {
  shot, tap, waitForPly, waitForGame, axeViolations, assert, registered as registeredIn, startFile, stopFile, openGames,
} from './lib.mjs';

/** A person with an account named `username`, on the app's home page. */
const registered = (username, opts = {}) => registeredIn(browser, server, username, opts);

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/** The header's "Your turn" link: its text, or null while hidden. */
const yourTurn = (page) => page.$eval('#your-turn', (a) => (a.classList.contains('hidden') ? null : a.querySelector('.your-turn-words').textContent));

test('correspondence: days per move from a profile, a days clock, and "Your turn" in the header', async () => {
  const frank = await registered('frank');
  const gina = await registered('gina', { viewport: { width: 375, height: 667 } });
  const f = frank.page;
  const g = gina.page;
  try {
    assert.equal(await yourTurn(f), null, 'no game waits');
    await f.evaluate(() => { location.hash = '#/player/gina'; });
    await f.waitForFunction(() => document.body.dataset.profile === 'gina');
    await f.click('#btn-challenge');
    await f.waitForSelector('#dlg-challenge[open]');
    await f.selectOption('#form-challenge select[name=variant]', 'chess');
    await f.selectOption('#form-challenge select[name=clock]', 'd3');
    await f.selectOption('#form-challenge select[name=color]', 'white');
    await f.uncheck('#form-challenge input[name=rated]');
    await f.click('#challenge-send');
    await f.waitForSelector('#challenges .challenge.outgoing');
    await g.waitForSelector('#challenges .challenge.incoming');
    assert.match(await g.textContent('#challenges .challenge.incoming'), /Chess · 3 days a move · Casual · you play Black/);
    await g.click('#challenges .challenge-accept');
    await g.waitForURL(/\/#\/game\//);
    await waitForGame(g);
    await waitForGame(f);
    await f.waitForFunction(() => document.body.dataset.seat === 'white');
    // Three days on each clock; Frank's move, so his header says so.
    await f.waitForFunction(() => document.querySelector('#clock-bottom')?.textContent === '3 d 0 h');
    assert.equal(await g.textContent('#clock-top'), '3 d 0 h');
    assert.match(await f.textContent('#game-info'), /correspondence, 3 days a move/);
    await f.waitForFunction(() => document.querySelector('#your-turn .your-turn-words')?.textContent === 'Your turn: 1');
    assert.equal(await yourTurn(g), null);
    assert.match(await f.getAttribute('#your-turn', 'href'), /#\/game\//);
    await shot(f, 'correspondence-your-turn');
    // Frank moves: the turn passes to Gina, in both headers.
    await tap(f, 'e2');
    await f.waitForSelector('#board .mark-dest[data-square="e4"]');
    await tap(f, 'e4');
    await waitForPly(f, 1);
    await waitForPly(g, 1);
    await f.waitForFunction(() => document.querySelector('#your-turn')?.classList.contains('hidden'));
    // On the phone the badge is the count alone, and the site's name is
    // not cut short beside it.
    await g.waitForFunction(() => document.querySelector('#your-turn')?.getAttribute('aria-label') === 'Correspondence games waiting for your move: 1');
    assert.equal(await g.$eval('#your-turn', (a) => a.innerText.trim()), '1');
    await g.evaluate(() => window.scrollTo(0, 0));
    await shot(g, 'correspondence-phone');
    const header = await g.$eval('header.top', (h) => h.getBoundingClientRect().height);
    assert.ok(header <= 56, `the phone's header stays one row: ${header}px`);
    const brand = await g.$eval('header.top .brand', (b) => ({ text: b.textContent, scroll: b.scrollWidth, client: b.clientWidth }));
    assert.ok(brand.scroll <= brand.client, `the site's name is whole beside the badge: ${JSON.stringify(brand)}`);
    // The player's own list says whose move each game waits for, and marks
    // the correspondence game.
    await openGames(g);
    await g.waitForSelector('#games-list .game-row[data-turn="you"][data-correspondence="3"]');
    assert.match(await g.textContent('#games-list .game-row[data-turn="you"]'), /correspondence, 3 days a move[\s\S]*your move/);
    await g.click('#games-close');
    assert.deepEqual(await axeViolations(g), []);
  } finally {
    await frank.context.close();
    await gina.context.close();
  }
});
