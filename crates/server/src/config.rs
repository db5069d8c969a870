//! The server's timings and limits, with the clock they are read on.

use super::client::Proxies;
use super::clock::{Clock, SystemClock};
use super::http::guard::BodyLimits;
use super::http::listener::ConnectionLimits;
use super::ratelimit::RateLimit;
use std::sync::Arc;

/// Timings and limits of the server, with the clock they are read on.
#[derive(Clone)]
pub struct ServerConfig {
    /// Where the time comes from: the system's, or a manual one (tests).
    pub clock: Arc<dyn Clock>,
    /// A finished game nobody watches leaves memory after this long.
    pub evict_finished_after_ms: i64,
    /// A game in progress nobody touches or watches leaves memory after this
    /// long (a game whose clock runs, or whose engine thinks, stays).
    pub evict_idle_after_ms: i64,
    /// How often idle games are looked for.
    pub sweep_every_ms: i64,
    /// How often the server notes in the database that it is still up.
    pub heartbeat_every_ms: i64,
    /// How often the account event log is read (logouts and bans made
    /// elsewhere; on PostgreSQL a notice also says so at once).
    pub account_poll_every_ms: i64,
    /// How often the tournament director looks at the tournaments (on the
    /// clock above).
    pub director_every_ms: i64,
    /// The tournaments the server makes by itself (none unless given:
    /// `tensorchess serve` gives the defaults or its `--schedule`).
    pub schedule: crate::tournaments::schedule::Schedule,
    /// How often the schedule is looked at (on the clock above).
    pub schedule_every_ms: i64,
    /// Messages per WebSocket connection.
    pub rate_limit: RateLimit,
    /// A WebSocket whose client takes no message for this long is closed.
    pub ws_write_timeout: std::time::Duration,
    /// API requests that change something (POST, DELETE) per client
    /// address (clients exempt by `proxies` are not limited).
    pub write_limit: RateLimit,
    /// The reverse proxies whose `X-Forwarded-For` is believed, and
    /// whether loopback clients are exempt from per-address limits.
    pub proxies: Proxies,
    /// In an online game with a clock, the side to move has this long to
    /// make its first move (counted from the second seat being taken, or
    /// from White's first move); then the game is aborted.
    pub first_move_wait_ms: i64,
    /// The `Host` names served (lower case, without port); empty: any.
    pub allowed_hosts: Vec<String>,
    /// Connections let in, and how long their headers may take.
    pub connections: ConnectionLimits,
    /// How long a request's body may take, and how slowly it may come.
    pub body: BodyLimits,
    /// Engine searches at once (about the number of cores).
    pub search_slots: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            clock: Arc::new(SystemClock),
            evict_finished_after_ms: 60_000,
            evict_idle_after_ms: 10 * 60_000,
            sweep_every_ms: 15_000,
            heartbeat_every_ms: 5_000,
            account_poll_every_ms: 1_000,
            director_every_ms: crate::tournaments::director::DIRECTOR_EVERY_MS,
            schedule: crate::tournaments::schedule::Schedule::none(),
            schedule_every_ms: 60_000,
            rate_limit: RateLimit::default(),
            ws_write_timeout: std::time::Duration::from_secs(10),
            write_limit: RateLimit::WRITES,
            proxies: Proxies::default(),
            first_move_wait_ms: 60_000,
            allowed_hosts: Vec::new(),
            connections: ConnectionLimits::default(),
            body: BodyLimits::default(),
            search_slots: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}
