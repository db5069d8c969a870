//! Challenges as their two players' pages see them, and what became of
//! one.

use crate::store::ChallengeState;
use crate::views::ClockSpecView;
use serde::Serialize;

/// What became of a challenge, as its two players' pages are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeEvent {
    /// It was made.
    Created,
    /// It was accepted: the game was made.
    Accepted,
    /// The invited player declined it.
    Declined,
    /// The challenger withdrew it.
    Canceled,
    /// Nobody answered in time.
    Expired,
}

impl ChallengeEvent {
    /// The news of a challenge that now stands at `state`.
    pub fn of(state: &ChallengeState) -> ChallengeEvent {
        match state {
            ChallengeState::Open => ChallengeEvent::Created,
            ChallengeState::Accepted { .. } => ChallengeEvent::Accepted,
            ChallengeState::Declined { .. } => ChallengeEvent::Declined,
            ChallengeState::Canceled => ChallengeEvent::Canceled,
            ChallengeState::Expired => ChallengeEvent::Expired,
        }
    }
}

/// A player of a challenge, as pages show them.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct ChallengerView {
    /// Their player id.
    pub id: String,
    /// Their name.
    pub name: String,
    /// Their account's user name (for the profile link).
    pub account: Option<String>,
    /// `BOT` for a bot account.
    pub title: Option<&'static str>,
    /// Their rating in the challenge's pool (the start for a newcomer).
    pub rating: i32,
    /// Whether that rating is still provisional (as lichess marks it).
    pub provisional: bool,
}

/// A challenge, as one of its two players sees it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct ChallengeView {
    /// Its id.
    pub id: String,
    /// `in` (received) or `out` (made), for the asker.
    pub direction: &'static str,
    /// The challenger.
    pub from: ChallengerView,
    /// The player challenged.
    pub to: ChallengerView,
    /// `tensor`, `chess` or `chessence`.
    pub variant: &'static str,
    /// Its title.
    pub variant_title: &'static str,
    /// The real-time clock; `null` for none.
    pub clock: Option<ClockSpecView>,
    /// Days per move; `null` for none.
    pub days: Option<u32>,
    /// Rated or not.
    pub rated: bool,
    /// The challenger's colour: `white`, `black` or `random`.
    pub color: &'static str,
    /// The challenger's colour in the game: `random` drawn from the
    /// challenge's (random) id, as lichess says it before acceptance.
    pub final_color: &'static str,
    /// `open`, `accepted`, `declined`, `canceled` or `expired`.
    pub state: &'static str,
    /// The game, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The reason given with a decline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it lapses unless answered (ms).
    pub expires_at: i64,
}

/// `GET /api/challenges`: the asker's open challenges.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct ChallengesView {
    /// Received, oldest first.
    #[serde(rename = "in")]
    pub incoming: Vec<ChallengeView>,
    /// Made, oldest first.
    #[serde(rename = "out")]
    pub outgoing: Vec<ChallengeView>,
}
