// @ts-check
// The lists the site's forms choose from (games, clocks, colours), written
// once. Markup names a list (`<select data-choices="games">`) and the
// page's entry function fills it (`fillChoices`) before anything reads the
// form; forms made in script put `choicesHtml(list)` in their template.
// The texts are the English fallbacks: `applyI18n` translates by key.
// `chosenClock` reads a form's clock back as a request's clock.

import { frozen } from '../frozen.js';

/** @typedef {'games' | 'clocks' | 'challenge-clocks' | 'colours' | 'colours-white-first'} ChoiceList */

/** @typedef {[value: string, key: string, english: string]} Choice */

/** @type {Choice[]} */
const GAMES = frozen([
  ['tensor', 'game.tensor', 'Tensor Chess'],
  ['chess', 'game.chess', 'Chess'],
  ['chessence', 'game.chessence', 'Chessence'],
]);

/** The live clocks, the first choice of every clock list. @type {Choice[]} */
const CLOCKS = frozen([
  ['none', 'new.no_clock', 'No clock'],
  ['60+0', 'new.clock_1', '1 minute'],
  ['180+2', 'new.clock_3_2', '3 minutes + 2 seconds a move'],
  ['300+3', 'new.clock_5_3', '5 minutes + 3 seconds a move'],
  ['600+5', 'new.clock_10_5', '10 minutes + 5 seconds a move'],
  ['900+10', 'new.clock_15_10', '15 minutes + 10 seconds a move'],
  ['1800+0', 'new.clock_30', '30 minutes'],
]);

/** The clock a list starts on. */
const DEFAULT_CLOCK = '300+3';

/** @type {Choice} */
const OTHER_CLOCK = frozen(['custom', 'new.clock_other', 'Other…']);

/** Correspondence, days a move (a challenge may be one; a seek may not). @type {Choice[]} */
const DAYS = frozen([1, 2, 3, 5, 7, 14].map((d) => /** @type {Choice} */ (
  [`d${d}`, `corr.option_${d}`, `Correspondence: ${d} day${d === 1 ? '' : 's'} a move`])));

/** @type {Record<string, Choice>} */
const COLOUR = frozen({
  random: ['random', 'new.random', 'Random'],
  white: ['white', 'color.white', 'White'],
  black: ['black', 'color.black', 'Black'],
});

/** @param {ChoiceList} list @returns {Choice[]} */
function choices(list) {
  switch (list) {
    case 'games': return GAMES;
    case 'clocks': return [...CLOCKS, OTHER_CLOCK];
    case 'challenge-clocks': return [...CLOCKS, ...DAYS];
    case 'colours': return [COLOUR.random, COLOUR.white, COLOUR.black];
    case 'colours-white-first': return [COLOUR.white, COLOUR.black, COLOUR.random];
  }
}

/** The `<option>`s of a list. @param {ChoiceList} list @returns {string} */
export function choicesHtml(list) {
  return choices(list).map(([value, key, english]) => {
    const selected = value === DEFAULT_CLOCK ? ' selected' : '';
    return `<option value="${value}"${selected} data-i18n="${key}">${english}</option>`;
  }).join('');
}

/** Fills every `<select data-choices>` under `root` with its list. @param {ParentNode} root */
export function fillChoices(root) {
  for (const select of root.querySelectorAll('select[data-choices]')) {
    const list = /** @type {ChoiceList} */ (/** @type {HTMLSelectElement} */ (select).dataset.choices);
    select.innerHTML = choicesHtml(list);
  }
}

/**
 * The clock a form's `clock` list (`clocks`) says: none, one of the list,
 * or "Other…" with its `base_minutes` and `increment_seconds` fields.
 * @param {HTMLFormElement & Record<string, any>} f
 * @returns {import('../api.js').ClockSpec | null}
 */
export function chosenClock(f) {
  const v = f.clock.value;
  if (v === 'none') return null;
  if (v === 'custom') {
    return {
      base_seconds: Math.round(parseFloat(f.base_minutes.value || '0') * 60),
      increment_seconds: parseInt(f.increment_seconds.value || '0', 10),
    };
  }
  const [base, inc] = v.split('+').map((/** @type {string} */ x) => parseInt(x, 10));
  return { base_seconds: base, increment_seconds: inc };
}
