//! Response types: what the API and the WebSocket send to pages.
//!
//! Squares are names (`e4`), pieces FEN letters (`N` White's knight, `t` a
//! black beast), colours `white`/`black`.

use crate::live::GameEvent;
use serde::Serialize;

/// One piece's route during a move; `squares[0]` is where it starts.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct RouteView {
    pub piece: String,
    pub squares: Vec<String>,
}

/// How a move looks on the board, for animation and arrows.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct PathView {
    /// Routes in the order they are shown (a propel: the piece, then the beast).
    pub routes: Vec<RouteView>,
    /// The square of a piece the move removes.
    pub captured: Option<String>,
}

/// A legal move, with everything a page needs to offer it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct MoveView {
    /// The move string to post back (RULES 4.2).
    pub uci: String,
    pub san: String,
    /// `normal`, `promotion`, `en_passant`, `castle`, `propel`, `beast_capture` or `drop`.
    pub kind: &'static str,
    /// The moving piece's square (the drop square for drops).
    pub from: String,
    /// Its destination; for a propel, the beast's square.
    pub to: String,
    /// A propel's beast destination, or the beast a beast capture removes.
    pub aux: Option<String>,
    /// The piece a pawn promotes to (`q`, `r`, `b`, `n`, `t`).
    pub promotion: Option<String>,
    /// The rook a castling moves.
    pub rook: Option<String>,
    pub path: PathView,
}

/// A played move in a game's history.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// 0 for the first move.
    pub ply: usize,
    pub uci: String,
    pub san: String,
    /// The colour that played it.
    pub color: &'static str,
    /// The position after it.
    pub fen: String,
    /// The king in check after it, if any.
    pub check: Option<String>,
    pub path: PathView,
}

/// A game's moves, shared between the game in memory and the views made
/// of it (a view copies no move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History(pub std::sync::Arc<Vec<HistoryEntry>>);

impl History {
    pub fn new(entries: Vec<HistoryEntry>) -> History {
        History(std::sync::Arc::new(entries))
    }

    /// The moves, to change (copied only if a view still holds them).
    pub fn make_mut(&mut self) -> &mut Vec<HistoryEntry> {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

impl std::ops::Deref for History {
    type Target = Vec<HistoryEntry>;

    fn deref(&self) -> &Vec<HistoryEntry> {
        &self.0
    }
}

impl Serialize for History {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.as_slice().serialize(s)
    }
}

/// The board's shape.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GeometryView {
    pub files: u8,
    pub ranks: u8,
    /// Squares that do not exist (Chessence).
    pub holes: Vec<String>,
}

/// `POST /api/explain`: whether a move is legal, and if not, why.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct ExplainView {
    pub legal: bool,
    /// The move string of the legal move (also when SAN was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uci: Option<String>,
    /// Why not, as a sentence for the player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The reason in a word (`IllegalReason::code`, or `not_a_move`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    /// The reason's details by name (squares, roles, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<std::collections::BTreeMap<&'static str, String>>,
}

/// What a game's rules have, so that pages ask the game instead of
/// testing its name.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesView {
    /// Sides hold pieces in reserve and drop them (Chessence).
    pub hands: bool,
    /// Tensor beasts: pass-through, ricochet, propel, hop chains.
    pub beasts: bool,
    /// Kings and rooks may castle.
    pub castling: bool,
    /// Kings move (they never do in Chessence).
    pub king_moves: bool,
}

/// Pieces in reserve (Chessence men), by side.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandsView {
    pub white: u8,
    pub black: u8,
}

/// How a game ended.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct EndView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// `checkmate`, `stalemate`, `no_legal_moves`, `repetition`, `hundred_plies`,
    /// `dead_material`, `resignation`, `agreement`.
    pub reason: String,
    pub winner: Option<&'static str>,
    /// An aborted game: the side that did not make its first move in time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_show: Option<&'static str>,
    /// Large text over the board: "Checkmate", "Stalemate", "Draw", "White resigns".
    pub title: String,
    /// The line under it: "White wins", "by threefold repetition".
    pub text: String,
}

/// A position with its legal moves.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct PositionView {
    pub variant: &'static str,
    pub fen: String,
    pub turn: &'static str,
    /// The side to move's king, when it is in check.
    pub check: Option<String>,
    pub hands: HandsView,
    pub geometry: GeometryView,
    pub rules: RulesView,
    /// Empty when the game is over.
    pub legal: Vec<MoveView>,
    /// The end by the rules, judged from this position alone.
    pub outcome: Option<EndView>,
}

