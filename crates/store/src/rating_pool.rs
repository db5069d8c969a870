//! Which rating a rated game moves: one per game, and correspondence
//! games (days per move) apart from real-time ones, as on lichess: a
//! player's strength with days to think is not their strength at 3+2.

use std::fmt;
use std::str::FromStr;
use tensorchess_rules::VariantKind;

/// A rating pool: a game, real-time or correspondence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RatingPool {
    /// The game.
    pub variant: VariantKind,
    /// Days per move rather than a clock (or none).
    pub correspondence: bool,
}

/// What a stored correspondence pool's key ends with.
const CORRESPONDENCE_SUFFIX: &str = "_correspondence";

impl RatingPool {
    /// The real-time (or untimed) pool of `variant`.
    pub const fn real_time(variant: VariantKind) -> RatingPool {
        RatingPool {
            variant,
            correspondence: false,
        }
    }

    /// The correspondence pool of `variant`.
    pub const fn correspondence(variant: VariantKind) -> RatingPool {
        RatingPool {
            variant,
            correspondence: true,
        }
    }

    /// The stored key: the game's name (`tensor`), with
    /// `_correspondence` after it for correspondence (the real-time keys
    /// are the ones stored before correspondence existed).
    pub fn key(self) -> String {
        if self.correspondence {
            format!("{}{CORRESPONDENCE_SUFFIX}", self.variant.name())
        } else {
            self.variant.name().to_string()
        }
    }
}

impl fmt::Display for RatingPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

impl FromStr for RatingPool {
    type Err = ();

    fn from_str(s: &str) -> Result<RatingPool, ()> {
        match s.strip_suffix(CORRESPONDENCE_SUFFIX) {
            Some(game) => game.parse().map(RatingPool::correspondence).map_err(|_| ()),
            None => s.parse().map(RatingPool::real_time).map_err(|_| ()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_reads_back_from_its_key() {
        for variant in [
            VariantKind::Tensor,
            VariantKind::Chess,
            VariantKind::Chessence,
        ] {
            for pool in [
                RatingPool::real_time(variant),
                RatingPool::correspondence(variant),
            ] {
                assert_eq!(pool.key().parse::<RatingPool>(), Ok(pool));
            }
        }
        assert_eq!(RatingPool::real_time(VariantKind::Tensor).key(), "tensor");
        assert!("checkers".parse::<RatingPool>().is_err());
        assert!("checkers_correspondence".parse::<RatingPool>().is_err());
    }
}
