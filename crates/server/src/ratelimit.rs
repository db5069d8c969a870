//! Token buckets: each WebSocket connection may send `burst` messages at
//! once and `per_second` messages a second over time; each client address
//! likewise for the API's writes ([`ClientLimiter`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// How fast a connection may send.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    /// Messages that may arrive back to back.
    pub burst: u32,
    /// Messages a second, sustained.
    pub per_second: f64,
}

impl Default for RateLimit {
    /// A person sends a message every few seconds; a page reconnecting sends
    /// a handful at once.
    fn default() -> Self {
        RateLimit {
            burst: 20,
            per_second: 10.0,
        }
    }
}

impl RateLimit {
    /// API writes per client: a person makes a move every second or so; a
    /// page sends a few requests at once (a new game, its first move).
    pub const WRITES: RateLimit = RateLimit {
        burst: 30,
        per_second: 5.0,
    };

    /// Searches per client: a person types a name a letter at a time, or
    /// clicks through the explorer's moves; a program exporting games asks
    /// a page at a time.
    pub const SEARCHES: RateLimit = RateLimit {
        burst: 30,
        per_second: 3.0,
    };
}

/// One client's allowance: up to the limit's burst at once, refilled at
/// its rate.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    limit: RateLimit,
    tokens: f64,
    last_ms: i64,
}

impl TokenBucket {
    /// A full bucket at time `now_ms`.
    pub fn new(limit: RateLimit, now_ms: i64) -> TokenBucket {
        TokenBucket {
            limit,
            tokens: limit.burst as f64,
            last_ms: now_ms,
        }
    }

    /// Takes a token if there is one.
    pub fn take(&mut self, now_ms: i64) -> bool {
        let elapsed = (now_ms - self.last_ms).max(0) as f64 / 1000.0;
        self.last_ms = self.last_ms.max(now_ms);
        self.tokens = (self.tokens + elapsed * self.limit.per_second).min(self.limit.burst as f64);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether a token is there now, without taking it.
    pub fn has_token(&mut self, now_ms: i64) -> bool {
        let elapsed = (now_ms - self.last_ms).max(0) as f64 / 1000.0;
        self.last_ms = self.last_ms.max(now_ms);
        self.tokens = (self.tokens + elapsed * self.limit.per_second).min(self.limit.burst as f64);
        self.tokens >= 1.0
    }

    /// Milliseconds until the next token.
    pub fn retry_after_ms(&self) -> u64 {
        if self.tokens >= 1.0 || self.limit.per_second <= 0.0 {
            return 0;
        }
        ((1.0 - self.tokens) / self.limit.per_second * 1000.0).ceil() as u64
    }
}

/// One token bucket per key (a client address, a player, a user name).
/// Buckets idle long enough to be full again are forgotten, so the map
/// stays small whatever the number of keys.
pub struct KeyedLimiter<K> {
    limit: RateLimit,
    buckets: Mutex<HashMap<K, TokenBucket>>,
}

impl<K: std::hash::Hash + Eq + Clone> KeyedLimiter<K> {
    /// Buckets kept before idle ones are dropped.
    pub(crate) const PRUNE_AT: usize = 4096;

    /// A limiter giving each key `limit`.
    pub fn new(limit: RateLimit) -> KeyedLimiter<K> {
        KeyedLimiter {
            limit,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// A bucket untouched this long is full again, so it can go.
    fn idle_ms(&self) -> i64 {
        if self.limit.per_second <= 0.0 {
            i64::MAX
        } else {
            (self.limit.burst as f64 / self.limit.per_second * 1000.0).ceil() as i64
        }
    }

    /// Takes a token for `key`; `Err(ms)` says how long until the next.
    pub fn take(&self, key: &K, now_ms: i64) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= Self::PRUNE_AT {
            let idle = self.idle_ms();
            buckets.retain(|_, b| now_ms.saturating_sub(b.last_ms) < idle);
        }
        let bucket = buckets
            .entry(key.clone())
            .or_insert_with(|| TokenBucket::new(self.limit, now_ms));
        if bucket.take(now_ms) {
            Ok(())
        } else {
            Err(bucket.retry_after_ms().max(1))
        }
    }

    /// Whether `key` has a token now, without taking it (for limits that
    /// count only failures: look first, take after a failure);
    /// `Err(ms)` says how long until it has one.
    pub fn check(&self, key: &K, now_ms: i64) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        match buckets.get_mut(key) {
            Some(bucket) => {
                if bucket.has_token(now_ms) {
                    Ok(())
                } else {
                    Err(bucket.retry_after_ms().max(1))
                }
            }
            None => Ok(()),
        }
    }

