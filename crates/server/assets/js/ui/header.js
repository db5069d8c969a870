// @ts-check
// The header's settings, on every page: the language switch, the sound
// switch, and the board and piece themes. Each is remembered.

import { t, lang, setLang, LANGS, onLangChange } from '../i18n.js';
import * as settings from '../settings.js';
import { isMuted, setMuted } from '../sounds.js';
import { PIECE_THEMES, setPieceTheme } from '../pieces.js';

// A speaker, with waves or crossed out (drawn: emoji fonts are not everywhere).
const SPEAKER = 'M3 9h4l5-4v14l-5-4H3z';
const SPEAKER_ON = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="${SPEAKER}"/><path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;
const SPEAKER_OFF = `<svg viewBox="0 0 24 24" aria-hidden="true"><path d="${SPEAKER}"/><path d="M15 9l6 6M21 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;

/** @param {string} html @returns {HTMLElement} */
function node(html) {
  const d = document.createElement('div');
  d.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (d.firstElementChild);
}

/**
 * Puts the switches into the header's nav. `onTheme` is called after a
 * change of board or piece theme (boards redraw their pieces).
 * @param {{ onTheme?: () => void }} [opts]
 */
export function setupHeader(opts = {}) {
  const nav = /** @type {HTMLElement} */ (document.querySelector('header.top nav'));
  applyBoardTheme();
  setPieceTheme(settings.get('pieceTheme'));

  const langSwitch = node('<div class="lang-switch" role="group"></div>');
  for (const l of LANGS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'lang';
    b.dataset.lang = l;
    b.lang = l;
    b.textContent = l === 'uk' ? 'УКР' : 'EN';
    b.addEventListener('click', () => setLang(l));
    langSwitch.appendChild(b);
  }
  const sound = node('<button type="button" id="btn-sound" class="icon-button"></button>');
  sound.addEventListener('click', () => {
    setMuted(!isMuted());
    render();
  });
  const menuButton = node('<button type="button" id="btn-settings" class="icon-button" aria-haspopup="true" aria-expanded="false" aria-controls="settings-menu">⚙</button>');
  const menu = node(`<div id="settings-menu" class="settings-menu hidden">
    <label><span data-i18n="settings.board"></span> <select id="set-board"></select></label>
    <label><span data-i18n="settings.pieces"></span> <select id="set-pieces"></select></label>
  </div>`);
  const boardSel = /** @type {HTMLSelectElement} */ (menu.querySelector('#set-board'));
  const pieceSel = /** @type {HTMLSelectElement} */ (menu.querySelector('#set-pieces'));
  menuButton.addEventListener('click', () => {
    const open = menu.classList.toggle('hidden') === false;
    menuButton.setAttribute('aria-expanded', String(open));
    if (open) boardSel.focus();
  });
  menu.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      menu.classList.add('hidden');
      menuButton.setAttribute('aria-expanded', 'false');
      menuButton.focus();
    }
  });
  document.addEventListener('click', (e) => {
    if (!menu.classList.contains('hidden') && !menu.contains(/** @type {Node} */ (e.target)) && e.target !== menuButton) {
      menu.classList.add('hidden');
      menuButton.setAttribute('aria-expanded', 'false');
    }
  });
  boardSel.addEventListener('change', () => {
    settings.set('boardTheme', boardSel.value);
    applyBoardTheme();
    if (opts.onTheme) opts.onTheme();
  });
  pieceSel.addEventListener('change', () => {
    settings.set('pieceTheme', pieceSel.value);
    setPieceTheme(pieceSel.value);
    if (opts.onTheme) opts.onTheme();
  });
  const wrap = node('<div class="header-tools"></div>');
  wrap.append(langSwitch, sound, menuButton, menu);
  nav.after(wrap);

  function render() {
    for (const b of langSwitch.querySelectorAll('button')) {
      b.setAttribute('aria-pressed', String(b.dataset.lang === lang()));
      b.title = b.dataset.lang === 'uk' ? 'Українська' : 'English';
    }
    langSwitch.setAttribute('aria-label', t('settings.language'));
    const muted = isMuted();
    sound.innerHTML = muted ? SPEAKER_OFF : SPEAKER_ON;
    sound.setAttribute('aria-label', t(muted ? 'settings.sound_off' : 'settings.sound_on'));
    sound.setAttribute('aria-pressed', String(!muted));
    sound.title = t(muted ? 'settings.sound_off' : 'settings.sound_on');
    menuButton.setAttribute('aria-label', t('settings.title'));
    menuButton.title = t('settings.title');
    boardSel.innerHTML = '';
    for (const name of settings.BOARD_THEMES) boardSel.add(new Option(t(`theme.board.${name}`), name, false, name === settings.get('boardTheme')));
    pieceSel.innerHTML = '';
    for (const name of Object.keys(PIECE_THEMES)) pieceSel.add(new Option(t(`theme.pieces.${name}`), name, false, name === settings.get('pieceTheme')));
    for (const el of menu.querySelectorAll('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n') || '');
  }
  render();
  onLangChange(render);
}

/** The board theme is a class on <body> that sets the squares' colours. */
function applyBoardTheme() {
  for (const name of settings.BOARD_THEMES) document.body.classList.toggle(`board-${name}`, settings.get('boardTheme') === name);
}
