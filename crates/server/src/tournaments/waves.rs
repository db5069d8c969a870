//! The director's pairing waves as an operator (and the load test) sees
//! them: how many players waited, how many boards were made, how long the
//! pairing and the games' starts took. Kept for the last [`WAVES_KEPT`]
//! waves of this instance, and counted since it started.

use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Mutex;

/// Waves kept for `GET /api/health`.
pub const WAVES_KEPT: usize = 1024;

/// One pairing wave of an arena.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WaveStat {
    /// Players waiting to be paired.
    pub waiting: usize,
    /// Boards started.
    pub boards: usize,
    /// Reading the tournament and choosing the pairs, in microseconds.
    pub pair_us: u64,
    /// Starting the boards' games (stored, announced), in microseconds.
    pub start_us: u64,
    /// When the games began to be started, by the server's clock (ms
    /// since the Unix epoch): to lay a wave beside what else was slow.
    pub at_ms: i64,
}

/// The waves of this instance.
#[derive(Default)]
pub struct WaveLog {
    inner: Mutex<(u64, VecDeque<WaveStat>)>,
}

impl WaveLog {
    /// Notes one wave.
    pub fn note(&self, wave: WaveStat) {
        let mut g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        g.0 += 1;
        if g.1.len() == WAVES_KEPT {
            g.1.pop_front();
        }
        g.1.push_back(wave);
    }

    /// Waves since this instance started, and the latest ones, oldest first.
    pub fn snapshot(&self) -> (u64, Vec<WaveStat>) {
        let g = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        (g.0, g.1.iter().copied().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wave(boards: usize) -> WaveStat {
        WaveStat {
            waiting: 2 * boards,
            boards,
            pair_us: 10,
            start_us: 20,
            at_ms: 1_000,
        }
    }

    #[test]
    fn the_log_counts_every_wave_and_keeps_the_latest() {
        let log = WaveLog::default();
        assert_eq!(log.snapshot(), (0, vec![]));
        for b in 0..WAVES_KEPT + 3 {
            log.note(wave(b));
        }
        let (count, kept) = log.snapshot();
        assert_eq!(count, (WAVES_KEPT + 3) as u64);
        assert_eq!(kept.len(), WAVES_KEPT);
        assert_eq!(kept[0], wave(3));
        assert_eq!(kept[WAVES_KEPT - 1], wave(WAVES_KEPT + 2));
    }
}
