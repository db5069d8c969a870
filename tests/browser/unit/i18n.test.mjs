// The catalogues of strings (assets/js/i18n/en.js and uk.js), without a
// browser: both have the same keys, every key the code and the pages use is
// in them, every illegal-move reason the rules library names has its
// sentence, and every Rules page diagram has its texts in both languages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import en from '../../../crates/server/assets/js/i18n/en.js';
import uk from '../../../crates/server/assets/js/i18n/uk.js';
import { BOARD_THEMES } from '../../../crates/server/assets/js/settings.js';
import { PIECE_THEMES } from '../../../crates/server/assets/js/pieces.js';
import { choicesHtml } from '../../../crates/server/assets/js/ui/choices.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
const assets = path.join(repo, 'crates/server/assets');
const catalogues = { en, uk };

/** Every file under `dir` whose name ends with `ext`. */
function files(dir, ext) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p, ext);
    return e.name.endsWith(ext) ? [p] : [];
  });
}

const code = files(path.join(assets, 'js'), '.js').filter((f) => !f.includes(`${path.sep}i18n${path.sep}`));
const namespaces = new Set(Object.keys(en).map((k) => k.split('.')[0]));

test('English and Ukrainian have the same keys, none empty', () => {
  const missing = (a, b) => Object.keys(a).filter((k) => !(k in b));
  assert.deepEqual(missing(en, uk), [], 'keys missing from uk.js');
  assert.deepEqual(missing(uk, en), [], 'keys missing from en.js');
  for (const [name, cat] of Object.entries(catalogues)) {
    for (const [k, v] of Object.entries(cat)) assert.ok(typeof v === 'string' && v.trim(), `${name}: ${k} is empty`);
  }
});

test('a string\'s {placeholders} are the same in both languages (Ukrainian may decline them)', () => {
  const names = (s) => new Set([...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1].replace(/_(gen|ins)$/, '').replace(/^Role$/, 'role')));
  for (const k of Object.keys(en)) {
    const a = names(en[k]);
    const b = names(uk[k]);
    for (const n of b) assert.ok(a.has(n) || a.has(n.replace(/^turn$/, 'turn')), `${k}: uk uses {${n}}, en does not`);
  }
});

