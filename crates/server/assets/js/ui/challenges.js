// @ts-check
// Challenges, on every page with the header (createChallenges, made by the
// page's entry through ui/site.js): a bar under the header with the
// challenges received (accept, or decline with a reason) and those sent
// ("waiting…", withdraw; a decline said with its reason; an acceptance
// takes the challenger to the game), live on the WebSocket topic
// `challenges`; and the form that challenges a named player (a profile's
// Challenge button, the opponent's name after an online game).

import { social, topicOf } from '../api.js';
import { t, tNodes, nameLink, colorArgs, playerName, serverError, applyI18n, daysPerMove } from '../i18n.js';
import { clockShort, acceptorColor } from '../lobby/seeks.js';
import { titleMark } from './title-mark.js';
import { choicesHtml } from './choices.js';
import { el } from './el.js';

/** @typedef {import('../api.js').ChallengeView} ChallengeView */
/** @typedef {import('../api.js').ChallengeRequest} ChallengeRequest */
/** @typedef {import('../api.js').Live} Live */
/** @typedef {import('../i18n.js').I18n} I18n */
/** @typedef {import('../player.js').Player} Player */

/**
 * The page's challenges: those received and sent (open), what the
 * challenger is told (a decline and its reason, a lapse), the challenge
 * being declined (its reason asked for), and the form's player.
 * @typedef {{ incoming: ChallengeView[], outgoing: ChallengeView[], notes: { id: string, text: string }[],
 *   declining: string | null, busy: Set<string>, error: string,
 *   form: { to: string, name: string, error: string, sending: boolean } | null }} ChallengesState
 */

/** @param {string} html @returns {HTMLElement} */
function node(html) {
  const d = document.createElement('div');
  d.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (d.firstElementChild);
}

/** @param {string} text @param {string} [cls] @param {() => void} [onClick] */
function button(text, cls, onClick) {
  const b = /** @type {HTMLButtonElement} */ (el('button', cls, text));
  b.type = 'button';
  if (onClick) b.addEventListener('click', onClick);
  return b;
}

const BAR = `<section id="challenges" class="challenges hidden" aria-labelledby="challenges-title">
  <h2 id="challenges-title" class="visually-hidden"></h2>
  <ul id="challenge-list" class="challenge-list"></ul>
  <p id="challenges-said" class="visually-hidden" aria-live="polite"></p>
</section>`;

const FORM = `<dialog id="dlg-challenge" aria-labelledby="dlg-challenge-title">
  <form id="form-challenge" novalidate>
    <h2 id="dlg-challenge-title"></h2>
    <label><span data-i18n="new.game">Game</span>
      <select name="variant">${choicesHtml('games')}</select>
    </label>
    <label><span data-i18n="new.clock">Clock</span>
      <select name="clock">${choicesHtml('challenge-clocks')}</select>
    </label>
    <label><span data-i18n="new.you_play">You play</span>
      <select name="color">${choicesHtml('colours')}</select>
    </label>
    <label class="check"><input type="checkbox" name="rated" aria-describedby="challenge-rated-note"> <span data-i18n="seek.rated_label">Rated</span></label>
    <p id="challenge-rated-note" class="muted small"></p>
    <p class="form-error hidden" id="challenge-error" role="alert"></p>
    <div class="dialog-buttons">
      <button type="button" id="challenge-cancel" data-i18n="common.cancel">Cancel</button>
      <button type="submit" class="primary" id="challenge-send" data-i18n="challenge.send">Send the challenge</button>
    </div>
  </form>
</dialog>`;

const $ = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (document.querySelector(sel));

/** What a challenge is for, as its player reads it: the game, the clock, rated or not, their colour. @param {ChallengeView} c */
export function challengeTerms(c) {
  const color = c.direction === 'out' ? c.color : acceptorColor(c.color);
  return [
    t(`game.${c.variant}`),
    clockShort(c.clock) || (c.days ? daysPerMove(c.days) : t('seek.no_clock')),
    t(c.rated ? 'seek.rated' : 'seek.casual'),
    color === 'random' ? t('seek.you_play_random') : t('seek.you_play', colorArgs(color)),
  ].join(' · ');
}

