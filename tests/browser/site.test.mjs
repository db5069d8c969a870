// The site as a whole: the same header on every page (the site's pages,
// Tournaments among them,
// the player's menu: one can log in from any page), at most 56 px tall on
// a 375×667 phone; skip links that lead somewhere; a second page's modules
// from the browser's cache; and the home page's
// first screen for a newcomer (a live board, a game against the engine one
// tap away, what Tensor Chess is with links to the lessons and the rules,
// the lobby one tap away), on a phone and on a desktop.

import { test, before, after } from 'node:test';
import {
  openBrowser, shot, assert, openMenu, waitForGame, DESKTOP, startFile, stopFile,
} from './lib.mjs';

const SMALL_PHONE = { width: 375, height: 667 };
const LINKS = [['play', '/#/'], ['tournaments', '/#/tournaments'], ['bots', '/#/bots'], ['analysis', '/analysis.html'], ['puzzles', '/puzzles.html'], ['lessons', '/lessons.html'], ['rules', '/rules.html']];

let server;

before(async () => ({ server } = await startFile()));
after(() => stopFile({ server }));

/** Waits until the page's header is complete (its player known). */
async function headerReady(page) {
  await page.waitForSelector('header.top #btn-player');
  await page.waitForFunction(() => !!document.body.dataset.player);
}

const PAGES = [
  ['home', '/', 'play'],
  ['game', '/#/game/nosuchgame1', 'play'],
  ['profile', '/#/player/nobody', 'play'],
  ['tournaments', '/#/tournaments', 'tournaments'],
  ['tournament', '/#/tournament/nosuchtourney', 'tournaments'],
  ['bots', '/#/bots', 'bots'],
  ['docs', '/docs/bots', 'bots'],
  ['rules', '/rules.html', 'rules'],
  ['lessons', '/lessons.html', 'lessons'],
  ['puzzles', '/puzzles.html', 'puzzles'],
  ['analysis', '/analysis.html', 'analysis'],
];

test('the same header on every page, at most 56 px on a 375×667 phone', async () => {
  for (const [viewport, mobile, size] of [[DESKTOP, false, 'desktop'], [SMALL_PHONE, true, 'phone']]) {
    const b = await openBrowser({ viewport, mobile });
    const page = b.page;
    try {
      for (const [name, url, current] of PAGES) {
        await page.goto(`${server.url}${url}`);
        await headerReady(page);
        const header = await page.evaluate(() => {
          const h = document.querySelector('header.top');
          return {
            links: [...h.querySelectorAll('nav a[data-nav]')].map((a) => [a.dataset.nav, a.getAttribute('href')]),
            current: [...h.querySelectorAll('nav a[aria-current="page"]')].map((a) => a.dataset.nav),
            height: h.getBoundingClientRect().height,
            player: !!h.querySelector('#btn-player'),
            settings: !!h.querySelector('#btn-settings'),
          };
        });
        assert.deepEqual(header.links, LINKS, `${name}: the site's pages`);
        assert.deepEqual(header.current, [current], `${name}: the page shown is marked`);
        assert.ok(header.player && header.settings, `${name}: the player's menu and the settings`);
        if (size === 'phone') {
          assert.ok(header.height <= 56, `${name}: the header is ${header.height} px tall on a phone`);
          // The folded links open under the menu button, and take one there.
          await openMenu(page);
          assert.ok(await page.isVisible('#site-nav a[data-nav="rules"]'), `${name}: the links unfold`);
          if (name === 'home') await shot(page, 'site-header-menu-phone');
          await page.keyboard.press('Escape');
          assert.equal(await page.isVisible('#site-nav a[data-nav="rules"]'), false, `${name}: Esc folds them`);
        }
        // Every skip link leads to an element of the page.
        const skips = await page.$$eval('a.skip-link', (as) => as.map((a) => {
          const id = a.getAttribute('href').slice(1);
          return [id, !!document.getElementById(id)];
        }));
        for (const [id, exists] of skips) assert.ok(exists, `${name}: the skip link's #${id} exists`);
      }
      assert.deepEqual(page.errors, []);
    } finally {
      await b.close();
    }
  }
});

