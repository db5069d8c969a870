// @ts-check
// The header's search (issue 41): a player found by the start of their
// user name (accounts; bots marked, who is online said), each result a
// link to their profile. In the header's links (folded under the menu
// button on a phone). Typing asks the server (a moment after the last
// key); Enter opens the first; Down goes into the results; Escape closes.

import { call } from '../api.js';
import { t, playerName } from '../i18n.js';
import { titleMark } from './title-mark.js';

/** @typedef {import('../api.js').FoundPlayer} FoundPlayer */

/** How long after the last key the server is asked (ms). */
const PAUSE = 150;

/** @param {string} html @returns {HTMLElement} */
function node(html) {
  const d = document.createElement('div');
  d.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (d.firstElementChild);
}

/** The profile's address, from any page. @param {string} username */
const profileHref = (username) => `/#/player/${encodeURIComponent(username)}`;

/**
 * Puts the search into the header's links, before the switches.
 * @param {import('../i18n.js').I18n} i18n
 */
export function setupSearch(i18n) {
  const nav = /** @type {HTMLElement | null} */ (document.querySelector('header.top nav'));
  if (!nav) return;
  const box = node(`<div class="site-search" role="search">
    <label for="search-input" class="visually-hidden"></label>
    <input id="search-input" type="search" autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="20"
      aria-controls="search-results" aria-describedby="search-status">
    <ul id="search-results" class="search-results hidden"></ul>
    <span id="search-status" class="visually-hidden" role="status"></span>
  </div>`);
  const input = /** @type {HTMLInputElement} */ (box.querySelector('input'));
  const list = /** @type {HTMLElement} */ (box.querySelector('ul'));
  const status = /** @type {HTMLElement} */ (box.querySelector('#search-status'));
  const extra = nav.querySelector('.header-extra');
  if (extra) extra.before(box);
  else nav.append(box);
  /** @type {{ timer: ReturnType<typeof setTimeout> | undefined, seq: number, found: FoundPlayer[], term: string }} */
  const s = { timer: undefined, seq: 0, found: [], term: '' };

  const render = () => {
    /** @type {HTMLElement} */ (box.querySelector('label')).textContent = t('search.label');
    input.placeholder = t('search.placeholder');
  };
  render();
  i18n.onChange(render);

  const close = () => {
    list.classList.add('hidden');
  };
  const show = () => {
    list.replaceChildren(...s.found.map((f) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = profileHref(f.username);
      a.className = 'search-result';
      a.dataset.username = f.username;
      if (f.title) a.append(titleMark(f.title), ' ');
      const name = document.createElement('span');
      name.className = 'search-name';
      name.textContent = playerName(f.name);
      a.append(name);
      if (f.name.toLowerCase() !== f.username.toLowerCase()) {
        const user = document.createElement('span');
        user.className = 'search-user muted small';
        user.textContent = ` @${f.username}`;
        a.append(user);
      }
      if (f.online) {
        const on = document.createElement('span');
        on.className = 'search-online small';
        on.textContent = ` ● ${t('search.online')}`;
        a.append(on);
      }
      a.addEventListener('click', close);
      li.append(a);
      return li;
    }));
    if (!s.found.length && s.term) {
      const li = document.createElement('li');
      li.className = 'muted small search-none';
      li.textContent = t('search.none');
      list.append(li);
    }
    const open = !!s.term;
    list.classList.toggle('hidden', !open);
    status.textContent = s.term ? t('search.count', { n: s.found.length }) : '';
    box.dataset.term = s.term;
  };
  const ask = async () => {
    const term = input.value.trim();
    const seq = ++s.seq;
    if (!term) {
      s.found = [];
      s.term = '';
      show();
      return;
    }
    const r = await call('GET', `/api/player/autocomplete?term=${encodeURIComponent(term)}`);
    if (seq !== s.seq) return;
    s.found = r.ok ? /** @type {FoundPlayer[]} */ (r.value) : [];
    s.term = term;
    show();
  };
  input.addEventListener('input', () => {
    clearTimeout(s.timer);
    s.timer = setTimeout(ask, PAUSE);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && s.found.length && s.term === input.value.trim()) {
      e.preventDefault();
      close();
      location.href = profileHref(s.found[0].username);
    } else if (e.key === 'ArrowDown') {
      const first = /** @type {HTMLElement | null} */ (list.querySelector('a'));
      if (first) {
        e.preventDefault();
        first.focus();
      }
    } else if (e.key === 'Escape') {
      close();
    }
  });
  list.addEventListener('keydown', (e) => {
    const links = /** @type {HTMLElement[]} */ ([...list.querySelectorAll('a')]);
    const i = links.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (e.key === 'ArrowDown' && i >= 0 && i + 1 < links.length) {
      e.preventDefault();
      links[i + 1].focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      (i > 0 ? links[i - 1] : input).focus();
    } else if (e.key === 'Escape') {
      close();
      input.focus();
    }
  });
  input.addEventListener('focus', () => { if (s.term) show(); });
  document.addEventListener('click', (e) => {
    if (!box.contains(/** @type {Node} */ (e.target))) close();
  });
  window.addEventListener('hashchange', () => {
    close();
    input.value = '';
    s.term = '';
    s.found = [];
  });
}
