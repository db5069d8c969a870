// Online play in three browser contexts (three people with their own
// cookies; the spectator on a phone-sized screen): Alice creates a game and
// gets the invite link, Bob opens it and takes the free seat, Carol opens
// the same link later and can only watch.
// They play a short game live over the WebSocket: clocks, a dropped and
// restored connection, a declined draw offer, a resignation, a rematch.

import { test, before, after } from 'node:test';
import { Server, launchBrowser, shot, settled, tap, waitForPly, assert, PHONE, openLobby, waitForLobby, watchPage, waitShowing, stopFile } from './lib.mjs';

let server;
let browser;
let alice;
let bob;
let carol;

before(async () => {
  server = await new Server().start();
  browser = await launchBrowser();
  alice = await browser.person();
  bob = await browser.person();
  carol = await browser.person({ viewport: PHONE }); // she watches on her phone
});

after(async () => {
  for (const p of [alice, bob, carol]) {
    assert.deepEqual(p.page.errors, [], 'no script errors on the page');
  }
  await stopFile({ server, browser });
});

// The game as the server has it (read through the page, with its cookies).
async function serverGame(page) {
  return page.evaluate(async () => {
    const id = location.hash.split('/')[2];
    return (await fetch(`/api/games/${id}`)).json();
  });
}

// Plays a move by two taps on `page`, then waits until all pages show it.
async function play(page, from, to, ply, watchers) {
  await tap(page, from);
  await page.waitForSelector(`#board .mark-dest[data-square="${to}"]`);
  await tap(page, to);
  for (const p of [page, ...watchers]) await waitForPly(p, ply);
}

const visible = (page, sel) => page.$eval(sel, (e) => !e.classList.contains('hidden') && e.offsetParent !== null);

