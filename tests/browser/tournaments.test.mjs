// Tournaments, in four browser contexts (four accounts; one on a 375×667
// phone): the header's Tournaments link, the list with a live countdown,
// the form (its own checks, and a refusal of the server said on it), an
// arena joined from its page by all four, started by the server's director,
// a pause said ("paused: join again") and undone, the players taken to
// their games by themselves, a berserk (the button on the game page, the
// mark on the tournament page), a game played to its end and the standings
// changing live on another player's tournament page (the berserk win's +1
// and its mark; a berserked loss unmarked), a player's line opening their
// games, names linking to profiles, a player who waits told why, then the
// next wave taking the players to their new games, from the game page and
// the tournament page alike. Then a Swiss of three played to its end (on a
// server whose first move must come within 4 s, so that the last round's
// White loses by not moving): the bye said to its player, the crosstable
// with every round and the byes, the rounds one by one, the game page and
// the standings saying the same of the no-show, the PGN and TRF
// downloaded, a chat line seen by another player, the podium, no top game
// and no fire once it is over. axe-core on the list, the tournament page
// and the finished Swiss; screenshots at desktop and phone size.

import { test, before, after } from 'node:test';
import fs from 'node:fs';
import {
  shot, axeViolations, assert, settled, pageApi, registered as registeredIn, startFile, stopFile, Server,
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
    // A pause is said, and why nobody pairs the player; joining again undoes it.
    assert.equal(await dee.page.textContent('#tour-you'), 'You are in: paired when it starts.');
    await dee.page.click('#btn-tour-pause');
    await dee.page.waitForFunction(() => document.querySelector('#tour-you').textContent === 'Paused: join again to be paired.');
    await dee.page.click('#btn-tour-join');
    await dee.page.waitForFunction(() => document.querySelector('#tour-you').textContent === 'You are in: paired when it starts.');
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
    // Its Black berserks, and will lose: no mark for that.
    assert.equal((await api(white2.page, 'POST', `/api/games/${game2}/moves`, { move: 'e2e4', ply: 0 })).status, 200);
    assert.equal((await api(black2.page, 'POST', `/api/games/${game2}/berserk`, {})).status, 200);
    assert.equal((await api(black2.page, 'POST', `/api/games/${game2}/moves`, { move: 'e7e5', ply: 1 })).status, 200);
    const w = white2.page;
    await openTournament(w, id);
    // Playing: said, the game a link away.
    await w.waitForSelector('#tour-you #tour-your-game');
    assert.match(await w.textContent('#tour-you'), /^You are playing: your game$/);
    assert.equal(await w.getAttribute('#tour-your-game', 'href'), `#/game/${game2}`);
    // Every name links to its player's profile, in the standings and the games.
    assert.equal(await w.getAttribute(`#tour-standings tr[data-player="${black1.name}"] a.tour-player-name`, 'href'), `#/player/${black1.name}`);
    assert.equal(await w.getAttribute(`#tour-pairings li[data-game="${game2}"] a.tour-player-name >> nth=1`, 'href'), `#/player/${black2.name}`);

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
    // The loser waits for the other game: told so, and why.
    await openTournament(black1.page, id);
    await black1.page.waitForFunction(() => document.querySelector('#tour-you').textContent === 'Waiting for an opponent: paired when a board is free.');
    await settled(w);
    assert.deepEqual(await axeViolations(w), [], 'the tournament page (a player\'s)');
    await shot(w, `tournament-running-player-${w.viewportSize().width < 500 ? 'phone' : 'desktop'}`);
    // Someone watching on a desktop opens the winner's line: their games.
    await openTournament(g, id);
    await g.click(`#tour-standings tr[data-player="${white1.name}"] td.tour-rank`);
    const games1 = `#tour-standings tr[data-games-of="${white1.name}"]`;
    await g.waitForSelector(`${games1} li.tour-player-game[data-game="${game1}"]`);
    assert.equal(await g.getAttribute(`#tour-standings tr[data-player="${white1.name}"] .tour-sheet-button`, 'aria-expanded'), 'true');
    assert.equal(await g.$eval(`${games1} li`, (li) => li.dataset.result), '1');
    assert.match(await g.textContent(`${games1} li`), /White against .*berserk win \(\+1\)/);
    assert.equal(await g.getAttribute(`${games1} a.tour-opponent`, 'href'), `#/player/${black1.name}`);
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
    // new game, the watcher from the tournament page too. The berserked loss
    // scores nothing and is not marked.
    assert.equal((await api(black2.page, 'POST', `/api/games/${game2}/act`, { type: 'resign' })).status, 200);
    const lost = `#tour-standings tr[data-player="${black2.name}"] .tour-digit`;
    await g.waitForSelector(lost);
    assert.equal(await g.textContent(lost), '0');
    assert.equal(await g.$$eval(`#tour-standings tr[data-player="${black2.name}"] .tour-digit.berserk`, (d) => d.length), 0);
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

/** Downloads what the link `sel` of `page` names: its file's name and text. */
async function download(page, sel) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
  return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8') };
}

