// The page's one request wrapper (assets/js/api.js), on a stubbed fetch:
// JSON in and out, Content-Type on every non-GET, errors as values with
// the server's kind, Retry-After honoured for idempotent requests only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, request, ApiError } from '../../../crates/server/assets/js/api.js';

/** Answers `answers` in turn, recording each request. */
function stub(answers) {
  const seen = [];
  globalThis.fetch = async (path, init) => {
    seen.push({ path, ...init });
    const a = answers[Math.min(seen.length - 1, answers.length - 1)];
    if (a === 'offline') throw new TypeError('Failed to fetch');
    const headers = { 'Content-Type': 'application/json', ...(a.headers || {}) };
    return new Response(JSON.stringify(a.body ?? null), { status: a.status ?? 200, headers });
  };
  return seen;
}

test('JSON in and out; Content-Type on every request but a GET', async () => {
  const seen = stub([{ body: { id: 'x' } }]);
  assert.deepEqual(await call('POST', '/api/games', { mode: 'local' }), { ok: true, value: { id: 'x' } });
  assert.equal(seen[0].headers['Content-Type'], 'application/json');
  assert.equal(seen[0].body, '{"mode":"local"}');
  await call('DELETE', '/api/seeks/1');
  assert.equal(seen[1].headers['Content-Type'], 'application/json', 'a DELETE without a body says it too');
  await call('GET', '/api/me');
  assert.equal(seen[2].headers['Content-Type'], undefined);
});

test('a refusal is a value with the server\'s kind, message and status', async () => {
  stub([{ status: 409, body: { error: 'It is not your move', kind: 'not_your_turn' } }]);
  const r = await call('POST', '/api/games/g/moves', { move: 'e2e4', ply: 0 });
  assert.equal(r.ok, false);
  assert.ok(r.error instanceof ApiError);
  assert.equal(r.error.kind, 'not_your_turn');
  assert.equal(r.error.status, 409);
  assert.equal(r.error.message, 'It is not your move');
  stub(['offline']);
  const off = await call('GET', '/api/me');
  assert.equal(off.ok, false);
  assert.equal(off.error.kind, 'network');
  assert.equal(off.error.status, 0);
  await assert.rejects(request('GET', '/api/me'), (e) => e instanceof ApiError && e.kind === 'network');
});

test('a 429 on a GET is asked again after its Retry-After, a bounded number of times', async () => {
  const seen = stub([
    { status: 429, body: { error: 'Too many', kind: 'rate_limited' }, headers: { 'Retry-After': '0.05' } },
    { status: 503, body: { error: 'Busy', kind: 'overloaded' }, headers: { 'Retry-After': '0.05' } },
    { body: { ok: 1 } },
  ]);
  const t0 = Date.now();
  assert.deepEqual(await call('GET', '/api/seeks'), { ok: true, value: { ok: 1 } });
  assert.equal(seen.length, 3);
  assert.ok(Date.now() - t0 >= 90, 'it waited as told');
  const always = stub([{ status: 429, body: { kind: 'rate_limited' }, headers: { 'Retry-After': '0.01' } }]);
  const r = await call('GET', '/api/seeks');
  assert.equal(r.ok, false);
  assert.equal(r.error.retryAfter, 0.01);
  assert.equal(always.length, 3, 'two tries again, then the error');
});

test('a 429 on a POST is not asked again: its error says when to try', async () => {
  const seen = stub([{ status: 429, body: { error: 'Too many', kind: 'rate_limited' }, headers: { 'Retry-After': '3' } }]);
  const r = await call('POST', '/api/seeks', { variant: 'tensor' });
  assert.equal(seen.length, 1);
  assert.equal(r.ok, false);
  assert.equal(r.error.retryAfter, 3);
  assert.ok(r.error.busy);
  // A POST that only computes says it may be asked again.
  const again = stub([{ status: 503, body: { kind: 'overloaded' }, headers: { 'Retry-After': '0.01' } }, { body: { legal: [] } }]);
  assert.equal((await call('POST', '/api/position', {}, { idempotent: true })).ok, true);
  assert.equal(again.length, 2);
});

test('a busy server\'s refusal says in how many seconds to try again', async () => {
  // The page's I18n detects the language: Ukrainian here (the browser's
  // storage says so), written on <html lang> where every string reads it.
  globalThis.localStorage = { getItem: () => 'uk', setItem: () => {} };
  globalThis.document = { documentElement: { lang: 'en' } };
  const i18n = await import('../../../crates/server/assets/js/i18n.js');
  assert.equal(i18n.lang(), 'en');
  const page = new i18n.I18n(globalThis.document);
  assert.equal(page.lang(), 'uk');
  assert.equal(i18n.lang(), 'uk');
  const err = new ApiError(429, { error: 'Too many requests', kind: 'rate_limited' }, 3);
  assert.equal(i18n.serverError(err), 'Забагато запитів: спробуйте ще раз за 3 секунди');
  assert.equal(i18n.serverError(new ApiError(503, { kind: 'overloaded' }, 1)), 'Сервер зайнятий: спробуйте ще раз за 1 секунду');
  assert.equal(i18n.serverError(new ApiError(503, { kind: 'overloaded' }, 5)), 'Сервер зайнятий: спробуйте ще раз за 5 секунд');
  // Other kinds keep their own words.
  assert.equal(i18n.serverError(new ApiError(409, { kind: 'not_your_turn' })), i18n.t('error.not_your_turn'));
  delete globalThis.localStorage;
  delete globalThis.document;
});
