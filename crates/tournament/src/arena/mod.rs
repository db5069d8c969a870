//! The arena, as lichess runs it: players play as many games as they can in
//! the time; each is paired again as soon as they are free.

mod berserk;
mod candidate;
mod min_cost;
mod pairing;
mod ranking;
mod scoring;

pub use berserk::{berserk_clock, may_berserk, BerserkError, ClockSettings};
pub use candidate::{ArenaCandidate, RECENT_OPPONENTS_KEPT};
pub use min_cost::{EXACT_LIMIT, WINDOW};
pub use pairing::{pair_arena, pair_cost, MAX_SAME_COLOUR_IN_A_ROW};
pub use ranking::{arena_performance, rank_arena, ArenaStanding};
pub use scoring::{
    score_player, score_sheet, ScoredGame, Sheet, SheetGame, BERSERK_MIN_PLIES, EARLY_DRAW_PLIES,
    LONG_DRAW_PLIES,
};
