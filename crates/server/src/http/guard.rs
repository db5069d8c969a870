//! What every request passes before a handler sees it:
//!
//! - **Cross-site writes are refused.** A request that changes something
//!   (POST, PUT, PATCH, DELETE) from a page of another site is answered 403
//!   (`Origin` not this server, or `Sec-Fetch-Site: cross-site`), and must
//!   say `Content-Type: application/json` (415 otherwise) whether it has a
//!   body or not: a plain HTML form can send neither, so no other site can
//!   make a visitor's browser resign their game or log them out.
//! - **Bodies arrive in time.** A body is read whole before the handler
//!   runs, within a total deadline and with a minimum rate (408 otherwise,
//!   and the connection closes), so that a client sending its body slowly,
//!   or never, cannot hold a connection.
//! - **Pages cannot be framed or sniffed**: `X-Frame-Options: DENY`,
//!   `Content-Security-Policy: frame-ancestors 'none'`,
//!   `X-Content-Type-Options: nosniff`, `Referrer-Policy: same-origin` on
//!   every answer.

use crate::error::AppError;
use crate::kind::Kind;
use crate::metrics::Metrics;
use crate::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use tokio::time::Instant;

pub use crate::config::BodyLimits;

/// Whether a request changes something (and so must come from this site).
fn writes(method: &Method) -> bool {
    matches!(
        *method,
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    )
}

/// The host name of an origin or a `Host` value: no scheme, no port,
/// lower case.
fn host_of(value: &str) -> String {
    let rest = value.split_once("://").map_or(value, |(_, rest)| rest);
    super::limits::host_name(rest.trim_end_matches('/'))
}

/// Whether the request comes from this server's own pages, as far as the
/// browser says: `Sec-Fetch-Site` is not `cross-site`, and `Origin`, when
/// sent, names the host the request was sent to. (Programs that are not
/// browsers send neither, and hold only their own cookies.)
pub fn same_site(headers: &HeaderMap) -> bool {
    if headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"cross-site"))
    {
        return false;
    }
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(host)) = (
        origin.to_str(),
        headers.get(header::HOST).and_then(|v| v.to_str().ok()),
    ) else {
        return false;
    };
    // `Origin: null` (a sandboxed frame, a file) names no host.
    origin != "null" && host_of(origin) == host_of(host)
}

