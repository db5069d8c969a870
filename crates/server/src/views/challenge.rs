//! Challenges as their two players' pages see them, and what became of
//! one.

use crate::store::{ChallengeState, SeekColor};
use crate::views::{words, ClockSpecView};
use serde::{Deserialize, Serialize};
use tensorchess_rules::VariantKind;

/// What became of a challenge, as its two players' pages are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
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

/// Which way a challenge goes, for the player who sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Received.
    In,
    /// Made.
    Out,
}

/// Where a challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum ChallengeStatus {
    /// Waiting for an answer.
    Open,
    /// Accepted: the game was made.
    Accepted,
    /// Declined by the invited player.
    Declined,
    /// Withdrawn by the challenger.
    Canceled,
    /// Nobody answered in time.
    Expired,
}

impl ChallengeStatus {
    /// The status of a stored state.
    pub fn of(state: &ChallengeState) -> ChallengeStatus {
        match state {
            ChallengeState::Open => ChallengeStatus::Open,
            ChallengeState::Accepted { .. } => ChallengeStatus::Accepted,
            ChallengeState::Declined { .. } => ChallengeStatus::Declined,
            ChallengeState::Canceled => ChallengeStatus::Canceled,
            ChallengeState::Expired => ChallengeStatus::Expired,
        }
    }
}

/// A challenge, as one of its two players sees it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ChallengeView {
    /// Its id.
    pub id: String,
    /// `in` (received) or `out` (made), for the asker.
    pub direction: Direction,
    /// The challenger.
    pub from: super::RatedPlayerView,
    /// The player challenged.
    pub to: super::RatedPlayerView,
    /// `tensor`, `chess` or `chessence`.
    pub variant: VariantKind,
    /// Its title.
    #[ts(type = "string")]
    pub variant_title: words::VariantTitle,
    /// The real-time clock; `null` for none.
    pub clock: Option<ClockSpecView>,
    /// Days per move; `null` for none.
    pub days: Option<u32>,
    /// Rated or not.
    pub rated: bool,
    /// The challenger's colour: `white`, `black` or `random`.
    pub color: SeekColor,
    /// The challenger's colour in the game: `random` drawn from the
    /// challenge's (random) id, as lichess says it before acceptance.
    pub final_color: SeekColor,
    /// `open`, `accepted`, `declined`, `canceled` or `expired`.
    pub state: ChallengeStatus,
    /// The game, once accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub game: Option<String>,
    /// The reason given with a decline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// When it was made (ms).
    pub created_at: i64,
    /// When it lapses unless answered (ms).
    pub expires_at: i64,
}

/// `GET /api/challenges`: the asker's open challenges.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct ChallengesView {
    /// Received, oldest first.
    #[serde(rename = "in")]
    pub incoming: Vec<ChallengeView>,
    /// Made, oldest first.
    #[serde(rename = "out")]
    pub outgoing: Vec<ChallengeView>,
}
