//! Swiss tournaments by the FIDE Dutch system (Handbook C.04.3, the rules
//! in force from 2017 to January 2026).
//!
//! * **Up to 100 players, exact** (`dutch.rs`, `bracket.rs`): each bracket's
//!   best candidate by the quality criteria C.5–C.19 and, among the best,
//!   the first in the order of generation (D.1–D.3), as B.8 asks; the
//!   completion test (C.4) and the collapse into the penultimate pairing
//!   bracket (A.9); the pairing bye to the last bracket's odd player out.
//!   The method is bbpPairings' (a weighted matching whose weights hold
//!   the criteria, bits apart); `tests/integration/dutch_oracle.rs` checks every round
//!   of random tournaments against py4swiss, which follows bbpPairings.
//! * **Larger fields, greedy** (`pairing.rs`): score brackets from the top,
//!   MDPs paired first with the first resident they can meet, a
//!   homogeneous bracket paired whole by the fewest unmet colour
//!   preferences and then the Dutch order, brackets that cannot be paired
//!   whole player by player; the absolute criteria and the completion test
//!   always hold, the quality criteria only as far as this goes (the exact
//!   method's work grows as the fourth power of a bracket).
//!
//! Both: pairing numbers by rating, then name, then key; colour
//! preferences (A.6) and allocation (E.1–E.5); floats (A.4: meeting a
//! lower or higher score, or not playing at all); the pairing bye never to
//! one who had it or won by forfeit (C.2); late joiners' half points for
//! rounds missed; forfeits not counted as played; standings by points,
//! Sonneborn–Berger, performance. Not implemented: accelerated pairings.

mod bracket;
mod colour;
mod dutch;
mod history;
mod pairing;
mod standings;
mod tournament;
mod whole_bracket;

pub use pairing::{pair_next_round, SwissPairing};
pub use standings::swiss_standings;
pub use tournament::{
    ByeKind, SwissBye, SwissError, SwissGame, SwissPlayer, SwissResult, SwissRound,
    SwissTournament, MAX_ROUNDS, MIN_ROUNDS,
};
