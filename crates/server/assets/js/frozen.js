// @ts-check
// A module's constants are frozen, all the way down: no module keeps state,
// so nothing held at a module's top level can change
// (tests/browser/unit/imports.test.mjs checks it).

/**
 * Freezes `value` and every object and array in it, and answers it (a
 * change to it then throws: modules are strict).
 * @template T @param {T} value @returns {T}
 */
export function frozen(value) {
  if (value !== null && typeof value === 'object') {
    Object.freeze(value);
    for (const v of Object.values(value)) frozen(v);
  }
  return value;
}
