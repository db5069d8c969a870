//! The server's timings and limits, with the clock they are read on.

use super::client::Proxies;
use super::clock::{Clock, SystemClock};
use super::ratelimit::RateLimit;
use std::sync::Arc;
use std::time::Duration;

/// How long a request body may take, and how slowly it may come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyLimits {
    /// The whole body, from the end of the headers.
    pub total: Duration,
    /// The longest wait for the next piece of it.
    pub idle: Duration,
    /// Bytes a second, on average, once `idle` has passed.
    pub min_rate: u64,
}

impl Default for BodyLimits {
    fn default() -> Self {
        BodyLimits {
            total: Duration::from_secs(20),
            idle: Duration::from_secs(5),
            min_rate: 1024,
        }
    }
}

/// How many connections are let in, and how long they may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Time for a request's headers to arrive (and for an idle keep-alive
    /// connection to send its next request).
    pub header_timeout: Duration,
    /// Connections at once from one client address.
    pub per_client: usize,
    /// Connections at once in all.
    pub total: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            per_client: 64,
            total: total_for(open_files_limit()),
        }
    }
}

/// File descriptors kept for the database, the log and the rest.
const RESERVED_FILES: u64 = 64;

/// The connections one process may hold with `files` descriptors.
pub(crate) fn total_for(files: u64) -> usize {
    (files.saturating_sub(RESERVED_FILES) * 9 / 10).max(16) as usize
}

/// The process's soft limit of open files.
pub(crate) fn open_files_limit() -> u64 {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes into the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
            return limit.rlim_cur;
        }
    }
    1024
}

/// How often the tournament director looks at the tournaments, by default.
pub const DIRECTOR_EVERY_MS: i64 = 2_000;

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
    /// How often the schedule is looked at (on the clock above).
    pub schedule_every_ms: i64,
    /// Messages per WebSocket connection.
    pub rate_limit: RateLimit,
    /// A WebSocket whose client takes no message for this long is closed.
    pub ws_write_timeout: std::time::Duration,
    /// API requests that change something (POST, DELETE) per client
    /// address (clients exempt by `proxies` are not limited).
    pub write_limit: RateLimit,
    /// Searches (the opening explorer, the player search, game exports and
    /// searches) per client address: reads, but ones that make the
    /// database work.
    pub search_limit: RateLimit,
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
            director_every_ms: DIRECTOR_EVERY_MS,
            schedule_every_ms: 60_000,
            rate_limit: RateLimit::default(),
            ws_write_timeout: std::time::Duration::from_secs(10),
            write_limit: RateLimit::WRITES,
            search_limit: RateLimit::SEARCHES,
            proxies: Proxies::default(),
            first_move_wait_ms: 60_000,
            allowed_hosts: Vec::new(),
            connections: ConnectionLimits::default(),
            body: BodyLimits::default(),
            search_slots: std::thread::available_parallelism().map_or(2, |n| n.get()),
        }
    }
}
