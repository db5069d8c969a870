// @ts-check
// An element made in one call: its tag, class and text (as text, never
// HTML). The pages that build their lists and cards by hand share it. And
// text or an attribute written only when it changes, for what is redrawn
// on a timer (clocks, countdowns): an equal text written again is still a
// change for the browser to style, lay out and paint, a frame every tick.

/** @param {string} tag @param {string} [cls] @param {string} [text] */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** @param {HTMLElement} node @param {string} text */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** @param {HTMLElement} node @param {string} name @param {string} value */
export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}
