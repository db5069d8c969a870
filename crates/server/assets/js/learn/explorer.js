// @ts-check
// The opening explorer's panel on the analysis board (issue 42): the moves
// played on this server from the position shown, each with its games,
// results, average rating and the engine's evaluation of the position
// after it (a click plays the move); the top games through the position;
// the filters (rated, speeds, rating bands) ask again. The answers are the
// server's (`GET /api/explorer`); the panel keeps only what it shows.
// Below it, links to the games through the position of the account
// logged in and of the analysed game's players: their profiles' search
// (`/#/player/NAME?variant=…&play=…`), run at once.

import { learn, scoreText } from './net.js';
import { t } from '../i18n.js';
import { frozen } from '../frozen.js';

/** @typedef {import('./net.js').ExplorerAnswer} ExplorerAnswer */
/** @typedef {import('./net.js').ExplorerMove} ExplorerMove */

/** lichess's speeds and rating bands, as the API names them. */
export const SPEEDS = frozen(['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence']);
export const BANDS = frozen([0, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2500]);

/** How often, and how long apart, the panel asks again for evaluations being made. */
const EVAL_RETRIES = 3;
const EVAL_RETRY_MS = 1500;

/** A share of `n` in `total`, as a whole percent. @param {number} n @param {number} total */
const percent = (n, total) => (total ? Math.round((n * 100) / total) : 0);

/**
 * The address of `username`'s games through the position after `moves`
 * from `fen` (the start when empty) of `variant`: the profile's search.
 * @param {string} username @param {string} variant @param {string} fen @param {string[]} moves
 */
export function gamesThroughHref(username, variant, fen, moves) {
  const q = new URLSearchParams({ variant });
  if (fen) q.set('fen', fen);
  if (moves.length) q.set('play', moves.join(','));
  return `/#/player/${encodeURIComponent(username)}?${q}`;
}

/**
 * Whose games through the position are linked: `username`, and whether
 * it is the account logged in ("My games…").
 * @typedef {{ username: string, mine: boolean }} Searcher
 */

/**
 * The panel in `root` (its filters and table are made here); `onPlay`
 * plays a move on the board; `searchers` says whose games through the
 * position to link to (none: no links).
 * @param {{ root: HTMLElement, onPlay: (uci: string) => void, searchers?: () => Searcher[] }} opts
 */
