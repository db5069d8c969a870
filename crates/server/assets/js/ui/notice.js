// @ts-check
// Messages to the player: a notice in the panel (never over the board),
// a yes/no question, and a live region that screen readers read out
// (moves, check, the end of a game).

import { t } from '../i18n.js';

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));


/**
 * Shows a notice: `kind` 'illegal' (an illegal try), 'error', or 'info'.
 * @param {string} title @param {string} [text] @param {'info' | 'illegal' | 'error'} [kind]
 */
export function toast(title, text = '', kind = 'info') {
  const box = $('#toast');
  if (!box) return;
  box.className = `toast ${kind}`;
  /** @type {HTMLElement} */ (box.querySelector('.toast-title')).textContent = title;
  /** @type {HTMLElement} */ (box.querySelector('.toast-text')).textContent = text;
  // The timer that hides it is the box's own (no state in this module).
  clearTimeout(Number(box.dataset.timer));
  box.dataset.timer = String(setTimeout(() => box.classList.add('hidden'), kind === 'illegal' ? 5000 : 3500));
}

export function hideToast() {
  const box = $('#toast');
  if (box) box.classList.add('hidden');
}

/** Reads `text` out to screen readers (the page's polite live region). @param {string} text */
export function announce(text) {
  const region = $('#announce');
  if (!region) return;
  // The same words twice are read twice only if the region changes between.
  region.textContent = '';
  setTimeout(() => { region.textContent = text; }, 30);
}

/** A yes/no question in a dialog. @param {string} text @returns {Promise<boolean>} */
export function confirmDialog(text) {
  return new Promise((resolve) => {
    const d = /** @type {HTMLDialogElement} */ ($('#dlg-confirm'));
    $('#confirm-text').textContent = text;
    const yes = /** @type {HTMLButtonElement} */ ($('#confirm-yes'));
    const no = /** @type {HTMLButtonElement} */ ($('#confirm-no'));
    yes.textContent = t('common.yes');
    no.textContent = t('common.cancel');
    const done = (/** @type {boolean} */ v) => {
      d.close();
      yes.onclick = null;
      no.onclick = null;
      d.oncancel = null;
      resolve(v);
    };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
    d.oncancel = () => done(false);
    d.showModal();
  });
}
