//! Response types: what the API and the WebSocket send to pages.
//!
//! Squares are names (`e4`), pieces FEN letters (`N` White's knight, `t` a
//! black beast), colours `white`/`black`.

pub mod challenge;
pub mod chat;
pub mod compact;
pub mod draw;
pub mod event;
pub mod move_event;
pub mod path;
pub mod player;
pub mod tournament;
pub mod tournament_news;
pub mod words;

use crate::store::SeekColor;
pub use draw::{DrawAnswerCode, DrawAnswerView};
use event::GameEvent;
pub use player::{GamePlayersView, PlayerView, RatedPlayerView};
use serde::{Deserialize, Serialize};
use tensorchess_rules::VariantKind;

/// What a bot account is called where names are shown (before the name).
pub const BOT_TITLE: &str = "BOT";

/// A title shown before a player's name. The site gives one: `BOT`, to a
/// bot account (lichess writes it so too).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
pub enum Title {
    /// A bot account: played by a program.
    #[serde(rename = "BOT")]
    Bot,
}

impl Title {
    /// The title as written: `BOT`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Title::Bot => BOT_TITLE,
        }
    }

    /// `BOT` for a bot account, none for others.
    pub fn of_bot(bot: bool) -> Option<Title> {
        bot.then_some(Title::Bot)
    }
}

/// A player's action on a game, as requests write its `type` and the
/// socket's `ack` and `refused` name it.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ActionName {
    /// A move.
    Move,
    /// Take back the last move (local games).
    Takeback,
    /// Resign.
    Resign,
    /// Take a free seat.
    Join,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's draw offer.
    AcceptDraw,
    /// Decline the opponent's draw offer.
    DeclineDraw,
    /// End the game without a result before both sides have moved.
    Abort,
    /// Win a game the opponent has left.
    ClaimVictory,
    /// Offer (or accept) a rematch.
    Rematch,
    /// Decline the opponent's rematch offer.
    DeclineRematch,
    /// Berserk in an arena game.
    Berserk,
    /// A local game drawn by agreement.
    AgreeDraw,
    /// Delete a local game.
    Delete,
}

/// One piece's route during a move; `squares[0]` is where it starts.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct RouteView {
    /// The piece that travels, as a FEN letter.
    pub piece: String,
    /// The squares it passes through, in order, ending where it stops.
    pub squares: Vec<String>,
}

/// How a move looks on the board, for animation and arrows.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct PathView {
    /// Routes in the order they are shown (a propel: the piece, then the beast).
    pub routes: Vec<RouteView>,
    /// The square of a piece the move removes.
    pub captured: Option<String>,
}

/// A legal move, with everything a page needs to offer it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct MoveView {
    /// The move string to post back (RULES 4.2).
    pub uci: String,
    /// The move in standard algebraic notation, for move lists.
    pub san: String,
    /// `normal`, `promotion`, `en_passant`, `castle`, `propel`, `beast_capture` or `drop`.
    pub kind: tensorchess_rules::MoveKind,
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
    /// How the move looks on the board.
    pub path: PathView,
}

/// A played move in a game's history.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct HistoryEntry {
    /// 0 for the first move.
    pub ply: usize,
    /// The move string (RULES 4.2).
    pub uci: String,
    /// The move in standard algebraic notation, as it was played.
    pub san: String,
    /// The colour that played it.
    pub color: tensorchess_rules::Color,
    /// The position after it.
    pub fen: String,
    /// The king in check after it, if any.
    pub check: Option<String>,
    /// How the move looked on the board.
    pub path: PathView,
}

/// A game's moves, shared between the game in memory and the views made
/// of it (a view copies no move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History(
    /// The moves, first first.
    pub std::sync::Arc<Vec<HistoryEntry>>,
);

impl History {
    /// A history of these moves.
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
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct GeometryView {
    /// Columns, `a` first: 10 in Tensor Chess, 8 in chess, 6 in Chessence.
    pub files: u8,
    /// Rows, `1` first: 8, or 9 in Chessence.
    pub ranks: u8,
    /// Squares that do not exist (Chessence).
    pub holes: Vec<String>,
}

/// `POST /api/explain`: whether a move is legal, and if not, why.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ExplainView {
    /// The move is legal in the position; the other fields say which move
    /// it is (`uci`) or why it is not (`reason`, `code`, `args`).
    pub legal: bool,
    /// The move string of the legal move (also when SAN was given).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub uci: Option<String>,
    /// Why not, as a sentence for the player.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// The reason in a word (`IllegalReason::code`, or `not_a_move`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<&'static str>,
    /// The reason's details by name (squares, roles, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub args: Option<std::collections::BTreeMap<&'static str, String>>,
}

