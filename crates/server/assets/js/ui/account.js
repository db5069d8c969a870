// @ts-check
// The player in the header: their name (a guest name until changed) on a
// button that opens a menu (my profile, API tokens, change name,
// register, log in, log out), and the dialogs behind it. The server's refusals are said by
// their `kind`, on the field they concern.

import { t, applyI18n, serverError, playerName } from '../i18n.js';
import { USERNAME, passwordOk, MAX_NAME } from '../player.js';

/** @typedef {import('../api.js').ApiError} ApiError */
/** @typedef {'register' | 'login'} AccountMode */
/** @typedef {import('../i18n.js').I18n} I18n */
/** @typedef {import('../player.js').Player} Player */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const input = (/** @type {string} */ sel) => /** @type {HTMLInputElement} */ (document.querySelector(sel));
const dialog = (/** @type {string} */ sel) => /** @type {HTMLDialogElement} */ (document.querySelector(sel));

/** @param {string} html @returns {HTMLElement} */
function node(html) {
  const d = document.createElement('div');
  d.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (d.firstElementChild);
}

/** The name and account dialogs, put into the page once (every page has the menu). */
const DIALOGS = `
  <dialog id="dlg-name" aria-labelledby="dlg-name-title">
    <form id="form-name" novalidate>
      <h2 id="dlg-name-title" data-i18n="name.title">Your name</h2>
      <label for="name-input" data-i18n="name.label">The name other players see</label>
      <input id="name-input" name="name" type="text" maxlength="40" autocomplete="nickname" required aria-describedby="name-hint name-error">
      <p id="name-hint" class="muted small" data-i18n="name.hint">At most 40 characters.</p>
      <p class="form-error hidden" id="name-error" role="alert"></p>
      <div class="dialog-buttons">
        <button type="button" id="name-cancel" data-i18n="common.cancel">Cancel</button>
        <button type="submit" class="primary" id="name-save" data-i18n="name.save">Save</button>
      </div>
    </form>
  </dialog>

  <dialog id="dlg-account" aria-labelledby="dlg-account-title">
    <form id="form-account" novalidate>
      <h2 id="dlg-account-title"></h2>
      <p id="account-intro" class="muted"></p>
      <label for="account-username" data-i18n="account.username">User name</label>
      <input id="account-username" name="username" type="text" autocomplete="username" autocapitalize="off" spellcheck="false" maxlength="20" required aria-describedby="account-username-hint">
      <p id="account-username-hint" class="muted small" data-i18n="account.username_hint">3 to 20 letters, digits, - or _, starting with a letter or digit.</p>
      <label for="account-password" data-i18n="account.password">Password</label>
      <input id="account-password" name="password" type="password" maxlength="128" required aria-describedby="account-password-hint">
      <p id="account-password-hint" class="muted small" data-i18n="account.password_hint">8 to 128 characters.</p>
      <p class="form-error hidden" id="account-error" role="alert"></p>
      <p class="account-switch"><span id="account-switch-text"></span> <button type="button" id="account-switch" class="link-button"></button></p>
      <div class="dialog-buttons">
        <button type="button" id="account-cancel" data-i18n="common.cancel">Cancel</button>
        <button type="submit" class="primary" id="account-submit"></button>
      </div>
    </form>
  </dialog>`;

/** The player's button in the header (made by `setupAccount`). */
const button = () => $('#btn-player');
/** Its menu. */
const menu = () => $('#player-menu');

function closeMenu() {
  menu().classList.add('hidden');
  button().setAttribute('aria-expanded', 'false');
}

/**
 * Puts the player's button and menu into the header, and the name and
 * account dialogs into the page. `games` opens the player's games where the
 * page has them (the app's Games dialog); elsewhere the menu links there.
 * Returns `openAccount(mode)`, the Register or Log in dialog (the lobby's
 * links open it). The form's mode is this instance's.
 * @param {{ i18n: I18n, player: Player, games?: () => void }} opts
 * @returns {{ openAccount: (mode: AccountMode) => void }}
 */
