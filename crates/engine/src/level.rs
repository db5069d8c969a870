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
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// Half-width of the evaluation noise in centipawns.
    pub noise: i32,
    /// Thinking time per move when the game has no clock.
    pub move_time: Duration,
}

impl Level {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = 6;
    pub const FULL: Level = Level(6);

    pub fn new(n: u8) -> Option<Level> {
        (Self::MIN..=Self::MAX).contains(&n).then_some(Level(n))
    }

    pub fn number(self) -> u8 {
        self.0
    }

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

    pub fn settings(self) -> LevelSettings {
        let ms = Duration::from_millis;
        match self.0 {
            1 => LevelSettings {
                max_depth: Some(1),
                max_nodes: Some(2_000),
                noise: 250,
                move_time: ms(300),
            },
            2 => LevelSettings {
                max_depth: Some(2),
                max_nodes: Some(10_000),
                noise: 120,
                move_time: ms(400),
            },
            3 => LevelSettings {
                max_depth: Some(3),
                max_nodes: Some(50_000),
                noise: 60,
                move_time: ms(500),
            },
            4 => LevelSettings {
                max_depth: Some(5),
                max_nodes: Some(200_000),
                noise: 30,
                move_time: ms(800),
            },
            5 => LevelSettings {
                max_depth: Some(9),
                max_nodes: Some(1_500_000),
                noise: 10,
                move_time: ms(1500),
            },
            _ => LevelSettings {
                max_depth: None,
                max_nodes: None,
                noise: 0,
                move_time: ms(3000),
            },
        }
    }

    /// The level closest to a UCI Elo rating (a rough scale, measured in `docs/strength.md`).
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