/// What a game's rules have, so that pages ask the game instead of
/// testing its name.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
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
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct HandsView {
    /// Men White may still drop (0 outside Chessence).
    pub white: u8,
    /// Men Black may still drop (0 outside Chessence).
    pub black: u8,
}

/// How a game ended.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct EndView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// `checkmate`, `stalemate`, `no_legal_moves`, `repetition`, `hundred_plies`,
    /// `dead_material`, `resignation`, `agreement`.
    pub reason: String,
    /// `white` or `black`; `null` for a draw.
    pub winner: Option<tensorchess_rules::Color>,
    /// An aborted game: the side that did not make its first move in time.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub no_show: Option<tensorchess_rules::Color>,
    /// Large text over the board: "Checkmate", "Stalemate", "Draw", "White resigns".
    pub title: String,
    /// The line under it: "White wins", "by threefold repetition".
    pub text: String,
}

/// A position with its legal moves.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct PositionView {
    /// The game's name: `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The position (RULES 5).
    pub fen: String,
    /// The side to move: `white` or `black`.
    pub turn: tensorchess_rules::Color,
    /// The side to move's king, when it is in check.
    pub check: Option<String>,
    /// Men in reserve, by side.
    pub hands: HandsView,
    /// The board's shape.
    pub geometry: GeometryView,
    /// What the game's rules have.
    pub rules: RulesView,
    /// Empty when the game is over.
    pub legal: Vec<MoveView>,
    /// The end by the rules, judged from this position alone.
    pub outcome: Option<EndView>,
}

/// A game, whole: what a page shows and replays.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct GameView {
    /// The game's id, as in its URL.
    pub id: String,
    /// The game's name: `tensor`, `chess` or `chessence`.
    pub variant: tensorchess_rules::VariantKind,
    /// The game's name for people: `Tensor Chess`, `Chess`, `Chessence`.
    #[ts(type = "string")]
    pub variant_title: words::VariantTitle,
    /// `engine`, `local` or `online`.
    pub mode: crate::store::GameMode,
    /// The person's colour against the engine.
    pub human_color: Option<tensorchess_rules::Color>,
    /// The engine's level, 1..=6 (engine games only).
    pub level: Option<u8>,
    /// The level's name for people (`Beginner` ... `Full strength`).
    pub level_name: Option<&'static str>,
    /// White's name, as shown over the board.
    pub white: String,
    /// Black's name, as shown over the board.
    pub black: String,
    /// Grows with every change to the game.
    pub rev: i64,
    /// The position the game started from.
    pub start_fen: String,
    /// The position now, with its legal moves.
    pub position: PositionView,
    /// The moves from ply `moves_from` on.
    #[ts(as = "Vec<HistoryEntry>")]
    pub moves: History,
    /// Set once the game is over.
    pub end: Option<EndView>,
    /// The engine is searching for its move.
    pub engine_thinking: bool,
    /// When the game was made, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When it last changed, in milliseconds since the Unix epoch.
    pub updated_at: i64,
    /// Seats, clocks and offers of an online game.
    pub online: Option<OnlineView>,
    /// The seat of whoever asked (`white`/`black`), in answers to one
    /// player's request; `null` for spectators and in broadcasts.
    pub you: Option<tensorchess_rules::Color>,
    /// `moves` holds the game's moves from this ply on. It is 0 (all the
    /// moves) except in the updates of online games sent over the WebSocket,
    /// which carry only the new move: a page keeps its first `moves_from`
    /// moves (checking that the last of them is `moves_before`) and appends.
    pub moves_from: usize,
    /// The move string of move `moves_from - 1`, when `moves_from > 0`.
    pub moves_before: Option<String>,
}

/// A seat of an online game, as everybody may see it (never its token).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct SeatView {
    /// A player holds the seat.
    pub taken: bool,
    /// The player has the game open now (a live WebSocket subscription).
    pub connected: bool,
    /// `BOT` when a bot account holds the seat (shown before its name).
    pub title: Option<Title>,
}

