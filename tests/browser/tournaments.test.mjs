// Tournaments, in four browser contexts (four accounts; one on a 375×667
// phone): the header's Tournaments link, the list with a live countdown,
// the form (its own checks, and a refusal of the server said on it), an
// arena joined from its page by all four, started by the server's director,
// the players taken to their games by themselves, a berserk (the button on
// the game page, the mark on the tournament page), a game played to its end
// and the standings changing live on another player's tournament page
// (the berserk win's +1 and its mark), then the next wave taking the
// players to their new games, from the game page and the tournament page
// alike. Then a round robin of three played to its end through the API:
// the podium on each player's page. axe-core on the list, the tournament
// page and the podium; screenshots at desktop and phone size.

import { test, before, after } from 'node:test';
import {
  shot, axeViolations, assert, settled, pageApi, registered as registeredIn, startFile, stopFile,
} from './lib.mjs';

/** The API's answer, asked through the page (its cookies). */
const api = (page, method, path, body) => pageApi(page, method, path, body);
/** A person with an account named `username`, on the app's home page. */
const registered = (username, opts = {}) => registeredIn(browser, server, username, opts);

const PHONE = { width: 375, height: 667 };
// 14 plies of chess: a berserker's win of 14 plies or more earns 1 more.
const MOVES = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6', 'd2d3', 'f8c5', 'c2c3', 'd7d6', 'b1d2', 'c8e6', 'h2h3', 'h7h6'];

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/** Opens tournament `id`'s page and waits until it shows it. */
async function openTournament(page, id) {
  await page.evaluate((x) => { location.hash = `#/tournament/${x}`; }, id);
  await page.waitForFunction((x) => document.body.dataset.tournament === x && document.body.dataset.tournamentReady === '1', id);
}

/** The standings as the page shows them: name → points. */
const standings = (page) => page.$$eval('#tour-standings tbody tr', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.player, Number(r.dataset.points)])));

/** Waits until the page shows a game of its own (taken there by the tournament). */
async function inGame(page, notThis = null) {
  await page.waitForFunction((old) => document.body.dataset.page === 'game' && !!document.body.dataset.game &&
    document.body.dataset.game !== old && !!document.body.dataset.seat, notThis, { timeout: 30000 });
  return page.evaluate(() => ({ id: document.body.dataset.game, seat: document.body.dataset.seat }));
}

