// @ts-check
// The account page (`#/account`): the account's personal API tokens, for
// programs that play for it (docs/bots.md, served at /docs/bots). A token
// is made with a description and its scopes and shown this once (the
// server keeps only its hash): it stays on the page until Done, or until
// the page is left, and is never shown again. The list shows each token's
// description, scopes and dates, with a button that revokes it. A guest is
// asked to register or log in.

import { bots } from '../api.js';
import { t, serverError } from '../i18n.js';
import { announce, confirmDialog } from '../ui/notice.js';
import { el } from '../ui/el.js';

/** @typedef {import('../api.js').TokenView} TokenView */
/** @typedef {import('../api.js').ApiError} ApiError */
/**
 * What the page is handed: the page's player, and how to open the Register
 * or Log in dialog.
 * @typedef {{ player: import('../player.js').Player, openAccount: (mode: 'register' | 'login') => void }} AccountDeps
 */
/**
 * The page's state, one per page: the tokens as last asked (null before an
 * answer, or for a guest), which answer is awaited, a request in flight.
 * @typedef {{ tokens: TokenView[] | null, seq: number, busy: boolean }} AccountState
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const input = (/** @type {string} */ sel) => /** @type {HTMLInputElement} */ (document.querySelector(sel));

/** A moment as the page's language writes it. @param {number} ms */
const when = (ms) => new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' });

/** The account's user name, or null for a guest (or not known yet). @param {AccountDeps} deps */
const accountOf = ({ player }) => (player.me && player.me.account) || null;

/** An error said under the list (or the form). @param {string} sel @param {string} text */
function say(sel, text) {
  $(sel).textContent = text;
  $(sel).classList.toggle('hidden', !text);
}

/** One token's line. @param {TokenView} tok @param {AccountState} view @param {AccountDeps} deps */
function tokenRow(tok, view, deps) {
  const li = el('li', 'token-row');
  li.dataset.id = tok.id;
  const text = el('div', 'token-text');
  const scopes = el('span', 'token-scopes');
  for (const s of tok.scopes) scopes.append(el('code', '', s), ' ');
  const dates = `${t('tokens.created', { date: when(tok.created_at) })} · ${tok.last_used_at ? t('tokens.used', { date: when(tok.last_used_at) }) : t('tokens.never_used')}`;
  text.append(el('strong', 'token-description', tok.description), ' ', scopes, el('span', 'muted small token-dates', dates));
  const revoke = el('button', 'token-revoke', t('tokens.revoke'));
  revoke.setAttribute('type', 'button');
  revoke.setAttribute('aria-label', t('tokens.revoke_label', { description: tok.description }));
  revoke.addEventListener('click', () => revokeToken(tok, view, deps));
  li.append(text, revoke);
  return li;
}

/** @param {AccountState} view @param {AccountDeps} deps */
function render(view, deps) {
  document.title = `${t('tokens.page_title')} — ${t('page.title')}`;
  const account = accountOf(deps);
  const known = !!deps.player.me;
  $('#account-sub').textContent = account ? t('tokens.signed_in', { username: account }) : '';
  const profile = /** @type {HTMLAnchorElement} */ ($('#account-profile'));
  profile.classList.toggle('hidden', !account);
  if (account) profile.href = `#/player/${encodeURIComponent(account)}`;
  $('#tokens-guest').classList.toggle('hidden', !known || !!account);
  $('#tokens-body').classList.toggle('hidden', !account);
  const list = view.tokens || [];
  $('#tokens-list').replaceChildren(...list.map((tok) => tokenRow(tok, view, deps)));
  $('#tokens-none').classList.toggle('hidden', !view.tokens || list.length > 0);
  /** @type {HTMLButtonElement} */ ($('#token-create')).disabled = view.busy;
}

/** Asks for the account's tokens. @param {AccountState} view @param {AccountDeps} deps */
async function load(view, deps) {
  const seq = ++view.seq;
  if (!accountOf(deps)) {
    view.tokens = null;
    render(view, deps);
    document.body.dataset.tokens = deps.player.me ? 'guest' : 'loading';
    return;
  }
  const r = await bots.tokens();
  if (seq !== view.seq) return;
  view.tokens = r.ok ? r.value.tokens : null;
  say('#tokens-error', r.ok ? '' : serverError(r.error));
  render(view, deps);
  document.body.dataset.tokens = r.ok ? String(r.value.tokens.length) : 'error';
}