/// A game's clocks at the moment the view was made.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ClockView {
    /// Each side's time for the whole game, in milliseconds (for
    /// correspondence: for each move).
    pub base_ms: i64,
    /// Time added after each move, in milliseconds.
    pub increment_ms: i64,
    /// Correspondence: days per move (each move starts the mover's time
    /// again); `null` for a real-time clock.
    pub days: Option<u32>,
    /// White's time left, in milliseconds (never below 0).
    pub white_ms: i64,
    /// Black's time left, in milliseconds (never below 0).
    pub black_ms: i64,
    /// The colour whose clock is running, if one is.
    pub running: Option<tensorchess_rules::Color>,
    /// Before both sides have moved: the time the side to move has left to
    /// make its first move before the game is aborted.
    pub first_move_ms: Option<i64>,
}

/// What an online game adds to a [`GameView`].
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct OnlineView {
    /// White's seat.
    pub white: SeatView,
    /// Black's seat.
    pub black: SeatView,
    /// `null`: the game has no clock.
    pub clock: Option<ClockView>,
    /// The colour whose draw offer waits for an answer.
    pub draw_offer: Option<tensorchess_rules::Color>,
    /// The colour whose rematch offer waits for an answer.
    pub rematch_offer: Option<tensorchess_rules::Color>,
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
    /// An arena game: which sides berserked, White first.
    pub berserked: [bool; 2],
    /// How many people watch the game without a seat, on every server
    /// (each once); a `presence` event says when it changes.
    pub spectators: usize,
}

/// An engine score from White's point of view.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ScoreView {
    /// Centipawns, positive when White is better (absent for mates).
    pub cp: Option<i32>,
    /// Moves to mate, positive when White mates.
    pub mate: Option<i32>,
    /// The search depth the score came from, in plies.
    pub depth: u32,
}

/// The engine's advice for the side to move (`POST /api/games/{id}/hint`,
/// `GET /api/games/{id}/eval`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct AnalysisView {
    /// The ply of the game it was computed for.
    pub ply: usize,
    /// The move the engine would play; `null` when there is none (the
    /// game is over).
    pub best: Option<MoveView>,
    /// How the position stands.
    pub score: ScoreView,
}

/// `POST /api/position`: a position after an optional move (the rules
/// page's mini-boards).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct PlayedView {
    /// The move played, with its path, as it looked before it was played.
    pub played: Option<MoveView>,
    /// The position after it (or the position asked for, without a move).
    pub position: PositionView,
}

/// A game the server plays, in [`InfoView`].
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct VariantInfo {
    /// The name requests use: `tensor`, `chess` or `chessence`.
    pub name: VariantKind,
    /// The name for people.
    pub title: &'static str,
    /// Its start position (RULES 5).
    pub start_fen: &'static str,
    /// What its rules have.
    pub rules: RulesView,
}

/// An engine level, in [`InfoView`].
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct LevelInfo {
    /// The number requests use, 1..=6.
    pub level: u8,
    /// Its name for people (`Beginner` ... `Full strength`).
    pub name: &'static str,
}

/// A time control, as requests write it.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ClockSpecView {
    /// Each side's time for the whole game, in seconds.
    pub base_seconds: i64,
    /// Time added after each move, in seconds.
    pub increment_seconds: i64,
}

impl From<crate::store::ClockSettings> for ClockSpecView {
    fn from(c: crate::store::ClockSettings) -> ClockSpecView {
        ClockSpecView {
            base_seconds: c.base_ms / 1000,
            increment_seconds: c.increment_ms / 1000,
        }
    }
}

/// An open seek of the lobby.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct SeekView {
    /// The seek's id (`DELETE /api/seeks/{id}`, `POST .../accept`).
    pub id: String,
    /// The game's name: `tensor`, `chess` or `chessence`.
    pub variant: VariantKind,
    /// The game's name for people.
    #[ts(type = "string")]
    pub variant_title: words::VariantTitle,
    /// `null`: no clock.
    pub clock: Option<ClockSpecView>,
    /// The game will change both players' ratings.
    pub rated: bool,
    /// The colour the creator plays: `white`, `black` or `random`.
    pub color: SeekColor,
    /// Who posted it.
    pub player: RatedPlayerView,
    /// When it was posted, in milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When it lapses if nobody takes it, in milliseconds since the Unix
    /// epoch.
    pub expires_at: i64,
}

