// @ts-check
// The Tournaments page (`#/tournaments`): the tournaments playing now,
// those starting soon (each with its countdown, live), the finished ones,
// and the form that makes a new one (tournaments/form.js).

import { tournaments } from '../api.js';
import { t, plural } from '../i18n.js';
import { tourName, termsText, whenText, tourError, el, dateTime } from './format.js';
import { setupForm } from './form.js';
import { frozen } from '../frozen.js';
import { setText } from '../ui/el.js';

/** @typedef {import('../api.js').TournamentsView} TournamentsView */
/** @typedef {import('../api.js').TournamentSummary} TournamentSummary */

/**
 * The page's state: the lists as last asked, the error of asking, the
 * countdown's timer, and whether the form is open.
 * @typedef {{ lists: TournamentsView | null, error: string, timer: ReturnType<typeof setInterval> | undefined,
 *   formOpen: boolean, seq: number, loadedAt: number }} ListState
 */

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const SECTIONS = frozen(/** @type {const} */ (['running', 'upcoming', 'finished']));

/** @param {TournamentSummary} s @param {number} now */
function item(s, now) {
  const li = el('li', 'tour-item');
  li.dataset.id = s.id;
  li.dataset.state = s.state;
  const a = /** @type {HTMLAnchorElement} */ (el('a', 'tour-item-name', tourName(s)));
  a.href = `#/tournament/${s.id}`;
  const when = el('span', 'tour-when', whenText(s, now));
  if (s.state === 'upcoming') when.title = dateTime(s.starts_at);
  li.append(a, el('span', 'muted small tour-terms', termsText(s)), el('span', 'small tour-count', plural('tour.players', s.players)), when);
  return li;
}

/** @param {ListState} view */
function render(view) {
  $('#tournaments-error').textContent = view.error;
  $('#tournaments-error').classList.toggle('hidden', !view.error);
  const now = Date.now();
  for (const name of SECTIONS) {
    const list = $(`#tour-${name}`);
    const items = view.lists ? view.lists[name] : [];
    list.replaceChildren(...items.map((s) => item(s, now)));
    $(`#tour-${name}-empty`).classList.toggle('hidden', !view.lists || items.length > 0);
  }
  const toggle = $('#btn-new-tournament');
  toggle.setAttribute('aria-expanded', String(view.formOpen));
  $('#tour-create').classList.toggle('hidden', !view.formOpen);
}

/** Only the countdowns, every second. @param {ListState} view */
function tick(view) {
  if (!view.lists) return;
  const now = Date.now();
  for (const s of [...view.lists.upcoming, ...view.lists.running]) {
    const when = document.querySelector(`#tournaments-lists li[data-id="${s.id}"] .tour-when`);
    if (when) setText(/** @type {HTMLElement} */ (when), whenText(s, now));
  }
  // One due to start (or an arena due to end): the lists are asked again, every 5 s at most.
  const due = view.lists.upcoming.some((s) => s.starts_at <= now) || view.lists.running.some((s) => !!s.ends_at && s.ends_at <= now);
  if (due && now - view.loadedAt > 5000) load(view);
}

/** @param {ListState} view */
async function load(view) {
  const seq = ++view.seq;
  view.loadedAt = Date.now();
  const r = await tournaments.list();
  if (seq !== view.seq) return;
  if (r.ok) view.lists = r.value;
  view.error = r.ok ? '' : tourError(r.error);
  render(view);
  document.body.dataset.tournaments = view.lists ? 'ready' : 'error';
}

/**
 * The Tournaments page; `go` takes the app to an address (a tournament
 * just made).
 * @param {{ i18n: import('../i18n.js').I18n, go: (hash: string) => void }} deps
 * @returns {import('../router.js').Page}
 */
export function createTournamentsPage({ i18n, go }) {
  /** @type {ListState} */
  const view = { lists: null, error: '', timer: undefined, formOpen: false, seq: 0, loadedAt: 0 };
  const form = setupForm($('#tour-create'), { created: (id) => go(`#/tournament/${id}`) });
  $('#btn-new-tournament').addEventListener('click', () => {
    view.formOpen = !view.formOpen;
    if (view.formOpen) form.reset();
    render(view);
    if (view.formOpen) /** @type {HTMLElement} */ (document.querySelector('#form-tournament select'))?.focus();
  });
  i18n.onChange(() => {
    form.render();
    if (document.body.dataset.page === 'tournaments') render(view);
  });
  return {
    name: 'tournaments',
    enter() {
      document.title = `${t('tour.title')} — ${t('page.title')}`;
      render(view);
      clearInterval(view.timer);
      view.timer = setInterval(() => tick(view), 1000);
      return load(view);
    },
    leave() {
      clearInterval(view.timer);
      view.timer = undefined;
      view.seq++;
      view.formOpen = false;
      delete document.body.dataset.tournaments;
      document.title = t('page.title');
    },
  };
}
