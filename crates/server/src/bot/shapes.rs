//! What the programs' streams send, in lichess's shapes, made from the
//! server's typed views and events (never from their JSON read again: a
//! field renamed in a view is a compile error here, not a default sent).
//!
//! Fields are written in the order of their JSON names, as the streams
//! wrote them when they were built as JSON maps (sorted keys).

use super::lichess::{self, GameStatus, PerfKey};
use super::BotPlayerView;
use crate::store::{ChatRoom, ClockSettings, Speed};
use crate::views::challenge::{ChallengeEvent, ChallengeStatus, ChallengeView};
use crate::views::chat::ChatLineView;
use crate::views::RatedPlayerView;
use crate::views::ServerEvent;
use serde::Serialize;
use tensorchess_rules::Color;

/// What a declined challenge says when its receiver gave no reason.
pub const DEFAULT_DECLINE: &str = "I'm not accepting challenges at the moment.";

/// A game's `variant` (`{"key": "standard", ...}`).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantShape {
    /// `standard`, `tensor`, `chessence`.
    pub key: super::lichess::VariantKey,
    /// Its name for people.
    pub name: &'static str,
    /// Its short name.
    pub short: &'static str,
}

/// A perf as a challenge names it (`{"icon": "", "name": "Blitz"}`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct PerfName {
    /// No icon here.
    pub icon: &'static str,
    /// The perf's name.
    pub name: &'static str,
}

/// A perf as `gameFull` names it (`{"name": "Blitz"}`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GamePerf {
    /// The perf's name.
    pub name: &'static str,
}

/// What kind of time control a challenge has.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum TimeControlKind {
    /// A real-time clock.
    Clock,
    /// Days per move.
    Correspondence,
    /// No clock at all.
    Unlimited,
}

/// A challenge's state, in lichess's words.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeStatusWord {
    /// Open, waiting for an answer.
    Created,
    /// Accepted: the game began.
    Accepted,
    /// Declined.
    Declined,
    /// Withdrawn, or lapsed.
    Canceled,
}

/// How a game was made, for lichess's clients: here always between
/// people who chose each other (a challenge, a seek, a tournament's pairing).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum GameSource {
    /// lichess's `friend`.
    Friend,
}

/// A chat room as the game stream's `chatLine` names it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ChatLineRoom {
    /// The players' room.
    Player,
    /// The spectators' room.
    Spectator,
}

/// A challenge's time control: `clock` (`limit`, `increment`, `show`),
/// `correspondence` (`daysPerTurn`) or `unlimited`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Correspondence: days per move.
    #[serde(rename = "daysPerTurn", skip_serializing_if = "Option::is_none")]
    pub days_per_turn: Option<u32>,
    /// Clock: seconds added per move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub increment: Option<i64>,
    /// Clock: seconds for the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    /// Clock: as people write it (`3+2`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub show: Option<String>,
    /// `clock`, `correspondence` or `unlimited`.
    #[serde(rename = "type")]
    pub kind: TimeControlKind,
}

impl TimeControl {
    fn of(clock: Option<ClockSettings>, days: Option<u32>) -> TimeControl {
        let none = TimeControl {
            days_per_turn: None,
            increment: None,
            limit: None,
            show: None,
            kind: TimeControlKind::Unlimited,
        };
        match (clock, days) {
            (Some(c), _) => {
                let (base, inc) = (c.base_ms / 1000, c.increment_ms / 1000);
                TimeControl {
                    increment: Some(inc),
                    limit: Some(base),
                    show: Some(format!("{}+{inc}", fmt_minutes(base))),
                    kind: TimeControlKind::Clock,
                    ..none
                }
            }
            (None, Some(days)) => TimeControl {
                days_per_turn: Some(days),
                kind: TimeControlKind::Correspondence,
                ..none
            },
            (None, None) => none,
        }
    }
}

/// Minutes as lichess shows them (`3`, `0.5`).
fn fmt_minutes(seconds: i64) -> String {
    if seconds % 60 == 0 {
        (seconds / 60).to_string()
    } else {
        format!("{}", seconds as f64 / 60.0)
    }
}

/// A player of a challenge (lichess's `challenger`, `destUser`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct ChallengeUser {
    /// The id as lichess's API shows users ([`lichess::user_id`]).
    pub id: String,
    /// The account's user name, else the display name.
    pub name: String,
    /// The rating is provisional.
    pub provisional: bool,
    /// The rating in the challenge's pool.
    pub rating: i32,
    /// `BOT` (left out for others, as lichess does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<crate::views::Title>,
}

impl From<&RatedPlayerView> for ChallengeUser {
    fn from(p: &RatedPlayerView) -> ChallengeUser {
        let (rated, p) = (p, &p.player);
        ChallengeUser {
            id: lichess::user_id(&p.id, p.account.as_deref()),
            name: p.account.clone().unwrap_or_else(|| p.name.clone()),
            provisional: rated.provisional,
            rating: rated.rating,
            title: p.title,
        }
    }
}

