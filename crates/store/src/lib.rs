//! Where games live between requests and across restarts.
//!
//! Everything the server keeps goes through the [`GameStore`] trait, with
//! two backends: [`SqliteStore`] (an embedded file, the default) and
//! [`PgStore`] (a PostgreSQL server that several instances share); which
//! one `--db` names is a [`Database`]. Records are typed ([`VariantKind`], [`Color`], [`Ending`]);
//! they become text only in a backend's row mapping ([`columns`]).
//!
//! Every change to a game is one atomic, durable write that names the
//! revision it follows ([`GameUpdate::rev`] is the next one): a write that
//! finds another revision fails with [`StoreError::Stale`] and changes
//! nothing, so that when several servers share a database, the database
//! decides the order of moves.

pub mod challenge;
pub mod chat;
pub mod columns;
/// The contract every backend meets, written once against the trait (for
/// a new backend's tests: the `conformance` feature).
#[cfg(any(test, feature = "conformance"))]
pub mod conformance;
mod database;
mod notice;
mod postgres;
mod rating_pool;
pub mod rows;
mod sqlite;
pub mod token;
pub mod tournament;
pub mod trust;
mod writer;

pub use challenge::{ChallengeRecord, ChallengeState, ChallengeStore};
pub use chat::{ChatMessage, ChatReport, ChatRoom, ChatStore, NewChatMessage, CHAT_HISTORY};
pub use database::{redact, Database};
pub use notice::{GameStep, Notice, StoreNotice, KEYS_PER_NOTICE, MAX_STEP_NOTICE};
pub use postgres::PgStore;
pub use rating_pool::RatingPool;
pub use sqlite::{SqliteStore, SCHEMA_VERSION};
pub use token::{TokenRecord, TokenStore};
pub use tournament::{
    ByeRecord, EntryRecord, TournamentGame, TournamentGameLink, TournamentKind, TournamentNews,
    TournamentRecord, TournamentState, TournamentStore, SCHEDULE_CREATOR,
};
pub use trust::{
    name_key, Cap, ChallengeCaps, FollowRecord, NewReport, Preferences, ReportCaps, Reported,
    StrangerCaps, TournamentCaps, TrustStore,
};

use async_trait::async_trait;
use tensorchess_rules::{ByColor, Color, Outcome, VariantKind};

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
    /// The mode's name, as stored and as pages see it.
    pub fn as_str(self) -> &'static str {
        match self {
            GameMode::Engine => "engine",
            GameMode::Local => "local",
            GameMode::Online => "online",
        }
    }

    /// A mode from its name ([`GameMode::as_str`]); `None` for another word.
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
    Imported {
        /// The side that won; `None` for a draw.
        winner: Option<Color>,
    },
    /// Called off before it started (online games): no result. `no_show`
    /// is the side that did not make its first move in time; `None` when a
    /// player aborted.
    Aborted {
        /// The side that did not move in time; `None` when a player aborted.
        no_show: Option<Color>,
    },
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
    /// The game's id (random letters and digits, as in its URL).
    pub id: String,
    /// The game played.
    pub variant: VariantKind,
    /// The position it started from (FEN).
    pub start_fen: String,
    /// Who plays it.
    pub mode: GameMode,
    /// The person's colour against the engine.
    pub human_color: Option<Color>,
    /// The engine's level, 1..=6.
    pub level: Option<u8>,
    /// White's name, as shown over the board.
    pub white: String,
    /// Black's name, as shown over the board.
    pub black: String,
    /// The player who made a local game (only they may see it); `None` for
    /// online games, and for games stored before players existed.
    pub owner: Option<String>,
    /// An online game between two accounts that changes their ratings.
    pub rated: bool,
    /// Set once the game is over.
    pub ending: Option<Ending>,
    /// Bumped by every change, so pages can tell new states from old ones.
    pub rev: i64,
    /// When the game was made, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When it last changed, in milliseconds since the Unix epoch (the games list's order).
    pub updated_at: i64,
}

