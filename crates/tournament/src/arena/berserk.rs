//! Berserk: a player halves their own clock for an extra point on a win.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A clock's starting settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClockSettings {
    /// The initial time, in seconds.
    pub base_seconds: u32,
    /// The time added after each move, in seconds.
    pub increment_seconds: u32,
}

/// Why a player may not berserk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum BerserkError {
    /// The player has already moved in this game.
    #[error("berserk is only allowed before one's first move")]
    AlreadyMoved,
    /// The clock has no initial time to halve (increment-only clocks).
    #[error("berserk needs a clock with an initial time")]
    NoInitialTime,
}

/// Whether a player may berserk: only before their first move, and only
/// when the clock has an initial time.
pub fn may_berserk(clock: ClockSettings, has_moved: bool) -> Result<(), BerserkError> {
    if has_moved {
        Err(BerserkError::AlreadyMoved)
    } else if clock.base_seconds == 0 {
        Err(BerserkError::NoInitialTime)
    } else {
        Ok(())
    }
}

/// The berserker's clock: half the initial time (rounded down, to the
/// second) and no increment.
pub fn berserk_clock(clock: ClockSettings) -> Result<ClockSettings, BerserkError> {
    if clock.base_seconds == 0 {
        return Err(BerserkError::NoInitialTime);
    }
    Ok(ClockSettings {
        base_seconds: clock.base_seconds / 2,
        increment_seconds: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_the_time_and_drops_the_increment() {
        let clock = ClockSettings {
            base_seconds: 180,
            increment_seconds: 2,
        };
        assert_eq!(
            berserk_clock(clock),
            Ok(ClockSettings {
                base_seconds: 90,
                increment_seconds: 0
            })
        );
        let odd = ClockSettings {
            base_seconds: 45,
            increment_seconds: 0,
        };
        assert_eq!(berserk_clock(odd).unwrap().base_seconds, 22);
    }

    #[test]
    fn only_before_the_first_move_and_with_initial_time() {
        let clock = ClockSettings {
            base_seconds: 60,
            increment_seconds: 1,
        };
        assert_eq!(may_berserk(clock, false), Ok(()));
        assert_eq!(may_berserk(clock, true), Err(BerserkError::AlreadyMoved));
        let increment_only = ClockSettings {
            base_seconds: 0,
            increment_seconds: 5,
        };
        assert_eq!(
            may_berserk(increment_only, false),
            Err(BerserkError::NoInitialTime)
        );
        assert_eq!(
            berserk_clock(increment_only),
            Err(BerserkError::NoInitialTime)
        );
    }
}
