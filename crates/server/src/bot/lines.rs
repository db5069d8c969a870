//! A stream of JSON lines for a program: a task writes lines into a
//! channel ([`Lines`]), the edge sends what it reads from the other end
//! ([`LineStream`]) as `application/x-ndjson`; the task learns the client
//! left when a line cannot be sent (a keep-alive at the latest).

use bytes::Bytes;
use serde::Serialize;
use tokio::sync::mpsc;

/// Lines waiting for a slow client before the stream ends.
const QUEUE: usize = 256;

/// Where a stream's task writes.
pub struct Lines(mpsc::Sender<Bytes>);

/// What the client reads: each item one line (or a keep-alive), newline
/// included.
pub type LineStream = mpsc::Receiver<Bytes>;

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

/// A stream's two ends.
pub fn channel() -> (Lines, LineStream) {
    let (tx, rx) = mpsc::channel::<Bytes>(QUEUE);
    (Lines(tx), rx)
}
