//! A stream of JSON lines for a program: a task writes lines into a
//! channel ([`Lines`]), the edge sends what it reads from the other end
//! ([`LineStream`]) as `application/x-ndjson`; the task learns the client
//! left when a line cannot be sent (a keep-alive at the latest). A client
//! that stops reading fills the queue; a line that then waits longer than
//! the write timeout (the WebSocket's) ends the stream, so a reader that
//! never reads holds nothing for long.

use bytes::Bytes;
use serde::Serialize;
use std::time::Duration;
use tokio::sync::mpsc;

/// Lines waiting for a slow client before the stream ends.
const QUEUE: usize = 256;

/// Where a stream's task writes.
pub struct Lines {
    tx: mpsc::Sender<Bytes>,
    /// How long a line may wait for room in the queue.
    write_timeout: Duration,
}

/// What the client reads: each item one line (or a keep-alive), newline
/// included.
pub type LineStream = mpsc::Receiver<Bytes>;

impl Lines {
    /// A line of JSON; `false` once the client is gone.
    pub async fn send<T: Serialize>(&self, value: &T) -> bool {
        match serde_json::to_vec(value) {
            Ok(mut v) => {
                v.push(b'\n');
                self.put(Bytes::from(v)).await
            }
            Err(e) => {
                tracing::error!("a stream line not serialized: {e}");
                true
            }
        }
    }

    /// The keep-alive: an empty line.
    pub async fn keep_alive(&self) -> bool {
        self.put(Bytes::from_static(b"\n")).await
    }

    /// Queues a line; `false` once the client is gone or has not made room
    /// within the write timeout.
    async fn put(&self, line: Bytes) -> bool {
        matches!(
            tokio::time::timeout(self.write_timeout, self.tx.send(line)).await,
            Ok(Ok(()))
        )
    }

    /// Finishes once the client is gone.
    pub async fn closed(&self) {
        self.tx.closed().await
    }
}

/// A stream's two ends; a line waits at most `write_timeout` for a client
/// that does not read.
pub fn channel(write_timeout: Duration) -> (Lines, LineStream) {
    let (tx, rx) = mpsc::channel::<Bytes>(QUEUE);
    (Lines { tx, write_timeout }, rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that never reads: once the queue is full, the next line
    /// gives up after the write timeout (tokio's paused clock runs it).
    #[tokio::test(start_paused = true)]
    async fn a_reader_that_never_reads_ends_the_stream() {
        let (lines, _never_read) = channel(Duration::from_secs(10));
        for _ in 0..QUEUE {
            assert!(lines.keep_alive().await);
        }
        let began = tokio::time::Instant::now();
        assert!(!lines.send(&"one more").await);
        assert_eq!(began.elapsed(), Duration::from_secs(10));
    }

    #[tokio::test]
    async fn lines_reach_a_reader() {
        let (lines, mut rx) = channel(Duration::from_secs(10));
        assert!(lines.send(&serde_json::json!({ "a": 1 })).await);
        assert_eq!(rx.recv().await.unwrap(), Bytes::from_static(b"{\"a\":1}\n"));
        drop(rx);
        assert!(!lines.keep_alive().await, "the client is gone");
    }
}