/// A game, whole: what a page shows and replays.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GameView {
    pub id: String,
    pub variant: &'static str,
    pub variant_title: &'static str,
    /// `engine` or `local`.
    pub mode: &'static str,
    /// The person's colour against the engine.
    pub human_color: Option<String>,
    pub level: Option<u8>,
    pub level_name: Option<&'static str>,
    pub white: String,
    pub black: String,
    /// Grows with every change to the game.
    pub rev: i64,
    pub start_fen: String,
    pub position: PositionView,
    pub moves: History,
    /// Set once the game is over.
    pub end: Option<EndView>,
    pub engine_thinking: bool,
    pub created_at: i64,
    pub updated_at: i64,
    /// Seats, clocks and offers of an online game.
    pub online: Option<OnlineView>,
    /// The seat of whoever asked (`white`/`black`), in answers to one
    /// player's request; `null` for spectators and in broadcasts.
    pub you: Option<&'static str>,
    /// `moves` holds the game's moves from this ply on. It is 0 (all the
    /// moves) except in the updates of online games sent over the WebSocket,
    /// which carry only the new move: a page keeps its first `moves_from`
    /// moves (checking that the last of them is `moves_before`) and appends.
    pub moves_from: usize,
    /// The move string of move `moves_from - 1`, when `moves_from > 0`.
    pub moves_before: Option<String>,
}

/// A seat of an online game, as everybody may see it (never its token).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// A player holds the seat.
    pub taken: bool,
    /// The player has the game open now (a live WebSocket subscription).
    pub connected: bool,
}

/// A game's clocks at the moment the view was made.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockView {
    pub base_ms: i64,
    pub increment_ms: i64,
    /// Time left, in milliseconds (never below 0).
    pub white_ms: i64,
    pub black_ms: i64,
    /// The colour whose clock is running, if one is.
    pub running: Option<&'static str>,
    /// Before both sides have moved: the time the side to move has left to
    /// make its first move before the game is aborted.
    pub first_move_ms: Option<i64>,
}

/// What an online game adds to a [`GameView`].
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct OnlineView {
    pub white: SeatView,
    pub black: SeatView,
    /// `null`: the game has no clock.
    pub clock: Option<ClockView>,
    /// The colour whose draw offer waits for an answer.
    pub draw_offer: Option<String>,
    /// The colour whose rematch offer waits for an answer.
    pub rematch_offer: Option<String>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once both agreed.
    pub rematch_id: Option<String>,
    /// A player may still abort the game (before both sides have moved).
    pub can_abort: bool,
    /// The result changes the players' ratings.
    pub rated: bool,
    /// Rated games: each player's rating when the game began, White first.
    pub ratings: [Option<i32>; 2],
    /// Rated games, once over: how the result changed each rating.
    pub rating_diffs: [Option<i32>; 2],
}

/// A line of the saved-games list.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GameSummaryView {
    pub id: String,
    pub variant: String,
    pub variant_title: &'static str,
    pub mode: &'static str,
    pub human_color: Option<String>,
    pub level: Option<u8>,
    pub white: String,
    pub black: String,
    pub result: String,
    pub end_reason: Option<String>,
    pub finished: bool,
    /// Half-moves (plies) played.
    pub move_count: usize,
    /// Moves, as players count them (a move of each side is one).
    pub moves: usize,
    pub created_at: i64,
    pub updated_at: i64,
}

/// `GET /api/games`: a page of the asker's games, newest first.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GameListView {
    pub games: Vec<GameSummaryView>,
    /// Pass as `cursor` for the next page; `null` on the last one.
    pub next: Option<String>,
}

/// An engine score from White's point of view.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreView {
    /// Centipawns, positive when White is better (absent for mates).
    pub cp: Option<i32>,
    /// Moves to mate, positive when White mates.
    pub mate: Option<i32>,
    pub depth: u32,
}

/// The engine's advice for the side to move.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct AnalysisView {
    /// The ply of the game it was computed for.
    pub ply: usize,
    pub best: Option<MoveView>,
    pub score: ScoreView,
}

/// The answer to a draw offer.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct DrawAnswerView {
    pub accepted: bool,
    /// The answer in a word, for translations: `agreed` (on one device),
    /// `accepted`, `accepted_level`, `declined_mate`, `declined_better`,
    /// `declined_play_on`, `moved_on`.
    pub code: &'static str,
    pub message: String,
    pub game: GameView,
}

/// A position after an optional move (the rules page's mini-boards).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct PlayedView {
    /// The move played, with its path, as it looked before it was played.
    pub played: Option<MoveView>,
    pub position: PositionView,
}

#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    pub name: &'static str,
    pub title: &'static str,
    pub start_fen: &'static str,
    pub rules: RulesView,
}

#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct LevelInfo {
    pub level: u8,
    pub name: &'static str,
}

/// A rating as pages see it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct RatingView {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
}

/// A player's rating in each game.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct RatingsView {
    pub tensor: RatingView,
    pub chess: RatingView,
    pub chessence: RatingView,
}

/// `GET /api/me`: the player asking.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct MeView {
    pub id: String,
    pub name: String,
    /// The account's user name; `null` for a guest.
    pub account: Option<String>,
    pub ratings: RatingsView,
    /// Why the operator banned this player; absent when not banned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banned: Option<String>,
}

/// `GET /api/players/{username}`: a player's public profile.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ProfileView {
    pub id: String,
    pub name: String,
    pub username: String,
    pub created_at: i64,
    pub ratings: RatingsView,
    /// Recent finished online games, newest first.
    pub games: Vec<GameSummaryView>,
}

