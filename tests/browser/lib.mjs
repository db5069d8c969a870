// Shared helpers for the browser tests: the server under test, Debian's
// Chromium driven by playwright-core, and board interactions.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '../..');
export const binary = process.env.TENSORCHESS_BIN || path.join(repo, 'target/release/tensorchess');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
export const shotsDir = path.join(here, 'screenshots');
fs.mkdirSync(shotsDir, { recursive: true });

export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

// A tensorchess server on a free port with its own database.
// `extra`: more options for `serve` (`--first-move-seconds 4`).
export class Server {
  constructor(db, extra = []) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tc-server-'));
    this.db = db || path.join(this.dir, 'games.sqlite3');
    this.extra = extra;
    this.port = 0;
    this.proc = null;
  }

  async start() {
    // The tests' browsers are all on this machine: loopback is trusted
    // (it is limited per address like any other client otherwise).
    const args = ['serve', '--host', '127.0.0.1', '--port', String(this.port), '--trusted-local', '--no-schedule', '--db', this.db, ...this.extra];
    const proc = spawn(binary, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RUST_LOG: 'warn' },
    });
    this.proc = proc;
    let out = '';
    let err = '';
    proc.stderr.on('data', (d) => { err += d; });
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${out} ${err}`)), 15000);
      proc.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/[^:]+:(\d+)\//);
        if (m) {
          clearTimeout(timer);
          resolve(parseInt(m[1], 10));
        }
      });
      proc.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}: ${out} ${err}`));
      });
    });
    proc.removeAllListeners('exit');
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  // Kills the server without warning (SIGKILL): nothing is flushed on the way out.
  async kill() {
    if (!this.proc) return;
    const p = this.proc;
    this.proc = null;
    const done = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await done;
  }

  async stop() {
    if (!this.proc) return;
    const p = this.proc;
    this.proc = null;
    const done = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    const timer = setTimeout(() => p.kill('SIGKILL'), 5000);
    await done;
    clearTimeout(timer);
  }
}

/** Playwright's `reducedMotion` for a test's `motion` option ('full' or, by default, reduced). */
const reducedMotion = (/** @type {string | undefined} */ motion) => (motion === 'full' ? 'no-preference' : 'reduce');

// Chromium reads only the last --disable-features: Playwright's own list
// (playwright-core 1.64's chromiumSwitches), then the address bar's popups.
// Each context is a window of the full browser (new headless), and its
// address bar made two popup pages (the omnibox's, the AI mode's) in a
// renderer of its own: a fifth of Chromium's work in these tests.
export const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'DialMediaRouteProvider',
  'GlobalMediaControls', 'HttpsUpgrades', 'LensOverlay', 'MediaRouter', 'PaintHolding',
  'ThirdPartyStoragePartitioning', 'BlockOriginHeaderModificationOnRedirect',
  'AvoidCorsURLLoaderRestartOnRedirect', 'Translate', 'AutoDeElevate', 'OptimizationHints',
  'NetworkTimeServiceQuerying', 'AimEnabled',
  'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup',
];

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
  // V8's optimising tiers (Maglev, TurboFan) off: a test's page lives for
  // seconds, too short to earn back their compiles (Chromium's renderers
  // 4 % less CPU over the suite, the axe checks 15 %); the pages behave
  // the same, only their scripts run unoptimised.
  '--js-flags=--no-opt,--no-maglev',
];

/** @type {Promise<import('playwright-core').Browser> | null} */
let fileChromium = null;

// One Chromium for the test file (each file is its own node process),
// started by the first browser a test opens: every "browser" a test opens
// is a fresh context in it (its own cookies, storage and cache, so its own
// person), which costs a fraction of a Chromium of its own.
function chromiumOfFile() {
  if (!fileChromium) fileChromium = chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  return fileChromium;
}

// A fresh browser as a newcomer has it: no cookies, no storage.
// `locale` is the browser's language (navigator.languages), English by default.
// `motion`: the pages see the system's "reduce motion" setting on unless it
// is 'full' (moves set at once, nothing looping: a sixth of Chromium's
// work in these tests); the tests of the animations themselves ask for
// 'full' (interactions.test.mjs, feel.test.mjs).
export async function openBrowser({ viewport = DESKTOP, mobile = false, locale = 'en-GB', motion = 'reduce' } = {}) {
  const context = await (await chromiumOfFile()).newContext({
    viewport,
    locale,
    isMobile: mobile,
    hasTouch: mobile,
    reducedMotion: reducedMotion(motion),
    deviceScaleFactor: mobile ? 2 : 1,
  });
  const page = await context.newPage();
  watchPage(page);
  page.setDefaultTimeout(15000);
  return { context, page, close: () => context.close() };
}

