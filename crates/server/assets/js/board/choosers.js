// @ts-check
// The choosers a board opens when one square means several moves: which
// piece a pawn becomes, and whether a beast landing there captures (and
// which beast). Buttons, reachable by keyboard; Esc or Cancel closes.

import { pieceSvg } from '../pieces.js';
import { t, roleName } from '../i18n.js';

/** @typedef {import('./types.js').LegalMove} LegalMove */
/** @typedef {import('./types.js').Color} Color */

/**
 * Fills `box` with the chooser for `sel`, on the half of the board away
 * from the square it asks about (so that square and the marked beasts stay
 * in sight), and moves the focus to its first option.
 * @param {HTMLElement} box
 * @param {{ kind: 'promotion' | 'beast', to: string, options: LegalMove[], color: Color, upper: boolean }} c
 * @param {(uci: string) => void} onPick @param {() => void} onCancel
 */
export function showChooser(box, c, onPick, onCancel) {
  box.className = `chooser chooser-${c.kind} ${c.upper ? 'chooser-low' : 'chooser-high'}`;
  box.style.left = '';
  box.style.top = '';
  box.setAttribute('role', 'dialog');
  const title = c.kind === 'promotion' ? t('chooser.promote') : t('chooser.beast', { square: c.to });
  box.setAttribute('aria-label', title);
  box.innerHTML = '<div class="chooser-title"></div><div class="chooser-options"></div><button class="chooser-cancel" type="button"></button>';
  /** @type {HTMLElement} */ (box.querySelector('.chooser-title')).textContent = title;
  const cancel = /** @type {HTMLButtonElement} */ (box.querySelector('.chooser-cancel'));
  cancel.textContent = t('common.cancel');
  const list = /** @type {HTMLElement} */ (box.querySelector('.chooser-options'));
  for (const m of c.options) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'chooser-option';
    if (c.kind === 'promotion' && m.promotion) {
      const letter = c.color === 'white' ? m.promotion.toUpperCase() : m.promotion;
      const role = roleName(m.promotion);
      const name = role.charAt(0).toUpperCase() + role.slice(1);
      b.innerHTML = `${pieceSvg(letter, 56, name)}<span></span>`;
      /** @type {HTMLElement} */ (b.querySelector('span')).textContent = name;
      b.dataset.promo = m.promotion;
    } else {
      b.innerHTML = '<span></span>';
      /** @type {HTMLElement} */ (b.querySelector('span')).textContent = m.kind === 'beast_capture'
        ? t('chooser.capture', { square: m.aux || '' }) : t('chooser.no_capture');
      b.dataset.uci = m.uci;
    }
    b.addEventListener('click', (e) => {
      e.stopPropagation();
      onPick(m.uci);
    });
    list.appendChild(b);
  }
  cancel.addEventListener('click', (e) => {
    e.stopPropagation();
    onCancel();
  });
  box.onkeydown = (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onCancel();
    }
  };
  const first = /** @type {HTMLElement | null} */ (list.querySelector('button'));
  if (first) first.focus({ preventScroll: true });
}

/** @param {HTMLElement} box */
export function hideChooser(box) {
  box.className = 'chooser hidden';
  box.style.left = '';
  box.style.top = '';
  delete box.dataset.near;
  box.innerHTML = '';
  box.onkeydown = null;
}
