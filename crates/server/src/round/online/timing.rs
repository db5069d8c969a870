//! How an online game is timed: not at all, by a real-time clock (minutes
//! and an increment), or by days per move (correspondence, where each
//! move resets the mover's time).

use crate::error::AppError;
use crate::store::{ClockSettings, OnlineRecord};

/// The days per move a correspondence game may give, as on lichess.
pub const CORRESPONDENCE_DAYS: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// An online game's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Timing {
    /// No time limit.
    #[default]
    Untimed,
    /// A real-time clock.
    Clock(ClockSettings),
    /// Correspondence: days per move.
    Days(u32),
}

impl Timing {
    /// The timing of a request's `clock` and `days` (at most one of them).
    pub fn of_request(clock: Option<ClockSettings>, days: Option<u32>) -> Result<Timing, AppError> {
        match (clock, days) {
            (Some(_), Some(_)) => Err(AppError::bad("Give a clock or days per move, not both")),
            (Some(c), None) => Ok(Timing::Clock(c)),
            (None, Some(d)) if CORRESPONDENCE_DAYS.contains(&d) => Ok(Timing::Days(d)),
            (None, Some(_)) => Err(AppError::bad(format!(
                "Days per move must be one of {}",
                CORRESPONDENCE_DAYS.map(|d| d.to_string()).join(", ")
            ))),
            (None, None) => Ok(Timing::Untimed),
        }
    }

    /// The real-time clock, if any.
    pub fn clock(self) -> Option<ClockSettings> {
        match self {
            Timing::Clock(c) => Some(c),
            _ => None,
        }
    }

    /// The days per move, if any.
    pub fn days(self) -> Option<u32> {
        match self {
            Timing::Days(d) => Some(d),
            _ => None,
        }
    }

    /// Each side's time when the game starts (ms; 0 untimed).
    pub fn initial_ms(self) -> i64 {
        match self {
            Timing::Untimed => 0,
            Timing::Clock(c) => c.base_ms,
            Timing::Days(d) => i64::from(d) * DAY_MS,
        }
    }

    /// The timing a challenge asks for.
    pub fn of_challenge(c: &crate::store::ChallengeRecord) -> Timing {
        match (c.clock, c.days) {
            (Some(c), _) => Timing::Clock(c),
            (None, Some(d)) => Timing::Days(d),
            (None, None) => Timing::Untimed,
        }
    }

    /// The timing a stored game was made with.
    pub fn of_record(o: &OnlineRecord) -> Timing {
        match (o.clock, o.days) {
            (Some(c), _) => Timing::Clock(c),
            (None, Some(d)) => Timing::Days(d),
            (None, None) => Timing::Untimed,
        }
    }

    /// A new game's online state with this timing: the time fields set,
    /// the rest default.
    pub fn record(self) -> OnlineRecord {
        let ms = self.initial_ms();
        OnlineRecord {
            clock: self.clock(),
            days: self.days(),
            ms: tensorchess_rules::ByColor::new(ms, ms),
            ..OnlineRecord::default()
        }
    }

    /// The mover's time after a move, `left` being what it had left
    /// (`None`: the clock did not run yet): a clock adds the increment,
    /// days per move start again in full.
    pub fn after_move(self, left: Option<i64>, stored: i64) -> i64 {
        match self {
            Timing::Untimed => stored,
            Timing::Clock(c) => left.map_or(stored, |l| l + c.increment_ms),
            Timing::Days(d) => i64::from(d) * DAY_MS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_gives_a_clock_or_days_never_both() {
        let clock = ClockSettings {
            base_ms: 180_000,
            increment_ms: 2_000,
        };
        assert_eq!(Timing::of_request(None, None).unwrap(), Timing::Untimed);
        assert_eq!(
            Timing::of_request(Some(clock), None).unwrap(),
            Timing::Clock(clock)
        );
        assert_eq!(Timing::of_request(None, Some(3)).unwrap(), Timing::Days(3));
        assert!(Timing::of_request(Some(clock), Some(3)).is_err());
        for odd in [0, 4, 6, 30] {
            assert!(Timing::of_request(None, Some(odd)).is_err(), "{odd}");
        }
    }

    #[test]
    fn days_start_again_after_each_move_and_a_clock_adds_its_increment() {
        let days = Timing::Days(2);
        assert_eq!(days.initial_ms(), 2 * DAY_MS);
        assert_eq!(days.after_move(Some(1_000), 1_000), 2 * DAY_MS);
        let clock = Timing::Clock(ClockSettings {
            base_ms: 60_000,
            increment_ms: 1_000,
        });
        assert_eq!(clock.after_move(Some(5_000), 60_000), 6_000);
        assert_eq!(clock.after_move(None, 60_000), 60_000, "not running yet");
        let r = days.record();
        assert_eq!((r.clock, r.days, r.ms.white), (None, Some(2), 2 * DAY_MS));
        assert_eq!(Timing::of_record(&r), days);
    }
}
