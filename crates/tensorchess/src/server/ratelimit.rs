//! A token bucket: each WebSocket connection may send `burst` messages at
//! once and `per_second` messages a second over time.

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

    /// Milliseconds until the next token.
    pub fn retry_after_ms(&self) -> u64 {
        if self.tokens >= 1.0 || self.limit.per_second <= 0.0 {
            return 0;
        }
        ((1.0 - self.tokens) / self.limit.per_second * 1000.0).ceil() as u64
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
}