/** The crosstable as the page shows it: name → each round's `opponent/result` (or `bye/result`). */
const crosstable = (page) => page.$$eval('#tour-standings tbody tr[data-player]', (rows) => Object.fromEntries(rows.map((r) => [
  r.dataset.player, [...r.querySelectorAll('.tour-cell')].map((c) => `${c.querySelector('.tour-cell-opp').textContent}/${c.dataset.result}`),
])));

test('a Swiss of three played to its end: crosstable, rounds, no-show, downloads, chat and podium, on a desktop and a phone', async () => {
  // Its own server: a first move must come within 4 s there.
  const quick = await new Server(undefined, ['--first-move-seconds', '4']).start();
  const people = [
    await registeredIn(browser, quick, 'rae'), await registeredIn(browser, quick, 'sam'),
    await registeredIn(browser, quick, 'tia', { viewport: PHONE }),
  ];
  const byName = new Map(people.map((p) => [p.name, p]));
  const a = people[0].page;
  try {
    const made = await api(a, 'POST', '/api/tournaments', {
      kind: 'swiss', name: 'Three of us', variant: 'chess', clock: { base_seconds: 180, increment_seconds: 2 },
      rated: false, starts_at: Date.now() + 5000, rounds: 3, max_players: 3,
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    for (const p of people) {
      await openTournament(p.page, id);
      await p.page.click('#btn-tour-join');
      await p.page.waitForSelector(`#tour-standings tbody tr[data-player="${p.name}"].mine`);
    }
    // Three rounds of one game and a bye: a move each and Black resigns,
    // but in the last round White never moves. Each round is paired when
    // the last has ended.
    let noShow = null;
    for (let round = 1; round <= 3; round++) {
      const game = await roundGame(a, id, round);
      const white = byName.get(game.white.name);
      const black = byName.get(game.black.name);
      if (round === 3) {
        noShow = { game: game.game, white, black };
        break;
      }
      assert.equal((await api(white.page, 'POST', `/api/games/${game.game}/moves`, { move: 'e2e4', ply: 0 })).status, 200);
      assert.equal((await api(black.page, 'POST', `/api/games/${game.game}/moves`, { move: 'e7e5', ply: 1 })).status, 200);
      if (round === 1) {
        // The one left out waits on the tournament page: a bye, and why.
        const bye = people.find((p) => p !== white && p !== black);
        await bye.page.waitForFunction(() => /^A bye in round 1 \(1\): the next round is paired when all of this round's games have ended\.$/
          .test(document.querySelector('#tour-you').textContent));
      }
      assert.equal((await api(black.page, 'POST', `/api/games/${game.game}/act`, { type: 'resign' })).status, 200);
    }
    // White of the last round does not move: the game page says who lost,
    // as the standings count it.
    const w = noShow.white.page;
    await w.waitForFunction((g) => document.body.dataset.game === g, noShow.game);
    await w.waitForSelector('#banner:not(.hidden)', { timeout: 20000 });
    assert.match(await w.textContent('#banner'), /White did not make a first move in time.*Black wins: in a tournament, a first move not made in time loses/s);
    await settled(w);
    await shot(w, `tournament-no-show-${w.viewportSize().width < 500 ? 'phone' : 'desktop'}`);

    // Over: the podium on every page, the standings' first three in order,
    // the crosstable's three rounds on each line, the bye on it.
    for (const p of people) {
      await openTournament(p.page, id);
      await p.page.waitForSelector('#tour-podium:not(.hidden)', { timeout: 30000 });
      const podium = await p.page.$$eval('#tour-podium-list li strong', (els) => els.map((e) => e.textContent));
      const table = await p.page.$$eval('#tour-standings tbody tr', (rows) => rows.map((r) => r.dataset.player));
      assert.deepEqual(podium, table.slice(0, 3));
      assert.equal(podium.length, 3);
      assert.equal(await p.page.getAttribute('body', 'data-tournament-state'), 'finished');
      assert.equal(await p.page.isVisible('#btn-tour-join'), false, 'no joining a finished tournament');
      // Nothing to watch once it is over.
      assert.equal(await p.page.isVisible('#tour-top-card'), false);
    }
    assert.equal(await a.textContent('#tour-sheet-head'), 'Round by round');
    const cells = await crosstable(a);
    const ranks = await a.$$eval('#tour-standings tbody tr[data-player]', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.player, r.querySelector('.tour-rank').textContent])));
    for (const [name, line] of Object.entries(cells)) {
      assert.equal(line.length, 3, `${name}: ${line}`);
      assert.equal(line.filter((c) => c === 'bye/1').length, 1, `${name}'s bye, on the line: ${line}`);
    }
    const [wn, bn] = [noShow.white.name, noShow.black.name];
    assert.equal(cells[wn][2], `${ranks[bn]}/-`, 'the no-show lost by forfeit');
    assert.equal(cells[bn][2], `${ranks[wn]}/+`);
    assert.match(await a.getAttribute(`#tour-standings tr[data-player="${wn}"] .tour-cell >> nth=2`, 'title'), /^Round 3: White against no\. \d, \w+, lost by forfeit/);

    // The rounds one by one: the last shown, the first on a click, its bye.
    assert.equal(await a.getAttribute('#tour-pairings', 'data-round'), '3');
    assert.equal(await a.getAttribute(`#tour-pairings li[data-game="${noShow.game}"]`, 'data-result'), '0-1');
    assert.match(await a.textContent(`#tour-pairings li[data-game="${noShow.game}"]`), /0-1 White did not make a first move/);
    await a.click('#tour-round-nav button[data-round="1"]');
    await a.waitForFunction(() => document.querySelector('#tour-pairings').dataset.round === '1' && document.querySelectorAll('#tour-pairings li').length === 1);
    assert.equal(await a.getAttribute('#tour-round-nav button[data-round="1"]', 'aria-pressed'), 'true');
    assert.equal(await a.$$eval('#tour-bye-list li', (li) => li.length), 1);
    assert.equal(await a.getAttribute('#tour-pairings li', 'data-result'), '1-0');

    // The downloads: every game, the no-show lost; the TRF of three players.
    const pgn = await download(a, '#tour-download-pgn');
    assert.equal(pgn.text.match(/\[Event "Three of us"\]/g).length, 3, pgn.text);
    assert.match(pgn.text, /\[Round "3"\][\s\S]*\[Result "0-1"\]/);
    const trf = await download(a, '#tour-download-trf');
    assert.match(trf.name, /\.trf$/);
    assert.match(trf.text, /^012 Three of us/m);
    assert.equal(trf.text.split('\n').filter((l) => l.startsWith('001')).length, 3, trf.text);

    // The chat: a line written on a desktop shows on the phone.
    const phone = byName.get('tia').page;
    await a.fill('#tour-chat .chat-input', 'well played, all of you');
    await a.click('#tour-chat .chat-send');
    await phone.waitForFunction(() => [...document.querySelectorAll('#tour-chat .chat-line')].some((l) => /rae well played, all of you/.test(l.textContent)));
    // Sent: the box emptied (the line may reach the phone before the answer).
    await a.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#tour-chat .chat-input')).value === '');
    assert.equal(await phone.isVisible('#tour-chat .chat-line .chat-report'), true, 'another\'s line can be reported');

    // A finished arena draws no fire (the page's rule, whatever it is told).
    const fire = await a.evaluate(async () => {
      const { renderStandings } = await import('/js/tournaments/standings.js');
      const body = document.createElement('tbody');
      const line = { rank: 1, player: { id: 'x', name: 'x' }, rating: 1500, points: 8, points_line: '2 2 4', games: 3,
        sheet: [{ points: 2, fire: false, berserk: false, berserk_bonus: false }, { points: 2, fire: false, berserk: false, berserk_bonus: false },
          { points: 4, fire: true, berserk: false, berserk_bonus: false }],
        on_fire: true, performance: null, withdrawn: false, paused: false };
      const view = { kind: 'arena', state: 'finished', standings: [line] };
      const open = { player: null, games: null, toggle: () => {} };
      renderStandings(body, /** @type {any} */ (view), null, open);
      const over = !!body.querySelector('.tour-fire');
      renderStandings(body, /** @type {any} */ ({ ...view, state: 'running' }), null, open);
      return { over, running: !!body.querySelector('.tour-fire') };
    });
    assert.deepEqual(fire, { over: false, running: true });

    await settled(phone);
    assert.deepEqual(await axeViolations(phone), [], 'the finished Swiss (phone)');
    await shot(phone, 'tournament-swiss-phone');
    await phone.evaluate(() => document.querySelector('#tour-chat').scrollIntoView());
    await shot(phone, 'tournament-swiss-phone-chat');
    await settled(a);
    assert.deepEqual(await axeViolations(a), [], 'the finished Swiss (desktop)');
    await shot(a, 'tournament-swiss-desktop');
    // In Ukrainian too.
    await a.click('.lang-switch button[data-lang="uk"]');
    await a.waitForFunction(() => document.documentElement.lang === 'uk' && document.querySelector('#tour-sheet-head').textContent === 'Тур за туром');
    await settled(a);
    assert.deepEqual(await axeViolations(a), [], 'the finished Swiss (desktop, Ukrainian)');
    await shot(a, 'tournament-swiss-desktop-uk');
    // A name opens the player's profile.
    await a.click(`#tour-standings tr[data-player="sam"] a.tour-player-name`);
    await a.waitForFunction(() => document.body.dataset.page === 'profile' && location.hash === '#/player/sam');
    for (const p of people) assert.deepEqual(p.page.errors, [], `${p.name}: no page error`);
  } finally {
    for (const p of people) await p.context.close();
    await quick.stop();
  }
});