/// A time control, as requests write it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpecView {
    pub base_seconds: i64,
    pub increment_seconds: i64,
}

/// Who posted a seek.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct SeekPlayerView {
    pub id: String,
    pub name: String,
    pub account: Option<String>,
    /// Their rating in the seek's game (rounded).
    pub rating: i32,
    /// The rating is still uncertain (a large deviation).
    pub provisional: bool,
}

/// An open seek of the lobby.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct SeekView {
    pub id: String,
    pub variant: &'static str,
    pub variant_title: &'static str,
    /// `null`: no clock.
    pub clock: Option<ClockSpecView>,
    pub rated: bool,
    /// The colour the creator plays: `white`, `black` or `random`.
    pub color: &'static str,
    pub player: SeekPlayerView,
    pub created_at: i64,
    pub expires_at: i64,
}

/// What the server offers.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct InfoView {
    pub version: &'static str,
    pub variants: Vec<VariantInfo>,
    pub levels: Vec<LevelInfo>,
}

/// A line of a live analysis (`analysis` messages).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct AnalysisLineView {
    /// From White's point of view: `{"cp": 35}` or `{"mate": -3}`.
    pub score: tensorchess_analysis::review::Score,
    /// The line's moves in SAN, and as move strings (RULES 4.2).
    pub san: Vec<String>,
    pub uci: Vec<String>,
    /// The first move's path, for its arrow.
    pub path: Option<PathView>,
}

/// Messages the WebSocket sends.
#[derive(Serialize, Clone, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerEvent {
    /// A game's whole state, after `event` (`snapshot`, `move`, `takeback`,
    /// `resign`, `draw`, `thinking`).
    Game {
        topic: String,
        event: GameEvent,
        game: Box<GameView>,
    },
    /// A chat line posted to a room (`chat:{id}:{room}`).
    Chat {
        topic: String,
        line: Box<crate::chat::ChatLineView>,
    },

    /// What became of a challenge (`created`, `accepted`, `declined`,
    /// `canceled`, `expired`), on the `challenges` topic of each of its
    /// two players.
    Challenge {
        topic: String,
        event: &'static str,
        challenge: Box<crate::challenges::ChallengeView>,
    },
    /// A player's open challenges, on subscribing to `challenges`.
    Challenges {
        topic: String,
        challenges: Box<crate::challenges::ChallengesView>,
    },
    /// A chat room's newest lines, on subscribing to it.
    ChatHistory {
        topic: String,
        chat: Box<crate::chat::ChatView>,
    },
    /// Answer to a client's `subscribe`; `seat` is the colour this
    /// connection plays in an online game (absent for spectators).
    Subscribed {
        topic: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        seat: Option<&'static str>,
    },
    Unsubscribed {
        topic: String,
    },
    Pong,
    /// A message that could not be handled; the connection stays open.
    Error {
        message: String,
    },
    /// Updates were missed (a slow connection): fetch the state again.
    Resync {
        topic: String,
    },
    /// The lobby's open seeks (on subscription; again only after this
    /// server missed notices of the others).
    Lobby {
        topic: String,
        seeks: Vec<SeekView>,
    },
    /// A seek was posted.
    SeekAdded {
        topic: String,
        seek: SeekView,
    },
    /// Seeks went (cancelled, taken, lapsed, or their creator left).
    SeekRemoved {
        topic: String,
        ids: Vec<String>,
    },
    /// A seek was accepted: it became `game`, played by `players` (White's first).
    Paired {
        topic: String,
        seek: String,
        game: String,
        players: [String; 2],
    },
    /// Which players of an online game are connected (sent when it changes).
    Presence {
        topic: String,
        white: bool,
        black: bool,
    },
    /// An online action (`move`, `resign`, ...) was done; `req` is the
    /// client's own number for the request, if it sent one.
    Ack {
        req: Option<u64>,
        game: String,
        action: &'static str,
        rev: i64,
        /// Moves in the game after the action.
        ply: usize,
        /// The rematch created by this action.
        #[serde(skip_serializing_if = "Option::is_none")]
        rematch_id: Option<String>,
    },
    /// An online action was refused: `kind` says why in a word
    /// (`not_a_player`, `not_your_turn`, `stale`, `game_over`, `illegal_move`,
    /// `waiting`, `rate_limited`, ...), `message` in a sentence.
    Refused {
        req: Option<u64>,
        game: String,
        action: &'static str,
        kind: crate::kind::Kind,
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A depth of a live analysis finished (`done`: the analysis ended;
    /// the lines are the last ones found); `id` is the client's number.
    Analysis {
        id: u64,
        /// The position analysed.
        fen: String,
        depth: u32,
        nodes: u64,
        time_ms: u64,
        /// Best first.
        lines: Vec<AnalysisLineView>,
        done: bool,
    },
    /// An analysis was not started: `kind` says why in a word
    /// (`overloaded`, `rate_limited`, `too_many`, `bad_request`,
    /// `illegal_move`), `message` in a sentence.
    AnalysisRefused {
        id: u64,
        kind: crate::kind::Kind,
        message: String,
    },
}
