// Game chat and challenges, in separate browser contexts (separate people):
// two players of an online game chat in their room, a spectator with an
// account writes in the spectators' room, which the players do not see
// until the game ends (then both rooms are tabs); text stays text; a mute
// hides the other side's lines and survives a reload; a report reaches the
// operator (`tensorchess admin reports`); a guest spectator reads but may
// not write; the page on a 375×667 phone keeps the board in the first
// screen with the chat below; axe-core on the chat. Challenges: sent from
// a profile, seen live on another page (the Rules page), declined with a
// reason that the challenger reads, sent again, accepted, both pages in the
// game, a move each; the opponent's Challenge button after a game.

import { test, before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import {
  shot, tap, waitForPly, waitForGame, axeViolations, assert, settled, binary, pageApi, registered as registeredIn, startFile, stopFile, newGame,
} from './lib.mjs';

/** The API's answer, asked through the page (its cookies). */
const api = (page, method, path, body) => pageApi(page, method, path, body);
/** A person with an account named `username`, on the app's home page. */
const registered = (username, opts = {}) => registeredIn(browser, server, username, opts);

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/** Opens game `id` and waits until the page shows it. */
async function openGame(page, id) {
  await page.evaluate((g) => { location.hash = `#/game/${g}`; }, id);
  await page.waitForFunction((g) => document.body.dataset.game === g, id);
}

/** The texts of the chat's lines shown. */
const lines = (page) => page.$$eval('#chat-lines .chat-line .chat-text', (els) => els.map((e) => e.textContent));

/** Writes `text` in the chat and waits until it is shown on this page. */
async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
  await page.waitForFunction((x) => [...document.querySelectorAll('#chat-lines .chat-text')].some((e) => e.textContent === x), text);
}

/** Waits until `page` shows a chat line `text`. */
const sees = (page, text) => page.waitForFunction((x) => [...document.querySelectorAll('#chat-lines .chat-text')].some((e) => e.textContent === x), text);

