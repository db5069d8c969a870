//! Playing levels for people, from beginner to full strength.
//!
//! A weak level searches shallowly and misjudges positions by a consistent
//! random amount, so it misses tactics and plans badly the way a weaker
//! player does, yet never plays nonsense such as hanging its queen for no
//! reason at depth ≥ 2.

use std::time::Duration;

/// A level from 1 (beginner) to 6 (full strength).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// What a level allows the search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// The deepest iteration (`None`: no limit).
    pub max_depth: Option<u32>,
    /// The most nodes per search (`None`: no limit).
    pub max_nodes: Option<u64>,
    /// Half-width of the evaluation noise in centipawns.
    pub noise: i32,
    /// Thinking time per move when the game has no clock.
    pub move_time: Duration,
}

impl Level {
    /// The weakest level's number.
    pub const MIN: u8 = 1;
    /// The strongest level's number.
    pub const MAX: u8 = 6;
    /// Full strength.
    pub const FULL: Level = Level(6);

    /// The level numbered `n`, if there is one.
    pub fn new(n: u8) -> Option<Level> {
        (Self::MIN..=Self::MAX).contains(&n).then_some(Level(n))
    }

    /// The level's number (1..=6).
    pub fn number(self) -> u8 {
        self.0
    }

    /// The level's name for people (`Club player`).
    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "Beginner",
            2 => "Novice",
            3 => "Club player",
            4 => "Strong club player",
            5 => "Expert",
            _ => "Full strength",
        }
    }

    /// What the level allows the search.
    pub fn settings(self) -> LevelSettings {
        let ms = Duration::from_millis;
        // Each level searches several times the nodes of the one below and
        // misjudges by about half as much; measured steps in docs/strength.md.
        let (max_depth, max_nodes, noise, move_time) = match self.0 {
            1 => (Some(1), Some(300), 200, ms(300)),
            2 => (Some(2), Some(1_500), 130, ms(400)),
            3 => (Some(3), Some(8_000), 50, ms(500)),
            4 => (Some(6), Some(100_000), 15, ms(800)),
            5 => (Some(8), Some(250_000), 8, ms(1500)),
            _ => (None, None, 0, ms(2500)),
        };
        LevelSettings {
            max_depth,
            max_nodes,
            noise,
            move_time,
        }
    }

    /// The level closest to a UCI Elo rating (a nominal scale for humans; the
    /// measured steps between levels are in `docs/strength.md`).
    pub fn from_elo(elo: u32) -> Level {
        let n = match elo {
            0..=899 => 1,
            900..=1199 => 2,
            1200..=1499 => 3,
            1500..=1799 => 4,
            1800..=2099 => 5,
            _ => 6,
        };
        Level(n)
    }
}
