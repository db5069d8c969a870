//! The lobby: seeks anyone may accept, and challenges to one player
//! (their records in [`crate::challenge`]); [`LobbyRepo`] stores both.

use crate::challenge::{ChallengeRecord, ChallengeState};
use crate::trust::{Cap, ChallengeCaps};
use crate::{ClockSettings, StoreError, StoredGame};
use async_trait::async_trait;
use tensorchess_rules::VariantKind;

/// The colour a seek's creator wants (in views, its word: `white`,
/// `black`, `random`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum SeekColor {
    /// The creator plays White.
    White,
    /// The creator plays Black.
    Black,
    /// Drawn when the seek is accepted.
    Random,
}

impl SeekColor {
    /// Its word in requests, views and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            SeekColor::White => "white",
            SeekColor::Black => "black",
            SeekColor::Random => "random",
        }
    }

    /// The colour a stored word names (anything else: random).
    pub fn from_stored(s: &str) -> SeekColor {
        match s {
            "white" => SeekColor::White,
            "black" => SeekColor::Black,
            _ => SeekColor::Random,
        }
    }
}

/// An open invitation in the lobby: anyone may accept it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeekRecord {
    /// The seek's id.
    pub id: String,
    /// The player who posted it.
    pub player_id: String,
    /// The game offered.
    pub variant: VariantKind,
    /// The time control; `None`: no clock.
    pub clock: Option<ClockSettings>,
    /// The game will change both players' ratings.
    pub rated: bool,
    /// The colour the creator plays.
    pub color: SeekColor,
    /// When it was posted (server clock, ms).
    pub created_at: i64,
    /// It lapses then (server clock), if nobody accepted it before.
    pub expires_at: i64,
    /// The client address it came from (the per-address limits' key).
    pub client: Option<String>,
}

/// Storage for seeks and challenges. Each method is one atomic, durable
/// write or one read.
#[async_trait]
pub trait LobbyRepo: Send + Sync + 'static {
    /// Stores a seek.
    async fn create_seek(&self, seek: &SeekRecord) -> Result<(), StoreError>;
    /// The seeks open at `now`, oldest first.
    async fn open_seeks(&self, now: i64) -> Result<Vec<SeekRecord>, StoreError>;
    /// Removes a seek; false if there was none (of that player, when given).
    async fn delete_seek(&self, id: &str, player: Option<&str>) -> Result<bool, StoreError>;
    /// Removes the seeks that lapsed before `now`; returns how many.
    async fn delete_lapsed_seeks(&self, now: i64) -> Result<Vec<String>, StoreError>;
    /// Removes every seek of a player (their last page closed); returns
    /// their ids.
    async fn delete_seeks_of(&self, player: &str) -> Result<Vec<String>, StoreError>;
    /// Accepts a seek: removes it and stores the game it becomes, together,
    /// only if it was still open at `now` ([`StoreError::Conflict`] if not:
    /// one seek never makes two games).
    async fn accept_seek(&self, id: &str, now: i64, game: &StoredGame) -> Result<(), StoreError>;
    /// Stores a new (open) challenge, whatever the caps (the server uses
    /// [`LobbyRepo::create_challenge_capped`]).
    async fn create_challenge(&self, c: &ChallengeRecord) -> Result<(), StoreError>;
    /// Stores a new (open) challenge unless one of `caps` is full, counted
    /// in the same transaction (on PostgreSQL under advisory locks on its
    /// challenger, player challenged and address): `Some(cap)` and
    /// nothing stored when one is. However many servers race, no cap is
    /// passed.
    async fn create_challenge_capped(
        &self,
        c: &ChallengeRecord,
        caps: &ChallengeCaps,
    ) -> Result<Option<Cap>, StoreError>;
    /// One challenge, in whatever state.
    async fn challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError>;
    /// The open challenges a player made or received that have not
    /// expired at `now`, oldest first.
    async fn open_challenges_of(
        &self,
        player: &str,
        now: i64,
    ) -> Result<Vec<ChallengeRecord>, StoreError>;
    /// How many open challenges not expired at `now` came from the client
    /// address `client`.
    async fn open_challenges_from(&self, client: &str, now: i64) -> Result<usize, StoreError>;
    /// Every open challenge not expired at `now`, oldest first.
    async fn open_challenges(&self, now: i64) -> Result<Vec<ChallengeRecord>, StoreError>;
    /// Accepts an open challenge not expired at `now` and stores its game,
    /// together: [`StoreError::Conflict`] (and no game) otherwise.
    async fn accept_challenge(
        &self,
        id: &str,
        now: i64,
        game: &StoredGame,
    ) -> Result<(), StoreError>;
    /// Closes an open challenge as declined, canceled or expired; `false`
    /// when it was not open.
    async fn close_challenge(&self, id: &str, state: &ChallengeState) -> Result<bool, StoreError>;
    /// Closes every open challenge that expired at `now`; returns them.
    async fn expire_challenges(&self, now: i64) -> Result<Vec<ChallengeRecord>, StoreError>;
}
