//! Games: the records of a game, its moves and its online state, the
//! changes made to it, and the runs of the servers whose heartbeats the
//! online clocks count; [`GameRepo`] stores them.

use crate::{RatingPool, RatingWrite, StoreError};
use async_trait::async_trait;
use tensorchess_rules::{ByColor, Color, Outcome, VariantKind};

/// How a game is played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// Each side's player id (online games; a seat not taken is `None`).
    pub players: ByColor<Option<String>>,
    /// A correspondence game's days a move.
    pub days: Option<u32>,
    /// Each side's account (its username; `None` for a guest or an empty
    /// seat), online games.
    pub accounts: ByColor<Option<String>>,
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
    /// A side that berserked (an arena game), marked on the game's
    /// tournament link in the same transaction, so that the arena's
    /// scoring and the game never disagree.
    pub berserk: Option<Color>,
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

/// Which of a player's online games to find (lichess's game export of a
/// user, and the game search): newest first unless `oldest_first`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSearch {
    /// The player whose games are found.
    pub player: String,
    /// Only the games against this player.
    pub opponent: Option<String>,
    /// Only rated (`true`) or casual (`false`) games.
    pub rated: Option<bool>,
    /// Only games begun at or after this time (ms).
    pub since: Option<i64>,
    /// Only games begun at or before this time (ms).
    pub until: Option<i64>,
    /// Only finished games.
    pub finished: bool,
    /// Only games of this variant.
    pub variant: Option<VariantKind>,
    /// Only games that ended so for the player.
    pub end: Option<PlayerEnd>,
    /// Only the games through this position (a game and a Zobrist hash):
    /// the games the opening explorer counted, within its first plies.
    pub position: Option<(VariantKind, u64)>,
    /// Oldest first.
    pub oldest_first: bool,
    /// At most this many games.
    pub limit: usize,
    /// Only games after this `(created_at, id)` in the order asked: the
    /// next page.
    pub after: Option<(i64, String)>,
}

/// How a game ended for one of its players (a search's filter).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerEnd {
    /// The player won.
    Won,
    /// Drawn.
    Drew,
    /// The player lost.
    Lost,
}

impl PlayerEnd {
    /// The stored result (`1-0`, `0-1`, `1/2-1/2`) of a game that ended
    /// so for its player of `color`.
    pub fn stored_result(self, color: Color) -> &'static str {
        match (self, color) {
            (PlayerEnd::Drew, _) => "1/2-1/2",
            (PlayerEnd::Won, Color::White) | (PlayerEnd::Lost, Color::Black) => "1-0",
            (PlayerEnd::Won, Color::Black) | (PlayerEnd::Lost, Color::White) => "0-1",
        }
    }
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

/// Storage for games and the servers' runs. Each method is one atomic,
/// durable write or one read.
#[async_trait]
pub trait GameRepo: Send + Sync + 'static {
    /// Stores a new game with the moves it starts with (an imported PGN).
    async fn create_game(&self, game: &StoredGame) -> Result<(), StoreError>;
    /// A game with its moves and online state; `None` if there is none.
    async fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.load_game_from(id, 0).await
    }
    /// [`GameRepo::load_game`] with only the moves from ply `from` on
    /// (one indexed read of the moves): what a server that holds the game
    /// up to there needs to catch up.
    async fn load_game_from(&self, id: &str, from: usize)
        -> Result<Option<StoredGame>, StoreError>;
    /// A player's games, the most recently played first: the local games
    /// they own and the online games they sit in.
    async fn list_games(&self, query: &GameListQuery) -> Result<Vec<GameSummary>, StoreError>;
    /// A player's online games counted (lichess's `count`).
    async fn game_counts(&self, player: &str) -> Result<GameCounts, StoreError>;
    /// The ids and start times of a player's online games that `search`
    /// asks for, in its order.
    async fn search_games(&self, search: &GameSearch) -> Result<Vec<(String, i64)>, StoreError>;
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
}
