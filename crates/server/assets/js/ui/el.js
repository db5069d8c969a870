// @ts-check
// An element made in one call: its tag, class and text (as text, never
// HTML). The pages that build their lists and cards by hand share it.

/** @param {string} tag @param {string} [cls] @param {string} [text] */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
