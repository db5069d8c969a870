//! The page's files, embedded in the binary at build time (no build step:
//! they are plain HTML, CSS and JavaScript modules).

use super::mime::mime_of;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

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

/// The asset at a URL path (`/` is `index.html`).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    ASSETS.iter().find(|a| a.path == path)
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
/// in; `None` for no such file.
pub(crate) fn text(path: &str) -> Option<String> {
    if let Some(dir) = std::env::var_os("TENSORCHESS_ASSETS_DIR") {
        if let Ok(s) = std::fs::read_to_string(std::path::Path::new(&dir).join(path)) {
            return Some(s);
        }
    }
    find(path).map(|a| String::from_utf8_lossy(a.body).into_owned())
}

fn etag(body: &[u8]) -> String {
    let h = body.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
    });
    format!("\"{h:016x}\"")
}

/// Serves an embedded file, with an ETag so browsers revalidate cheaply.
pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    if let Some(res) = from_disk(uri.path()) {
        return res;
    }
    let Some(asset) = find(uri.path()) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, HTML)],
            "<!doctype html><title>Not found</title><p>Nothing here. <a href=\"/\">Play</a>",
        )
            .into_response();
    };
    let tag = etag(asset.body);
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == tag.as_bytes())
    {
        return StatusCode::NOT_MODIFIED.into_response();
    }
    let mut res = asset.body.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(asset.mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(v) = HeaderValue::from_str(&tag) {
        h.insert(header::ETAG, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

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
