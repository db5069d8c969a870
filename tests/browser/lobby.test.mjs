// The public server's pages, in separate browser contexts (separate people,
// each with their own identity cookie): a first visit makes no game; the
// accounts (register, log out, a wrong password, log in, a new name); the
// lobby (a rated seek posted by Alice appears live in Bob's lobby, he
// accepts, both land in the game, play a move, Bob resigns, and Alice's
// profile shows her new rating); quick pairings between two guests, and
// cancelling one's own seeks; a seek's maker whose socket dropped as it was
// taken still reaches the game; the Games list paged with "More"; axe-core on
// the lobby and the profile page.

import { test, before, after } from 'node:test';
import {
  shot, tap, waitForPly, openLobby, waitForLobby, axeViolations, assert, PHONE, DESKTOP, openGames, openMenu, settled, startFile, stopFile, shotsDir,
} from './lib.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

const PASSWORD = 'correct horse battery';

/** Registers through the header's menu; the page then plays as `username`. */
async function register(page, username, password = PASSWORD) {
  await page.click('#btn-player');
  await page.click('#menu-register');
  await page.waitForSelector('#dlg-account[open]');
  await page.fill('#account-username', username);
  await page.fill('#account-password', password);
  await page.click('#account-submit');
  await page.waitForFunction((u) => document.body.dataset.account === u, username);
  assert.equal(await page.$('#dlg-account[open]'), null, 'the dialog closes');
}

/** The API's answer for `path`, asked through the page (with its cookies). */
const fetchJson = (page, path) => page.evaluate(async (p) => (await fetch(p)).json(), path);

/** Plays a move by two taps on `page`, then waits until every page shows it. */
async function play(page, from, to, ply, others) {
  await tap(page, from);
  await page.waitForSelector(`#board .mark-dest[data-square="${to}"]`);
  await tap(page, to);
  for (const p of [page, ...others]) await waitForPly(p, ply);
}

/** Waits until `page` plays its seat of an online game; says whose page did not, and where it is. */
async function inGame(who, page) {
  try {
    await page.waitForFunction(() => location.hash.startsWith('#/game/') && document.body.dataset.game === location.hash.split('/')[2]
      && document.body.dataset.mode === 'online' && !!document.body.dataset.seat);
  } catch (e) {
    const where = await page.evaluate(() => `${location.hash} (lobby error: ${document.querySelector('#lobby-error')?.textContent})`);
    throw new Error(`${who}'s page is not in the game: at ${where}`, { cause: e });
  }
}