/// A challenge in lichess's shape (`POST /api/challenge/{user}`'s answer,
/// the event stream's `challenge`, `challengeCanceled`, `challengeDeclined`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct LichessChallenge {
    /// Who challenges.
    pub challenger: ChallengeUser,
    /// The challenger's colour asked for.
    pub color: crate::store::SeekColor,
    /// A declined challenge: why.
    #[serde(rename = "declineReason", skip_serializing_if = "Option::is_none")]
    pub decline_reason: Option<String>,
    /// Who is challenged.
    #[serde(rename = "destUser")]
    pub dest_user: ChallengeUser,
    /// `in` or `out`, for the player who reads it.
    pub direction: crate::views::challenge::Direction,
    /// The challenger's colour in the game.
    #[serde(rename = "finalColor")]
    pub final_color: crate::store::SeekColor,
    /// The challenge's id.
    pub id: String,
    /// The game's perf.
    pub perf: PerfName,
    /// Rated or not.
    pub rated: bool,
    /// lichess's speed of its time control.
    pub speed: Speed,
    /// `created`, `accepted`, `declined` or `canceled` (an expired one too).
    pub status: ChallengeStatusWord,
    /// Its time control.
    #[serde(rename = "timeControl")]
    pub time_control: TimeControl,
    /// Where the page shows it.
    pub url: String,
    /// The game.
    pub variant: VariantShape,
}

impl From<&ChallengeView> for LichessChallenge {
    fn from(c: &ChallengeView) -> LichessChallenge {
        let clock = c.clock.map(|clock| ClockSettings {
            base_ms: clock.base_seconds * 1000,
            increment_ms: clock.increment_seconds * 1000,
        });
        let status = match c.state {
            ChallengeStatus::Open => ChallengeStatusWord::Created,
            ChallengeStatus::Accepted => ChallengeStatusWord::Accepted,
            ChallengeStatus::Declined => ChallengeStatusWord::Declined,
            ChallengeStatus::Canceled | ChallengeStatus::Expired => ChallengeStatusWord::Canceled,
        };
        let decline_reason = match (&c.reason, c.state) {
            (Some(reason), _) => Some(reason.clone()),
            (None, ChallengeStatus::Declined) => Some(DEFAULT_DECLINE.to_string()),
            (None, _) => None,
        };
        LichessChallenge {
            challenger: ChallengeUser::from(&c.from),
            color: c.color,
            decline_reason,
            dest_user: ChallengeUser::from(&c.to),
            direction: c.direction,
            final_color: c.final_color,
            id: c.id.clone(),
            perf: PerfName {
                icon: "",
                name: PerfKey::of(c.variant, clock).name(),
            },
            rated: c.rated,
            speed: lichess::speed(clock),
            status,
            time_control: TimeControl::of(clock, c.days),
            url: format!("/#/challenge/{}", c.id),
            variant: lichess::variant(c.variant),
        }
    }
}

/// The opponent in a `gameStart`/`gameFinish` game.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// Their id ([`lichess::user_id`]).
    pub id: String,
    /// Their rating in the game, when rated.
    pub rating: Option<i32>,
    /// How the game changed it, once over.
    #[serde(rename = "ratingDiff", skip_serializing_if = "Option::is_none")]
    pub rating_diff: Option<i32>,
    /// `BOT` (left out for others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<crate::views::Title>,
    /// Their name.
    pub username: String,
}

impl Opponent {
    /// The opponent `them`, with their rating's change.
    pub fn of(them: BotPlayerView, rating_diff: Option<i32>) -> Opponent {
        Opponent {
            id: them.id,
            rating: them.rating,
            rating_diff,
            title: them.title,
            username: them.name,
        }
    }
}

/// What programs may drive the game with.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compat {
    /// The Board API.
    pub board: bool,
    /// The Bot API.
    pub bot: bool,
}

/// A game's status: `{"id": 31, "name": "resign"}` (lichess's numbers).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// lichess's number for it.
    pub id: u32,
    /// Its word (`started`, `mate`, `resign`...).
    pub name: GameStatus,
}

/// A game as `gameStart` and `gameFinish` show it to one of its players
/// (and `GET /api/account/playing`).
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct GameEventShape {
    /// Always both.
    pub compat: Compat,
    /// The player's colour.
    pub color: Color,
    /// The position now.
    pub fen: String,
    /// The game's id (lichess's id with the player's part).
    #[serde(rename = "fullId")]
    pub full_id: String,
    /// The game's id.
    #[serde(rename = "gameId")]
    pub game_id: String,
    /// A move was made.
    #[serde(rename = "hasMoved")]
    pub has_moved: bool,
    /// The game's id.
    pub id: String,
    /// The player is to move (and the game goes on).
    #[serde(rename = "isMyTurn")]
    pub is_my_turn: bool,
    /// The last move's string, or empty.
    #[serde(rename = "lastMove")]
    pub last_move: String,
    /// Who plays the other side.
    pub opponent: Opponent,
    /// The perf's key (`blitz`, `tensor`).
    pub perf: PerfKey,
    /// Rated or not.
    pub rated: bool,
    /// Once over: how the game changed the player's rating.
    #[serde(rename = "ratingDiff", skip_serializing_if = "Option::is_none")]
    pub rating_diff: Option<i32>,
    /// The player's time left in seconds (`null` without a clock).
    #[serde(rename = "secondsLeft")]
    pub seconds_left: Option<i64>,
    /// Always `friend`.
    pub source: GameSource,
    /// lichess's speed.
    pub speed: Speed,
    /// Where it stands.
    pub status: Status,
    /// The game.
    pub variant: VariantShape,
    /// Once won: the winner's colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Color>,
}

