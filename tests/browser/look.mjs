// A look at the pages (not a test): screenshots at desktop and phone size,
// in both languages, into screenshots/look-*.png. Usage: node look.mjs URL
// [all|lobby|game|rules]
import { openBrowser, shot, settled, openLobby, firstGame, DESKTOP, PHONE } from './lib.mjs';

const url = process.argv[2];
const which = process.argv[3] || 'all';
for (const [vp, mobile, size] of [[DESKTOP, false, 'desktop'], [PHONE, true, 'phone']]) {
  for (const lang of ['en', 'uk']) {
    const b = await openBrowser({ viewport: vp, mobile });
    const page = b.page;
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') console.log(size, lang, m.type(), m.text()); });
    await page.addInitScript((l) => localStorage.setItem('tensorchess.lang', l), lang);
    if (which === 'all' || which === 'lobby') {
      await openLobby(page, url);
      await settled(page);
      await shot(page, `look-lobby-${size}-${lang}`);
    }
    if (which === 'all' || which === 'game') {
      await firstGame(page, url); // a game against the engine (the page makes none by itself)
      await settled(page);
      await shot(page, `look-game-${size}-${lang}`);
    }
    if (which === 'all' || which === 'rules') {
      await page.goto(`${url}/rules.html`);
      await page.waitForFunction(() => document.body.dataset.loaded === '1');
      await shot(page, `look-rules-${size}-${lang}`);
    }
    console.log(size, lang, page.errors);
    await b.close();
  }
}