// Keeps a page's uncaught errors in `page.errors` (tests assert there are
// none) and prints what it logs as an error or a warning, so that a failing
// test's output says what the page itself saw (an exception caught by the
// page's queue is only logged).
export function watchPage(page) {
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    let where = '';
    try { where = new URL(page.url()).hash; } catch { /* a page not loaded yet */ }
    console.log(`[page ${where || page.url()}] console.${m.type()}: ${m.text()}`);
  });
  return page;
}

// Several people at once, each a context of the file's Chromium (separate
// cookies: separate people). `person()` opens a new one with one page
// (options: `viewport`, and `motion` as for openBrowser); `close()` closes
// every one it opened.
export async function launchBrowser({ viewport = DESKTOP } = {}) {
  /** @type {Array<{ context: import('playwright-core').BrowserContext }>} */
  const people = [];
  const person = async (opts = {}) => {
    const p = await openBrowser({ viewport: opts.viewport || viewport, motion: opts.motion });
    people.push(p);
    return { context: p.context, page: p.page };
  };
  return { person, close: async () => { for (const p of people) await p.context.close(); } };
}

/**
 * A test file's server, and with `{ browser: true }` its browser, started
 * before its tests: `before(async () => ({ server, browser } = await startFile({ browser: true })))`.
 * @param {{ browser?: boolean }} [opts]
 */
export async function startFile({ browser = false } = {}) {
  const server = await new Server().start();
  return { server, browser: browser ? await launchBrowser() : undefined };
}

/**
 * Stops what {@link startFile} started (what did not start is skipped).
 * @param {{ server?: { stop(): Promise<void> }, browser?: { close(): Promise<void> } }} started
 */
export async function stopFile({ server, browser }) {
  await browser?.close();
  if (fileChromium) await (await fileChromium).close();
  fileChromium = null;
  await server?.stop();
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeViolations(page) {
  // Once a document (the site's pages change their view without loading
  // a new one): axe's half a megabyte parsed again each time is wasted work.
  // eslint-disable-next-line no-undef
  if (!(await page.evaluate(() => typeof axe !== 'undefined'))) await page.addScriptTag({ path: axePath });
  const res = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1, 2).join('')}`) }));
  });
  return res;
}

export async function shot(page, name) {
  await page.screenshot({ path: path.join(shotsDir, `${name}.png`) });
}

// ---- the game page ------------------------------------------------------

export const sq = (square) => `#board rect.sq[data-square="${square}"]`;

export async function tap(page, square, { touch = false } = {}) {
  if (touch) await page.tap(sq(square));
  else await page.click(sq(square));
}

// The game the page shows, as the server has it.
export async function game(page) {
  return page.evaluate(async () => {
    const id = location.hash.split('/')[2];
    const res = await fetch(`/api/games/${id}`);
    return res.json();
  });
}

export async function pieceAt(page, square) {
  return page.evaluate((s) => {
    const el = document.querySelector(`#board use.piece[data-square="${s}"]`);
    return el ? el.dataset.piece : null;
  }, square);
}

// Waits until the page shows `ply` moves and is idle in the given state.
// What a page shows, for a failing wait's message: its address, the body's
// data attributes, a notice and the text of a game that could not be shown.
export async function pageState(page) {
  return page.evaluate(() => ({
    hash: location.hash,
    body: { ...document.body.dataset },
    board: { ...(document.querySelector('#board')?.dataset ?? {}) },
    hidden: document.hidden,
    toast: document.querySelector('#toast')?.textContent ?? null,
    status: document.querySelector('#status')?.textContent ?? null,
  })).catch((e) => ({ unreadable: String(e) }));
}

// `page.waitForFunction(f, arg)`, whose timeout says what the page showed.
export async function waitShowing(page, f, arg) {
  try {
    return await page.waitForFunction(f, arg);
  } catch (e) {
    e.message += `\nthe page showed: ${JSON.stringify(await pageState(page))}`;
    throw e;
  }
}

export async function waitForPly(page, ply, state) {
  try {
    await page.waitForFunction(
      ([p, s]) => document.body.dataset.ply === String(p) && (!s || document.body.dataset.state === s) &&
        document.querySelector('#board').dataset.mode === 'idle',
      [ply, state],
      { timeout: 30000 },
    );
  } catch (e) {
    e.message += `\nwaiting for ply ${ply}${state ? ` (${state})` : ''}, the page showed: ${JSON.stringify(await pageState(page))}`;
    throw e;
  }
}

// Opens the app at its home page, the lobby (opening it starts no game),
// and waits until the page knows who the player is.
export async function openLobby(page, url) {
  await page.goto(url);
  await waitForLobby(page);
}

