// @ts-check
// A player's public profile (`#/player/USERNAME`): the display name and
// user name, a rating in each game (rating, RD, rated games), the recent
// finished online games, each a link to the game, and a search of the
// player's games (search.js; `#/player/USERNAME?vs=…` runs one).

import { api, call } from '../api.js';
import { t, plural, serverError } from '../i18n.js';
import { isProvisional } from '../ratings.js';
import { titleMark } from '../ui/title-mark.js';
import { opponentNodes, resultText } from '../game/games-list.js';
import { frozen } from '../frozen.js';
import { el } from '../ui/el.js';
import { createGameSearch } from './search.js';

/** @typedef {import('../api.js').ProfileView} ProfileView */
/** @typedef {import('../api.js').ApiError} ApiError */
/**
 * What the page is handed: the page's player, and how to challenge another.
 * @typedef {{ player: import('../player.js').Player, challenge?: (username: string, name: string) => void }} ProfileDeps
 */

/**
 * The profile page's state, one per page (made by `createProfilePage`).
 * `error`: why the profile cannot be shown (a 404: no such player).
 * @typedef {{ username: string, profile: ProfileView | null, error: ApiError | null, seq: number,
 *   following: Followed[] | null, busy: boolean }} ProfileState
 * @typedef {{ username: string, name: string, online: boolean, playing?: string }} Followed
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const VARIANTS = frozen(/** @type {const} */ (['tensor', 'chess', 'chessence']));

/** @param {ProfileState} view @param {ProfileDeps} deps */
function render(view, { player, challenge }) {
  const p = view.profile;
  const err = view.error;
  const missing = !err ? '' : err.status === 404 ? t('profile.missing', { username: view.username }) : serverError(err);
  $('#profile-missing').classList.toggle('hidden', !missing);
  $('#profile-missing').textContent = missing;
  $('#profile-body').classList.toggle('hidden', !p);
  const challengeButton = /** @type {HTMLButtonElement} */ ($('#btn-challenge'));
  challengeButton.classList.toggle('hidden', !p || !challenge || !!(player.me && player.me.account === p.username));
  if (!p) {
    $('#profile-name').textContent = missing ? t('profile.missing_title') : t('common.loading');
    $('#profile-sub').textContent = '';
    return;
  }
  const me = player.me && player.me.account === p.username;
  // A bot account (played by a program) shows BOT before its name.
  $('#profile-name').replaceChildren(...(p.title ? [titleMark(p.title), ' '] : []), p.name);
  const since = new Date(p.created_at).toLocaleDateString(document.documentElement.lang, { year: 'numeric', month: 'long', day: 'numeric' });
  $('#profile-sub').textContent = `${t('profile.username', { username: p.username })} · ${t('profile.since', { date: since })}${me ? ` · ${t('profile.you')}` : ''}`;
  document.title = `${p.name} — ${t('page.title')}`;
  challengeButton.textContent = t('challenge.button');
  challengeButton.setAttribute('aria-label', t('challenge.button_label', { name: p.name }));
  challengeButton.onclick = challenge ? () => challenge(p.username, p.name) : null;
  renderFollow(view, player, p, !!me);

  const body = /** @type {HTMLElement} */ ($('#profile-ratings').querySelector('tbody'));
  body.innerHTML = '';
  // The real-time ratings always; a correspondence one once it was played.
  const rows = VARIANTS.map((v) => ({ v, r: p.ratings[v], corr: false }));
  for (const v of VARIANTS) {
    const r = p.ratings.correspondence[v];
    if (r.games > 0) rows.push({ v, r, corr: true });
  }
  for (const { v, r, corr } of rows) {
    const tr = el('tr');
    tr.dataset.variant = corr ? `${v}_correspondence` : v;
    const head = el('th', '', corr ? t('corr.rating_row', { game: t(`game.${v}`) }) : t(`game.${v}`));
    head.setAttribute('scope', 'row');
    const rating = el('td', 'rating', String(Math.round(r.rating)));
    rating.dataset.rating = String(r.rating);
    if (isProvisional(r)) {
      const q = el('span', 'provisional', '?');
      q.setAttribute('aria-hidden', 'true');
      q.title = t('rating.provisional');
      rating.append(q, el('span', 'visually-hidden', ` (${t('rating.provisional')})`));
    }
    tr.append(head, rating, el('td', 'rd', String(Math.round(r.rd))), el('td', 'games', String(r.games)));
    body.appendChild(tr);
  }

  const list = $('#profile-games');
  list.innerHTML = '';
  $('#profile-no-games').classList.toggle('hidden', p.games.length > 0);
  for (const g of p.games) {
    const li = el('li', 'profile-game');
    li.dataset.id = g.id;
    // The players' names lead to their profiles; the rest of the line to the game.
    const who = el('span', 'profile-game-players');
    who.append(...opponentNodes(g));
    const when = new Date(g.updated_at).toLocaleDateString(document.documentElement.lang);
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'profile-game-link', `${t(`game.${g.variant}`)} · ${resultText(g)} · ${plural('games.moves', g.moves)} · ${when}`));
    a.href = `#/game/${g.id}`;
    li.append(who, ' · ', a);
    list.appendChild(li);
  }
}

/**
 * Follow (another account's profile, for an account) and the list of
 * those followed (one's own profile): who is online, and a game being
 * played one tap away.
 * @param {ProfileState} view @param {import('../player.js').Player} player @param {ProfileView} p @param {boolean} mine
 */