test('chat: the players\' room, the spectators\' room kept from the players until the end, text as text, mute, report', async () => {
  const alice = await registered('alice');
  const bob = await registered('bob', { viewport: { width: 375, height: 667 } });
  const carol = await registered('carol');
  const guest = await browser.person();
  const a = alice.page;
  const b = bob.page;
  const c = carol.page;
  const g = guest.page;
  try {
    const made = await api(a, 'POST', '/api/online', { variant: 'tensor', color: 'white', clock: null });
    assert.equal(made.status, 201);
    const id = made.body.id;
    await openGame(a, id);
    await openGame(b, id);
    await b.click('#btn-join');
    await b.waitForFunction(() => document.body.dataset.seat === 'black');
    await openGame(c, id);
    await g.goto(`${server.url}/#/game/${id}`);
    await g.waitForFunction((x) => document.body.dataset.game === x, id);

    // The players' room, for the players alone.
    for (const p of [a, b]) {
      await p.waitForFunction(() => document.querySelector('#chat').dataset.rooms === 'players' && document.querySelector('#chat').dataset.players === '0');
      assert.equal(await p.isVisible('#chat-tabs'), false, 'one room: no tabs');
      assert.equal(await p.textContent('#chat-title'), "Players' chat");
    }
    // Markup and addresses stay text: no element made, no link.
    const html = 'hello <b>bob</b> see https://example.com/x';
    await say(a, html);
    await sees(b, html);
    assert.equal(await b.$$eval('#chat-lines .chat-text b, #chat-lines .chat-text a, #chat-lines .chat-text *', (e) => e.length), 0);
    assert.equal(await b.$$eval('#chat-lines b', (e) => e.length), 0);
    assert.match(await b.textContent('#chat-lines .chat-line[data-seat="white"] .chat-name'), /alice/);
    assert.equal(await b.getAttribute('#chat-input', 'maxlength'), '140');
    await say(b, 'hi alice');
    await sees(a, 'hi alice');

    // A spectator with an account writes in the spectators' room.
    await c.waitForFunction(() => document.querySelector('#chat').dataset.rooms === 'spectators');
    assert.equal(await c.textContent('#chat-title'), "Spectators' chat");
    assert.equal(await c.isVisible('#chat-mute'), false, 'spectators mute nobody');
    assert.deepEqual(await lines(c), [], 'the players\' lines are theirs');
    await say(c, 'go alice!');
    // A guest spectator reads it, and may not write.
    await sees(g, 'go alice!');
    // The writer's name leads to her profile.
    assert.equal(await g.getAttribute('#chat-lines .chat-line .chat-name a.player-link', 'href'), '/#/player/carol');
    assert.equal(await g.isVisible('#chat-form'), false);
    assert.match(await g.textContent('#chat-note'), /Log in to chat as a spectator/);
    // The players do not see it while the game runs.
    await say(a, 'your move');
    await sees(b, 'your move');
    await settled(a);
    await settled(b);
    for (const p of [a, b]) assert.ok(!(await lines(p)).includes('go alice!'), 'the spectators\' room is hidden from the players');
    // Over the socket a player may not follow the spectators' room either.
    assert.equal((await api(a, 'GET', `/api/games/${id}/chat?room=spectators`)).status, 403);

    // Bob mutes Alice: her new lines are not shown (they do arrive).
    await b.click('#chat-mute');
    await b.waitForFunction(() => document.querySelector('#chat-mute').getAttribute('aria-pressed') === 'true');
    const before = Number(await b.getAttribute('#chat', 'data-players'));
    await say(a, 'are you there?');
    await b.waitForFunction((n) => Number(document.querySelector('#chat').dataset.players) > n, before);
    await settled(b);
    assert.ok(!(await lines(b)).includes('are you there?'), 'muted: hidden');
    assert.ok((await lines(b)).includes('hi alice'), 'his own lines stay');
    // Remembered: after a reload Alice's lines are left out.
    await b.reload();
    await b.waitForFunction(() => document.querySelector('#chat')?.dataset.players !== undefined && document.querySelector('#chat').dataset.players !== '');
    await b.waitForFunction(() => document.querySelector('#chat-mute').getAttribute('aria-pressed') === 'true');
    assert.deepEqual(await lines(b), ['hi alice']);
    await b.locator('#chat').scrollIntoViewIfNeeded();
    await shot(b, 'social-chat-phone-muted');
    // Unmuted: her lines are back.
    await b.click('#chat-mute');
    await sees(b, 'are you there?');

    // Alice reports Bob's line: the operator sees it.
    const report = a.waitForResponse((r) => /\/api\/chat\/\d+\/report$/.test(r.url()));
    await a.click('#chat-lines .chat-line[data-seat="black"] .chat-report');
    await a.waitForSelector('#dlg-confirm[open]');
    await a.click('#confirm-yes');
    assert.equal((await report).status(), 204);
    await a.waitForSelector('#chat-lines .chat-line[data-seat="black"] .chat-reported');
    assert.equal(await a.$$eval('#chat-lines .chat-line[data-mine] .chat-report', (e) => e.length), 0, 'no report of one\'s own lines');
    const reports = execFileSync(binary, ['admin', '--db', server.db, 'reports'], { encoding: 'utf8' });
    assert.match(reports, /hi alice/, reports);

    // The phone: the board in the first screen, the chat below it.
    const boardBox = await b.locator('#board').boundingBox();
    assert.ok(boardBox.y + boardBox.height <= 667, `the board ends at ${boardBox.y + boardBox.height}`);
    const chatBox = await b.locator('#chat').boundingBox();
    assert.ok(chatBox.y >= boardBox.y + boardBox.height, 'the chat is below the board');
    assert.ok(chatBox.width <= 375 && chatBox.x >= 0, 'the chat fits the width');
    await b.evaluate(() => window.scrollTo(0, 0));
    await shot(b, 'social-chat-phone');
    await b.locator('#chat').scrollIntoViewIfNeeded();
    await shot(b, 'social-chat-phone-chat');
    await b.screenshot({ path: 'screenshots/social-chat-phone-full.png', fullPage: true });

    // The end: both rooms for the players, as tabs.
    await a.click('#btn-resign');
    await a.click('#confirm-yes');
    for (const p of [a, b]) {
      await p.waitForFunction(() => document.body.dataset.state === 'over');
      await p.waitForFunction(() => document.querySelector('#chat').dataset.rooms === 'players spectators');
      assert.equal(await p.isVisible('#chat-tabs'), true);
    }
    await b.click('#chat-tab-spectators');
    await sees(b, 'go alice!');
    assert.equal(await b.isVisible('#chat-mute'), false, 'the mute is the players\' room\'s');
    await a.click('#chat-tab-spectators');
    await say(a, 'thanks, carol');
    await sees(c, 'thanks, carol');
    // Keyboard: the arrows move between the tabs.
    await a.focus('#chat-tab-spectators');
    await a.keyboard.press('ArrowLeft');
    await a.waitForFunction(() => document.querySelector('#chat').dataset.tab === 'players' && document.activeElement.id === 'chat-tab-players');

    // Accessible: axe-core on the chat (desktop, phone; both languages).
    for (const p of [a, b]) assert.deepEqual(await axeViolations(p), []);
    await a.click('.lang[data-lang="uk"]');
    await a.waitForFunction(() => document.querySelector('#chat-tab-players').textContent.startsWith('Гравці'));
    assert.deepEqual(await axeViolations(a), []);
    await shot(a, 'social-chat-desktop-uk');
    await a.click('.lang[data-lang="en"]');

    // After the game, the opponent's name offers a challenge.
    await a.waitForSelector('#challenge-top:not(.hidden)');
    assert.equal(await a.getAttribute('#challenge-top', 'aria-label'), 'Challenge bob');
    await a.click('#challenge-top');
    await a.waitForSelector('#dlg-challenge[open]');
    assert.equal(await a.textContent('#dlg-challenge-title'), 'Challenge bob');
    await a.click('#challenge-cancel');
    await shot(a, 'social-chat-desktop');
    for (const p of [a, b, c, g]) assert.deepEqual(p.errors, []);
  } finally {
    for (const p of [alice, bob, carol, guest]) await p.context.close();
  }
});

