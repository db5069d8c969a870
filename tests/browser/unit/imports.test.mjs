// Importing a module of the page does nothing, and no module keeps state
// (as chessground's: a page's state is held by the instances its entry
// function makes and hands to what needs them). Every file under
// assets/js is imported here without a browser, where any DOM, storage or
// network touched at import would throw; and each is read with
// TypeScript's parser, which finds what a module could keep at its top
// level:
// - a `let` or `var`; a statement that runs something (a call, a loop);
// - a constant that can change: an object, an array, a `new` anything
//   (Map, Set…), a value made by a call, a regular expression with `g` or
//   `y` (its lastIndex), unless wrapped in `frozen(...)` (js/frozen.js,
//   frozen all the way down) or `Object.freeze` of plain values;
// - a class's static field or static block;
// - a change, anywhere in the module, to a module-level binding or to what
//   it holds (`x = …`, `x.y = …`, `x[k]++`, `delete x.y`, `x.push(…)`,
//   `x.set(…)`…), imports included (another module's state);
// and every value a module exports is a primitive, a function or a class,
// or frozen all the way down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const js = path.resolve(here, '../../../crates/server/assets/js');

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : e.name.endsWith('.js') ? [p] : [];
  });
}

// Methods that change the array, Map or Set they are called on.
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'add', 'delete', 'clear']);

const unwrap = (e) => {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
};

/** Why `e`, held at a module's top level, could change; null when it cannot. */
function changeable(e) {
  e = unwrap(e);
  const K = ts.SyntaxKind;
  switch (e.kind) {
    case K.StringLiteral: case K.NumericLiteral: case K.BigIntLiteral: case K.NoSubstitutionTemplateLiteral:
    case K.TemplateExpression: case K.TrueKeyword: case K.FalseKeyword: case K.NullKeyword:
    case K.ArrowFunction: case K.FunctionExpression:
    // Another name for a binding (`const enc = encodeURIComponent`): what it names is checked where it is made.
    case K.Identifier: case K.PropertyAccessExpression:
      return null;
    case K.ClassExpression:
      return classState(e);
    case K.RegularExpressionLiteral:
      return /\/[a-z]*[gy][a-z]*$/.test(e.text) ? 'a regular expression with g or y (its lastIndex changes)' : null;
    case K.PrefixUnaryExpression: return changeable(e.operand);
    case K.BinaryExpression: return changeable(e.left) || changeable(e.right);
    case K.ConditionalExpression: return changeable(e.whenTrue) || changeable(e.whenFalse);
    case K.CallExpression: {
      const callee = e.expression.getText();
      if (callee === 'frozen') return null;
      if (callee === 'Object.freeze' && e.arguments.length === 1) {
        const arg = unwrap(e.arguments[0]);
        const parts = ts.isObjectLiteralExpression(arg)
          ? arg.properties.map((p) => (ts.isPropertyAssignment(p) ? p.initializer : ts.isShorthandPropertyAssignment(p) ? p.name : p))
          : ts.isArrayLiteralExpression(arg) ? arg.elements : [arg];
        const inner = parts.map((p) => (ts.isMethodDeclaration(p) ? null : changeable(p))).find(Boolean);
        return inner ? `Object.freeze is shallow: it holds ${inner} (use frozen(...))` : null;
      }
      return `a value made by a call at import (${callee}(...): wrap it in frozen(...))`;
    }
    case K.ObjectLiteralExpression: return 'an object (wrap it in frozen(...))';
    case K.ArrayLiteralExpression: return 'an array (wrap it in frozen(...))';
    case K.NewExpression: return `a new ${e.expression.getText()} (a module keeps no instance: its page's entry makes it)`;
    default: return `a ${K[e.kind]}`;
  }
}

/** Why a class keeps state of its own (static fields, static blocks); null when it keeps none. */
function classState(cls) {
  for (const m of cls.members) {
    if (ts.isClassStaticBlockDeclaration(m)) return 'a class with a static block';
    const isStatic = ts.canHaveModifiers(m) && (ts.getModifiers(m) || []).some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
    if (isStatic && ts.isPropertyDeclaration(m)) return `a class with a static field (${m.name.getText()})`;
  }
  return null;
}

/** The names a binding (a name or a destructuring pattern) declares. */
function bound(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : bound(el.name)));
}

const isScope = (n) => ts.isFunctionLike(n) || ts.isClassStaticBlockDeclaration(n);

