// Shared by `build.rs` (which `include!`s this file) and the server: the
// `Content-Type` of a page file, by its extension.

/// The `Content-Type` of a page file, by its extension; `None` for a kind of
/// file the page does not use.
pub fn mime_of(path: &str) -> Option<&'static str> {
    Some(match path.rsplit('.').next()? {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ogg" => "audio/ogg",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "woff2" => "font/woff2",
        "txt" | "csv" => "text/plain; charset=utf-8",
        _ => return None,
    })
}
