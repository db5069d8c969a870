//! The page's files, embedded in the binary at build time (no build step:
//! they are plain HTML, CSS and JavaScript modules).
//!
//! Each file is served at its own path (`/js/app.js`, revalidated by ETag
//! at every use) and under the assets' version (`/a/{VERSION}/js/app.js`,
//! kept by the browser for a year: a new build has a new version). The
//! pages name the versioned copies: their style sheets directly, their
//! modules through an import map (`/js/` → `/a/{VERSION}/js/`; the
//! modules import one another by relative paths, so the whole graph comes
//! from the versioned folder). A page's second visit, or another page of
//! the site, then loads its dozens of modules from the browser's cache
//! without asking the server at all.

use super::fnv::{fnv1a, FNV_START};
use super::mime::mime_of;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::LazyLock;

const HTML: &str = "text/html; charset=utf-8";
#[cfg(test)]
const JS: &str = "text/javascript; charset=utf-8";
#[cfg(test)]
const CSS: &str = "text/css; charset=utf-8";

/// A file of the page.
pub struct Asset {
    /// Its path under `assets/` (`index.html`, `js/app.js`).
    pub path: &'static str,
    /// Its `Content-Type`.
    pub mime: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

/// Every file under `assets/`, listed by `build.rs` at build time.
pub static ASSETS: &[Asset] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The assets' version: a hash of every embedded file (build.rs), so any
/// change to any file makes a new one.
pub const VERSION: &str = include!(concat!(env!("OUT_DIR"), "/assets_version.rs"));

/// Where the versioned copies are: `/a/{VERSION}/{path}`.
const VERSIONED: &str = "/a/";

/// How long a versioned copy is kept: its content never changes.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A page as served: its style sheets and modules named by their versioned
/// copies (an import map before its first script maps `/js/`).
fn versioned_page(html: &str) -> String {
    let html = html.replace("href=\"/css/", &format!("href=\"{VERSIONED}{VERSION}/css/"));
    let map = format!(
        "<script type=\"importmap\">{{\"imports\":{{\"/js/\":\"{VERSIONED}{VERSION}/js/\"}}}}</script>\n  "
    );
    match html.find("<script") {
        Some(at) => format!("{}{map}{}", &html[..at], &html[at..]),
        None => html,
    }
}

/// An embedded file as it is sent: its type, its body (pages versioned)
/// and its ETag.
struct Served {
    mime: &'static str,
    body: axum::body::Bytes,
    etag: HeaderValue,
}

/// Every embedded file as sent, by its path under `assets/`, made once.
static SERVED: LazyLock<HashMap<&'static str, Served>> = LazyLock::new(|| {
    ASSETS
        .iter()
        .map(|a| {
            let body = if a.mime == HTML {
                versioned_page(&String::from_utf8_lossy(a.body)).into()
            } else {
                axum::body::Bytes::from_static(a.body)
            };
            let etag = HeaderValue::from_str(&etag(&body))
                .unwrap_or_else(|_| HeaderValue::from_static("\"0\""));
            let mime = a.mime;
            (a.path, Served { mime, body, etag })
        })
        .collect()
});

/// A URL path as a path under `assets/` (`/` is `index.html`).
fn asset_path(path: &str) -> &str {
    let path = path.trim_start_matches('/');
    if path.is_empty() {
        "index.html"
    } else {
        path
    }
}

/// A URL path without its version prefix, and whether it named this
/// build's version (`/a/{VERSION}/js/app.js` → `(/js/app.js, Some(true))`;
/// another version → `Some(false)`; an unversioned path → `None`).
fn unversioned(path: &str) -> (&str, Option<bool>) {
    let Some(rest) = path.strip_prefix(VERSIONED) else {
        return (path, None);
    };
    match rest.find('/') {
        Some(at) => (&rest[at..], Some(&rest[..at] == VERSION)),
        None => (path, None),
    }
}

/// For working on the page: `TENSORCHESS_ASSETS_DIR` serves the files from
/// that folder instead of the copies built in (new files too), so edits show
/// without a rebuild. Paths that leave the folder are not served.
fn from_disk(path: &str) -> Option<Response> {
    let dir = std::env::var_os("TENSORCHESS_ASSETS_DIR")?;
    let rel = path.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    if rel
        .split('/')
        .any(|part| part.is_empty() || part.starts_with('.'))
    {
        return None;
    }
    let body = std::fs::read(std::path::Path::new(&dir).join(rel)).ok()?;
    let mime = mime_of(rel)?;
    Some(
        (
            [
                (header::CONTENT_TYPE, mime),
                (header::CACHE_CONTROL, "no-store"),
            ],
            body,
        )
            .into_response(),
    )
}

/// A page file's text (a template the server fills): from
/// `TENSORCHESS_ASSETS_DIR` while working on the page, else the copy built
/// in, as it is served (versioned); `None` for no such file.
pub(crate) fn text(path: &str) -> Option<String> {
    if let Some(dir) = std::env::var_os("TENSORCHESS_ASSETS_DIR") {
        if let Ok(s) = std::fs::read_to_string(std::path::Path::new(&dir).join(path)) {
            return Some(s);
        }
    }
    let served = SERVED.get(asset_path(path))?;
    Some(String::from_utf8_lossy(&served.body).into_owned())
}

fn etag(body: &[u8]) -> String {
    format!("\"{:016x}\"", fnv1a(FNV_START, body))
}

/// Serves an embedded file: a versioned copy of this build's version to be
/// kept, any other with an ETag so browsers revalidate cheaply (a page
/// still open from an earlier build gets this build's file, not kept).
pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let (path, this_version) = unversioned(uri.path());
    if let Some(res) = from_disk(path) {
        return res;
    }
    let Some(served) = SERVED.get(asset_path(path)) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, HTML)],
            "<!doctype html><title>Not found</title><p>Nothing here. <a href=\"/\">Play</a>",
        )
            .into_response();
    };
    let cache = if this_version == Some(true) {
        IMMUTABLE
    } else {
        "no-cache"
    };
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v == served.etag)
    {
        return (StatusCode::NOT_MODIFIED, [(header::CACHE_CONTROL, cache)]).into_response();
    }
    let mut res = served.body.clone().into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(served.mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::ETAG, served.etag.clone());
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded file at a URL path (`/` is `index.html`).
    fn find(path: &str) -> Option<&'static Asset> {
        let path = asset_path(path);
        ASSETS.iter().find(|a| a.path == path)
    }

    fn walk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                walk(&p, base, out);
            } else {
                out.push(
                    p.strip_prefix(base)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }

    #[test]
    fn every_asset_file_is_embedded_with_its_type() {
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut files = Vec::new();
        walk(&base, &base, &mut files);
        // The generated TypeScript types are for tsc only (build.rs).
        files.retain(|f| !f.ends_with(".ts"));
        assert!(find("/js/generated/events.ts").is_none());
        for f in &files {
            let a = find(f).unwrap_or_else(|| panic!("assets/{f} is not embedded"));
            let on_disk = std::fs::read(base.join(f)).unwrap();
            assert!(
                a.body == on_disk.as_slice(),
                "assets/{f} differs from its embedded copy"
            );
        }
        assert_eq!(files.len(), ASSETS.len());
        assert_eq!(find("/").map(|a| a.mime), Some(HTML));
        assert_eq!(find("/css/app.css").map(|a| a.mime), Some(CSS));
        assert_eq!(find("/js/app.js").map(|a| a.mime), Some(JS));
        assert!(find("/nothing.js").is_none());
    }
}
