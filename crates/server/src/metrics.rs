//! Counters an operator graphs (`GET /api/health`): connections, sockets,
//! slow sockets dropped, refusals for overload. Each is a relaxed atomic:
//! cheap to count, exact enough to watch.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

/// The server's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    /// TCP connections open now.
    pub connections: AtomicUsize,
    /// WebSockets open now.
    pub sockets: AtomicUsize,
    /// Sockets closed because their client did not read what was sent.
    pub slow_sockets_dropped: AtomicU64,
    /// Requests or connections refused because the server was overloaded.
    pub overloaded: AtomicU64,
    /// Request bodies that did not arrive in time.
    pub body_timeouts: AtomicU64,
}

/// Counts one open thing while it lives.
pub struct Gauge(Arc<Metrics>, fn(&Metrics) -> &AtomicUsize);

impl Gauge {
    /// Counts one more of `which` until the gauge is dropped.
    pub fn hold(metrics: &Arc<Metrics>, which: fn(&Metrics) -> &AtomicUsize) -> Gauge {
        which(metrics).fetch_add(1, Ordering::Relaxed);
        Gauge(metrics.clone(), which)
    }
}

impl Drop for Gauge {
    fn drop(&mut self) {
        (self.1)(&self.0).fetch_sub(1, Ordering::Relaxed);
    }
}

impl Metrics {
    /// Adds one to a counter.
    pub fn count(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// TCP connections open now.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::Relaxed)
    }

    /// WebSockets open now.
    pub fn sockets(&self) -> usize {
        self.sockets.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauges_count_while_held() {
        let m = Arc::new(Metrics::default());
        let a = Gauge::hold(&m, |m| &m.sockets);
        let b = Gauge::hold(&m, |m| &m.sockets);
        assert_eq!(m.sockets(), 2);
        drop(a);
        assert_eq!(m.sockets(), 1);
        drop(b);
        assert_eq!(m.sockets(), 0);
        Metrics::count(&m.overloaded);
        assert_eq!(m.overloaded.load(Ordering::Relaxed), 1);
    }
}