/// A time control: `base_ms` for the game plus `increment_ms` a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClockSettings {
    /// Each side's time for the whole game, in milliseconds.
    pub base_ms: i64,
    /// Time added after each move, in milliseconds.
    pub increment_ms: i64,
}

/// What an online game keeps besides its [`GameRecord`]: who holds the
/// seats, the clocks and the pending offers.
#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct OnlineRecord {
    /// The players holding the seats; `None` while a seat is free.
    pub players: ByColor<Option<String>>,
    /// SHA-256 (hex) of a seat token of the cookies games had before
    /// players existed: whoever brings it takes the seat as a player.
    pub seats: ByColor<Option<String>>,
    /// `None`: no clock.
    pub clock: Option<ClockSettings>,
    /// Time left at the start of the current turn, in milliseconds.
    pub ms: ByColor<i64>,
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
    /// The ply at which each side (white, black) last offered a draw: one
    /// offer per move, so that offers cannot be spammed.
    pub draw_offer_plies: ByColor<Option<usize>>,
    /// Rated games: the players' ratings when the game began (rounded).
    pub ratings: ByColor<Option<i32>>,
    /// How the result changed the ratings, once it is known.
    pub rating_diffs: ByColor<Option<i32>>,
    /// Correspondence: days per move (then `clock` is `None`). The side to
    /// move has this long from the start of its turn; a move resets it.
    pub days: Option<u32>,
    /// The sides that berserked (an arena game): no increment for them.
    pub berserked: ByColor<bool>,
    /// A tournament's game: neither player may abort it (resigning takes
    /// its place), as lichess's tournament games; a first move not made
    /// loses it (`docs/tournaments.md`).
    #[serde(default)]
    pub no_abort: bool,
}

impl OnlineRecord {
    /// Whether a time limit runs in this game (a clock, or days per move).
    pub fn timed(&self) -> bool {
        self.clock.is_some() || self.days.is_some()
    }

    /// The rating pool a rated game of `variant` timed so counts in.
    pub fn rating_pool(&self, variant: VariantKind) -> RatingPool {
        RatingPool {
            variant,
            correspondence: self.days.is_some(),
        }
    }
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StoredMove {
    /// 0 for the first move of the game.
    pub ply: usize,
    /// The move string (RULES 4.2).
    pub uci: String,
    /// The move in standard algebraic notation, as it was played.
    pub san: String,
}

/// A game with its moves, as loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Everything but the moves.
    pub record: GameRecord,
    /// The moves, in the order they were played.
    pub moves: Vec<StoredMove>,
    /// Set for online games.
    pub online: Option<OnlineRecord>,
}

/// A line of the saved-games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game, without its moves.
    pub record: GameRecord,
    /// Half-moves (plies) played.
    pub move_count: usize,
    /// Whether each side's player is a bot account (online games).
    pub bots: ByColor<bool>,
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
#[derive(Clone, Debug, PartialEq)]
pub struct GameUpdate {
    /// The new revision: the write applies only to revision `rev - 1`.
    pub rev: i64,
    /// How the game ended; `None` while it goes on (or again, after a
    /// takeback).
    pub ending: Option<Ending>,
    /// When the change was made, in milliseconds since the Unix epoch.
    pub updated_at: i64,
    /// An online game's new seats, clocks and offers, written in the same
    /// transaction (`None`: unchanged, or not an online game).
    pub online: Option<OnlineRecord>,
    /// The players' names shown with the game, when they change (a seat
    /// taken), White's first.
    pub names: Option<[String; 2]>,
    /// The players' new ratings (a rated game ended), in the same
    /// transaction; a rating changed meanwhile fails the whole write with
    /// [`StoreError::Stale`].
    pub ratings: Vec<RatingWrite>,
}

/// A player: a browser (an identity cookie), maybe with an account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Public and stable (it names the player in games and seats).
    pub id: String,
    /// The name others see (at most 40 characters).
    pub name: String,
    /// When the player first came, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The account's user name, once the player has registered.
    pub account: Option<String>,
}