    /// Keys being tracked.
    pub fn tracked(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// One token bucket per client address (the key of
/// [`limit_key`](super::client::limit_key)), for requests that change
/// something (a new game writes a row), or that make the database search.
pub struct ClientLimiter(KeyedLimiter<IpAddr>);

impl ClientLimiter {
    /// A limiter giving each address `limit`.
    pub fn new(limit: RateLimit) -> ClientLimiter {
        ClientLimiter(KeyedLimiter::new(limit))
    }

    /// Takes a token for `client`; `Err(ms)` says how long until the next.
    pub fn take(&self, client: IpAddr, now_ms: i64) -> Result<(), u64> {
        self.0.take(&client, now_ms)
    }

    /// Clients being tracked.
    pub fn tracked(&self) -> usize {
        self.0.tracked()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_sustained_rate() {
        let limit = RateLimit {
            burst: 3,
            per_second: 2.0,
        };
        let mut b = TokenBucket::new(limit, 0);
        assert!(b.take(0) && b.take(0) && b.take(0));
        assert!(!b.take(0));
        assert_eq!(b.retry_after_ms(), 500);
        assert!(!b.take(499));
        assert!(b.take(500));
        assert!(!b.take(500));
        // A long pause refills only up to the burst.
        assert!(b.take(60_000) && b.take(60_000) && b.take(60_000));
        assert!(!b.take(60_000));
        // Time going backwards takes nothing and gives nothing.
        assert!(!b.take(10));
    }

    #[test]
    fn each_client_has_its_own_bucket() {
        let limiter = ClientLimiter::new(RateLimit {
            burst: 2,
            per_second: 1.0,
        });
        let a: IpAddr = "203.0.113.5".parse().unwrap();
        let b: IpAddr = "2001:db8::1".parse().unwrap();
        assert_eq!(limiter.take(a, 0), Ok(()));
        assert_eq!(limiter.take(a, 0), Ok(()));
        assert_eq!(limiter.take(a, 0), Err(1000));
        assert_eq!(limiter.take(b, 0), Ok(()), "another client is not affected");
        let local: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(
            (0..3).any(|_| limiter.take(local, 0).is_err()),
            "loopback too"
        );
        assert_eq!(limiter.take(a, 1000), Ok(()));
    }

    #[test]
    fn checking_takes_nothing() {
        let limiter = KeyedLimiter::new(RateLimit {
            burst: 2,
            per_second: 1.0,
        });
        let k = "k".to_string();
        for _ in 0..10 {
            assert_eq!(limiter.check(&k, 0), Ok(()));
        }
        assert_eq!(limiter.take(&k, 0), Ok(()));
        assert_eq!(limiter.take(&k, 0), Ok(()));
        assert_eq!(limiter.check(&k, 0), Err(1000));
        assert!(limiter.check(&k, 999).is_err());
        assert_eq!(limiter.check(&k, 1000), Ok(()));
    }

    #[test]
    fn idle_clients_are_forgotten_when_many_are_tracked() {
        let limiter = ClientLimiter::new(RateLimit {
            burst: 2,
            per_second: 1.0,
        });
        for i in 0..KeyedLimiter::<IpAddr>::PRUNE_AT as u32 {
            let ip = IpAddr::from(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            assert_eq!(limiter.take(ip, 0), Ok(()));
        }
        assert_eq!(limiter.tracked(), KeyedLimiter::<IpAddr>::PRUNE_AT);
        // Two seconds on, every bucket is full again: all are dropped.
        assert_eq!(limiter.take("203.0.113.9".parse().unwrap(), 2000), Ok(()));
        assert_eq!(limiter.tracked(), 1);
    }
}
