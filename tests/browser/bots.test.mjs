// A person challenges a bot from its profile and plays it: the bot's
// account is made a bot with a personal API token (the Bot API), the
// bridge (`tensorchess bot`, our engine on a small node budget) follows
// its events; the profile, the game's player bar and the Games list show
// BOT before the name; the challenge sent
// from the profile is accepted by the bridge, the person lands in the game,
// plays a move, and the bot answers.

import { test, before, after } from 'node:test';
import { spawn } from 'node:child_process';
import {
  shot, tap, waitForPly, waitForGame, assert, binary, pageApi, openGames, registered as registeredIn, startFile, stopFile,
} from './lib.mjs';

let server;
let browser;

before(async () => ({ server, browser } = await startFile({ browser: true })));
after(() => stopFile({ server, browser }));

/** The API's answer, asked through the page (its cookies, or a token). */
const api = pageApi;
/** A person with an account named `username`, on the app's home page. */
const registered = (username) => registeredIn(browser, server, username);

test('a person challenges a bot from its profile and the bot answers their move', async () => {
  // The bot's owner makes its token and upgrades the account.
  const owner = await registered('robo');
  const made = await api(owner.page, 'POST', '/api/account/tokens', { description: 'bridge', scopes: ['bot:play', 'challenge:write'] });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const token = made.body.token;
  const up = await api(owner.page, 'POST', '/api/bot/account/upgrade', undefined, token);
  assert.equal(up.status, 200, JSON.stringify(up.body));
  await owner.context.close();

  const bridge = spawn(binary, ['bot', '--server', server.url, '--token', token, '--variants', 'tensor', '--level', '1', '--nodes', '300'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, RUST_LOG: 'warn' },
  });
  let bridgeErr = '';
  bridge.stderr.on('data', (d) => { bridgeErr += d; });
  const pia = await registered('pia');
  const p = pia.page;
  try {
    // The bridge is following its events: the bot is online.
    await p.waitForFunction(async () => (await (await fetch('/api/bot/online')).text()).includes('"robo"'), null, { timeout: 30000 });
    await p.evaluate(() => { location.hash = '#/player/robo'; });
    await p.waitForFunction(() => document.body.dataset.profile === 'robo');
    assert.equal(await p.textContent('#profile-name .title-mark'), 'BOT');
    assert.match(await p.textContent('#profile-name'), /^BOT\s*robo$/);
    await shot(p, 'bots-profile');

    await p.click('#btn-challenge');
    await p.waitForSelector('#dlg-challenge[open]');
    await p.selectOption('#form-challenge select[name=variant]', 'tensor');
    await p.selectOption('#form-challenge select[name=clock]', '300+3');
    await p.selectOption('#form-challenge select[name=color]', 'white');
    await p.uncheck('#form-challenge input[name=rated]');
    await p.click('#challenge-send');
    // The bridge accepts: the person lands in the game, White.
    await p.waitForURL(/\/#\/game\//, { timeout: 30000 });
    await waitForGame(p);
    await p.waitForFunction(() => document.body.dataset.seat === 'white');
    // The bot's player bar (Black, on top) is marked BOT; the person's is not.
    await p.waitForSelector('#name-top .title-mark');
    assert.equal(await p.textContent('#name-top .title-mark'), 'BOT');
    assert.match(await p.textContent('#name-top'), /BOT\s*robo/);
    assert.equal(await p.locator('#name-bottom .title-mark').count(), 0);
    await tap(p, 'e2');
    await p.waitForSelector('#board .mark-dest[data-square="e4"]');
    await tap(p, 'e4');
    await waitForPly(p, 2);
    await shot(p, 'bots-answered');
    const id = await p.evaluate(() => location.hash.split('/')[2]);
    const g = await api(p, 'GET', `/api/games/${id}`);
    assert.equal(g.body.moves.length, 2);
    assert.equal(g.body.moves[0].uci, 'e2e4');

    // The person's Games list: the bot's name after its title there too.
    await openGames(p);
    await p.waitForSelector('#games-list .game-row');
    assert.match(await p.textContent('#games-list .game-row .opp'), /– BOT robo/);
  } finally {
    bridge.kill();
    await pia.context.close();
    if (bridgeErr.includes('ERROR')) console.error(bridgeErr);
  }
});
