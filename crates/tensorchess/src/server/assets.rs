//! The page's files, embedded in the binary at build time (no build step:
//! they are plain HTML, CSS and JavaScript modules).

use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

pub struct Asset {
    pub path: &'static str,
    pub mime: &'static str,
    pub body: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $mime:expr) => {
        Asset {
            path: $path,
            mime: $mime,
            body: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/", $path)),
        }
    };
}

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// Every file under `assets/` (a test checks that none is missing).
pub static ASSETS: &[Asset] = &[
    asset!("index.html", HTML),
    asset!("rules.html", HTML),
    asset!("css/app.css", CSS),
    asset!("js/api.js", JS),
    asset!("js/app.js", JS),
    asset!("js/board.js", JS),
    asset!("js/fen.js", JS),
    asset!("js/pieces.js", JS),
    asset!("js/rules.js", JS),
    asset!("rules/diagrams.json", "application/json"),
    asset!("favicon.svg", "image/svg+xml"),
];

/// The asset at a URL path (`/` is `index.html`).
pub fn find(path: &str) -> Option<&'static Asset> {
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

fn etag(body: &[u8]) -> String {
    let h = body.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ *b as u64).wrapping_mul(0x100_0000_01b3)
    });
    format!("\"{h:016x}\"")
}

/// Serves an embedded file, with an ETag so browsers revalidate cheaply.
pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let Some(asset) = find(uri.path()) else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, HTML)],
            "<!doctype html><title>Not found</title><p>Nothing here. <a href=\"/\">Play</a>",
        )
            .into_response();
    };
    // For working on the page: TENSORCHESS_ASSETS_DIR serves the listed files
    // from disk instead of the copies built in, so edits show without a rebuild.
    if let Some(dir) = std::env::var_os("TENSORCHESS_ASSETS_DIR") {
        if let Ok(body) = std::fs::read(std::path::Path::new(&dir).join(asset.path)) {
            return (
                [
                    (header::CONTENT_TYPE, asset.mime),
                    (header::CACHE_CONTROL, "no-store"),
                ],
                body,
            )
                .into_response();
        }
    }
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
        for f in &files {
            assert!(find(f).is_some(), "assets/{f} is not listed in ASSETS");
        }
        assert_eq!(files.len(), ASSETS.len());
        for a in ASSETS {
            let ext = a.path.rsplit('.').next().unwrap();
            let want = match ext {
                "html" => HTML,
                "js" => JS,
                "css" => CSS,
                "json" => "application/json",
                "svg" => "image/svg+xml",
                _ => panic!("unexpected asset type {ext}"),
            };
            assert_eq!(a.mime, want, "{}", a.path);
        }
    }
}