test('the list, the form and its refusals; an arena joined, started, played live, with berserk', async () => {
  const ann = await registered('ann');
  const bob = await registered('bob');
  const cyd = await registered('cyd');
  const dee = await registered('dee', { viewport: PHONE });
  const guest = await browser.person();
  const people = [ann, bob, cyd, dee];
  let eve = null;
  const a = ann.page;
  try {
    // The header's link, marked while the tournaments are shown.
    await a.click('header.top nav a[data-nav="tournaments"]');
    await a.waitForFunction(() => document.body.dataset.tournaments === 'ready');
    assert.equal(await a.getAttribute('header.top nav a[data-nav="tournaments"]', 'aria-current'), 'page');
    assert.equal(await a.getAttribute('header.top nav a[data-nav="play"]', 'aria-current'), null);
    assert.ok(await a.isVisible('#tour-upcoming-empty'));

    // The form: its own check first, then a tournament an hour from now.
    await a.click('#btn-new-tournament');
    await a.waitForSelector('#form-tournament');
    await a.fill('#form-tournament input[name="name"]', 'x');
    await a.click('#btn-create-tournament');
    assert.match(await a.textContent('#tour-form-error'), /2 to 40 letters/);
    // Days per move: not for an arena; a Swiss by correspondence.
    await a.fill('#form-tournament input[name="name"]', 'Sunday Swiss');
    await a.selectOption('#form-tournament select[name="clock"]', 'd3');
    await a.click('#btn-create-tournament');
    assert.match(await a.textContent('#tour-form-error'), /arena is played on a clock/);
    await a.selectOption('#form-tournament select[name="kind"]', 'swiss');
    assert.ok(await a.isVisible('#form-tournament input[name="rounds"]'));
    assert.equal(await a.isVisible('#form-tournament input[name="minutes"]'), false);
    await a.click('#btn-create-tournament');
    await a.waitForFunction(() => document.body.dataset.page === 'tournament' && document.body.dataset.tournamentReady === '1');
    assert.equal(await a.textContent('#tour-name'), 'Sunday Swiss');
    assert.match(await a.textContent('#tour-sub'), /Swiss system · Tensor Chess · 3 days a move · Casual · 5 rounds/);
    assert.match(await a.textContent('#tour-when'), /^Starts in \d+:\d\d/);

    // A guest's rated tournament: the server's refusal, said on the form.
    const g = guest.page;
    await g.goto(`${server.url}/#/tournaments`);
    await g.waitForFunction(() => document.body.dataset.tournaments === 'ready');
    await g.waitForSelector('#tour-upcoming li[data-state="upcoming"]');
    const countdown = await g.textContent('#tour-upcoming .tour-when');
    await g.waitForFunction((before) => document.querySelector('#tour-upcoming .tour-when').textContent !== before, countdown);
    await g.click('#btn-new-tournament');
    await g.fill('#form-tournament input[name="name"]', 'Guest cup');
    await g.check('#form-tournament input[name="rated"]');
    await g.click('#btn-create-tournament');
    await g.waitForFunction(() => /account/.test(document.querySelector('#tour-form-error').textContent));
    assert.equal(await g.textContent('#tour-form-error'), 'Rated tournaments are for players with an account: register or log in.');
    await g.click('#btn-new-tournament');
    await settled(g);
    assert.deepEqual(await axeViolations(g), [], 'the list (desktop)');
    await shot(g, 'tournaments-list-desktop');

    // The arena, made through the API to start in a few seconds.
    const made = await api(a, 'POST', '/api/tournaments', {
      kind: 'arena', name: 'Blitz Arena', variant: 'chess', clock: { base_seconds: 180, increment_seconds: 2 },
      rated: false, starts_at: Date.now() + 12000, minutes: 30, max_players: 20,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    for (const p of people) {
      await openTournament(p.page, id);
      await p.page.click('#btn-tour-join');
      await p.page.waitForSelector(`#tour-standings tbody tr[data-player="${p.name}"].mine`);
      assert.ok(await p.page.isVisible('#btn-tour-withdraw'));
    }
    // Everyone's page heard the others join.
    await a.waitForFunction(() => document.querySelectorAll('#tour-standings tbody tr').length === 4);
    assert.match(await a.textContent('#tour-when'), /^(Starts in|Starting)/);
    await settled(dee.page);
    assert.deepEqual(await axeViolations(dee.page), [], 'the tournament page (phone)');
    await shot(dee.page, 'tournament-upcoming-phone');
    await dee.page.evaluate(() => { location.hash = '#/tournaments'; });
    await dee.page.waitForFunction(() => document.body.dataset.tournaments === 'ready');
    await settled(dee.page);
    assert.deepEqual(await axeViolations(dee.page), [], 'the list (phone)');
    await shot(dee.page, 'tournaments-list-phone');
    await openTournament(dee.page, id);

    // It starts: each page goes to its player's game by itself.
    const games = new Map();
    for (const p of people) games.set(p.name, await inGame(p.page));
    const byGame = new Map();
    for (const [name, gm] of games) byGame.set(gm.id, [...(byGame.get(gm.id) || []), { name, ...gm }]);
    assert.equal(byGame.size, 2, 'two games');
    const [first, second] = [...byGame.values()];
    const who = (name) => people.find((p) => p.name === name);
    const white1 = who(first.find((x) => x.seat === 'white').name);
    const black1 = who(first.find((x) => x.seat === 'black').name);
    const white2 = who(second.find((x) => x.seat === 'white').name);
    const black2 = who(second.find((x) => x.seat === 'black').name);
    const game1 = first[0].id;
    const game2 = second[0].id;

    // The other game goes on (a move each, so nobody loses by not moving),
    // and its White watches the tournament page.
    assert.equal((await api(white2.page, 'POST', `/api/games/${game2}/moves`, { move: 'e2e4', ply: 0 })).status, 200);
    assert.equal((await api(black2.page, 'POST', `/api/games/${game2}/moves`, { move: 'e7e5', ply: 1 })).status, 200);
    const w = white2.page;
    await openTournament(w, id);

    // White of the first game berserks before moving: half the time, the mark.
    const b1 = white1.page;
    await b1.waitForSelector('#btn-berserk:not(.hidden)');
    assert.match(await b1.textContent('#tournament-game-link'), /^Arena: Blitz Arena$/);
    await settled(b1);
    await shot(b1, `tournament-game-berserk-${white1.page.viewportSize().width < 500 ? 'phone' : 'desktop'}`);
    await b1.click('#btn-berserk');
    await b1.waitForSelector('#berserk-note:not(.hidden)');
    assert.equal(await b1.isVisible('#btn-berserk'), false);
    const clock = (await api(b1, 'GET', `/api/games/${game1}`)).body.online.clock;
    assert.equal(clock.white_ms, 90000, 'half of 3 minutes');
    await black1.page.waitForFunction(() => /White berserked/.test(document.querySelector('#berserk-note').textContent));
    assert.equal(await black1.page.isVisible('#btn-berserk'), true, 'Black may still berserk');
    await w.waitForSelector(`#tour-pairings li[data-game="${game1}"] [data-berserk="1"]`);

    // The first game is played to its end: 14 plies, then Black resigns.
    for (const [ply, mv] of MOVES.entries()) {
      const p = ply % 2 === 0 ? white1 : black1;
      const r = await api(p.page, 'POST', `/api/games/${game1}/moves`, { move: mv, ply });
      assert.equal(r.status, 200, `${mv}: ${JSON.stringify(r.body)}`);
    }
    await black1.page.waitForFunction((n) => document.body.dataset.ply === String(n), MOVES.length);
    await black1.page.click('#btn-resign');
    await black1.page.click('#confirm-yes');
    await black1.page.waitForSelector('#banner:not(.hidden)');

    // The standings change live on the watcher's page: 2 + 1 for the berserk win.
    await w.waitForFunction((name) => {
      const row = document.querySelector(`#tour-standings tbody tr[data-player="${name}"]`);
      return row && row.dataset.points === '3';
    }, white1.name, { timeout: 20000 });
    const table = await standings(w);
    assert.equal(table[white1.name], 3);
    assert.equal(table[black1.name], 0);
    assert.equal(await w.$eval('#tour-standings tbody tr:first-child', (r) => r.dataset.player), white1.name);
    assert.ok(await w.isVisible(`#tour-standings tbody tr[data-player="${white1.name}"] .tour-digit.berserk`), 'the berserk win marked');
    assert.equal(await w.textContent(`#tour-standings tbody tr[data-player="${white1.name}"] .tour-sheet .tour-digit`), '3 (berserk win (+1))');
    // The top game: the one going on.
    assert.equal(await w.getAttribute('#tour-watch', 'href'), `#/game/${game2}`);
    await settled(w);
    assert.deepEqual(await axeViolations(w), [], 'the tournament page (a player\'s)');
    await shot(w, `tournament-running-player-${w.viewportSize().width < 500 ? 'phone' : 'desktop'}`);
    // Someone watching on a desktop.
    await openTournament(g, id);
    await settled(g);
    assert.deepEqual(await axeViolations(g), [], 'the tournament page (desktop)');
    await shot(g, 'tournament-running-desktop');
    // Someone watching on a phone.
    eve = await browser.person({ viewport: PHONE });
    await eve.page.goto(`${server.url}/#/tournament/${id}`);
    await eve.page.waitForFunction(() => document.body.dataset.tournamentReady === '1' && document.querySelectorAll('#tour-standings tbody tr').length === 4);
    await settled(eve.page);
    assert.deepEqual(await axeViolations(eve.page), [], 'the tournament page (phone)');
    await shot(eve.page, 'tournament-running-phone');
    await eve.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await shot(eve.page, 'tournament-running-phone-end');

    // The second game ends (Black resigns): the next wave takes everyone to a
    // new game, the watcher from the tournament page too.
    assert.equal((await api(black2.page, 'POST', `/api/games/${game2}/act`, { type: 'resign' })).status, 200);
    for (const p of people) {
      const old = games.get(p.name).id;
      const next = await inGame(p.page, old);
      assert.notEqual(next.id, old, `${p.name} is in a new game`);
    }
    for (const p of [...people, guest, eve]) assert.deepEqual(p.page.errors, [], `${p.name || 'guest'}: no page error`);
  } finally {
    for (const p of [...people, guest, eve]) if (p) await p.context.close();
  }
});

/** The game going on in round `round` of tournament `id`, once the director has paired it. */
async function roundGame(page, id, round) {
  const until = Date.now() + 30000;
  for (;;) {
    const v = (await api(page, 'GET', `/api/tournaments/${id}`)).body;
    const game = v.round === round && v.pairings.find((p) => p.result === '*');
    if (game) return game;
    assert.ok(Date.now() < until, `round ${round} was not paired: ${JSON.stringify(v)}`);
    await page.waitForTimeout(250);
  }
}

test('a round robin of three played to its end: the podium, on a desktop and a phone', async () => {
  const people = [await registered('rae'), await registered('sam'), await registered('tia', { viewport: PHONE })];
  const byName = new Map(people.map((p) => [p.name, p]));
  const a = people[0].page;
  try {
    const made = await api(a, 'POST', '/api/tournaments', {
      kind: 'round_robin', name: 'Three of us', variant: 'chess', clock: { base_seconds: 180, increment_seconds: 2 },
      rated: false, starts_at: Date.now() + 6000, max_players: 3,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    for (const p of people) {
      await openTournament(p.page, id);
      await p.page.click('#btn-tour-join');
      await p.page.waitForSelector(`#tour-standings tbody tr[data-player="${p.name}"].mine`);
    }
    // Three rounds of one game (the third player sits out): a move each,
    // then Black resigns. Each round is paired when the last has ended.
    for (let round = 1; round <= 3; round++) {
      const game = await roundGame(a, id, round);
      const white = byName.get(game.white.name);
      const black = byName.get(game.black.name);
      assert.equal((await api(white.page, 'POST', `/api/games/${game.game}/moves`, { move: 'e2e4', ply: 0 })).status, 200);
      assert.equal((await api(black.page, 'POST', `/api/games/${game.game}/moves`, { move: 'e7e5', ply: 1 })).status, 200);
      assert.equal((await api(black.page, 'POST', `/api/games/${game.game}/act`, { type: 'resign' })).status, 200);
    }
    // Over: the podium on every page, the standings' first three in order.
    for (const p of people) {
      await openTournament(p.page, id);
      await p.page.waitForSelector('#tour-podium:not(.hidden)', { timeout: 30000 });
      const podium = await p.page.$$eval('#tour-podium-list li strong', (els) => els.map((e) => e.textContent));
      const table = await p.page.$$eval('#tour-standings tbody tr', (rows) => rows.map((r) => r.dataset.player));
      assert.deepEqual(podium, table.slice(0, 3));
      assert.equal(podium.length, 3);
      assert.equal(await p.page.getAttribute('body', 'data-tournament-state'), 'finished');
      assert.equal(await p.page.isVisible('#btn-tour-join'), false, 'no joining a finished tournament');
    }
    const phone = byName.get('tia').page;
    await settled(phone);
    assert.deepEqual(await axeViolations(phone), [], 'the podium (phone)');
    await shot(phone, 'tournament-podium-phone');
    await settled(a);
    assert.deepEqual(await axeViolations(a), [], 'the podium (desktop)');
    await shot(a, 'tournament-podium-desktop');
    for (const p of people) assert.deepEqual(p.page.errors, [], `${p.name}: no page error`);
  } finally {
    for (const p of people) await p.context.close();
  }
});