test('the shell (ui/shell.js) is in the first paint of every page, on a slow network', async () => {
  const b = await openBrowser({ viewport: DESKTOP });
  const page = b.page;
  try {
    // Each request waits 150 ms: a page drawn before its shell's module came would show no header.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: -1, uploadThroughput: -1 });
    // Each page as a first visit: nothing from the cache (the next test).
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // What the first frame has (requestAnimationFrame runs before the frame is drawn).
    await page.addInitScript(() => {
      requestAnimationFrame(() => {
        const first = document.body && document.body.firstElementChild;
        window.firstFrame = {
          skip: !!first && first.matches('a.skip-link[href^="#"]'),
          links: document.querySelectorAll('header.top nav a[data-nav]').length,
          announce: !!document.querySelector('#announce[aria-live="polite"]'),
        };
      });
    });
    for (const url of ['/', '/rules.html', '/lessons.html', '/puzzles.html', '/analysis.html', '/docs/bots']) {
      await page.goto(`${server.url}${url}`);
      await page.waitForFunction(() => window.firstFrame);
      assert.deepEqual(await page.evaluate(() => window.firstFrame), { skip: true, links: LINKS.length, announce: true }, url);
      // Once: the shell's parts are not made twice.
      await headerReady(page);
      assert.deepEqual(await page.evaluate(() => [document.querySelectorAll('header.top').length, document.querySelectorAll('.skip-link').length,
        document.querySelectorAll('#announce').length, document.querySelectorAll('link[rel=icon]').length]), [1, 1, 1, 1], url);
    }
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('a second page of the site asks the server for its HTML only: its modules and styles are kept', async () => {
  const b = await openBrowser({ viewport: DESKTOP });
  const page = b.page;
  try {
    /** Every module and style sheet the page loaded: its path, and whether it came over the network. */
    const loaded = () => page.evaluate(() => performance.getEntriesByType('resource')
      .map((e) => /** @type {PerformanceResourceTiming} */ (e))
      .filter((e) => /\.(js|css)$/.test(new URL(e.name).pathname))
      .map((e) => ({ path: new URL(e.name).pathname, fetched: e.transferSize > 0 })));
    await page.goto(`${server.url}/`);
    await headerReady(page);
    const first = await loaded();
    // Every one is this build's copy, fetched on the first visit.
    const version = first[0].path.split('/')[2];
    assert.match(version, /^[0-9a-f]{12}$/);
    assert.ok(first.length > 30, `${first.length} files`);
    for (const f of first) {
      assert.ok(f.path.startsWith(`/a/${version}/`), f.path);
      assert.ok(f.fetched, `${f.path} came over the network the first time`);
    }
    // The Rules page shares most of them (the shell, the board, the API's
    // client): those come from the cache; only its own are fetched.
    await page.goto(`${server.url}/rules.html`);
    await headerReady(page);
    const rules = await loaded();
    const shared = rules.filter((f) => first.some((g) => g.path === f.path));
    assert.ok(shared.length > 20, `${shared.length} shared files`);
    assert.deepEqual(shared.filter((f) => f.fetched).map((f) => f.path), [], 'shared files asked for again');
    assert.ok(rules.some((f) => f.path.endsWith('/js/rules.js') && f.fetched), 'its own module fetched');
    // A reload fetches none of them.
    await page.reload();
    await headerReady(page);
    assert.deepEqual((await loaded()).filter((f) => f.fetched).map((f) => f.path), []);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('log in from any page: register on the Rules page, logged in on the home page', async () => {
  const b = await openBrowser({ viewport: SMALL_PHONE, mobile: true });
  const page = b.page;
  try {
    await page.goto(`${server.url}/rules.html`);
    await headerReady(page);
    await page.click('#btn-player');
    await page.click('#menu-register');
    await page.fill('#account-username', 'rulesreader');
    await page.fill('#account-password', 'a long password');
    // A new identity reloads a page that is not the app's (what it shows is
    // the player's): the name is read on the page as reloaded, not on the
    // old one, which said it for a moment before it went.
    await Promise.all([page.waitForEvent('load'), page.click('#account-submit')]);
    await headerReady(page);
    await page.waitForFunction(() => document.body.dataset.account === 'rulesreader');
    assert.equal(await page.textContent('#btn-player .player-name'), 'rulesreader');
    await page.goto(`${server.url}/`);
    await headerReady(page);
    await page.waitForFunction(() => document.body.dataset.account === 'rulesreader');
    // The player's games are in the menu on every page (here: over the lobby).
    await page.goto(`${server.url}/lessons.html`);
    await headerReady(page);
    await page.click('#btn-player');
    await page.click('#btn-games');
    await page.waitForSelector('#dlg-games[open]');
    assert.equal(await page.evaluate(() => document.body.dataset.page), 'lobby');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('the home page for a newcomer: a live board, what the game is, the engine and the lobby one tap away', async () => {
  for (const [viewport, mobile, size] of [[SMALL_PHONE, true, 'phone'], [DESKTOP, false, 'desktop']]) {
    for (const lang of ['en', 'uk']) {
      const b = await openBrowser({ viewport, mobile });
      const page = b.page;
      try {
        await page.addInitScript((l) => localStorage.setItem('tensorchess.lang', l), lang);
        await page.goto(`${server.url}/`);
        await page.waitForSelector('#welcome-board[data-ready="1"] use.piece', { state: 'attached' });
        await headerReady(page);
        const first = await page.evaluate(() => {
          const vh = window.innerHeight;
          const box = (sel) => document.querySelector(sel).getBoundingClientRect();
          const inView = (sel) => { const r = box(sel); return r.top >= 0 && r.bottom <= vh && r.height > 0; };
          const about = document.querySelector('#welcome-about');
          return {
            board: inView('#welcome-board svg'),
            about: inView('#welcome-about'),
            engine: inView('#btn-play-engine'),
            lobby: inView('#link-lobby'),
            links: [...about.querySelectorAll('a')].map((a) => a.getAttribute('href')),
            paragraphs: document.querySelectorAll('.welcome-text p:not(.hidden)').length,
          };
        });
        assert.ok(first.board, `${size} ${lang}: the board is in the first screen`);
        assert.ok(first.about, `${size} ${lang}: what the game is, in the first screen`);
        assert.ok(first.engine && first.lobby, `${size} ${lang}: the engine and the lobby one tap away`);
        assert.deepEqual(first.links, ['/lessons.html', '/rules.html']);
        assert.equal(first.paragraphs, 1, 'one short paragraph');
        await shot(page, `home-${size}-${lang}`);
        if (lang === 'en') {
          // The lobby, one tap away.
          await page.click('#link-lobby');
          await page.waitForFunction(() => {
            const r = document.querySelector('#lobby-title').getBoundingClientRect();
            return r.top > -2 && r.top < window.innerHeight;
          });
          await page.evaluate(() => window.scrollTo(0, 0));
          // A first move on the live board: a game against the engine, with that move.
          const tapAt = async (s) => {
            const sel = `#welcome-board rect.sq[data-square="${s}"]`;
            if (mobile) await page.tap(sel); else await page.click(sel);
          };
          await tapAt('e2');
          await tapAt('e3');
          await waitForGame(page);
          const g = await page.evaluate(async () => (await fetch(`/api/games/${location.hash.split('/')[2]}`)).json());
          assert.equal(g.mode, 'engine');
          assert.equal(g.human_color, 'white');
          assert.equal(g.moves[0].uci, 'e2e3');
          // And the button: a game against the engine at once.
          await page.goto(`${server.url}/`);
          await page.waitForSelector('#welcome-board[data-ready="1"]', { state: 'attached' });
          if (mobile) await page.tap('#btn-play-engine'); else await page.click('#btn-play-engine');
          await waitForGame(page);
          assert.equal(await page.evaluate(() => document.body.dataset.mode), 'engine');
        }
        assert.deepEqual(page.errors, []);
      } finally {
        await b.close();
      }
    }
  }
});