/// Whether the request says its body is JSON.
fn says_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// Refuses cross-site writes, and reads the body in time (see the module).
pub async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if !writes(request.method()) {
        return next.run(request).await;
    }
    if !same_site(request.headers()) {
        return AppError::refused(
            Kind::ForbiddenOrigin,
            "Requests that change something are accepted only from this server's own pages",
        )
        .into_response();
    }
    // A program's token is sent by no form of another site: its bodies may
    // be forms, or none (as lichess's clients send them).
    let program = crate::http::cookies::bearer(request.headers()).is_some()
        || matches!(
            request.uri().path(),
            "/api/token/test" | "/api/games/export/_ids"
        );
    if !program && !says_json(request.headers()) {
        return AppError::UnsupportedMediaType(
            "Send requests that change something with Content-Type: application/json".into(),
        )
        .into_response();
    }
    let limits = state.games.config().body;
    let (parts, body) = request.into_parts();
    match read_body(body, limits).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(BodyError::TooLarge) => AppError::TooLarge(format!(
            "The request is too large (at most {} bytes)",
            crate::MAX_BODY
        ))
        .into_response(),
        Err(BodyError::Broken) => {
            AppError::bad("The request's body could not be read").into_response()
        }
        Err(BodyError::TooSlow) => {
            Metrics::count(&state.metrics.body_timeouts);
            let mut response = AppError::Timeout(
                "The request's body did not arrive in time: send it again".into(),
            )
            .into_response();
            // The rest of the body may still come: the connection cannot
            // be used for another request.
            response
                .headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            response
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum BodyError {
    TooLarge,
    TooSlow,
    Broken,
}

/// Reads a body whole within `limits` (and [`crate::MAX_BODY`]).
async fn read_body(mut body: Body, limits: BodyLimits) -> Result<Vec<u8>, BodyError> {
    let start = Instant::now();
    let deadline = start + limits.total;
    let mut bytes = Vec::new();
    loop {
        let now = Instant::now();
        let wait = deadline.saturating_duration_since(now).min(limits.idle);
        let frame = match tokio::time::timeout(wait, body.frame()).await {
            Err(_) => return Err(BodyError::TooSlow),
            Ok(None) => return Ok(bytes),
            Ok(Some(Err(_))) => return Err(BodyError::Broken),
            Ok(Some(Ok(frame))) => frame,
        };
        if let Some(data) = frame.data_ref() {
            if bytes.len() + data.len() > crate::MAX_BODY {
                return Err(BodyError::TooLarge);
            }
            bytes.extend_from_slice(data);
        }
        let elapsed = start.elapsed();
        if elapsed > limits.idle
            && (bytes.len() as f64) < limits.min_rate as f64 * elapsed.as_secs_f64()
        {
            return Err(BodyError::TooSlow);
        }
    }
}

/// Adds the headers that keep pages from being framed or sniffed.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert("x-frame-options", HeaderValue::from_static("DENY"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(
                axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        h
    }

    #[test]
    fn only_this_sites_pages_may_write() {
        assert!(same_site(&headers(&[("host", "chess.example")])));
        assert!(same_site(&headers(&[
            ("host", "chess.example"),
            ("origin", "https://chess.example")
        ])));
        assert!(same_site(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ])));
        assert!(!same_site(&headers(&[
            ("host", "chess.example"),
            ("origin", "http://evil.example")
        ])));
        assert!(!same_site(&headers(&[
            ("host", "chess.example"),
            ("origin", "null")
        ])));
        assert!(!same_site(&headers(&[("origin", "http://chess.example")])));
        assert!(!same_site(&headers(&[
            ("host", "chess.example"),
            ("sec-fetch-site", "cross-site")
        ])));
        assert!(same_site(&headers(&[
            ("host", "chess.example"),
            ("sec-fetch-site", "same-origin")
        ])));
    }

    #[test]
    fn json_is_said_with_or_without_parameters() {
        assert!(says_json(&headers(&[("content-type", "application/json")])));
        assert!(says_json(&headers(&[(
            "content-type",
            "Application/JSON; charset=utf-8"
        )])));
        assert!(!says_json(&headers(&[(
            "content-type",
            "application/x-www-form-urlencoded"
        )])));
        assert!(!says_json(&headers(&[("content-type", "text/plain")])));
        assert!(!says_json(&HeaderMap::new()));
    }

    #[tokio::test]
    async fn a_body_that_never_comes_times_out() {
        let limits = BodyLimits {
            total: Duration::from_millis(200),
            idle: Duration::from_millis(100),
            min_rate: 1,
        };
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<axum::body::Bytes, std::io::Error>>(1);
        let body = Body::from_stream(tokio_stream_from(rx));
        let started = Instant::now();
        assert_eq!(read_body(body, limits).await, Err(BodyError::TooSlow));
        assert!(started.elapsed() < Duration::from_secs(5));
        drop(tx);
        assert_eq!(
            read_body(Body::from("{}"), limits).await,
            Ok(b"{}".to_vec())
        );
        let big = vec![b' '; crate::MAX_BODY + 1];
        assert_eq!(
            read_body(Body::from(big), limits).await,
            Err(BodyError::TooLarge)
        );
    }

    /// A stream over a channel's receiver (no extra crate for one test).
    fn tokio_stream_from<T: Send + 'static>(
        mut rx: tokio::sync::mpsc::Receiver<T>,
    ) -> impl futures_util::Stream<Item = T> {
        futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
    }
}
