// A player's games searched on their profile (issue 42 item 3): three
// chess games between accounts played through the API (Ann wins one, loses
// one, draws one); the profile's search finds them by opponent, by result
// and by a position reached, says when nothing is found and shows the
// server's 400; the address names the search (a reload runs it again); the
// analysis board's explorer links to "My games through this position" and
// to the analysed game's players' games. axe on the page with results;
// desktop and phone (375×667) screenshots.

import { test, before, after } from 'node:test';
import { startFile, stopFile, pageApi, registered, axeViolations, shot, openBrowser, switchLanguage, assert } from './lib.mjs';

const SMALL_PHONE = { width: 375, height: 667 };

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/**
 * A chess game `white` makes and `black` joins (pages of two accounts):
 * `moves`, then `end`: `white` or `black` resigns, or `draw` (agreed).
 * @returns {Promise<string>} its id
 */
async function playGame(white, black, clock, moves, end) {
  const made = await pageApi(white, 'POST', '/api/online', { variant: 'chess', color: 'white', clock });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id;
  assert.equal((await pageApi(black, 'POST', `/api/games/${id}/join`, {})).status, 200);
  const act = async (page, body) => {
    const r = await pageApi(page, 'POST', `/api/games/${id}/act`, body);
    assert.equal(r.status, 200, `${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
  };
  for (const [ply, move] of moves.entries()) await act(ply % 2 === 0 ? white : black, { type: 'move', move, ply });
  if (end === 'draw') {
    await act(white, { type: 'offer_draw' });
    await act(black, { type: 'accept_draw' });
  } else {
    await act(end === 'white' ? white : black, { type: 'resign' });
  }
  return id;
}

/** The games the search lists: `id result` (the profile's player's result), in order. */
const listed = (page) => page.$$eval('#gsearch-results li', (lis) => lis.map((li) => `${li.dataset.id} ${li.dataset.result || ''}`));

/** Fills the search form (the fields named; the others cleared) and runs it; waits for its answer. */
async function search(page, fields) {
  await page.click('#gsearch-clear');
  for (const [name, value] of Object.entries(fields)) {
    const sel = `#form-gsearch [name="${name}"]`;
    if (await page.$eval(sel, (e) => e.tagName === 'SELECT')) await page.selectOption(sel, value);
    else await page.fill(sel, value);
  }
  await page.click('#gsearch-go');
  await page.waitForFunction(() => {
    const busy = document.querySelector('#form-gsearch')?.getAttribute('aria-busy') === 'true';
    const status = document.querySelector('#gsearch-status')?.textContent;
    const error = document.querySelector('#gsearch-error')?.textContent;
    return !busy && !!(status || error);
  });
}

test("a profile's game search: by opponent, result and position; nothing found; a 400 said; the explorer's link", async () => {
  const ann = await registered(browser, server, 'ann');
  const bob = await registered(browser, server, 'bob');
  const cat = await registered(browser, server, 'cat');
  try {
    const won = await playGame(ann.page, bob.page, { base_seconds: 180, increment_seconds: 2 }, ['e2e4', 'e7e5'], 'black');
    const lost = await playGame(cat.page, ann.page, null, ['e2e4', 'd7d5'], 'black');
    const drawn = await playGame(ann.page, bob.page, { base_seconds: 60 }, ['e2e4', 'd7d5', 'e4d5'], 'draw');
    // The position search reads what the explorer counted, in the
    // background once each game ended: wait for all three.
    await ann.page.waitForFunction(async () => {
      const j = await (await fetch('/api/explorer?variant=chess')).json();
      return j.white + j.draws + j.black === 3;
    }, undefined, { polling: 50 });

    const page = ann.page;
    await page.goto(`${server.url}/#/player/ann`);
    await page.waitForFunction(() => document.body.dataset.profile === 'ann');
    // No search asked: the form only.
    assert.deepEqual(await listed(page), []);
    assert.equal(await page.textContent('#gsearch-status'), '');

    // By opponent: the two games with Bob, newest first; names lead to profiles.
    await search(page, { vs: 'bob' });
    assert.deepEqual(await listed(page), [`${drawn} draw`, `${won} win`]);
    assert.equal(await page.textContent('#gsearch-status'), '2 games found');
    const links = await page.$$eval(`#gsearch-results li[data-id="${won}"] a`, (as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, ['/#/player/ann', '/#/player/bob', `#/game/${won}`]);
    // The address names the search: a reload runs it again.
    assert.match(await page.evaluate(() => location.hash), /^#\/player\/ann\?vs=bob$/);

    // By result, from Ann's side.
    await search(page, { result: 'win' });
    assert.deepEqual(await listed(page), [`${won} win`]);
    await search(page, { result: 'loss' });
    assert.deepEqual(await listed(page), [`${lost} loss`]);
    await search(page, { result: 'draw', vs: 'bob' });
    assert.deepEqual(await listed(page), [`${drawn} draw`]);
    await search(page, { speeds: 'correspondence' });
    assert.deepEqual(await listed(page), [`${lost} loss`]);

    // By a position reached: after 1. e4 d5 (typed as a person would).
    await search(page, { variant: 'chess', play: '1. e4 d5' });
    assert.deepEqual(await listed(page), [`${drawn} draw`, `${lost} loss`]);
    await search(page, { variant: 'chess', play: 'e2e4 d7d5', result: 'loss' });
    assert.deepEqual(await listed(page), [`${lost} loss`]);

    // Nothing found, said so.
    await search(page, { variant: 'chess', play: 'd2d4' });
    assert.deepEqual(await listed(page), []);
    assert.equal(await page.textContent('#gsearch-status'), 'No game found.');
    assert.ok(await page.isHidden('#gsearch-error'));
    // The server's 400 shown: an illegal move.
    await search(page, { variant: 'chess', play: 'e2e5' });
    assert.match(await page.textContent('#gsearch-error'), /Illegal move e2e5 at ply 1/);
    assert.ok(await page.isVisible('#gsearch-error'));
    // An opponent who does not exist.
    await search(page, { vs: 'nobody' });
    assert.equal(await page.textContent('#gsearch-error'), 'There is no player with the user name nobody.');

    // Reloaded with a search in the address: run at once.
    await page.goto(`${server.url}/#/player/ann?vs=bob&result=win`);
    await page.reload();
    await page.waitForFunction((id) => document.querySelector(`#gsearch-results li[data-id="${id}"]`), won);
    assert.deepEqual(await listed(page), [`${won} win`]);
    assert.equal(await page.inputValue('#form-gsearch [name="vs"]'), 'bob');
    assert.equal(await page.inputValue('#form-gsearch [name="result"]'), 'win');

    // axe on the page with its results.
    await search(page, {});
    assert.equal((await listed(page)).length, 3);
    assert.deepEqual(await axeViolations(page), []);
    await page.evaluate(() => document.querySelector('#gsearch-card')?.scrollIntoView());
    await shot(page, 'profile-search-desktop');

    // The explorer: after 1. e4 d5, "My games through this position".
    await page.goto(`${server.url}/analysis.html#variant=chess`);
    await page.waitForSelector('#explorer .explorer-move[data-uci="e2e4"]');
    await page.click('#explorer .explorer-move[data-uci="e2e4"]');
    await page.waitForSelector('#explorer .explorer-move[data-uci="d7d5"]');
    await page.click('#explorer .explorer-move[data-uci="d7d5"]');
    await page.waitForFunction(() => document.querySelector('#explorer .explorer-games-link')?.getAttribute('href')?.includes('d7d5'));
    assert.deepEqual(await page.$$eval('#explorer .explorer-games-link', (as) => as.map((a) => a.textContent)), ['My games through this position']);
    await page.evaluate(() => document.querySelector('#explorer-search')?.scrollIntoView({ block: 'center' }));
    await shot(page, 'profile-search-explorer-link');
    await page.click('#explorer .explorer-games-link');
    await page.waitForFunction((ids) => {
      const shown = [...document.querySelectorAll('#gsearch-results li')].map((li) => /** @type {HTMLElement} */ (li).dataset.id);
      return document.body.dataset.profile === 'ann' && shown.join() === ids.join();
    }, [drawn, lost]);
    assert.equal(await page.inputValue('#form-gsearch [name="play"]'), 'e2e4 d7d5');
    assert.equal(await page.inputValue('#form-gsearch [name="variant"]'), 'chess');

    // A game analysed: its other player's games through the position too.
    await page.goto(`${server.url}/analysis.html#game=${won}`);
    await page.waitForFunction(() => document.querySelectorAll('#explorer .explorer-games-link').length === 2);
    assert.deepEqual(await page.$$eval('#explorer .explorer-games-link', (as) => as.map((a) => a.textContent)),
      ['My games through this position', "bob's games through this position"]);
    assert.deepEqual(page.errors, []);
  } finally {
    for (const p of [ann, bob, cat]) await p.context.close();
  }
});

test('the search on a 375×667 phone: the form and its results fit the width', async () => {
  const b = await openBrowser({ viewport: SMALL_PHONE, mobile: true });
  const page = b.page;
  try {
    // The games of the test above (the same server): any of Bob's.
    await page.goto(`${server.url}/#/player/bob?vs=ann`);
    await page.waitForFunction(() => document.querySelectorAll('#gsearch-results li').length === 2);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: innerWidth }));
    assert.ok(widths.page <= widths.view, `no sideways scroll: ${JSON.stringify(widths)}`);
    await page.evaluate(() => document.querySelector('#gsearch-card')?.scrollIntoView());
    await shot(page, 'profile-search-phone');
    await page.evaluate(() => document.querySelector('#gsearch-results')?.scrollIntoView());
    await shot(page, 'profile-search-phone-results');
    // In Ukrainian: the form's words and the results' drawn again.
    await switchLanguage(page, 'uk');
    assert.equal(await page.textContent('#gsearch-title'), 'Пошук партій');
    assert.equal(await page.textContent('#gsearch-status'), 'Знайдено 2 партії');
    assert.match(await page.textContent('#gsearch-results'), /Перемога|Поразка|Нічия/);
    await page.evaluate(() => document.querySelector('#gsearch-card')?.scrollIntoView());
    await shot(page, 'profile-search-phone-uk');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('more than a page of games: "More" shows the next ones', async () => {
  const dan = await registered(browser, server, 'dan');
  const eve = await registered(browser, server, 'eve');
  try {
    const ids = [];
    for (let i = 0; i < 21; i++) ids.push(await playGame(dan.page, eve.page, null, ['e2e4', 'e7e5'], 'black'));
    const page = dan.page;
    await page.goto(`${server.url}/#/player/dan?vs=eve`);
    await page.waitForFunction(() => document.querySelectorAll('#gsearch-results li').length === 20);
    assert.equal(await page.textContent('#gsearch-status'), 'The first 20 games found');
    assert.ok(await page.isVisible('#gsearch-more'));
    await page.click('#gsearch-more');
    await page.waitForFunction(() => document.querySelectorAll('#gsearch-results li').length === 21);
    assert.equal(await page.textContent('#gsearch-status'), '21 games found');
    assert.ok(await page.isHidden('#gsearch-more'));
    assert.deepEqual((await listed(page)).sort(), ids.map((id) => `${id} win`).sort());
    assert.deepEqual(page.errors, []);
  } finally {
    await dan.context.close();
    await eve.context.close();
  }
});
