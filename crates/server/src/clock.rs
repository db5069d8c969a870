//! Time as the server sees it: game clocks, flag timers, eviction of idle
//! games, rate limits and the heartbeat all read one [`Clock`], so tests can
//! replace the wall clock by a [`ManualClock`] and move time by hand.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// A future that finishes at some time on a [`Clock`].
pub type Sleep<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

/// A source of time in milliseconds, with sleeping.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since an epoch of the clock's choosing (the Unix epoch
    /// for the system clock); never compared across clocks.
    fn now_ms(&self) -> i64;
    /// Finishes once `now_ms() >= deadline_ms`.
    fn sleep_until(&self, deadline_ms: i64) -> Sleep<'_>;
}

/// The wall clock.
#[derive(Default, Debug, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }

    fn sleep_until(&self, deadline_ms: i64) -> Sleep<'_> {
        Box::pin(async move {
            // Re-check after waking: the wall clock may have been set back.
            loop {
                let left = deadline_ms - self.now_ms();
                if left <= 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(left as u64)).await;
            }
        })
    }
}

/// A clock that moves only when told to (tests).
#[derive(Debug)]
pub struct ManualClock {
    now: watch::Sender<i64>,
}

impl ManualClock {
    /// A clock that reads `start_ms` until moved.
    pub fn new(start_ms: i64) -> ManualClock {
        ManualClock {
            now: watch::channel(start_ms).0,
        }
    }

    /// Moves time forward by `ms` and wakes every sleeper whose time has come.
    pub fn advance(&self, ms: i64) {
        self.now.send_modify(|t| *t += ms.max(0));
    }

    /// Sets the time (forward only).
    pub fn set(&self, ms: i64) {
        self.now.send_modify(|t| *t = (*t).max(ms));
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> i64 {
        *self.now.borrow()
    }

    fn sleep_until(&self, deadline_ms: i64) -> Sleep<'_> {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as `self`, so this only ends at the deadline.
            let _ = rx.wait_for(|t| *t >= deadline_ms).await;
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn a_manual_clock_wakes_sleepers_when_advanced() {
        let clock = Arc::new(ManualClock::new(1_000));
        let c = clock.clone();
        let sleeper = tokio::spawn(async move {
            c.sleep_until(1_500).await;
            c.now_ms()
        });
        tokio::task::yield_now().await;
        clock.advance(200);
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        clock.advance(300);
        assert_eq!(sleeper.await.unwrap(), 1_500);
        clock.sleep_until(0).await; // the past: at once
    }

    #[tokio::test]
    async fn the_system_clock_sleeps_for_real() {
        let c = SystemClock;
        let start = c.now_ms();
        c.sleep_until(start + 20).await;
        assert!(c.now_ms() >= start + 20);
    }
}
