//! How long an engine may think: a clock with increments, or a fixed time,
//! depth or node count per move.

use std::fmt;
use std::time::Duration;

/// A clock: `moves/base+inc` (moves per period optional), in seconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`40/60`): the base time is added again after them.
    pub moves: Option<u32>,
    /// The time on the clock at the start (and of each period).
    pub base: Duration,
    /// Added after each move.
    pub inc: Duration,
}

fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what}: '{text}' is not a number of seconds"))?;
    if !(0.0..=1e7).contains(&v) {
        return Err(format!("{what}: {v} seconds is out of range"));
    }
    Ok(Duration::from_secs_f64(v))
}

impl TimeControl {
    /// Parses `10+0.1`, `60`, `40/120+1` or `1:30+2` (minutes:seconds).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let text = text.trim();
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m
                    .parse()
                    .ok()
                    .filter(|m| *m > 0)
                    .ok_or_else(|| format!("time control: '{m}' is not a move count"))?;
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = match base.split_once(':') {
            Some((m, s)) => {
                seconds(m, "time control minutes")? * 60 + seconds(s, "time control seconds")?
            }
            None => seconds(base, "time control")?,
        };
        if base.is_zero() {
            return Err("time control: the base time must be above 0".into());
        }
        let inc = match inc {
            Some(i) => seconds(i, "time control increment")?,
            None => Duration::ZERO,
        };
        Ok(TimeControl { moves, base, inc })
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `40/60+0.5`, `10+0.1`, `60`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", trim_secs(self.base))?;
        if !self.inc.is_zero() {
            write!(f, "+{}", trim_secs(self.inc))?;
        }
        Ok(())
    }
}

fn trim_secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What bounds one engine's moves. Several limits may be combined (the
/// first reached stops the search); at least one must be set.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// A clock (`go wtime btime winc binc`).
    pub tc: Option<TimeControl>,
    /// A fixed time per move (`go movetime`).
    pub movetime: Option<Duration>,
    /// A depth per move (`go depth`).
    pub depth: Option<u32>,
    /// A node count per move (`go nodes`).
    pub nodes: Option<u64>,
}

impl Budget {
    /// Whether no limit is set (the engine would think forever).
    pub fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc {tc}"));
        }
        if let Some(mt) = self.movetime {
            parts.push(format!("{} ms/move", mt.as_millis()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if parts.is_empty() {
            parts.push("no limit".into());
        }
        f.write_str(&parts.join(", "))
    }
}

/// A running clock of one side.
#[derive(Copy, Clone, Debug)]
pub struct Clock {
    /// Its time control.
    pub tc: TimeControl,
    /// Time left.
    pub left: Duration,
    /// Moves this side has made.
    pub moves_made: u32,
}

impl Clock {
    /// A clock at the start of a game: the base time, no move made.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left: tc.base,
            moves_made: 0,
        }
    }

    /// Moves to the next time control, if the control has periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// Charges a move's time; `false` if the flag fell (beyond `margin`).
    pub fn charge(&mut self, used: Duration, margin: Duration) -> bool {
        if used > self.left + margin {
            self.left = Duration::ZERO;
            return false;
        }
        self.left = self.left.saturating_sub(used) + self.tc.inc;
        self.moves_made += 1;
        if let Some(m) = self.tc.moves {
            if self.moves_made.is_multiple_of(m) {
                self.left += self.tc.base;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_and_print() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.inc, Duration::from_millis(100));
        assert_eq!(tc.moves, None);
        assert_eq!(tc.to_string(), "10+0.1");
        let tc = TimeControl::parse("40/120+1").unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.to_string(), "40/120+1");
        let tc = TimeControl::parse("1:30").unwrap();
        assert_eq!(tc.base, Duration::from_secs(90));
        assert_eq!(tc.to_string(), "90");
        for bad in ["", "x+1", "0+1", "10+y", "0/10", "-5"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_charge_add_increments_and_periods() {
        let mut c = Clock::new(TimeControl::parse("2/10+1").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(Duration::from_secs(3), Duration::ZERO));
        assert_eq!(c.left, Duration::from_secs(8));
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(Duration::from_secs(1), Duration::ZERO));
        // 8 - 1 + 1 + 10 after the period's second move.
        assert_eq!(c.left, Duration::from_secs(18));
        assert!(!c.charge(Duration::from_secs(19), Duration::from_millis(500)));
        assert_eq!(c.left, Duration::ZERO);
    }
}