/** The form's errors, on the field they concern. @param {string} text @param {HTMLElement | null} [field] */
function formError(text, field = null) {
  say('#token-error', text);
  for (const f of $('#form-token').querySelectorAll('input')) f.removeAttribute('aria-invalid');
  if (text && field) {
    field.setAttribute('aria-invalid', 'true');
    field.focus();
  }
}

/** Makes a token from the form and shows it this once. @param {AccountState} view @param {AccountDeps} deps */
async function makeToken(view, deps) {
  if (view.busy) return;
  const description = input('#token-description');
  const text = description.value.trim();
  const scopes = [...$('#form-token').querySelectorAll('input[name=scope]:checked')].map((c) => /** @type {HTMLInputElement} */ (c).value);
  if (!text) return formError(t('tokens.error_description'), description);
  if (scopes.length === 0) return formError(t('tokens.error_scopes'), /** @type {HTMLElement} */ ($('#form-token').querySelector('input[name=scope]')));
  formError('');
  view.busy = true;
  render(view, deps);
  const r = await bots.makeToken(text, scopes);
  view.busy = false;
  if (!r.ok) {
    render(view, deps);
    const err = r.error;
    return formError(err.kind === 'too_many' ? t('tokens.error_too_many') : serverError(err), err.status === 400 ? description : null);
  }
  description.value = '';
  for (const c of $('#form-token').querySelectorAll('input[name=scope]')) /** @type {HTMLInputElement} */ (c).checked = false;
  showMade(r.value.token);
  await load(view, deps);
}

/** Shows a new token (or hides it, with null): the only time it is shown. @param {string | null} token */
function showMade(token) {
  const value = input('#token-value');
  value.value = token || '';
  $('#token-made').classList.toggle('hidden', !token);
  if (token) {
    value.focus();
    value.select();
    announce(t('tokens.made_title'));
  }
}

/** @param {TokenView} tok @param {AccountState} view @param {AccountDeps} deps */
async function revokeToken(tok, view, deps) {
  if (!(await confirmDialog(t('tokens.revoke_confirm', { description: tok.description })))) return;
  const r = await bots.revokeToken(tok.id);
  if (!r.ok) return say('#tokens-error', serverError(r.error));
  say('#tokens-error', '');
  announce(t('tokens.revoked', { description: tok.description }));
  await load(view, deps);
  // The focus was on the button that is gone: the list's heading takes it.
  $('#tokens-list-title').focus();
}

/**
 * The account page; nothing happens before the app makes it.
 * @param {{ i18n: import('../i18n.js').I18n } & AccountDeps} deps
 * @returns {import('../router.js').Page}
 */
export function createAccountPage({ i18n, player, openAccount }) {
  const deps = { player, openAccount };
  /** @type {AccountState} */
  const view = { tokens: null, seq: 0, busy: false };
  const shown = () => document.body.dataset.page === 'account';
  $('#form-token').addEventListener('submit', (e) => { e.preventDefault(); makeToken(view, deps); });
  $('#token-done').addEventListener('click', () => {
    showMade(null);
    input('#token-description').focus();
  });
  $('#token-copy').addEventListener('click', async () => {
    const value = input('#token-value');
    try {
      await navigator.clipboard.writeText(value.value);
      announce(t('notice.copied'));
    } catch (_) {
      value.select();
      document.execCommand('copy');
    }
  });
  $('#tokens-register').addEventListener('click', () => openAccount('register'));
  $('#tokens-login').addEventListener('click', () => openAccount('login'));
  i18n.onChange(() => { if (shown()) render(view, deps); });
  // Logged in or out here: another account's tokens, or none.
  player.onChange(() => {
    if (!shown()) return;
    showMade(null);
    load(view, deps);
  });
  return {
    name: 'account',
    enter() {
      render(view, deps);
      return load(view, deps);
    },
    leave() {
      // A token shown is gone with the page: it is shown once.
      showMade(null);
      view.seq++;
      view.tokens = null;
      delete document.body.dataset.tokens;
      document.title = t('page.title');
    },
  };
}
