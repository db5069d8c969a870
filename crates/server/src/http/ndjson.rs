//! Answers of JSON lines (`application/x-ndjson`), for programs.

use crate::bot::LineStream;
use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::convert::Infallible;

const HEADERS: [(header::HeaderName, &str); 2] = [
    (header::CONTENT_TYPE, "application/x-ndjson"),
    (header::CACHE_CONTROL, "no-cache"),
];

/// The answer that streams a service's lines as they come, keeping `held`
/// (the stream's places in its caps) until the body is dropped.
pub fn streamed<H: Send + 'static>(lines: LineStream, held: H) -> Response {
    let body = futures_util::stream::unfold((lines, held), |(mut rx, held)| async move {
        rx.recv()
            .await
            .map(|b| (Ok::<_, Infallible>(b), (rx, held)))
    });
    (HEADERS, Body::from_stream(body)).into_response()
}

/// An answer of a whole list, one JSON value a line.
pub fn listed<T: Serialize>(items: &[T]) -> Response {
    let mut text = String::new();
    for item in items {
        text.push_str(&serde_json::to_string(item).unwrap_or_default());
        text.push('\n');
    }
    (HEADERS, text).into_response()
}
