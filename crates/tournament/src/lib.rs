//! Tournaments as pure data: data in, data out, no I/O and no clock.
//!
//! * [`arena`]: lichess's arena — scoring a player's sheet (streaks, fire,
//!   berserk), pairing a wave of waiting players (an exact minimum-cost
//!   matching for small waves, windows for large ones) and the standings.
//! * [`berger`]: round robins by the FIDE Berger tables, single or double.
//! * [`swiss`]: Swiss tournaments by the FIDE Dutch system.
//! * [`standings`]: points, Sonneborn–Berger, performance, podium.
//! * [`trf`]: the FIDE tournament report file of a Swiss tournament.
//!
//! The rules as implemented are written down in the repository's
//! `docs/tournaments.md`.
//!
//! ```
//! use tensorchess_tournament::arena::{score_sheet, SheetGame};
//! use tensorchess_tournament::swiss::{pair_next_round, SwissPlayer, SwissTournament};
//! use tensorchess_tournament::{Pairing, PlayerKey, PlayerResult, Side};
//!
//! // Arena: win, win, then a win on fire (doubled), then a loss.
//! let game = |result| SheetGame { result, plies: 40, berserked: false };
//! let sheet = score_sheet(&[
//!     game(PlayerResult::Win),
//!     game(PlayerResult::Win),
//!     game(PlayerResult::Win),
//!     game(PlayerResult::Loss),
//! ]);
//! assert_eq!(sheet.points_line(), "2 2 4 0");
//!
//! // Swiss: round 1 pairs the top half against the bottom half.
//! let players = (1..=4)
//!     .map(|k| SwissPlayer {
//!         key: PlayerKey(k),
//!         name: format!("Player {k}"),
//!         rating: 2000 - k as i32,
//!         joined_round: 1,
//!         withdrawn: false,
//!     })
//!     .collect();
//! let tournament = SwissTournament {
//!     players,
//!     rounds_planned: 3,
//!     initial_colour: Side::White,
//!     rounds: Vec::new(),
//!     sitting_out: Vec::new(),
//! };
//! let round = pair_next_round(&tournament).unwrap();
//! assert_eq!(
//!     round.boards,
//!     [
//!         Pairing { white: PlayerKey(1), black: PlayerKey(3) },
//!         Pairing { white: PlayerKey(4), black: PlayerKey(2) },
//!     ]
//! );
//! ```

pub mod arena;
pub mod berger;
mod matching;
mod outcome;
mod pairing;
mod player;
pub mod standings;
pub mod swiss;
pub mod trf;

pub use outcome::{games_by_player, FinishedGame, Outcome, PlayerResult};
pub use pairing::Pairing;
pub use player::{PlayerKey, Side};