/** The names a function declares (its parameters, and what its body declares outside nested functions). */
function scopeNames(fn) {
  const names = new Set();
  for (const p of fn.parameters || []) for (const n of bound(p.name)) names.add(n);
  const visit = (n) => {
    if (ts.isVariableDeclaration(n) || ts.isBindingElement(n)) for (const x of bound(n.name)) names.add(x);
    else if ((ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n)) && n.name) names.add(n.name.text);
    else if (ts.isCatchClause(n) && n.variableDeclaration) for (const x of bound(n.variableDeclaration.name)) names.add(x);
    if (n !== fn && isScope(n)) {
      if (ts.isFunctionExpression(n) && n.name) names.add(n.name.text);
      return;
    }
    ts.forEachChild(n, visit);
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
  if (ts.isFunctionExpression(fn) && fn.name) names.add(fn.name.text);
  return names;
}

/**
 * What keeps state in the module `src`: a list of problems, each
 * "line: what". Empty for a module that keeps none.
 * @param {string} src @param {string} [name]
 */
export function moduleState(src, name = 'module.js') {
  const sf = ts.createSourceFile(name, src, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const problems = [];
  const say = (node, what) => problems.push(`${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${what}`);
  // The module's own constants, and every binding at its top level (imports too).
  const own = new Set();
  const top = new Set();
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c && c.name) top.add(c.name.text);
      if (c && c.namedBindings) {
        if (ts.isNamespaceImport(c.namedBindings)) top.add(c.namedBindings.name.text);
        else for (const e of c.namedBindings.elements) top.add(e.name.text);
      }
    } else if (ts.isExportDeclaration(st) || ts.isEmptyStatement(st)) {
      // re-exports: checked where they are made
    } else if (ts.isFunctionDeclaration(st)) {
      if (st.name) top.add(st.name.text);
    } else if (ts.isClassDeclaration(st)) {
      if (st.name) top.add(st.name.text);
      const why = classState(st);
      if (why) say(st, why);
    } else if (ts.isVariableStatement(st)) {
      const flags = st.declarationList.flags;
      if (!(flags & ts.NodeFlags.Const)) say(st, `a module-level ${flags & ts.NodeFlags.Let ? 'let' : 'var'}`);
      for (const d of st.declarationList.declarations) {
        for (const n of bound(d.name)) {
          top.add(n);
          own.add(n);
        }
        const why = d.initializer ? changeable(d.initializer) : 'a constant without a value';
        if (why) say(d, `${d.name.getText()} holds ${why}`);
      }
    } else if (ts.isExportAssignment(st)) {
      const why = changeable(st.expression);
      if (why) say(st, `the default export is ${why}`);
    } else {
      say(st, `a ${ts.SyntaxKind[st.kind]} at the top level (importing a module runs nothing)`);
    }
  }
  // Changes to module-level bindings, anywhere in the module.
  const ASSIGN = (k) => k >= ts.SyntaxKind.FirstAssignment && k <= ts.SyntaxKind.LastAssignment;
  /** The binding `target` changes, and whether it is the binding itself (`x = 1`) or what it holds (`x.y = 1`). */
  const rootOf = (target) => {
    let e = unwrap(target);
    let inside = false;
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isNonNullExpression?.(e)) {
      e = unwrap(e.expression);
      inside = true;
    }
    return ts.isIdentifier(e) ? { name: e.text, inside } : null;
  };
  const walk = (node, scopes) => {
    if (node !== sf && isScope(node)) scopes = [...scopes, scopeNames(node)];
    const shadowed = (n) => scopes.some((s) => s.has(n));
    /** @param {ts.Node} target @param {string} how */
    const changes = (target, how) => {
      const r = rootOf(target);
      if (!r || !top.has(r.name) || shadowed(r.name)) return;
      say(node, `${how} module-level ${r.name}${r.inside ? ' (what it holds)' : ''}`);
    };
    if (ts.isBinaryExpression(node) && ASSIGN(node.operatorToken.kind)) changes(node.left, 'assigns to');
    else if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node))
      && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) changes(node.operand, 'counts in');
    else if (ts.isDeleteExpression(node)) changes(node.expression, 'deletes from');
    else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MUTATORS.has(node.expression.name.text)) {
      // A module's own constant changed by its methods (an import's methods are its module's API).
      const r = rootOf(node.expression.expression);
      if (r && own.has(r.name) && !shadowed(r.name)) say(node, `${node.expression.name.text}() changes module-level ${r.name}`);
    }
    ts.forEachChild(node, (c) => walk(c, scopes));
  };
  walk(sf, []);
  return problems;
}