/** The game the player is taken to: the app's route, from any page. @param {string} id */
function goToGame(id) {
  if (location.pathname === '/' || location.pathname === '/index.html') location.hash = `#/game/${id}`;
  else location.href = `/#/game/${encodeURIComponent(id)}`;
}

/**
 * Shows the player's challenges under the header of this page and follows
 * them live; nothing happens before a page's entry calls it.
 * @param {{ live: Live, i18n: I18n, player: Player, openGame?: (id: string) => void }} deps
 */
export function createChallenges({ live, i18n, player, openGame = goToGame }) {
  /** @type {ChallengesState} */
  const state = { incoming: [], outgoing: [], notes: [], declining: null, busy: new Set(), error: '', form: null };
  const header = document.querySelector('header.top');
  const bar = node(BAR);
  if (header) header.after(bar);
  else document.body.prepend(bar);
  // The board leaves room for the bar while it shows (--bar-h, app.css), so
  // the player's own name and clock stay on the screen.
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(() => {
      document.documentElement.style.setProperty('--bar-h', `${bar.classList.contains('hidden') ? 0 : bar.offsetHeight}px`);
    }).observe(bar);
  }
  const dialog = /** @type {HTMLDialogElement} */ (node(FORM));
  document.body.append(dialog);
  const form = /** @type {HTMLFormElement} */ (dialog.querySelector('form'));

  live.listen((msg) => {
    if (topicOf(msg) !== 'challenges') return;
    if (msg.type === 'challenges') {
      state.incoming = msg.challenges.in || [];
      state.outgoing = msg.challenges.out || [];
      render();
    } else if (msg.type === 'challenge') {
      news(msg.event, /** @type {ChallengeView} */ (msg.challenge));
    }
  });
  live.follow('challenges', 'challenges');

  /** @param {string} id */
  function drop(id) {
    state.incoming = state.incoming.filter((c) => c.id !== id);
    state.outgoing = state.outgoing.filter((c) => c.id !== id);
    if (state.declining === id) state.declining = null;
  }

  /** @param {string} id @param {string} text */
  function note(id, text) {
    state.notes = state.notes.filter((n) => n.id !== id).concat({ id, text });
    say(text);
  }

  /** Read out to screen readers. @param {string} text */
  function say(text) {
    const said = $('#challenges-said');
    said.textContent = '';
    setTimeout(() => { said.textContent = text; }, 30);
  }

  /**
   * What became of a challenge (`created`, `accepted`, `declined`,
   * `canceled`, `expired`), as its two players hear it.
   * @param {string} event @param {ChallengeView} c
   */
  function news(event, c) {
    const out = c.direction === 'out';
    const other = playerName(out ? c.to.name : c.from.name);
    drop(c.id);
    if (event === 'created' && c.state === 'open') {
      (out ? state.outgoing : state.incoming).push(c);
      if (!out) say(t('challenge.from', { name: other, terms: challengeTerms(c) }));
    } else if (event === 'accepted' && out && c.game) {
      say(t('challenge.accepted', { name: other }));
      openGame(c.game);
    } else if (event === 'declined' && out) {
      note(c.id, c.reason ? t('challenge.declined_reason', { name: other, reason: c.reason }) : t('challenge.declined', { name: other }));
    } else if (event === 'canceled' && !out) {
      note(c.id, t('challenge.withdrawn', { name: other }));
    } else if (event === 'expired' && out) {
      note(c.id, t('challenge.expired', { name: other }));
    }
    render();
  }

  /** @param {ChallengeView} c */
  async function accept(c) {
    state.busy.add(c.id);
    render();
    const r = await social.accept(c.id);
    state.busy.delete(c.id);
    if (r.ok && r.value.game) {
      drop(c.id);
      render();
      openGame(r.value.game);
      return;
    }
    fail(c, r.ok ? null : r.error);
  }

  /** @param {ChallengeView} c @param {string} reason */
  async function decline(c, reason) {
    state.busy.add(c.id);
    render();
    const r = await social.decline(c.id, reason.trim());
    state.busy.delete(c.id);
    if (r.ok) {
      drop(c.id);
      render();
      return;
    }
    fail(c, r.error);
  }

  /** @param {ChallengeView} c */
  async function withdraw(c) {
    state.busy.add(c.id);
    render();
    const r = await social.withdraw(c.id);
    state.busy.delete(c.id);
    if (r.ok) {
      drop(c.id);
      render();
      return;
    }
    fail(c, r.error);
  }

  /**
   * A refusal: a challenge no longer open (answered meanwhile, withdrawn,
   * lapsed) leaves the list; anything else is said on it.
   * @param {ChallengeView} c @param {import('../api.js').ApiError | null} err
   */
  function fail(c, err) {
    if (!err || err.kind === 'game_over' || err.status === 404) {
      drop(c.id);
      note(c.id, t('challenge.gone'));
    } else {
      state.error = serverError(err);
    }
    render();
  }

  function render() {
    const list = $('#challenge-list');
    list.replaceChildren();
    $('#challenges-title').textContent = t('challenge.title');
    for (const c of state.incoming) list.append(incomingNode(c));
    for (const c of state.outgoing) list.append(outgoingNode(c));
    for (const n of state.notes) {
      const li = el('li', 'challenge note');
      li.dataset.id = n.id;
      li.append(el('span', 'challenge-text', n.text), button('×', 'challenge-close', () => {
        state.notes = state.notes.filter((x) => x !== n);
        render();
      }));
      const close = /** @type {HTMLElement} */ (li.lastElementChild);
      close.setAttribute('aria-label', t('common.close'));
      close.title = t('common.close');
      list.append(li);
    }
    if (state.error) list.append(el('li', 'challenge form-error', state.error));
    bar.classList.toggle('hidden', list.childElementCount === 0);
    document.body.dataset.challengesIn = String(state.incoming.length);
    document.body.dataset.challengesOut = String(state.outgoing.length);
  }

  /** @param {ChallengeView} c */
  function incomingNode(c) {
    const li = el('li', 'challenge incoming');
    li.dataset.id = c.id;
    const name = playerName(c.from.name);
    const text = el('span', 'challenge-text');
    if (c.from.title) text.append(titleMark(c.from.title), ' ');
    const from = el('strong');
    from.append(...tNodes('challenge.from_short', { name: nameLink(c.from.name, c.from.account) }));
    text.append(from, ' ', el('span', 'muted', challengeTerms(c)));
    li.append(text);
    const busy = state.busy.has(c.id);
    if (state.declining === c.id) {
      const f = /** @type {HTMLFormElement} */ (el('form', 'challenge-decline'));
      const label = /** @type {HTMLLabelElement} */ (el('label', '', t('challenge.reason')));
      const input = /** @type {HTMLInputElement} */ (el('input'));
      input.type = 'text';
      input.maxLength = 140;
      input.className = 'challenge-reason';
      input.id = `challenge-reason-${c.id}`;
      input.placeholder = t('challenge.reason_placeholder');
      label.htmlFor = input.id;
      const send = button(t('btn.decline'), 'challenge-decline-send');
      send.type = 'submit';
      send.disabled = busy;
      f.append(label, input, send, button(t('challenge.back'), 'challenge-back', () => { state.declining = null; render(); }));
      f.addEventListener('submit', (e) => { e.preventDefault(); decline(c, input.value); });
      li.append(f);
      return li;
    }
    const accept_ = button(t('btn.accept'), 'primary challenge-accept', () => accept(c));
    accept_.setAttribute('aria-label', t('challenge.accept_label', { name }));
    const decline_ = button(t('btn.decline'), 'challenge-decline-open', () => {
      state.declining = c.id;
      render();
      const input = /** @type {HTMLInputElement | null} */ (document.querySelector(`#challenge-reason-${CSS.escape(c.id)}`));
      if (input) input.focus();
    });
    decline_.setAttribute('aria-label', t('challenge.decline_label', { name }));
    accept_.disabled = busy;
    decline_.disabled = busy;
    li.append(accept_, decline_);
    return li;
  }

  /** @param {ChallengeView} c */
  function outgoingNode(c) {
    const li = el('li', 'challenge outgoing');
    li.dataset.id = c.id;
    const name = playerName(c.to.name);
    const text = el('span', 'challenge-text');
    text.append(el('span', 'spinner'), ' ');
    if (c.to.title) text.append(titleMark(c.to.title), ' ');
    const to = el('strong');
    to.append(...tNodes('challenge.waiting', { name: nameLink(c.to.name, c.to.account) }));
    text.append(to, ' ', el('span', 'muted', challengeTerms(c)));
    const w = button(t('challenge.withdraw'), 'challenge-withdraw', () => withdraw(c));
    w.setAttribute('aria-label', t('challenge.withdraw_label', { name }));
    w.disabled = state.busy.has(c.id);
    li.append(text, w);
    return li;
  }

  // ---- the form ------------------------------------------------------------------

  /**
   * Opens the form that challenges `username` (shown as `name`).
   * @param {string} username @param {string} name
   */
  function open(username, name) {
    state.form = { to: username, name, error: '', sending: false };
    const rated = /** @type {HTMLInputElement} */ (form.elements.namedItem('rated'));
    rated.checked = player.hasAccount();
    renderForm();
    dialog.showModal();
    /** @type {HTMLSelectElement} */ (form.elements.namedItem('variant')).focus();
  }

  function renderForm() {
    applyI18n(dialog);
    const f = state.form;
    if (!f) return;
    $('#dlg-challenge-title').textContent = t('challenge.form_title', { name: playerName(f.name) });
    const rated = /** @type {HTMLInputElement} */ (form.elements.namedItem('rated'));
    rated.disabled = !player.hasAccount();
    if (!player.hasAccount()) rated.checked = false;
    $('#challenge-rated-note').textContent = player.hasAccount() ? t('challenge.rated_note') : t('challenge.rated_guest');
    const err = $('#challenge-error');
    err.textContent = f.error;
    err.classList.toggle('hidden', !f.error);
    /** @type {HTMLButtonElement} */ ($('#challenge-send')).disabled = f.sending;
  }

  /** @returns {ChallengeRequest | null} */
  function request() {
    const f = state.form;
    if (!f) return null;
    const value = (/** @type {string} */ name) => /** @type {HTMLSelectElement} */ (form.elements.namedItem(name)).value;
    const clock = value('clock');
    const days = clock.startsWith('d') ? Number(clock.slice(1)) : null;
    const [base, inc] = clock.split('+').map(Number);
    return {
      to: f.to,
      variant: /** @type {import('../generated/events.js').VariantKind} */ (value('variant')),
      clock: clock === 'none' || days ? null : { base_seconds: base, increment_seconds: inc },
      days,
      rated: /** @type {HTMLInputElement} */ (form.elements.namedItem('rated')).checked,
      color: /** @type {'white' | 'black' | 'random'} */ (value('color')),
    };
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const f = state.form;
    const req = request();
    if (!f || !req || f.sending) return;
    f.sending = true;
    f.error = '';
    renderForm();
    const r = await social.challenge(req);
    f.sending = false;
    if (!r.ok) {
      const err = r.error;
      f.error = err.status === 404 ? t('challenge.no_player', { name: f.to })
        : err.kind === 'too_many' ? t('challenge.too_many') : serverError(err);
      renderForm();
      return;
    }
    drop(r.value.id);
    state.outgoing.push(r.value);
    state.form = null;
    dialog.close();
    render();
  });
  $('#challenge-cancel').addEventListener('click', () => { state.form = null; dialog.close(); });
  dialog.addEventListener('close', () => { state.form = null; });

  i18n.onChange(() => { render(); if (state.form) renderForm(); });
  // A new identity: the socket is opened again and the server sends this
  // player's challenges; until then nothing of the one before is shown.
  player.onChange((change) => {
    if (change === 'load' || change === 'name') return;
    state.incoming = [];
    state.outgoing = [];
    state.notes = [];
    state.declining = null;
    render();
  });
  render();

  return { state, open };
}