function renderFollow(view, player, p, mine) {
  const account = player.me && player.me.account;
  const button = /** @type {HTMLButtonElement} */ ($('#btn-follow'));
  const list = view.following;
  button.classList.toggle('hidden', !account || mine || !list);
  const following = !!list && list.some((f) => f.username.toLowerCase() === p.username.toLowerCase());
  button.textContent = t(following ? 'follow.unfollow' : 'follow.follow');
  button.setAttribute('aria-pressed', String(following));
  button.dataset.following = String(following);
  button.disabled = view.busy;
  $('#following-card').classList.toggle('hidden', !mine || !list);
  if (!mine || !list) return;
  $('#following-list').replaceChildren(...list.map((f) => {
    const li = el('li', `following-item${f.online ? ' online' : ''}`);
    li.dataset.username = f.username;
    const a = /** @type {HTMLAnchorElement} */ (el('a', 'following-name', f.name));
    a.href = `#/player/${encodeURIComponent(f.username)}`;
    li.append(el('span', `following-dot${f.online ? ' on' : ''}`, f.online ? '●' : '○'), ' ', a, ' ',
      el('span', 'muted small', f.online ? t('follow.online') : t('follow.offline')));
    if (f.playing) {
      const w = /** @type {HTMLAnchorElement} */ (el('a', 'button following-watch', t('follow.watch')));
      w.href = `#/game/${f.playing}`;
      w.setAttribute('aria-label', t('follow.watch_label', { name: f.name }));
      li.append(' ', w);
    }
    return li;
  }));
  $('#following-empty').classList.toggle('hidden', list.length > 0);
}

/** The accounts this one follows (NDJSON), or null for a guest or on an error. @returns {Promise<Followed[] | null>} */
async function loadFollowing() {
  try {
    const res = await fetch('/api/rel/following');
    if (!res.ok) return null;
    return (await res.text()).split('\n').filter((l) => l.trim()).map((l) => /** @type {Followed} */ (JSON.parse(l)));
  } catch (_) {
    return null;
  }
}

/** Follows or unfollows the profile's player. @param {ProfileState} view @param {ProfileDeps} deps */
async function toggleFollow(view, deps) {
  const p = view.profile;
  if (!p || view.busy) return;
  const following = $('#btn-follow').dataset.following === 'true';
  view.busy = true;
  render(view, deps);
  const r = await call('POST', `/api/rel/${following ? 'unfollow' : 'follow'}/${encodeURIComponent(p.username)}`);
  view.following = await loadFollowing();
  view.busy = false;
  render(view, deps);
  if (!r.ok) $('#profile-missing').textContent = serverError(r.error);
  $('#profile-missing').classList.toggle('hidden', r.ok);
}

/** @param {ProfileState} view @param {string} username @param {ProfileDeps} deps */
async function open(view, username, deps) {
  const seq = ++view.seq;
  view.username = username;
  view.profile = null;
  view.error = null;
  render(view, deps);
  try {
    const account = () => !!(deps.player.me && deps.player.me.account);
    let [p, following] = await Promise.all([api.profile(username), account() ? loadFollowing() : null]);
    // Who is asking may have become known while the profile loaded (a
    // reload: the identity and the page load side by side).
    if (following === null && account() && seq === view.seq) following = await loadFollowing();
    if (seq !== view.seq) return;
    view.profile = p;
    view.following = following;
  } catch (e) {
    if (seq !== view.seq) return;
    view.error = /** @type {ApiError} */ (e);
  }
  render(view, deps);
  document.body.dataset.profile = view.profile ? view.profile.username : 'none';
}

/**
 * The profile page (`#/player/NAME`), with a Challenge button for another
 * player's (`challenge` opens the site's form); nothing happens before the
 * app makes it.
 * @param {{ i18n: import('../i18n.js').I18n } & ProfileDeps} deps
 * @returns {import('../router.js').Page}
 */
export function createProfilePage({ i18n, player, challenge }) {
  const deps = { player, challenge };
  /** @type {ProfileState} */
  const view = { username: '', profile: null, error: null, seq: 0, following: null, busy: false };
  $('#btn-follow').addEventListener('click', () => toggleFollow(view, deps));
  // A search made names itself in the address (to be kept or sent), in
  // place: the router is not asked to show the page again.
  const search = createGameSearch({
    onQuery: (username, query) => {
      const q = query ? query.toString() : '';
      history.replaceState(history.state, '', `#/player/${encodeURIComponent(username)}${q ? `?${q}` : ''}`);
    },
  });
  i18n.onChange(() => {
    if (document.body.dataset.page !== 'profile') return;
    render(view, deps);
    search.render();
  });
  // Logged in as this player (or out): no challenging oneself.
  // Known (or another account) only now: whom this account follows too.
  player.onChange(async () => {
    // The page being opened counts too (its address known before the
    // router marks the page).
    if (!view.username) return;
    render(view, deps);
    const seq = view.seq;
    const following = player.me && player.me.account ? await loadFollowing() : null;
    if (seq !== view.seq) return;
    view.following = following;
    render(view, deps);
  });
  return {
    name: 'profile',
    enter: ([username, query]) => {
      const name = decodeURIComponent(username);
      const address = new URLSearchParams(query || '');
      // Another search of the player shown: the profile stays as it is.
      if (view.profile && view.username === name) return search.show(name, address);
      return Promise.all([open(view, name, deps), search.show(name, address)]).then(() => {});
    },
    leave() {
      search.leave();
      view.seq++;
      view.username = '';
      delete document.body.dataset.profile;
      document.title = t('page.title');
    },
  };
}