export function setupAccount(opts) {
  const { i18n, player } = opts;
  /** @type {{ mode: AccountMode, busy: boolean }} */
  const form = { mode: 'register', busy: false };

  /** The player's name and menu, as the player now is. */
  function render() {
    const me = player.me;
    const name = me ? playerName(me.name) : '…';
    /** @type {HTMLElement} */ (button().querySelector('.player-name')).textContent = name;
    button().setAttribute('aria-label', me ? t(me.account ? 'account.menu_label' : 'account.menu_label_guest', { name }) : t('common.loading'));
    button().dataset.account = me && me.account ? me.account : '';
    // Who the page plays as, for tests and styles (the identity itself is an HttpOnly cookie).
    document.body.dataset.player = me ? me.id : '';
    document.body.dataset.account = me && me.account ? me.account : '';
    const who = /** @type {HTMLElement} */ (menu().querySelector('.player-menu-who'));
    who.textContent = !me ? '' : me.account ? t('account.signed_in', { username: me.account }) : t('account.guest_note');
    const account = !!(me && me.account);
    const profile = /** @type {HTMLAnchorElement} */ (menu().querySelector('#menu-profile'));
    profile.classList.toggle('hidden', !account);
    if (me && me.account) profile.href = `/#/player/${encodeURIComponent(me.account)}`;
    profile.textContent = t('account.profile');
    const tokens = /** @type {HTMLAnchorElement} */ (menu().querySelector('#menu-tokens'));
    tokens.classList.toggle('hidden', !account);
    tokens.textContent = t('footer.account');
    $('#btn-games').textContent = t('btn.games');
    $('#menu-rename').textContent = t('account.rename');
    $('#menu-register').textContent = t('account.register');
    $('#menu-login').textContent = t('account.login');
    $('#menu-logout').textContent = t('account.logout');
    $('#menu-register').classList.toggle('hidden', account);
    $('#menu-login').classList.toggle('hidden', account);
    $('#menu-logout').classList.toggle('hidden', !account);
    if (dialog('#dlg-account').open) renderAccountForm();
  }

  /** @param {HTMLElement} box @param {string | null} text @param {HTMLInputElement | null} [field] */
  function showError(box, text, field = null) {
    box.textContent = text || '';
    box.classList.toggle('hidden', !text);
    for (const f of box.closest('form')?.querySelectorAll('input') || []) f.removeAttribute('aria-invalid');
    if (text && field) {
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  // ---- the name ----------------------------------------------------------------

  function openRename() {
    closeMenu();
    input('#name-input').value = player.me ? player.me.name : '';
    showError($('#name-error'), null);
    dialog('#dlg-name').showModal();
    input('#name-input').select();
  }

  async function submitRename() {
    const field = input('#name-input');
    const name = field.value.trim();
    if (!name) return showError($('#name-error'), t('name.error_empty'), field);
    if ([...name].length > MAX_NAME) return showError($('#name-error'), t('name.error_long'), field);
    try {
      await player.rename(name);
      dialog('#dlg-name').close();
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      // A name the server refuses (400) is one it cannot take: too long, or empty once cleaned.
      showError($('#name-error'), err.status === 400 ? t('name.error_refused') : serverError(err), field);
    }
  }

  // ---- accounts ----------------------------------------------------------------

  /** Opens the Register or Log in dialog. @param {AccountMode} mode */
  function openAccount(mode) {
    closeMenu();
    form.mode = mode;
    input('#account-password').value = '';
    showError($('#account-error'), null);
    renderAccountForm();
    dialog('#dlg-account').showModal();
    input('#account-username').focus();
  }

  function renderAccountForm() {
    const register = form.mode === 'register';
    $('#dlg-account-title').textContent = t(register ? 'account.register_title' : 'account.login_title');
    $('#account-intro').textContent = t(register ? 'account.register_intro' : 'account.login_intro');
    $('#account-submit').textContent = t(register ? 'account.register' : 'account.login');
    $('#account-switch-text').textContent = t(register ? 'account.have_account' : 'account.no_account');
    $('#account-switch').textContent = t(register ? 'account.login' : 'account.register');
    input('#account-password').autocomplete = register ? 'new-password' : 'current-password';
    // The hints say what the server takes; when logging in they only get in the way.
    $('#account-username-hint').classList.toggle('hidden', !register);
    $('#account-password-hint').classList.toggle('hidden', !register);
  }

  async function submitAccount() {
    if (form.busy) return;
    const user = input('#account-username');
    const pass = input('#account-password');
    const username = user.value.trim();
    const password = pass.value;
    const box = $('#account-error');
    const registering = form.mode === 'register';
    if (!username) return showError(box, t('account.error_username_empty'), user);
    if (registering && !USERNAME.test(username)) return showError(box, t('account.error_username'), user);
    if (!password) return showError(box, t('account.error_password_empty'), pass);
    if (registering && !passwordOk(password)) return showError(box, t('account.error_password'), pass);
    form.busy = true;
    /** @type {HTMLButtonElement} */ ($('#account-submit')).disabled = true;
    try {
      await (registering ? player.register(username, password) : player.login(username, password));
      pass.value = '';
      dialog('#dlg-account').close();
    } catch (e) {
      const err = /** @type {ApiError} */ (e);
      if (err.kind === 'name_taken') showError(box, t('account.error_taken', { username }), user);
      else if (err.kind === 'unauthorized') showError(box, t('account.error_wrong'), pass);
      else if (err.kind === 'rate_limited') showError(box, t('account.error_too_many', { secs: err.retryAfter ?? 20 }));
      else if (err.status === 409) showError(box, t('account.error_has_account'));
      else if (err.status === 400) showError(box, t(registering ? 'account.error_refused' : 'account.error_wrong'), user);
      else showError(box, serverError(err));
    } finally {
      form.busy = false;
      /** @type {HTMLButtonElement} */ ($('#account-submit')).disabled = false;
    }
  }

  if (!document.querySelector('#dlg-account')) {
    const box = document.createElement('div');
    box.innerHTML = DIALOGS;
    applyI18n(box);
    document.body.append(...box.children);
  }
  const tools = /** @type {HTMLElement} */ (document.querySelector('header.top .header-tools'));
  const wrap = node('<div class="player-tools"></div>');
  wrap.append(node('<button type="button" id="btn-player" class="player-button" aria-haspopup="true" aria-expanded="false" aria-controls="player-menu"><span class="player-icon" aria-hidden="true"></span><span class="player-name"></span></button>'), node(`<div id="player-menu" class="player-menu hidden">
  <p class="player-menu-who"></p>
  <a id="menu-profile" class="menu-item" href="/#/"></a>
  <a id="menu-tokens" class="menu-item" href="/#/account"></a>
  <a id="btn-games" class="menu-item" href="/#/games"></a>
  <button type="button" id="menu-rename" class="menu-item"></button>
  <button type="button" id="menu-register" class="menu-item"></button>
  <button type="button" id="menu-login" class="menu-item"></button>
  <button type="button" id="menu-logout" class="menu-item"></button>
</div>`));
  tools.prepend(wrap);
  button().addEventListener('click', () => {
    const open = menu().classList.toggle('hidden') === false;
    button().setAttribute('aria-expanded', String(open));
    if (open) /** @type {HTMLElement | null} */ (menu().querySelector('.menu-item:not(.hidden)'))?.focus();
  });
  menu().addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      closeMenu();
      button().focus();
    }
  });
  document.addEventListener('click', (e) => {
    if (!menu().classList.contains('hidden') && !wrap.contains(/** @type {Node} */ (e.target))) closeMenu();
  });
  menu().querySelector('#menu-profile')?.addEventListener('click', closeMenu);
  menu().querySelector('#menu-tokens')?.addEventListener('click', closeMenu);
  const games = opts.games;
  menu().querySelector('#btn-games')?.addEventListener('click', (e) => {
    closeMenu();
    if (games) {
      e.preventDefault();
      games();
    }
  });
  $('#menu-rename').addEventListener('click', openRename);
  $('#menu-register').addEventListener('click', () => openAccount('register'));
  $('#menu-login').addEventListener('click', () => openAccount('login'));
  $('#menu-logout').addEventListener('click', async () => {
    closeMenu();
    try {
      await player.logout();
    } catch (e) {
      alertError(serverError(/** @type {ApiError} */ (e)));
    }
  });

  $('#form-name').addEventListener('submit', (e) => { e.preventDefault(); submitRename(); });
  $('#name-cancel').addEventListener('click', () => dialog('#dlg-name').close());
  $('#form-account').addEventListener('submit', (e) => { e.preventDefault(); submitAccount(); });
  $('#account-cancel').addEventListener('click', () => dialog('#dlg-account').close());
  $('#account-switch').addEventListener('click', () => {
    form.mode = form.mode === 'register' ? 'login' : 'register';
    showError($('#account-error'), null);
    renderAccountForm();
    input('#account-username').focus();
  });

  player.onChange(render);
  i18n.onChange(render);
  render();
  return { openAccount };
}

/** A failure outside any form: said in the menu's place. @param {string} text */
function alertError(text) {
  const who = /** @type {HTMLElement} */ (menu().querySelector('.player-menu-who'));
  who.textContent = text;
  menu().classList.remove('hidden');
  button().setAttribute('aria-expanded', 'true');
}
