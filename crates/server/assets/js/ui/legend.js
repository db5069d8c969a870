// @ts-check
// A short legend of the Tensor markers, shown the first time a Tensor
// Chess board appears (green dots, the dashed beast that can be propelled,
// the beast sign of propel squares, the king outlines of castling);
// dismissed once, remembered.

import { t } from '../i18n.js';
/** @typedef {import('../i18n.js').I18n} I18n */
import * as settings from '../settings.js';
import { frozen } from '../frozen.js';

const ITEMS = frozen([
  ['dot', 'legend.dot'],
  ['propel', 'legend.propel'],
  ['sign', 'legend.sign'],
  ['castle', 'legend.castle'],
]);

/** The small pictures of the legend, drawn as on the board. @param {string} kind */
function icon(kind) {
  const sq = '<rect x="0" y="0" width="100" height="100" class="sq light"/>';
  const pics = {
    dot: `${sq}<rect width="100" height="100" class="mark-dest"/><circle cx="50" cy="50" r="15" class="dest-dot"/>`,
    propel: `${sq}<rect width="100" height="100" class="mark-dest propel-beast"/>`,
    sign: `${sq}<use href="#beast-sign" x="25" y="25" width="50" height="50"/>`,
    castle: `${sq}<rect width="100" height="100" class="castle-target"/><use href="#king-outline" width="100" height="100"/>`,
  };
  return `<svg viewBox="0 0 100 100" width="34" height="34" aria-hidden="true">${pics[/** @type {keyof pics} */ (kind)]}</svg>`;
}

/** Shows the legend, unless it was seen (or is shown). @param {I18n} i18n */
export function showLegendIfNew(i18n) {
  if (settings.get('legendSeen') || document.querySelector('#legend')) return;
  const box = document.createElement('aside');
  box.id = 'legend';
  box.className = 'legend';
  box.setAttribute('aria-labelledby', 'legend-title');
  const render = () => {
    box.innerHTML = `<h2 id="legend-title"></h2><ul></ul><button type="button" class="primary" id="legend-ok"></button>`;
    /** @type {HTMLElement} */ (box.querySelector('h2')).textContent = t('legend.title');
    const ul = /** @type {HTMLElement} */ (box.querySelector('ul'));
    for (const [kind, key] of ITEMS) {
      const li = document.createElement('li');
      li.innerHTML = `${icon(kind)}<span></span>`;
      /** @type {HTMLElement} */ (li.querySelector('span')).textContent = t(key);
      ul.appendChild(li);
    }
    const ok = /** @type {HTMLButtonElement} */ (box.querySelector('#legend-ok'));
    ok.textContent = t('legend.ok');
    ok.addEventListener('click', () => {
      settings.set('legendSeen', true);
      box.remove();
      stop();
    });
  };
  render();
  const stop = i18n.onChange(render);
  // Under the status line and the Move box, so that those stay in sight.
  const after = document.querySelector('.panel .move-entry');
  if (after) after.after(box);
}
