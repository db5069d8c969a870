//! What the clients found, gathered from every player for the report and
//! the database check.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicU64;

/// An acknowledged move: (game, ply, move).
pub(crate) type Acked = (String, usize, String);

/// Everything the players report, merged.
#[derive(Default)]
pub(crate) struct Tally {
    /// Round trips of acknowledged moves (sent → ack), in µs.
    pub(crate) rtts_us: Vec<u64>,
    /// When each of those moves was sent (ms since the Unix epoch), in
    /// the same order (`--rtt-log`).
    pub(crate) sent_ms: Vec<u64>,
    pub(crate) acked: Vec<Acked>,
    pub(crate) endings: HashMap<String, usize>,
    /// Games a client saw end.
    pub(crate) ended: HashSet<String>,
    pub(crate) refused: HashMap<String, usize>,
    pub(crate) errors: Vec<String>,
    /// Moves sent but not acknowledged when the connection broke, by what
    /// the snapshot after reconnecting said: stored or not.
    pub(crate) in_doubt_stored: usize,
    pub(crate) in_doubt_lost: usize,
}

/// Counters the watcher reads while the games run.
#[derive(Default)]
pub(crate) struct Live {
    pub(crate) moves: AtomicU64,
    pub(crate) reconnects: AtomicU64,
    pub(crate) players_left: AtomicU64,
}

/// The `p` quantile (0 to 1) of sorted microseconds, in milliseconds: the
/// value at rank round((n - 1) p), so p 0.5 is the median and 1 the maximum.
pub(crate) fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p.clamp(0.0, 1.0)).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

/// "3 checkmate, 5 draw" from counts, most frequent first; `none` if empty.
pub(crate) fn counts(map: &HashMap<String, usize>) -> String {
    let mut v: Vec<_> = map.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_round_trips() {
        assert_eq!(percentile(&[], 0.99), 0.0);
        assert_eq!(percentile(&[5000], 0.5), 5.0);
        let us: Vec<u64> = (1..=100).map(|ms| ms * 1000).collect();
        assert_eq!(percentile(&us, 0.0), 1.0);
        assert_eq!(percentile(&us, 0.5), 51.0); // rank round(49.5) = 50
        assert_eq!(percentile(&us, 0.99), 99.0);
        assert_eq!(percentile(&us, 1.0), 100.0);
        assert_eq!(percentile(&us, 2.0), 100.0);
        let us: Vec<u64> = (0..1001).map(|i| i * 10).collect();
        assert_eq!(percentile(&us, 0.99), 9.9);
    }

    #[test]
    fn counts_most_frequent_first() {
        let mut m = HashMap::new();
        assert_eq!(counts(&m), "none");
        m.insert("draw".to_string(), 2);
        m.insert("checkmate".to_string(), 5);
        m.insert("abort".to_string(), 2);
        assert_eq!(counts(&m), "5 checkmate, 2 abort, 2 draw");
    }
}