/// A line of `GET /api/stream/event`.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum EventLine {
    /// A challenge made (or open when the stream began).
    Challenge {
        /// The challenge.
        challenge: Box<LichessChallenge>,
    },
    /// A challenge withdrawn or lapsed.
    ChallengeCanceled {
        /// The challenge.
        challenge: Box<LichessChallenge>,
    },
    /// A challenge declined.
    ChallengeDeclined {
        /// The challenge.
        challenge: Box<LichessChallenge>,
    },
    /// A game of the player's began (or goes on when the stream began).
    GameStart {
        /// The game.
        game: Box<GameEventShape>,
    },
    /// A game of the player's ended.
    GameFinish {
        /// The game.
        game: Box<GameEventShape>,
    },
}

/// What a `challenges` event of the hub becomes on the event stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChallengeNews {
    /// A line to send.
    Line(EventLine),
    /// The challenge was accepted: this game began (a `gameStart`).
    Started(String),
}

impl ChallengeNews {
    /// The news an event carries, if it is a challenge's.
    pub fn of(event: &ServerEvent) -> Option<ChallengeNews> {
        let ServerEvent::Challenge {
            event, challenge, ..
        } = event
        else {
            return None;
        };
        let lichess = || Box::new(LichessChallenge::from(&**challenge));
        Some(ChallengeNews::Line(match event {
            ChallengeEvent::Created => EventLine::Challenge {
                challenge: lichess(),
            },
            ChallengeEvent::Declined => EventLine::ChallengeDeclined {
                challenge: lichess(),
            },
            ChallengeEvent::Canceled | ChallengeEvent::Expired => EventLine::ChallengeCanceled {
                challenge: lichess(),
            },
            ChallengeEvent::Accepted => return challenge.game.clone().map(ChallengeNews::Started),
        }))
    }
}

/// A `chatLine` of a game's stream.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "type", rename = "chatLine")]
pub struct ChatLine {
    /// `player` or `spectator`.
    pub room: ChatLineRoom,
    /// The line.
    pub text: String,
    /// Its author's name.
    pub username: String,
}

impl From<&ChatLineView> for ChatLine {
    fn from(line: &ChatLineView) -> ChatLine {
        ChatLine {
            room: match line.room {
                ChatRoom::Players => ChatLineRoom::Player,
                _ => ChatLineRoom::Spectator,
            },
            text: line.text.clone(),
            username: line.name.clone(),
        }
    }
}

/// An `opponentGone` line: the opponent left (`claimWinInSeconds`: when
/// the win may be claimed, with a real-time clock) or came back.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(tag = "type", rename = "opponentGone")]
pub struct OpponentGone {
    /// Seconds until the win may be claimed.
    #[serde(rename = "claimWinInSeconds", skip_serializing_if = "Option::is_none")]
    pub claim_win_in_seconds: Option<i64>,
    /// Gone (or back).
    pub gone: bool,
}

impl OpponentGone {
    /// The line for `gone`, and maybe the count.
    pub fn new(gone: bool, claim_win_in_seconds: Option<i64>) -> OpponentGone {
        OpponentGone {
            claim_win_in_seconds,
            gone,
        }
    }
}

/// A player of `gameFull`.
pub type GamePlayer = BotPlayerView;

/// A game's clock in `gameFull` (milliseconds).
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// Time added per move.
    pub increment: i64,
    /// Time for the game.
    pub initial: i64,
}

/// The `gameFull` line: the game as its stream begins.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "type", rename = "gameFull")]
pub struct GameFull {
    /// Black.
    pub black: GamePlayer,
    /// The clock; `null` without one.
    pub clock: Option<GameClock>,
    /// When the game was made (ms).
    #[serde(rename = "createdAt")]
    pub created_at: i64,
    /// The game's id.
    pub id: String,
    /// `startpos`, or the FEN the game began from.
    #[serde(rename = "initialFen")]
    pub initial_fen: String,
    /// The game's perf.
    pub perf: GamePerf,
    /// Rated or not.
    pub rated: bool,
    /// lichess's speed.
    pub speed: Speed,
    /// The game's state now.
    pub state: super::GameStateLine,
    /// The game.
    pub variant: VariantShape,
    /// White.
    pub white: GamePlayer,
}

#[cfg(test)]
#[path = "shapes_tests.rs"]
mod tests;
