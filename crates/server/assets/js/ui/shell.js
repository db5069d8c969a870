// @ts-check
// The page shell, written once for the pages (index.html, rules.html,
// lessons.html, puzzles.html, analysis.html, docs.html): the skip link, the
// header with the site's links, the footer, the live region that screen
// readers read out, and the page's icon. Each page's HTML keeps its own head (charset,
// viewport, title, style sheets: a browser needs them before it draws
// anything) and its own content, and calls `mountShell` from a module in
// its head marked `blocking="render"`: the browser draws nothing before
// the shell is in (the first paint has the header, as when it was written
// in each page). This module imports nothing, so that wait is one small
// request. The texts are English fallbacks, translated by key with the
// rest of the page (`applyI18n`, ui/site.js), which also adds the
// header's menus and switches (ui/header.js, ui/account.js).

/** The header: the brand and the site's links (ui/header.js marks the page shown). */
const HEADER = `<header class="top">
    <a class="brand" href="/" data-i18n="page.title">Tensor Chess</a>
    <nav id="site-nav" class="site-nav" data-i18n-attr="aria-label:nav.main">
      <a class="button" href="/#/" data-nav="play" data-i18n="nav.play">Play</a>
      <a class="button" href="/#/tournaments" data-nav="tournaments" data-i18n="nav.tournaments">Tournaments</a>
      <a class="button" href="/#/bots" data-nav="bots" data-i18n="nav.bots">Bots</a>
      <a class="button" href="/analysis.html" data-nav="analysis" data-i18n="nav.analysis">Analysis</a>
      <a class="button" href="/puzzles.html" data-nav="puzzles" data-i18n="nav.puzzles">Puzzles</a>
      <a class="button" href="/lessons.html" data-nav="lessons" data-i18n="nav.lessons">Lessons</a>
      <a class="button" href="/rules.html" data-nav="rules" data-i18n="nav.rules">Rules</a>
    </nav>
  </header>`;

/** The footer: the bots, their API's documentation, one's tokens. */
const FOOTER = `<footer class="site-footer">
    <nav data-i18n-attr="aria-label:footer.nav" aria-label="More of the site">
      <a href="/#/bots" data-i18n="footer.bots">Bots</a>
      <a href="/docs/bots" data-i18n="footer.api">Bot and Board API</a>
      <a href="/#/account" data-i18n="footer.account">API tokens</a>
    </nav>
  </footer>`;

/**
 * Puts the shell around the page's content (once). `skipTo`: what the skip
 * link leads to (`#main`, `#board-area`).
 * @param {Document} doc @param {{ skipTo: string }} opts
 */
export function mountShell(doc, { skipTo }) {
  if (doc.querySelector('header.top')) return;
  const icon = doc.createElement('link');
  icon.rel = 'icon';
  icon.href = '/favicon.svg';
  icon.type = 'image/svg+xml';
  doc.head.append(icon);
  const skip = doc.createElement('a');
  skip.className = 'skip-link';
  skip.id = 'skip-link';
  skip.href = skipTo;
  skip.dataset.i18n = 'nav.skip';
  skip.textContent = 'Skip to the main content';
  const top = doc.createElement('template');
  top.innerHTML = HEADER;
  doc.body.prepend(skip, top.content);
  const bottom = doc.createElement('template');
  bottom.innerHTML = FOOTER;
  doc.body.append(bottom.content);
  const announce = doc.createElement('div');
  announce.id = 'announce';
  announce.className = 'visually-hidden';
  announce.setAttribute('aria-live', 'polite');
  announce.setAttribute('aria-atomic', 'true');
  doc.body.append(announce);
}