export async function waitForLobby(page) {
  await page.waitForFunction(() => document.body.dataset.page === 'lobby' && !!document.body.dataset.player);
}

// Opens the app and starts a game against the engine (Tensor Chess, level
// 3, playing White): the game a first visit used to make by itself.
export async function firstGame(page, url) {
  await openLobby(page, url);
  await newGame(page, { level: 3 });
}

export async function waitForGame(page) {
  await page.waitForFunction(() => location.hash.startsWith('#/game/') && document.body.dataset.game === location.hash.split('/')[2]);
}

// Starts a game through the New game dialog.
export async function newGame(page, { variant = 'tensor', mode = 'engine', level = 1, color = 'white', text = '' } = {}) {
  const before = await page.evaluate(() => location.hash);
  // The New game button of the game page, or the lobby's "Play the engine" (the same dialog).
  await page.click((await page.isVisible('#btn-new')) ? '#btn-new' : '#btn-engine');
  await page.selectOption('#form-new select[name=variant]', variant);
  await page.check(`#form-new input[name=mode][value=${mode}]`);
  if (mode === 'engine') {
    await page.selectOption('#form-new select[name=level]', String(level));
    await page.selectOption('#form-new select[name=color]', color);
  }
  await page.evaluate(() => { document.querySelector('#form-new details').open = true; });
  await page.fill('#form-new textarea[name=import]', text);
  await page.click('#btn-start');
  await page.waitForFunction((h) => location.hash !== h && location.hash.startsWith('#/game/'), before);
  await page.waitForFunction(() => document.body.dataset.game === location.hash.split('/')[2]);
  await page.waitForFunction(() => document.querySelector('#board').dataset.mode === 'idle');
}

/**
 * Waits until the page has done what an input set off: two frames drawn, no
 * request in flight (api.js counts them on <html data-requests>), no move
 * being animated and no finite CSS animation running. Tests call it before
 * checking that something did NOT happen (a tap that must select nothing).
 */
export async function settled(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  await page.waitForFunction(() => (document.documentElement.dataset.requests || '0') === '0' &&
    !document.querySelector('[data-animating]') &&
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

/** Opens the player's games (the Games dialog) from the player's menu in the header. */
export async function openGames(page) {
  await page.click('#btn-player');
  await page.click('#btn-games');
  await page.waitForSelector('#dlg-games[open]');
}

/** Opens the header's menu where it is folded (a phone): the site's pages and the switches. */
export async function openMenu(page) {
  if (await page.isVisible('#btn-menu') && !(await page.isVisible('#site-nav'))) await page.click('#btn-menu');
}

/**
 * Switches the page's language as a person does: the header's switch
 * (unfolded on a phone, folded again after).
 */
export async function switchLanguage(page, lang) {
  await openMenu(page);
  await page.click(`header.top .lang-switch button[data-lang="${lang}"]`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  if (await page.isVisible('#btn-menu')) await page.keyboard.press('Escape');
}

export async function toastText(page) {
  await page.waitForSelector('#toast:not(.hidden)');
  return page.textContent('#toast');
}

/** The password every test account uses. */
export const PASSWORD = 'correct horse battery';

/**
 * Opens the site's origin without a page of the app (`/api/health`): enough
 * for a test that works through the origin's fetch, WebSocket and module
 * loader, where a page of the app's first load in a fresh context costs
 * Chromium about a CPU-second.
 * @param {import('playwright-core').Page} page @param {{ url: string }} server
 */
export async function openOrigin(page, server) {
  await page.goto(`${server.url}/api/health`);
}

/**
 * The API's answer to a request made from `page` (with its cookies, or with
 * `token` as a bearer token): `{status, body}`, the body parsed when there is one.
 */
export async function pageApi(page, method, path, body, token) {
  return page.evaluate(async ([m, p, b, tok]) => {
    /** @type {Record<string, string>} */
    const headers = tok ? { Authorization: `Bearer ${tok}` } : { 'Content-Type': 'application/json' };
    const res = await fetch(p, { method: m, headers, body: b === undefined ? undefined : JSON.stringify(b) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }, [method, path, body, token]);
}

/**
 * A new person in `browser` (options as `browser.person`) with an account
 * named `username` (also its `name`), on the home page of `server`, its
 * header showing the account.
 */
export async function registered(browser, server, username, opts = {}) {
  const p = await browser.person(opts);
  // Registered from the origin, then the home page loaded once, already
  // signed in.
  await openOrigin(p.page, server);
  const r = await pageApi(p.page, 'POST', '/api/account/register', { username, password: PASSWORD });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await p.page.goto(server.url);
  await waitShowing(p.page, (u) => document.body.dataset.account === u, username);
  p.name = username;
  return p;
}

export { assert };
