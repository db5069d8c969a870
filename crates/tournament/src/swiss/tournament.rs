//! A Swiss tournament's data: its players and the rounds played so far.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::outcome::Outcome;
use crate::player::{PlayerKey, Side};
use crate::standings::HalfPoints;

/// The fewest rounds a Swiss tournament is made for.
pub const MIN_ROUNDS: u32 = 3;
/// The most rounds a Swiss tournament is made for.
pub const MAX_ROUNDS: u32 = 15;

/// A player of a Swiss tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    /// The player.
    pub key: PlayerKey,
    /// Their name, the second key of the pairing numbers (after rating).
    pub name: String,
    /// Their rating, the first key of the pairing numbers.
    pub rating: i32,
    /// The first round they play (1 for everyone who starts). Each round
    /// before it counts as a half-point bye (TRF `H`), as for late joiners.
    pub joined_round: u32,
    /// Whether they have left: they are not paired any more.
    pub withdrawn: bool,
}

/// How a game of a Swiss round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SwissResult {
    /// Played over the board.
    Played(Outcome),
    /// Not played: one player did not come, the other (`winner`) scores 1.
    /// A forfeited game does not count as played: no colour, and the two
    /// may still meet.
    Forfeit {
        /// The side that scores the point.
        winner: Side,
    },
}

/// A game of a Swiss round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SwissGame {
    /// The player with White.
    pub white: PlayerKey,
    /// The player with Black.
    pub black: PlayerKey,
    /// How it ended.
    pub result: SwissResult,
}

/// The kinds of bye, with their TRF letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ByeKind {
    /// The pairing-allocated bye of an odd round: 1 point (`U`). At most
    /// one per player.
    Pairing,
    /// A requested full-point bye (`F`).
    Full,
    /// A requested half-point bye (`H`).
    Half,
    /// A zero-point bye, e.g. an absence (`Z`).
    Zero,
}

impl ByeKind {
    /// The points it is worth.
    #[must_use]
    pub fn points(self) -> HalfPoints {
        match self {
            ByeKind::Pairing | ByeKind::Full => HalfPoints::ONE,
            ByeKind::Half => HalfPoints::HALF,
            ByeKind::Zero => HalfPoints(0),
        }
    }
}

/// A player who did not play in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SwissBye {
    /// The player.
    pub player: PlayerKey,
    /// What kind of bye it was.
    pub kind: ByeKind,
}

/// One round's results.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SwissRound {
    /// The games, in board order.
    pub games: Vec<SwissGame>,
    /// The players who did not play and what they scored.
    pub byes: Vec<SwissBye>,
}

/// A Swiss tournament: everything the pairing of its next round needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissTournament {
    /// The players, in any order (pairing numbers are derived).
    pub players: Vec<SwissPlayer>,
    /// The number of rounds planned, [`MIN_ROUNDS`]..=[`MAX_ROUNDS`].
    pub rounds_planned: u32,
    /// The colour the first player gets in round 1 (FIDE: drawn by lot).
    pub initial_colour: Side,
    /// The rounds finished so far, the first first.
    pub rounds: Vec<SwissRound>,
    /// Players who sit the next round out (a requested bye): they are not
    /// paired; the server records their bye (`Half`, `Full` or `Zero`) with
    /// that round's results.
    #[serde(default)]
    pub sitting_out: Vec<PlayerKey>,
}

impl SwissTournament {
    /// The players in pairing-number order (the first is number 1): by
    /// rating, highest first, then name, then key.
    #[must_use]
    pub fn by_pairing_number(&self) -> Vec<&SwissPlayer> {
        let mut order: Vec<&SwissPlayer> = self.players.iter().collect();
        order.sort_by(|a, b| {
            b.rating
                .cmp(&a.rating)
                .then(a.name.cmp(&b.name))
                .then(a.key.cmp(&b.key))
        });
        order
    }
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SwissError {
    /// The planned number of rounds is outside 3..=15.
    #[error("a Swiss tournament has 3 to 15 rounds, not {0}")]
    RoundCount(u32),
    /// All planned rounds are played.
    #[error("all {0} rounds are played")]
    Finished(u32),
    /// A key appears twice among the players.
    #[error("player {0:?} is listed twice")]
    DuplicatePlayer(PlayerKey),
    /// A round names a player who is not in the tournament.
    #[error("round {round} names unknown player {player:?}")]
    UnknownPlayer {
        /// The round (1-based).
        round: u32,
        /// The player.
        player: PlayerKey,
    },
    /// A round names a player twice.
    #[error("round {round} names player {player:?} twice")]
    PlayedTwice {
        /// The round (1-based).
        round: u32,
        /// The player.
        player: PlayerKey,
    },
    /// No pairing meets the absolute criteria (no rematch, colours, at most
    /// one pairing bye), e.g. too many rounds for too few players.
    #[error("round {0} cannot be paired without breaking an absolute rule")]
    NoLegalPairing(u32),
}
