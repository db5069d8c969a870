// @ts-check
// The header's settings, on every page: the language switch, the sound
// switch, and the board and piece themes. Each is remembered.

import { t, lang, LANGS } from '../i18n.js';
/** @typedef {import('../i18n.js').I18n} I18n */
import * as settings from '../settings.js';
import { isMuted, setMuted } from '../sounds.js';
import { PIECE_THEMES, setPieceTheme } from '../pieces.js';
import { frozen } from '../frozen.js';

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

/** The pages of the site, as the header's links name them. */
export const SITE_PAGES = frozen(/** @type {const} */ (['play', 'tournaments', 'bots', 'analysis', 'puzzles', 'lessons', 'rules']));
/** @typedef {typeof SITE_PAGES[number]} SitePage */

/**
 * The header every page has: the site's pages (Play, Tournaments, Bots,
 * Analysis, Puzzles, Lessons, Rules; the one shown marked), then the player's menu (put in
 * by ui/account.js), the language and sound switches, and the settings.
 * On a phone the links and the switches fold under a menu button, so the
 * header stays one row. `onTheme` is called after a change of board or
 * piece theme (boards redraw their pieces).
 * @param {I18n} i18n the page's language
 * @param {{ onTheme?: () => void, current?: SitePage }} [opts]
 */
export function setupHeader(i18n, opts = {}) {
  const header = /** @type {HTMLElement} */ (document.querySelector('header.top'));
  const nav = /** @type {HTMLElement} */ (header.querySelector('nav'));
  applyBoardTheme();
  setPieceTheme(settings.get('pieceTheme'));
  markCurrent(opts.current);
  // The menu button (phones): the links and the switches unfold under the header.
  if (!nav.id) nav.id = 'site-nav';
  const menuToggle = node(`<button type="button" id="btn-menu" class="icon-button menu-button" aria-expanded="false" aria-controls="${nav.id}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h16M4 12h16M4 18h16" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg></button>`);
  header.prepend(menuToggle);
  const setOpen = (/** @type {boolean} */ open) => {
    header.classList.toggle('menu-open', open);
    menuToggle.setAttribute('aria-expanded', String(open));
  };
  menuToggle.addEventListener('click', () => setOpen(!header.classList.contains('menu-open')));
  header.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && header.classList.contains('menu-open')) {
      setOpen(false);
      menuToggle.focus();
    }
  });
  document.addEventListener('click', (e) => {
    if (header.classList.contains('menu-open') && !header.contains(/** @type {Node} */ (e.target))) setOpen(false);
  });
  // A link followed inside the app (#/...) closes the menu.
  nav.addEventListener('click', (e) => { if (/** @type {HTMLElement} */ (e.target).closest('a')) setOpen(false); });
  // So does any navigation (the player's menu, a link in the page, Back).
  window.addEventListener('hashchange', () => setOpen(false));
  window.addEventListener('pagehide', () => setOpen(false));

  const langSwitch = node('<div class="lang-switch" role="group"></div>');
  for (const l of LANGS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'lang';
    b.dataset.lang = l;
    b.lang = l;
    b.textContent = l === 'uk' ? 'УКР' : 'EN';
    b.addEventListener('click', () => i18n.setLang(l));
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
  // The switches go with the links (on a phone they fold with them); the
  // player's menu and the settings stay in the header's row.
  const extra = node('<div class="header-extra"></div>');
  extra.append(langSwitch, sound);
  nav.append(extra);
  const wrap = node('<div class="header-tools"></div>');
  wrap.append(menuButton, menu);
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
    menuToggle.setAttribute('aria-label', t('nav.menu'));
    menuToggle.title = t('nav.menu');
    menuButton.title = t('settings.title');
    boardSel.innerHTML = '';
    for (const name of settings.BOARD_THEMES) boardSel.add(new Option(t(`theme.board.${name}`), name, false, name === settings.get('boardTheme')));
    pieceSel.innerHTML = '';
    for (const name of Object.keys(PIECE_THEMES)) pieceSel.add(new Option(t(`theme.pieces.${name}`), name, false, name === settings.get('pieceTheme')));
    for (const el of menu.querySelectorAll('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n') || '');
  }
  render();
  i18n.onChange(render);
}

/**
 * Marks the site's page shown in the header's links (the app's routes
 * change it: Play, Tournaments, Bots). @param {SitePage} [current]
 */
export function markCurrent(current) {
  for (const a of document.querySelectorAll('header.top nav a[data-nav]')) {
    if (/** @type {HTMLElement} */ (a).dataset.nav === current) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** The board theme is a class on <body> that sets the squares' colours. */
function applyBoardTheme() {
  for (const name of settings.BOARD_THEMES) document.body.classList.toggle(`board-${name}`, settings.get('boardTheme') === name);
}
