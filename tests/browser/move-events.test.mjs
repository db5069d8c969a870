// Online games send each move as a compact `move` event (issue 26): the
// side to move gets the new position's legal moves grouped by their start,
// with paths only where a move is not one piece going straight to its
// square. These tests check, in a real browser against the real server,
//  - that the page's expansion of that form (assets/js/game/move-event.js)
//    gives exactly the whole view's legal moves, kinds, squares and paths,
//    over random Tensor Chess and Chessence games (hop chains, ricochets,
//    propels, beast captures, drops, castling where they come up);
//  - the sizes: the event to the side to move and to a spectator;
//  - that a page which missed an event (its revision does not follow)
//    recovers with a snapshot of the whole game.

import { test, before, after } from 'node:test';
import { Server, launchBrowser, assert, stopFile, openOrigin } from './lib.mjs';

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
  carol = await browser.person();
  for (const p of [alice, bob, carol]) await openOrigin(p.page, server);
});

after(async () => {
  for (const p of [alice, bob, carol]) assert.deepEqual(p.page.errors, [], 'no script errors on the page');
  await stopFile({ server, browser });
});

// A small seeded generator, so that a failure replays.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Opens a socket in the page subscribed to the game; every text message is
// kept in `window.__events` with its length in bytes (as text: on the wire
// it is compressed), and the socket's extensions in `window.__extensions`.
async function listen(page, id) {
  await page.evaluate(async (gameId) => {
    /** @type {any} */ (window).__events = [];
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/api/ws`);
    await new Promise((r) => ws.addEventListener('open', r, { once: true }));
    // What the browser and the server agreed (compression, as issue 26 asks).
    /** @type {any} */ (window).__extensions = ws.extensions;
    ws.addEventListener('message', (e) => {
      const text = String(e.data);
      /** @type {any} */ (window).__events.push({ bytes: new TextEncoder().encode(text).length, msg: JSON.parse(text) });
    });
    ws.send(JSON.stringify({ type: 'subscribe', topic: `game:${gameId}` }));
    await new Promise((resolve) => {
      const check = () => (/** @type {any} */ (window).__events.some((e) => e.msg.type === 'subscribed') ? resolve(null) : setTimeout(check, 10));
      check();
    });
  }, id);
}

// The move event of revision `rev` the page received, checked in the page
// against the whole view the server gives that page now: the page's own
// module (assets/js/game/move-event.js) makes the game of the event from
// the game the page held one move earlier (`window.__view`), which the
// view then replaces. Only what a check found crosses back (and the view,
// when `withView`: the side to move's, to choose the next move from), not
// the games themselves: a game with its legal moves is tens of kilobytes.
async function checkEvent(page, rev, { legal, withView = false }) {
  return page.evaluate(async ([r, compareLegal, wantView]) => {
    const w = /** @type {any} */ (window);
    // The parts of a legal move the board uses, in one order.
    const comparable = (/** @type {any[]} */ moves) => JSON.stringify(moves
      .map((m) => ({
        uci: m.uci, kind: m.kind, from: m.from, to: m.to, aux: m.aux ?? null, promotion: m.promotion ?? null,
        rook: m.rook ?? null, path: { routes: m.path.routes, captured: m.path.captured ?? null },
      }))
      .sort((a, b) => (a.uci < b.uci ? -1 : a.uci > b.uci ? 1 : 0)));
    const same = (/** @type {any} */ a, /** @type {any} */ b) => JSON.stringify(a) === JSON.stringify(b);
    for (let i = 0; i < 500; i++) {
      const found = w.__events.find((/** @type {any} */ e) => e.msg.type === 'move' && e.msg.rev === r);
      if (found) {
        const { afterMoveEvent } = await import('/js/game/move-event.js');
        const prev = w.__view;
        const view = await (await fetch(`/api/games/${prev.id}`)).json();
        const made = afterMoveEvent(prev, found.msg);
        w.__view = view;
        /** @type {string[]} */
        const wrong = [];
        if (!made) {
          wrong.push('the event does not follow the game held');
        } else {
          if (!same(made.moves.at(-1), view.moves.at(-1))) wrong.push(`the move as the move list has it: ${JSON.stringify(made.moves.at(-1))} against ${JSON.stringify(view.moves.at(-1))}`);
          for (const k of ['fen', 'turn', 'check', 'hands']) {
            if (!same(made.position[k], view.position[k])) wrong.push(`position ${k}: ${JSON.stringify(made.position[k])} against ${JSON.stringify(view.position[k])}`);
          }
          if (made.rev !== view.rev) wrong.push(`rev ${made.rev} against ${view.rev}`);
          if (made.online.clock.running !== view.online.clock.running) wrong.push('the running clock');
          if (made.online.can_abort !== view.online.can_abort) wrong.push('can_abort');
          if (compareLegal && comparable(made.position.legal) !== comparable(view.position.legal)) {
            wrong.push(`the compact legal moves expand to the view's: ${comparable(made.position.legal)} against ${comparable(view.position.legal)}`);
          }
        }
        return { bytes: found.bytes, hasLegal: found.msg.legal !== undefined, wrong, view: wantView ? view : null };
      }
      await new Promise((res) => setTimeout(res, 20));
    }
    return null;
  }, [rev, legal, withView]);
}

