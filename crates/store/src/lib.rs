//! Where games live between requests and across restarts: the records,
//! the repositories that store them, and the contract every backend meets.
//!
//! The server keeps everything through repository traits, one per concern:
//! [`GameRepo`] (games, their moves and online state, the servers' runs),
//! [`PlayerRepo`] (players, sessions, accounts, ratings), [`LobbyRepo`]
//! (seeks and challenges), [`ChatRepo`] and [`ModerationRepo`] (chat,
//! reports, mutes; bans, renames, the account events' log),
//! [`TournamentRepo`], [`LearningRepo`], [`TokenRepo`] and [`TrustRepo`]
//! (follows, preferences, look-alike names), [`ExplorerRepo`] (the
//! opening explorer); the servers sharing a
//! database tell each other what changed over a [`Bus`]. [`GameStore`]
//! is all of them together. The backends are crates of their own:
//! `tensorchess-store-sqlite` (an embedded file, the default) and
//! `tensorchess-store-postgres` (a server several instances share);
//! `tensorchess-store-open` opens the one `--db` names.
//!
//! Records are typed ([`VariantKind`](tensorchess_rules::VariantKind),
//! [`Ending`]); they become columns only in the row mapping, written once
//! for both SQL backends ([`rows`], [`columns`] and each record's module).
//!
//! Every change to a game is one atomic, durable write that names the
//! revision it follows ([`GameUpdate::rev`] is the next one): a write that
//! finds another revision fails with [`StoreError::Stale`] and changes
//! nothing, so that when several servers share a database, the database
//! decides the order of moves.

mod bus;
pub mod challenge;
pub mod chat;
pub mod columns;
/// The contract every backend meets, written once against the traits (for
/// a backend's tests: the `conformance` feature).
#[cfg(any(test, feature = "conformance"))]
pub mod conformance;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod drivers;
pub mod explorer;
pub mod game;
pub mod learning;
pub mod lobby;
pub mod moderation;
mod notice;
pub mod player;
mod rating_pool;
pub mod rows;
pub mod token;
pub mod tournament;
pub mod trust;

pub use bus::Bus;
pub use challenge::{ChallengeRecord, ChallengeState};
pub use chat::{ChatMessage, ChatRepo, ChatReport, ChatRoom, NewChatMessage, CHAT_HISTORY};
pub use explorer::{
    ExplorerAnswer, ExplorerEval, ExplorerFilter, ExplorerGame, ExplorerRepo, ExplorerStep,
    MoveCounts, Speed, TopGame,
};
pub use game::{
    ClockSettings, Ending, GameCounts, GameListQuery, GameMode, GameRecord, GameRepo, GameSearch,
    GameSummary, GameUpdate, MovesChange, OnlineRecord, PlayerEnd, RunRecord, StoredGame,
    StoredMove,
};
pub use learning::{
    LearningRepo, LessonRecord, PuzzleAttemptRecord, PuzzleRatingWrite, PuzzleResultWrite,
    ReviewRecord, MAX_PUZZLE_ATTEMPTS,
};
pub use lobby::{LobbyRepo, SeekColor, SeekRecord};
pub use moderation::{AccountChange, AccountEvent, BanRecord, ModerationRepo, ACCOUNT_EVENTS_KEPT};
pub use notice::{GameStep, Notice, PairedGame, StoreNotice, KEYS_PER_NOTICE, MAX_STEP_NOTICE};
pub use player::{AccountRecord, PlayerRecord, PlayerRepo, RatingRecord, RatingWrite};
pub use rating_pool::RatingPool;
pub use token::{TokenRecord, TokenRepo};
pub use tournament::{
    ByeRecord, EntryRecord, TournamentGame, TournamentGameLink, TournamentKind, TournamentNews,
    TournamentRecord, TournamentRepo, TournamentState, SCHEDULE_CREATOR,
};
pub use trust::{
    name_key, Cap, ChallengeCaps, FollowRecord, NewReport, Preferences, ReportCaps, Reported,
    StrangerCaps, TournamentCaps, TrustRepo,
};

/// Every repository and the bus: what the server holds a store as (an
/// `Arc<dyn GameStore>`). Whatever implements them all is one.
pub trait GameStore:
    GameRepo
    + PlayerRepo
    + LobbyRepo
    + ChatRepo
    + ModerationRepo
    + TournamentRepo
    + LearningRepo
    + TokenRepo
    + TrustRepo
    + ExplorerRepo
    + Bus
{
}

impl<T> GameStore for T where
    T: GameRepo
        + PlayerRepo
        + LobbyRepo
        + ChatRepo
        + ModerationRepo
        + TournamentRepo
        + LearningRepo
        + TokenRepo
        + TrustRepo
        + ExplorerRepo
        + Bus
{
}

/// The traits, for calling a store's methods on a concrete backend
/// (`use tensorchess_store::prelude::*`).
pub mod prelude {
    pub use crate::{
        Bus, ChatRepo, ExplorerRepo, GameRepo, GameStore, LearningRepo, LobbyRepo, ModerationRepo,
        PlayerRepo, TokenRepo, TournamentRepo, TrustRepo,
    };
}

/// A URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split(':').next().unwrap_or("");
            format!("{scheme}://{user}@{host}{tail}")
        }
        None => url.to_string(),
    }
}

/// A storage failure (the disk, the database file, or a broken invariant),
/// the same whatever the backend.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The backend refused a statement, or could not be reached (its own
    /// message: SQLite's, or PostgreSQL's with its error code).
    #[error("database error: {0}")]
    Backend(String),
    /// The thread or task that runs the database's work failed or stopped
    /// (SQLite's writer thread, a blocking task).
    #[error("storage task failed: {0}")]
    Task(String),
    /// A write succeeded but the transaction it ran in could not commit
    /// (the database's message): nothing was stored.
    #[error("the database could not commit: {0}")]
    Commit(String),
    /// The write does not fit what is stored (no such game, a ply out of turn).
    #[error("{0}")]
    Conflict(String),
    /// The game moved on: its stored revision is `found`, not the one the
    /// write followed.
    #[error("game {id} has moved on (revision {found} is stored)")]
    Stale {
        /// The game (for a rating write: `rating of PLAYER`, or the puzzle).
        id: String,
        /// The revision stored now (-1 for a rating write).
        found: i64,
    },
    /// A stored value this program cannot read.
    #[error("game {id}: {what}")]
    Corrupt {
        /// The record's id.
        id: String,
        /// What is wrong with it.
        what: String,
    },
    /// The database's schema is newer than this program's: it refuses to
    /// touch it rather than misread it.
    #[error("the database at {path} was written by a newer version (schema {found}, this program knows {known})")]
    TooNew {
        /// The database, as `--db` named it (any password removed).
        path: String,
        /// The schema version stored.
        found: i64,
        /// The newest schema version this program knows.
        known: i64,
    },
}