test('challenges: from a profile, seen live on the Rules page, declined with a reason, sent again, accepted, both in the game', async () => {
  const dora = await registered('dora');
  const erin = await registered('erin', { viewport: { width: 375, height: 667 } });
  const d = dora.page;
  const e = erin.page;
  try {
    await e.goto(`${server.url}/rules.html`);
    await e.waitForFunction(() => document.body.dataset.account === 'erin');
    await d.evaluate(() => { location.hash = '#/player/erin'; });
    await d.waitForFunction(() => document.body.dataset.profile === 'erin');

    // Sent from the profile: Chess, no clock, casual, Dora White.
    await d.click('#btn-challenge');
    await d.waitForSelector('#dlg-challenge[open]');
    assert.equal(await d.isChecked('#form-challenge input[name=rated]'), true, 'rated by default for an account');
    await d.selectOption('#form-challenge select[name=variant]', 'chess');
    await d.selectOption('#form-challenge select[name=clock]', 'none');
    await d.selectOption('#form-challenge select[name=color]', 'white');
    await d.uncheck('#form-challenge input[name=rated]');
    await d.click('#challenge-send');
    await d.waitForSelector('#dlg-challenge', { state: 'hidden' });
    await d.waitForSelector('#challenges .challenge.outgoing');
    assert.match(await d.textContent('#challenges .challenge.outgoing'), /Waiting for erin to answer…\s*Chess · no clock · Casual · you play White/);
    assert.deepEqual(await axeViolations(d), []);
    await shot(d, 'social-challenge-waiting');

    // Seen live on another page, with its terms.
    await e.waitForSelector('#challenges .challenge.incoming');
    assert.match(await e.textContent('#challenges .challenge.incoming'), /dora challenges you\s*Chess · no clock · Casual · you play Black/);
    assert.equal(await e.getAttribute('#challenges .challenge.incoming a.player-link', 'href'), '/#/player/dora', 'the challenger\'s name leads to her profile');
    assert.deepEqual(await axeViolations(e), []);
    assert.ok(await e.evaluate(() => document.documentElement.scrollWidth <= 375), 'the notice fits a phone');
    await shot(e, 'social-challenge-incoming-phone');
    // Declined, with a reason.
    await e.click('#challenges .challenge-decline-open');
    await e.fill('#challenges .challenge-reason', 'busy now, later?');
    await shot(e, 'social-challenge-decline-phone');
    await e.click('#challenges .challenge-decline-send');
    await e.waitForSelector('#challenges', { state: 'hidden' });
    await d.waitForSelector('#challenges .challenge.note');
    assert.equal(await d.textContent('#challenges .challenge.note .challenge-text'), 'erin declined your challenge: “busy now, later?”');
    assert.equal(await d.$$eval('#challenges .challenge.outgoing', (x) => x.length), 0);
    await d.click('#challenges .challenge.note .challenge-close');
    await d.waitForSelector('#challenges', { state: 'hidden' });

    // Sent again (Tensor Chess, 5+3, colour by lot), accepted from the Rules page.
    await d.click('#btn-challenge');
    await d.waitForSelector('#dlg-challenge[open]');
    await d.selectOption('#form-challenge select[name=variant]', 'tensor');
    await d.selectOption('#form-challenge select[name=clock]', '300+3');
    await d.selectOption('#form-challenge select[name=color]', 'white');
    await d.click('#challenge-send');
    await d.waitForSelector('#challenges .challenge.outgoing');
    await e.waitForSelector('#challenges .challenge.incoming');
    assert.match(await e.textContent('#challenges .challenge.incoming'), /Tensor Chess · 5\+3 · Rated · you play Black/);
    await e.click('#challenges .challenge-accept');
    // Both land in the game.
    await e.waitForURL(/\/#\/game\//);
    await waitForGame(e);
    await waitForGame(d);
    const id = await d.evaluate(() => location.hash.split('/')[2]);
    assert.equal(await e.evaluate(() => location.hash.split('/')[2]), id);
    await d.waitForFunction(() => document.body.dataset.seat === 'white');
    await e.waitForFunction(() => document.body.dataset.seat === 'black');
    assert.equal(await d.isVisible('#challenges'), false, 'nothing waits any more');
    // A move each.
    await tap(d, 'e2');
    await d.waitForSelector('#board .mark-dest[data-square="e4"]');
    await tap(d, 'e4');
    await waitForPly(d, 1);
    await waitForPly(e, 1);
    await tap(e, 'e7');
    await e.waitForSelector('#board .mark-dest[data-square="e5"]');
    await tap(e, 'e5');
    await waitForPly(e, 2);
    await waitForPly(d, 2);
    const game = await api(d, 'GET', `/api/games/${id}`);
    assert.equal(game.body.online.rated, true);
    assert.deepEqual(game.body.moves.map((m) => m.uci), ['e2e4', 'e7e5']);
    // Withdrawn: a third challenge, taken back.
    await d.evaluate(() => { location.hash = '#/player/erin'; });
    await d.waitForFunction(() => document.body.dataset.profile === 'erin');
    await d.click('#btn-challenge');
    await d.click('#challenge-send');
    await e.waitForSelector('#challenges .challenge.incoming');
    await d.click('#challenges .challenge-withdraw');
    await d.waitForSelector('#challenges', { state: 'hidden' });
    await e.waitForSelector('#challenges .challenge.note');
    assert.equal(await e.textContent('#challenges .challenge.note .challenge-text'), 'dora withdrew their challenge.');
    // One's own profile offers no challenge.
    await d.evaluate(() => { location.hash = '#/player/dora'; });
    await d.waitForFunction(() => document.body.dataset.profile === 'dora');
    assert.equal(await d.isVisible('#btn-challenge'), false);
    for (const p of [d, e]) assert.deepEqual(p.errors, []);
  } finally {
    await dora.context.close();
    await erin.context.close();
  }
});

test('a challenge bar on a 1280×800 desktop game page: the player\'s own name stays on the screen', async () => {
  const ann = await registered('annbar', { viewport: { width: 1280, height: 800 } });
  const bob = await registered('bobbar');
  try {
    const a = ann.page;
    await newGame(a, { variant: 'tensor', mode: 'engine', level: 1, color: 'white' });
    const made = await api(bob.page, 'POST', '/api/challenges', { to: 'annbar', variant: 'chess', rated: false, color: 'white', clock: { base_seconds: 300, increment_seconds: 3 } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await a.waitForSelector('#challenges .challenge.incoming');
    // The board gives up the bar's height: the name line under it ends on the screen.
    await a.waitForFunction(() => document.querySelector('.player-bottom').getBoundingClientRect().bottom <= innerHeight);
    assert.equal(await a.evaluate(() => scrollY), 0);
    await shot(a, 'social-desktop-challenge-bar');
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
