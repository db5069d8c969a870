//! Measuring evaluation weights: self-play data and Texel tuning.
//!
//! Recipe (also in `docs/tuning.md`): `tensorchess selfplay` plays engine
//! games from randomised openings and writes quiet positions with the game's
//! result; `tensorchess tune` fits the evaluation weights to those results by
//! minimising the squared error of a logistic of the evaluation (Peter
//! Österlund's "Texel" method) and writes them as JSON and as a Rust table.

pub mod selfplay;
pub mod texel;
