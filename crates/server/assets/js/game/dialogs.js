// @ts-check
// The game page's dialogs: a new game (against the engine, on this device,
// or online through a link; from a FEN or a PGN) and FEN/PGN export. (The
// Games list is in games-list.js.)

import { WELCOME_LEVEL } from '../lobby/welcome.js';
import { api } from '../api.js';
import { shownPly, positionFor } from './state.js';
import { t, serverError } from '../i18n.js';
import { toast } from '../ui/notice.js';
import { chosenClock } from '../ui/choices.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('./state.js').GameState} GameState */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const form = () => /** @type {HTMLFormElement & Record<string, any>} */ ($('#form-new'));

/** Opens the New game dialog (`mode`: the opponent to preselect). @param {GameView | null} game @param {string} [mode] */
export function openNewGame(game, mode) {
  const f = form();
  $('#new-error').classList.add('hidden');
  if (game) f.variant.value = game.variant;
  if (mode) /** @type {HTMLInputElement} */ (f.querySelector(`input[name=mode][value=${mode}]`)).checked = true;
  syncNewForm();
  /** @type {HTMLDialogElement} */ ($('#dlg-new')).showModal();
}

function syncNewForm() {
  const f = form();
  const mode = /** @type {HTMLInputElement} */ (f.querySelector('input[name=mode]:checked')).value;
  /** @param {string} sel @param {boolean} hidden */
  const hide = (sel, hidden) => /** @type {HTMLElement} */ (f.querySelector(sel)).classList.toggle('hidden', hidden);
  hide('.engine-only', mode !== 'engine');
  hide('.color-choice', mode === 'local');
  hide('.online-only', mode !== 'online');
  hide('.import-only', mode === 'online');
  hide('.clock-custom', f.clock.value !== 'custom');
  $('#btn-start').textContent = mode === 'online' ? t('new.create_link') : t('new.start');
}

/** The engine's levels in the dialog's list (again once /api/info has answered). @param {GameState} state */
export function fillLevels(state) {
  const sel = /** @type {HTMLSelectElement} */ (form().level);
  // The level a newcomer meets on the home board, unless one was chosen.
  const chosen = sel.value || String(WELCOME_LEVEL);
  sel.innerHTML = '';
  for (const l of state.info ? state.info.levels : []) {
    sel.add(new Option(`${l.level} — ${t(`level.${l.level}`)}`, String(l.level), false, String(l.level) === chosen));
  }
}

/** @param {string} text */
function showFormError(text) {
  const err = $('#new-error');
  err.textContent = text;
  err.classList.remove('hidden');
}

/**
 * Wires the dialogs to the game page's state.
 * @param {GameState} state @param {{ i18n: import('../i18n.js').I18n, openGame: (id: string) => void }} deps
 */
export function setupDialogs(state, { i18n, openGame }) {
  const f = form();
  $('#btn-new').addEventListener('click', () => openNewGame(state.game));
  for (const r of f.querySelectorAll('input[name=mode]')) r.addEventListener('change', syncNewForm);
  f.clock.addEventListener('change', syncNewForm);
  fillLevels(state);
  i18n.onChange(() => { fillLevels(state); syncNewForm(); });

  f.addEventListener('submit', async (/** @type {SubmitEvent} */ e) => {
    const submitter = /** @type {HTMLButtonElement | null} */ (e.submitter);
    if (!submitter || submitter.value !== 'start') return; // Cancel closes the dialog
    e.preventDefault();
    $('#new-error').classList.add('hidden');
    const mode = /** @type {HTMLInputElement} */ (f.querySelector('input[name=mode]:checked')).value;
    if (mode === 'online') {
      try {
        const v = await api.online({ variant: f.variant.value, color: f.color.value, clock: chosenClock(f) });
        /** @type {HTMLDialogElement} */ ($('#dlg-new')).close();
        state.orientation = null;
        state.seatFixes = 0;
        openGame(v.id);
      } catch (ex) {
        showFormError(serverError(/** @type {any} */ (ex)));
      }
      return;
    }
    /** @type {Record<string, unknown>} */
    const body = { variant: f.variant.value, mode, level: parseInt(f.level.value, 10), color: f.color.value };
    const text = f.import.value.trim();
    if (text) {
      if (text.startsWith('[') || text.includes('.')) body.pgn = text;
      else body.fen = text;
    }
    try {
      const v = await api.create(body);
      /** @type {HTMLDialogElement} */ ($('#dlg-new')).close();
      f.import.value = '';
      state.orientation = null;
      openGame(v.id);
    } catch (ex) {
      showFormError(serverError(/** @type {any} */ (ex)));
    }
  });

  $('#btn-export').addEventListener('click', async () => {
    const g = state.game;
    if (!g) return;
    const pgn = /** @type {HTMLTextAreaElement} */ ($('#export-pgn'));
    /** @type {HTMLTextAreaElement} */ ($('#export-fen')).value = positionFor(state, g, shownPly(state, g)).fen;
    pgn.value = t('common.loading');
    /** @type {HTMLAnchorElement} */ ($('#download-pgn')).href = `/api/games/${g.id}/pgn`;
    /** @type {HTMLDialogElement} */ ($('#dlg-export')).showModal();
    try {
      pgn.value = await api.pgn(g.id);
    } catch (e) {
      pgn.value = serverError(/** @type {any} */ (e));
    }
  });
  $('#export-close').addEventListener('click', () => /** @type {HTMLDialogElement} */ ($('#dlg-export')).close());
  for (const [button, field] of [['#copy-fen', '#export-fen'], ['#copy-pgn', '#export-pgn']]) {
    $(button).addEventListener('click', async () => {
      const area = /** @type {HTMLTextAreaElement} */ ($(field));
      try {
        await navigator.clipboard.writeText(area.value);
        toast(t('notice.copied'));
      } catch (_) {
        area.select();
        document.execCommand('copy');
      }
    });
  }
}
