// @ts-check
// The form that makes a tournament (on the Tournaments page): its kind,
// name, game, clock, rated or not, start, an arena's minutes or a Swiss's
// rounds, and the most players. What the server would refuse is said
// before sending (in the page's language); what it refuses anyway
// (a rated tournament for a guest, five made today) is said under the form.

import { tournaments } from '../api.js';
import { t, applyI18n } from '../i18n.js';
import { clockText, tourError } from './format.js';
import { choicesHtml } from '../ui/choices.js';
import { frozen } from '../frozen.js';

/** @typedef {import('../api.js').TournamentRequest} TournamentRequest */
/** @typedef {import('../api.js').TournamentKind} TournamentKind */

/** The clocks offered: [base seconds, increment seconds]. */
const CLOCKS = frozen([[60, 0], [120, 1], [180, 0], [180, 2], [300, 0], [300, 3], [600, 0], [600, 5], [900, 10]]);
/** Correspondence (a Swiss or a round robin): days per move. */
const DAYS = frozen([1, 2, 3, 5, 7, 14]);
const NAME = /^[\p{L}\p{N} _'-]{2,40}$/u;
const MAX_LEAD_MS = 30 * 24 * 3600 * 1000;

/**
 * The form's own state: sending, and what it says under the fields.
 * @typedef {{ sending: boolean, error: string }} FormState
 */

export const FORM_HTML = `<form id="form-tournament" class="tour-form" novalidate>
  <h2 id="tour-form-title" data-i18n="tour.form_title">New tournament</h2>
  <label><span data-i18n="tour.form_kind">Kind</span>
    <select name="kind">
      <option value="arena" data-i18n="tour.kind.arena">Arena</option>
      <option value="swiss" data-i18n="tour.kind.swiss">Swiss system</option>
      <option value="round_robin" data-i18n="tour.kind.round_robin">Round robin</option>
    </select>
  </label>
  <label><span data-i18n="tour.form_name">Name</span>
    <input name="name" type="text" maxlength="40" autocomplete="off" required>
  </label>
  <label><span data-i18n="new.game">Game</span>
    <select name="variant">${choicesHtml('games')}</select>
  </label>
  <label><span data-i18n="tour.form_clock">Clock</span> <select name="clock"></select></label>
  <label><span data-i18n="tour.form_start">Starts at</span> <input name="starts_at" type="datetime-local" required></label>
  <label class="tour-minutes"><span data-i18n="tour.form_minutes">Length (minutes)</span>
    <input name="minutes" type="number" min="10" max="180" value="30"></label>
  <label class="tour-rounds hidden"><span data-i18n="tour.form_rounds">Rounds</span>
    <input name="rounds" type="number" min="3" max="15" value="5"></label>
  <p class="tour-rr-note muted small hidden" data-i18n="tour.form_rr_note"></p>
  <label><span data-i18n="tour.form_max">Most players</span>
    <input name="max_players" type="number" min="2" max="1000" value="100"></label>
  <label class="check"><input type="checkbox" name="rated"> <span data-i18n="tour.form_rated">Rated</span></label>
  <p class="form-error hidden" id="tour-form-error" role="alert"></p>
  <button type="submit" class="primary" id="btn-create-tournament" data-i18n="tour.form_submit">Create the tournament</button>
</form>`;

/** A `datetime-local` value for `ms`, in local time. @param {number} ms */
function localValue(ms) {
  const d = new Date(ms);
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * The request the form says, or what is wrong with it (in words).
 * @param {HTMLFormElement} form @param {number} now
 * @returns {{ ok: true, req: TournamentRequest } | { ok: false, error: string, field: string }}
 */
export function readForm(form, now) {
  const f = /** @type {any} */ (form.elements);
  const kind = /** @type {TournamentKind} */ (f.kind.value);
  const name = String(f.name.value).trim();
  if (!NAME.test(name)) return { ok: false, error: t('tour.check_name'), field: 'name' };
  const startsAt = new Date(f.starts_at.value).getTime();
  if (!Number.isFinite(startsAt) || startsAt <= now || startsAt > now + MAX_LEAD_MS) {
    return { ok: false, error: t('tour.check_start'), field: 'starts_at' };
  }
  const clockValue = String(f.clock.value);
  const days = clockValue.startsWith('d') ? Number(clockValue.slice(1)) : null;
  if (days && kind === 'arena') return { ok: false, error: t('tour.check_days'), field: 'clock' };
  const [base, inc] = clockValue.split('+').map(Number);
  const most = kind === 'round_robin' ? 30 : 1000;
  const max = Number(f.max_players.value);
  if (!Number.isInteger(max) || max < 2 || max > most) return { ok: false, error: t('tour.check_max', { most }), field: 'max_players' };
  /** @type {TournamentRequest} */
  const req = {
    kind, name, variant: f.variant.value, clock: days ? null : { base_seconds: base, increment_seconds: inc },
    rated: !!f.rated.checked, starts_at: startsAt, max_players: max,
  };
  if (days) req.days = days;
  if (kind === 'arena') {
    const m = Number(f.minutes.value);
    if (!Number.isInteger(m) || m < 10 || m > 180) return { ok: false, error: t('tour.check_minutes'), field: 'minutes' };
    req.minutes = m;
  } else if (kind === 'swiss') {
    const r = Number(f.rounds.value);
    if (!Number.isInteger(r) || r < 3 || r > 15) return { ok: false, error: t('tour.check_rounds'), field: 'rounds' };
    req.rounds = r;
  }
  return { ok: true, req };
}

/**
 * Sets up the form under `root`: `created(id)` once the server made it.
 * Returns `render` (a new language) and `reset` (a fresh start time).
 * @param {HTMLElement} root @param {{ created: (id: string) => void }} deps
 */
export function setupForm(root, { created }) {
  root.innerHTML = FORM_HTML;
  const form = /** @type {HTMLFormElement} */ (root.querySelector('form'));
  const f = /** @type {any} */ (form.elements);
  const error = /** @type {HTMLElement} */ (root.querySelector('#tour-form-error'));
  const submit = /** @type {HTMLButtonElement} */ (root.querySelector('#btn-create-tournament'));
  /** @type {FormState} */
  const state = { sending: false, error: '' };

  function render() {
    applyI18n(root);
    const clock = /** @type {HTMLSelectElement} */ (f.clock);
    const chosen = clock.value || '180+2';
    clock.innerHTML = '';
    for (const [b, i] of CLOCKS) {
      const v = `${b}+${i}`;
      clock.add(new Option(clockText({ base_seconds: b, increment_seconds: i }), v, false, v === chosen));
    }
    for (const d of DAYS) clock.add(new Option(t(`corr.option_${d}`), `d${d}`, false, `d${d}` === chosen));
    const kind = f.kind.value;
    /** @type {HTMLElement} */ (root.querySelector('.tour-minutes')).classList.toggle('hidden', kind !== 'arena');
    /** @type {HTMLElement} */ (root.querySelector('.tour-rounds')).classList.toggle('hidden', kind !== 'swiss');
    /** @type {HTMLElement} */ (root.querySelector('.tour-rr-note')).classList.toggle('hidden', kind !== 'round_robin');
    f.max_players.max = kind === 'round_robin' ? '30' : '1000';
    error.textContent = state.error;
    error.classList.toggle('hidden', !state.error);
    submit.disabled = state.sending;
    submit.textContent = t(state.sending ? 'tour.form_sending' : 'tour.form_submit');
  }

  function reset() {
    // Ten minutes from now, on a whole five minutes.
    const five = 5 * 60 * 1000;
    f.starts_at.value = localValue(Math.ceil((Date.now() + 10 * 60 * 1000) / five) * five);
    state.error = '';
    render();
  }

  f.kind.addEventListener('change', () => {
    if (f.kind.value === 'round_robin' && Number(f.max_players.value) > 30) f.max_players.value = '30';
    render();
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (state.sending) return;
    const read = readForm(form, Date.now());
    if (!read.ok) {
      state.error = read.error;
      render();
      f[read.field].focus();
      return;
    }
    state.sending = true;
    state.error = '';
    render();
    const r = await tournaments.create(read.req);
    state.sending = false;
    state.error = r.ok ? '' : tourError(r.error);
    render();
    if (r.ok) created(r.value.id);
  });
  reset();
  return { render, reset };
}
