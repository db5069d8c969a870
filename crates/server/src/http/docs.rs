//! The documentation the site serves as pages: `docs/bots.md` (the Bot and
//! Board APIs) at `/docs/bots`. The Markdown file stays the one source: it
//! is built into the binary and turned into HTML (pulldown-cmark) the first
//! time the page is asked for, then put into the page `assets/docs.html`
//! (the site's header, footer and styles around it).

use super::assets;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::collections::HashSet;
use std::sync::LazyLock;

/// `docs/bots.md`, as written.
const BOTS_MD: &str = include_str!("../../../../docs/bots.md");

/// `docs/bots.md` as HTML, made once.
static BOTS_HTML: LazyLock<String> = LazyLock::new(|| render(BOTS_MD));

/// Where the page template takes the document.
const SLOT: &str = "<!-- doc -->";

/// The documentation's routes (pages, not API: outside `/api`).
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/docs/bots", get(bots))
        .layer(tower_http::compression::CompressionLayer::new())
}

/// `GET /docs/bots`: the Bot and Board APIs' documentation.
async fn bots() -> Response {
    page(&BOTS_HTML)
}

/// The page template with `doc` in its slot.
fn page(doc: &str) -> Response {
    // The template is one of the page's files (read from disk while working
    // on the page, as they all are); a build always has it (`assets` test).
    let template = assets::text("docs.html").unwrap_or_default();
    let body = template.replacen(SLOT, doc, 1);
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// Markdown as the page's HTML: tables (each in a box that scrolls
/// sideways on a narrow screen, reachable by keyboard and named after its
/// section), an id on every heading (from its text, as GitHub makes them,
/// so `#4-routes` links to a section), and a list of the sections (the
/// second-level headings) after the title.
pub fn render(markdown: &str) -> String {
    let events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES).collect();
    let mut out = Vec::with_capacity(events.len() + 16);
    let mut used = HashSet::new();
    let mut toc = Vec::new();
    let mut section = String::new();
    let mut title_end = None;
    let mut i = 0;
    while i < events.len() {
        match &events[i] {
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => {
                let end = events[i..]
                    .iter()
                    .position(|e| matches!(e, Event::End(TagEnd::Heading(_))))
                    .map_or(events.len(), |n| i + n);
                let inner = &events[i + 1..end];
                let text = plain(inner);
                let id = unique_id(&slug(&text), &mut used);
                if *level == HeadingLevel::H2 {
                    let mut inline = String::new();
                    html::push_html(&mut inline, inner.iter().cloned());
                    toc.push((id.clone(), inline));
                }
                section = text;
                out.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(CowStr::from(id)),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
                out.extend(inner.iter().cloned());
                if let Some(e) = events.get(end) {
                    out.push(e.clone());
                }
                if *level == HeadingLevel::H1 && title_end.is_none() {
                    title_end = Some(out.len());
                }
                i = end + 1;
                continue;
            }
            Event::Start(Tag::Table(_)) => out.push(Event::Html(CowStr::from(format!(
                "<div class=\"doc-table\" tabindex=\"0\" role=\"region\" aria-label=\"{}\">\n",
                escape(&format!("Table: {section}"))
            )))),
            _ => {}
        }
        out.push(events[i].clone());
        if matches!(events[i], Event::End(TagEnd::Table)) {
            out.push(Event::Html(CowStr::from("</div>\n")));
        }
        i += 1;
    }
    if !toc.is_empty() {
        let mut nav = String::from("<nav class=\"doc-toc\" aria-label=\"Contents\"><ul>\n");
        for (id, inline) in &toc {
            nav.push_str(&format!("<li><a href=\"#{id}\">{inline}</a></li>\n"));
        }
        nav.push_str("</ul></nav>\n");
        out.insert(title_end.unwrap_or(0), Event::Html(CowStr::from(nav)));
    }
    let mut html_out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut html_out, out.into_iter());
    html_out
}

/// The text of a heading's events (its code spans' text included).
fn plain(events: &[Event]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect()
}

/// A heading's id as GitHub makes it: lower case, letters, digits, `-` and
/// `_` kept, spaces made `-`, the rest dropped.
fn slug(text: &str) -> String {
    let s: String = text
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect();
    if s.is_empty() {
        "section".to_string()
    } else {
        s
    }
}

/// `base`, or `base-1`, `base-2`… when already taken.
fn unique_id(base: &str, used: &mut HashSet<String>) -> String {
    let mut id = base.to_string();
    let mut n = 0;
    while !used.insert(id.clone()) {
        n += 1;
        id = format!("{base}-{n}");
    }
    id
}

/// Text for an HTML attribute.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            c => s.push(c),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_ids_and_the_sections_a_list() {
        let html = render("# Title\n\nIntro.\n\n## 1. A token\n\ntext\n\n## 3. The bridge: `tensorchess bot`\n\n### A token\n");
        assert!(html.contains("<h1 id=\"title\">Title</h1>"), "{html}");
        assert!(html.contains("<h2 id=\"1-a-token\">"), "{html}");
        assert!(
            html.contains("<h2 id=\"3-the-bridge-tensorchess-bot\">3. The bridge: <code>tensorchess bot</code></h2>"),
            "{html}"
        );
        // The same text twice: another id.
        assert!(html.contains("<h3 id=\"a-token\">"), "{html}");
        let toc = html
            .find("<nav class=\"doc-toc\"")
            .expect("a list of sections");
        assert!(toc > html.find("</h1>").unwrap() && toc < html.find("Intro.").unwrap());
        assert!(
            html.contains("<li><a href=\"#1-a-token\">1. A token</a></li>"),
            "{html}"
        );
        assert!(html.contains("<a href=\"#3-the-bridge-tensorchess-bot\">3. The bridge: <code>tensorchess bot</code></a>"));
        assert!(
            !html.contains("href=\"#a-token\""),
            "third-level headings are not listed"
        );
    }

    #[test]
    fn tables_scroll_in_a_named_box_and_text_is_escaped() {
        let html = render("## 4. Routes & \"limits\"\n\n| a | b |\n|---|---|\n| `<code>` | x |\n");
        let open = html
            .find("<div class=\"doc-table\" tabindex=\"0\" role=\"region\" aria-label=\"Table: 4. Routes &amp; &quot;limits&quot;\">")
            .expect(&html);
        let table = html.find("<table>").unwrap();
        let close = html.find("</table>\n</div>").unwrap();
        assert!(open < table && table < close, "{html}");
        assert!(html.contains("<code>&lt;code&gt;</code>"), "{html}");
    }

    #[test]
    fn the_bots_documentation_is_rendered_whole() {
        let html = render(BOTS_MD);
        assert!(
            html.starts_with("<h1 id=\"programs-the-bot-api-the-board-api-and-tensorchess-bot\">"),
            "{}",
            &html[..200]
        );
        assert!(html.contains("<h2 id=\"4-routes\">4. Routes</h2>"));
        assert!(html.contains("<code>POST /api/bot/account/upgrade</code>"));
        assert_eq!(
            html.matches("<table>").count(),
            html.matches("class=\"doc-table\"").count()
        );
        assert!(html.matches("<table>").count() >= 2);
    }
}