export function explorerPanel({ root, onPlay, searchers = () => [] }) {
  const panel = {
    variant: 'tensor',
    fen: '',
    /** @type {string[]} */
    moves: [],
    /** @type {ExplorerAnswer | null} */
    answer: null,
    /** @type {string | null} */
    error: null,
    /** Answers to older asks are dropped: the position may have moved on. */
    asked: 0,
    /** Asks again for evaluations still being made, a few times. */
    retries: 0,
    /** @type {ReturnType<typeof setTimeout> | null} */
    retry: null,
  };

  root.innerHTML = `
    <h2 class="explorer-title" data-i18n="explorer.title">${t('explorer.title')}</h2>
    <details class="explorer-filters">
      <summary data-i18n="explorer.filters">${t('explorer.filters')}</summary>
      <label><input type="checkbox" id="explorer-rated"> <span data-i18n="explorer.rated">${t('explorer.rated')}</span></label>
      <div class="explorer-speeds" role="group" aria-label="${t('explorer.speeds')}" data-i18n-attr="aria-label:explorer.speeds">
        ${SPEEDS.map((s) => `<label><input type="checkbox" name="explorer-speed" value="${s}"> <span data-i18n="explorer.speed.${s}">${t(`explorer.speed.${s}`)}</span></label>`).join('')}
      </div>
      <div class="explorer-bands" role="group" aria-label="${t('explorer.ratings')}" data-i18n-attr="aria-label:explorer.ratings">
        ${BANDS.map((b) => `<label><input type="checkbox" name="explorer-band" value="${b}"> <span>${b}</span></label>`).join('')}
      </div>
    </details>
    <div id="explorer-body" class="explorer-body" aria-live="polite"></div>
    <ul id="explorer-search" class="explorer-search"></ul>`;
  root.addEventListener('change', () => ask());

  /** The filters chosen, as the API's query (none checked: every game). */
  function filters() {
    /** @param {string} name */
    const checked = (name) => [...root.querySelectorAll(`input[name="${name}"]:checked`)]
      .map((e) => /** @type {HTMLInputElement} */ (e).value);
    const rated = /** @type {HTMLInputElement} */ (root.querySelector('#explorer-rated')).checked;
    return { rated, speeds: checked('explorer-speed'), ratings: checked('explorer-band') };
  }

  async function ask() {
    const mine = ++panel.asked;
    if (panel.retry) clearTimeout(panel.retry);
    panel.retry = null;
    root.setAttribute('aria-busy', 'true');
    try {
      const answer = await learn.explorer(panel.variant, panel.fen, panel.moves, filters());
      if (mine !== panel.asked) return;
      panel.answer = answer;
      panel.error = null;
    } catch (e) {
      if (mine !== panel.asked) return;
      panel.answer = null;
      panel.error = /** @type {any} */ (e).message || String(e);
    }
    root.removeAttribute('aria-busy');
    render();
    // The server evaluates the positions after the moves in the background
    // once asked: ask again a little later (a few times) for those missing.
    const a = panel.answer;
    if (a && a.moves.some((m) => !m.eval) && panel.retries < EVAL_RETRIES) {
      panel.retries += 1;
      panel.retry = setTimeout(() => { if (mine === panel.asked) ask(); }, EVAL_RETRY_MS);
    }
  }

  /** The links to the games through the position, each to a profile's search. */
  function renderSearchLinks() {
    const list = /** @type {HTMLElement} */ (root.querySelector('#explorer-search'));
    // No position yet: nothing to link to.
    list.replaceChildren(...(panel.asked ? searchers() : []).map(({ username, mine }) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.className = 'explorer-games-link';
      a.dataset.username = username;
      a.href = gamesThroughHref(username, panel.variant, panel.fen, panel.moves);
      a.textContent = mine ? t('explorer.my_games') : t('explorer.their_games', { name: username });
      li.appendChild(a);
      return li;
    }));
  }

  function render() {
    renderSearchLinks();
    const body = /** @type {HTMLElement} */ (root.querySelector('#explorer-body'));
    body.innerHTML = '';
    if (panel.error) {
      body.textContent = panel.error;
      return;
    }
    const a = panel.answer;
    if (!a) return;
    if (!a.moves.length) {
      const p = document.createElement('p');
      p.className = 'muted explorer-none';
      p.textContent = t('explorer.none');
      body.appendChild(p);
      return;
    }
    const table = document.createElement('table');
    table.className = 'explorer-table';
    table.innerHTML = `<thead><tr><th scope="col">${t('explorer.move')}</th><th scope="col">${t('explorer.games')}</th>
      <th scope="col">${t('explorer.results')}</th><th scope="col">${t('explorer.rating')}</th>
      <th scope="col">${t('explorer.eval')}</th></tr></thead>`;
    const tbody = document.createElement('tbody');
    for (const m of a.moves) tbody.appendChild(moveRow(m));
    table.appendChild(tbody);
    const total = a.white + a.draws + a.black;
    const foot = document.createElement('tfoot');
    foot.innerHTML = `<tr><th scope="row">${t('explorer.total')}</th><td class="explorer-total">${total}</td>
      <td>${results(a.white, a.draws, a.black)}</td><td></td><td></td></tr>`;
    table.appendChild(foot);
    body.appendChild(table);
    if (a.topGames.length) {
      const h = document.createElement('h3');
      h.textContent = t('explorer.top');
      const ol = document.createElement('ol');
      ol.className = 'explorer-top';
      for (const g of a.topGames) {
        const li = document.createElement('li');
        const link = document.createElement('a');
        link.href = `/#/game/${encodeURIComponent(g.id)}`;
        const name = (/** @type {{ name: string, rating: number | null }} */ p) => `${p.name}${p.rating ? ` (${p.rating})` : ''}`;
        const result = g.winner === 'white' ? '1-0' : g.winner === 'black' ? '0-1' : '½-½';
        link.textContent = `${name(g.white)} – ${name(g.black)} ${result} ${g.month}`;
        li.appendChild(link);
        ol.appendChild(li);
      }
      body.append(h, ol);
    }
  }

  /**
   * White wins, draws, Black wins as a bar of three parts, each part's
   * percent written on it when there is room.
   * @param {number} w @param {number} d @param {number} b
   */
  function results(w, d, b) {
    const total = w + d + b;
    const parts = [['w', w], ['d', d], ['b', b]].map(([side, n]) => {
      const p = percent(/** @type {number} */ (n), total);
      return `<span class="explorer-${side}" style="flex-grow:${p}">${p >= 15 ? `${p}%` : ''}</span>`;
    });
    const all = `${percent(w, total)}% / ${percent(d, total)}% / ${percent(b, total)}%`;
    return `<div class="explorer-bar" role="img" aria-label="${all}" title="${all}">${parts.join('')}</div>`;
  }

  /** @param {ExplorerMove} m */
  function moveRow(m) {
    const tr = document.createElement('tr');
    const games = m.white + m.draws + m.black;
    tr.innerHTML = `<td></td><td class="explorer-games">${games}</td><td>${results(m.white, m.draws, m.black)}</td>
      <td>${m.averageRating ?? ''}</td><td class="explorer-eval"></td>`;
    const play = document.createElement('button');
    play.type = 'button';
    play.className = 'explorer-move';
    play.dataset.uci = m.uci;
    play.textContent = m.san;
    play.title = t('explorer.play');
    play.addEventListener('click', () => onPlay(m.uci));
    /** @type {HTMLElement} */ (tr.firstElementChild).appendChild(play);
    if (m.eval) {
      const cell = /** @type {HTMLElement} */ (tr.querySelector('.explorer-eval'));
      cell.textContent = scoreText(m.eval);
      cell.title = t('analysis.depth', { depth: m.eval.depth });
    }
    return tr;
  }

  return {
    /**
     * Shows the position after `moves` from `fen` of `variant`.
     * @param {string} variant @param {string} fen @param {string[]} moves
     */
    show(variant, fen, moves) {
      panel.retries = 0;
      panel.variant = variant;
      panel.fen = fen;
      panel.moves = moves;
      const asking = ask();
      renderSearchLinks();
      return asking;
    },
    /** Draws the answer again (the language changed: the page's applyI18n relabels the rest). */
    render,
  };
}
