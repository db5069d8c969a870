//! What the load tools share: a minimal HTTP/1.1 client and the parts of
//! the server's answers they read (`http`), the server under test started
//! and measured (`server`), and the database a run checks (`db`). The
//! `loadtest` binary plays online games; `abuse` plays the strangers of
//! the hardening benchmarks (`BENCHMARKS.md`).

pub mod db;
pub mod http;
pub mod server;

/// Any error of a run, said in a line.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The time now in milliseconds since the Unix epoch (the server's clock
/// in its answers: a tournament's start, a wave's `at_ms`).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