/**
 * Whether `v` is a primitive, a function, a regular expression without `g`
 * or `y` (it never uses its lastIndex), or an object frozen all the way down.
 */
function unchangeable(v, seen = new Set()) {
  if (v === null || typeof v !== 'object') return true;
  if (v instanceof RegExp && !v.global && !v.sticky) return true;
  if (seen.has(v)) return true;
  seen.add(v);
  return Object.isFrozen(v) && Object.values(v).every((x) => unchangeable(x, seen));
}

test('the check finds what a module could keep', () => {
  const kept = (src) => moduleState(src).length > 0;
  // What chessground's modules look like: constants, functions, classes, a factory.
  assert.deepEqual(moduleState(`
    import { t } from './i18n.js';
    import * as settings from './settings.js';
    import { frozen } from './frozen.js';
    const N = 8; const NAME = 'x'; const RE = /^a+$/u; const MS = 30 * 1000; const enc = encodeURIComponent;
    export const LIST = frozen(['a', 'b']);
    export const IDLE = Object.freeze({ mode: 'idle' });
    export const api = frozen({ get: () => 1 });
    const $ = (sel) => document.querySelector(sel);
    export function make(root) {
      const state = { n: 0, seen: new Set() };
      let count = 0;
      state.n++; state.seen.add(1); count += 1;
      settings.set('muted', true);
      const LIST = []; LIST.push(1);
      return { up() { state.n = count; } };
    }
    export class Board { constructor() { this.id = 1; this.items = []; this.items.push(2); } }
    export default frozen({ a: 'b' });
  `), []);
  // What keeps state.
  assert.ok(kept('let n = 0;'), 'a let');
  assert.ok(kept('export let n = 0;'), 'an exported let');
  assert.ok(kept('var n = 0;'), 'a var');
  assert.ok(kept('export const player = { me: null };'), 'an exported object');
  assert.ok(kept('const listeners = new Set();'), 'a Set');
  assert.ok(kept('const cache = new Map();'), 'a Map');
  assert.ok(kept('const xs = [];'), 'an array');
  assert.ok(kept('const LANGS = Object.keys({ en: 1 });'), 'a value made by a call');
  assert.ok(kept('const o = Object.freeze({ list: [] });'), 'a shallow freeze');
  assert.ok(kept('const g = /a/g;'), 'a global regular expression');
  assert.ok(kept('export default { a: 1 };'), 'a default export that is an object');
  assert.ok(kept('export class A { static count = 0; }'), 'a static field');
  assert.ok(kept('class A { static { } }'), 'a static block');
  assert.ok(kept('main();'), 'a call at the top level');
  assert.ok(kept('for (const x of []) {}'), 'a loop at the top level');
  assert.ok(kept('function f() {} export function g() { f.calls = 1; }'), 'a property on a module-level function');
  assert.ok(kept('const o = Object.freeze({ n: 1 }); export function g() { o.n++; }'), 'a change to a module-level object');
  assert.ok(kept('import { player } from "./player.js"; export function g(me) { player.me = me; }'), 'a change to an import');
  assert.ok(kept('import { frozen } from "./frozen.js"; const xs = frozen([]); export const add = (x) => xs.push(x);'), 'push on a module-level array');
  assert.ok(kept('import { frozen } from "./frozen.js"; const xs = frozen([]); export function f() { delete xs[0]; }'), 'delete');
});

test('importing any module of the page touches nothing', async () => {
  const all = files(js);
  assert.ok(all.length > 30, `${all.length} modules`);
  for (const f of all) {
    await assert.doesNotReject(import(pathToFileURL(f).href), `importing ${path.relative(js, f)}`);
  }
});

test('no module keeps state at its top level', () => {
  const found = files(js).flatMap((f) => moduleState(fs.readFileSync(f, 'utf8'), f).map((p) => `${path.relative(js, f)}:${p}`));
  assert.deepEqual(found, []);
});

test('every value a module exports is a primitive, a function or frozen all the way down', async () => {
  const found = [];
  for (const f of files(js)) {
    const m = await import(pathToFileURL(f).href);
    for (const [name, value] of Object.entries(m)) {
      if (!unchangeable(value)) found.push(`${path.relative(js, f)}: ${name}`);
    }
  }
  assert.deepEqual(found, []);
});