test('two friends play through the invite link while a third watches', async () => {
  const a = alice.page;
  const b = bob.page;
  const c = carol.page;

  // Alice: Play a friend → Tensor Chess, White, 5 minutes + 3 seconds.
  await openLobby(a, server.url);
  await a.click('#btn-friend');
  await a.waitForSelector('#form-new .online-only:not(.hidden)');
  assert.equal(await visible(a, '#form-new .engine-only'), false, 'no engine level for a friend game');
  await a.selectOption('#form-new select[name=variant]', 'tensor');
  await a.selectOption('#form-new select[name=color]', 'white');
  await a.selectOption('#form-new select[name=clock]', '300+3');
  await shot(a, 'online-new-game-dialog');
  await a.click('#btn-start');
  await a.waitForFunction(() => document.body.dataset.mode === 'online' && document.body.dataset.seat === 'white'
    && document.body.dataset.game === location.hash.split('/')[2]);
  await a.waitForSelector('#invite:not(.hidden)');
  const link = await a.inputValue('#invite-link');
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/#\/game\/[a-z0-9]+$/);
  assert.match(await a.textContent('#status'), /Waiting for your friend/);
  assert.equal(await a.textContent('#presence-top'), 'not joined yet');
  assert.equal(await a.textContent('#clock-bottom'), '5:00');
  // The seat is the player's: their identity cookie is HttpOnly (the
  // page's script cannot read it), and no game has a cookie of its own.
  assert.equal(await a.evaluate(() => document.cookie), '');
  const cookies = await alice.context.cookies();
  const id = cookies.find((k) => k.name === 'tcid');
  assert.ok(id && id.httpOnly && id.sameSite === 'Lax', JSON.stringify(cookies));
  assert.deepEqual(cookies.map((k) => k.name), ['tcid']);
  await shot(a, 'online-alice-invite');

  // Bob opens the link: he is invited to play Black and takes the seat.
  await b.goto(link);
  await b.waitForSelector('#join:not(.hidden)');
  assert.match(await b.textContent('#join-text'), /play Black/);
  await shot(b, 'online-bob-invited');
  await b.click('#btn-join');
  await b.waitForFunction(() => document.body.dataset.seat === 'black');
  // His board is turned to Black, and Alice sees him arrive.
  await b.waitForFunction(() => document.querySelector('#name-bottom').dataset.color === 'black');
  await a.waitForFunction(() => document.querySelector('#presence-top').dataset.state === 'connected');
  await a.waitForFunction(() => document.querySelector('#status').textContent === 'Your move');
  await b.waitForFunction(() => /Waiting for White/.test(document.querySelector('#status').textContent));
  assert.equal(await visible(a, '#invite'), false, 'no more invitation once the seat is taken');
  // With a clock, each side has a minute for its first move (the server
  // aborts the game otherwise); both pages count it down.
  assert.match(await a.textContent('#first-move'), /^You have (60|59|58) s to make a first move/);
  assert.match(await b.textContent('#first-move'), /^White has \d+ s to make a first move/);

  // Carol opens the same link later: both seats are taken, she watches.
  await c.goto(link);
  await c.waitForSelector('#watching:not(.hidden)');
  assert.equal(await visible(c, '#join'), false);
  for (const sel of ['#btn-resign', '#btn-draw', '#btn-abort', '#btn-hint', '#btn-takeback']) {
    assert.equal(await visible(c, sel), false, `a spectator has no ${sel}`);
  }
  assert.deepEqual((await carol.context.cookies()).map((k) => k.name), ['tcid'], 'a spectator is a player with no seat');

  // The moves go live to everybody.
  await play(a, 'e2', 'e4', 1, [b, c]);
  assert.match(await b.textContent('#first-move'), /^You have \d+ s to make a first move/);
  assert.equal(await visible(a, '#btn-abort'), true, 'abort is offered until both have moved');
  await play(b, 'e7', 'e5', 2, [a, c]);
  assert.equal(await visible(a, '#btn-abort'), false);
  assert.equal(await visible(a, '#first-move'), false, 'no first-move countdown once both have moved');
  // The clocks start after both first moves: White's runs now.
  await a.waitForSelector('#clock-bottom.running');
  await b.waitForSelector('#clock-top.running');
  await play(a, 'd2', 'd4', 3, [b, c]);
  await b.waitForSelector('#clock-bottom.running');
  const whiteMs = parseInt(await a.getAttribute('#clock-bottom', 'data-ms'), 10);
  assert.ok(whiteMs > 290000 && whiteMs <= 303000, `White's clock ${whiteMs} (5 min, +3 s)`);

  // The spectator cannot move: a tap selects nothing, the board stays.
  await tap(c, 'd7');
  await settled(c);
  assert.equal(await c.$$eval('#board .mark-dest', (e) => e.length), 0);
  // The spectator's player bars (name, presence, clock) each stay on one line on her phone.
  const bars = await c.$$eval('.player', (ps) => ps.map((p) => {
    const kids = [...p.children].filter((k) => k.getBoundingClientRect().height > 0);
    const mids = kids.map((k) => { const r = k.getBoundingClientRect(); return r.top + r.height / 2; });
    return { height: p.getBoundingClientRect().height, spread: Math.max(...mids) - Math.min(...mids), n: kids.length };
  }));
  for (const bar of bars) assert.ok(bar.n >= 2 && bar.spread <= 4 && bar.height <= 44, `a player bar wraps: ${JSON.stringify(bar)}`);
  await shot(c, 'online-carol-watching');

  // Bob's connection drops (his tab closes): Alice sees "disconnected".
  await b.close();
  await a.waitForFunction(() => document.querySelector('#presence-top').dataset.state === 'disconnected');
  await shot(a, 'online-alice-opponent-disconnected');
  // He comes back: the page resyncs the whole game from the server.
  const b2 = watchPage(await bob.context.newPage());
  bob.page = b2;
  await b2.goto(link);
  await waitForPly(b2, 3);
  await b2.waitForFunction(() => document.body.dataset.seat === 'black');
  const sans = await b2.$$eval('#moves button.mv', (els) => els.map((e) => e.textContent));
  assert.deepEqual(sans, ['e4', 'e5', 'd4']);
  await a.waitForFunction(() => document.querySelector('#presence-top').dataset.state === 'connected');
  await play(b2, 'd7', 'd5', 4, [a, c]);
  await shot(b2, 'online-bob-back');

  // A premove: Bob queues h7–h6 while Alice is to move; it is played the
  // moment her move arrives.
  await tap(b2, 'h7');
  await tap(b2, 'h6');
  await b2.waitForSelector('#board .premove[data-square="h6"]');
  await tap(a, 'c2');
  await a.waitForSelector('#board .mark-dest[data-square="c3"]');
  await tap(a, 'c3');
  for (const p of [a, b2, c]) await waitForPly(p, 6);
  assert.equal((await serverGame(a)).moves[5].uci, 'h7h6', 'the premove was played');

  // Alice offers a draw; Bob declines.
  await a.click('#btn-draw');
  await b2.waitForSelector('#offer:not(.hidden)');
  assert.match(await b2.textContent('#offer-text'), /offers a draw/);
  await c.waitForFunction(() => /White offers a draw/.test(document.querySelector('#offer-text').textContent));
  await shot(b2, 'online-bob-draw-offer');
  await b2.click('#btn-decline');
  await a.waitForFunction(() => document.querySelector('#offer').classList.contains('hidden'));
  // Alice is told (issue: a declined offer was never reported to the offerer).
  await a.waitForFunction(() => !document.querySelector('#toast').classList.contains('hidden') &&
    /Draw declined.*declined your draw offer/.test(document.querySelector('#toast').textContent));

  // Bob resigns: everybody sees the end.
  await b2.click('#btn-resign');
  await b2.click('#confirm-yes');
  for (const p of [a, b2, c]) {
    await p.waitForSelector('#banner:not(.hidden)');
    assert.equal(await p.textContent('#banner .banner-title'), 'Black resigns');
  }
  await shot(a, 'online-alice-won');
  await shot(c, 'online-carol-end');
  const g = await serverGame(a);
  assert.equal(g.end.result, '1-0');
  assert.equal(g.moves.length, 6);

  // A rematch: Bob asks, Alice accepts, both go to the new game with the
  // colours swapped; Carol gets a link to watch it.
  await b2.click('#banner-rematch');
  await a.waitForFunction(() => document.querySelector('#banner-rematch').textContent === 'Accept rematch');
  const oldHash = await a.evaluate(() => location.hash);
  await a.click('#banner-rematch');
  for (const p of [a, b2]) {
    await p.waitForFunction((h) => location.hash !== h && document.body.dataset.ply === '0' && document.body.dataset.seat, oldHash);
  }
  assert.equal(await a.evaluate(() => document.body.dataset.seat), 'black');
  assert.equal(await b2.evaluate(() => document.body.dataset.seat), 'white');
  await c.waitForSelector('#rematch-link:not(.hidden)');
  await c.click('#rematch-link');
  await waitShowing(c, () => document.body.dataset.game && location.hash.endsWith(document.body.dataset.game) && document.body.dataset.ply === '0');
  await play(b2, 'e2', 'e4', 1, [a, c]);
  await a.waitForFunction(() => document.querySelector('#status').textContent === 'Your move');
  await shot(a, 'online-rematch-alice-black');
  await shot(b2, 'online-rematch-bob-white');
});

