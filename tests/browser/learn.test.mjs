// Learning in the app (issue 16), walked through in Chromium: an analysis
// with a variation (promote, delete, engine lines, PGN out and in), a game
// review (stored: it opens at once the next time), a puzzle solved and one
// failed, a lesson level completed; axe-core on the new pages.

import { test, before, after } from 'node:test';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import {
  openBrowser, shot, tap, pieceAt, assert, repo, startFile, stopFile, switchLanguage,
} from './lib.mjs';

const require = createRequire(import.meta.url);
const axePath = require.resolve('axe-core/axe.min.js');

let server;

before(async () => ({ server } = await startFile()));
after(() => stopFile({ server }));

async function axeViolations(page) {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
  });
}

/** The moves of the analysis board's list, as shown. */
const treeText = (page) => page.$eval('#tree', (e) => e.textContent.replace(/\s+/g, ' ').trim());

/** Plays from-to by taps and waits for the move list to show `san`. */
async function playAndSee(page, from, to, san) {
  await tap(page, from);
  await tap(page, to);
  await page.waitForFunction((s) => [...document.querySelectorAll('#tree .mv')].some((b) => b.textContent.endsWith(s)), san);
}

test('analysis: a variation, promoted and deleted; live engine lines; PGN out and in', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await page.goto(`${server.url}/analysis.html`);
    await page.waitForSelector('#board use.piece');
    await playAndSee(page, 'e2', 'e4', 'e4');
    await playAndSee(page, 'e7', 'e5', 'e5');
    await page.click('#nav-prev');
    await page.waitForSelector('#tree .mv.current');
    await playAndSee(page, 'd7', 'd5', 'd5');
    assert.equal(await page.$$eval('#tree .variation', (v) => v.length), 1);
    assert.match(await page.$eval('#tree .variation', (e) => e.textContent), /1… d5/);
    // The variation becomes the main line, and back.
    await page.click('#btn-promote');
    await page.waitForFunction(() => /1… e5/.test(document.querySelector('#tree .variation')?.textContent || ''));
    assert.match(await treeText(page), /^1\. e4 d5/);

    // The engine analyses the position shown: three lines, then two.
    await page.click('#engine-toggle');
    await page.waitForFunction(() => document.querySelectorAll('#lines .engine-line').length === 3);
    assert.match(await page.$eval('#engine-depth', (e) => e.textContent), /Depth \d+/);
    assert.match(await page.$eval('#lines .line-score', (e) => e.textContent), /^[+−#]/);
    await page.waitForSelector('#board .hint-arrow');
    await page.selectOption('#multipv', '2');
    await page.waitForFunction(() => document.querySelectorAll('#lines .engine-line').length === 2);
    await shot(page, 'learn-analysis');
    await page.click('#engine-toggle');
    await page.waitForFunction(() => document.querySelector('#engine-toggle').getAttribute('aria-pressed') === 'false');

    // A NAG and a comment, then the PGN with its variation.
    await page.click('#nags .nag:nth-child(1)');
    await page.fill('#comment', 'the centre');
    await page.click('#io summary');
    await page.click('#btn-export-pgn');
    const pgn = await page.$eval('#pgn-out', (e) => e.value);
    assert.match(pgn, /\[Variant "Tensor"\]/);
    assert.match(pgn, /1\. e4 d5 \$1 \{ the centre \} \(1\.\.\. e5\)/, pgn);

    // Delete the variation.
    await page.click('#tree .variation .mv');
    await page.click('#btn-delete');
    await page.waitForFunction(() => !document.querySelector('#tree .variation'));

    // A pasted PGN with a variation, a comment and a NAG.
    await page.selectOption('#variant', 'chess');
    await page.fill('#import-text', '[Event "x"]\n\n1. e4 $1 { best by test } e5 (1... c5 2. Nf3) 2. Nf3 *');
    await page.click('#btn-import');
    await page.waitForFunction(() => /best by test/.test(document.querySelector('#tree').textContent));
    const text = await treeText(page);
    assert.match(text, /1\. e4!/);
    assert.match(text, /1… c5 2\. Nf3/);
    // Text that is no FEN: said in a player's words, not the parser's.
    await page.fill('#import-text', 'hello there');
    await page.click('#btn-import');
    await page.waitForFunction(() => /neither a position/.test(document.querySelector('#status').textContent));
    const said = await page.textContent('#status');
    assert.doesNotMatch(said, /ranks, expected|Invalid FEN/);
    assert.match(said, /like rnbqkbnr\/pppppppp\/8/);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('review: a finished game is reviewed with progress, marks and the better move, and opens at once next time', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await page.goto(`${server.url}/`);
    const id = await page.evaluate(async () => {
      const post = (url, body) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());
      const g = await post('/api/games', { mode: 'local', variant: 'chess' });
      for (const move of ['f2f3', 'e7e5', 'g2g4', 'd8h4']) await post(`/api/games/${g.id}/moves`, { move });
      return g.id;
    });
    await page.goto(`${server.url}/#/game/${id}`);
    await page.waitForSelector('#btn-review:not(.hidden)');
    await page.click('#btn-review');
    await page.waitForURL(/analysis\.html#game=/);
    await page.waitForSelector('#review-summary:not(.hidden)', { timeout: 60000 });
    assert.equal(await page.$eval('#blun-white', (e) => e.textContent), '1');
    assert.match(await page.$eval('#acc-white', (e) => e.textContent), /%$/);
    assert.ok(await page.$('#tree .mv.j-blunder'), 'the blunder is marked');
    assert.match(await treeText(page), /g4\?\?/);
    await page.click('#btn-next-mistake');
    await page.waitForFunction(() => /better was/.test(document.querySelector('#review-note').textContent));
    await page.waitForSelector('#board .drawing.arrow.green');
    await page.waitForSelector('#graph:not(.hidden) .eval-graph');
    await shot(page, 'learn-review');

    // Next time: at once, with no progress bar.
    await page.reload();
    await page.waitForSelector('#review-summary:not(.hidden)', { timeout: 3000 });
    assert.equal(await page.$eval('#review-progress', (e) => e.classList.contains('hidden')), true);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

/** Shipped Tensor puzzles whose solution is plain from-to moves. */
function simplePuzzles() {
  const csv = fs.readFileSync(path.join(repo, 'crates/analysis/puzzles/tensor.csv'), 'utf8').trim().split('\n').slice(1);
  return csv.map((l) => l.split(',')).map((f) => ({ id: f[0], moves: f[2].split(' ') }))
    .filter((p) => p.moves.length === 4 && p.moves.every((m) => /^[a-j]\d[a-j]\d$/.test(m)));
}

test('puzzles: one solved and one failed, each changing the rating', async () => {
  const [solve, fail] = simplePuzzles();
  const b = await openBrowser();
  const page = b.page;
  try {
    await page.goto(`${server.url}/puzzles.html#${solve.id}`);
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('#status').textContent));
    assert.equal(await page.$eval('#my-rating', (e) => e.textContent), '1500?');
    for (const k of [1, 3]) {
      const m = solve.moves[k];
      await tap(page, m.slice(0, 2));
      await tap(page, m.slice(2, 4));
      // The reply played, the board is the solver's again for the next move.
      if (k === 1) await page.waitForSelector('#board[data-step="3"][data-mode="idle"]', { state: 'attached' });
    }
    await page.waitForFunction(() => /Solved!/.test(document.querySelector('#feedback').textContent));
    await page.waitForFunction(() => /Rating \+\d+/.test(document.querySelector('#feedback').textContent));
    const up = parseInt(await page.$eval('#my-rating', (e) => e.textContent), 10);
    assert.ok(up > 1500, `rating ${up}`);
    assert.notEqual(await page.$eval('#puzzle-themes', (e) => e.textContent), '?');
    await shot(page, 'learn-puzzle-solved');

    // The second: a wrong move, shown as wrong; try again; see the solution.
    await page.goto(`${server.url}/puzzles.html#${fail.id}`);
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('#status').textContent));
    const wrong = await page.evaluate(async (p) => {
      const puzzle = await (await fetch(`/api/puzzles/${p.id}`)).json();
      const r = await fetch('/api/position', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'tensor', fen: puzzle.fen, moves: [puzzle.moves[0]] }) });
      const pos = (await r.json()).position;
      const ucis = pos.legal.map((m) => m.uci);
      // A plain move no other legal move starts like (no chooser to answer).
      return ucis.find((u) => /^[a-j]\d[a-j]\d$/.test(u) && u !== puzzle.moves[1] && ucis.filter((v) => v.startsWith(u)).length === 1
        && !pos.legal.find((m) => m.uci === u).san.includes('#'));
    }, fail);
    await tap(page, wrong.slice(0, 2));
    await tap(page, wrong.slice(2, 4));
    await page.waitForSelector('#feedback.bad');
    assert.match(await page.$eval('#feedback', (e) => e.textContent), /not the move\. Try another move/);
    await shot(page, 'learn-puzzle-wrong');
    // The wrong move is taken back (as lichess does): the same position, the solver to move.
    await page.waitForSelector('#board[data-step="1"][data-mode="idle"]', { state: 'attached' });
    assert.notEqual(await pieceAt(page, wrong.slice(0, 2)), null, 'the piece is back where it was');
    await page.click('#btn-hint');
    await page.waitForSelector('#board .drawing.circle.green');
    await page.click('#btn-solution');
    await page.waitForFunction(() => /That was the solution/.test(document.querySelector('#feedback').textContent), null, { timeout: 20000 });
    const down = parseInt(await page.$eval('#my-rating', (e) => e.textContent), 10);
    assert.ok(down < up, `rating ${down} after ${up}`);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('lessons: a level completed with three stars, kept as progress; linked from the Rules page', async () => {
  const b = await openBrowser();
  const page = b.page;
  try {
    await page.goto(`${server.url}/rules.html`);
    await page.click('.learn-links a[href="/lessons.html"]');
    await page.waitForSelector('#board[data-level="beast-step-1"]');
    assert.match(await page.$eval('#level-text', (e) => e.textContent), /marked squares/);
    assert.equal(await page.$$eval('#board .drawing.circle.orange', (c) => c.length), 2);
    await tap(page, 'e4');
    await tap(page, 'e5');
    await page.waitForFunction(() => document.querySelectorAll('#board .drawing.circle.green').length === 1);
    await tap(page, 'e5');
    await tap(page, 'f6');
    await page.waitForFunction(() => /3 of 3 stars/.test(document.querySelector('#feedback').textContent));
    assert.equal(await page.$eval('#stars', (e) => e.textContent), '★★★');
    await shot(page, 'learn-lesson-done');
    await page.click('#btn-next-level');
    await page.waitForSelector('#board[data-level="beast-step-2"]');
    // Kept: after a reload the level shows its stars.
    await page.reload();
    await page.waitForSelector('#stages button[data-level="beast-step-1"]');
    assert.match(await page.$eval('#stages button[data-level="beast-step-1"]', (e) => e.textContent), /★★★/);
    assert.match(await page.$eval('#progress', (e) => e.textContent), /^1 of \d+ levels/);
    // Counts by the language's plural rules ("in 1 moves", "за 1 ходів" before).
    // (The strings are the page's language's: the header's switch changes it.)
    const counts = await page.evaluate(async () => {
      const i18n = await import('/js/i18n.js');
      return [i18n.plural('lessons.goal_mate', 1), i18n.plural('lessons.done', 1, { stars: 3, par: 1 })];
    });
    await switchLanguage(page, 'uk');
    counts.push(...await page.evaluate(async () => {
      const i18n = await import('/js/i18n.js');
      return [i18n.plural('lessons.goal_mate', 1), i18n.plural('lessons.goal_mate', 2), i18n.plural('lessons.goal_mate', 5)];
    }));
    await switchLanguage(page, 'en');
    assert.deepEqual(counts, ['Goal: checkmate in 1 move.', 'Well done: 3 of 3 stars (1 move, par 1).',
      'Мета: мат за 1 хід.', 'Мета: мат за 2 ходи.', 'Мета: мат за 5 ходів.']);
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('lessons on a 375×667 phone: the board in the first screen, level buttons at least 44×44', async () => {
  const b = await openBrowser({ viewport: { width: 375, height: 667 }, mobile: true });
  const page = b.page;
  try {
    await page.goto(`${server.url}/lessons.html`);
    await page.waitForSelector('#board[data-level] use.piece', { state: 'attached' });
    await page.waitForSelector('#stages .level-button');
    const look = await page.evaluate(() => {
      const board = document.querySelector('#board svg').getBoundingClientRect();
      const small = [...document.querySelectorAll('#stages .level-button')].map((x) => x.getBoundingClientRect())
        .filter((r) => r.width < 44 || r.height < 44).length;
      return { top: board.top, bottom: board.bottom, height: innerHeight, small };
    });
    assert.ok(look.top >= 0 && look.bottom <= look.height, `the board at ${look.top}..${look.bottom} of ${look.height}`);
    assert.equal(look.small, 0, 'level buttons smaller than 44×44');
    await shot(page, 'learn-lessons-phone');
    assert.deepEqual(page.errors, []);
  } finally {
    await b.close();
  }
});

test('axe: no serious or critical violations on the analysis, puzzle and lesson pages, in both languages', async () => {
  for (const lang of ['en', 'uk']) {
    const b = await openBrowser();
    const page = b.page;
    try {
      await page.addInitScript((l) => localStorage.setItem('tensorchess.lang', l), lang);
      await page.goto(`${server.url}/analysis.html`);
      await page.waitForSelector('#board use.piece');
      await page.click('#io summary');
      assert.deepEqual(await axeViolations(page), [], `analysis, ${lang}`);
      await page.goto(`${server.url}/puzzles.html`);
      await page.waitForFunction(() => document.querySelector('#board')?.dataset.puzzle);
      assert.deepEqual(await axeViolations(page), [], `puzzles, ${lang}`);
      await page.goto(`${server.url}/lessons.html`);
      await page.waitForSelector('#board[data-level]');
      assert.deepEqual(await axeViolations(page), [], `lessons, ${lang}`);
      if (lang === 'uk') await shot(page, 'learn-lessons-uk');
      assert.deepEqual(page.errors, []);
    } finally {
      await b.close();
    }
  }
});
