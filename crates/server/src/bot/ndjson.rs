//! A streamed answer of JSON lines (`application/x-ndjson`): a task writes
//! lines into a channel, the body reads them; the task learns the client
//! left when a line cannot be sent (a keep-alive at the latest).

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::convert::Infallible;
use tokio::sync::mpsc;

/// Lines waiting for a slow client before the stream ends.
const QUEUE: usize = 256;

/// Where a stream's task writes.
pub struct Lines(mpsc::Sender<Bytes>);

impl Lines {
    /// A line of JSON; `false` once the client is gone.
    pub async fn send<T: Serialize>(&self, value: &T) -> bool {
        match serde_json::to_vec(value) {
            Ok(mut v) => {
                v.push(b'\n');
                self.0.send(Bytes::from(v)).await.is_ok()
            }
            Err(e) => {
                tracing::error!("a stream line not serialized: {e}");
                true
            }
        }
    }

    /// The keep-alive: an empty line.
    pub async fn keep_alive(&self) -> bool {
        self.0.send(Bytes::from_static(b"\n")).await.is_ok()
    }

    /// Finishes once the client is gone.
    pub async fn closed(&self) {
        self.0.closed().await
    }
}

/// A channel for lines and the answer that streams them.
pub fn stream() -> (Lines, Response) {
    let (tx, rx) = mpsc::channel::<Bytes>(QUEUE);
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, Infallible>(b), rx))
    });
    let response = (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response();
    (Lines(tx), response)
}
