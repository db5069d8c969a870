//! Where games live between requests and across restarts.
//!
//! Everything the server keeps goes through the [`GameStore`] trait, so that
//! another database slots in beside [`SqliteStore`] without touching the
//! services. Records are typed ([`VariantKind`], [`Color`], [`Ending`]);
//! they become text only in a backend's row mapping ([`columns`]).
//!
//! Every change to a game is one atomic, durable write that names the
//! revision it follows ([`GameUpdate::rev`] is the next one): a write that
//! finds another revision fails with [`StoreError::Stale`] and changes
//! nothing, so that when several servers share a database, the database
//! decides the order of moves.

pub mod columns;
#[cfg(test)]
mod conformance;
mod sqlite;
mod writer;

pub use sqlite::{SqliteStore, SCHEMA_VERSION};

use async_trait::async_trait;
use tensorchess_rules::{Color, Outcome, VariantKind};

/// A storage failure (the disk, the database file, or a broken invariant).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("storage task failed: {0}")]
    Task(String),
    #[error("the database could not commit: {0}")]
    Commit(String),
    /// The write does not fit what is stored (no such game, a ply out of turn).
    #[error("{0}")]
    Conflict(String),
    /// The game moved on: its stored revision is `found`, not the one the
    /// write followed.
    #[error("game {id} has moved on (revision {found} is stored)")]
    Stale { id: String, found: i64 },
    /// A stored value this program cannot read.
    #[error("game {id}: {what}")]
    Corrupt { id: String, what: String },
    #[error("the database at {path} was written by a newer version (schema {found}, this program knows {known})")]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
}

/// How a game is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameMode {
    /// One person against the engine.
    Engine,
    /// Two people taking turns on one device.
    Local,
    /// Two people on their own devices, each holding a seat (see [`OnlineRecord`]).
    Online,
}

impl GameMode {
    pub fn as_str(self) -> &'static str {
        match self {
            GameMode::Engine => "engine",
            GameMode::Local => "local",
            GameMode::Online => "online",
        }
    }

    pub fn parse(s: &str) -> Option<GameMode> {
        match s {
            "engine" => Some(GameMode::Engine),
            "local" => Some(GameMode::Local),
            "online" => Some(GameMode::Online),
            _ => None,
        }
    }
}

/// How a game ended, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (mate, stalemate, repetition, ...), by the players
    /// (resignation, agreement) or by the clock.
    Outcome(Outcome),
    /// A finished game imported from PGN with a result the rules do not
    /// explain: `None` is a draw.
    Imported { winner: Option<Color> },
    /// Called off before it started (online games): no result. `no_show`
    /// is the side that did not make its first move in time; `None` when a
    /// player aborted.
    Aborted { no_show: Option<Color> },
}

impl Ending {
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub fn result_str(self) -> &'static str {
        match self {
            Ending::Outcome(o) => o.result_str(),
            Ending::Imported { winner } => match winner {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            },
            Ending::Aborted { .. } => "*",
        }
    }

    /// The outcome by the rules, the players or the clock, if that is how
    /// the game ended.
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Ending::Outcome(o) => Some(o),
            _ => None,
        }
    }
}

/// What is stored about a game, besides its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    pub variant: VariantKind,
    pub start_fen: String,
    pub mode: GameMode,
    /// The person's colour against the engine.
    pub human_color: Option<Color>,
    /// The engine's level, 1..=6.
    pub level: Option<u8>,
    pub white: String,
    pub black: String,
    /// Set once the game is over.
    pub ending: Option<Ending>,
    /// Bumped by every change, so pages can tell new states from old ones.
    pub rev: i64,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub updated_at: i64,
}

/// A time control: `base_ms` for the game plus `increment_ms` a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSettings {
    pub base_ms: i64,
    pub increment_ms: i64,
}

