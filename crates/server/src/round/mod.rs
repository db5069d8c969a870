//! The round (lila's word): the one writer of every game. A game changes
//! only through [`games::Games::act`], which locks it once, checks the
//! seat or ownership, applies a [`command::Command`] (a player's, or the
//! server's own: a flag falling, the engine's move), commits the change in
//! one transaction and publishes its event; nothing outside this module
//! can commit or publish a game (`LiveGames::commit` and `publish` are
//! visible here only). Live games in memory (`live`), their local and
//! online halves (`local`, `online`), and the engine that plays in them
//! (`engine_player`).

pub mod command;
pub mod engine_player;
pub mod featured;
pub mod games;
pub mod live;
pub mod local;
pub mod online;
