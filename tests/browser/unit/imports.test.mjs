// Importing a module of the page does nothing (as chessground's): every
// file under assets/js is imported here without a browser, where any DOM,
// storage or network touched at import would throw; and no module keeps
// its state in a module-level `let` (a page's state is one object, made by
// the page's entry function and handed to what needs it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const js = path.resolve(here, '../../../crates/server/assets/js');

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : e.name.endsWith('.js') ? [p] : [];
  });
}

test('importing any module of the page touches nothing', async () => {
  const all = files(js);
  assert.ok(all.length > 30, `${all.length} modules`);
  for (const f of all) {
    await assert.doesNotReject(import(pathToFileURL(f).href), `importing ${path.relative(js, f)}`);
  }
});

test('no module-level let, no call at a module\'s top level', () => {
  for (const f of files(js)) {
    const src = fs.readFileSync(f, 'utf8');
    const rel = path.relative(js, f);
    assert.doesNotMatch(src, /^let /m, `${rel}: a module-level let`);
    // A statement at the top level that calls something (main(), x.addEventListener(...), on('#id', ...)).
    assert.doesNotMatch(src, /^[A-Za-z_$][\w$.]*\(/m, `${rel}: a call at the top level`);
  }
});
