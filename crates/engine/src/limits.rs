//! What bounds a search: depth, nodes, time, or nothing (until stopped).

use std::time::{Duration, Instant};
use tensorchess_rules::Color;

/// Search limits, as UCI's `go` gives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Most nodes, counted over all threads.
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Remaining clock time of White and Black.
    pub time: [Option<Duration>; 2],
    /// Increments of White and Black.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Search for a mate in this many moves (searches to 2n plies).
    pub mate: Option<u32>,
    /// Only these root moves (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<tensorchess_rules::Move>,
}

impl Limits {
    /// Search to depth `d`.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search for `t`.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// Search `n` nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// When to stop: a soft limit checked between iterations and a hard one checked in the tree.
#[derive(Clone, Debug)]
pub(crate) struct Deadline {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    /// Share of `soft` after which no new iteration starts: an iteration
    /// usually costs more than all before it, so half, on a clock; with a
    /// fixed move time the whole time is used (the hard limit ends it).
    pub start_fraction: f64,
    /// A fixed move time: the time not used is lost (nothing is saved for
    /// later moves, unlike a clock), so a settled best move does not stop
    /// the search early.
    pub fixed: bool,
}

/// Time kept back for the protocol and the GUI.
const MOVE_OVERHEAD: Duration = Duration::from_millis(30);

impl Deadline {
    /// `adaptive`: plan for fewer moves, expecting [`Deadline::soft_passed`]
    /// to be asked with a scale below 1 once the best move settles.
    pub fn new(limits: &Limits, us: Color, start: Instant, adaptive: bool) -> Deadline {
        if limits.infinite {
            return Deadline {
                start,
                soft: None,
                hard: None,
                start_fraction: 0.5,
                fixed: false,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = mt
                .saturating_sub(MOVE_OVERHEAD / 2)
                .max(Duration::from_millis(1));
            return Deadline {
                start,
                soft: Some(t),
                hard: Some(t),
                start_fraction: 1.0,
                fixed: true,
            };
        }
        if let Some(left) = limits.time[us.index()] {
            let inc = limits.inc[us.index()].unwrap_or_default();
            let usable = left.saturating_sub(MOVE_OVERHEAD);
            // Plan for a number of moves left, use most of the increment
            // (a common scheme, e.g. in the Ethereal and Stash engines).
            let planned = if adaptive { 20 } else { 30 };
            let mtg = limits.movestogo.unwrap_or(planned).clamp(1, 50);
            let base = usable / mtg + inc * 3 / 4;
            let soft = base.min(usable / 2);
            let hard = (base * 4).min(usable * 3 / 4).max(soft);
            return Deadline {
                start,
                soft: Some(soft.max(Duration::from_millis(1))),
                hard: Some(hard.max(Duration::from_millis(1))),
                start_fraction: 0.5,
                fixed: false,
            };
        }
        Deadline {
            start,
            soft: None,
            hard: None,
            start_fraction: 0.5,
            fixed: false,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to start another iteration; `scale` stretches (above 1) or
    /// shrinks the soft limit on a clock (a fixed move time is used whole).
    pub fn soft_passed(&self, scale: f64) -> bool {
        let scale = if self.fixed { 1.0 } else { scale };
        self.soft.is_some_and(|s| {
            self.elapsed().as_secs_f64() >= s.as_secs_f64() * self.start_fraction * scale
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left_ms: u64, inc_ms: u64) -> Limits {
        let ms = Duration::from_millis;
        Limits {
            time: [Some(ms(left_ms)), Some(ms(left_ms))],
            inc: [Some(ms(inc_ms)), Some(ms(inc_ms))],
            ..Limits::default()
        }
    }

    #[test]
    fn a_clock_is_shared_over_the_planned_moves() {
        let now = Instant::now();
        let ms = Duration::from_millis;
        // 10 s + 0.1 s: 9 970 ms usable after the overhead.
        let adaptive = Deadline::new(&clock(10_000, 100), Color::White, now, true);
        assert_eq!(adaptive.soft, Some(ms(9_970) / 20 + ms(75)));
        assert_eq!(adaptive.hard, Some((ms(9_970) / 20 + ms(75)) * 4));
        let fixed = Deadline::new(&clock(10_000, 100), Color::Black, now, false);
        assert_eq!(fixed.soft, Some(ms(9_970) / 30 + ms(75)));
        // movestogo overrides the plan; never more than half of what is left.
        let mut l = clock(1_000, 0);
        l.movestogo = Some(1);
        let d = Deadline::new(&l, Color::White, now, true);
        assert_eq!(d.soft, Some(ms(970) / 2));
        assert_eq!(d.hard, Some(ms(970) * 3 / 4));
        // A fixed move time is used whole.
        let d = Deadline::new(&Limits::movetime(ms(500)), Color::White, now, true);
        assert_eq!(
            (d.soft, d.hard, d.start_fraction),
            (Some(ms(485)), Some(ms(485)), 1.0)
        );
    }

    #[test]
    fn the_soft_limit_scales() {
        let start = Instant::now() - Duration::from_millis(300);
        let d = Deadline {
            start,
            soft: Some(Duration::from_millis(1_000)),
            hard: None,
            start_fraction: 0.5,
            fixed: false,
        };
        // 300 ms gone: past half of 1 000 × 0.5, not past half of 1 000 or of 2 000.
        assert!(d.soft_passed(0.5));
        assert!(!d.soft_passed(1.0));
        assert!(!d.soft_passed(2.0));
        let unbounded = Deadline {
            soft: None,
            ..d.clone()
        };
        assert!(!unbounded.soft_passed(0.01));
        // A fixed move time of 1 000 ms: a settled best move (a scale
        // below 1) does not end it after 300 ms; the hard limit does.
        let fixed = Deadline::new(
            &Limits::movetime(Duration::from_millis(1_000)),
            Color::White,
            start,
            true,
        );
        assert!(!fixed.soft_passed(0.25));
        assert!(!fixed.soft_passed(1.0));
    }
}