/// A player's online games counted, as lichess's `count` says them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Every online game they sat in.
    pub all: u32,
    /// The rated ones.
    pub rated: u32,
    /// Won.
    pub win: u32,
    /// Lost.
    pub loss: u32,
    /// Drawn.
    pub draw: u32,
    /// In progress now.
    pub playing: u32,
}

/// An account: a user name and password for a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRecord {
    /// As the player wrote it; unique ignoring case.
    pub username: String,
    /// The password's Argon2id hash (PHC string).
    pub password_hash: String,
    /// The player the account belongs to ([`PlayerRecord::id`]).
    pub player_id: String,
    /// When the account was registered, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When the operator closed it (`admin close`): nobody logs in.
    pub closed_at: Option<i64>,
}

/// A player the operator banned (`admin ban`): they may look, not act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BanRecord {
    /// The player banned ([`PlayerRecord::id`]).
    pub player_id: String,
    /// Shown to the player.
    pub reason: String,
    /// When the ban was made, in milliseconds since the Unix epoch.
    pub banned_at: i64,
}

/// What happened to a player's account or sessions: every server acts on
/// it at once (forgets the tokens it remembers, closes sockets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountChange {
    /// One session ended (a logout, or the guest token a login replaced).
    Logout {
        /// The SHA-256 (hex) of the session's token.
        token_hash: String,
    },
    /// Every session of the player ended but `keep` (a password change
    /// keeps the session that made it).
    SessionsEnded {
        /// The hash of the session that stays, if one does.
        keep: Option<String>,
    },
    /// The operator banned the player.
    Banned,
    /// The operator lifted the player's ban.
    Unbanned,
    /// The account's user name changed.
    Renamed,
    /// The account was closed (its sessions ended).
    Closed,
}

impl AccountChange {
    /// The kind as stored, and the token it names.
    pub fn columns(&self) -> (&'static str, Option<&str>) {
        match self {
            AccountChange::Logout { token_hash } => ("logout", Some(token_hash)),
            AccountChange::SessionsEnded { keep } => ("sessions_ended", keep.as_deref()),
            AccountChange::Banned => ("banned", None),
            AccountChange::Unbanned => ("unbanned", None),
            AccountChange::Renamed => ("renamed", None),
            AccountChange::Closed => ("closed", None),
        }
    }

    /// Reads the stored kind and token back; `None` for a kind this
    /// program does not know (a newer server wrote it).
    pub fn from_columns(kind: &str, token_hash: Option<String>) -> Option<AccountChange> {
        Some(match kind {
            "logout" => AccountChange::Logout {
                token_hash: token_hash?,
            },
            "sessions_ended" => AccountChange::SessionsEnded { keep: token_hash },
            "banned" => AccountChange::Banned,
            "unbanned" => AccountChange::Unbanned,
            "renamed" => AccountChange::Renamed,
            "closed" => AccountChange::Closed,
            _ => return None,
        })
    }
}

/// An [`AccountChange`] as logged, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountEvent {
    /// Increases with every event.
    pub seq: i64,
    /// The player it happened to.
    pub player_id: String,
    /// What happened.
    pub change: AccountChange,
    /// When it was logged, in milliseconds since the Unix epoch (the database's clock).
    pub at: i64,
}

/// Account events kept in the log (older ones are pruned): far more than
/// any server falls behind between two polls.
pub const ACCOUNT_EVENTS_KEPT: i64 = 10_000;

/// A Glicko-2 rating as stored (rating scale, not the algorithm's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRecord {
    /// The rating (1500 to start).
    pub rating: f64,
    /// The rating deviation, in rating points (350 to start).
    pub rd: f64,
    /// The volatility (0.06 to start).
    pub volatility: f64,
    /// Rated games played (also the version the conditional write checks).
    pub games: u32,
}