test('every key used in the code and the pages is in the catalogues', () => {
  const used = new Map();
  for (const f of code) {
    const src = fs.readFileSync(f, 'utf8');
    // Literal keys: 'namespace.name' strings whose namespace the catalogue has.
    // A count's key (`plural('games.moves', n)`) stands for its plural forms.
    const plurals = new Set([...src.matchAll(/plural\(\s*['"]([a-z_.]+)['"]/g)].map((m) => m[1]));
    for (const m of src.matchAll(/['"]([a-z_]+(?:\.[a-z0-9_]+)+)['"]/g)) {
      if (plurals.has(m[1])) {
        for (const form of ['one', 'few', 'many', 'other']) used.set(`${m[1]}.${form}`, path.relative(repo, f));
      } else if (namespaces.has(m[1].split('.')[0]) && !/\.(js|json|html|css)$/.test(m[1])) used.set(m[1], path.relative(repo, f));
    }
    // Keys built at run time (`level.${n}`): their family must exist.
    for (const m of src.matchAll(/`([a-z_]+(?:\.[a-z0-9_]+)*[._])\$\{/g)) {
      assert.ok(Object.keys(en).some((k) => k.startsWith(m[1])), `${path.relative(repo, f)}: no key starts with ${m[1]}`);
    }
  }
  // The pages, and the shell they share (ui/shell.js: its markup is a template).
  for (const page of ['index.html', 'rules.html', 'lessons.html', 'puzzles.html', 'analysis.html', 'docs.html', 'js/ui/shell.js']) {
    const src = fs.readFileSync(path.join(assets, page), 'utf8');
    for (const m of src.matchAll(/data-i18n(?:-html)?="([^"]+)"/g)) used.set(m[1], page);
    for (const m of src.matchAll(/data-i18n-attr="([^"]+)"/g)) {
      for (const pair of m[1].split(';')) used.set(pair.split(':')[1].trim(), page);
    }
  }
  const missing = [...used].filter(([k]) => !(k in en) || !(k in uk)).map(([k, f]) => `${k} (${f})`);
  assert.deepEqual(missing, []);
  assert.ok(used.size > 150, `${used.size} keys found in use`);
});

test('the families of keys built at run time are complete', () => {
  const need = [];
  const roles = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn', 'beast', 'man'];
  for (const r of roles) need.push(`role.${r}`, `piece.white.${r}`, `piece.black.${r}`);
  for (const c of ['white', 'black']) need.push(`color.${c}`, `color.${c}.gen`, `color.${c}.ins`, `board.reserve.${c}.one`, `board.reserve.${c}.other`, `board.reserve_short.${c}`, `games.you_play_${c}`);
  for (const l of [1, 2, 3, 4, 5, 6]) need.push(`level.${l}`);
  for (const v of ['tensor', 'chess', 'chessence']) need.push(`game.${v}`);
  for (const s of ['empty', 'connected', 'disconnected']) need.push(`presence.${s}`);
  for (const b of BOARD_THEMES) need.push(`theme.board.${b}`);
  for (const p of Object.keys(PIECE_THEMES)) need.push(`theme.pieces.${p}`);
  // The end reasons the server names ("checkmate" => EndReason::Checkmate, wherever
  // in the server's source that table is), and the ones games are aborted with.
  const server = ['crates/server/src', 'crates/store/src'].flatMap((d) => files(path.join(repo, d), '.rs')).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const reasons = [...new Set([...server.matchAll(/"([a-z_]+)" => EndReason::/g)].map((m) => m[1]))];
  assert.ok(reasons.length >= 8, `end reasons found: ${reasons}`);
  for (const r of [...reasons, 'aborted', 'imported']) need.push(`games.reason.${r}`);
  // Every illegal-move reason the rules library names (IllegalReason::code).
  const illegal = fs.readFileSync(path.join(repo, 'crates/rules/src/illegal.rs'), 'utf8');
  const codeFn = illegal.slice(illegal.indexOf('pub fn code('), illegal.indexOf('pub fn args('));
  const codes = [...codeFn.matchAll(/=> "([a-z_]+)",/g)].map((m) => m[1]);
  assert.ok(codes.length >= 30, `illegal-move codes found: ${codes.length}`);
  for (const c of [...codes, 'not_a_move']) need.push(`illegal.${c}`);
  const missing = need.filter((k) => !(k in en) || !(k in uk));
  assert.deepEqual(missing, []);
});

test('every Rules page diagram has its title, text and try-it line in both languages', () => {
  const diagrams = JSON.parse(fs.readFileSync(path.join(assets, 'rules/diagrams.json'), 'utf8'));
  const tags = (html) => [...html.matchAll(/<(\/?[a-z]+)/g)].map((m) => m[1]).join(' ');
  for (const d of diagrams) {
    assert.ok(`rules.section.${d.section}` in en, `${d.id}: section ${d.section} has no heading`);
    for (const l of ['en', 'uk']) {
      assert.ok(d[l], `${d.id}: no ${l} text`);
      for (const field of ['title', 'text', 'tryit']) assert.ok(d[l][field] && d[l][field].trim(), `${d.id}: ${l}.${field} is empty`);
    }
    assert.equal(tags(d.uk.text), tags(d.en.text), `${d.id}: the Ukrainian text has other markup than the English one`);
  }
});

test('every counted string is a plural family (Intl.PluralRules), in both languages', () => {
  const forms = /\.(one|few|many|other)$/;
  const counted = {
    en: /\{\w+\} (moves?|men|man|positions?|levels?|seconds?|games?|plies|puzzles?)\b/,
    uk: /\{\w+\} (хід|ходи|ходів|ходу|фішк|фішок|секунд|позиці|рівн|парті|півход)/,
  };
  for (const [name, cat] of Object.entries(catalogues)) {
    const bad = Object.entries(cat).filter(([k, v]) => !forms.test(k) && counted[name].test(v)).map(([k]) => k);
    assert.deepEqual(bad, [], `${name}: counted strings that are not plural families`);
  }
  // Each family has all four forms in both languages.
  const families = new Set(Object.keys(en).filter((k) => forms.test(k)).map((k) => k.replace(forms, '')).filter((f) => `${f}.one` in en && `${f}.other` in en));
  for (const f of families) {
    for (const form of ['one', 'few', 'many', 'other']) {
      assert.ok(`${f}.${form}` in en && `${f}.${form}` in uk, `${f}.${form}`);
    }
  }
  // Ukrainian counts decline: 1 хід, 2 ходи, 5 ходів.
  const pick = (key, n) => {
    const form = new Intl.PluralRules('uk').select(n);
    return uk[`${key}.${form}`].replace('{n}', String(n));
  };
  assert.equal(pick('lessons.goal_mate', 1), 'Мета: мат за 1 хід.');
  assert.equal(pick('lessons.goal_mate', 2), 'Мета: мат за 2 ходи.');
  assert.equal(pick('lessons.goal_mate', 5), 'Мета: мат за 5 ходів.');
  assert.equal(en['lessons.goal_collect.one'].replace('{n}', '1').includes('in 1 move for'), true);
});

test('Ukrainian wording: the rulebook\'s terms, one word for drops, no clumsy phrasing', () => {
  const all = Object.values(uk).join('\n') + JSON.stringify(JSON.parse(fs.readFileSync(path.join(assets, 'rules/diagrams.json'), 'utf8')).map((d) => d.uk));
  for (const bad of [/не можливий/, /Напевно\?/, /[Сс]кидан/]) assert.doesNotMatch(all, bad);
  assert.match(uk['illegal.typed'], /неможливий/);
  assert.match(uk['confirm.resign_local'], /Точно\?/);
  assert.match(uk['theme.drop'], /Виставлення/);
});

test('every list the forms choose from is in both catalogues, its fallback the English text', () => {
  for (const list of /** @type {const} */ (['games', 'clocks', 'challenge-clocks', 'colours', 'colours-white-first'])) {
    const options = [...choicesHtml(list).matchAll(/<option value="([^"]+)"( selected)? data-i18n="([^"]+)">([^<]+)<\/option>/g)];
    assert.ok(options.length >= 3, `${list}: ${options.length} options`);
    for (const [, value, , key, english] of options) {
      assert.equal(en[key], english, `${list}: ${value}'s English`);
      assert.ok(uk[key], `${list}: ${key} missing from uk.js`);
    }
    const selected = options.filter((o) => o[2]).map((o) => o[1]);
    assert.deepEqual(selected, list.includes('clocks') ? ['300+3'] : [], `${list}: the option chosen first`);
  }
});
