//! Swiss tournaments by the FIDE Dutch system (Handbook C.04.3, the rules
//! in force since 2017), as far as implemented:
//!
//! * **Implemented**: pairing numbers (rating, then name, then key); score
//!   brackets paired from the top with downfloaters (MDPs) carried into the
//!   next bracket as its S1; S1 against S2 in order, with transpositions
//!   and exchanges approximated by a greedy choice in Dutch order; the
//!   absolute criteria (no rematch; no colour three times in a row; colour
//!   difference within ±2, but for the last round's topscorers; at most
//!   one point without playing from the pairing bye); the completion test (a choice is only made if everyone
//!   left can still be paired); a homogeneous bracket paired whole when it
//!   can be, with the fewest unmet colour preferences (C.12, C.13, exact:
//!   a weighted matching) and then the Dutch order; colour preferences (absolute, strong, mild) and their
//!   allocation (E.1–E.5); minimising unmet colour preferences per
//!   pairing; floats of the last round (C.14: the floater of an odd
//!   bracket did not float down, if possible; C.15: MDPs meet residents
//!   who did not float up, if possible); the bye to the lowest-ranked
//!   eligible player; late joiners' half points for rounds missed;
//!   forfeits (not counted as played); standings by points,
//!   Sonneborn–Berger, performance.
//! * **Not implemented**: the full quality-criteria optimisation of C.04.3
//!   C.5–C.21 (MDPs and brackets that cannot be paired whole are paired
//!   player by player, greedily; a floater is chosen by C.14 before the
//!   colour criteria are weighed; the order of generation is approximated
//!   by a cost); the float criteria of two rounds
//!   back (C.16–C.17); the other topscorer criteria of the last round
//!   (C.10–C.11); accelerated pairings.

mod colour;
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