/// A player's new rating, written only if the stored one is still `before`
/// (`None`: no rating stored yet).
#[derive(Clone, Debug, PartialEq)]
pub struct RatingWrite {
    /// The player rated.
    pub player_id: String,
    /// The game and speed the rating is for.
    pub pool: RatingPool,
    /// The rating the new one was computed from.
    pub before: Option<RatingRecord>,
    /// The new rating.
    pub after: RatingRecord,
}

/// The colour a seek's creator wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A page of a player's games, newest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameListQuery {
    /// The player whose games are listed.
    pub player: String,
    /// At most this many games.
    pub limit: usize,
    /// Only games older than this `(updated_at, id)`: the next page.
    pub before: Option<(i64, String)>,
}

/// One run of a server over this database: when it started and when it was
/// last known to be up (its heartbeat). Clocks of online games count only
/// the time a server was running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunRecord {
    /// The run's number, from the database.
    pub id: i64,
    /// When the server started (server clock, ms).
    pub boot_ms: i64,
    /// Its latest heartbeat (server clock, ms).
    pub last_seen_ms: i64,
}

/// Puzzle tries kept per player and game (enough to avoid repeats).
pub const MAX_PUZZLE_ATTEMPTS: usize = 1000;

/// A game's stored review (the review library's `Review`, as JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRecord {
    /// The game reviewed.
    pub game_id: String,
    /// `tensorchess::review::Review`, serialised.
    pub review_json: String,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
}

/// One try at a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleAttemptRecord {
    /// The player who tried.
    pub player_id: String,
    /// The puzzle's id in the shipped puzzle set.
    pub puzzle_id: String,
    /// The puzzle's game.
    pub variant: VariantKind,
    /// The player found the whole solution.
    pub solved: bool,
    /// The try changed the ratings (a first try; streaks and repeats do not).
    pub rated: bool,
    /// How the player's rating changed (rounded), when rated.
    pub rating_diff: Option<i32>,
    /// When the try ended, in milliseconds since the Unix epoch.
    pub played_at: i64,
}

/// A new puzzle rating (of a player or of a puzzle), written only if the
/// stored one is still `before` (`None`: none stored yet).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRatingWrite {
    /// The rating the new one was computed from.
    pub before: Option<RatingRecord>,
    /// The new rating.
    pub after: RatingRecord,
}

/// A try at a puzzle with the rating changes it makes, written together:
/// one rating period for the player and one for the puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleResultWrite {
    /// The try.
    pub attempt: PuzzleAttemptRecord,
    /// The player's new puzzle rating in the attempt's game (rated tries).
    pub player: Option<PuzzleRatingWrite>,
    /// The puzzle's new rating (rated tries).
    pub puzzle: Option<PuzzleRatingWrite>,
}

/// A lesson level a player completed, with their best result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonRecord {
    /// The player who completed the level.
    pub player_id: String,
    /// The level's id in the lesson data (`beast-step-1`).
    pub level_id: String,
    /// 1 to 3.
    pub stars: u8,
    /// The fewest moves the level took.
    pub moves: u32,
    /// When the level was completed (its best result), in milliseconds since the Unix epoch.
    pub completed_at: i64,
}