test('the server is killed mid-game: both players come back to it, clocks go on', async () => {
  const a = alice.page;
  const b = bob.page;
  await a.evaluate(() => { location.hash = '#/'; });
  await waitForLobby(a);
  await a.click('#btn-friend');
  await a.selectOption('#form-new select[name=variant]', 'chess');
  await a.selectOption('#form-new select[name=color]', 'black');
  await a.selectOption('#form-new select[name=clock]', '600+5');
  const before = await a.evaluate(() => location.hash);
  await a.click('#btn-start');
  await a.waitForFunction((h) => location.hash !== h && document.body.dataset.game === location.hash.split('/')[2]
    && document.body.dataset.seat === 'black', before);
  await a.waitForSelector('#invite:not(.hidden)');
  const link = await a.inputValue('#invite-link');
  assert.ok(link.endsWith(await a.evaluate(() => location.hash)), 'the link is the game\'s');
  await b.goto(link);
  await b.waitForSelector('#join:not(.hidden)');
  await b.click('#btn-join');
  await b.waitForFunction(() => document.body.dataset.seat === 'white');
  await a.waitForFunction(() => document.querySelector('#presence-top').dataset.state === 'connected');
  await play(b, 'e2', 'e4', 1, [a]);
  await play(a, 'c7', 'c5', 2, [b]);
  await play(b, 'g1', 'f3', 3, [a]);

  // Killed without warning; both pages say so and keep trying.
  await server.kill();
  for (const p of [a, b]) await p.waitForSelector('#connection:not(.hidden)');
  await shot(a, 'online-server-down');
  await server.start(); // same port, same database
  for (const p of [a, b]) {
    await p.waitForSelector('#connection.hidden', { state: 'attached', timeout: 20000 });
    await waitForPly(p, 3);
  }
  // Black's clock runs again from where it was (time does not run while
  // the server is down), and the game goes on.
  await a.waitForSelector('#clock-bottom.running');
  const blackMs = parseInt(await a.getAttribute('#clock-bottom', 'data-ms'), 10);
  assert.ok(blackMs > 590000 && blackMs <= 605000, `Black's clock ${blackMs}`);
  await play(a, 'd7', 'd6', 4, [b]);
  await play(b, 'd2', 'd4', 5, [a]);
  const g = await serverGame(b);
  assert.deepEqual(g.moves.map((m) => m.san), ['e4', 'c5', 'Nf3', 'd6', 'd4']);
  await shot(b, 'online-after-restart');

  // A draw by agreement: the offerer's "waiting for an answer" goes away.
  await a.click('#btn-draw');
  await a.waitForFunction(() => /Waiting for your opponent/.test(document.querySelector('#toast').textContent));
  await b.waitForSelector('#offer:not(.hidden)');
  await b.click('#btn-accept');
  await a.waitForSelector('#banner:not(.hidden)');
  await a.waitForFunction(() => document.querySelector('#toast').classList.contains('hidden') ||
    !/Waiting/.test(document.querySelector('#toast').textContent));
  assert.equal(await a.textContent('#banner .banner-title'), 'Draw');
});
