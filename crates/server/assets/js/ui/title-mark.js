// @ts-check
// The mark shown before a player's name when the server gives them a title
// (`BOT` for a bot account, as lichess marks bots): the game page's player
// bars, the chat, challenges, profiles, tournament standings all draw it
// here, so it looks the same everywhere a name is shown.

import { t } from '../i18n.js';

/**
 * The mark of a title before a name.
 * @param {string} title
 * @returns {HTMLSpanElement}
 */
export function titleMark(title) {
  const mark = document.createElement('span');
  mark.className = 'title-mark';
  // The title itself is not translated (lichess shows BOT in every
  // language); what it means is, on hover.
  mark.textContent = title;
  if (title === 'BOT') mark.title = t('title.bot_hint');
  mark.dataset.title = title;
  return mark;
}