/// `GET /api/info`: what the server offers.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct InfoView {
    /// The server's version (its crate's).
    pub version: &'static str,
    /// The games it plays.
    pub variants: Vec<VariantInfo>,
    /// The engine's levels, weakest first.
    pub levels: Vec<LevelInfo>,
}

/// A line of a live analysis (`analysis` messages).
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct AnalysisLineView {
    /// From White's point of view: `{"cp": 35}` or `{"mate": -3}`.
    #[ts(type = "{ cp: number } | { mate: number }")]
    pub score: tensorchess_analysis::review::Score,
    /// The line's moves in SAN.
    pub san: Vec<String>,
    /// The same moves as move strings (RULES 4.2).
    pub uci: Vec<String>,
    /// The first move's path, for its arrow.
    pub path: Option<PathView>,
}

/// Messages the WebSocket sends.
///
/// The events another instance relays (a chat line, a challenge's news, a
/// game's start, a seek) are read back from its text; the others are
/// never read, and a text naming one of them is refused.
#[derive(Serialize, Deserialize, Clone, Debug, ts_rs::TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerEvent {
    /// A game's whole state, after `event` (`snapshot`, `move`, `takeback`,
    /// `resign`, `draw`, `thinking`).
    #[serde(skip_deserializing)]
    Game {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
        /// What happened.
        event: GameEvent,
        /// The game after it.
        game: Box<GameView>,
    },
    /// One move of an online game that goes on, in its compact form (see
    /// `live::move_event`).
    #[serde(skip_deserializing)]
    Move {
        /// The game's topic (`game:ID`).
        topic: String,
        /// The move and what changed with it.
        #[serde(flatten)]
        event: Box<move_event::MoveEventView>,
    },
    /// A chat line posted to a room (`chat:{id}:{room}`).
    Chat {
        /// The room's topic.
        topic: String,
        /// The line.
        line: Box<chat::ChatLineView>,
    },
    /// What became of a challenge (`created`, `accepted`, `declined`,
    /// `canceled`, `expired`), on the `challenges` topic of each of its
    /// two players.
    Challenge {
        /// Always `challenges`.
        topic: String,
        /// What happened to it.
        event: challenge::ChallengeEvent,
        /// The challenge as the receiving player sees it.
        challenge: Box<challenge::ChallengeView>,
    },
    /// A player's open challenges, on subscribing to `challenges`.
    #[serde(skip_deserializing)]
    Challenges {
        /// Always `challenges`.
        topic: String,
        /// Received and made, open.
        challenges: Box<challenge::ChallengesView>,
    },
    /// A tournament as it is now, after `event` (`snapshot`, `joined`,
    /// `withdrawn`, `paused`, `started`, `standings`, `berserk`, `finished`), on its
    /// topic `tournament:{id}`.
    #[serde(skip_deserializing)]
    Tournament {
        /// `tournament:{id}`.
        topic: String,
        /// What happened.
        event: crate::store::TournamentNews,
        /// The tournament with its standings and pairings.
        tournament: Box<tournament_news::TournamentNewsView>,
    },
    /// New games of a tournament (a player named in one goes to it).
    TournamentPairings {
        /// `tournament:{id}`.
        topic: String,
        /// The games just paired.
        pairings: Vec<tournament::PairedGameView>,
    },
    /// A chat room's newest lines, on subscribing to it.
    #[serde(skip_deserializing)]
    ChatHistory {
        /// The room's topic.
        topic: String,
        /// Its newest lines.
        chat: Box<chat::ChatView>,
    },
    /// Answer to a client's `subscribe`; `seat` is the colour this
    /// connection plays in an online game (absent for spectators).
    #[serde(skip_deserializing)]
    Subscribed {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
        /// `white` or `black`.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        seat: Option<tensorchess_rules::Color>,
    },
    /// Answer to a client's `unsubscribe`.
    #[serde(skip_deserializing)]
    Unsubscribed {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
    },
    /// The page's session ended (logged out on another page or by the
    /// server, or signals were missed: reconnect); the socket closes after it.
    #[serde(skip_deserializing)]
    SessionEnded {
        /// Why, as a sentence.
        message: String,
    },
    /// The player is banned; the socket closes after it.
    #[serde(skip_deserializing)]
    Banned {
        /// Why, as a sentence (the operator's reason in it).
        message: String,
    },
    /// Answer to a client's `ping`.
    #[serde(skip_deserializing)]
    Pong,
    /// A message that could not be handled; the connection stays open.
    #[serde(skip_deserializing)]
    Error {
        /// Why, as a sentence.
        message: String,
    },
    /// Updates were missed (a slow connection): fetch the state again.
    #[serde(skip_deserializing)]
    Resync {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
    },
    /// The lobby's open seeks (on subscription; again only after this
    /// server missed notices of the others).
    #[serde(skip_deserializing)]
    Lobby {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
        /// Every open seek, oldest first.
        seeks: Vec<SeekView>,
    },
    /// A seek was posted.
    SeekAdded {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
        /// The new seek.
        seek: SeekView,
    },
    /// A game of the follower's began (a challenge accepted, a seek taken,
    /// a tournament's pairing), on their own topic.
    GameStarted {
        /// The game's id.
        game: String,
    },
    /// Seeks went (cancelled, taken, lapsed, or their creator left).
    #[serde(skip_deserializing)]
    SeekRemoved {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
        /// The seeks' ids.
        ids: Vec<String>,
    },
    /// A seek was accepted: it became `game`, played by `players` (White's first).
    #[serde(skip_deserializing)]
    Paired {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
        /// The seek's id.
        seek: String,
        /// The new game's id.
        game: String,
        /// The players' ids, White's first.
        players: [String; 2],
    },
    /// Which players of an online game are connected (sent when it changes).
    #[serde(skip_deserializing)]
    Presence {
        /// The topic the event belongs to (`game:ID`, `lobby`).
        topic: String,
        /// White's player has the game open.
        white: bool,
        /// Black's player has the game open.
        black: bool,
        /// How many people watch the game without a seat (each once).
        spectators: usize,
    },
    /// An online action (`move`, `resign`, ...) was done; `req` is the
    /// client's own number for the request, if it sent one.
    #[serde(skip_deserializing)]
    Ack {
        /// The client's number for the request, if it sent one.
        req: Option<u64>,
        /// The game's id.
        game: String,
        /// The action's `type` (`move`, `resign`, ...).
        action: ActionName,
        /// The game's revision after the action.
        rev: i64,
        /// Moves in the game after the action.
        ply: usize,
        /// The rematch created by this action.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        rematch_id: Option<String>,
    },
    /// An online action was refused: `kind` says why in a word
    /// (`not_a_player`, `not_your_turn`, `stale`, `game_over`, `illegal_move`,
    /// `waiting`, `rate_limited`, ...), `message` in a sentence.
    #[serde(skip_deserializing)]
    Refused {
        /// The client's number for the request, if it sent one.
        req: Option<u64>,
        /// The game's id.
        game: String,
        /// The action's `type` (`move`, `resign`, ...).
        action: ActionName,
        /// Why, in a word.
        kind: crate::kind::Kind,
        /// Why, as a sentence.
        message: String,
        /// An illegal move: why the rules forbid it, as a sentence.
        #[serde(skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reason: Option<String>,
    },
    /// A depth of a live analysis finished (`done`: the analysis ended;
    /// the lines are the last ones found); `id` is the client's number.
    #[serde(skip_deserializing)]
    Analysis {
        /// The client's number for the analysis.
        id: u64,
        /// The position analysed.
        fen: String,
        /// The depth finished, in plies.
        depth: u32,
        /// Positions searched so far.
        nodes: u64,
        /// Time searched so far, in milliseconds.
        time_ms: u64,
        /// Best first.
        lines: Vec<AnalysisLineView>,
        /// The analysis ended: no more messages come for `id`.
        done: bool,
    },
    /// An analysis was not started: `kind` says why in a word
    /// (`overloaded`, `rate_limited`, `too_many`, `bad_request`,
    /// `illegal_move`), `message` in a sentence.
    #[serde(skip_deserializing)]
    AnalysisRefused {
        /// The client's number for the analysis.
        id: u64,
        /// Why, in a word.
        kind: crate::kind::Kind,
        /// Why, as a sentence.
        message: String,
    },
}