/// Storage for games. Each method is one atomic, durable write or one read.
#[async_trait]
pub trait GameStore:
    ChatStore + ChallengeStore + TokenStore + TournamentStore + TrustStore + Send + Sync + 'static
{
    /// Stores a new game with the moves it starts with (an imported PGN).
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    /// A game with its moves and online state; `None` if there is none.
    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.load_game_from(id, 0).await
    }
    /// [`GameStore::load_game`] with only the moves from ply `from` on
    /// (one indexed read of the moves): what a server that holds the game
    /// up to there needs to catch up.
    async fn load_game_from(&self, id: &str, from: usize)
        -> Result<Option<StoredGame>, StoreError>;
    /// A player's games, the most recently played first: the local games
    /// they own and the online games they sit in.
    async fn list_games(&self, query: &GameListQuery) -> Result<Vec<GameSummary>, StoreError>;
    /// A player's online games counted (lichess's `count`).
    async fn game_counts(&self, player: &str) -> Result<GameCounts, StoreError>;
    /// A player's finished online games, most recent first (their profile).
    async fn finished_online_games(
        &self,
        player: &str,
        limit: usize,
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
    /// Gives every local game that belongs to nobody (stored before
    /// players existed) to `owner` (the operator's `admin adopt`); returns
    /// their ids.
    async fn adopt_unowned(&self, owner: &str) -> Result<Vec<String>, StoreError>;
    /// Deletes a game and its moves; false if there was none.
    async fn delete_game(&self, id: &str) -> Result<bool, StoreError>;
    /// Online games in progress whose clock runs.
    async fn running_online_games(&self) -> Result<Vec<String>, StoreError>;
    /// The correspondence games in progress where `player` holds a seat,
    /// the least recently changed first.
    async fn running_correspondence_games(&self, player: &str) -> Result<Vec<String>, StoreError>;
    /// Records that a server started at `boot_ms`; returns the run's id.
    async fn start_run(&self, boot_ms: i64) -> Result<i64, StoreError>;
    /// The run is still up at `now_ms`.
    async fn heartbeat(&self, run: i64, now_ms: i64) -> Result<(), StoreError>;
    /// Runs last seen after `since_ms`, oldest first.
    async fn runs_since(&self, since_ms: i64) -> Result<Vec<RunRecord>, StoreError>;

    /// Whether several servers may share this database (and so each must
    /// listen to the others' [`Notice`]s).
    fn shared(&self) -> bool {
        false
    }
    /// Names the server using this store, for the notices the store sends
    /// itself (a game's commit): the server then knows its own. Only the
    /// first name counts.
    fn set_instance(&self, _name: &str) {}
    /// Tells every server listening on this database (this one too). A
    /// database only one server uses (SQLite) has nobody to tell.
    async fn notify(&self, _notice: &Notice) -> Result<(), StoreError> {
        Ok(())
    }
    /// The notices of every server on this database, game commits
    /// included, from a connection of their own that reconnects by itself
    /// (each time saying [`StoreNotice::Listening`]); `None` when only one
    /// server uses the database.
    async fn listen(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<StoreNotice>>, StoreError> {
        Ok(None)
    }

    /// A player, with their account's name.
    async fn player(&self, id: &str) -> Result<Option<PlayerRecord>, StoreError>;
    /// Stores a player (a new one, or a new name).
    async fn save_player(&self, player: &PlayerRecord) -> Result<(), StoreError>;
    /// The player a session token's hash belongs to.
    async fn session_player(&self, token_hash: &str) -> Result<Option<String>, StoreError>;
    /// Opens a session of a player (stored with the player if new); ends
    /// `ending` (the session it replaces), together.
    async fn start_session(
        &self,
        token_hash: &str,
        player: &PlayerRecord,
        ending: Option<&str>,
    ) -> Result<(), StoreError>;
    /// Ends a session (a logout), logging it.
    async fn end_session(&self, token_hash: &str) -> Result<(), StoreError>;
    /// Creates an account for its player; [`StoreError::Conflict`] if the
    /// name is taken (ignoring case).
    async fn create_account(&self, account: &AccountRecord) -> Result<(), StoreError>;
    /// The account of a user name (ignoring case).
    async fn account(&self, username: &str) -> Result<Option<AccountRecord>, StoreError>;
    /// Gives `into` everything `from` has (a guest logging in): their local
    /// games and seats (each such game's revision goes up), and drops
    /// `from`'s seeks. Returns the games that changed.
    async fn merge_player(&self, from: &str, into: &str) -> Result<Vec<String>, StoreError>;
    /// A player's ratings, by game.
    async fn ratings(&self, player: &str) -> Result<Vec<(RatingPool, RatingRecord)>, StoreError>;

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
    // ---- Learning: game reviews, puzzle ratings, lesson progress ------------
    // (issue 16; the SQLite side is in sqlite/learning.rs, migration 4.)

    /// A game's stored review.
    async fn review(&self, game_id: &str) -> Result<Option<ReviewRecord>, StoreError>;
    /// Stores a game's review, replacing one stored before; goes with the
    /// game when it is deleted. [`StoreError::Conflict`] if there is no such game.
    async fn save_review(&self, review: &ReviewRecord) -> Result<(), StoreError>;
    /// A player's puzzle rating in a game (`None`: no rated try yet).
    async fn puzzle_player_rating(
        &self,
        player: &str,
        variant: VariantKind,
    ) -> Result<Option<RatingRecord>, StoreError>;
    /// The ratings of a game's puzzles that have been tried, by puzzle id
    /// (the others keep their shipped estimate).
    async fn puzzle_ratings(
        &self,
        variant: VariantKind,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError>;
    /// Whether `player` ever tried puzzle `puzzle`.
    async fn puzzle_attempted(&self, player: &str, puzzle: &str) -> Result<bool, StoreError>;
    /// A player's latest tries in a game, newest first, at most `limit`.
    async fn recent_puzzle_attempts(
        &self,
        player: &str,
        variant: VariantKind,
        limit: usize,
    ) -> Result<Vec<PuzzleAttemptRecord>, StoreError>;
    /// Records a try and its rating changes together; fails with
    /// [`StoreError::Stale`] (and changes nothing) if either rating is no
    /// longer the write's `before`, or if the try is rated and the player
    /// had tried the puzzle. Keeps at most [`MAX_PUZZLE_ATTEMPTS`] tries per
    /// player and game (the oldest go), and which puzzles each player ever
    /// tried.
    async fn record_puzzle_attempt(&self, write: &PuzzleResultWrite) -> Result<(), StoreError>;
    /// The lesson levels a player has completed.
    async fn lesson_progress(&self, player: &str) -> Result<Vec<LessonRecord>, StoreError>;
    /// Records a completed level, keeping the player's best (most stars,
    /// then fewest moves) when the level was completed before.
    async fn save_lesson_result(&self, result: &LessonRecord) -> Result<(), StoreError>;
    /// Gives `into` what `from` learnt (a guest logging in): their lesson
    /// results (the better of the two per level), their puzzle tries, and
    /// their puzzle ratings in the games where `into` has none.
    async fn merge_learning(&self, from: &str, into: &str) -> Result<(), StoreError>;

    // Moderation and account events.

    /// Ends every session of `player` but `keep`, logging it; returns how
    /// many ended. (Every account event is logged at the database's time.)
    async fn end_sessions(&self, player: &str, keep: Option<&str>) -> Result<usize, StoreError>;
    /// Sets the password hash of `player`'s account.
    async fn set_password(&self, player: &str, password_hash: &str) -> Result<(), StoreError>;
    /// Bans a player (replacing an earlier ban's reason): their sessions
    /// end and their seeks go, in one transaction, logged.
    async fn ban(&self, ban: &BanRecord) -> Result<(), StoreError>;
    /// Lifts a ban, logged; false if there was none.
    async fn unban(&self, player: &str) -> Result<bool, StoreError>;
    /// The player's ban, if they are banned.
    async fn ban_of(&self, player: &str) -> Result<Option<BanRecord>, StoreError>;
    /// Every ban, newest first.
    async fn bans(&self) -> Result<Vec<BanRecord>, StoreError>;
    /// Renames an account (unique ignoring case: [`StoreError::Conflict`]
    /// if taken); the display name follows if it was the old user name.
    /// Returns the player, or `None` for no such account.
    async fn rename_account(
        &self,
        username: &str,
        new_username: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Closes an account: nobody logs in to it again, its sessions end.
    /// Returns the player, or `None` for no such account.
    async fn close_account(&self, username: &str, at: i64) -> Result<Option<String>, StoreError>;
    /// Account events after `after`, oldest first, at most `limit`.
    async fn account_events(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<AccountEvent>, StoreError>;
    /// The newest account event's number (0 when none).
    async fn last_account_event(&self) -> Result<i64, StoreError>;
}