/// What an online game keeps besides its [`GameRecord`]: who holds the
/// seats, the clocks and the pending offers.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OnlineRecord {
    /// SHA-256 (hex) of the token of the player holding the seat; `None`
    /// while it is free. Tokens themselves are never stored.
    pub white_seat: Option<String>,
    pub black_seat: Option<String>,
    /// `None`: no clock.
    pub clock: Option<ClockSettings>,
    /// Time left at the start of the current turn, in milliseconds.
    pub white_ms: i64,
    pub black_ms: i64,
    /// When the side to move's clock started running (server clock, ms);
    /// `None` while no clock runs (before both first moves, after the end).
    pub turn_started_at: Option<i64>,
    /// The side whose draw offer is pending.
    pub draw_offer: Option<Color>,
    /// The side whose rematch offer is pending.
    pub rematch_offer: Option<Color>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once agreed.
    pub rematch_id: Option<String>,
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// 0 for the first move of the game.
    pub ply: usize,
    /// The move string (RULES 4.2).
    pub uci: String,
    pub san: String,
}

/// A game with its moves, as loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub record: GameRecord,
    pub moves: Vec<StoredMove>,
    /// Set for online games.
    pub online: Option<OnlineRecord>,
}

/// A line of the saved-games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub record: GameRecord,
    pub move_count: usize,
}

/// What a change does to a game's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovesChange {
    /// The moves stay as they are (a resignation, an offer, a seat taken).
    Keep,
    /// One more move; it must be the game's next ply.
    Push(StoredMove),
    /// The first `keep` moves stay, the others go (a takeback).
    Truncate(usize),
}

/// The fields of a game that change as it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameUpdate {
    /// The new revision: the write applies only to revision `rev - 1`.
    pub rev: i64,
    pub ending: Option<Ending>,
    pub updated_at: i64,
    /// An online game's new seats, clocks and offers, written in the same
    /// transaction (`None`: unchanged, or not an online game).
    pub online: Option<OnlineRecord>,
}

/// One run of a server over this database: when it started and when it was
/// last known to be up (its heartbeat). Clocks of online games count only
/// the time a server was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunRecord {
    pub id: i64,
    pub boot_ms: i64,
    pub last_seen_ms: i64,
}

/// Storage for games. Each method is one atomic, durable write or one read.
#[async_trait]
pub trait GameStore: Send + Sync + 'static {
    /// Stores a new game with the moves it starts with (an imported PGN).
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// The most recently played games first: every engine and local game,
    /// and of the online games only those in `online_ids`.
    async fn list_games(
        &self,
        limit: usize,
        online_ids: &[String],
    ) -> Result<Vec<GameSummary>, StoreError>;
    /// Changes a game: its moves, result and online state together. Fails
    /// with [`StoreError::Stale`] unless the stored revision is
    /// `update.rev - 1`, and with [`StoreError::Conflict`] when a pushed
    /// move is not the next ply; then nothing changes.
    async fn commit(
        &self,
        id: &str,
        moves: &MovesChange,
        update: &GameUpdate,
    ) -> Result<(), StoreError>;
    /// Stores `game` (a rematch) and commits `update` to the game it
    /// follows, together.
    async fn create_rematch(
        &self,
        game: &StoredGame,
        previous: &str,
        update: &GameUpdate,
    ) -> Result<(), StoreError>;
    /// Deletes a game and its moves; false if there was none.
    async fn delete_game(&self, id: &str) -> Result<bool, StoreError>;
    /// Online games in progress whose clock runs.
    async fn running_online_games(&self) -> Result<Vec<String>, StoreError>;
    /// Records that a server started at `boot_ms`; returns the run's id.
    async fn start_run(&self, boot_ms: i64) -> Result<i64, StoreError>;
    /// The run is still up at `now_ms`.
    async fn heartbeat(&self, run: i64, now_ms: i64) -> Result<(), StoreError>;
    /// Runs last seen after `since_ms`, oldest first.
    async fn runs_since(&self, since_ms: i64) -> Result<Vec<RunRecord>, StoreError>;
}