test('a first visit makes no game: the Games list is empty', async () => {
  const { context, page } = await browser.person();
  try {
    await openLobby(page, server.url);
    await page.reload();
    await waitForLobby(page);
    assert.deepEqual(await fetchJson(page, '/api/games'), { games: [], next: null });
    await openGames(page);
    await page.waitForFunction(() => document.querySelector('#games-status').textContent === 'No saved games yet.');
    assert.equal(await page.$$eval('#games-list .game-row', (r) => r.length), 0);
    assert.equal(await page.isVisible('#games-more'), false);
    await page.click('#games-close');
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});

test('accounts: register, log out, a wrong password refused, log in, a new display name', async () => {
  const { context, page } = await browser.person();
  try {
    await openLobby(page, server.url);
    assert.match(await page.textContent('#btn-player .player-name'), /^Guest [0-9a-f]{4}$/);
    // The form says what is wrong before asking the server.
    await page.click('#btn-player');
    await page.click('#menu-register');
    await page.fill('#account-username', 'x');
    await page.fill('#account-password', PASSWORD);
    await page.click('#account-submit');
    await page.waitForSelector('#account-error:not(.hidden)');
    assert.match(await page.textContent('#account-error'), /3 to 20 letters/);
    assert.equal(await page.getAttribute('#account-username', 'aria-invalid'), 'true');
    await page.click('#account-cancel');
    await register(page, 'dora');
    assert.equal(await page.textContent('#btn-player .player-name'), 'dora', 'a guest name becomes the user name');
    assert.equal((await fetchJson(page, '/api/me')).account, 'dora');

    // Log out: a new guest.
    await page.click('#btn-player');
    await page.click('#menu-logout');
    await page.waitForFunction(() => document.body.dataset.account === '' && !!document.body.dataset.player);
    assert.match(await page.textContent('#btn-player .player-name'), /^Guest /);

    // A wrong password: said on the form, nobody logged in.
    await page.click('#btn-player');
    await page.click('#menu-login');
    await page.waitForFunction(() => document.querySelector('#dlg-account-title').textContent === 'Log in');
    await page.fill('#account-username', 'dora');
    await page.fill('#account-password', 'not the password');
    await page.click('#account-submit');
    await page.waitForSelector('#account-error:not(.hidden)');
    assert.equal(await page.textContent('#account-error'), 'Wrong user name or password.');
    await shot(page, 'lobby-login-wrong-password');
    assert.equal(await page.evaluate(() => document.body.dataset.account), '');
    await page.fill('#account-password', PASSWORD);
    await page.click('#account-submit');
    await page.waitForFunction(() => document.body.dataset.account === 'dora');

    // A new display name, seen by the server and on the profile.
    await page.click('#btn-player');
    await page.click('#menu-rename');
    await page.fill('#name-input', 'Dora the Bold');
    await page.click('#name-save');
    await page.waitForFunction(() => document.querySelector('#btn-player .player-name').textContent === 'Dora the Bold');
    assert.equal((await fetchJson(page, '/api/me')).name, 'Dora the Bold');
    await page.click('#btn-player');
    await page.click('#menu-profile');
    await page.waitForFunction(() => document.body.dataset.profile === 'dora');
    assert.equal(await page.textContent('#profile-name'), 'Dora the Bold');
    assert.match(await page.textContent('#profile-sub'), /user name dora/);
    // An unknown player: said so.
    await page.evaluate(() => { location.hash = '#/player/nobody-here'; });
    await page.waitForFunction(() => document.body.dataset.profile === 'none');
    assert.match(await page.textContent('#profile-missing'), /nobody-here/);
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});

test('a rated seek: posted by Alice, seen live and accepted by Bob; both play, Bob resigns, Alice\'s rating goes up', async () => {
  const alice = await browser.person();
  const bob = await browser.person();
  const a = alice.page;
  const b = bob.page;
  try {
    await openLobby(a, server.url);
    await openLobby(b, server.url);
    await register(a, 'alice');
    await register(b, 'bobby');
    await b.waitForFunction(() => document.body.dataset.seeks === '0');
    assert.equal(await b.isVisible('#seeks-empty'), true);

    // Alice: a rated Tensor Chess seek, 5+3, she plays White.
    await a.selectOption('#form-seek select[name=variant]', 'tensor');
    await a.selectOption('#form-seek select[name=clock]', '300+3');
    await a.selectOption('#form-seek select[name=color]', 'white');
    await a.check('#form-seek input[name=rated]');
    await a.click('#btn-post-seek');
    await a.waitForSelector('#waiting:not(.hidden)');
    assert.match(await a.textContent('#waiting'), /Tensor Chess 5\+3 · Rated/);

    // Bob's lobby shows it without a reload: game, clock, rated, Alice's name and rating.
    const row = '#seeks-body tr:not(.mine)';
    await b.waitForSelector(row);
    const text = await b.textContent(row);
    assert.match(text, /alice/);
    assert.match(text, /1500/);
    assert.match(text, /Tensor Chess/);
    assert.match(text, /5\+3/);
    assert.match(text, /Rated/);
    assert.match(text, /you play Black/);
    assert.equal(await b.getAttribute(`${row} .seek-name`, 'href'), '#/player/alice', 'the name leads to the profile');
    await shot(b, 'lobby-bob-sees-seek');
    // In Alice's own lobby the seek is hers, to cancel, not to accept.
    assert.equal(await a.$$eval('#seeks-body tr.mine .accept-seek', (x) => x.length), 0);

    // A guest cannot take a rated seek: the lobby says why, the seek stays.
    const guest = await browser.person();
    try {
      const g = guest.page;
      await openLobby(g, server.url);
      await g.waitForSelector(row);
      await g.click(`${row} .accept-seek`);
      await g.waitForSelector('#lobby-error:not(.hidden)');
      assert.match(await g.textContent('#lobby-error'), /Rated games are for players with an account/);
      assert.equal(await g.evaluate(() => location.hash), '');
      assert.deepEqual(g.errors, []);
    } finally {
      await guest.context.close();
    }
    assert.equal(await b.evaluate(() => document.body.dataset.seeks), '1');

    // Bob accepts: both land in the game (Alice by the lobby's `paired` event).
    // Neither page asks to cancel a seek that is gone (it logged DELETE → 404).
    const refused = [];
    for (const p of [a, b]) p.on('response', (r) => { if (/\/api\/seeks\//.test(r.url()) && r.status() >= 400) refused.push(`${r.request().method()} ${r.url()} ${r.status()}`); });
    // On a desktop the seek is a dot on the graph too (rating against
    // length), named in its tooltip; Bob takes it there.
    const dot = `#seek-graph .seek-dot[data-seek="${await b.getAttribute(row, 'data-seek')}"]`;
    assert.match(await b.$eval(dot, (d) => d.querySelector('title').textContent), /alice \(1500\?\) · Tensor Chess 5\+3 · Rated/);
    assert.equal(await b.$eval(dot, (d) => d.classList.contains('rated')), true);
    await (await b.$('.seeks-card')).screenshot({ path: `${shotsDir}/lobby-seek-graph.png` });
    await b.click(dot);
    for (const [who, p] of [['alice', a], ['bobby', b]]) await inGame(who, p);
    for (const p of [a, b]) await settled(p);
    assert.deepEqual(refused, []);
    assert.equal(await a.evaluate(() => location.hash), await b.evaluate(() => location.hash), 'the same game');
    assert.equal(await a.evaluate(() => document.body.dataset.seat), 'white');
    assert.equal(await b.evaluate(() => document.body.dataset.seat), 'black');
    // Rated, with both names and ratings.
    assert.match(await a.textContent('#game-info'), /online, rated/);
    assert.match(await a.textContent('#name-bottom'), /alice/);
    assert.match(await a.textContent('#name-top'), /bobby/);
    for (const p of [a, b]) {
      assert.equal(await p.getAttribute('#rating-top', 'data-rating'), '1500');
      assert.equal(await p.getAttribute('#rating-bottom', 'data-rating'), '1500');
    }
    await shot(a, 'lobby-alice-rated-game');

    await play(a, 'e2', 'e4', 1, [b]);
    await play(b, 'e7', 'e5', 2, [a]);

    // Bob resigns: the banner and the names say how the ratings changed.
    await b.click('#btn-resign');
    await b.click('#confirm-yes');
    for (const p of [a, b]) await p.waitForSelector('#banner:not(.hidden)');
    await a.waitForFunction(() => +document.querySelector('#rating-bottom').dataset.diff > 0);
    const up = +(await a.getAttribute('#rating-bottom', 'data-diff'));
    const down = +(await a.getAttribute('#rating-top', 'data-diff'));
    assert.ok(up > 0 && down < 0, `alice ${up}, bobby ${down}`);
    assert.match(await a.textContent('#banner .banner-rating'), new RegExp(`Your rating: 1500 → ${1500 + up} \\(\\+${up}\\)`));
    assert.match(await b.textContent('#banner .banner-rating'), /Your rating: 1500 → \d+ \(\u2212\d+\)/);
    await shot(a, 'lobby-alice-won-rated');
    // The rating changes are readable (the gain's green had 4.42:1).
    for (const p of [a, b]) assert.deepEqual(await axeViolations(p), [], 'game page with rating changes');

    // Alice's profile: the new rating, above 1500, and the game.
    await a.click('#btn-player');
    await a.click('#menu-profile');
    await a.waitForFunction(() => document.body.dataset.profile === 'alice');
    const rating = parseFloat(await a.getAttribute('#profile-ratings tr[data-variant="tensor"] td.rating', 'data-rating'));
    assert.ok(rating > 1500, `alice's rating ${rating}`);
    assert.equal(await a.textContent('#profile-ratings tr[data-variant="tensor"] td.games'), '1');
    assert.equal(await a.textContent('#profile-ratings tr[data-variant="chess"] td.games'), '0');
    assert.equal(await a.$$eval('#profile-games li.profile-game', (x) => x.length), 1);
    assert.match(await a.textContent('#profile-games'), /alice – bobby.*1-0 \(resignation\).*1 move/);
    // The names lead to the players' profiles, the rest of the line to the game.
    assert.deepEqual(await a.$$eval('#profile-games li.profile-game a.player-link', (x) => x.map((e) => e.getAttribute('href'))), ['/#/player/alice', '/#/player/bobby']);
    assert.match(await a.getAttribute('#profile-games li.profile-game a.profile-game-link', 'href'), /^#\/game\//);
    await shot(a, 'lobby-alice-profile');

    // Bob reaches it from the header too, by the profile's address.
    await b.evaluate(() => { location.hash = '#/player/alice'; });
    await b.waitForFunction(() => document.body.dataset.profile === 'alice');
    assert.match(await b.textContent('#profile-ratings tr[data-variant="tensor"] td.rating'), new RegExp(`^${Math.round(rating)}(\\?|$)`));

    // Bob's Games list: the online game, its moves counted as moves.
    await openGames(b);
    await b.waitForSelector('#games-list .game-row');
    assert.match(await b.textContent('#games-list .game-row'), /online: alice – bobby/);
    assert.deepEqual(await b.$$eval('#games-list .game-row .opp a.player-link', (x) => x.map((e) => e.getAttribute('href'))), ['/#/player/alice', '/#/player/bobby']);
    assert.match(await b.textContent('#games-list .game-row'), /1 move\b/);
    await b.click('#games-close');
    for (const p of [a, b]) assert.deepEqual(p.errors, []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('quick pairing: a guest\'s button posts a seek and waits, another guest\'s takes it; seeks cancelled', async () => {
  const carol = await browser.person();
  const dan = await browser.person({ viewport: PHONE });
  const c = carol.page;
  const d = dan.page;
  try {
    await openLobby(c, server.url);
    await openLobby(d, server.url);
    for (const label of ['3+2', '5+3', '10+5']) {
      assert.ok(await c.isVisible(`#quick-grid button[data-quick="tensor-${label}"]`), `a Tensor Chess ${label} button`);
    }
    // Carol presses 3+2, then again: the seek is posted, then cancelled.
    const q32 = '#quick-grid button[data-quick="tensor-3+2"]';
    await c.click(q32);
    await c.waitForSelector(`${q32}[aria-pressed="true"]`);
    await d.waitForFunction(() => document.body.dataset.seeks === '1');
    await c.click(q32);
    await c.waitForSelector(`${q32}[aria-pressed="false"]`);
    await d.waitForFunction(() => document.body.dataset.seeks === '0');

    // A seek from the form (no clock), cancelled from the list.
    await c.selectOption('#form-seek select[name=clock]', 'none');
    assert.equal(await c.isDisabled('#form-seek input[name=rated]'), true, 'a guest cannot post a rated seek');
    await c.click('#btn-post-seek');
    await c.waitForSelector('#seeks-body tr.mine');
    assert.match(await c.textContent('#seeks-body tr.mine'), /no clock.*Casual/);
    await d.waitForFunction(() => document.body.dataset.seeks === '1');
    await c.click('#seeks-body tr.mine .cancel-seek');
    await c.waitForFunction(() => document.body.dataset.seeks === '0');
    await d.waitForFunction(() => document.body.dataset.seeks === '0');

    // Carol presses 5+3 and waits; Dan's 5+3 takes her seek: both in the game.
    const q53 = '#quick-grid button[data-quick="tensor-5+3"]';
    await c.click(q53);
    await c.waitForSelector(`${q53}[aria-pressed="true"]`);
    await d.waitForFunction(() => document.body.dataset.seeks === '1');
    await shot(d, 'lobby-dan-phone');
    await d.click(q53);
    for (const p of [c, d]) {
      await p.waitForFunction(() => document.body.dataset.mode === 'online' && !!document.body.dataset.seat
        && document.body.dataset.game === location.hash.split('/')[2]);
    }
    assert.equal(await c.evaluate(() => location.hash), await d.evaluate(() => location.hash));
    assert.match(await c.textContent('#game-info'), /online, casual.*5 min \+ 3 s a move/);
    assert.equal(await c.isVisible('#rating-top'), false, 'a casual game shows no ratings');
    const white = (await c.evaluate(() => document.body.dataset.seat)) === 'white' ? c : d;
    const black = white === c ? d : c;
    await play(white, 'e2', 'e4', 1, [black]);
    // The seek is gone from the lobby.
    assert.deepEqual(await fetchJson(c, '/api/seeks'), []);
    for (const p of [c, d]) assert.deepEqual(p.errors, []);
  } finally {
    await carol.context.close();
    await dan.context.close();
  }
});

test('a seek taken while its maker\'s socket was down: the page finds the game when it is back', async () => {
  const erin = await browser.person();
  const fred = await browser.person();
  const e = erin.page;
  try {
    // Erin's socket is cut as the pairing is announced: she never hears it.
    let cut = 0;
    await e.routeWebSocket(/\/api\/ws/, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((m) => {
        if (String(m).includes('"type":"paired"') && !cut++) {
          ws.close();
          server.close();
          return;
        }
        ws.send(m);
      });
    });
    await openLobby(e, server.url);
    await openLobby(fred.page, server.url);
    await e.selectOption('#form-seek select[name=variant]', 'chess');
    await e.selectOption('#form-seek select[name=clock]', 'none');
    await e.selectOption('#form-seek select[name=color]', 'white');
    await e.click('#btn-post-seek');
    await e.waitForSelector('#seeks-body tr.mine');
    const seeks = await fetchJson(fred.page, '/api/seeks');
    const seek = seeks.find((s) => s.variant === 'chess' && !s.clock);
    assert.ok(seek, JSON.stringify(seeks));
    const taken = await fred.page.evaluate(async (id) => (await fetch(`/api/seeks/${id}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, seek.id);
    assert.equal(taken, 201, 'the game is made');
    await inGame('erin', e);
    assert.equal(cut, 1, 'the pairing was announced and cut off');
    assert.equal(await e.evaluate(() => document.body.dataset.seat), 'white');
    assert.deepEqual(e.errors, []);
  } finally {
    await erin.context.close();
    await fred.context.close();
  }
});

test('the Games list: own games only, newest first, a page at a time with More', async () => {
  const { context, page } = await browser.person();
  try {
    await openLobby(page, server.url);
    // 23 games on this device, the last with 3 half-moves (2 moves).
    const ids = await page.evaluate(async () => {
      const out = [];
      for (let i = 0; i < 23; i++) {
        const body = i === 22 ? { variant: 'chess', mode: 'local', pgn: '1. e4 e5 2. Nf3 *' } : { variant: 'chess', mode: 'local' };
        const res = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        const made = await res.json();
        out.push(made.id);
        // Newest first by the time of the last change (ms): the next one is made a millisecond later.
        while (Date.now() <= made.updated_at) await new Promise((r) => requestAnimationFrame(r));
      }
      return out;
    });
    await openGames(page);
    await page.waitForFunction(() => document.querySelectorAll('#games-list .game-row').length === 20);
    assert.equal(await page.textContent('#games-status'), '20 shown');
    const first = await page.$eval('#games-list .game-row', (r) => ({ id: r.dataset.id, moves: r.dataset.moves, text: r.textContent }));
    assert.equal(first.id, ids[22], 'the newest first');
    assert.equal(first.moves, '2');
    assert.match(first.text, /2 moves/);
    await shot(page, 'lobby-games-list');
    await page.click('#games-more');
    await page.waitForFunction(() => document.querySelectorAll('#games-list .game-row').length === 23);
    assert.equal(await page.isVisible('#games-more'), false, 'no more after the last page');
    const shown = await page.$$eval('#games-list .game-row', (rows) => rows.map((r) => r.dataset.id));
    assert.deepEqual(shown, [...ids].reverse());
    await page.click('#games-close');
    assert.deepEqual(page.errors, []);
  } finally {
    await context.close();
  }
});

test('axe: no serious or critical violations on the lobby and the profile page, in both languages', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const { context, page } = await browser.person({ viewport });
    try {
      await openLobby(page, server.url);
      for (const lang of ['en', 'uk']) {
        await openMenu(page);
        await page.click(`.lang-switch button[data-lang="${lang}"]`);
        await page.waitForFunction((l) => document.documentElement.lang === l, lang);
        await page.evaluate(() => { location.hash = '#/'; });
        await waitForLobby(page);
        const size = viewport === PHONE ? 'phone' : 'desktop';
        assert.deepEqual(await axeViolations(page), [], `lobby, ${size}, ${lang}`);
        await shot(page, `lobby-${size}-${lang}`);
        await page.evaluate(() => { location.hash = '#/player/alice'; });
        await page.waitForFunction(() => document.body.dataset.profile === 'alice');
        assert.deepEqual(await axeViolations(page), [], `profile, ${size}, ${lang}`);
        await shot(page, `profile-${size}-${lang}`);
      }
      await openMenu(page);
      await page.click('.lang-switch button[data-lang="en"]');
      assert.deepEqual(page.errors, []);
    } finally {
      await context.close();
    }
  }
});
