//! Engine matches in any of the three games (`tensorchess match`).
//!
//! No existing tool plays Tensor Chess or Chessence, so this one does:
//! two engines (ours in-process with settings, or any UCI engine command),
//! shipped balanced openings played with both colours, games in parallel,
//! clocks with increments or fixed limits, adjudication, forfeits, PGN,
//! a progress bar, Elo with its error, and an SPRT. Usage: `docs/match.md`.

pub mod budget;
pub mod client;
pub mod game;
pub mod openings;
pub mod player;
pub mod runner;
pub mod schedule;
pub mod spec;
pub mod stats;

pub use budget::{Budget, TimeControl};
pub use game::{Adjudication, DrawRule, ResignRule, Termination};
pub use runner::{run_match, MatchConfig, MatchReport};
pub use spec::EngineSpec;
pub use stats::{Sprt, SprtState, Tally};
