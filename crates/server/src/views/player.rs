//! A player wherever a page shows one: one shape for the seats, the
//! seeks, the challenges and the tournaments (written once; each page
//! links the name to the profile and marks a bot the same way).

use super::Title;
use serde::{Deserialize, Serialize};

/// A player as pages show them: a name that links to the profile of an
/// account, and the `BOT` mark.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
pub struct PlayerView {
    /// Their player id.
    pub id: String,
    /// Their name.
    pub name: String,
    /// Their account's user name (`#/player/NAME`, their profile); none
    /// for a guest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account: Option<String>,
    /// `BOT` for a bot account (shown before the name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<Title>,
}

/// A player with their rating in the pool of a game offered (a seek, a
/// challenge).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct RatedPlayerView {
    /// Who they are.
    #[serde(flatten)]
    #[ts(flatten)]
    pub player: PlayerView,
    /// Their rating in the game's pool, rounded (the start for a newcomer).
    pub rating: i32,
    /// The rating is still uncertain (a large deviation; lichess marks it so).
    pub provisional: bool,
}

/// `GET /api/games/{id}/players`: who holds each seat of an online game
/// (`null`: nobody yet).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct GamePlayersView {
    /// White's player.
    pub white: Option<PlayerView>,
    /// Black's player.
    pub black: Option<PlayerView>,
}