// Starts a page's game for checkEvent: the whole view it holds now.
async function holdView(page, id) {
  await page.evaluate(async (gameId) => {
    /** @type {any} */ (window).__view = await (await fetch(`/api/games/${gameId}`)).json();
  }, id);
}

async function post(page, url, body) {
  return page.evaluate(async ([u, b]) => {
    const r = await fetch(u, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
    return { status: r.status, body: await r.json().catch(() => null) };
  }, [url, body]);
}

// Alice (White) and Bob play a random game of `variant` through the API
// while both pages and Carol (watching) listen; at each move the side to
// move's event is checked against its whole view.
async function randomGame(variant, seed, plies) {
  const created = await post(alice.page, '/api/online', { variant, color: 'white', clock: { base_seconds: 600, increment_seconds: 5 } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  assert.equal((await post(bob.page, `/api/games/${id}/join`, {})).status, 200);
  for (const p of [alice, bob, carol]) await listen(p.page, id);
  const random = rng(seed);
  const seen = new Set();
  const sizes = { toMove: [], spectator: [] };
  let view = await alice.page.evaluate(async (gameId) => (await fetch(`/api/games/${gameId}`)).json(), id);
  for (const p of [alice, bob, carol]) await holdView(p.page, id);
  for (let ply = 0; ply < plies && !view.end && view.position.legal.length; ply++) {
    const mover = ply % 2 === 0 ? alice : bob;
    const next = ply % 2 === 0 ? bob : alice;
    // Moves the page draws in other ways than a straight line come first
    // now and then, so that the game meets them.
    const legal = view.position.legal;
    const unusual = legal.filter((m) => m.kind !== 'normal' || m.path.routes[0].squares.length > 2);
    const pool = unusual.length && random() < 0.5 ? unusual : legal;
    const m = pool[Math.floor(random() * pool.length)];
    const r = await post(mover.page, `/api/games/${id}/act`, { type: 'move', move: m.uci, ply });
    assert.equal(r.status, 200, `${variant} ply ${ply} ${m.uci}: ${JSON.stringify(r.body)}`);
    seen.add(m.kind);
    if (m.path.routes[0].squares.length > 2) seen.add('long path');
    if (ply === 40) console.log(`a move event at ply 40: ${m.uci}`);
    if (r.body.end) break;
    const what = `${variant} ply ${ply + 1}`;
    const got = await checkEvent(next.page, r.body.rev, { legal: true, withView: true });
    assert.ok(got, `${what}: the side to move got the move event`);
    assert.ok(got.hasLegal, 'the side to move gets the legal moves');
    assert.deepEqual(got.wrong, [], what);
    sizes.toMove.push(got.bytes);
    const watched = await checkEvent(carol.page, r.body.rev, { legal: false });
    assert.ok(watched, `${what}: the spectator got the move event`);
    assert.equal(watched.hasLegal, false, 'a spectator gets no legal moves');
    assert.deepEqual(watched.wrong, [], `${what} (spectator)`);
    sizes.spectator.push(watched.bytes);
    const mine = await checkEvent(mover.page, r.body.rev, { legal: false });
    assert.ok(mine, `${what}: the mover got the move event`);
    assert.equal(mine.hasLegal, false, 'the mover gets no legal moves');
    view = got.view;
  }
  return { seen, sizes };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('the compact legal moves of a Tensor Chess game expand to the whole view', async () => {
  const { seen, sizes } = await randomGame('tensor', 7, 90);
  for (const kind of ['propel', 'long path']) assert.ok(seen.has(kind), `the game met a ${kind} (${[...seen]})`);
  for (const p of [alice, bob, carol]) {
    const agreed = await p.page.evaluate(() => /** @type {any} */ (window).__extensions);
    assert.match(agreed, /^permessage-deflate/, `the socket is compressed (extensions: '${agreed}')`);
  }
  console.log(`tensor move events: median ${median(sizes.toMove)} B to the side to move, ${median(sizes.spectator)} B to a spectator`);
  assert.ok(median(sizes.toMove) <= 1024, `at most 1 KB to the opponent (median ${median(sizes.toMove)})`);
  assert.ok(median(sizes.spectator) <= 300, `at most 300 B to a spectator (median ${median(sizes.spectator)})`);
});

test('the compact legal moves of a Chessence game expand to the whole view', async () => {
  const { seen } = await randomGame('chessence', 11, 60);
  assert.ok(seen.has('drop'), `the game met a drop (${[...seen]})`);
});

test('a page that missed a move event asks for the whole game', async () => {
  const created = await post(alice.page, '/api/online', { variant: 'tensor', color: 'white', clock: null });
  const id = created.body.id;
  await post(bob.page, `/api/games/${id}/join`, {});
  const dave = await browser.person();
  const c = dave.page;
  // Dave's socket loses the first move event on its way to his page.
  let dropped = 0;
  let subscribed = false;
  await c.routeWebSocket(/\/api\/ws/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      const text = String(m);
      if (text.includes('"type":"subscribed"') && text.includes(`"topic":"game:${id}"`)) subscribed = true;
      if (!dropped && text.includes('"type":"move"')) {
        dropped++;
        return;
      }
      ws.send(m);
    });
  });
  await c.goto(`${server.url}/#/game/${id}`);
  await c.waitForFunction((g) => document.body.dataset.game === g, id);
  // Moves made before the page's socket follows the game would reach it in
  // its snapshot, not as events: wait until it follows.
  for (const start = Date.now(); !subscribed;) {
    assert.ok(Date.now() - start < 15000, 'the page follows the game on its socket');
    await new Promise((r) => setTimeout(r, 20));
  }
  let view = await alice.page.evaluate(async (g) => (await fetch(`/api/games/${g}`)).json(), id);
  for (let ply = 0; ply < 2; ply++) {
    const m = view.position.legal.find((x) => x.kind === 'normal');
    const r = await post(ply ? bob.page : alice.page, `/api/games/${id}/act`, { type: 'move', move: m.uci, ply });
    assert.equal(r.status, 200);
    view = r.body;
  }
  await c.waitForFunction(([rev]) => document.body.dataset.ply === '2' && document.body.dataset.rev === String(rev), [view.rev]);
  assert.equal(dropped, 1, 'one move event was lost on the way');
  assert.deepEqual(c.errors, [], 'no script errors on the page');
});
