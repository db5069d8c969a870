// @ts-check
// Українські рядки про ботів і їхніх авторів: сторінка «Боти», API-токени
// на сторінці облікового запису, сторінка документації API і нижній
// колонтитул сайту (додаються до uk.js).

import { frozen } from '../frozen.js';

/** @type {Record<string, string>} */
export default frozen({
  'nav.bots': 'Боти',
  'footer.nav': 'Інше на сайті',
  'footer.bots': 'Боти',
  'footer.api': 'API для ботів і дошок',
  'footer.account': 'API-токени',

  'bots.title': 'Боти',
  'bots.intro': 'Програми, які грають тут через Bot API. Викличте бота, що зараз онлайн, або напишіть власного: прочитайте <a href="/docs/bots">документацію Bot API і Board API</a> та створіть токен на <a href="/#/account">сторінці облікового запису</a>.',
  'bots.online_title': 'Зараз онлайн',
  'bots.offline_title': 'Не в мережі',
  'bots.none_online': 'Зараз жоден бот не онлайн.',
  'bots.none': 'Ботів ще немає: напишіть першого.',
  'bots.online': 'онлайн',
  'bots.offline': 'не в мережі',
  'bots.ratings': 'Рейтинги',

  'tokens.page_title': 'Ваш обліковий запис',
  'tokens.signed_in': 'Ви увійшли як {username}',
  'tokens.title': 'API-токени',
  'tokens.intro': 'Особистий API-токен дає програмі змогу грати за цей обліковий запис: боту — через Bot API, а вашим партіям з дошки чи власного клієнта — через Board API. Як це працює: <a href="/docs/bots">документація Bot API і Board API</a>.',
  'tokens.guest': 'API-токени є лише в облікового запису: спершу зареєструйтеся або увійдіть.',
  'tokens.new_title': 'Новий токен',
  'tokens.description': 'Для чого він',
  'tokens.description_hint': 'Назва, за якою ви його впізнаєте, наприклад назва програми (не більше 100 символів).',
  'tokens.scopes': 'Що йому дозволено',
  'tokens.scope.bot_play': 'Грати як обліковий запис бота (Bot API; ботом може стати лише новий обліковий запис без партій)',
  'tokens.scope.board_play': 'Грати партії цього облікового запису з програми (Board API)',
  'tokens.scope.challenge_write': 'Надсилати, приймати й відхиляти виклики',
  'tokens.create': 'Створити токен',
  'tokens.error_description': 'Напишіть, для чого цей токен.',
  'tokens.error_scopes': 'Виберіть принаймні одну дозволену дію.',
  'tokens.error_too_many': 'Обліковий запис може мати не більше 20 токенів: спершу відкличте якийсь.',
  'tokens.made_title': 'Ваш новий токен',
  'tokens.made_note': 'Скопіюйте його зараз: його показано лише цей раз. Сервер зберігає тільки його хеш, тож ніхто не зможе показати його вам знову.',
  'tokens.token_label': 'Новий токен',
  'tokens.done': 'Готово',
  'tokens.list_title': 'Ваші токени',
  'tokens.none': 'Токенів ще немає.',
  'tokens.created': 'створено {date}',
  'tokens.used': 'востаннє використано {date}',
  'tokens.never_used': 'ще не використовувався',
  'tokens.revoke': 'Відкликати',
  'tokens.revoke_label': 'Відкликати токен «{description}»',
  'tokens.revoke_confirm': 'Відкликати токен «{description}»? Програмі, яка ним користується, відтепер буде відмовлено.',
  'tokens.revoked': 'Токен «{description}» відкликано.',

  'docs.title': 'API для ботів і дошок — Шахи Тензор',
  'docs.lead': 'Для програмістів: як програма грає на цьому сайті. Сторінка <a href="/#/bots">«Боти»</a> показує всіх ботів; токени створюють на <a href="/#/account">сторінці облікового запису</a>. Документацію написано англійською.',
});
