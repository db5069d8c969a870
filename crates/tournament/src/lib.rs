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

pub mod arena;
pub mod berger;
mod matching;
mod outcome;
mod pairing;
mod player;
pub mod standings;
pub mod swiss;
pub mod trf;

pub use outcome::{FinishedGame, Outcome, PlayerResult};
pub use pairing::Pairing;
pub use player::{PlayerKey, Side};
