// @ts-check
// The player's own games (the Games dialog): a page at a time, newest
// first, "More" asking for the next page with the server's cursor; each
// game to resume (or replay) or delete. Moves are counted as players count
// them (a move of each side is one), not in plies.

import { api } from '../api.js';
import { t, tNodes, nameLink, plural, serverError, playerName, daysPerMove } from '../i18n.js';
import { toast } from '../ui/notice.js';

/** @typedef {import('../api.js').GameSummary} GameSummary */

/** Games asked for at a time. */
export const GAMES_PAGE = 20;

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** Who the game is against: "vs engine, level 3, you play white", "alice – bob". @param {GameSummary} g */
export function opponentText(g) {
  if (g.mode === 'engine') {
    return t('games.engine', { level: g.level ?? '', color: g.human_color ? t(`games.you_play_${g.human_color}`) : '' });
  }
  if (g.mode === 'online') {
    // A bot's title goes before its name, as everywhere a name is shown.
    const named = (/** @type {string} */ name, /** @type {string | undefined} */ title) => (title ? `${title} ${playerName(name)}` : playerName(name));
    return t('games.online_players', { white: named(g.white, g.white_title), black: named(g.black, g.black_title) });
  }
  return t('games.local');
}

/**
 * Who the game is against, as nodes: an online game's names lead to the
 * players' profiles (where they have accounts), as everywhere a name shows.
 * @param {GameSummary} g @returns {(Node | string)[]}
 */
export function opponentNodes(g) {
  if (g.mode !== 'online') return [opponentText(g)];
  return sidesNodes(
    { name: g.white, account: g.white_account, title: g.white_title },
    { name: g.black, account: g.black_account, title: g.black_title },
  );
}

/**
 * "online: alice – bob" as nodes, each name a link to its profile where
 * it has an account, a bot's title before its name.
 * @typedef {{ name: string, account?: string | null, title?: string }} Side
 * @param {Side} white @param {Side} black @returns {(Node | string)[]}
 */
export function sidesNodes(white, black) {
  const named = (/** @type {Side} */ side) => {
    const span = document.createElement('span');
    if (side.title) span.append(`${side.title} `);
    span.append(nameLink(side.name, side.account));
    return span;
  };
  return tNodes('games.online_players', { white: named(white), black: named(black) });
}

/** A game in one line: "Tensor Chess · vs engine, level 3 · 12 moves". @param {GameSummary} g */
export const summaryText = (g) => `${t(`game.${g.variant}`)} · ${opponentText(g)} · ${plural('games.moves', g.moves)}`;

/**
 * The result in words: "1-0 (resignation)"; while the game goes on, whose
 * move it is in the player's own list ("your move"), else "in progress".
 * @param {GameSummary} g
 */
export function resultText(g) {
  if (!g.finished) {
    if (!g.you) return t('games.in_progress');
    return g.your_turn ? t('games.your_turn') : t('games.their_turn');
  }
  const reason = g.end_reason ? ` (${t(`games.reason.${g.end_reason}`)})` : '';
  return `${g.result}${reason}`;
}

/**
 * The Games dialog (opened by the player's menu, "Your games"), wired
 * once per page; `open` is how a game is opened. Its list (the cursor of
 * the next page, how many are shown) is this instance's.
 * @param {{ open: (id: string) => void }} deps
 * @returns {{ open: () => Promise<void> }} `open` shows the dialog on its first page
 */
export function createGamesList({ open }) {
  /** @type {{ next: string | null, loading: boolean, shown: number }} */
  const list = { next: null, loading: false, shown: 0 };

  /** @param {GameSummary} g */
  function row(g) {
    const d = /** @type {HTMLDialogElement} */ ($('#dlg-games'));
    const r = document.createElement('div');
    r.className = 'game-row';
    r.dataset.id = g.id;
    r.dataset.moves = String(g.moves);
    const when = new Date(g.updated_at).toLocaleString(document.documentElement.lang);
    r.innerHTML = '<div class="game-row-main"><b></b> · <span class="opp"></span><br><span class="muted"></span></div>';
    // A correspondence game says so, with its days a move; one waiting
    // for this player's move stands out.
    /** @type {HTMLElement} */ (r.querySelector('b')).textContent = g.days
      ? `${t(`game.${g.variant}`)} (${t('games.correspondence', { days: daysPerMove(g.days) })})` : t(`game.${g.variant}`);
    if (g.days) r.dataset.correspondence = String(g.days);
    if (!g.finished && g.you) r.dataset.turn = g.your_turn ? 'you' : 'opponent';
    r.classList.toggle('your-turn', !g.finished && g.your_turn);
    /** @type {HTMLElement} */ (r.querySelector('.opp')).replaceChildren(...opponentNodes(g));
    /** @type {HTMLElement} */ (r.querySelector('.muted')).textContent = `${resultText(g)} · ${plural('games.moves', g.moves)} · ${when}`;
    const openButton = document.createElement('button');
    openButton.type = 'button';
    openButton.textContent = g.finished ? t('games.replay') : t('games.resume');
    openButton.className = 'primary open-game';
    openButton.addEventListener('click', () => { d.close(); open(g.id); });
    r.appendChild(openButton);
    // Online games stay (the other player and the watchers may come back to them).
    if (g.mode !== 'online') {
      const del = document.createElement('button');
      del.type = 'button';
      del.className = 'delete-game';
      del.textContent = t('games.delete');
      del.setAttribute('aria-label', `${t('games.delete')}: ${t(`game.${g.variant}`)}, ${when}`);
      del.addEventListener('click', async () => {
        try {
          await api.remove(g.id);
          r.remove();
        } catch (e) {
          toast(t('notice.not_done'), serverError(/** @type {any} */ (e)), 'error');
        }
      });
      r.appendChild(del);
    }
    return r;
  }

  /** The next page (the first when `cursor` is null). @param {string | null} cursor */
  async function loadPage(cursor) {
    if (list.loading) return;
    list.loading = true;
    const more = /** @type {HTMLButtonElement} */ ($('#games-more'));
    const status = $('#games-status');
    more.disabled = true;
    status.textContent = t('common.loading');
    try {
      const page = await api.games({ limit: GAMES_PAGE, cursor });
      const box = $('#games-list');
      if (!cursor) box.innerHTML = '';
      for (const g of page.games) box.appendChild(row(g));
      list.shown += page.games.length;
      list.next = page.next;
      status.textContent = list.shown ? t('games.shown', { n: list.shown }) : t('games.none');
    } catch (e) {
      status.textContent = serverError(/** @type {any} */ (e));
    } finally {
      list.loading = false;
      more.disabled = false;
      more.classList.toggle('hidden', !list.next);
    }
  }

  $('#games-more').addEventListener('click', () => { if (list.next) loadPage(list.next); });
  $('#games-close').addEventListener('click', () => /** @type {HTMLDialogElement} */ ($('#dlg-games')).close());

  return {
    open() {
      list.next = null;
      list.shown = 0;
      $('#games-list').innerHTML = '';
      $('#games-more').classList.add('hidden');
      /** @type {HTMLDialogElement} */ ($('#dlg-games')).showModal();
      return loadPage(null);
    },
  };
}
